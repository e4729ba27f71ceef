"""Mistake bounds of the Passive-Aggressive algorithms (Crammer et al. 2006, Thms 2-5, Cor. 8).

The paper's comparator is any vector u with the hinge loss at margin 1,
l*_t = max(0, 1 - y_t u.x_t); the toolkit's is a unit u' with a margin gamma.
With u = u'/gamma, l*_t = l_t(gamma)/gamma, so ||u||^2 = 1/gamma^2,
sum l*_t = D1/gamma and sum l*_t^2 = D2^2/gamma^2 (theory §4.6). Every
mistake has the algorithm's loss >= 1, so a bound on the sum of its squared
losses bounds the mistakes. Each bound applies to one variant (its
``applies`` selector); the native multiclass run has them through Kesler's
construction, the virtual instance of norm sqrt(2) ||x|| (theory §4.6).

The tightened variants (theory §4.6): Lemma 1 sums over the trials with a
positive loss only (the update trials), so D1, D2 and the separation run over
them; the radius enters only through the mistakes (a margin error's term is
dropped as nonnegative), so R runs over the mistaken trials.

References
----------
K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz and Y. Singer, "Online
Passive-Aggressive Algorithms", JMLR 7 (2006), sec. 4 and 7 [CDK06].
"""

from __future__ import annotations

import numpy as np

from .declaration import Bound, Requirement, register_bound, register_provider
from .first_order import SEPARATION
from .providers import FirstOrderQuantities, KeslerQuantities, is_trial

# How far from 1 an instance's norm may be for Theorem 3's ||x_t|| = 1 (rounding of unit rows).
UNIT_TOLERANCE = 1e-12


def pa_separable(R, gamma):
    """The separable bound R^2 / gamma^2 on PA's squared losses and so on its mistakes.

    Parameters
    ----------
    R : float or ndarray
        max ||x_t|| (over the mistaken trials for the tightened variant).
    gamma : float or ndarray
        Margin gamma > 0 at which a unit u separates the trials (every trial,
        or every update trial for the tightened variant).

    Returns
    -------
    ndarray or float

    Notes
    -----
    [CDK06, Thm 2]: sum_t l_t^2 <= ||u||^2 R^2 when l*_t = 0 for all t; with
    u = u'/gamma, ||u||^2 = 1/gamma^2, and every mistake has l_t >= 1
    (theory §4.6).

    Examples
    --------
    >>> float(pa_separable(1.0, 0.5))
    4.0
    """
    return (np.asarray(R, dtype=np.float64) / np.asarray(gamma, dtype=np.float64)) ** 2


def pa_general(gamma, D2, R=1.0, R_min=1.0, *, exact=False):
    """PA's bound for unit instances ((1 + 2 D2)/gamma)^2, or its derived exact form.

    The stated form is reported at least as large as the derived one, which it is
    whenever every norm is exactly 1, so that rows whose norms round to within
    ``UNIT_TOLERANCE`` of 1 keep a proved bound.

    Parameters
    ----------
    gamma : float or ndarray
        Margin gamma > 0.
    D2 : float or ndarray
        sqrt(sum_t l_t^2) of the unit comparator at gamma.
    R, R_min : float or ndarray, default=1.0
        The largest norm over the mistaken trials and the smallest over the
        update trials (``exact`` only).
    exact : bool, default=False
        The derived bound for any norms, (R / R_min)^2 ((D2 + sqrt(D2^2 + R_min^2)) / gamma)^2
        (theory §4.6), instead of the stated one.

    Returns
    -------
    ndarray or float

    Notes
    -----
    [CDK06, Thm 3] with ||x_t|| = 1: sum l_t^2 <= (||u|| + 2 sqrt(sum l*_t^2))^2,
    i.e. ((1 + 2 D2)/gamma)^2. Derived (theory §4.6): for any nonzero instances,
    with a_t = l_t/||x_t||, Lemma 1 gives sum a_t^2 <= ||u||^2 + 2 sum a_t l*_t/||x_t||,
    whose root is at most (D2 + sqrt(D2^2 + R_min^2)) / (gamma R_min), and
    m <= R^2 sum a_t^2 over the mistakes. For unit norms it is the exact root,
    ((D2 + sqrt(D2^2 + 1))/gamma)^2, never above the stated form.

    Examples
    --------
    >>> float(pa_general(1.0, 1.0)), round(float(pa_general(1.0, 0.0, exact=True)), 12)
    (9.0, 1.0)
    """
    gamma = np.asarray(gamma, dtype=np.float64)
    D2 = np.asarray(D2, dtype=np.float64)
    R = np.asarray(R, dtype=np.float64)
    R_min = np.asarray(R_min, dtype=np.float64)
    ratio = np.divide(R, R_min, out=np.zeros(np.broadcast(R, R_min).shape), where=R > 0.0)
    derived = (ratio * (D2 + np.hypot(D2, R_min)) / gamma) ** 2
    if exact:
        return derived
    # norms within UNIT_TOLERANCE of 1: the derived form covers the rounding of unit rows
    return np.fmax(((1.0 + 2.0 * D2) / gamma) ** 2, derived)


def pa1_mistakes(R, gamma, D1, C):
    """PA-I's mistake bound max(R^2, 1/C) (1/gamma^2 + 2 C D1/gamma).

    Parameters
    ----------
    R : float or ndarray
        max ||x_t|| (over the mistaken trials for the tightened variant).
    gamma : float or ndarray
        Margin gamma > 0.
    D1 : float or ndarray
        sum_t max(0, gamma - y_t u.x_t) of a unit u (over the update trials
        for the tightened variant).
    C : float
        PA-I's aggressiveness, C > 0.

    Returns
    -------
    ndarray or float

    Notes
    -----
    [CDK06, Thm 4]: m <= max(R^2, 1/C) (||u||^2 + 2 C sum l*_t), with
    ||u||^2 = 1/gamma^2 and sum l*_t = D1/gamma (theory §4.6). Computed as
    max((R/gamma)^2, 1/(C gamma^2)) (1 + 2 C gamma D1).

    Examples
    --------
    >>> float(pa1_mistakes(1.0, 0.5, 1.0, 1.0))
    8.0
    """
    R = np.asarray(R, dtype=np.float64)
    gamma = np.asarray(gamma, dtype=np.float64)
    D1 = np.asarray(D1, dtype=np.float64)
    return np.maximum((R / gamma) ** 2, 1.0 / (C * gamma * gamma)) * (1.0 + 2.0 * C * gamma * D1)


def pa2_mistakes(R, gamma, D2, C):
    """PA-II's bound (R^2 + 1/(2C)) (1 + 2 C D2^2) / gamma^2 on its squared losses and mistakes.

    Parameters
    ----------
    R : float or ndarray
        max ||x_t|| (over the mistaken trials for the tightened variant).
    gamma : float or ndarray
        Margin gamma > 0.
    D2 : float or ndarray
        sqrt(sum_t max(0, gamma - y_t u.x_t)^2) of a unit u (over the update
        trials for the tightened variant).
    C : float
        PA-II's aggressiveness, C > 0.

    Returns
    -------
    ndarray or float

    Notes
    -----
    [CDK06, Thm 5]: sum l_t^2 <= (R^2 + 1/(2C)) (||u||^2 + 2 C sum (l*_t)^2),
    with ||u||^2 = 1/gamma^2 and sum (l*_t)^2 = D2^2/gamma^2 (theory §4.6).

    Examples
    --------
    >>> float(pa2_mistakes(1.0, 0.5, 0.5, 1.0))
    9.0
    """
    R = np.asarray(R, dtype=np.float64)
    gamma = np.asarray(gamma, dtype=np.float64)
    D2 = np.asarray(D2, dtype=np.float64)
    return ((R / gamma) ** 2 + 0.5 / (C * gamma * gamma)) * (1.0 + 2.0 * C * D2 * D2)


class _PassiveAggressiveExtras:
    """What the PA bounds add to a first-order provider (a mixin before it)."""

    @classmethod
    def whole(cls, ctx, comp, tightened):
        q = super().whole(ctx, comp, tightened)
        run = ctx.run
        norms = cls.factor * cls.norms_of(ctx)
        used = norms[cls._rows(ctx, tightened)]
        mistaken = norms[run.sample_index[run.mistake_trials]]
        q.R_m = float(mistaken.max(initial=0.0)) if tightened else q.R
        q.R_min = float(used.min(initial=np.inf))
        q.unit_error = float(np.max(np.abs(used - 1.0), initial=0.0))
        q.C = float(run.params["C"])
        q.common.update(R_m=q.R_m, R_min=q.R_min)
        return q

    @classmethod
    def prefixes(cls, ctx, comp, gamma, tightened):
        pieces = super().prefixes(ctx, comp, gamma, tightened)
        run = ctx.run
        norms = cls.norms_of(ctx)[ctx.rows_all]
        used = is_trial(run, cls.used_trials(run)) if tightened else np.ones(run.n_trials, bool)
        for q, _, _ in pieces:
            q.R_min = np.minimum.accumulate(np.where(used, norms, np.inf))
            q.unit_error = np.maximum.accumulate(np.where(used, np.abs(norms - 1.0), 0.0))
            q.R_m = (np.maximum.accumulate(np.where(is_trial(run, run.mistake_trials), norms, 0.0))
                     if tightened else q.R)
            q.C = float(run.params["C"])
        return pieces


class PassiveAggressiveQuantities(_PassiveAggressiveExtras, FirstOrderQuantities):
    """The first-order quantities with those of the PA bounds (theory §4.6).

    Besides those of :class:`~.providers.FirstOrderQuantities` (R, D1, D2,
    min_margin over every trial or every update trial): ``R_m``, max ||x_t||
    over the mistaken trials (tightened; R when stated), ``R_min``, min ||x_t||
    over the trials used (inf for none), ``unit_error``, max | ||x_t|| - 1 |
    over them, and ``C``.
    """


class PassiveAggressiveKeslerQuantities(_PassiveAggressiveExtras, KeslerQuantities):
    """:class:`PassiveAggressiveQuantities` of a native run: the virtual instances
    Phi(x, y) - Phi(x, y~) have norm sqrt(2) ||x|| (theory §4.6)."""

    def source(self, text: str) -> str:
        return f"CDK06 sec. 7 + Kesler (derived; {text})"


register_provider("pa", PassiveAggressiveQuantities, PassiveAggressiveKeslerQuantities)


def _variant(name):
    """The ``applies`` selector of a bound of the variant ``name``."""
    return lambda params: params.get("variant") == name


def _general_holds(q):
    """Thm 3 asks for unit instances on every trial; its derived tightened form for no zero
    instance on the update trials."""
    return np.where(q.tightened, q.R_min > 0.0, q.unit_error <= UNIT_TOLERANCE)


def _general_reason(q) -> str:
    if q.tightened:
        return "a zero instance among the update trials (PA's step l/||x||^2 is undefined there)"
    return (f"Thm 3 needs ||x_t|| = 1 on {q.which}: max | ||x_t|| - 1 | = {q.unit_error:.3g} "
            f"(> {UNIT_TOLERANCE:g})")


PA_SEPARABLE = register_bound(Bound(
    name="pa_separable", label=r"pa_separable $(R/\gamma)^2$", provider="pa", theory="§4.6",
    source=lambda q: "CDK06 Thm 2" + (", Cor. 8" if q.factor != 1.0 else ""),
    value=lambda q, gamma: pa_separable(q.R_m, gamma), quantities=("R", "R_m", "min_margin"),
    conditions=(SEPARATION,), applies=_variant("pa")))

PA_GENERAL = register_bound(Bound(
    name="pa_general", label=r"pa_general $((1 + 2 D_2)/\gamma)^2$", provider="pa",
    theory="§4.6", source="CDK06 Thm 3",
    value=lambda q, gamma: pa_general(gamma, q.D2(gamma), q.R_m, q.R_min, exact=q.tightened),
    quantities=("R", "R_m", "R_min", "D2"),
    conditions=(Requirement(_general_holds, _general_reason),), applies=_variant("pa")))

PA1_MISTAKES = register_bound(Bound(
    name="pa1_mistakes", label=r"pa1_mistakes $\max(R^2, 1/C)(1/\gamma^2 + 2 C D_1/\gamma)$",
    provider="pa", theory="§4.6", source="CDK06 Thm 4",
    value=lambda q, gamma: pa1_mistakes(q.R_m, gamma, q.D1(gamma), q.C),
    quantities=("R", "R_m", "D1", "C"), applies=_variant("pa1")))

PA2_MISTAKES = register_bound(Bound(
    name="pa2_mistakes",
    label=r"pa2_mistakes $(R^2 + \frac{1}{2C})(1 + 2 C D_2^2)/\gamma^2$",
    provider="pa", theory="§4.6", source="CDK06 Thm 5",
    value=lambda q, gamma: pa2_mistakes(q.R_m, gamma, q.D2(gamma), q.C),
    quantities=("R", "R_m", "D2", "C"), applies=_variant("pa2")))
