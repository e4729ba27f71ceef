"""Mistake bounds of the Perceptron from Freund and Schapire (paper 001, Thms 1-2).

Closed forms, vectorised over arrays of ``gamma`` (and of the hinge-loss
quantities, which depend on gamma). Every function broadcasts its arguments
with NumPy rules and returns float64. Their declarations (``novikoff``,
``freund_schapire``, :class:`~.declaration.Bound`) carry the conditions of
paper 004's Theorem 1 on a Ballseptron run (a run whose params have ``r``),
shared with :mod:`.ballseptron`.

References
----------
Y. Freund and R. E. Schapire, "Large margin classification using the
Perceptron algorithm", Machine Learning 37 (1999), sec. 2 (paper 001).
S. Shalev-Shwartz and Y. Singer, "A new perspective on an old Perceptron
algorithm", COLT 2005, eq. (1) and (3) (paper 004).
"""

from __future__ import annotations

import numpy as np

from .declaration import Bound, GammaInterval, register_bound

SQRT2_MINUS_1 = np.sqrt(2.0) - 1.0


def novikoff(R, gamma):
    """Block-Novikoff bound (R / gamma)^2.

    Parameters
    ----------
    R : float or ndarray
        Radius, max ||x_t|| over the trials (theory §1.5).
    gamma : float or ndarray
        Margin gamma > 0.

    Returns
    -------
    ndarray or float
        (R / gamma)^2.

    Notes
    -----
    Paper 001, Theorem 1 (Block, Novikoff): if a unit u has
    y_t u.x_t >= gamma on every trial, the Perceptron makes at most
    (R / gamma)^2 mistakes. The proof only uses the mistaken trials, so R and
    the separation condition may be restricted to them (theory §4.2).

    Examples
    --------
    >>> float(novikoff(1.0, 0.5))
    4.0
    """
    R = np.asarray(R, dtype=np.float64)
    gamma = np.asarray(gamma, dtype=np.float64)
    return (R / gamma) ** 2


def freund_schapire(R, gamma, D2):
    """Freund-Schapire bound ((R + D2) / gamma)^2 for the non-separable case.

    Parameters
    ----------
    R : float or ndarray
        Radius, max ||x_t||.
    gamma : float or ndarray
        Margin gamma > 0.
    D2 : float or ndarray
        sqrt(sum_t l_t^2), l_t = max(0, gamma - y_t u.x_t) for a unit u.

    Returns
    -------
    ndarray or float
        ((R + D2) / gamma)^2.

    Notes
    -----
    Paper 001, Theorem 2, with no condition on u (unit) or gamma > 0; the same
    bound is the Ballseptron's Theorem 1 (paper 004, eq. 3 and Thm 1, under
    0 < gamma <= R and 0 <= r < (sqrt(2) - 1) gamma). The 004 proof only uses
    the update trials, so R and D2 may be taken over them (theory §4.2); the
    bound is already the exact root of the proof's quadratic in sqrt(m).

    Examples
    --------
    >>> float(freund_schapire(1.0, 0.5, 1.0))
    16.0
    """
    R = np.asarray(R, dtype=np.float64)
    gamma = np.asarray(gamma, dtype=np.float64)
    D2 = np.asarray(D2, dtype=np.float64)
    return ((R + D2) / gamma) ** 2


def ball_in_force(q):
    """Paper 004's conditions are in force: on a Ballseptron run, stated, or tightened when the
    trials so far hold a margin error (the tightened proofs need them only then)."""
    return q.ball & (np.logical_not(q.tightened) | (q.margin_errors > 0))


def ball_conditions(when):
    """0 <= r < (sqrt(2) - 1) gamma and gamma <= R (paper 004, Thms 1-2), in force ``when``."""
    return (
        GammaInterval(lambda q: f"{q.r_text} < (sqrt2 - 1) gamma, i.e. gamma > "
                                f"{q.r / SQRT2_MINUS_1:.6g}",
                      low=lambda q: q.r / SQRT2_MINUS_1, when=when),
        GammaInterval(lambda q: f"gamma <= {q.R_text} = {q.R:.6g}", high="R", when=when),
    )


# u separates every trial used with margin gamma (Novikoff, the separable p-norm bound).
SEPARATION = GammaInterval(lambda q: f"u separates {q.which} with margin gamma: gamma <= "
                                     f"{q.margin_text} = {q.min_margin:.6g}", high="min_margin")


def euclidean(params) -> bool:
    """The first-order bounds measure instances in ||.||_2: runs without ``p``, or p = 2."""
    return params.get("p", 2.0) == 2.0


NOVIKOFF = register_bound(Bound(
    name="novikoff", label=r"novikoff $(R/\gamma)^2$",
    source=lambda q: "004 Thm 1 (D2 = 0)" if q.ball else "001 Thm 1",
    value=lambda q, gamma: novikoff(q.R, gamma), quantities=("R", "min_margin"),
    conditions=(*ball_conditions(ball_in_force), SEPARATION), applies=euclidean))

FREUND_SCHAPIRE = register_bound(Bound(
    name="freund_schapire", label=r"freund_schapire $((R + D_2)/\gamma)^2$",
    source=lambda q: "004 Thm 1" if q.ball else "001 Thm 2",
    value=lambda q, gamma: freund_schapire(q.R, gamma, q.D2(gamma)), quantities=("R", "D2"),
    conditions=ball_conditions(ball_in_force), applies=euclidean))
