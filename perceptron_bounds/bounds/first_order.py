"""Mistake bounds of the Perceptron from Freund and Schapire (paper 001, Thms 1-2).

Closed forms, vectorised over arrays of ``gamma`` (and of the hinge-loss
quantities, which depend on gamma). Every function broadcasts its arguments
with NumPy rules and returns float64.

References
----------
Y. Freund and R. E. Schapire, "Large margin classification using the
Perceptron algorithm", Machine Learning 37 (1999), sec. 2 (paper 001).
S. Shalev-Shwartz and Y. Singer, "A new perspective on an old Perceptron
algorithm", COLT 2005, eq. (1) and (3) (paper 004).
"""

from __future__ import annotations

import numpy as np


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
