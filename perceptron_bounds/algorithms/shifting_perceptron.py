"""The shifting Perceptron of Cavallanti, Cesa-Bianchi & Gentile (theory §2.15), primal and kernel.

From w_1 = 0, on a mistake (y_t w.x_t <= 0, theory §1.1) after k earlier
updates,

    w <- (1 - lambda_k) w + y_t x_t,   lambda_k = lambda / (lambda + k),

so the old weights are multiplied by c = k / (lambda + k) (0 at the first
update) before x_t is added: the Perceptron that forgets on purpose, the
more the larger the decay lambda (``decay``). The kernel form multiplies every
dual coefficient by c and appends y_t. The primal rule (dense or CSR rows)
and the kernel rule keep w as one scale factor times a vector (the
coefficients), so that an update costs one pass over x_t
(:func:`~perceptron_bounds.algorithms._cases.rescaled` folds the scale in
when it leaves [1e-100, 1e100], as at the first update, c = 0).

Registered as ``"shifting_perceptron"`` with ``decay`` (lambda > 0, default
1.0), the kernel parameters ``kernel``, ``degree``, ``gamma``, ``coef0``
(theory §1.7) and ``form``. ``OnlineRun.state["updates"]`` is k, the number
of updates made (a warm start continues the schedule lambda_k from it); the
primal form's ``state["v"]`` and ``state["scale"]`` are the loop's w = scale * v,
which a warm start continues (a chain of warm starts is then one run, bit for bit).

The paper could not be read here (its abstract only); the rule follows
Cognitive Foundry's ``OnlineShiftingPerceptron.java`` (BSD, read to
cross-check), which cites the paper, and the issue's statement of it. Its
shifting bound is proved on the theory page (§4.15).

References
----------
G. Cavallanti, N. Cesa-Bianchi and C. Gentile, "Tracking the best hyperplane
with a simple budget Perceptron", Machine Learning 69 (2007) 143-167.

Examples
--------
>>> import numpy as np
>>> from perceptron_bounds import run_online
>>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.5]])
>>> run = run_online("shifting_perceptron", X, [1, -1, 1], decay=1.0)
>>> run.mistake_trials.tolist()  # w: (1, 0), then (1/2) (1, 0) - (0, 1), then (2/3) w + x_3
[0, 1, 2]
>>> run.weights.round(4).tolist(), run.state["updates"]
([-0.6667, -0.1667], 3)
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, rule
from .._linalg import dot, grow_vector, row_axpy, row_dot, rows
from .._validation import check_real
from ..hypothesis import KernelHypothesis, LinearHypothesis
from ..kernel_engine import engine_append, engine_order, engine_row, engine_supports, kernel_engine
from ..kernels import KERNEL_DEFAULTS, kernel_of
from ..registry import Algorithm, LoopResult, attach, register
from ._cases import MISTAKE, NO_UPDATE, rescaled
from ._common import dual_buffer, resolve_kernel_form, scaled_start, scaled_state, support_set
from ._frame import online_loop


@jit
def decay_factor(decay, k):
    """c = 1 - lambda_k = k / (lambda + k), the factor of the old weights after k updates."""
    return k / (decay + k)


@rule
def _shifting_step(X, y, i, t, u, arrays, state):
    """The shifting Perceptron on trial t (row i of dense or CSR X), w = scale * v.

    ``arrays`` is (v,), ``state`` (lambda, k, scale): a mistake multiplies the
    scale by c = k / (lambda + k) (:func:`rescaled` folds it into v when it
    leaves range) and adds y_i x_i / scale to v, one pass over x_i.
    """
    (v,) = arrays
    decay, k, scale = state
    s = row_dot(X, i, v) * scale
    if y[i] * s <= 0.0:
        scale = rescaled(scale, decay_factor(decay, k), v, v.shape[0])
        row_axpy(X, i, y[i] / scale, v)
        return s, MISTAKE, (decay, k + 1, scale)
    return s, NO_UPDATE, state


_shifting_primal_loop = online_loop(_shifting_step)


@rule(returns_arrays=True)
def _shifting_dual_step(src, y, i, t, u, arrays, state):
    """Kernel shifting Perceptron: f = scale * sum_{j<k_sup} coef[j] K(s_j, .).

    ``state`` is (lambda, k, engine state, coef, kernel-row buffer, k_sup,
    scale); a mistake multiplies f by c and appends (x_t, y_t). Kernel values
    come from the kernel-row engine (``src``).
    """
    decay, k, st, coef, row, k_sup, scale = state
    st = engine_row(src, st, t, k_sup, row)
    s = dot(coef, row, k_sup) * scale
    if y[i] * s <= 0.0:
        scale = rescaled(scale, decay_factor(decay, k), coef, k_sup)
        st = engine_append(src, st, t, k_sup)
        coef = grow_vector(coef, k_sup)
        row = grow_vector(row, k_sup)
        coef[k_sup] = y[i] / scale
        return s, MISTAKE, (decay, k + 1, st, coef, row, k_sup + 1, scale)
    return s, NO_UPDATE, (decay, k, st, coef, row, k_sup, scale)


_shifting_dual_loop = online_loop(_shifting_dual_step)


def _resolve(params: dict, data) -> dict:
    decay = check_real("decay", params["decay"], low=0.0, include_low=False)
    return {**resolve_kernel_form(params, data), "decay": decay}


def _fit(data, order, params, margins, previous) -> LoopResult:
    decay = params["decay"]
    k = 0 if previous is None else int(previous.state["updates"])
    if params["form"] == "primal":
        v, scale = scaled_start(previous, data.n_features)
        trials, _, (_, k, scale), _ = _shifting_primal_loop(rows(data.X), data.y, order, (v,),
                                                            (decay, k, scale), margins)
        hypothesis = LinearHypothesis(v * scale)
        carried = scaled_state(v, scale)
    else:
        kernel = kernel_of(params)
        src, st, k_sup = kernel_engine(data.X, order, kernel, support_set(previous))
        coef = dual_buffer(previous)
        trials, _, (_, k, st, coef, _, k_sup, scale), _ = _shifting_dual_loop(
            src, data.y, engine_order(src), (),
            (decay, k, st, coef, np.empty(coef.shape[0]), k_sup, 1.0), margins)
        hypothesis = KernelHypothesis(engine_supports(st, k_sup), coef[:k_sup] * scale, kernel)
        carried = {}
    return LoopResult(trials, hypothesis, state={"updates": k, **carried})


SHIFTING_PERCEPTRON = register(
    Algorithm(
        name="shifting_perceptron",
        estimator="ShiftingPerceptron",
        defaults={**KERNEL_DEFAULTS, "form": "auto", "decay": 1.0},
        resolve=_resolve,
        fit=_fit,
        summary="Cavallanti, Cesa-Bianchi & Gentile's shifting Perceptron (weights decay by "
        "lambda/(lambda+k))",
        bounds=("decay_fixed_comparator",),
        tracking=("shifting_perceptron_tracking",),
    )
)
attach(SHIFTING_PERCEPTRON.name, "presentation",
       display_name="Shifting Perceptron",
       label_params=("decay",))
