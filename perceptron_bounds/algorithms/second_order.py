"""The Second-Order Perceptron (SO): fixed a, adaptive a_k, pseudoinverse (theory §2.4).

Let X_k hold the k mistaken instances so far, v_k = sum of y_i x_i over them
and S_t = [X_k, x_t] (the current instance included). On trial t

* ``variant="inverse"`` (paper 003, Fig. 3):
  margin_t = v_k^T (a I + S_t S_t^T)^{-1} x_t;
* ``variant="adaptive"`` (paper 003, Fig. 4): the same with a = a_k = c R^2 k,
  k = (mistakes so far) + 1, R = max_t ||x_t|| (sec. 4.1, Theorem 3);
* ``variant="pinv"`` (paper 003, Fig. 5): margin_t = v_k^T (S_t S_t^T)^+ x_t,
  which is exactly 0 when x_t is outside the span of the past mistakes
  (sec. 4.2, Theorem 4).

A trial is a mistake iff y_t margin_t <= 0 (theory §1.1); on a mistake
v_{k+1} = v_k + y_t x_t and X_{k+1} = S_t.

Forms (``form="primal" | "dual" | "auto"``; a non-linear kernel needs the dual;
X dense or CSR in every form):

* primal, fixed a: keep A^{-1} = (a I + X_k X_k^T)^{-1} and w = A^{-1} v_k. By
  Sherman-Morrison, with z = A^{-1} x_t the margin is (w . x_t) / (1 + x_t . z),
  so a correct trial costs one dot product; a mistake costs z (one symmetric
  matrix-vector product) and the rank-one downdate A^{-1} -= z z^T / (1 + x_t . z),
  with w += z (y_t - w . x_t) / (1 + x_t . z). The downdate is applied lazily,
  in the same sweep of A^{-1} as the next mistake's product, so a mistake reads
  the n x n matrix once.
* dual, fixed a (paper 003, Theorem 2): with alpha = (a I_k + G_k)^{-1} y_k,
  g = (K(x_i, x_t))_i, u = (a I_k + G_k)^{-1} g and the Schur complement
  s = a + K(x_t, x_t) - g . u > 0, the margin is a (alpha . g) / s. A mistake
  grows the inverse by the partitioned-inverse formula and
  alpha <- (alpha - u d, d) with d = (y_t - alpha . g) / s (the block update
  + u u^T / s is deferred to the next product as above).
* adaptive: a changes at every mistake, so A (or a I + G) is factored afresh
  (Cholesky) at each mistake; the correlation X_k X_k^T (or the Gram G_k) is
  kept incrementally.
* pinv (:mod:`perceptron_bounds.algorithms.second_order_pinv`): the span of
  the mistakes is kept as an orthonormal basis, and in its coordinates the
  inverse of the correlation C = sum_i p_i p_i^T as above.

The dual loops get g = K(supports, x_t) from the kernel-row engine
(:mod:`perceptron_bounds.kernel_engine`): a block of upcoming trials against
the supports in one matrix product, the supports added inside the block
corrected for exactly, and a cache of these values across epochs. The
per-mistake work above is the loops' own.

Record (what the second-order bounds read, theory §3): ``run.params`` holds a, c,
span_tol, the kernel and the form used; ``X[run.mistake_rows]`` is X_m; the
hypothesis (``SecondOrderHypothesis``, ``SecondOrderKernelHypothesis`` or
``PseudoinverseHypothesis``) holds the final state a warm start continues
from; ``run.state`` holds, for ``variant="adaptive"``: ``a_k`` (a_k[j] is the
a in force after j mistakes of this run, j = 0..m; a_k[j - 1] is the one used
on the trial of the j-th mistake), ``R`` (the R of a_k = c R^2 k: the largest
norm of this run's rows and of the warm start's), ``k`` (mistakes since the
zero state, warm starts included), and ``correlation`` = X_m X_m^T with ``v``
(primal) or ``gram`` = G_m with ``support_labels`` (dual); for
``variant="pinv"``: ``rank`` (of X_m X_m^T) and ``rank_growth`` (0-based
indices among this run's mistakes of those outside the span, which grew the
rank). In the dual form of ``pinv`` the support vectors are those rank-growing
mistakes, a basis of the span.

References
----------
N. Cesa-Bianchi, A. Conconi and C. Gentile, "A second-order Perceptron
algorithm", SIAM J. Computing 34 (2005) (paper 003): Fig. 3 and Theorem 1
(basic form), Theorem 2 (dual form), Fig. 4 and Theorem 3 (adaptive a), Fig. 5
and Theorem 4 (pseudoinverse).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse

from .._interrupt import stop_requested
from .._jit import jit
from .._linalg import (
    cholesky_solve,
    dot,
    grow_square_within,
    grow_vector,
    rank_one_matvec,
    row_dense,
    rows,
    rows_buffer,
    shifted_cholesky,
    solve_lower,
    square_buffer,
)
from .._validation import check_choice, check_real
from ..hypothesis import KernelHypothesis, kernel_blocks
from ..kernel_engine import (
    engine_append,
    engine_diag,
    engine_order,
    engine_row,
    engine_supports,
    kernel_engine,
)
from ..kernels import KERNEL_DEFAULTS, kernel_of, rowwise_dot
from ..registry import Algorithm, LoopResult, attach, register, register_hypothesis
from ._common import (
    MEMORY_BUDGET,
    check_dual_stop,
    check_form,
    check_memory_budget,
    dense_matrices_fit,
    dual_buffer,
    max_supports,
    over_budget,
    resolve_kernel_form,
    support_set,
)
from .second_order_pinv import PINV_MATRICES, fit_pinv

VARIANTS = ("inverse", "adaptive", "pinv")



# ---------------------------------------------------------------- fixed a (Fig. 3)


@jit
def _so_inverse_primal_loop(X, y, order, a_inv, w, margins):
    """Primal SO with fixed a; updates ``a_inv`` and ``w`` in place, returns the mistake trials."""
    n_trials = order.shape[0]
    n = w.shape[0]
    record = margins.shape[0] > 0
    scratch = np.zeros(n)
    z = np.empty(n)
    pending = np.zeros(n)  # the last mistake's z / sqrt(d), not yet subtracted from a_inv
    mistakes = np.empty(n_trials, dtype=np.int64)
    m = 0
    for t in range(n_trials):
        if stop_requested(t):  # Ctrl-C: return trials 0..t-1
            break
        i = order[t]
        x = row_dense(X, i, scratch)
        s = dot(w, x, n)
        mistake = y[i] * s <= 0.0
        if record or mistake:
            rank_one_matvec(a_inv, pending, 1.0, x, n, z)
            d = 1.0 + dot(x, z, n)
            if record:
                margins[t] = s / d
            if mistake:
                c = (y[i] - s) / d
                r = 1.0 / np.sqrt(d)
                for j in range(n):
                    w[j] += c * z[j]
                    pending[j] = z[j] * r
                mistakes[m] = t
                m += 1
    rank_one_matvec(a_inv, pending, 1.0, scratch, n, z)
    return mistakes[:m].copy()


@jit
def _so_inverse_dual_loop(src, st, k, y, a, alpha, m_inv, max_k, margins):
    """Dual SO with fixed a over the engine's k supports s_j (the mistakes, with multiplicity).

    Keeps m_inv = (a I_k + G_k)^{-1} and alpha = m_inv y_k; kernel values come
    from the kernel-row engine (``src``, ``st``). Stops at a mistake that would
    make more than ``max_k`` supports. Returns (mistake trials, engine state,
    alpha, m_inv, k, the trial it stopped at or -1), the buffers possibly regrown.
    """
    order = engine_order(src)
    n_trials = order.shape[0]
    record = margins.shape[0] > 0
    g = grow_vector(np.empty(0), k)
    u = grow_vector(np.empty(0), k)
    pending = grow_vector(np.empty(0), k)  # m_inv[:k, :k] still lacks + pending pending^T
    mistakes = np.empty(n_trials, dtype=np.int64)
    m = 0
    stop = -1
    for t in range(n_trials):
        if stop_requested(t):  # Ctrl-C: return trials 0..t-1
            break
        i = order[t]
        g = grow_vector(g, k)
        u = grow_vector(u, k)
        pending = grow_vector(pending, k)
        st = engine_row(src, st, t, k, g)
        s = dot(alpha, g, k)
        mistake = y[i] * s <= 0.0
        if mistake and k >= max_k:
            stop = t
            break
        if record or mistake:
            rank_one_matvec(m_inv, pending, -1.0, g, k, u)
            schur = a + engine_diag(src, i) - dot(g, u, k)
            if record:
                margins[t] = a * s / schur
            if mistake:
                # Partitioned inverse of [[a I + G_k, g], [g^T, a + K(x, x)]]: border now,
                # the leading block's + u u^T / schur with the next product.
                m_inv = grow_square_within(m_inv, k, max_k)
                r = 1.0 / np.sqrt(schur)
                for p in range(k):
                    m_inv[p, k] = -u[p] / schur
                    m_inv[k, p] = -u[p] / schur
                    pending[p] = u[p] * r
                m_inv[k, k] = 1.0 / schur
                c = (y[i] - s) / schur
                for p in range(k):
                    alpha[p] -= c * u[p]
                st = engine_append(src, st, t, k)
                alpha = grow_vector(alpha, k)
                alpha[k] = c
                k += 1
                mistakes[m] = t
                m += 1
    rank_one_matvec(m_inv, pending, -1.0, g, k, u)
    return mistakes[:m].copy(), st, alpha, m_inv, k, stop


# ---------------------------------------------------------------- adaptive a_k (Fig. 4)


@jit
def _so_adaptive_primal_loop(X, y, order, c_r2, k0, corr, v, w, margins):
    """Primal SO with a_k = c R^2 k; updates ``corr`` = X_k X_k^T, ``v`` and ``w`` in place.

    ``k0`` mistakes were made before this run. Returns the mistake trials.
    """
    n_trials = order.shape[0]
    n = w.shape[0]
    record = margins.shape[0] > 0
    scratch = np.zeros(n)
    tmp = np.empty(n)
    a = c_r2 * (k0 + 1)
    L = shifted_cholesky(corr, n, a)
    cholesky_solve(L, v, n, tmp, w)
    mistakes = np.empty(n_trials, dtype=np.int64)
    m = 0
    for t in range(n_trials):
        if stop_requested(t):  # Ctrl-C: return trials 0..t-1
            break
        i = order[t]
        x = row_dense(X, i, scratch)
        s = dot(w, x, n)
        if record:
            solve_lower(L, x, n, tmp)
            margins[t] = s / (1.0 + dot(tmp, tmp, n))
        if y[i] * s <= 0.0:
            yi = y[i]
            for p in range(n):
                xp = x[p]
                v[p] += yi * xp
                for q in range(n):
                    corr[p, q] += xp * x[q]
            mistakes[m] = t
            m += 1
            a = c_r2 * (k0 + m + 1)
            L = shifted_cholesky(corr, n, a)
            cholesky_solve(L, v, n, tmp, w)
    return mistakes[:m].copy()


@jit
def _so_adaptive_dual_loop(src, st, k, y, ys, gram, c_r2, max_k, margins):
    """Dual SO with a_k = c R^2 k over the engine's k supports s_j with labels ys[:k].

    Keeps the Gram ``gram`` = G_k and factors a_k I + G_k at every mistake;
    kernel values come from the kernel-row engine (``src``, ``st``). Stops at a
    mistake that would make more than ``max_k`` supports. Returns (mistake
    trials, engine state, ys, gram, k, the trial it stopped at or -1), the
    buffers possibly regrown.
    """
    order = engine_order(src)
    n_trials = order.shape[0]
    record = margins.shape[0] > 0
    g = np.empty(0)
    tmp = grow_vector(np.empty(0), k)
    alpha = grow_vector(np.empty(0), k)
    a = c_r2 * (k + 1)
    L = shifted_cholesky(gram, k, a)
    cholesky_solve(L, ys, k, tmp, alpha)
    mistakes = np.empty(n_trials, dtype=np.int64)
    m = 0
    stop = -1
    for t in range(n_trials):
        if stop_requested(t):  # Ctrl-C: return trials 0..t-1
            break
        i = order[t]
        g = grow_vector(g, k)
        tmp = grow_vector(tmp, k)
        alpha = grow_vector(alpha, k)
        st = engine_row(src, st, t, k, g)
        s = dot(alpha, g, k)
        if record:
            solve_lower(L, g, k, tmp)
            margins[t] = a * s / (a + engine_diag(src, i) - dot(tmp, tmp, k))
        if y[i] * s <= 0.0:
            if k >= max_k:
                stop = t
                break
            gram = grow_square_within(gram, k, max_k)
            for p in range(k):
                gram[p, k] = g[p]
                gram[k, p] = g[p]
            gram[k, k] = engine_diag(src, i)
            st = engine_append(src, st, t, k)
            ys = grow_vector(ys, k)
            ys[k] = y[i]
            k += 1
            a = c_r2 * (k + 1)
            L = shifted_cholesky(gram, k, a)
            cholesky_solve(L, ys, k, tmp, alpha)
            mistakes[m] = t
            m += 1
    return mistakes[:m].copy(), st, ys, gram, k, stop


# ---------------------------------------------------------------- Python wrappers


def _squared_radius(kdiag, previous) -> float:
    """R^2 = max K(x, x) over the rows (and the warm start's R^2); adaptive a needs R > 0."""
    r2 = float(np.max(kdiag))
    if previous is not None:
        r2 = max(r2, previous.state["R"] ** 2)
    if r2 <= 0.0:
        raise ValueError("variant='adaptive' needs R = max ||x_t|| > 0, but every row of X is 0")
    return r2


def _max_supports(params) -> int:
    """The most supports whose k x k matrices (:data:`_PRIMAL_MATRICES`) fit the budget."""
    return max_supports(_PRIMAL_MATRICES[params["variant"]], params["memory_budget"])


def _check_dual_stop(stop: int, k: int, params) -> None:
    """The one-line ``ValueError`` of a dual loop stopped at trial ``stop`` (-1: it did not)."""
    check_dual_stop(stop, k, _PRIMAL_MATRICES[params["variant"]], params["memory_budget"])


def _fit_inverse(data, order, params, margins, previous):
    """Fixed a (Fig. 3): primal inverse with Sherman-Morrison or dual partitioned inverse."""
    a = params["a"]
    if params["form"] == "primal":
        if previous is None:
            a_inv, w = np.eye(data.n_features) / a, np.zeros(data.n_features)
        else:
            a_inv = np.array(previous.hypothesis.a_inv)
            w = np.array(previous.hypothesis.weights)
        trials = _so_inverse_primal_loop(rows(data.X), data.y, order, a_inv, w, margins)
        return LoopResult(trials, SecondOrderHypothesis(w, a_inv))
    kernel = kernel_of(params)
    src, st, k = kernel_engine(data.X, order, kernel, support_set(previous))
    m_inv = np.zeros((16, 16)) if previous is None else square_buffer(previous.hypothesis.m_inv)
    trials, st, alpha, m_inv, k, stop = _so_inverse_dual_loop(
        src, st, k, data.y, a, dual_buffer(previous), m_inv, _max_supports(params), margins
    )
    _check_dual_stop(stop, k, params)
    hypothesis = SecondOrderKernelHypothesis(engine_supports(st, k), alpha[:k].copy(), kernel,
                                             m_inv[:k, :k].copy(), a)
    return LoopResult(trials, hypothesis)


def _fit_adaptive(data, order, params, margins, previous):
    """a_k = c R^2 k (Fig. 4): a fresh Cholesky factor of a_k I + X_k X_k^T (or G_k) per mistake."""
    kernel = kernel_of(params)
    kdiag = kernel.diagonal(data.X)
    r2 = _squared_radius(kdiag, previous)
    c_r2 = params["c"] * r2
    k0 = 0 if previous is None else previous.state["k"]
    k_max = k0 + order.shape[0] + 1
    if not np.isfinite(c_r2 * k_max):
        raise ValueError(
            f"c={params['c']!r} is too large for this data: a_k = c R^2 k overflows float64 "
            f"(R^2 = {r2:g}, k up to {k_max})"
        )
    if params["form"] == "primal":
        n = data.n_features
        if previous is None:
            corr, v = np.zeros((n, n)), np.zeros(n)
        else:
            corr, v = np.array(previous.state["correlation"]), np.array(previous.state["v"])
        w = np.empty(n)
        trials = _so_adaptive_primal_loop(rows(data.X), data.y, order, c_r2, k0, corr, v, w,
                                       margins)
        k = k0 + trials.shape[0]
        a = c_r2 * (k + 1)
        import scipy.linalg  # on first use: 0.1-0.2 s of every command's start-up otherwise

        a_inv = scipy.linalg.inv(corr + a * np.eye(n))
        hypothesis = SecondOrderHypothesis(w, a_inv)
        extra = {"correlation": corr, "v": v}
    else:
        if previous is None:
            ys, gram = np.empty(16), np.zeros((16, 16))
        else:
            ys = rows_buffer(previous.state["support_labels"])
            gram = square_buffer(previous.state["gram"])
        src, st, k = kernel_engine(data.X, order, kernel, support_set(previous))
        trials, st, ys, gram, k, stop = _so_adaptive_dual_loop(
            src, st, k, data.y, ys, gram, c_r2, _max_supports(params), margins)
        _check_dual_stop(stop, k, params)
        a = c_r2 * (k + 1)
        import scipy.linalg

        m_inv = scipy.linalg.inv(gram[:k, :k] + a * np.eye(k))
        ys = ys[:k].copy()
        hypothesis = SecondOrderKernelHypothesis(engine_supports(st, k), m_inv @ ys, kernel,
                                                 m_inv, a)
        extra = {"gram": gram[:k, :k].copy(), "support_labels": ys}
    a_k = c_r2 * (k0 + 1 + np.arange(trials.shape[0] + 1, dtype=np.float64))
    state = {"a_k": a_k, "R": float(np.sqrt(r2)), "k": int(k), **extra}
    return LoopResult(trials, hypothesis, state=state)


_FITS = {"inverse": _fit_inverse, "adaptive": _fit_adaptive, "pinv": fit_pinv}


def _matrix(result, params, rows) -> np.ndarray | None:
    """A_k = a I + X_k X_k^T of the primal forms (theory §2.4), X_k the k mistaken ``rows``.

    ``a`` is the fixed a (``variant="inverse"``), the a_{k+1} = c R^2 (k + 1)
    the next trial uses (``"adaptive"``, the last entry of ``state["a_k"]``),
    or 0 (``"pinv"``, whose prediction takes the pseudoinverse of X_k X_k^T).
    None for the dual form, which keeps the Gram matrix of the mistakes instead.
    """
    if params["form"] != "primal":
        return None
    a = {"inverse": params["a"], "pinv": 0.0}.get(params["variant"])
    if a is None:
        a = float(result.state["a_k"][-1])
    X_k = rows.toarray() if scipy.sparse.issparse(rows) else rows
    return a * np.eye(X_k.shape[1]) + X_k.T @ X_k


def _fit(data, order, params, margins, previous) -> LoopResult:
    return _FITS[params["variant"]](data, order, params, margins, previous)


def _resolve(params: dict, data) -> dict:
    """Validate a, c, span_tol, variant, kernel and form; resolve ``form="auto"``.

    ``"auto"`` is the dual form for a non-linear kernel. With the linear
    kernel, dense or CSR X, it is the primal form (O(n^2) per mistake, O(n)
    per correct trial) when n_features <= n_samples and the primal's n x n
    matrices (one for ``inverse``, two for ``pinv``, three for ``adaptive``)
    fit within ``memory_budget`` bytes, else the dual form (O(k) kernel values
    per trial, k <= n_samples mistakes per epoch, and no n x n matrix). An
    explicit primal form over the budget is a ``ValueError`` raised before
    anything is allocated. The dual form keeps as many k x k matrices, k the
    supports (the mistakes; the rank for ``pinv``): its loop stops, and the run
    is a ``ValueError`` naming ``memory_budget``, before they would pass it.
    """
    a = check_real("a", params["a"], low=0.0, include_low=False)
    c = check_real("c", params["c"], low=0.0, include_low=False)
    span_tol = check_real("span_tol", params["span_tol"], low=0.0, high=1.0, include_low=False,
                          include_high=False)
    variant = check_choice("variant", params["variant"], VARIANTS)
    budget = check_memory_budget(params["memory_budget"])
    form = check_form(params["form"], ("primal", "dual"))
    matrices = _PRIMAL_MATRICES[variant]
    fits = dense_matrices_fit(data.n_features, matrices, budget)
    if form == "auto" and params["kernel"] == "linear":
        form = "primal" if fits and data.n_features <= data.n_samples else "dual"
    if form == "primal" and not fits:
        raise ValueError(over_budget("primal", data.n_features, matrices, budget, "form='dual'"))
    resolved = resolve_kernel_form({**params, "form": form}, data)
    return {"a": a, "variant": variant, "c": c, "span_tol": span_tol, "memory_budget": budget,
            **resolved}


# The n_features x n_features matrices each primal variant keeps: A^{-1}; the correlation and
# the Cholesky factor of a_k I + it (and its copy); the basis Q (at most n rows) and C^{-1}.
# The dual forms keep as many k x k matrices, k the supports: (a I + G)^{-1}; the Gram, the
# shifted copy and its Cholesky factor; L^{-1} and C^{-1} of the basis.
_PRIMAL_MATRICES = {"inverse": 1, "adaptive": 3, "pinv": PINV_MATRICES}


SECOND_ORDER = register(
    Algorithm(
        name="second_order",
        estimator="SecondOrderPerceptron",
        defaults={"a": 1.0, "variant": "inverse", "c": 1.0, "span_tol": 1e-9,
                  **KERNEL_DEFAULTS, "form": "auto", "memory_budget": MEMORY_BUDGET},
        resolve=_resolve,
        fit=_fit,
        matrix=_matrix,
        summary="Second-Order Perceptron (Cesa-Bianchi, Conconi, Gentile): fixed a, "
                "adaptive a_k or pseudoinverse; primal or kernel form",
        # one of them per run, by its variant (their declared selectors)
        bounds=("second_order", "second_order_adaptive", "second_order_pinv"),
    )
)
attach(SECOND_ORDER.name, "presentation",
       display_name="Second-Order Perceptron",
       # the variant's own parameter: a (theory §2.4), c of a_k (adaptive), none (pinv)
       label_params=lambda params: ("variant", *{"inverse": ("a",), "adaptive": ("c",)}.get(
           params["variant"], ())),
       legend=lambda params: ("Second-Order Perceptron, " + {
           "inverse": f"a = {params['a']:g}", "adaptive": f"adaptive, c = {params['c']:g}"}.get(
           params["variant"], "pseudoinverse")),
       teaching=dict(matrix=lambda params: "$A_k = {}X_k X_k^T$".format(
           {"pinv": "", "adaptive": "a_{k+1} I + "}.get(params["variant"], "a I + "))))
# pinv linear only: its bound fails on kernel runs whose basis Gram factor is singular
attach(SECOND_ORDER.name, "atlas",
       variants=(dict(variant="adaptive"), dict(variant="pinv", kernels=("linear",))))


@register_hypothesis
@dataclass(frozen=True, eq=False)
class SecondOrderHypothesis:
    """Final primal Second-Order Perceptron (paper 003, Figs. 3 and 4).

    ``decision_function`` returns the SO margin of x as if it were the next
    trial, v^T (a I + X_m X_m^T + x x^T)^{-1} x = (w . x) / (1 + x^T A^{-1} x),
    with A^{-1} = ``a_inv`` = (a I + X_m X_m^T)^{-1} and w = ``weights`` =
    A^{-1} v (Sherman-Morrison); its sign is the sign of w . x. For the
    adaptive variant a is a_{m+1}, the value the next trial would use.
    """

    weights: np.ndarray
    a_inv: np.ndarray

    def decision_function(self, X) -> np.ndarray:
        out = np.empty(X.shape[0])
        for part in kernel_blocks(X, self.weights.shape[0]):
            block = X[part]
            quad = rowwise_dot(block, np.asarray(block @ self.a_inv))
            out[part] = np.asarray(block @ self.weights).ravel() / (1.0 + quad)
        return out


@register_hypothesis
@dataclass(frozen=True, eq=False)
class SecondOrderKernelHypothesis(KernelHypothesis):
    """Final dual (kernel) Second-Order Perceptron (paper 003, Theorem 2).

    With g = (K(x_i, x))_i over the support rows (the m mistaken instances,
    with multiplicity), ``m_inv`` = (a I_m + G_m)^{-1} and ``dual_coef`` =
    alpha = m_inv y_m, ``decision_function`` returns the SO margin of x as the
    next trial, a (alpha . g) / (a + K(x, x) - g^T m_inv g): the kernel form of
    :class:`SecondOrderHypothesis`, whose weights are w = sum_i alpha_i x_i
    (linear kernel).
    """

    m_inv: np.ndarray
    a: float

    def _gram_scorer(self, X):
        """(G, rows) -> the SO margins of X[rows] from G (see KernelHypothesis)."""

        def score(G, rows):
            schur = self.a + self.kernel.diagonal(X[rows]) - rowwise_dot(G @ self.m_inv, G)
            return self.a * (G @ self.dual_coef) / schur

        return score
