"""Mistake bounds of the p-norm Perceptron (Grove, Littlestone and Schuurmans 2001; Gentile 2003).

The p-norm Perceptron (theory §2.5) keeps theta = sum of y_t x_t over its
mistakes and predicts with g(theta), the gradient of ||theta||_p^2 / 2. For
p >= 2 that potential is (p - 1)-smooth with respect to ||.||_p, so every
first-order bound holds with R^2 replaced by (p - 1) R_p^2, where
R_p = max ||x_t||_p (the instances as the algorithm sees them), and a
comparator u of unit dual norm, ||u||_q = 1 with q = p / (p - 1)
(theory §4.1). Each closed form here is the Euclidean one of
:mod:`.first_order` or :mod:`.ballseptron` at the radius sqrt(p - 1) R_p, so
p = 2 gives the Perceptron's values bit for bit. Vectorised over arrays of
``gamma`` and of the hinge-loss sums, as the other closed forms.

References
----------
A. J. Grove, N. Littlestone and D. Schuurmans, "General convergence results
for linear discriminant updates", Machine Learning 43 (2001) [GLS01].
C. Gentile, "The robustness of the p-norm algorithms", Machine Learning 53
(2003) [Gen03].
"""

from __future__ import annotations

import numpy as np

from .._linalg import dual_exponent
from .ballseptron import ballseptron_d1
from .declaration import Bound, register_bound, register_provider
from .first_order import SEPARATION, freund_schapire, novikoff
from .providers import FirstOrderQuantities


def smooth_radius(R_p, p):
    """sqrt(p - 1) R_p: the radius at which the Euclidean closed forms give the p-norm bounds.

    Exactly ``R_p`` for p = 2 (sqrt(1) = 1 is exact in floating point).
    """
    return np.sqrt(np.asarray(p, dtype=np.float64) - 1.0) * np.asarray(R_p, dtype=np.float64)


def pnorm_separable(R_p, p, gamma):
    """The separable bound (p - 1) R_p^2 / gamma^2 of the p-norm Perceptron.

    Parameters
    ----------
    R_p : float or ndarray
        max ||x_t||_p over the instances as the algorithm sees them.
    p : float
        The norm parameter, p >= 2.
    gamma : float or ndarray
        Margin gamma > 0.

    Returns
    -------
    ndarray or float
        (p - 1) R_p^2 / gamma^2, computed as ``novikoff(sqrt(p - 1) R_p, gamma)``.

    Notes
    -----
    [GLS01]; [Gen03]: if u with ||u||_q = 1 has y_t u.x_t >= gamma on every
    mistaken trial, then ||theta_m||_p^2 <= (p - 1) m R_p^2 (smoothness, and
    y_t g(theta).x_t <= 0 on a mistake) while u.theta_m >= m gamma, and
    Hölder's inequality u.theta <= ||u||_q ||theta||_p ends the proof
    (theory §4.1). p = 2 is Novikoff's bound.

    Examples
    --------
    >>> float(pnorm_separable(1.0, 3.0, 0.5))
    8.000000000000002
    """
    return novikoff(smooth_radius(R_p, p), gamma)


def pnorm_d1(R_p, p, gamma, D1):
    """The D1 bound of the p-norm Perceptron: the exact root of m gamma - D1 <= sqrt((p-1) m) R_p.

    Parameters
    ----------
    R_p : float or ndarray
        max ||x_t||_p.
    p : float
        The norm parameter, p >= 2.
    gamma : float or ndarray
        Margin gamma > 0.
    D1 : float or ndarray
        sum_t max(0, gamma - y_t u.x_t) for a u with ||u||_q = 1.

    Returns
    -------
    ndarray or float
        ((a + sqrt(a^2 + 4 gamma D1)) / (2 gamma))^2 with a = sqrt(p - 1) R_p, that is
        D1/gamma + a^2/(2 gamma^2) + (a/gamma) sqrt(D1/gamma + a^2/(4 gamma^2)).

    Notes
    -----
    [Gen03] for the p-norm Perceptron; for p = 2 it is the Perceptron bound
    that paper 000's Theorem 1 recovers at c = 1 (its footnote 3), and the
    exact root of paper 004's Theorem 2 with r = 0 (theory §4.2). The proof
    needs only u.theta_m >= m gamma - D1 and the smoothness bound above, both
    over the mistaken trials, so D1 and R_p may run over them (theory §4.2).
    No condition on gamma.

    Examples
    --------
    >>> float(pnorm_d1(1.0, 2.0, 1.0, 2.0))
    4.0
    """
    return ballseptron_d1(smooth_radius(R_p, p), gamma, D1, exact=True)


def pnorm_d2(R_p, p, gamma, D2):
    """The D2 bound ((sqrt(p - 1) R_p + D2) / gamma)^2 of the p-norm Perceptron (derived).

    Parameters
    ----------
    R_p : float or ndarray
        max ||x_t||_p over the mistaken trials (or all trials).
    p : float
        The norm parameter, p >= 2.
    gamma : float or ndarray
        Margin gamma > 0.
    D2 : float or ndarray
        sqrt(sum_t max(0, gamma - y_t u.x_t)^2) for a u with ||u||_q = 1.

    Returns
    -------
    ndarray or float
        ((sqrt(p - 1) R_p + D2) / gamma)^2.

    Notes
    -----
    Derived (theory §4.1): on the m mistaken trials Cauchy-Schwarz gives
    D1 <= sqrt(m) D2, so m gamma - sqrt(m) D2 <= sqrt((p - 1) m) R_p, whose
    root in sqrt(m) is this bound, as paper 004 proves Theorem 1 for r = 0.
    The hinge losses of the other trials only add to D2, so D2 over all
    trials bounds too. p = 2 is Freund and Schapire's Theorem 2 (paper 001).

    Examples
    --------
    >>> float(pnorm_d2(1.0, 2.0, 0.5, 1.0))
    16.0
    """
    return freund_schapire(smooth_radius(R_p, p), gamma, D2)


class PNormQuantities(FirstOrderQuantities):
    """R_p = max ||x_t||_p, p, q = p / (p - 1), D1, D2 and min_margin of a p-norm run
    (theory §4.1), over all trials (stated) or the mistaken ones (tightened); p is the
    run's parameter ``p``."""

    scopes = {False: "all", True: "mistakes"}
    which = {False: "every trial", True: "every mistaken trial"}

    @classmethod
    def norm_exponent(cls, run) -> float:
        return float(run.params.get("p", 2.0))

    @classmethod
    def used_trials(cls, run):
        return run.mistake_trials

    @classmethod
    def norms_of(cls, ctx) -> np.ndarray:
        return ctx.p_norms(cls.norm_exponent(ctx.run))

    @classmethod
    def _radius(cls, ctx, radius) -> dict:
        p = cls.norm_exponent(ctx.run)
        return {"R_p": radius, "p": p, "q": dual_exponent(p)}

    @classmethod
    def _common(cls, ctx, tightened, radius, n_used) -> dict:
        return {**cls._radius(ctx, radius), "trials": cls.scopes[tightened],
                "n_trials_used": n_used}


register_provider("p_norms", PNormQuantities)

PNORM_SEPARABLE = register_bound(Bound(
    name="pnorm_separable", source="GLS01; Gen03", provider="p_norms",
    value=lambda q, gamma: pnorm_separable(q.R_p, q.p, gamma),
    quantities=("R_p", "p", "min_margin"), conditions=(SEPARATION,)))

PNORM_D2 = register_bound(Bound(
    name="pnorm_d2", source="Gen03 + Cauchy-Schwarz (derived)", provider="p_norms",
    value=lambda q, gamma: pnorm_d2(q.R_p, q.p, gamma, q.D2(gamma)), quantities=("R_p", "p", "D2")))

PNORM_D1 = register_bound(Bound(
    name="pnorm_d1", source="Gen03", provider="p_norms",
    value=lambda q, gamma: pnorm_d1(q.R_p, q.p, gamma, q.D1(gamma)), quantities=("R_p", "p", "D1")))
