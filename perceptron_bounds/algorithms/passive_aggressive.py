"""The Passive-Aggressive algorithms PA, PA-I and PA-II (theory §2.7), primal and kernel forms.

Crammer, Dekel, Keshet, Shalev-Shwartz and Singer, JMLR 2006, Fig. 1, with
w_1 = 0 and an aggressiveness parameter C > 0. On trial t, with the score
f_t = w_t . x_t and the loss l_t = max(0, 1 - y_t f_t):

* if l_t = 0 nothing changes (passive);
* else w_{t+1} = w_t + tau_t y_t x_t with

  - PA:    tau_t = l_t / ||x_t||^2,
  - PA-I:  tau_t = min(C, l_t / ||x_t||^2),
  - PA-II: tau_t = l_t / (||x_t||^2 + 1/(2C)).

A trial with an update is a **mistake** when y_t f_t <= 0 (theory §1.1; then
l_t >= 1) and a **margin error** when y_t f_t > 0 (then 0 < l_t < 1); both are
recorded (``mistake_trials``, ``margin_error_trials``), and the bounds' tightened
variants run over these update trials (theory §4.6).

**A zero instance** (x_t = 0, or K(x_t, x_t) = 0 in a kernel's feature space)
has f_t = 0, so l_t = 1 and the trial is a mistake; the update tau_t y_t x_t is
the zero vector whatever tau_t is (PA's l/0 included), so the state does not
change and the kernel form adds no support. PA-I's and PA-II's bounds still
hold (their proofs go through with tau_t = C, resp. 2C, on such a trial); PA's
bounds need a positive norm on the trials they use (theory §4.6).

**Scale.** The primal loops take ||x_t||^2 from the row as they compute the
score (X is validated so that no sum of squares overflows); when it is below
the smallest normal float64 (a row of norm below about 1.5e-154, whose
square underflows, or a zero row) the step is taken as (tau ||x||) (x / ||x||)
with ||x|| = max_j |x_j| times the norm of the rescaled row, so that no
square underflows and no state becomes inf or NaN. The kernel form sees a
row only through K: K(x, x) below the smallest normal float64 (an instance
of norm below about 1.5e-154 with the linear kernel) is a zero instance there.

Registered as ``"passive_aggressive"`` with ``variant`` (``"pa"``, ``"pa1"``,
``"pa2"``; default ``"pa1"``, the rule of scikit-learn's and river's
passive-aggressive classifiers), ``C`` (default 1.0, theirs too; PA ignores it), the
kernel parameters ``kernel``, ``degree``, ``gamma``, ``coef0`` (theory §1.7) and
``form``. ``OnlineRun.state`` holds, one entry per update trial, ``"loss"`` (l_t)
and ``"tau"`` (tau_t; 0 for a zero instance), those of the runs a warm start
continues first. The native multiclass form is in
:mod:`.passive_aggressive_native`, the step sizes in ``passive_aggressive_rules``.

References
----------
K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz and Y. Singer, "Online
Passive-Aggressive Algorithms", JMLR 7 (2006), 551-585, Fig. 1, eqs. (3), (8).

Examples
--------
>>> import numpy as np
>>> from perceptron_bounds import run_online
>>> X = np.array([[2.0, 0.0], [1.0, 1.0], [-2.0, 0.0]])
>>> run = run_online("passive_aggressive", X, [1, 1, -1], variant="pa")
>>> run.mistake_trials.tolist(), run.margin_error_trials.tolist(), run.weights.tolist()
([0], [1], [0.75, 0.25])
>>> run.state["tau"].tolist()
[0.25, 0.25]
"""

from __future__ import annotations

import numpy as np

from .._jit import rule
from .._linalg import (
    dot,
    grow_vector,
    row_axpy,
    row_axpy_over,
    row_dot_norm,
    row_stable_norm,
    rows,
)
from .._validation import check_choice, check_real
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
from ._cases import MARGIN_ERROR, MISTAKE, NO_UPDATE
from ._common import dual_buffer, resolve_kernel_form, support_set
from ._frame import STOP, online_loop
from .passive_aggressive_native import fit_native_passive_aggressive
from .passive_aggressive_rules import (
    NORMAL_LOW,
    VARIANTS,
    case_of,
    check_overflow,
    pa_step,
    pa_step_times_norm,
    update_records,
)


@rule(inline=True)
def _pa_primal_step(X, y, i, t, u, arrays, state):
    """PA on trial t over a dense or CSR row: w updated in place, per update the loss and tau.

    ||x_t||^2 comes from the same read of the row as the score; below the
    smallest normal float64 the step is taken as (tau ||x||) (x / ||x||)
    ("Scale" above).
    """
    w, losses, taus = arrays
    variant, C = state
    s, xx = row_dot_norm(X, i, w)
    if not np.isfinite(s):  # overflowed: stop, the wrapper raises (overflow_error)
        return s, STOP, state
    yi = y[i]
    loss = 1.0 - yi * s
    if loss <= 0.0:
        return s, NO_UPDATE, state
    losses[u] = loss
    if xx >= NORMAL_LOW:
        tau = pa_step(loss, xx, variant, C)
        row_axpy(X, i, yi * tau, w)
    else:
        norm = row_stable_norm(X, i)
        tau = 0.0
        if norm > 0.0:
            tn = pa_step_times_norm(loss, norm, variant, C)
            tau = tn / norm
            row_axpy_over(X, i, yi * tn, norm, w)
    taus[u] = tau
    return s, case_of(yi * s), state


_pa_primal_loop = online_loop(_pa_primal_step)


@rule(returns_arrays=True)
def _pa_dual_step(src, y, i, t, u, arrays, state):
    """Kernel PA on trial t: f = sum_{j<k} coef[j] K(s_j, .); an update appends x_t with
    y_t tau_t.

    Kernel values come from the kernel-row engine (``src``); a trial with
    K(x_t, x_t) below the smallest normal float64 is a zero instance (no support).
    """
    losses, taus = arrays
    variant, C, st, coef, row, k = state
    st = engine_row(src, st, t, k, row)
    s = dot(coef, row, k)
    if not np.isfinite(s):  # overflowed: stop, the wrapper raises (overflow_error)
        return s, STOP, (variant, C, st, coef, row, k)
    yi = y[i]
    loss = 1.0 - yi * s
    if loss <= 0.0:
        return s, NO_UPDATE, (variant, C, st, coef, row, k)
    losses[u] = loss
    xx = engine_diag(src, i)
    tau = 0.0
    if xx >= NORMAL_LOW:
        tau = pa_step(loss, xx, variant, C)
        st = engine_append(src, st, t, k)
        coef = grow_vector(coef, k)
        row = grow_vector(row, k)
        coef[k] = yi * tau
        k += 1
    taus[u] = tau
    return s, case_of(yi * s), (variant, C, st, coef, row, k)


_pa_dual_loop = online_loop(_pa_dual_step)


def variant_code(params: dict) -> int:
    """The loops' code of the resolved ``params["variant"]``."""
    return VARIANTS.index(params["variant"])


def _resolve(params: dict, data) -> dict:
    variant = check_choice("variant", params["variant"], VARIANTS)
    C = check_real("C", params["C"], low=0.0, include_low=False)
    return {**resolve_kernel_form(params, data), "variant": variant, "C": C}


def _fit(data, order, params, margins, previous) -> LoopResult:
    variant, C = variant_code(params), params["C"]
    losses, taus = np.empty(order.shape[0]), np.empty(order.shape[0])
    if params["form"] == "primal":
        w = np.zeros(data.n_features) if previous is None else np.array(previous.weights)
        updates, cases, _, stop = _pa_primal_loop(rows(data.X), data.y, order,
                                                  (w, losses, taus), (variant, C), margins)
        hypothesis = LinearHypothesis(w)
    else:
        kernel = kernel_of(params)
        src, st, k = kernel_engine(data.X, order, kernel, support_set(previous))
        coef = dual_buffer(previous)
        updates, cases, (_, _, st, coef, _, k), stop = _pa_dual_loop(
            src, data.y, engine_order(src), (losses, taus),
            (variant, C, st, coef, np.empty(coef.shape[0]), k), margins)
        hypothesis = KernelHypothesis(engine_supports(st, k), coef[:k].copy(), kernel)
    check_overflow(stop)
    return LoopResult(
        updates[cases == MISTAKE],
        hypothesis,
        margin_error_trials=updates[cases == MARGIN_ERROR],
        state=update_records(previous, losses[:updates.shape[0]].copy(),
                             taus[:updates.shape[0]]),
    )


_DISPLAY = {"pa": "PA", "pa1": "PA-I", "pa2": "PA-II"}

PASSIVE_AGGRESSIVE = register(
    Algorithm(
        name="passive_aggressive",
        estimator="PassiveAggressive",
        defaults={**KERNEL_DEFAULTS, "form": "auto", "variant": "pa1", "C": 1.0},
        resolve=_resolve,
        fit=_fit,
        fit_native=fit_native_passive_aggressive,
        summary="Passive-Aggressive PA, PA-I, PA-II (Crammer et al. 2006), primal or kernel form",
        # each bound's applies() keeps those of the run's variant (theory §4.6)
        bounds=("pa_separable", "pa_general", "pa1_mistakes", "pa2_mistakes"),
        native_bounds=("pa_separable", "pa_general", "pa1_mistakes", "pa2_mistakes"),
    )
)
attach(PASSIVE_AGGRESSIVE.name, "presentation",
       display_name="Passive-Aggressive",
       label_params=lambda params: ("variant",) if params["variant"] == "pa" else (
           "variant", "C"),
       legend=lambda params: (
           f"Passive-Aggressive {_DISPLAY[params['variant']]}"
           + ("" if params["variant"] == "pa" else f", C = {params['C']:g}")),
       # an update on a correct prediction with loss 0 < l < 1: binary (theory §2.7),
       # native (the multiclass loss, theory §2.7)
       margin_error=(r"right sign, $y\,w \cdot x < 1$",
                     r"right class, $w^y \cdot x - w^{\tilde y} \cdot x < 1$"))
# the atlas runs PA and PA-II beside PA-I (Thms 2-5 of [CDK06], theory §4.6)
attach(PASSIVE_AGGRESSIVE.name, "atlas", variants=(dict(variant="pa"), dict(variant="pa2")))
