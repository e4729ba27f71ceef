"""The Ballseptron of Shalev-Shwartz & Singer (theory §2.3), primal and kernel forms.

Paper 004, Fig. 2, with radius r >= 0 and w_1 = 0:

* if y_t w.x_t <= 0: a prediction mistake, w <- w + y_t x_t;
* elif y_t (w.x_t) / ||w|| <= r: a margin error, w <- w + y_t x_hat_t with the
  pseudo-instance x_hat_t = x_t - y_t r w / ||w|| (paper 004, eq. (6));
* else w is left unchanged.

The margin-error update is w <- (1 - r/||w||) w + y_t x_t: the primal CSR
loop and the kernel loop therefore keep w as one global scale factor times a
vector (CSR) or times the dual coefficients (kernel), so that a margin error
costs as much as a mistake, and update ||w||^2 by ||a w + y x||^2 =
a^2 ||w||^2 + 2 a y (w.x) + K(x, x) (one extra kernel value); the dense loop
recomputes ||w||^2 while it updates w. ``r = 0`` is the Perceptron exactly.

Registered as ``"ballseptron"`` with the radius ``r`` (default 0.1, r >= 0),
the kernel parameters ``kernel``, ``degree``, ``gamma``, ``coef0`` (theory §1.7)
and ``form``. Mistakes and margin errors are recorded separately
(``mistake_trials``, ``margin_error_trials``); the kernel form keeps every
updated instance as a support vector with its effective coefficient
(``run.dual_coef``). ``OnlineRun.state["norm_sq"]`` is the final ||w||^2.

References
----------
S. Shalev-Shwartz and Y. Singer, "A new perspective on an old Perceptron
algorithm", COLT 2005, Fig. 2 and sec. 2-3 (paper 004).

Examples
--------
>>> import numpy as np
>>> from perceptron_bounds import run_online
>>> X = np.array([[1.0, 0.0], [0.8, 0.6], [-1.0, 0.0], [0.0, -1.0]])
>>> run = run_online("ballseptron", X, [1, 1, -1, -1], r=0.9, epochs=2)
>>> run.mistake_trials.tolist(), run.margin_error_trials.tolist()
([0], [1, 2, 3, 4, 5, 6, 7])
>>> run_online("ballseptron", X, [1, 1, -1, -1], r=0.0, epochs=2).margin_errors
0
"""

from __future__ import annotations

import numpy as np

from .._interrupt import EVERY, stop_requested
from .._jit import jit
from .._linalg import dot, grow_vector
from .._validation import check_real
from ..hypothesis import KernelHypothesis, LinearHypothesis
from ..kernel_engine import (
    engine_append,
    engine_diag,
    engine_order,
    engine_row,
    engine_supports,
    kernel_engine,
)
from ..kernels import KERNEL_DEFAULTS, kernel_of
from ..registry import Algorithm, LoopResult, attach, register
from ._cases import MARGIN_ERROR, MISTAKE, NO_UPDATE, ball_case, rescaled
from ._common import dual_buffer, resolve_kernel_form, support_set
from .native import fit_native_ballseptron
from .ovr import fit_ovr_ballseptron


@jit
def _ballseptron_primal_loop(X, y, order, r, w, margins):
    """Primal Ballseptron over dense rows; updates w in place, ||w||^2 recomputed after each update.

    Returns (update trials, their cases, ||w||^2).
    """
    n_trials = order.shape[0]
    n = X.shape[1]
    record = margins.shape[0] > 0
    updates = np.empty(n_trials, dtype=np.int64)
    cases = np.empty(n_trials, dtype=np.int64)
    u = 0
    norm_sq = 0.0
    for j in range(n):
        norm_sq += w[j] * w[j]
    for t in range(n_trials):
        if t % EVERY == 0 and stop_requested(t):  # Ctrl-C: return trials 0..t-1
            break
        i = order[t]
        s = 0.0
        for j in range(n):
            s += w[j] * X[i, j]
        if record:
            margins[t] = s
        yi = y[i]
        case, a = ball_case(yi * s, norm_sq, r)
        if case == NO_UPDATE:
            continue
        updates[u] = t
        cases[u] = case
        u += 1
        for j in range(n):
            w[j] = a * w[j] + yi * X[i, j]
        norm_sq = 0.0
        for j in range(n):  # apart from the writes: see perceptron_bounds._linalg, "Determinism"
            norm_sq += w[j] * w[j]
    return updates[:u].copy(), cases[:u].copy(), norm_sq


@jit
def _ballseptron_primal_csr_loop(data, indices, indptr, y, order, r, v, norm_sq, margins):
    """Primal Ballseptron over CSR rows with w = scale * v; ends with v = w.

    Returns (update trials, their cases, ||w||^2).
    """
    n_trials = order.shape[0]
    record = margins.shape[0] > 0
    updates = np.empty(n_trials, dtype=np.int64)
    cases = np.empty(n_trials, dtype=np.int64)
    u = 0
    scale = 1.0
    for t in range(n_trials):
        if t % EVERY == 0 and stop_requested(t):  # Ctrl-C: return trials 0..t-1
            break
        i = order[t]
        start, end = indptr[i], indptr[i + 1]
        s = 0.0
        for p in range(start, end):
            s += v[indices[p]] * data[p]
        s *= scale
        if record:
            margins[t] = s
        yi = y[i]
        case, a = ball_case(yi * s, norm_sq, r)
        if case == NO_UPDATE:
            continue
        updates[u] = t
        cases[u] = case
        u += 1
        scale = rescaled(scale, a, v, v.shape[0])
        xx = 0.0
        for p in range(start, end):
            xx += data[p] * data[p]
        norm_sq = max(a * a * norm_sq + 2.0 * a * yi * s + xx, 0.0)
        c = yi / scale
        for p in range(start, end):
            v[indices[p]] += c * data[p]
    v *= scale
    return updates[:u].copy(), cases[:u].copy(), norm_sq


@jit
def _ballseptron_dual_loop(src, st, k, y, r, coef, norm_sq, margins):
    """Kernel Ballseptron: w = scale * sum_{j<k} coef[j] K(s_j, .); every update appends x_t.

    Kernel values come from the kernel-row engine (``src``, ``st``).
    Returns (update trials, their cases, engine state, coef, k, ||w||^2) with
    the buffers possibly regrown and coef holding the effective coefficients.
    """
    order = engine_order(src)
    n_trials = order.shape[0]
    record = margins.shape[0] > 0
    updates = np.empty(n_trials, dtype=np.int64)
    cases = np.empty(n_trials, dtype=np.int64)
    row = np.empty(coef.shape[0])
    u = 0
    scale = 1.0
    for t in range(n_trials):
        if t % EVERY == 0 and stop_requested(t):  # Ctrl-C: return trials 0..t-1
            break
        i = order[t]
        st = engine_row(src, st, t, k, row)
        s = dot(coef, row, k) * scale
        if record:
            margins[t] = s
        yi = y[i]
        case, a = ball_case(yi * s, norm_sq, r)
        if case == NO_UPDATE:
            continue
        updates[u] = t
        cases[u] = case
        u += 1
        scale = rescaled(scale, a, coef, k)
        norm_sq = max(a * a * norm_sq + 2.0 * a * yi * s + engine_diag(src, i), 0.0)
        st = engine_append(src, st, t, k)
        coef = grow_vector(coef, k)
        row = grow_vector(row, k)
        coef[k] = yi / scale
        k += 1
    coef[:k] *= scale
    return updates[:u].copy(), cases[:u].copy(), st, coef, k, norm_sq


def _resolve(params: dict, data) -> dict:
    r = check_real("r", params["r"], low=0.0)
    return {**resolve_kernel_form(params, data), "r": r}


def _fit(data, order, params, margins, previous) -> LoopResult:
    r = params["r"]
    if params["form"] == "primal":
        w = np.zeros(data.n_features) if previous is None else np.array(previous.weights)
        if data.sparse:
            X = data.X
            updates, cases, norm_sq = _ballseptron_primal_csr_loop(
                X.data, X.indices, X.indptr, data.y, order, r, w, float(w @ w), margins
            )
        else:
            updates, cases, norm_sq = _ballseptron_primal_loop(data.X, data.y, order, r, w, margins)
        hypothesis = LinearHypothesis(w)
    else:
        kernel = kernel_of(params)
        src, st, k = kernel_engine(data.X, order, kernel, support_set(previous))
        norm_sq = 0.0 if previous is None else previous.state["norm_sq"]
        updates, cases, st, coef, k, norm_sq = _ballseptron_dual_loop(
            src, st, k, data.y, r, dual_buffer(previous), norm_sq, margins
        )
        hypothesis = KernelHypothesis(engine_supports(st, k), coef[:k].copy(), kernel)
    return LoopResult(
        updates[cases == MISTAKE],
        hypothesis,
        margin_error_trials=updates[cases == MARGIN_ERROR],
        state={"norm_sq": norm_sq},
    )


BALLSEPTRON = register(
    Algorithm(
        name="ballseptron",
        estimator="Ballseptron",
        defaults={**KERNEL_DEFAULTS, "form": "auto", "r": 0.1},
        resolve=_resolve,
        fit=_fit,
        fit_ovr=fit_ovr_ballseptron,
        fit_native=fit_native_ballseptron,
        summary="Shalev-Shwartz & Singer's Ballseptron (margin errors within radius r)",
        bounds=("novikoff", "freund_schapire", "ballseptron_d1", "ballseptron_corrected_d2",
                "ballseptron_corrected_d1"),
        native_bounds=("novikoff", "freund_schapire", "ballseptron_d1",
                       "ballseptron_corrected_d2", "ballseptron_corrected_d1"),
        ball="r",
    )
)
attach(BALLSEPTRON.name, "presentation",
       display_name="Ballseptron",
       label_params=("r",),
       # a correct prediction within r of the hyperplane: binary (theory §2.3), native (§2.6)
       margin_error=(r"right sign, $y\,w \cdot x / \|w\| \leq r$",
                     r"right class, $w^y \cdot x - w^{\tilde y} \cdot x \leq r\,"
                     r"\|w^y - w^{\tilde y}\|$"))
