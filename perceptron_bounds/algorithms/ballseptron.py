"""The Ballseptron of Shalev-Shwartz & Singer (theory §2.3), primal and kernel forms.

Paper 004, Fig. 2, with radius r >= 0 and w_1 = 0:

* if y_t w.x_t <= 0: a prediction mistake, w <- w + y_t x_t;
* elif y_t (w.x_t) / ||w|| <= r: a margin error, w <- w + y_t x_hat_t with the
  pseudo-instance x_hat_t = x_t - y_t r w / ||w|| (paper 004, eq. (6));
* else w is left unchanged.

The margin-error update is w <- (1 - r/||w||) w + y_t x_t: the primal rule
(dense or CSR rows) and the kernel rule therefore keep w as one global scale
factor times a vector (primal) or times the dual coefficients (kernel), so
that a margin error costs as much as a mistake (O(nnz(x_t)) on CSR), and
update ||w||^2 by ||a w + y x||^2 = a^2 ||w||^2 + 2 a y (w.x) + K(x, x) (one
extra kernel value). ``r = 0`` is the Perceptron exactly.

Registered as ``"ballseptron"`` with the radius ``r`` (default 0.1, r >= 0),
the kernel parameters ``kernel``, ``degree``, ``gamma``, ``coef0`` (theory §1.7)
and ``form``. Mistakes and margin errors are recorded separately
(``mistake_trials``, ``margin_error_trials``); the kernel form keeps every
updated instance as a support vector with its effective coefficient
(``run.dual_coef``). ``OnlineRun.state["norm_sq"]`` is the final ||w||^2 as the
loop kept it; the primal form's ``state["v"]`` and ``state["scale"]`` are its
w = scale * v. A warm start continues all three (a chain of warm starts is then
one run, bit for bit).

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

from .._jit import rule
from .._linalg import dot, grow_vector, row_axpy, row_dot, row_sq_norm, rows
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
from ._common import dual_buffer, resolve_kernel_form, scaled_start, scaled_state, support_set
from ._frame import online_loop
from .native import fit_native_ballseptron
from .ovr import fit_ovr_ballseptron


@rule(inline=True)
def _ballseptron_primal_step(X, y, i, t, u, arrays, state):
    """Fig. 2 on trial t over a dense or CSR row, with w = scale * v.

    ``arrays`` is (v,), ``state`` (r, ||w||^2, scale); the wrapper ends with v = w.
    """
    (v,) = arrays
    r, norm_sq, scale = state
    s = row_dot(X, i, v) * scale
    yi = y[i]
    case, a = ball_case(yi * s, norm_sq, r)
    if case == NO_UPDATE:
        return s, case, state
    scale = rescaled(scale, a, v, v.shape[0])
    norm_sq = max(a * a * norm_sq + 2.0 * a * yi * s + row_sq_norm(X, i), 0.0)
    row_axpy(X, i, yi / scale, v)
    return s, case, (r, norm_sq, scale)


_ballseptron_primal_loop = online_loop(_ballseptron_primal_step)


@rule(returns_arrays=True)
def _ballseptron_dual_step(src, y, i, t, u, arrays, state):
    """Kernel Ballseptron on trial t: w = scale * sum_{j<k} coef[j] K(s_j, .); every update
    appends x_t.

    ``state`` is (r, engine state, coef, kernel-row buffer, k, ||w||^2, scale);
    kernel values come from the kernel-row engine (``src``); the wrapper ends
    with coef holding the effective coefficients.
    """
    r, st, coef, row, k, norm_sq, scale = state
    st = engine_row(src, st, t, k, row)
    s = dot(coef, row, k) * scale
    yi = y[i]
    case, a = ball_case(yi * s, norm_sq, r)
    if case == NO_UPDATE:
        return s, case, (r, st, coef, row, k, norm_sq, scale)
    scale = rescaled(scale, a, coef, k)
    norm_sq = max(a * a * norm_sq + 2.0 * a * yi * s + engine_diag(src, i), 0.0)
    st = engine_append(src, st, t, k)
    coef = grow_vector(coef, k)
    row = grow_vector(row, k)
    coef[k] = yi / scale
    return s, case, (r, st, coef, row, k + 1, norm_sq, scale)


_ballseptron_dual_loop = online_loop(_ballseptron_dual_step)


def _resolve(params: dict, data) -> dict:
    r = check_real("r", params["r"], low=0.0)
    return {**resolve_kernel_form(params, data), "r": r}


def _fit(data, order, params, margins, previous) -> LoopResult:
    r = params["r"]
    # the ||w||^2 the loop kept (its recurrence), not w @ w: a warm start continues it
    norm_sq = 0.0 if previous is None else previous.state["norm_sq"]
    if params["form"] == "primal":
        v, scale = scaled_start(previous, data.n_features)
        updates, cases, (_, norm_sq, scale), _ = _ballseptron_primal_loop(
            rows(data.X), data.y, order, (v,), (r, norm_sq, scale), margins)
        hypothesis = LinearHypothesis(v * scale)
        carried = scaled_state(v, scale)
    else:
        kernel = kernel_of(params)
        src, st, k = kernel_engine(data.X, order, kernel, support_set(previous))
        coef = dual_buffer(previous)
        updates, cases, (_, st, coef, _, k, norm_sq, scale), _ = _ballseptron_dual_loop(
            src, data.y, engine_order(src), (),
            (r, st, coef, np.empty(coef.shape[0]), k, norm_sq, 1.0), margins)
        hypothesis = KernelHypothesis(engine_supports(st, k), coef[:k] * scale, kernel)
        carried = {}
    return LoopResult(
        updates[cases == MISTAKE],
        hypothesis,
        margin_error_trials=updates[cases == MARGIN_ERROR],
        state={"norm_sq": norm_sq, **carried},
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
