"""Mistake bound of the Higher-Order Perceptron HO_p(c) (paper 000, Theorem 1; p > 2 derived).

References
----------
C. Brotto, C. Gentile and F. Vitale, "On higher-order Perceptron algorithms",
NIPS 2007 (paper 000), sec. 3.
"""

from __future__ import annotations

import numpy as np

from .pnorm import smooth_radius


def hop_alpha(c):
    """alpha(c) = (2 - c) / c, for c in (0, 1] (paper 000, Theorem 1).

    Examples
    --------
    >>> float(hop_alpha(1.0))
    1.0
    """
    c = np.asarray(c, dtype=np.float64)
    return (2.0 - c) / c


def higher_order_bound(alpha, D, gamma, *, p=2.0, radius=1.0):
    """Higher-Order Perceptron bound of paper 000, Theorem 1 (eq. 2), and its p > 2 form.

    Parameters
    ----------
    alpha : float
        alpha(c) = (2 - c)/c, see :func:`hop_alpha`.
    D : float or ndarray
        Hinge loss of u on the transformed sequence:
        sum_k max(0, gamma - y_{t(k)} u^T B_{k-1} x_{t(k)}) over the mistakes.
    gamma : float or ndarray
        Margin gamma > 0.
    p : float, default=2.0
        The norm parameter p >= 2 of HO_p(c); u then has ||u||_q = 1, q = p/(p - 1).
    radius : float, default=1.0
        An upper bound on the p-norms ||B_{k-1} x_{t(k)}||_p of the transformed
        mistaken instances (1 for p = 2 and unit instances, as Theorem 1 uses).

    Returns
    -------
    ndarray or float
        With b = alpha sqrt(p - 1) radius (b = alpha for p = 2, radius = 1):
        alpha D/gamma + b^2/(2 gamma^2) + (b/gamma) sqrt(alpha D/gamma + b^2/(4 gamma^2)).

    Notes
    -----
    Conditions (Theorem 1, stated for p = 2): ||x_t|| = 1 and
    0 <= rho_k <= (1 - c)/(1 + |v_{k-1}.x_t|) with c in (0, 1]. The proof
    only needs c <= r_k <= 2 - c with r_k = 1 - rho_k (1 + y_t v_{k-1}.x_t)
    (theory §4.2), and the value is the exact root of its quadratic in sqrt(m):
    gamma m - alpha sqrt(m) - alpha D <= 0. With c = 1 (alpha = 1, rho = 0) it
    is the Perceptron's bound on D1 in exact form.

    For p > 2 (derived, theory §4.1): B_k v_k = B_{k-1} v_{k-1} + r_k y_t z_k with
    z_k = B_{k-1} x_{t(k)}, and the (p - 1)-smoothness of ||.||_p^2 / 2 gives
    ||B_m v_m||_p^2 <= (p - 1) sum_k r_k^2 ||z_k||_p^2; Hölder's inequality with
    ||u||_q = 1 then leads to gamma m - b sqrt(m) - alpha D <= 0. The factors
    I - rho x g(x)^T are not contractions in the p-norm, so ``radius`` is the
    run's own max_k ||z_k||_p rather than 1.

    Examples
    --------
    >>> float(higher_order_bound(1.0, 0.0, 1.0))
    1.0
    """
    alpha = np.asarray(alpha, dtype=np.float64)
    D = np.asarray(D, dtype=np.float64)
    gamma = np.asarray(gamma, dtype=np.float64)
    b = alpha * smooth_radius(radius, p)
    first = alpha * D / gamma
    quarter = b**2 / (4.0 * gamma**2)
    return first + 2.0 * quarter + (b / gamma) * np.sqrt(first + quarter)
