"""The self-tuned Forgetron's mistake bound (theory §4.10, derived).

For a comparator g of the kernel's feature space with hinge losses at
margin 1, l*_t = max(0, 1 - y_t g(x_t)), every K(x_t, x_t) <= 1 and a budget B,

    M <= (||g||^2 + 2 sum_{t mistaken} l*_t) / (17/32 - ||g||^2 ln(1/s_B) / (2 (B + 1)))

whenever the denominator is positive, with s_B the positive root of
s^2 + 2 (B + 2) s = 15/32. The toolkit's comparator is a unit u with a
margin gamma: g = u/gamma, ||g||^2 = 1/gamma^2 and sum l*_t = D1/gamma, so the
denominator is positive exactly for gamma > :func:`forgetron_gamma_min`. The
stated variant sums the losses over every trial, the tightened one over the
mistakes only (the proof's sum), with R over the mistaken trials.

References
----------
O. Dekel, S. Shalev-Shwartz and Y. Singer, "The Forgetron: a kernel-based
Perceptron on a budget", SIAM J. Comput. 37 (2008) (not readable here: the
bound is proved on the theory page, §4.10, from the rule of §2.11).
"""

from __future__ import annotations

import numpy as np

from .declaration import Bound, GammaInterval, Requirement, register_bound

#: The fraction of its mistakes the self-tuned rule lets the removals' damage reach, and
#: what is left of each mistake's progress (theory §4.10).
DAMAGE, PROGRESS = 15.0 / 32.0, 17.0 / 32.0


def forgetron_log_inverse(budget):
    """ln(1/s_B), s_B > 0 the root of s^2 + 2 (B + 2) s = 15/32 (theory §4.10).

    A removed support's coefficient never falls below s_B while the rule
    shrinks; so the shrinking of B + 1 consecutive mistakes multiplies to at
    least s_B.

    Parameters
    ----------
    budget : int or ndarray
        B >= 1.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> round(float(forgetron_log_inverse(100)), 4)
    6.0758
    """
    b = np.asarray(budget, dtype=np.float64) + 2.0
    s = DAMAGE / (b + np.sqrt(b * b + DAMAGE))  # the positive root, without cancellation
    return -np.log(s)


def forgetron_gamma_min(budget):
    """The smallest margin (excluded) of a unit comparator at which the bound holds.

    gamma > sqrt(ln(1/s_B) / (2 (B + 1) 17/32)), i.e. ||g|| = 1/gamma below
    sqrt(17 (B + 1) / (16 ln(1/s_B))) (theory §4.10).

    Examples
    --------
    >>> round(float(forgetron_gamma_min(1000)), 4)
    0.0887
    """
    return np.sqrt(forgetron_log_inverse(budget) / (2.0 * (np.asarray(budget) + 1.0) * PROGRESS))


def forgetron_mistakes(gamma, D1, budget):
    """(1/gamma^2 + 2 D1/gamma) / (17/32 - ln(1/s_B) / (2 (B + 1) gamma^2)), inf where the
    denominator is not positive (theory §4.10).

    Parameters
    ----------
    gamma : float or ndarray
        Margin gamma > 0 of a unit comparator u (g = u/gamma).
    D1 : float or ndarray
        sum_t max(0, gamma - y_t u.x_t), over every trial (stated) or every
        mistake (tightened).
    budget : int
        B >= 1.

    Returns
    -------
    ndarray or float

    Examples
    --------
    >>> round(float(forgetron_mistakes(0.5, 0.0, 1000)), 4)
    7.7739
    """
    gamma = np.asarray(gamma, dtype=np.float64)
    D1 = np.asarray(D1, dtype=np.float64)
    damage = forgetron_log_inverse(budget) / (2.0 * (budget + 1.0) * gamma * gamma)
    left = PROGRESS - damage
    value = (1.0 / (gamma * gamma) + 2.0 * D1 / gamma) / np.where(left > 0.0, left, 1.0)
    return np.where(left > 0.0, value, np.inf)


def _unit_diagonal(q):
    """K(x, x) <= 1 on the trials used: the rule's damage accounting assumes it."""
    return q.R <= 1.0


def _above_one(R: float) -> str:
    """R > 1 as printed: to 6 digits, or to every digit when those read 1 (a unit row whose
    K(x, x) rounds one ulp above 1)."""
    return f"{R:.6g}" if f"{R:.6g}" != "1" else repr(float(R))


FORGETRON = register_bound(Bound(
    name="forgetron", theory="§4.10",
    label=r"forgetron $\frac{1/\gamma^2 + 2 D_1/\gamma}{17/32 - \ln(1/s_B)/(2(B+1)\gamma^2)}$",
    source="DSS08 self-tuned (derived, theory §4.10)",
    value=lambda q, gamma: forgetron_mistakes(gamma, q.D1(gamma), q.params["budget"]),
    quantities=("R", "D1"),
    conditions=(
        Requirement(_unit_diagonal, lambda q: (
            f"the self-tuned rule's damage assumes K(x, x) <= 1 on {q.which}: "
            f"{q.R_text} = sqrt(max K(x, x)) = {_above_one(q.R)} > 1 (scale the kernel)")),
        GammaInterval(
            lambda q: (f"gamma > {float(forgetron_gamma_min(q.params['budget'])):.4g}: the "
                       f"norm condition ||g|| = 1/gamma < sqrt(17 (B + 1) / (16 ln(1/s_B))) "
                       f"for B = {q.params['budget']} (a larger budget allows a larger ||g||)"),
            low=lambda q: forgetron_gamma_min(q.params["budget"])),
    ),
))
