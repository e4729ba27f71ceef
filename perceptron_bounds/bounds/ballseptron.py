"""Mistake bounds of the Ballseptron (paper 004: Thm 1, Thm 2, Cor. 1, eq. 17).

They hold for the Perceptron too (r = 0, no margin errors). Closed forms are
vectorised over arrays of ``gamma`` and of the hinge-loss quantities.

Notation: R = max ||x_t||, l_t = max(0, gamma - y_t u.x_t) for a unit u,
D1 = sum l_t, D2 = sqrt(sum l_t^2), eps~ = number of margin errors,
beta = 1/2 - r/gamma - (r/gamma)^2 / 2.

References
----------
S. Shalev-Shwartz and Y. Singer, "A new perspective on an old Perceptron
algorithm", COLT 2005 (paper 004), sec. 3.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from ..registry import get as get_algorithm
from .declaration import Bound, GammaInterval, register_bound, register_provider
from .first_order import (
    ball_conditions,
    ball_in_force,
    euclidean,
    freund_schapire,
)
from .providers import FirstOrderQuantities, KeslerQuantities

# Bisection steps of the implicit (exact) forms; 2^-64 of the bracket is below float64 rounding.
_BISECTION_STEPS = 64

LOSSES = ("d2", "d1")


def ballseptron_beta(r, gamma):
    """beta = 1/2 - r/gamma - (r/gamma)^2/2 (paper 004, Cor. 1), > 0 iff r < (sqrt(2) - 1) gamma.

    Examples
    --------
    >>> float(ballseptron_beta(0.0, 1.0))
    0.5
    """
    ratio = np.asarray(r, dtype=np.float64) / np.asarray(gamma, dtype=np.float64)
    return 0.5 - ratio - 0.5 * ratio**2


def ballseptron_d1(R, gamma, D1, *, exact=False):
    """The D1 bound ((R + sqrt(gamma D1)) / gamma)^2 of paper 004, Theorem 2.

    Parameters
    ----------
    R : float or ndarray
        Radius max ||x_t||.
    gamma : float or ndarray
        Margin, 0 < gamma <= R for the Ballseptron.
    D1 : float or ndarray
        Sum of the hinge losses l_t.
    exact : bool, default=False
        Return the exact positive root of the proof's quadratic in sqrt(m)
        instead, ((R + sqrt(R^2 + 4 gamma D1)) / (2 gamma))^2 (theory §4.2), which
        is never larger.

    Returns
    -------
    ndarray or float

    Notes
    -----
    Paper 004, Thm 2: under 0 < gamma <= R and 0 <= r < (sqrt(2) - 1) gamma the
    Ballseptron makes at most ((R + sqrt(gamma D1)) / gamma)^2 mistakes; r = 0
    is a new bound for the Perceptron. The proof reaches
    q(m, 0) = gamma m - R sqrt(m) - D1 <= 0, whose positive root in sqrt(m) is
    (R + sqrt(R^2 + 4 gamma D1)) / (2 gamma) <= (R + sqrt(gamma D1)) / gamma.
    With margin errors the exact root is still a bound: if m exceeded it, then
    m + j > (R/gamma)^2 for every j >= 0 and the proof's monotonicity of q in
    eps~ applies at every step.

    Examples
    --------
    >>> float(ballseptron_d1(3.0, 1.0, 4.0)), float(ballseptron_d1(3.0, 1.0, 4.0, exact=True))
    (25.0, 16.0)
    """
    R = np.asarray(R, dtype=np.float64)
    gamma = np.asarray(gamma, dtype=np.float64)
    D1 = np.asarray(D1, dtype=np.float64)
    if exact:
        return ((R + np.sqrt(R**2 + 4.0 * gamma * D1)) / (2.0 * gamma)) ** 2
    return ((R + np.sqrt(gamma * D1)) / gamma) ** 2


def ballseptron_corrected(R, gamma, D, r, margin_errors, loss="d2", *, exact=False):
    """The margin-error corrected bounds: paper 004, Cor. 1 (D2) and eq. (17) (D1).

    Parameters
    ----------
    R : float or ndarray
        Radius max ||x_t||.
    gamma : float or ndarray
        Margin gamma > 0.
    D : float or ndarray
        D2 (``loss="d2"``) or D1 (``loss="d1"``).
    r : float
        The Ballseptron's radius, r >= 0.
    margin_errors : int or ndarray
        eps~, the run's number of margin errors.
    loss : {"d2", "d1"}, default="d2"
    exact : bool, default=False
        Return the largest m solving the proof's inequality with the run's
        eps~ (theory §4.2) instead of the stated closed form; see Notes.

    Returns
    -------
    ndarray or float

    Notes
    -----
    Stated (0 < gamma <= R, 0 <= r < (sqrt(2) - 1) gamma):
    Cor. 1: m <= ((R + D2)/gamma)^2 - eps~ beta;
    eq. (17): m <= ((R + sqrt(gamma D1))/gamma)^2 - eps~ beta.

    Exact: the proofs of Thms 1 and 2 first establish, with no condition on
    gamma or r, eq. (11) g(m, eps~) <= 0 and eq. (16) q(m, eps~) <= 0, where
    g = m gamma + eps~ (gamma - r) - sqrt(m R^2 + eps~ (R^2 + r^2)) - D2 sqrt(m + eps~)
    and q is g with D2 sqrt(m + eps~) replaced by D1. Both are convex in m, so
    {m : g <= 0} is an interval and its right end, found by bisection, bounds
    the run's mistakes. It never exceeds the stated forms when their
    conditions hold. (The paper's passage from eq. (14) to Cor. 1 applies the
    monotonicity in eps~ below the point where it was shown; the stated forms
    still hold: in that case m + eps~ > B forces m <= B - 2 beta eps~.)

    Examples
    --------
    >>> float(ballseptron_corrected(1.0, 0.5, 0.0, 0.0, 4))
    2.0
    """
    if loss not in LOSSES:
        raise ValueError(f"loss must be one of {LOSSES}, got {loss!r}")
    R = np.asarray(R, dtype=np.float64)
    gamma = np.asarray(gamma, dtype=np.float64)
    D = np.asarray(D, dtype=np.float64)
    r = np.asarray(r, dtype=np.float64)
    eps = np.asarray(margin_errors, dtype=np.float64)
    if exact:
        zero = np.zeros_like(D)
        D1, D2 = (zero, D) if loss == "d2" else (D, zero)
        return _largest_root(R, gamma, r, eps, D1, D2)
    base = freund_schapire(R, gamma, D) if loss == "d2" else ballseptron_d1(R, gamma, D)
    return base - eps * ballseptron_beta(r, gamma)


@jit
def _largest_root_loop(R, gamma, r, eps, D1, D2, out):
    """out[i] = right end of {m >= 0 : h_i(m) <= 0} for the convex
    h(m) = m gamma + eps (gamma - r) - sqrt(m R^2 + eps (R^2 + r^2)) - D1 - D2 sqrt(m + eps),
    by bisection: first on the slope (the argmin), then on h beyond it. When
    min h > 0 (no m meets the inequality) out[i] is the argmin."""
    for i in range(out.shape[0]):
        Ri, gi, ri, ei, d1, d2 = R[i], gamma[i], r[i], eps[i], D1[i], D2[i]
        c2 = ei * (Ri * Ri + ri * ri)
        base = ei * (gi - ri) - d1
        # h(m) >= gamma n - s sqrt(n) - e with n = m + eps, so h > 0 beyond `high`.
        s = np.sqrt(Ri * Ri + ri * ri) + d2
        e = ei * (gi + ri) + d1
        high = ((s + np.sqrt(s * s + 4.0 * gi * e)) / (2.0 * gi)) ** 2 + 1.0
        low, up = 0.0, high
        for _ in range(_BISECTION_STEPS):
            mid = 0.5 * (low + up)
            a = np.sqrt(mid * Ri * Ri + c2)
            slope = gi - d2 / (2.0 * np.sqrt(mid + ei))  # mid >= high 2^-64 > 0: no 0 / 0
            if a > 0.0:  # a = 0 when R = 0 and eps~ = 0
                slope -= Ri * Ri / (2.0 * a)
            if slope < 0.0:
                low = mid
            else:
                up = mid
        argmin = up
        h_min = argmin * gi + base - np.sqrt(argmin * Ri * Ri + c2) - d2 * np.sqrt(argmin + ei)
        if h_min > 0.0:
            out[i] = argmin
            continue
        low, up = argmin, high
        for _ in range(_BISECTION_STEPS):
            mid = 0.5 * (low + up)
            h = mid * gi + base - np.sqrt(mid * Ri * Ri + c2) - d2 * np.sqrt(mid + ei)
            if h > 0.0:
                up = mid
            else:
                low = mid
        out[i] = up


def _largest_root(R, gamma, r, eps, D1, D2):
    """Vectorised wrapper of :func:`_largest_root_loop` (broadcasts its arguments)."""
    arrays = np.broadcast_arrays(R, gamma, r, eps, D1, D2)
    shape = arrays[0].shape
    flat = [np.array(a, dtype=np.float64).ravel() for a in arrays]  # owned, writeable
    out = np.empty(flat[0].shape[0])
    _largest_root_loop(*flat, out)
    return out.reshape(shape)


class BallQuantities:
    """Mixin of a first-order provider: the ball of radius r around each instance (paper 004).

    Adds ``ball`` (the run's algorithm has one: ``Algorithm.ball`` names its radius
    parameter, theory §2.3), ``r`` (its radius as the bounds see it, ``factor`` r: sqrt(2) r
    through Kesler's construction; 0 without a ball) and ``beta`` (a function of gamma,
    :func:`ballseptron_beta`); a run with a ball also reports r and its margin errors on every
    row (and the scaled radius ``r_kesler`` through Kesler's construction).
    """

    @classmethod
    def _with_ball(cls, q, run):
        key = get_algorithm(run.algorithm).ball
        r = cls.factor * float(run.params[key]) if key is not None else 0.0
        q.ball, q.r, q.beta = key is not None, r, lambda gamma: ballseptron_beta(r, gamma)
        return q

    @classmethod
    def whole(cls, ctx, comp, tightened):
        q = cls._with_ball(super().whole(ctx, comp, tightened), ctx.run)
        if q.ball:
            key = get_algorithm(ctx.run.algorithm).ball
            q.common.update(r=float(ctx.run.params[key]), margin_errors=ctx.run.margin_errors)
            if cls.factor != 1.0:
                q.common["r_kesler"] = q.r
        return q

    @classmethod
    def prefixes(cls, ctx, comp, gamma, tightened):
        pieces = super().prefixes(ctx, comp, gamma, tightened)
        for q, _, _ in pieces:
            cls._with_ball(q, ctx.run)
        return pieces


class BallFirstOrderQuantities(BallQuantities, FirstOrderQuantities):
    """The ``"first_order"`` provider: :class:`~.providers.FirstOrderQuantities` with the ball."""


class BallKeslerQuantities(BallQuantities, KeslerQuantities):
    """Its native multiclass form: :class:`~.providers.KeslerQuantities` with the ball."""


register_provider("first_order", BallFirstOrderQuantities, BallKeslerQuantities)


def _stated_ball(q):
    """The stated corrected forms need paper 004's conditions; their exact roots need none."""
    return q.ball & np.logical_not(q.tightened)


def _d1_radius(q):
    """gamma <= R: under paper 004's conditions, and for the stated D1 bound without a ball."""
    return ball_in_force(q) | (np.logical_not(q.ball) & np.logical_not(q.tightened))


BALLSEPTRON_D1 = register_bound(Bound(
    name="ballseptron_d1", label=r"ballseptron_d1 $((R + \sqrt{\gamma D_1})/\gamma)^2$",
    source=lambda q: "004 Thm 2" if q.ball else "004 Thm 2 (r = 0)",
    value=lambda q, gamma: ballseptron_d1(q.R, gamma, q.D1(gamma), exact=q.tightened),
    quantities=("R", "D1"), applies=euclidean,
    conditions=(ball_conditions(ball_in_force)[0],
                GammaInterval(lambda q: f"gamma <= {q.R_text} = {q.R:.6g}", high="R",
                              when=_d1_radius))))


def _corrected(loss, source, label):
    D = loss.upper()
    return register_bound(Bound(
        name=f"ballseptron_corrected_{loss}", source=source, label=label,
        value=lambda q, gamma: ballseptron_corrected(q.R, gamma, getattr(q, D)(gamma), q.r,
                                                     q.margin_errors, loss, exact=q.tightened),
        quantities=("R", D, "r", "margin_errors", "beta"),
        conditions=ball_conditions(_stated_ball)))


BALLSEPTRON_CORRECTED_D2 = _corrected(
    "d2", "004 Cor. 1", r"ballseptron_corrected_d2: D$_2$ bound $- \tilde\varepsilon\beta$")
BALLSEPTRON_CORRECTED_D1 = _corrected(
    "d1", "004 eq. 17", r"ballseptron_corrected_d1: D$_1$ bound $- \tilde\varepsilon\beta$")
