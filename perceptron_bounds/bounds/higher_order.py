"""Mistake bound of the Higher-Order Perceptron HO_2(c) (paper 000, Theorem 1).

References
----------
C. Brotto, C. Gentile and F. Vitale, "On higher-order Perceptron algorithms",
NIPS 2007 (paper 000), sec. 3.
"""

from __future__ import annotations

import numpy as np


def hop_alpha(c):
    """alpha(c) = (2 - c) / c, for c in (0, 1] (paper 000, Theorem 1).

    Examples
    --------
    >>> float(hop_alpha(1.0))
    1.0
    """
    c = np.asarray(c, dtype=np.float64)
    return (2.0 - c) / c


def higher_order_bound(alpha, D, gamma):
    """Higher-Order Perceptron bound of paper 000, Theorem 1 (eq. 2).

    Parameters
    ----------
    alpha : float
        alpha(c) = (2 - c)/c, see :func:`hop_alpha`.
    D : float or ndarray
        Hinge loss of u on the transformed sequence:
        sum_k max(0, gamma - y_{t(k)} u^T B_{k-1} x_{t(k)}) over the mistakes.
    gamma : float or ndarray
        Margin gamma > 0.

    Returns
    -------
    ndarray or float
        alpha D/gamma + alpha^2/(2 gamma^2) + (alpha/gamma) sqrt(alpha D/gamma
        + alpha^2/(4 gamma^2)).

    Notes
    -----
    Conditions (Theorem 1, stated for p = 2): ||x_t|| = 1 and
    0 <= rho_k <= (1 - c)/(1 + |v_{k-1}.x_t|) with c in (0, 1]. The proof
    only needs c <= r_k <= 2 - c with r_k = 1 - rho_k (1 + y_t v_{k-1}.x_t)
    (theory §4.2), and the value is the exact root of its quadratic in sqrt(m):
    gamma m - alpha sqrt(m) - alpha D <= 0. With c = 1 (alpha = 1, rho = 0) it
    is the Perceptron's bound on D1 in exact form.

    Examples
    --------
    >>> float(higher_order_bound(1.0, 0.0, 1.0))
    1.0
    """
    alpha = np.asarray(alpha, dtype=np.float64)
    D = np.asarray(D, dtype=np.float64)
    gamma = np.asarray(gamma, dtype=np.float64)
    first = alpha * D / gamma
    quarter = alpha**2 / (4.0 * gamma**2)
    return first + 2.0 * quarter + (alpha / gamma) * np.sqrt(first + quarter)
