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

from .._interrupt import stop_requested
from .._jit import jit
from .._linalg import (
    append_row,
    dot,
    grow_square,
    grow_vector,
    lift_tiny_rows,
    normalize_rows,
    row_axpy,
    row_dot,
    row_nnz,
    row_symmetric_matvec,
    rows,
    rows_buffer,
    square_buffer,
    symmetric_matvec,
    symmetric_sweep,
)
from .._validation import check_bool, check_finite, check_real
from ..kernel_engine import engine_append, engine_order, engine_row, engine_supports, kernel_engine
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
from .pnorm import (
    HO_NOTATION,
    PNORM,
    HigherOrderHypothesis,
    HigherOrderKernelHypothesis,
    link,
    link_into,
)

# form="auto" runs the primal form for p = 2 up to this many features (its A is n x n; a
# mistake costs O(n^2) against the implicit form's O(n a)), unless sparse=True, whose rare
# matrix updates keep a small.
PRIMAL_MAX_FEATURES = 1000


@jit
def _mistake_start(X, i, yi, v, rho_k, sparse, x):
    """Load row i into the dense x; return (y v . x, rho): rho_k, or 0 for a sparse skip."""
    x[:] = 0.0
    row_axpy(X, i, 1.0, x)
    yvx = yi * dot(v, x, x.shape[0])
    return yvx, 0.0 if sparse and yvx < 0.0 else rho_k


@jit
def apply_b(F, G, rho, a, z):
    """z <- B z with B = prod_{i<a} (I - rho_i F_i G_i^T), unwrapped from the last factor."""
    n = z.shape[0]
    for k in range(a):
        i = a - 1 - k
        # The dot written out: with dot(G[i], z, n) (or range(a - 1, -1, -1)) this loop
        # took 1.6x as long (n = 500, a = 400).
        g = G[i]
        s = 0.0
        for j in range(n):
            s += g[j] * z[j]
        s *= rho[i]
        f = F[i]
        for j in range(n):
            z[j] -= s * f[j]


@jit
def _apply_bt(F, G, rho, a, q):
    """q <- B^T q with B as in :func:`apply_b`, unwrapped from the first factor."""
    n = q.shape[0]
    for i in range(a):
        s = rho[i] * dot(F[i], q, n)
        g = G[i]
        for j in range(n):
            q[j] -= s * g[j]


@jit
def _ho_primal_loop(X, y, order, rho_seq, k0, sparse,
                    A, v, w, F, frho, a, margins, out_rho, out_yvx, out_r):
    """HO_2 primal form (paper 000 sec. 2 item 1): A = B^T B, w = A v, margin w . x_t.

    On a mistake, with a = A x and v' = v + y x:
    w <- A' v' = w + y a - rho a (x . v') - rho x (a . v') + rho^2 (x . a) x (x . v'),
    and, when rho > 0, A <- A + u x^T + x u^T with u = rho (rho (x . a) / 2 x - a),
    i.e. A - rho a x^T - rho x a^T + rho^2 (x . a) x x^T, and x is appended to the
    factor buffers (F, frho). The loop keeps the upper triangle of A only; the
    rank-two change is deferred to the next mistake's product (one O(n^2 / 2)
    sweep per mistake, see :func:`perceptron_bounds._linalg.symmetric_sweep`), and applied, and A
    mirrored, at the end. When no change is pending (rho = 0 at the last
    mistake, e.g. the sparse variant's skips), a = B^T B x from the a factors
    in O(n a) if that is cheaper, or from the nonzeros of a CSR row in O(n nnz(x)).
    Updates A, v, w in place; fills the per-mistake records; returns
    (mistake trials, F, frho, a).
    """
    n_trials = order.shape[0]
    n = v.shape[0]
    record = margins.shape[0] > 0
    mistakes = np.empty(n_trials, dtype=np.int64)
    x = np.empty(n)
    ax = np.empty(n)
    u = np.empty(n)
    xp = np.empty(n)  # the x of the pending change A += u xp^T + xp u^T
    pending = False
    m = 0
    for t in range(n_trials):
        if stop_requested(t):  # Ctrl-C: return trials 0..t-1
            break
        i = order[t]
        s = row_dot(X, i, w)
        if record:
            margins[t] = s
        if y[i] * s > 0.0:
            continue
        yi = y[i]
        yvx, rho = _mistake_start(X, i, yi, v, rho_seq[k0 + m], sparse, x)
        out_rho[m] = rho
        out_yvx[m] = yvx
        out_r[m] = 1.0 - rho * (yvx + dot(x, x, n))
        # a = A x by the cheapest route (counted in element reads): with no change pending,
        # A = B^T B is also its a factors (about 4 a n), or x's nonzeros (nnz n); else
        # the sweep of the triangle (n^2 / 2).
        nnz = row_nnz(X, i)
        if not pending and 4 * a < min(nnz, n // 2):
            for j in range(n):
                ax[j] = x[j]
            apply_b(F, F, frho, a, ax)
            _apply_bt(F, F, frho, a, ax)
        elif pending:
            symmetric_sweep(A, u, xp, x, ax)
        else:
            row_symmetric_matvec(X, i, A, x, ax)
        pending = False
        for j in range(n):
            v[j] += yi * x[j]
        if rho > 0.0:
            xax = dot(x, ax, n)
            xv = dot(x, v, n)
            axv = dot(ax, v, n)
            half = 0.5 * rho * xax
            for j in range(n):
                w[j] += yi * ax[j] - rho * (ax[j] * xv + x[j] * axv - rho * xax * x[j] * xv)
                u[j] = rho * (half * x[j] - ax[j])
                xp[j] = x[j]
            pending = True
            F = append_row(F, a, x)
            frho = grow_vector(frho, a)
            frho[a] = rho
            a += 1
        else:
            for j in range(n):
                w[j] += yi * ax[j]
        mistakes[m] = t
        m += 1
    if pending:
        symmetric_sweep(A, u, xp, x, ax)
    for r in range(n):
        for j in range(r + 1, n):
            A[j, r] = A[r, j]
    return mistakes[:m].copy(), F, frho, a


@jit
def _ho_implicit_loop(X, y, order, rho_seq, k0, sparse, p,
                      v, w, F, G, frho, a, margins, out_rho, out_yvx, out_r):
    """HO_p implicit primal form (paper 000 sec. 2 item 3): margin w . x_t, w = B^T g(B v).

    B is kept as its factors (F_i = x_i, G_i = g(x_i), frho_i; for p = 2, G is
    F itself and the G buffer stays unused); on a mistake the factor is
    appended when rho > 0, v <- v + y x, and w is recomputed by unwrapping B
    (O(n a)). Updates v, w in place; fills the per-mistake records; returns
    (mistake trials, F, G, frho, a).
    """
    n_trials = order.shape[0]
    n = v.shape[0]
    record = margins.shape[0] > 0
    mistakes = np.empty(n_trials, dtype=np.int64)
    x = np.empty(n)
    gx = np.empty(n)
    z = np.empty(n)
    m = 0
    for t in range(n_trials):
        if stop_requested(t):  # Ctrl-C: return trials 0..t-1
            break
        i = order[t]
        s = row_dot(X, i, w)
        if record:
            margins[t] = s
        if y[i] * s > 0.0:
            continue
        yi = y[i]
        yvx, rho = _mistake_start(X, i, yi, v, rho_seq[k0 + m], sparse, x)
        link_into(x, p, gx)
        out_rho[m] = rho
        out_yvx[m] = yvx
        out_r[m] = 1.0 - rho * (yi * dot(v, gx, n) + dot(gx, x, n))
        if rho > 0.0:
            F = append_row(F, a, x)
            frho = grow_vector(frho, a)
            frho[a] = rho
            if p != 2.0:
                G = append_row(G, a, gx)
            a += 1
        for j in range(n):
            v[j] += yi * x[j]
            z[j] = v[j]
        Gp = F if p == 2.0 else G
        apply_b(F, Gp, frho, a, z)
        link_into(z, p, w)
        _apply_bt(F, Gp, frho, a, w)
        mistakes[m] = t
        m += 1
    return mistakes[:m].copy(), F, G, frho, a


@jit
def _ho_dual_loop(src, st, k, y, xscale, xnorm2, rho_seq, k0, sparse,
                  sy, sscale, h, g, active, arho, D, a, margins, out_rho, out_yvx, out_r):
    """HO_2 dual form (paper 000 sec. 2 item 2) with a Mercer kernel.

    Instances are phi(x) xscale (xscale = 1/sqrt(K(x, x)) when normalising, so
    xnorm2 = ||phi(x) xscale||^2 = 1). The margin is g . r with
    r_j = K(s_j, x) sscale_j xscale over the supports s_j (every mistaken
    instance, label sy_j); A = I + X_a D X_a^T over the supports with rho > 0
    (``active``, their rho in ``arho``). On a mistake with rho > 0:
    b = D X_a^T x, D <- [[D, -rho b], [-rho b^T, rho^2 x^T X_a b - 2 rho + rho^2 ||x||^2]];
    always h_j += y r_j, h_k = v . x + y ||x||^2. g = y + D h is updated in
    O(a + k) from b: g_q += (y - rho h_k) b_q on the old active supports and
    g_k = y - rho b . h_a + d_kk h_k (g_k = y when rho = 0), so a mistake costs
    one pass over D (O(a^2)). Kernel values K(s_j, x) come from the kernel-row
    engine (``src``, ``st``). The buffers sy, sscale, h, g, active, arho hold
    one entry per possible support. Returns (mistake trials, engine state, k,
    D, a).
    """
    order = engine_order(src)
    n_trials = order.shape[0]
    record = margins.shape[0] > 0
    mistakes = np.empty(n_trials, dtype=np.int64)
    r = np.empty(h.shape[0])
    ra = np.empty(h.shape[0])  # r over the active supports, contiguous for the product with D
    b = np.empty(h.shape[0])
    m = 0
    for t in range(n_trials):
        if stop_requested(t):  # Ctrl-C: return trials 0..t-1
            break
        i = order[t]
        st = engine_row(src, st, t, k, r)
        for j in range(k):
            r[j] = r[j] * sscale[j] * xscale[i]
        s = 0.0
        for j in range(k):
            s += g[j] * r[j]
        if record:
            margins[t] = s
        yi = y[i]
        if yi * s > 0.0:
            continue
        vx = 0.0
        for j in range(k):
            vx += sy[j] * r[j]
        yvx = yi * vx
        rho = rho_seq[k0 + m]
        if sparse and yvx < 0.0:
            rho = 0.0
        xx = xnorm2[i]
        out_rho[m] = rho
        out_yvx[m] = yvx
        out_r[m] = 1.0 - rho * (yvx + xx)
        for q in range(a):
            ra[q] = r[active[q]]
        symmetric_matvec(D, ra[:a], b[:a])
        rb = dot(ra, b, a)
        for j in range(k):
            h[j] += yi * r[j]
        hk = vx + yi * xx
        h[k] = hk
        for q in range(a):
            g[active[q]] += (yi - rho * hk) * b[q]
        g[k] = yi
        if rho > 0.0:
            D = grow_square(D, a)
            dkk = rho * rho * rb - 2.0 * rho + rho * rho * xx
            gk = yi + dkk * hk
            for q in range(a):
                D[q, a] = -rho * b[q]
                D[a, q] = -rho * b[q]
                gk -= rho * b[q] * h[active[q]]
            D[a, a] = dkk
            g[k] = gk
            active[a] = k
            arho[a] = rho
            a += 1
        sscale[k] = xscale[i]
        sy[k] = yi
        st = engine_append(src, st, t, k)
        k += 1
        mistakes[m] = t
        m += 1
    return mistakes[:m].copy(), st, k, D, a


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
    if params["form"] == "primal":
        A = np.eye(n) if previous is None else np.array(previous.state["A"])
        w = A @ v
        trials, F, frho, a = _ho_primal_loop(
            X, data.y, order, rho_seq, k0, params["sparse"], A, v, w, F, frho, a,
            margins, *outs,
        )
        state["A"] = A
    else:
        w = np.zeros(n) if previous is None else np.array(previous.weights)
        if p == 2.0:
            G = F[:0]  # unused: for p = 2 the loop takes g(x_i) = x_i from F
        else:
            G = np.empty_like(F)
            G[:a] = link(F[:a], p)
        trials, F, G, frho, a = _ho_implicit_loop(
            X, data.y, order, rho_seq, k0, params["sparse"], p, v, w, F, G, frho, a,
            margins, *outs,
        )
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
    trials, st, k, D, a = _ho_dual_loop(
        src, st, k, data.y, xscale, xnorm2, rho_seq, k0, params["sparse"],
        sy, sscale, h, g, active, arho, D, a, margins, *outs,
    )
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




