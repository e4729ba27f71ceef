"""ALMA_p, Gentile's Approximate Large Margin Algorithm (theory §2.9), primal and kernel forms.

Instances are normalised, x_hat_t = x_t / ||x_t||_p (a zero row stays zero);
the algorithm keeps theta in the dual space and predicts with
w = g(theta), the p-norm link of the p-norm Perceptron
(``pnorm.link``, theory §2.5), so ||w||_q = ||theta||_p
with q = p / (p - 1). With k = 1 + the number of updates so far,

    gamma_k = B sqrt(p - 1) / sqrt(k),    eta_k = C / (sqrt(p - 1) sqrt(k)),

a trial with y_t w . x_hat_t <= (1 - alpha) gamma_k is an update:
theta <- theta + eta_k y_t x_hat_t, then theta <- theta / max(1, ||theta||_p)
(the projection of w onto the unit q-norm ball). An update with
y_t w . x_hat_t > 0 is a margin error, the others are mistakes; ``alpha = 1``
updates on mistakes only.

The paper (Gentile, JMLR 2001) could not be read here: the rule follows the
LIBOL manual's ALMA box (Algorithm 3: the schedules, the projection, the
defaults alpha = 0.9, B = 1/alpha, C = sqrt(2)) and DOGMA's
``k_alma2_train.m`` (the non-strict test <=, k counting updates from 1, the
kernel form with ||w||^2 kept incrementally and a global rescaling). LIBOL
updates only when the loss is > 0 (strict), which with alpha = 1 would never
leave w = 0; we follow DOGMA (theory §2.9).

Registered as ``"alma"`` with ``p >= 2`` (default 2), ``alpha`` in (0, 1]
(default 0.9), ``B > 0`` (default None: 1/alpha), ``C > 0`` (default
sqrt(2)), the kernel parameters ``kernel``, ``degree``, ``gamma``,
``coef0`` (theory §1.7) and ``form``. The primal form runs every p on dense
and CSR rows; the dual (kernel) form exists for p = 2, with instances
normalised in feature space, x_hat = phi(x) / sqrt(K(x, x)).
``run.state`` records ``updates_total`` (k - 1 at the end), and ``theta``
(primal) or ``norm_sq`` = ||w||^2 (dual); the primal form for p = 2 also
``norm_sq`` as its loop kept it and its w = theta = ``scale`` * ``v``. A warm
start continues these as the loop keeps them (and, for p > 2, the projected w),
so that a chain of warm starts is one run, bit for bit.

References
----------
C. Gentile, "A new approximate maximal margin classification algorithm",
JMLR 2 (2001) (not read here). S. C. H. Hoi, J. Wang and P. Zhao, LIBOL
manual, sec. 2.1.2. F. Orabona, DOGMA, ``k_alma2_train.m``.

Examples
--------
>>> import numpy as np
>>> from perceptron_bounds import run_online
>>> X = np.array([[1.0, 0.0], [0.8, 0.6], [-1.0, 0.0], [0.0, -1.0]])
>>> run = run_online("alma", X, [1, 1, -1, -1], alpha=0.2, epochs=2)
>>> run.mistakes, run.margin_errors, run.state["updates_total"]
(1, 7, 8)
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, rule
from .._linalg import (
    dot,
    grow_vector,
    lift_tiny_rows,
    normalize_rows,
    row_axpy,
    row_axpy_norm,
    row_dot,
    rows,
)
from .._validation import check_real
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
from ._cases import MARGIN_ERROR, MISTAKE, NO_UPDATE, scale_in_range
from ._common import dual_buffer, resolve_kernel_form, scaled_start, scaled_state, support_set
from ._frame import online_loop
from .pnorm import HigherOrderHypothesis, HigherOrderKernelHypothesis, link_into


@jit
def alma_case(ys):
    """MISTAKE for y_t w . x_t <= 0, else MARGIN_ERROR (an update within the margin)."""
    return MISTAKE if ys <= 0.0 else MARGIN_ERROR


@rule
def _alma_primal_step(X, y, i, t, u, arrays, state):
    """ALMA_p, p > 2, on trial t over a normalised dense or CSR row; theta and w = g(theta)
    updated in place (an update costs O(n): the link changes every coordinate of w).

    ``state`` is (p, sqrt(p - 1), (1 - alpha) B, C, k0, sqrt(k), (1 - alpha) gamma_k), k =
    1 + the updates so far, ``k0`` of them made before the run.
    """
    theta, w = arrays
    p, root, margin, C, k0, sqrt_k, threshold = state
    s = row_dot(X, i, w)
    ys = y[i] * s
    if ys > threshold:
        return s, NO_UPDATE, state
    step_root, sqrt_k = sqrt_k, np.sqrt(k0 + u + 2.0)
    row_axpy(X, i, y[i] * C / (root * step_root), theta)
    link_into(theta, p, w)
    norm = np.sqrt(dot(w, theta, theta.shape[0]))  # g(theta) . theta = ||theta||_p^2
    if norm > 1.0:
        for j in range(theta.shape[0]):
            theta[j] /= norm
            w[j] /= norm
    return s, alma_case(ys), (p, root, margin, C, k0, sqrt_k, margin * root / sqrt_k)


_alma_primal_loop = online_loop(_alma_primal_step)


@rule
def _alma2_primal_step(X, y, i, t, u, arrays, state):
    """ALMA_2 on trial t over a normalised dense or CSR row, w = theta = scale * v.

    ||w||^2 is kept as ||w + eta y x||^2 = ||w||^2 + 2 eta y w.x + eta^2 ||x||^2 and the
    projection divides ``scale``, so that an update costs one pass over x_t (O(nnz) on CSR).
    ``state`` is ((1 - alpha) B, C, k0, sqrt(k), (1 - alpha) gamma_k, ||w||^2, scale); the
    wrapper ends with v = w.
    """
    (v,) = arrays
    margin, C, k0, sqrt_k, threshold, norm_sq, scale = state
    s = scale * row_dot(X, i, v)
    ys = y[i] * s
    if ys > threshold:
        return s, NO_UPDATE, state
    step_root, sqrt_k = sqrt_k, np.sqrt(k0 + u + 2.0)
    eta = C / step_root
    xx = row_axpy_norm(X, i, y[i] * eta / scale, v)
    norm_sq = max(norm_sq + 2.0 * eta * ys + eta * eta * xx, 0.0)
    if norm_sq > 1.0:
        scale /= np.sqrt(norm_sq)
        norm_sq = 1.0
    if not scale_in_range(scale):  # fold the scale into v
        for j in range(v.shape[0]):
            v[j] *= scale
        scale = 1.0
    return s, alma_case(ys), (margin, C, k0, sqrt_k, margin / sqrt_k, norm_sq, scale)


_alma2_primal_loop = online_loop(_alma2_primal_step)


@rule(returns_arrays=True)
def _alma_dual_step(src, y, i, t, u, arrays, state):
    """ALMA_2 with a kernel on trial t: w = scale * sum_{j<k} coef[j] phi(s_j); every update
    appends x_t.

    The instance is phi(x_t) / sqrt(K(x_t, x_t)) (0 when K(x_t, x_t) = 0), so
    its coefficient is y eta_k / (scale sqrt(K(x_t, x_t))); ||w||^2 is kept as
    ||w + eta y x_hat||^2 = ||w||^2 + 2 eta y w.x_hat + eta^2 ||x_hat||^2 and the
    projection divides ``scale``. ``state`` is ((1 - alpha) B, C, k0, sqrt(k),
    (1 - alpha) gamma_k, ||w||^2, scale, engine state, coef, kernel-row buffer, k).
    """
    margin, C, k0, sqrt_k, threshold, norm_sq, scale, st, coef, row, k = state
    st = engine_row(src, st, t, k, row)
    kii = engine_diag(src, i)
    norm_x = np.sqrt(kii) if kii > 0.0 else 0.0
    s = dot(coef, row, k) * scale / norm_x if norm_x > 0.0 else 0.0
    ys = y[i] * s
    if ys > threshold:
        return s, NO_UPDATE, (margin, C, k0, sqrt_k, threshold, norm_sq, scale, st, coef, row, k)
    step_root, sqrt_k = sqrt_k, np.sqrt(k0 + u + 2.0)
    eta = C / step_root
    st = engine_append(src, st, t, k)
    coef = grow_vector(coef, k)
    row = grow_vector(row, k)
    if norm_x > 0.0:
        norm_sq = max(norm_sq + 2.0 * eta * ys + eta * eta, 0.0)
        coef[k] = y[i] * eta / (norm_x * scale)
    else:
        coef[k] = 0.0
    k += 1
    if norm_sq > 1.0:
        scale /= np.sqrt(norm_sq)
        norm_sq = 1.0
    if not scale_in_range(scale):  # fold the scale into the coefficients
        for j in range(k):
            coef[j] *= scale
        scale = 1.0
    return s, alma_case(ys), (margin, C, k0, sqrt_k, margin / sqrt_k, norm_sq, scale, st, coef,
                              row, k)


_alma_dual_loop = online_loop(_alma_dual_step)


def _resolve(params: dict, data) -> dict:
    p = check_real("p", params["p"], low=2.0)
    alpha = check_real("alpha", params["alpha"], low=0.0, high=1.0, include_low=False)
    B = 1.0 / alpha if params["B"] is None else check_real("B", params["B"], low=0.0,
                                                              include_low=False)
    C = check_real("C", params["C"], low=0.0, include_low=False)
    resolved = resolve_kernel_form(params, data)
    if resolved["form"] == "dual" and p != 2.0:
        raise ValueError(f"the dual (kernel) form of ALMA needs p=2, got p={p!r} with "
                         f"kernel={resolved['kernel']!r}, form='dual'")
    return {**resolved, "p": p, "alpha": alpha, "B": B, "C": C}


def _instances(X, params):
    """The rows as ALMA_p sees them: unit p-norm (linear kernel); a kernel's feature-space
    normalisation is applied inside the dual loop and by the bounds' provider."""
    return normalize_rows(X, params["p"]) if params["kernel"] == "linear" else X


def _fit(data, order, params, margins, previous) -> LoopResult:
    p, alpha, B, C = params["p"], params["alpha"], params["B"], params["C"]
    k0 = 0 if previous is None else int(previous.state["updates_total"])
    if params["form"] == "primal":
        X = rows(normalize_rows(data.X, p))
        margin, sqrt_k = (1.0 - alpha) * B, np.sqrt(k0 + 1.0)
        if p == 2.0:
            v, scale = scaled_start(previous, data.n_features)
            # the ||w||^2 the loop kept (its recurrence), not w @ w: a warm start continues it
            norm_sq = (0.0 if previous is None else
                       previous.state.get("norm_sq", float(previous.weights @ previous.weights)))
            updates, cases, (*_, norm_sq, scale), _ = _alma2_primal_loop(
                X, data.y, order, (v,),
                (margin, C, k0, sqrt_k, margin / sqrt_k, norm_sq, scale), margins)
            w = v * scale
            state = {"theta": w.copy(), "norm_sq": norm_sq, **scaled_state(v, scale)}
        else:
            theta, w = np.zeros(data.n_features), np.zeros(data.n_features)
            if previous is not None:  # w as the loop left it (projected), not g(theta) again
                theta, w = np.array(previous.state["theta"]), np.array(previous.weights)
            root = np.sqrt(p - 1.0)
            updates, cases, _, _ = _alma_primal_loop(
                X, data.y, order, (theta, w),
                (p, root, margin, C, k0, sqrt_k, margin * root / sqrt_k), margins)
            state = {"theta": theta}
        hypothesis = HigherOrderHypothesis(w, p, True)
    else:
        kernel = kernel_of(params)
        X = lift_tiny_rows(data.X) if kernel.is_linear else data.X
        diag = kernel.diagonal(X)
        if np.any(diag < 0):
            raise ValueError("ALMA normalises instances in feature space and needs "
                             f"K(x, x) >= 0 for every row; this kernel gives "
                             f"K(x, x) = {float(diag.min())!r}")
        src, st, k = kernel_engine(X, order, kernel, support_set(previous))
        norm_sq = 0.0 if previous is None else previous.state["norm_sq"]
        margin, sqrt_k, coef = (1.0 - alpha) * B, np.sqrt(k0 + 1.0), dual_buffer(previous)
        updates, cases, (*_, norm_sq, scale, st, coef, _, k), _ = _alma_dual_loop(
            src, data.y, engine_order(src), (),
            (margin, C, k0, sqrt_k, margin / sqrt_k, norm_sq, 1.0, st, coef,
             np.empty(coef.shape[0]), k), margins)
        hypothesis = HigherOrderKernelHypothesis(engine_supports(st, k), coef[:k] * scale,
                                                 kernel, True)
        state = {"norm_sq": norm_sq}
    state["updates_total"] = k0 + updates.shape[0]
    return LoopResult(updates[cases == MISTAKE], hypothesis,
                      margin_error_trials=updates[cases == MARGIN_ERROR], state=state)


ALMA = register(
    Algorithm(
        name="alma",
        estimator="ALMA",
        defaults={"p": 2.0, "alpha": 0.9, "B": None, "C": 2.0**0.5,
                  **KERNEL_DEFAULTS, "form": "auto"},
        resolve=_resolve,
        fit=_fit,
        summary="Gentile's ALMA_p (approximate large margin, p-norm link, unit-ball projection)",
        bounds=("alma_separable", "alma_d2"),
        instance_map=_instances,
    )
)
attach(ALMA.name, "presentation",
       display_name="ALMA",
       label_params=("p", "alpha"),
       # an update with the right sign: y w.x_hat within (1 - alpha) gamma_k (theory §2.9)
       margin_error=(r"right sign, $y\,w \cdot \hat x \leq (1 - \alpha)\gamma_k$",
                     r"right sign, $y\,w \cdot \hat x \leq (1 - \alpha)\gamma_k$"))
# p > 2 has no dual form (theory §2.9): linear only
attach(ALMA.name, "atlas", variants=(dict(p=3.0, kernels=("linear",)),))
