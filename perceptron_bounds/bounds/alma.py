"""Bounds on the updates (hence the mistakes) of ALMA_p (theory §4.8; derived here).

Gentile's paper (JMLR 2001; NIPS 2000) states ALMA_p's own bounds; its text
could not be read here (only its abstract), so these are the two bounds proved
on the theory page, §4.8, both from the Bregman divergence of 1/2 ||.||_q^2
from a comparator to the weights. With x_hat_t the instances of unit p-norm
(in feature space for a kernel), u with ||u||_q = 1, gamma > 0,
d_t = max(0, gamma - y_t u.x_hat_t) and D2 = sqrt(sum d_t^2) over the update
trials (tightened) or all trials (stated), the number m of updates meets, for
every j <= m::

    Theorem 1:  Phi(j) = a S_j - b H_j - c sqrt(H_j) <= 1/2,
    Theorem 2:  Psi(j) = j gamma - sqrt(j) D2
                         - sqrt(p - 1) (2 sqrt(j) / C - 3 / (2 C) + (C/2 + (1 - alpha) B) S_j) <= 0,

where S_j = sum_{k<=j} k^(-1/2), H_j = sum_{k<=j} 1/k, a = C gamma / sqrt(p - 1),
b = C B (1 - alpha) + C^2 / 2, c = C D2 / sqrt(p - 1). So m is at most the
smaller of the largest j passing each test (:func:`alma_updates`). Theorem 1
is the tighter for large margins, Theorem 2 (no log factor: m <= (p - 1) K^2 /
gamma^2 with K = 2/C + C + 2 (1 - alpha) B when D2 = 0) for small ones. D2 = 0
on data that u separates with margin gamma gives the separable bound. Any
p >= 2, alpha in (0, 1], B > 0, C > 0.

The quantities come from the ``"p_norm_updates"`` provider
(:class:`UpdatePNormQuantities`): the ``"p_norms"`` provider's R_p, q and
hinge losses, over the update trials (mistakes and margin errors) for the
tightened variant, and, for a kernel run, the margins of the normalised
instances, y f(x) / sqrt(K(x, x)).
"""

from __future__ import annotations

import math

import numpy as np

from .._jit import jit
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


@jit
def _sums(j, table_S, table_H):
    """(S_j, H_j) of :func:`step_sums` for one integer-valued j >= 0."""
    if j <= _TABLE:
        k = int(j)
        return table_S[k], table_H[k]
    inv, inv_root = 1.0 / j, 1.0 / math.sqrt(j)
    H = math.log(j) + EULER_GAMMA + 0.5 * inv - inv * inv / 12.0 + inv**4 / 120.0
    S = 2.0 / inv_root + ZETA_HALF + 0.5 * inv_root - inv_root**3 / 24.0 + inv_root**7 / 384.0
    return S, H


@jit
def _excess(second, j, a, b, c, gamma, D2, root, C, drift, table_S, table_H):
    """Theorem 1's Phi(j) - 1/2 (``second`` 0), or Theorem 2's Psi(j) (``second`` 1)."""
    S, H = _sums(j, table_S, table_H)
    if second:
        return j * gamma - math.sqrt(j) * D2 - root * (2.0 * math.sqrt(j) / C - 1.5 / C
                                                       + drift * S)
    return a * S - b * H - c * math.sqrt(H) - 0.5


@jit
def _last_passing(second, a, b, c, gamma, D2, root, C, drift, table_S, table_H, out):
    """Per element, the largest integer j >= 0 with excess(i) <= 0 for i = 1..j (inf beyond
    2^1000), written to ``out``.

    The increments excess(j) - excess(j - 1) grow with j >= 2 (theory §4.8, step 5 of
    each proof), so the passing j form an initial segment: doubling finds a failing j,
    bisection on the integers the first one.
    """
    for i in range(out.shape[0]):
        args = (a[i], b[i], c[i], gamma[i], D2[i], root[i], C[i], drift[i], table_S, table_H)
        low, high = 0.0, 1.0
        while high < _LIMIT and _excess(second, high, *args) <= 0.0:
            low, high = high, 2.0 * high
        if high >= _LIMIT:
            out[i] = np.inf
            continue
        # excess(low) <= 0 < excess(high): bisect on the integers between them
        while high - low > 1.0:
            mid = float(math.floor(0.5 * (low + high)))
            if not (low < mid < high):  # beyond 2^53 the integers run out first
                break
            if _excess(second, mid, *args) > 0.0:
                high = mid
            else:
                low = mid
        out[i] = low


def alma_updates(gamma, p, alpha, B, C, D2=0.0):
    """The bound on ALMA_p's updates: the smaller of theory §4.8's Theorems 1 and 2.

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
        min(m1, m2) as a float (inf beyond 2^1000), where m1 is the largest integer m
        with a S_j - b H_j - c sqrt(H_j) <= 1/2 for j = 1..m (Theorem 1:
        a = C gamma / sqrt(p - 1), b = C B (1 - alpha) + C^2 / 2, c = C D2 / sqrt(p - 1))
        and m2 the largest m with
        j gamma - sqrt(j) D2 - sqrt(p - 1) (2 sqrt(j) / C - 3 / (2 C) + (C/2 + (1 - alpha) B) S_j)
        <= 0 for j = 1..m (Theorem 2).

    Notes
    -----
    Theory §4.8 (derived; Gentile 2001 could not be read). Theorem 1: every
    update lowers the Bregman divergence of 1/2 ||.||_q^2 from u to w by at least
    eta_k (gamma - d_t) - eta_k (1 - alpha) gamma_k - (p - 1) eta_k^2 / 2, the
    projection never raises it, and it starts at ||u||_q^2 / 2 <= 1/2. Theorem 2
    divides each update's inequality by eta_k before summing; the divergence is
    at most 2 once w is in the unit ball, so the sum telescopes to
    2 / eta_j - 3 / (2 eta_1) and the sqrt(k) growth of 1/eta_k no longer costs
    a log factor. Both tests pass on an initial segment of j, found by doubling
    and bisection, vectorised over the arguments.

    Examples
    --------
    >>> float(alma_updates(0.5, 2.0, 0.9, 1 / 0.9, 2**0.5))
    13.0
    >>> float(alma_updates(0.01, 2.0, 1.0, 1.0, 2**0.5))  # Theorem 2; Theorem 1 gives 225209
    79581.0
    """
    root = np.sqrt(np.asarray(p, dtype=np.float64) - 1.0)
    C = np.asarray(C, dtype=np.float64)
    gamma = np.asarray(gamma, dtype=np.float64)
    D2 = np.asarray(D2, dtype=np.float64)
    drift = C * np.asarray(B, dtype=np.float64) * (1.0 - np.asarray(alpha, dtype=np.float64))
    a, b, c = C * gamma / root, drift + C * C / 2.0, C * D2 / root
    arrays = np.broadcast_arrays(a, b, c, gamma, D2, root, C, 0.5 * C + drift / C)
    shape = arrays[0].shape
    flat = [np.ascontiguousarray(x, dtype=np.float64).ravel() for x in arrays]
    first, second = np.empty(flat[0].shape[0]), np.empty(flat[0].shape[0])
    _last_passing(0, *flat, _S, _H, first)
    _last_passing(1, *flat, _S, _H, second)
    out = np.minimum(first, second).reshape(shape)
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
    label=r"alma_separable: largest m with $\Phi_m \leq 1/2$ and $\Psi_m \leq 0$, $D_2 = 0$",
    value=lambda q, gamma: _value(q, gamma, 0.0), theory="§4.8",
    quantities=("R_p", "p", "min_margin"), conditions=(SEPARATION,)))

ALMA_D2 = register_bound(Bound(
    name="alma_d2", source="theory §4.8 (derived)", provider="p_norm_updates",
    label=r"alma_d2: largest m with $\Phi_m \leq 1/2$ and $\Psi_m \leq 0$",
    value=lambda q, gamma: _value(q, gamma, q.D2(gamma)), theory="§4.8",
    quantities=("R_p", "p", "D2")))
