"""The Perceptron projected onto a ball of radius D (theory §2.16), primal and kernel.

From w_1 = 0, on a mistake (y_t w.x_t <= 0, theory §1.1)

    w <- P_D(w + y_t x_t),   P_D(v) = v min(1, D / ||v||),

the Euclidean projection onto the ball ||v|| <= D, after the projection idea
of Herbster & Warmuth: the weights never grow past D, so the run cannot
drift far from a moving target. With D at least sqrt(m) R no projection
happens and it is the Perceptron.

The primal rule (dense or CSR rows) and the kernel rule keep ||w||^2 from
the score, ``||w + y x||^2 = ||w||^2 + 2 y s + ||x||^2``
(one K(x_t, x_t) per update in the kernel form), set it to D^2 after a
projection, and hold w as one scale factor times a vector (the coefficients),
so that an update costs one pass over x_t.

Registered as ``"projected_perceptron"`` with ``radius`` (D > 0, default
10.0), the kernel parameters ``kernel``, ``degree``, ``gamma``, ``coef0``
(theory §1.7) and ``form``. ``OnlineRun.state["norm_sq"]`` is the final
||w||^2 and ``OnlineRun.state["projected"]`` the number of updates the
projection shortened; the primal form's ``state["v"]`` and ``state["scale"]`` are
the loop's w = scale * v, which a warm start continues (a chain of warm starts is
then one run, bit for bit).

Herbster and Warmuth's paper could not be read here (its abstract only); the
rule is the issue's, and the shifting bound is proved on the theory page
(§4.15) by the potential argument the abstract names.

References
----------
M. Herbster and M. K. Warmuth, "Tracking the best linear predictor", JMLR 1
(2001) 281-309.

Examples
--------
>>> import numpy as np
>>> from perceptron_bounds import run_online
>>> X = np.array([[3.0, 0.0], [0.0, -4.0]])
>>> run = run_online("projected_perceptron", X, [1, -1], radius=2.0)
>>> run.weights.round(4).tolist(), run.state["projected"]  # (3, 0) -> (2, 0); (2, 4) -> 2/||.||
([0.8944, 1.7889], 2)
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, rule
from .._linalg import dot, grow_vector, row_axpy_norm, row_dot, rows
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
from ._cases import MISTAKE, NO_UPDATE, rescaled
from ._common import dual_buffer, resolve_kernel_form, scaled_start, scaled_state, support_set
from ._frame import online_loop


@jit
def projection_factor(norm_sq, radius):
    """min(1, D / ||v||) for ||v||^2 = ``norm_sq``."""
    if norm_sq <= radius * radius:
        return 1.0
    return radius / np.sqrt(norm_sq)


@rule
def _projected_step(X, y, i, t, u, arrays, state):
    """The projected Perceptron on trial t (row i of dense or CSR X), w = scale * v.

    ``arrays`` is (v,), ``state`` (D, ||w||^2, scale, projections): a mistake
    adds y_i x_i / scale to v, takes ||w + y x||^2 = ||w||^2 + 2 y s + ||x||^2
    and, past D^2, multiplies the scale by D / ||w + y x||.
    """
    (v,) = arrays
    radius, norm_sq, scale, projected = state
    s = row_dot(X, i, v) * scale
    if y[i] * s <= 0.0:
        xx = row_axpy_norm(X, i, y[i] / scale, v)
        norm_sq = max(norm_sq + 2.0 * y[i] * s + xx, 0.0)
        a = projection_factor(norm_sq, radius)
        if a < 1.0:
            scale = rescaled(scale, a, v, v.shape[0])
            norm_sq = radius * radius
            projected += 1
        return s, MISTAKE, (radius, norm_sq, scale, projected)
    return s, NO_UPDATE, state


_projected_primal_loop = online_loop(_projected_step)


@rule(returns_arrays=True)
def _projected_dual_step(src, y, i, t, u, arrays, state):
    """Kernel projected Perceptron: f = scale * sum_{j<k} coef[j] K(s_j, .).

    ``state`` is (D, ||f||^2, engine state, coef, kernel-row buffer, k, scale,
    projections); a mistake appends (x_t, y_t) and shrinks f onto the ball,
    ||f||^2 kept with K(x_t, x_t) alone. Kernel values come from the
    kernel-row engine (``src``).
    """
    radius, norm_sq, st, coef, row, k, scale, projected = state
    st = engine_row(src, st, t, k, row)
    s = dot(coef, row, k) * scale
    if y[i] * s <= 0.0:
        norm_sq = max(norm_sq + 2.0 * y[i] * s + engine_diag(src, i), 0.0)
        st = engine_append(src, st, t, k)
        coef = grow_vector(coef, k)
        row = grow_vector(row, k)
        coef[k] = y[i] / scale
        k += 1
        a = projection_factor(norm_sq, radius)
        if a < 1.0:
            scale = rescaled(scale, a, coef, k)
            norm_sq = radius * radius
            projected += 1
        return s, MISTAKE, (radius, norm_sq, st, coef, row, k, scale, projected)
    return s, NO_UPDATE, (radius, norm_sq, st, coef, row, k, scale, projected)


_projected_dual_loop = online_loop(_projected_dual_step)


def _resolve(params: dict, data) -> dict:
    radius = check_real("radius", params["radius"], low=0.0, include_low=False)
    if not np.isfinite(radius):
        raise ValueError(f"radius must be finite, got {radius}")
    return {**resolve_kernel_form(params, data), "radius": radius}


def _fit(data, order, params, margins, previous) -> LoopResult:
    radius = params["radius"]
    norm_sq = 0.0 if previous is None else previous.state["norm_sq"]
    if params["form"] == "primal":
        v, scale = scaled_start(previous, data.n_features)
        trials, _, (_, norm_sq, scale, projected), _ = _projected_primal_loop(
            rows(data.X), data.y, order, (v,), (radius, norm_sq, scale, 0), margins)
        hypothesis = LinearHypothesis(v * scale)
        carried = scaled_state(v, scale)
    else:
        kernel = kernel_of(params)
        src, st, k = kernel_engine(data.X, order, kernel, support_set(previous))
        coef = dual_buffer(previous)
        trials, _, (_, norm_sq, st, coef, _, k, scale, projected), _ = _projected_dual_loop(
            src, data.y, engine_order(src), (),
            (radius, norm_sq, st, coef, np.empty(coef.shape[0]), k, 1.0, 0), margins)
        hypothesis = KernelHypothesis(engine_supports(st, k), coef[:k] * scale, kernel)
        carried = {}
    if previous is not None:
        projected += previous.state["projected"]
    return LoopResult(trials, hypothesis,
                      state={"norm_sq": norm_sq, "projected": projected, **carried})


PROJECTED_PERCEPTRON = register(
    Algorithm(
        name="projected_perceptron",
        estimator="ProjectedPerceptron",
        defaults={**KERNEL_DEFAULTS, "form": "auto", "radius": 10.0},
        resolve=_resolve,
        fit=_fit,
        summary="the Perceptron projected onto the ball ||w|| <= radius after each update "
        "(Herbster & Warmuth's projection)",
        bounds=("ball_fixed_comparator",),
        tracking=("projected_perceptron_tracking",),
    )
)
attach(PROJECTED_PERCEPTRON.name, "presentation",
       display_name="Projected Perceptron",
       label_params=("radius",))
