"""Bounds on the updates (hence the mistakes) of ALMA_p (theory §4.8; derived here).

Gentile's paper (JMLR 2001), which states ALMA_p's own bounds, could not be
read, so these are the bounds proved on the theory page, §4.8, from the
Bregman potential of the p-norm link: with x_hat_t the instances of unit
p-norm (in feature space for a kernel), u with ||u||_q = 1, gamma > 0 and
d_t = max(0, gamma - y_t u.x_hat_t), the number m of updates meets

    Phi(j) = a S_j - b H_j - c sqrt(H_j) <= 1/2    for every j <= m,

where S_j = sum_{k<=j} k^(-1/2), H_j = sum_{k<=j} 1/k, a = C gamma / sqrt(p - 1),
b = C B (1 - alpha) + C^2 / 2, c = C D2 / sqrt(p - 1) and D2 = sqrt(sum d_t^2)
over the update trials (tightened) or all trials (stated). So m is at most
the largest j with Phi(j) <= 1/2 (:func:`alma_updates`); D2 = 0 on data that u
separates with margin gamma gives the separable bound. Any p >= 2,
alpha in (0, 1], B > 0, C > 0.

The quantities come from the ``"p_norm_updates"`` provider
(:class:`UpdatePNormQuantities`): the ``"p_norms"`` provider's R_p, q and
hinge losses, over the update trials (mistakes and margin errors) for the
tightened variant, and, for a kernel run, the margins of the normalised
instances, y f(x) / sqrt(K(x, x)).
"""

from __future__ import annotations

import numpy as np

from .declaration import Bound, register_bound, register_provider
from .first_order import SEPARATION
from .pnorm import PNormQuantities

# S_j and H_j are summed exactly up to _TABLE and from their Euler-Maclaurin expansions beyond,
# whose first omitted terms (j^-6 / 252 and 7 j^-11/2 / 12288 at j = 1024) are below 1e-19.
_TABLE = 1024
_K = np.arange(1, _TABLE + 1, dtype=np.float64)
_H = np.concatenate(([0.0], np.cumsum(1.0 / _K)))
_S = np.concatenate(([0.0], np.cumsum(1.0 / np.sqrt(_K))))
EULER_GAMMA = 0.57721566490153286
ZETA_HALF = -1.4603545088095868  # zeta(1/2)
# The search for the first j with Phi(j) > 1/2 stops here: beyond, the bound is inf.
_LIMIT = 2.0**1000


def step_sums(j):
    """(S_j, H_j) = (sum_{k<=j} k^(-1/2), sum_{k<=j} 1/k) for integer-valued j >= 0 (arrays).

    Exact sums up to j = 1024, Euler-Maclaurin beyond:
    H_j = ln j + gamma_E + 1/(2j) - 1/(12 j^2) + 1/(120 j^4),
    S_j = 2 sqrt(j) + zeta(1/2) + 1/(2 sqrt j) - 1/(24 j^(3/2)) + 1/(384 j^(7/2)).

    Examples
    --------
    >>> S, H = step_sums(np.array([0.0, 1.0, 2.0]))
    >>> S.tolist(), H.tolist()
    ([0.0, 1.0, 1.7071067811865475], [0.0, 1.0, 1.5])
    """
    j = np.asarray(j, dtype=np.float64)
    small = j <= _TABLE
    index = np.where(small, j, 0.0).astype(np.int64)
    big = np.where(small, 2.0 * _TABLE, j)
    inv, inv_root = 1.0 / big, 1.0 / np.sqrt(big)  # powers of 1/j: no overflow up to 2^1000
    H = np.log(big) + EULER_GAMMA + 0.5 * inv - inv**2 / 12.0 + inv**4 / 120.0
    S = 2.0 / inv_root + ZETA_HALF + 0.5 * inv_root - inv_root**3 / 24.0 + inv_root**7 / 384.0
    return np.where(small, _S[index], S), np.where(small, _H[index], H)


def _phi(j, a, b, c):
    S, H = step_sums(j)
    return a * S - b * H - c * np.sqrt(H)


def alma_updates(gamma, p, alpha, B, C, D2=0.0):
    """The bound on ALMA_p's updates: the largest m with Phi(j) <= 1/2 for every j <= m.

    Parameters
    ----------
    gamma : float or ndarray
        Margin gamma > 0 of a comparator u with ||u||_q = 1, q = p / (p - 1).
    p : float
        ALMA's norm parameter, p >= 2.
    alpha, B, C : float
        ALMA's parameters: alpha in (0, 1], B > 0, C > 0.
    D2 : float or ndarray, default=0.0
        sqrt(sum_t max(0, gamma - y_t u.x_hat_t)^2) over the update trials (or all
        trials); 0 when u separates them with margin gamma.

    Returns
    -------
    ndarray or float
        The largest integer m (as a float; inf beyond 2^1000) with
        a S_j - b H_j - c sqrt(H_j) <= 1/2 for j = 1..m, where
        a = C gamma / sqrt(p - 1), b = C B (1 - alpha) + C^2 / 2, c = C D2 / sqrt(p - 1).

    Notes
    -----
    Theory §4.8 (derived; Gentile 2001 could not be read): every update
    lowers the Bregman divergence of 1/2 ||.||_q^2 from u to w by at least
    eta_k (gamma - d_t) - eta_k (1 - alpha) gamma_k - (p - 1) eta_k^2 / 2, the
    projection never raises it, and it starts at ||u||_q^2 / 2 <= 1/2; with
    Cauchy-Schwarz on sum eta_k d_t this is Phi(m) <= 1/2 after m updates.
    Phi falls and then rises (j^(1/2) (Phi(j) - Phi(j - 1)) grows with j) and
    Phi(0) = 0, so {j : Phi(j) <= 1/2} is 0..m*: the bound is m*, found by
    doubling and bisection on j, vectorised over the arguments.

    Examples
    --------
    >>> float(alma_updates(0.5, 2.0, 0.9, 1 / 0.9, 2**0.5))
    13.0
    >>> bool(alma_updates(0.1, 2.0, 0.9, 1 / 0.9, 2**0.5) < alma_updates(0.05, 2.0, 0.9,
    ...                                                                  1 / 0.9, 2**0.5))
    True
    """
    root = np.sqrt(np.asarray(p, dtype=np.float64) - 1.0)
    C = np.asarray(C, dtype=np.float64)
    a = C * np.asarray(gamma, dtype=np.float64) / root
    b = C * np.asarray(B, dtype=np.float64) * (1.0 - np.asarray(alpha, dtype=np.float64)) \
        + C * C / 2.0
    c = C * np.asarray(D2, dtype=np.float64) / root
    a, b, c = np.broadcast_arrays(a, b, c)
    low, high = np.zeros(a.shape), np.ones(a.shape)
    below = _phi(high, a, b, c) <= 0.5  # Phi(high) <= 1/2: double
    while np.any(below):
        low = np.where(below, high, low)
        high = np.where(below, 2.0 * high, high)
        below &= (_phi(high, a, b, c) <= 0.5) & (high < _LIMIT)
    # Phi(low) <= 1/2 < Phi(high), or high = _LIMIT: bisect on the integers between them
    open_ = (high - low > 1.0) & (high < _LIMIT)
    while np.any(open_):
        mid = np.floor(0.5 * (low + high))
        open_ &= (low < mid) & (mid < high)  # beyond 2^53 the integers run out first
        fail = _phi(mid, a, b, c) > 0.5
        low = np.where(open_ & ~fail, mid, low)
        high = np.where(open_ & fail, mid, high)
        open_ &= high - low > 1.0
    out = np.where(high >= _LIMIT, np.inf, low)
    return out if out.ndim else float(out)


class UpdatePNormQuantities(PNormQuantities):
    """The ``"p_norms"`` quantities over the update trials (tightened) or all trials (stated),
    with the margins of instances normalised in feature space for a kernel run (theory §4.8)."""

    scopes = {False: "all", True: "updates"}
    which = {False: "every trial", True: "every update trial"}

    @classmethod
    def used_trials(cls, run):
        return run.update_trials

    @classmethod
    def margins_of(cls, ctx, comp) -> np.ndarray:
        margins = super().margins_of(ctx, comp)
        if ctx.kernel.is_linear:  # the rows are already of unit p-norm (instance_map)
            return margins
        return np.divide(margins, ctx.norms, out=np.zeros_like(margins), where=ctx.norms > 0)

    @classmethod
    def norms_of(cls, ctx) -> np.ndarray:
        if ctx.kernel.is_linear:
            return ctx.p_norms(cls.norm_exponent(ctx.run))
        return (ctx.norms > 0).astype(np.float64)


register_provider("p_norm_updates", UpdatePNormQuantities)


def _value(q, gamma, D2):
    params = q.params
    return alma_updates(gamma, params["p"], params["alpha"], params["B"], params["C"], D2)


ALMA_SEPARABLE = register_bound(Bound(
    name="alma_separable", source="theory §4.8 (derived)", provider="p_norm_updates",
    label=r"alma_separable: largest m, $a S_m - b H_m \leq 1/2$",
    value=lambda q, gamma: _value(q, gamma, 0.0), theory="§4.8",
    quantities=("R_p", "p", "min_margin"), conditions=(SEPARATION,)))

ALMA_D2 = register_bound(Bound(
    name="alma_d2", source="theory §4.8 (derived)", provider="p_norm_updates",
    label=r"alma_d2: largest m, $a S_m - b H_m - c\sqrt{H_m} \leq 1/2$",
    value=lambda q, gamma: _value(q, gamma, q.D2(gamma)), theory="§4.8",
    quantities=("R_p", "p", "D2")))
