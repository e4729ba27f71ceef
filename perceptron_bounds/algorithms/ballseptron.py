"""The Ballseptron of Shalev-Shwartz & Singer (SPEC 2.3), primal and kernel forms.

Paper 004, Fig. 2, with radius r >= 0 and w_1 = 0:

* if y_t w.x_t <= 0: a prediction mistake, w <- w + y_t x_t;
* elif y_t (w.x_t) / ||w|| <= r: a margin error, w <- w + y_t x_hat_t with the
  pseudo-instance x_hat_t = x_t - y_t r w / ||w|| (paper 004, eq. (6));
* else w is left unchanged.

The margin-error update is w <- (1 - r/||w||) w + y_t x_t: the primal CSR
loop and the kernel loop therefore keep w = scale * u with one global scale
factor, so a margin error costs as much as a mistake, and update ||w||^2 by
||a w + y x||^2 = a^2 ||w||^2 + 2 a y (w.x) + K(x, x) (one extra kernel
value). ``r = 0`` is the Perceptron exactly.

References
----------
S. Shalev-Shwartz and Y. Singer, "A new perspective on an old Perceptron
algorithm", COLT 2005, Fig. 2 and sec. 2-3 (paper 004).
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from .._validation import check_real
from ..hypothesis import KernelHypothesis, LinearHypothesis
from ._registry import Algorithm, LoopResult, register
from .kernels import (
    KERNEL_DEFAULTS,
    _append_support,
    _kernel_value,
    kernel_of,
    resolve_kernel_form,
    support_buffers,
)

# The global scale factor is folded into the coefficients when it leaves
# [_TINY, 1/_TINY] in absolute value (this includes scale = 0, when
# 1 - r/||w|| = 0), so that neither it nor the coefficients y/scale overflow.
_TINY = 1e-100


@jit
def _ballseptron_dense_loop(X, y, order, r, w, margins):
    """Primal Ballseptron over dense rows; updates w in place.

    Returns (mistake trials, margin error trials, ||w||^2).
    """
    n_trials = order.shape[0]
    n = X.shape[1]
    record = margins.shape[0] > 0
    mistakes = np.empty(n_trials, dtype=np.int64)
    margin_errors = np.empty(n_trials, dtype=np.int64)
    m = 0
    e = 0
    norm_sq = 0.0
    for j in range(n):
        norm_sq += w[j] * w[j]
    for t in range(n_trials):
        i = order[t]
        s = 0.0
        for j in range(n):
            s += w[j] * X[i, j]
        if record:
            margins[t] = s
        yi = y[i]
        if yi * s <= 0.0:
            a = 1.0
            mistakes[m] = t
            m += 1
        else:
            norm = np.sqrt(norm_sq)
            if yi * s / norm > r:
                continue
            a = 1.0 - r / norm
            margin_errors[e] = t
            e += 1
        norm_sq = 0.0
        for j in range(n):
            w[j] = a * w[j] + yi * X[i, j]
            norm_sq += w[j] * w[j]
    return mistakes[:m].copy(), margin_errors[:e].copy(), norm_sq


@jit
def _ballseptron_csr_loop(data, indices, indptr, y, order, r, u, norm_sq, margins):
    """Primal Ballseptron over CSR rows with w = scale * u; ends with u = w.

    Returns (mistake trials, margin error trials, ||w||^2).
    """
    n_trials = order.shape[0]
    record = margins.shape[0] > 0
    mistakes = np.empty(n_trials, dtype=np.int64)
    margin_errors = np.empty(n_trials, dtype=np.int64)
    m = 0
    e = 0
    scale = 1.0
    for t in range(n_trials):
        i = order[t]
        start, end = indptr[i], indptr[i + 1]
        s = 0.0
        for p in range(start, end):
            s += u[indices[p]] * data[p]
        s *= scale
        if record:
            margins[t] = s
        yi = y[i]
        if yi * s <= 0.0:
            a = 1.0
            mistakes[m] = t
            m += 1
        else:
            norm = np.sqrt(norm_sq)
            if yi * s / norm > r:
                continue
            a = 1.0 - r / norm
            margin_errors[e] = t
            e += 1
            scale *= a
            if not _TINY <= abs(scale) <= 1.0 / _TINY:
                u *= scale
                scale = 1.0
        xx = 0.0
        for p in range(start, end):
            xx += data[p] * data[p]
        norm_sq = max(a * a * norm_sq + 2.0 * a * yi * s + xx, 0.0)
        c = yi / scale
        for p in range(start, end):
            u[indices[p]] += c * data[p]
    u *= scale
    return mistakes[:m].copy(), margin_errors[:e].copy(), norm_sq


@jit
def _ballseptron_kernel_loop(
    X, y, order, r, S, coef, k, norm_sq, code, degree, gamma, coef0, margins
):
    """Kernel Ballseptron: w = scale * sum_{i<k} coef[i] K(S[i], .); every update appends x_t.

    Returns (mistake trials, margin error trials, S, coef, k, ||w||^2) with
    the buffers possibly regrown and coef holding the effective coefficients.
    """
    n_trials = order.shape[0]
    record = margins.shape[0] > 0
    mistakes = np.empty(n_trials, dtype=np.int64)
    margin_errors = np.empty(n_trials, dtype=np.int64)
    m = 0
    e = 0
    scale = 1.0
    for t in range(n_trials):
        i = order[t]
        x = X[i]
        s = 0.0
        for j in range(k):
            s += coef[j] * _kernel_value(S[j], x, code, degree, gamma, coef0)
        s *= scale
        if record:
            margins[t] = s
        yi = y[i]
        if yi * s <= 0.0:
            a = 1.0
            mistakes[m] = t
            m += 1
        else:
            norm = np.sqrt(norm_sq)
            if yi * s / norm > r:
                continue
            a = 1.0 - r / norm
            margin_errors[e] = t
            e += 1
            scale *= a
            if not _TINY <= abs(scale) <= 1.0 / _TINY:
                coef[:k] *= scale
                scale = 1.0
        kxx = _kernel_value(x, x, code, degree, gamma, coef0)
        norm_sq = max(a * a * norm_sq + 2.0 * a * yi * s + kxx, 0.0)
        S, coef = _append_support(S, coef, k, x, yi / scale)
        k += 1
    coef[:k] *= scale
    return mistakes[:m].copy(), margin_errors[:e].copy(), S, coef, k, norm_sq


def _resolve(params: dict, data) -> dict:
    r = check_real("r", params["r"], low=0.0)
    return {**resolve_kernel_form(params, data), "r": r}


def _fit(data, order, params, margins, previous) -> LoopResult:
    r = params["r"]
    if params["form"] == "primal":
        w = np.zeros(data.n_features) if previous is None else np.array(previous.weights)
        if data.sparse:
            X = data.X
            mistakes, margin_errors, norm_sq = _ballseptron_csr_loop(
                X.data, X.indices, X.indptr, data.y, order, r, w, float(w @ w), margins
            )
        else:
            mistakes, margin_errors, norm_sq = _ballseptron_dense_loop(
                data.X, data.y, order, r, w, margins
            )
        hypothesis = LinearHypothesis(w)
    else:
        kernel = kernel_of(params)
        S, coef, k = support_buffers(previous, data.n_features)
        norm_sq = 0.0 if previous is None else previous.state["norm_sq"]
        mistakes, margin_errors, S, coef, k, norm_sq = _ballseptron_kernel_loop(
            data.X, data.y, order, r, S, coef, k, norm_sq, *kernel.loop_args(), margins
        )
        hypothesis = KernelHypothesis(S[:k].copy(), coef[:k].copy(), kernel)
    return LoopResult(mistakes, hypothesis, margin_error_trials=margin_errors,
                      state={"norm_sq": norm_sq})


BALLSEPTRON = register(
    Algorithm(
        name="ballseptron",
        defaults={**KERNEL_DEFAULTS, "form": "auto", "r": 0.1},
        resolve=_resolve,
        fit=_fit,
        summary="Shalev-Shwartz & Singer's Ballseptron (margin errors within radius r)",
    )
)
