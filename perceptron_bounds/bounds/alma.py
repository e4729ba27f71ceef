"""Bounds on the updates (hence the mistakes) of ALMA_p (theory §4.8; derived here).

Gentile's paper (JMLR 2001; NIPS 2000) states ALMA_p's own bounds; its text
could not be read here (only its abstract), so these are the three bounds proved
on the theory page, §4.8. With x_hat_t the instances of unit p-norm (in feature
space for a kernel), u with ||u||_q = 1, gamma > 0,
d_t = max(0, gamma - y_t u.x_hat_t) and D2 = sqrt(sum d_t^2) over the update
trials (tightened) or all trials (stated), the number m of updates meets, for
every j <= m::

    Theorem 1:  Phi(j) = a S_j - b H_j - c sqrt(H_j) <= 1/2,
    Theorem 2:  Psi(j) = j gamma - sqrt(j) D2
                         - sqrt(p - 1) (2 sqrt(j) / C - 3 / (2 C) + (C/2 + (1 - alpha) B) S_j) <= 0,
    Theorem 3 (D2 = 0):  t_j <= 1,  t_0 = 0,  t_k = (t_{k-1} + beta / sqrt(k)) / sqrt(1 + c2 / k),

where S_j = sum_{k<=j} k^(-1/2), H_j = sum_{k<=j} 1/k, a = C gamma / sqrt(p - 1),
b = C B (1 - alpha) + C^2 / 2, c = C D2 / sqrt(p - 1), beta = C gamma / sqrt(p - 1)
and c2 = C^2 + 2 (1 - alpha) B C. Theorems 1 and 2 come from the Bregman
divergence of 1/2 ||.||_q^2 from u to the weights, Theorem 3 from the
projection u.theta of the state, which Hoelder keeps at most 1. So m is at most
the smallest of the largest j passing each test (:func:`alma_updates`; each
theorem's own value: :func:`alma_theorems`). Theorem 1 is the tightest of the
first two for large margins, Theorem 2 (no log factor) for small ones; on
separable data (D2 = 0) Theorem 3 is below both, about
(p - 1) (1 + c2)^2 / (4 C^2 gamma^2) at small margins (9 (p - 1) / (8 gamma^2) at
alpha = 1, C = sqrt 2), and never above (p - 1) (2 + c2)^2 / (4 C^2 gamma^2). Any
p >= 2, alpha in (0, 1], B > 0, C > 0.

The quantities come from the ``"p_norm_updates"`` provider
(:class:`UpdatePNormQuantities`): the ``"p_norms"`` provider's R_p, q and
hinge losses, over the update trials (mistakes and margin errors) for the
tightened variant, and, for a kernel run, the margins of the normalised
instances, y f(x) / sqrt(K(x, x)).
"""

from __future__ import annotations

import functools
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
# Theorem 3's recursion is iterated for at most _CAP updates; beyond, its tail's closed form.
_CAP = 2**17
# t_j counts as above 1 only when its float64 value exceeds 1 + _MARGIN. Every term is positive,
# so each step adds at most 8 units of roundoff (2^-53) to the relative error of t_j: at most
# 8 * 2^17 * 2^-53 < 1.2e-10 after _CAP steps, far below _MARGIN.
_MARGIN = 1e-9


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


@functools.lru_cache(maxsize=64)
def _recursion(c2, n):
    """(max_{i <= j} tau_i for j = 1..n, tau_n): tau_0 = 0, tau_k = (tau_{k-1} + k^(-1/2)) / s_k,
    s_k = sqrt(1 + c2 / k).

    Theorem 3's t_k is beta tau_k (s_k does not depend on beta), so one sequence per c2
    serves every margin; the first j with t_j > 1 is the first with beta max_{i<=j} tau_i > 1.
    """
    peaks = np.empty(n)
    tau = 0.0
    for k in range(1, n + 1):
        tau = (tau + 1.0 / math.sqrt(k)) / math.sqrt(1.0 + c2 / k)
        peaks[k - 1] = tau
    return np.maximum.accumulate(peaks), tau


def _floor_or_inf(x):
    """floor(x), raised by 1e-12 first so that roundoff never lowers it; inf beyond 2^1000."""
    with np.errstate(invalid="ignore"):
        return np.where(np.isfinite(x) & (x <= _LIMIT), np.floor(x * (1.0 + 1e-12)), np.inf)


def _tail(c2, K, tau_K, beta):
    """Theorem 3 past K iterated steps: floor(1 / mu^2), mu = min(t_K / sqrt(K),
    2 beta / (2 rho + c2)), rho = 1 / (1 + sqrt(K / (K + 1))) (theory §4.8, Theorem 3, step 7)."""
    rho = 1.0 / (1.0 + math.sqrt(K / (K + 1.0)))
    with np.errstate(over="ignore", divide="ignore"):  # inf: no bound beyond the closed form
        slope = np.maximum((np.sqrt(K) / (np.float64(tau_K) * (1.0 - _MARGIN))) ** 2,
                           (2.0 * rho + np.float64(c2)) ** 2 / 4.0)
        return _floor_or_inf(slope / beta**2)


def alma_separable_updates(gamma, p, alpha, B, C):
    """Theory §4.8's Theorem 3: ALMA_p's updates on data u separates with margin gamma.

    Parameters
    ----------
    gamma : float or ndarray
        Margin gamma > 0 of a comparator u with ||u||_q <= 1, q = p / (p - 1), on every
        update trial: y_t u.x_hat_t >= gamma.
    p : float
        ALMA's norm parameter, p >= 2.
    alpha, B, C : float or ndarray
        ALMA's parameters: alpha in (0, 1], B > 0, C > 0.

    Returns
    -------
    ndarray or float
        m3 = (the first j with t_j > 1) - 1, where t_0 = 0 and
        t_k = (t_{k-1} + beta / sqrt(k)) / sqrt(1 + c2 / k), beta = C gamma / sqrt(p - 1),
        c2 = C^2 + 2 (1 - alpha) B C; never above the closed form
        floor((p - 1) (2 + c2)^2 / (4 C^2 gamma^2)). Where the recursion passes 1 only
        after K = 2^17 steps, floor(1 / mu^2) with mu = min(t_K / sqrt(K), 2 beta / (2 rho + c2)),
        rho = 1 / (1 + sqrt(K / (K + 1))), about (p - 1) (1 + c2)^2 / (4 C^2 gamma^2). inf
        beyond 2^1000, or for gamma <= 0.

    Notes
    -----
    Theory §4.8, Theorem 3 (derived; Gentile 2001 could not be read). a_k = u.theta_k
    after the k-th update is at most ||u||_q ||theta_k||_p <= 1 (Hoelder, the
    projection). The step raises u.theta by at least eta_k gamma = beta / sqrt(k), while
    the (p - 1)-smoothness of ||.||_p^2 / 2 and the update condition keep
    ||theta'||_p^2 <= 1 + c2 / k, so the projection divides by at most s_k =
    sqrt(1 + c2 / k); by induction a_k >= t_k. t_j is iterated in float64 (t_k is beta
    times one sequence per c2, cached) and counts as above 1 only beyond 1 + 1e-9,
    above the accumulated roundoff (< 1.2e-10 after 2^17 steps). The closed forms are
    t_k >= lambda sqrt(k) for every k with lambda = 2 beta / (2 + c2), and for k >= K with
    mu (the same induction started at K, with sqrt(k) - sqrt(k - 1) <= rho / sqrt(k) for k > K).

    Examples
    --------
    >>> float(alma_separable_updates(0.01, 2.0, 1.0, 1.0, 2**0.5))  # closed form: 20000
    11248.0
    >>> float(alma_separable_updates(0.1, 2.0, 0.9, 1 / 0.9, 2**0.5))
    135.0
    """
    p_minus_1 = np.asarray(p, dtype=np.float64) - 1.0
    C = np.asarray(C, dtype=np.float64)
    gamma = np.asarray(gamma, dtype=np.float64)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        c2 = C * C + 2.0 * ((1.0 - np.asarray(alpha, dtype=np.float64)) * np.asarray(
            B, dtype=np.float64)) * C
        beta = C * gamma / np.sqrt(p_minus_1)
        closed = p_minus_1 * ((2.0 + c2) / (2.0 * C * gamma)) ** 2
    arrays = np.broadcast_arrays(beta, c2, closed)
    shape = arrays[0].shape
    beta, c2, closed = (np.ascontiguousarray(x, dtype=np.float64).ravel() for x in arrays)
    out = np.where(beta > 0, _floor_or_inf(closed), np.inf)
    usable = np.isfinite(out)
    for value in np.unique(c2[usable]):
        mine = usable & (c2 == value)
        # enough steps to pass 1 by the closed form, at most _CAP
        steps = min(_CAP, 1 << int(np.max(out[mine]) + 2).bit_length())
        peaks, last = _recursion(float(value), steps)
        first = np.searchsorted(peaks, (1.0 + _MARGIN) / beta[mine], side="right")
        found = np.where(first < steps, first, _tail(float(value), steps, last, beta[mine]))
        out[mine] = np.minimum(found, out[mine])
    out = out.reshape(shape)
    return out if out.ndim else float(out)


def alma_theorems(gamma, p, alpha, B, C, D2=0.0):
    """Each of theory §4.8's three bounds on ALMA_p's updates: (m*, m**, m3).

    Parameters
    ----------
    gamma, p, alpha, B, C, D2
        As for :func:`alma_updates`.

    Returns
    -------
    tuple of three ndarrays (or floats)
        m* (Theorem 1), the largest integer m with a S_j - b H_j - c sqrt(H_j) <= 1/2 for
        j = 1..m, a = C gamma / sqrt(p - 1), b = C B (1 - alpha) + C^2 / 2,
        c = C D2 / sqrt(p - 1); m** (Theorem 2), the largest m with
        j gamma - sqrt(j) D2 - sqrt(p - 1) (2 sqrt(j) / C - 3 / (2 C) + (C/2 + (1 - alpha) B) S_j)
        <= 0 for j = 1..m; m3 (Theorem 3, :func:`alma_separable_updates`) where D2 = 0,
        inf elsewhere. inf beyond 2^1000.

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
    >>> [float(m) for m in alma_theorems(0.01, 2.0, 1.0, 1.0, 2**0.5)]
    [225209.0, 79581.0, 11248.0]
    """
    root = np.sqrt(np.asarray(p, dtype=np.float64) - 1.0)
    C = np.asarray(C, dtype=np.float64)
    gamma = np.asarray(gamma, dtype=np.float64)
    D2 = np.asarray(D2, dtype=np.float64)
    with np.errstate(over="ignore"):  # an overflow to inf only loosens a test to inf
        # (1 - alpha) B first: 0 at alpha = 1 even where C B overflows
        drift = C * ((1.0 - np.asarray(alpha, dtype=np.float64)) * np.asarray(B, dtype=np.float64))
        a, b, c = C * gamma / root, drift + C * C / 2.0, C * D2 / root
        arrays = np.broadcast_arrays(a, b, c, gamma, D2, root, C, 0.5 * C + drift / C)
    shape = arrays[0].shape
    flat = [np.ascontiguousarray(x, dtype=np.float64).ravel() for x in arrays]
    first, second = np.empty(flat[0].shape[0]), np.empty(flat[0].shape[0])
    _last_passing(0, *flat, _S, _H, first)
    _last_passing(1, *flat, _S, _H, second)
    third = np.where(D2 == 0.0, alma_separable_updates(gamma, p, alpha, B, C), np.inf)
    bounds = (first.reshape(shape), second.reshape(shape), np.broadcast_to(third, shape).copy())
    return bounds if shape else tuple(float(x) for x in bounds)


def alma_updates(gamma, p, alpha, B, C, D2=0.0):
    """The bound on ALMA_p's updates: the smallest of theory §4.8's Theorems 1, 2 and 3.

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
        min(m*, m**, m3) of :func:`alma_theorems` as a float (inf beyond 2^1000): m3,
        Theorem 3, only where D2 = 0.

    Notes
    -----
    Theory §4.8 (derived; Gentile 2001 could not be read): Theorems 1 and 2 hold for
    every D2, Theorem 3 on separable data only.

    Examples
    --------
    >>> float(alma_updates(0.5, 2.0, 0.9, 1 / 0.9, 2**0.5))  # Theorem 3; Theorem 1 gives 13
    5.0
    >>> float(alma_updates(0.5, 2.0, 0.9, 1 / 0.9, 2**0.5, D2=0.1))  # Theorem 1
    15.0
    >>> float(alma_updates(0.01, 2.0, 1.0, 1.0, 2**0.5))  # Theorem 3; Theorem 2 gives 79581
    11248.0
    """
    first, second, third = alma_theorems(gamma, p, alpha, B, C, D2)
    out = np.minimum(np.minimum(first, second), third)
    return out if np.ndim(out) else float(out)


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
    label=(r"alma_separable: largest m with $\Phi_m \leq 1/2$, $\Psi_m \leq 0$, $t_m \leq 1$ "
           r"($D_2 = 0$)"),
    value=lambda q, gamma: _value(q, gamma, 0.0), theory="§4.8",
    quantities=("R_p", "p", "min_margin"), conditions=(SEPARATION,)))

ALMA_D2 = register_bound(Bound(
    name="alma_d2", source="theory §4.8 (derived)", provider="p_norm_updates",
    label=r"alma_d2: largest m with $\Phi_m \leq 1/2$, $\Psi_m \leq 0$ ($t_m \leq 1$ if $D_2 = 0$)",
    value=lambda q, gamma: _value(q, gamma, q.D2(gamma)), theory="§4.8",
    quantities=("R_p", "p", "D2")))
