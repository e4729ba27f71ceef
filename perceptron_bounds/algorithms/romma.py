"""ROMMA, the Relaxed Online Maximum Margin Algorithm of Li & Long (theory §2.8), primal and kernel.

From w_1 = 0, ROMMA updates on a mistake (y_t w.x_t <= 0, theory §1.1),
aggressive ROMMA (``aggressive=True``) whenever y_t w.x_t < 1 (an update with
y_t w.x_t > 0 is a margin error). The update makes w the minimum-norm vector of

    H_t ∩ {w : y_t w.x_t >= 1},   H_t = {w : w.w_t >= ||w_t||^2}

(H_1 is the whole space), which is, with q = ||x_t|| ||w_t|| and
cos = y_t w_t.x_t / q (theory §2.8):

* y_t x_t / ||x_t||^2 when w_t = 0 or y_t w_t.x_t >= ||x_t||^2 ||w_t||^2 (the
  old constraint holds there: always the first update; otherwise aggressive
  updates only);
* else eq. (5) of the paper, w <- c w_t + d x_t with
  c = (||x||^2 ||w||^2 - y w.x) / (||x||^2 ||w||^2 - (w.x)^2) = (q - cos) / (q g),
  d = ||w||^2 (y - w.x) / (||x||^2 ||w||^2 - (w.x)^2) = y (1 - y w.x) / (||x||^2 g),
  g = 1 - cos^2 = (1 - |cos|)(1 + |cos|), and
  ||w_{t+1}||^2 = ||w_t||^2 + (1 - y w.x)^2 / (||x||^2 g) (Pythagoras: w_t is
  the normal of the plane w.w_t = ||w_t||^2 that holds w_{t+1});
* w unchanged when x_t = 0 or g <= :data:`PARALLEL` (x_t parallel to w_t:
  the set is empty, or the exact step is below float64 resolution; theory §2.8).

The loops never form ||x||^2 ||w||^2 or its difference with (w.x)^2, which
underflow, overflow or cancel for rows scaled 1e-150..1e150: they keep
||w|| (not its square, which overflows there) incrementally by the formula
above (one extra kernel value K(x, x) per update) and work with q, cos and g.
The primal rule (dense or CSR rows) and the kernel rule keep w as one scale
factor times a vector (primal) or the dual coefficients (kernel), as the
Ballseptron's do, so that an update costs one pass over x_t (O(nnz(x_t)) on
CSR; plus, in the kernel form, one appended support).

Registered as ``"romma"`` with ``aggressive`` (default False), the kernel
parameters ``kernel``, ``degree``, ``gamma``, ``coef0`` (theory §1.7) and
``form``. ``OnlineRun.state["norm"]`` is the final ||w||; the primal form's
``state["v"]`` and ``state["scale"]`` are the loop's w = scale * v, which a
warm start continues (a chain of warm starts is then one run, bit for bit).

On data that are not linearly separable ROMMA's ||w|| grows geometrically
(each mistake multiplies ||w||^2 by at least 1/g) and its state becomes
ill-conditioned: the forms then agree on the mistakes for a while, not on w
to 1e-10 (theory §2.8).

References
----------
Y. Li and P. M. Long, "The relaxed online maximum margin algorithm", NIPS 12
(1999), sec. 2.1, 3 (eq. (5)); Machine Learning 46 (2002).

Examples
--------
>>> import numpy as np
>>> from perceptron_bounds import run_online
>>> X = np.array([[2.0, 0.0], [0.0, 1.0], [-1.0, -0.2]])
>>> run = run_online("romma", X, [1, 1, -1])
>>> run.mistake_trials.tolist(), run.weights.tolist()
([0, 1], [0.5, 1.0])
>>> run_online("romma", X, [1, 1, -1], aggressive=True, epochs=2).margin_error_trials.tolist()
[2, 4, 5]
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, rule
from .._linalg import dot, grow_vector, row_axpy, row_dot_lanes, rows
from .._validation import check_bool
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
from ._cases import MARGIN_ERROR, MISTAKE, NO_UPDATE, rescaled
from ._common import dual_buffer, resolve_kernel_form, scaled_start, scaled_state, support_set
from ._frame import online_loop

#: x_t and w_t count as parallel when the squared sine of their angle, g = 1 - cos^2, is at
#: most this: g then carries few correct digits (w.x has a rounding error up to n eps ||w|| ||x||)
#: and the update is left out (theory §2.8: every comparator then has gamma / R < 1e-6).
PARALLEL = 1e-12


@jit
def romma_case(signed_margin, aggressive):
    """The case of a trial with y_t w.x_t = ``signed_margin``: MISTAKE, MARGIN_ERROR, NO_UPDATE."""
    if signed_margin <= 0.0:
        return MISTAKE
    if aggressive and signed_margin < 1.0:
        return MARGIN_ERROR
    return NO_UPDATE


@jit
def romma_step(signed_margin, y, xx, norm):
    """ROMMA's update w <- c w + d x of an update trial (theory §2.8), and ||w_{t+1}||.

    ``signed_margin`` = y w.x, ``xx`` = ||x||^2, ``norm`` = ||w|| (not its square:
    ||w||^2 overflows when rows of norm 1e-150 and 1e150 meet). Returns
    (changed, c, d, new ||w||); ``changed`` is False (and w is kept) when x = 0 or
    x is parallel to w (g <= PARALLEL).
    """
    if xx <= 0.0:  # no w has y w.0 >= 1
        return False, 1.0, 0.0, norm
    a = np.sqrt(xx)
    if norm <= 0.0:
        return True, 0.0, y / xx, 1.0 / a
    q = a * norm
    cos = signed_margin / q
    if cos >= q:  # y w.x >= ||x||^2 ||w||^2: y x / ||x||^2 meets the old constraint
        return True, 0.0, y / xx, 1.0 / a
    g = (1.0 - abs(cos)) * (1.0 + abs(cos))
    if g <= PARALLEL:
        return False, 1.0, 0.0, norm
    loss = 1.0 - signed_margin
    c = (q - cos) / (q * g)
    d = y * loss / (xx * g)
    return True, c, d, np.hypot(norm, loss / (a * np.sqrt(g)))


@rule
def _romma_primal_step(X, y, i, t, u, arrays, state):
    """ROMMA on trial t over row i of dense or CSR X, with w = scale * v.

    ``arrays`` is (v,), ``state`` (aggressive, ||w||, scale): an update
    multiplies the scale by c and adds d x_i / scale to v, one pass over x_i.
    Its sums run in four lanes in column order for both kinds
    (:func:`row_dot_lanes`): its scores reach |w.x| << ||w|| ||x||, where a
    vectorised dense sum and a CSR sum differed by 2e-9 relative, and in that
    order a row and its CSR form give the same bits.
    """
    (v,) = arrays
    aggressive, norm, scale = state
    s = row_dot_lanes(X, i, v, False) * scale
    yi = y[i]
    case = romma_case(yi * s, aggressive)
    if case == NO_UPDATE:
        return s, case, state
    changed, c, d, norm = romma_step(yi * s, yi, row_dot_lanes(X, i, v, True), norm)
    if changed:
        scale = rescaled(scale, c, v, v.shape[0])
        row_axpy(X, i, d / scale, v)
    return s, case, (aggressive, norm, scale)


_romma_primal_loop = online_loop(_romma_primal_step)


@rule(returns_arrays=True)
def _romma_dual_step(src, y, i, t, u, arrays, state):
    """Kernel ROMMA on trial t: w = scale * sum_{j<k} coef[j] K(s_j, .); every change appends x_t.

    ``state`` is (aggressive, engine state, coef, kernel-row buffer, k, ||w||, scale);
    kernel values come from the kernel-row engine (``src``); ||w|| is kept with
    K(x_t, x_t) alone.
    """
    aggressive, st, coef, row, k, norm, scale = state
    st = engine_row(src, st, t, k, row)
    s = dot(coef, row, k) * scale
    yi = y[i]
    case = romma_case(yi * s, aggressive)
    if case == NO_UPDATE:
        return s, case, (aggressive, st, coef, row, k, norm, scale)
    changed, c, d, norm = romma_step(yi * s, yi, engine_diag(src, i), norm)
    if changed:
        scale = rescaled(scale, c, coef, k)
        st = engine_append(src, st, t, k)
        coef = grow_vector(coef, k)
        row = grow_vector(row, k)
        coef[k] = d / scale
        k += 1
    return s, case, (aggressive, st, coef, row, k, norm, scale)


_romma_dual_loop = online_loop(_romma_dual_step)


def _resolve(params: dict, data) -> dict:
    aggressive = check_bool("aggressive", params["aggressive"])
    return {**resolve_kernel_form(params, data), "aggressive": aggressive}


def _fit(data, order, params, margins, previous) -> LoopResult:
    aggressive = params["aggressive"]
    norm = 0.0 if previous is None else previous.state["norm"]
    if params["form"] == "primal":
        v, scale = scaled_start(previous, data.n_features)
        updates, cases, (_, norm, scale), _ = _romma_primal_loop(
            rows(data.X), data.y, order, (v,), (aggressive, norm, scale), margins)
        hypothesis = LinearHypothesis(v * scale)
        state = {"norm": norm, **scaled_state(v, scale)}
    else:
        kernel = kernel_of(params)
        src, st, k = kernel_engine(data.X, order, kernel, support_set(previous))
        coef = dual_buffer(previous)
        updates, cases, (_, st, coef, _, k, norm, scale), _ = _romma_dual_loop(
            src, data.y, engine_order(src), (),
            (aggressive, st, coef, np.empty(coef.shape[0]), k, norm, 1.0), margins)
        hypothesis = KernelHypothesis(engine_supports(st, k), coef[:k] * scale, kernel)
        state = {"norm": norm}
    return LoopResult(
        updates[cases == MISTAKE],
        hypothesis,
        margin_error_trials=updates[cases == MARGIN_ERROR],
        state=state,
    )


ROMMA = register(
    Algorithm(
        name="romma",
        estimator="ROMMA",
        defaults={**KERNEL_DEFAULTS, "form": "auto", "aggressive": False},
        resolve=_resolve,
        fit=_fit,
        summary="Li & Long's Relaxed Online Maximum Margin Algorithm (aggressive: y w.x < 1)",
        bounds=("romma",),
    )
)
attach(ROMMA.name, "presentation",
       display_name="ROMMA",
       label_params=("aggressive",),
       # aggressive ROMMA updates on a right prediction of margin below 1 (theory §2.8)
       margin_error=(r"right sign, $y\,w \cdot x < 1$ (aggressive)", ""))
