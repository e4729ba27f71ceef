"""The Higher-Order Perceptron HO_p(c) (theory §2.5).

Brotto, Gentile and Vitale's algorithm (paper 000, Figure 1 and sec. 2): with
instances normalised to ||x_t||_p = 1, B_0 = I, v_0 = 0 and the dual-norm link
g(theta) = grad ||theta||_p^2 / 2, i.e.
g_i(theta) = sign(theta_i) |theta_i|^(p-1) / ||theta||_p^(p-2), ::

    margin_t = g(B_{k-1} v_{k-1}) . B_{k-1} x_t
    on a mistake (y_t margin_t <= 0):
        v_k = v_{k-1} + y_t x_t,   B_k = B_{k-1} (I - rho_k x_t g(x_t)^T)

with rho_k = c / k (k counts mistakes from 1) or a user schedule. The sparse
variant sets rho_k = 0 when y_t v_{k-1} . x_t < 0 (B not updated, k still
counts the mistake). c = 0 is the p-norm Perceptron
(:mod:`perceptron_bounds.algorithms.pnorm`), and HO_2(0) the
Perceptron.

Three forms compute the same margins (paper 000 sec. 2, items 1-3):

* ``primal`` (p = 2): A_k = B_k^T B_k updated in O(n^2) per mistake (O(n nnz(x))
  when rho_k = 0), and w = A v kept so that a correct trial is one dot product;
* ``dual`` (p = 2, any Mercer kernel): the D_k, H_k, g_k recursion, margin
  g_{k-1}^T X_{k-1}^T x (k kernel values per trial, from the kernel-row engine
  of :mod:`perceptron_bounds.kernel_engine`: a block of trials at a time by
  BLAS, cached per row of X across epochs; dense or CSR X), O(a^2 + k) per
  mistake where a counts the mistakes with rho > 0;
* ``implicit`` (any p): B stored as its factors (x_i, g(x_i), rho_i);
  w = B^T g(B v) is recomputed once per mistake in O(n a), so a correct trial
  is one dot product.

The update rule of each form is in
:mod:`perceptron_bounds.algorithms.higher_order_rules`, written once for dense
and CSR rows; this module holds the parameters, the fits and the registration.

Parameters of ``run_online("higher_order", ...)``: ``c`` in [0, 1) (default
0.4); ``rho`` None (the schedule c/k) or an array of values in [0, 1), one per
possible mistake (at least earlier mistakes + trials of the run); ``p >= 2``
(default 2); ``sparse`` (default False); ``form`` "primal" | "dual" |
"implicit" | "auto" (auto: dual for a non-linear kernel, primal for p = 2,
not sparse, at most ``PRIMAL_MAX_FEATURES`` features and its n x n matrix
within ``memory_budget`` bytes (default 2 GiB; an explicit primal form over it
is a ValueError before anything is allocated), dual for p = 2 and CSR X of
n_samples x n_features float64 over ``memory_budget`` (the implicit form keeps
one dense n_features-vector per matrix update, up to one per trial, where the
dual form keeps its supports sparse), implicit otherwise);
``normalize`` (default True: rows scaled to unit p-norm, or to unit norm in
the kernel's feature space, K(x, z) / sqrt(K(x, x) K(z, z)); a zero row stays
zero; False uses the data as given); ``kernel``, ``degree``, ``gamma``,
``coef0`` as in :mod:`perceptron_bounds.kernels` (a non-linear
kernel needs p = 2 and the dual form). ``run_online("pnorm", ...)``
takes ``p`` and ``normalize`` with the same meaning and defaults, and records
``theta`` (the sum of y_t x_t over mistakes; w = g(theta)) and ``normalized``.

What a run records in ``OnlineRun.state`` (every per-mistake array has one
entry per mistake of this run, in trial order):

``rho``
    rho_k used (0 for a sparse skip).
``y_v_x``
    y_t v_{k-1} . x_t (the sparse variant's test; x_t as the loop used it,
    i.e. normalised when ``normalize=True``).
``r``
    r_k = 1 - rho_k (y_t g(x_t) . v_{k-1} + g(x_t) . x_t), the coefficient of
    the proof of paper 000 Thm 1: B_k v_k = B_{k-1} v_{k-1} + r_k y_t B_{k-1} x_t.
    For p = 2 and unit instances this is 1 - rho_k (1 + y_t v_{k-1} . x_t)
    (theory §4.2).
``matrix_updates``
    Number of mistakes of this run with rho_k > 0 (paper 000 Table 3).
``normalized``
    Whether instances were scaled to unit norm (``params["normalize"]``);
    the form used is ``params["form"]``.
``mistakes_total``
    Mistakes over the whole history (warm starts included): the schedule's k.
``v``, ``A``
    (linear forms) v_k; (primal form) A_k = B_k^T B_k.
``pending``
    (primal form; True, and only in a run without a mistake of its own, when the last
    mistake of its warm start's history changed A) Whether the last mistake changed A
    (rho_k > 0), else told by ``rho[-1] > 0``: the loop takes the next mistake's A x_t
    in the sweep that applies that change (summed in another order than the product
    from x_t's nonzeros or from the factors), and a warm start does the same, with the
    change already applied. With w (``run.weights``, as the loop kept it rather than
    A v) and the records above, a chain of warm starts is one run, bit for bit
    (:mod:`perceptron_bounds.streaming`).
``factors``, ``factor_rho``
    (linear forms) the instances x_i (as used) and rho_i > 0 of every factor of
    the final B, over the whole history.
``support``, ``support_y``, ``support_scale``, ``active``, ``factor_rho``, ``D``, ``h``, ``g``
    (dual form) every mistaken row of X (raw; an ndarray, or CSR for CSR X),
    its label, its feature-space scale 1/sqrt(K(x, x)) (1 without
    normalisation), the supports with rho > 0 and their rho, the compact D
    over them, and the vectors h and g of sec. 2 item 2.

The transformed instances y_t B_{k-1} x_{t(k)} of Theorem 1 are not stored
(an m x n array, dense even for sparse data):
:func:`perceptron_bounds.bounds.transformed.transformed_instances` rebuilds
them exactly from the record and X, and
:func:`~perceptron_bounds.bounds.transformed.transformed_margins` gives
y_t u . B_{k-1} x_{t(k)} for a comparator u in O((m + a) n).

References
----------
C. Brotto, C. Gentile and F. Vitale, "On Higher-Order Perceptron Algorithms",
NIPS 2007 (paper 000): Figure 1, sec. 2, Theorem 1, sec. 4. C. Gentile,
"The robustness of the p-norm algorithms", Machine Learning 53 (2003), for
the p-norm Perceptron.
"""

from __future__ import annotations

import numpy as np

from .._linalg import (
    lift_tiny_rows,
    normalize_rows,
    rows,
    rows_buffer,
    square_buffer,
    symmetric_sweep,
)
from .._validation import check_bool, check_finite, check_real
from ..kernel_engine import engine_order, engine_supports, kernel_engine
from ..kernels import KERNEL_DEFAULTS, kernel_of
from ..registry import Algorithm, LoopResult, attach, attached, register
from ._common import (
    MEMORY_BUDGET,
    check_form,
    check_memory_budget,
    dense_matrices_fit,
    over_budget,
    resolve_kernel,
)
from .higher_order_rules import dual_loop, implicit_loop, primal_loop
from .pnorm import (
    HO_NOTATION,
    PNORM,
    HigherOrderHypothesis,
    HigherOrderKernelHypothesis,
    link,
)

# form="auto" runs the primal form for p = 2 up to this many features (its A is n x n; a
# mistake costs O(n^2) against the implicit form's O(n a)), unless sparse=True, whose rare
# matrix updates keep a small.
PRIMAL_MAX_FEATURES = 1000


def _rho_sequence(params: dict, k0: int, n_trials: int) -> np.ndarray:
    """rho_k for k = 1 .. k0 + n_trials: c/k, or the user's array (checked to be long enough)."""
    needed = k0 + n_trials
    if params["rho"] is None:
        return params["c"] / np.arange(1.0, needed + 1.0)
    rho = np.asarray(params["rho"], dtype=np.float64)
    if rho.shape[0] < needed:
        raise ValueError(
            f"rho must hold one value per possible mistake: at least {needed} values "
            f"({k0} earlier mistakes + {n_trials} trials), got {rho.shape[0]}"
        )
    return np.ascontiguousarray(rho[:needed])


def _check_rho(rho):
    """None or a 1-D array of values in [0, 1), returned as a tuple of floats."""
    if rho is None:
        return None
    if isinstance(rho, (str, bytes)):
        raise TypeError(f"rho must be None or a 1-D array of numbers, got {rho!r}")
    arr = np.asarray(rho)
    if arr.dtype.kind not in "iuf" or arr.ndim != 1:
        raise TypeError(
            f"rho must be None or a 1-D array of real numbers, got dtype {arr.dtype} "
            f"with shape {arr.shape}"
        )
    arr = arr.astype(np.float64)
    check_finite(arr, "rho")
    bad = np.flatnonzero((arr < 0) | (arr >= 1))
    if bad.size:
        i = bad[0]
        raise ValueError(f"rho values must be in [0, 1), got rho[{i}] = {float(arr[i])!r}")
    return tuple(arr.tolist())


def _resolve(params: dict, data) -> dict:
    c = check_real("c", params["c"], low=0.0, high=1.0, include_high=False)
    p = check_real("p", params["p"], low=2.0)
    sparse = check_bool("sparse", params["sparse"])
    normalize = check_bool("normalize", params["normalize"])
    rho = _check_rho(params["rho"])
    budget = check_memory_budget(params["memory_budget"])
    fits = dense_matrices_fit(data.n_features, 1, budget)
    form = check_form(params["form"], ("primal", "dual", "implicit"))
    kernel = resolve_kernel(params, data)
    if not kernel.is_linear and p != 2.0:
        raise ValueError(f"a non-linear kernel needs p=2 (the dual form), got p={p!r}")
    if form == "auto":
        if not kernel.is_linear:
            form = "dual"
        elif p == 2.0 and not sparse and data.n_features <= PRIMAL_MAX_FEATURES and fits:
            form = "primal"
        elif p == 2.0 and data.sparse and 8.0 * data.n_samples * data.n_features > budget:
            form = "dual"
        else:
            form = "implicit"
    if form != "dual" and not kernel.is_linear:
        raise ValueError(f"form={form!r} needs kernel='linear'; kernel={kernel.name!r} "
                         "needs form='dual'")
    if form in ("primal", "dual") and p != 2.0:
        raise ValueError(f"form={form!r} exists for p=2 only, got p={p!r}; use form='implicit'")
    if form == "primal" and not fits:
        raise ValueError(over_budget("primal", data.n_features, 1, budget, "form='implicit'"))
    return {"c": c, "rho": rho, "p": p, "sparse": sparse, "form": form,
            "normalize": normalize, "memory_budget": budget, **kernel.params()}


def _records(m: int, out_rho, out_yvx, out_r) -> dict:
    rho = out_rho[:m].copy()
    return {"rho": rho, "y_v_x": out_yvx[:m].copy(), "r": out_r[:m].copy(),
            "matrix_updates": int(np.count_nonzero(rho > 0))}


def _factor_buffers(previous, n: int):
    """Factor buffers (F, frho, a), holding the factors of ``previous`` when given."""
    if previous is None:
        return np.empty((16, n)), np.empty(16), 0
    F = previous.state["factors"]
    return rows_buffer(F), rows_buffer(previous.state["factor_rho"]), F.shape[0]


def _pending(state: dict) -> bool:
    """Whether the last mistake of a primal run's history changed A (rho_k > 0): the run's
    own last mistake, or (a run without one) the ``pending`` kept of its warm start."""
    rho = state["rho"]
    return bool(rho[-1] > 0) if rho.shape[0] else state.get("pending", False)


def _fit_linear(data, order, params, margins, previous) -> LoopResult:
    p = params["p"]
    X = normalize_rows(data.X, p) if params["normalize"] else data.X
    n = data.n_features
    k0 = 0 if previous is None else previous.state["mistakes_total"]
    T = order.shape[0]
    rho_seq = _rho_sequence(params, k0, T)
    outs = np.empty(T), np.empty(T), np.empty(T)
    v = np.zeros(n) if previous is None else np.array(previous.state["v"])
    F, frho, a = _factor_buffers(previous, n)
    X = rows(X)
    state = {}
    sparse = params["sparse"]
    x = np.empty(n)
    if params["form"] == "primal":
        if previous is None:
            A, w, pending = np.eye(n), np.zeros(n), False
        else:  # w as the loop kept it, not A v (one rounding apart)
            A, w = np.array(previous.state["A"]), np.array(previous.weights)
            pending = _pending(previous.state)
        # The change A += u xp^T + xp u^T; a warm start's, applied by its run, is zero.
        ax, u, xp = np.empty(n), np.zeros(n), np.zeros(n)
        trials, _, (_, _, pending, F, frho, a), _ = primal_loop(
            X, data.y, order, (rho_seq, A, v, w, x, ax, u, xp, *outs),
            (k0, sparse, pending, F, frho, a), margins)
        if pending:
            symmetric_sweep(A, u, xp, x, ax)
        lower = np.tril_indices(n, -1)
        A[lower] = A.T[lower]  # the loop kept the upper triangle
        state["A"] = A
        if pending and trials.shape[0] == 0:  # else this run's last rho tells it
            state["pending"] = True
    else:
        w = np.zeros(n) if previous is None else np.array(previous.weights)
        if p == 2.0:
            G = F[:0]  # unused: for p = 2 the loop takes g(x_i) = x_i from F
        else:
            G = np.empty_like(F)
            G[:a] = link(F[:a], p)
        trials, _, (_, _, _, F, G, frho, a), _ = implicit_loop(
            X, data.y, order, (rho_seq, v, w, x, np.empty(n), np.empty(n), *outs),
            (k0, sparse, p, F, G, frho, a), margins)
    m = trials.shape[0]
    state.update(_records(m, *outs))
    state.update(v=v, factors=F[:a].copy(), factor_rho=frho[:a].copy(),
                 mistakes_total=k0 + m, normalized=params["normalize"])
    return LoopResult(trials, HigherOrderHypothesis(w, p, params["normalize"]), state=state)


def _dual_buffers(previous, size: int):
    """Per-support state (sy, sscale, h, g, active, arho, D, a) of the dual loop.

    Vectors of ``size`` entries (room for every support the run may reach),
    holding the state of ``previous`` when given.
    """
    sy, sscale, h, g = (np.empty(size) for _ in range(4))
    active, arho = np.empty(size, dtype=np.int64), np.empty(size)
    D, a = np.zeros((16, 16)), 0
    if previous is not None:
        st = previous.state
        k, a = st["support_y"].shape[0], st["active"].shape[0]
        sy[:k], sscale[:k], h[:k], g[:k] = st["support_y"], st["support_scale"], st["h"], st["g"]
        active[:a], arho[:a] = st["active"], st["factor_rho"]
        D = square_buffer(st["D"])
    return sy, sscale, h, g, active, arho, D, a


def _fit_dual(data, order, params, margins, previous) -> LoopResult:
    kernel = kernel_of(params)
    X = data.X
    if params["normalize"] and kernel.is_linear:
        # As the primal form: a row of norm below 1e-154 (its K(x, x) underflows) is not
        # taken for a zero row; the others, and so the supports, stay as given.
        X = lift_tiny_rows(X)
    diag = kernel.diagonal(X)
    if params["normalize"]:
        if np.any(diag < 0):
            raise ValueError("normalize=True needs K(x, x) >= 0 for every row; this kernel "
                             f"gives K(x, x) = {float(diag.min())!r}")
        xscale = np.divide(1.0, np.sqrt(diag), out=np.ones_like(diag), where=diag > 0)
    else:
        xscale = np.ones_like(diag)
    xnorm2 = diag * xscale * xscale
    k0 = 0 if previous is None else previous.state["mistakes_total"]
    T = order.shape[0]
    rho_seq = _rho_sequence(params, k0, T)
    src, st, k = kernel_engine(X, order, kernel,
                               None if previous is None else previous.state["support"])
    sy, sscale, h, g, active, arho, D, a = _dual_buffers(previous, k + T + 1)
    outs = np.empty(T), np.empty(T), np.empty(T)
    work = (np.empty(h.shape[0]) for _ in range(3))  # r, r over the active supports, b
    trials, _, (_, _, st, k, D, a), _ = dual_loop(
        src, data.y, engine_order(src),
        (xscale, xnorm2, rho_seq, sy, sscale, h, g, active, arho, *work, *outs),
        (k0, params["sparse"], st, k, D, a), margins)
    m = trials.shape[0]
    support = engine_supports(st, k)
    state = _records(m, *outs)
    state.update(
        support=support, support_y=sy[:k].copy(), support_scale=sscale[:k].copy(),
        active=active[:a].copy(), factor_rho=arho[:a].copy(), D=D[:a, :a].copy(),
        h=h[:k].copy(), g=g[:k].copy(),
        mistakes_total=k0 + m, normalized=params["normalize"],
    )
    hypothesis = HigherOrderKernelHypothesis(
        support.copy(), g[:k] * sscale[:k], kernel, params["normalize"]
    )
    return LoopResult(trials, hypothesis, state=state)


def _matrix(result, params, rows) -> np.ndarray | None:
    """A_k = B_k^T B_k of the linear forms (theory §2.5); None for the dual form.

    The primal form keeps A_k itself (``state["A"]``). The implicit form keeps
    the factors of B_k = (I - rho_1 x_1 g(x_1)^T) ... (I - rho_a x_a g(x_a)^T),
    one per mistake with rho > 0 (x_i as the loop used it, normalised when
    ``normalize=True``), from which B_k is multiplied out. ``rows`` is unused.
    """
    if params["form"] == "dual":
        return None
    if params["form"] == "primal":
        return result.state["A"]
    factors = result.state["factors"]
    B = np.eye(factors.shape[1])
    for x, gx, rho in zip(factors, link(factors, params["p"]), result.state["factor_rho"],
                          strict=True):
        B -= rho * np.outer(B @ x, gx)
    return B.T @ B


def _fit(data, order, params, margins, previous) -> LoopResult:
    if params["form"] == "dual":
        return _fit_dual(data, order, params, margins, previous)
    return _fit_linear(data, order, params, margins, previous)


HIGHER_ORDER = register(
    Algorithm(
        name="higher_order",
        estimator="HigherOrderPerceptron",
        defaults={"c": 0.4, "rho": None, "p": 2.0, "sparse": False, "form": "auto",
                  "normalize": True, **KERNEL_DEFAULTS, "memory_budget": MEMORY_BUDGET},
        resolve=_resolve,
        fit=_fit,
        matrix=_matrix,
        summary="Higher-Order Perceptron HO_p(c) (Brotto-Gentile-Vitale): primal, dual, implicit",
        bounds=("higher_order",),
        transformed_sequence=True,
    )
)
attach(HIGHER_ORDER.name, "presentation",
       display_name="Higher-Order Perceptron",
       label_params=lambda params: ("p", "c") if params["rho"] is None else ("p", "rho"),
       # HO_p(0) is the p-norm Perceptron (paper 000, sec. 2), drawn as such
       legend=lambda params: attached(PNORM.name, "presentation")["legend"](params)
       if params["c"] == 0 and params["rho"] is None
       else dict(text=f"p = {params['p']:g}, c = {params['c']:g}", notation=HO_NOTATION),
       # its bounds measure gamma on the transformed instances (theory §4.1): no band
       teaching=dict(matrix=lambda params: "$A_k = B_k^T B_k$", band=False))
# p > 2 has no dual form (theory §2.5): linear only
attach(HIGHER_ORDER.name, "atlas", variants=(dict(p=3.0, kernels=("linear",)),))




