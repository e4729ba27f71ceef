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

The update rules of every variant and form are in
:mod:`perceptron_bounds.algorithms.second_order_rules`, each written once for
dense and CSR rows. The dual rules get g = K(supports, x_t) from the kernel-row engine
(:mod:`perceptron_bounds.kernel_engine`): a block of upcoming trials against
the supports in one matrix product, the supports added inside the block
corrected for exactly, and a cache of these values across epochs. The
per-mistake work above is the loops' own.

Numerical range (theory §4.4): with a parameter (fixed a, a_k) the numbers of a run
scale with a as well as with the rows, ||x_t|| ||x_p|| / a in a score and ||x|| / a in
a mistake's update. Where they leave float64's normal range the run is computed all the
same, but it is no longer the exact-arithmetic algorithm (a score of 1e-399 is 0, and a
mistake): ``evaluate`` reports its bounds not applicable. ||x_t||^2 / a a normal
float64 number for every row keeps every run in range.

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
``variant="pinv"``: ``rank`` (of X_m X_m^T), ``rank_growth`` (0-based
indices among this run's mistakes of those outside the span, which grew the
rank) and, in the primal form, ``w`` (w = Q^T wc as the loop updated it, which a
warm start continues; ``run.weights`` is Q^T wc multiplied out, rounded apart). In
the dual form of ``pinv`` the support vectors are those rank-growing mistakes, a
basis of the span.

``R2`` (default None) is the R^2 of the adaptive a_k = c R^2 k given in advance (at
least max K(x_t, x_t) over the rows, so that Theorem 3 holds): the largest squared
norm of a file's rows read in chunks (:mod:`perceptron_bounds.streaming`), each chunk
a warm start of the one before, makes the run over the file the run on the file read
whole. None takes it from the rows, as above.

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

from .._linalg import capacity, rows, rows_buffer, square_buffer
from .._triangular import cholesky_solve, shifted_cholesky
from .._validation import check_choice, check_real
from ..hypothesis import KernelHypothesis, kernel_blocks
from ..kernel_engine import engine_order, engine_supports, kernel_engine
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
from .second_order_rules import FITS, MATRICES, VARIANTS, apply_pending
from .second_order_rules import adaptive_dual_loop as _so_adaptive_dual_loop
from .second_order_rules import adaptive_primal_loop as _so_adaptive_primal_loop
from .second_order_rules import inverse_dual_loop as _so_inverse_dual_loop
from .second_order_rules import inverse_primal_loop as _so_inverse_primal_loop

# ---------------------------------------------------------------- Python wrappers


def _squared_radius(kdiag, previous, given) -> float:
    """R^2 = max K(x, x) over the rows (and the warm start's R^2), or the ``given`` R2 (at
    least the rows' maximum); adaptive a needs R > 0."""
    r2 = float(np.max(kdiag))
    if given is not None:
        if given < r2:
            raise ValueError(f"R2={given!r} is below max ||x_t||^2 = {r2!r} over the rows: "
                             "a_k = c R^2 k takes R >= every ||x_t|| (paper 003, Theorem 3)")
        return given
    if previous is not None:
        r2 = max(r2, previous.state["R"] ** 2)
    if r2 <= 0.0:
        raise ValueError("variant='adaptive' needs R = max ||x_t|| > 0, but every row of X is 0")
    return r2


def _max_supports(params) -> int:
    """The most supports whose k x k matrices (:data:`MATRICES`) fit the budget."""
    return max_supports(MATRICES[params["variant"]], params["memory_budget"])


def _check_dual_stop(stop: int, k: int, params) -> None:
    """The one-line ``ValueError`` of a dual loop stopped at trial ``stop`` (-1: it did not)."""
    check_dual_stop(stop, k, MATRICES[params["variant"]], params["memory_budget"])


def _fit_inverse(data, order, params, margins, previous):
    """Fixed a (Fig. 3): primal inverse with Sherman-Morrison or dual partitioned inverse."""
    a = params["a"]
    record = margins.shape[0] > 0
    if params["form"] == "primal":
        n = data.n_features
        if previous is None:
            a_inv, w = np.eye(n) / a, np.zeros(n)
        else:
            a_inv = np.array(previous.hypothesis.a_inv)
            w = np.array(previous.hypothesis.weights)
        pending = np.zeros(n)  # the last mistake's z / sqrt(d), not yet subtracted from a_inv
        trials, _, _, _ = _so_inverse_primal_loop(
            rows(data.X), data.y, order, (a_inv, w, np.zeros(n), np.empty(n), pending),
            (record,), margins)
        apply_pending(a_inv, pending, 1.0, n)
        return LoopResult(trials, SecondOrderHypothesis(w, a_inv))
    kernel = kernel_of(params)
    src, st, k = kernel_engine(data.X, order, kernel, support_set(previous))
    m_inv = np.zeros((16, 16)) if previous is None else square_buffer(previous.hypothesis.m_inv)
    g, u, pending = (np.zeros(capacity(k + 1)) for _ in range(3))
    trials, _, (_, _, _, st, alpha, m_inv, _, _, pending, k), stop = _so_inverse_dual_loop(
        src, data.y, engine_order(src), (),
        (record, a, _max_supports(params), st, dual_buffer(previous), m_inv, g, u, pending, k),
        margins)
    _check_dual_stop(stop, k, params)
    apply_pending(m_inv, pending, -1.0, k)  # m_inv[:k, :k] still lacks + pending pending^T
    hypothesis = SecondOrderKernelHypothesis(engine_supports(st, k), alpha[:k].copy(), kernel,
                                             m_inv[:k, :k].copy(), a)
    return LoopResult(trials, hypothesis)


def _fit_adaptive(data, order, params, margins, previous):
    """a_k = c R^2 k (Fig. 4): a fresh Cholesky factor of a_k I + X_k X_k^T (or G_k) per mistake.

    In exact arithmetic a_k I + X_k X_k^T is positive definite; in float64 a shift
    a_k below the rounding of X_k X_k^T (c under about 1e-16 times n) is lost, the
    matrix is singular and the run a one-line ``ValueError`` naming c (nothing of a
    warm start's ``previous`` is changed: the loop works on copies).
    """
    kernel = kernel_of(params)
    kdiag = kernel.diagonal(data.X)
    r2 = _squared_radius(kdiag, previous, params["R2"])
    c_r2 = params["c"] * r2
    k0 = 0 if previous is None else previous.state["k"]
    k_max = k0 + order.shape[0] + 1
    if not np.isfinite(c_r2 * k_max):
        raise ValueError(
            f"c={params['c']!r} is too large for this data: a_k = c R^2 k overflows float64 "
            f"(R^2 = {r2:g}, k up to {k_max})"
        )
    try:
        return _run_adaptive(data, order, kernel, r2, c_r2, k0, params, margins, previous)
    except np.linalg.LinAlgError:
        raise ValueError(
            f"c={params['c']!r} is too small for this data: a_k I + X_k X_k^T with "
            f"a_k = c R^2 k (R^2 = {r2:g}) is singular in float64, the shift lost against "
            "the rows' products; use a larger c") from None


def _run_adaptive(data, order, kernel, r2, c_r2, k0, params, margins, previous):
    """:func:`_fit_adaptive`'s run, its parameters checked."""
    record = margins.shape[0] > 0
    if params["form"] == "primal":
        n = data.n_features
        if previous is None:
            corr, v = np.zeros((n, n)), np.zeros(n)
        else:
            corr, v = np.array(previous.state["correlation"]), np.array(previous.state["v"])
        w, tmp = np.empty(n), np.empty(n)
        L = shifted_cholesky(corr, n, c_r2 * (k0 + 1))
        cholesky_solve(L, v, n, tmp, w)
        trials, _, _, _ = _so_adaptive_primal_loop(
            rows(data.X), data.y, order, (corr, v, w, np.zeros(n), tmp), (record, c_r2, k0, L),
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
        tmp, alpha = np.zeros(capacity(k + 1)), np.zeros(capacity(k + 1))
        L = shifted_cholesky(gram, k, c_r2 * (k + 1))
        cholesky_solve(L, ys, k, tmp, alpha)
        trials, _, (_, _, _, st, ys, gram, _, _, _, _, k), stop = _so_adaptive_dual_loop(
            src, data.y, engine_order(src), (),
            (record, c_r2, _max_supports(params), st, ys, gram, np.empty(0), tmp, alpha, L, k),
            margins)
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


_FITS = FITS  # the pseudoinverse's fit is added by second_order_pinv
_FITS.update(inverse=_fit_inverse, adaptive=_fit_adaptive)


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
    r2 = None if params["R2"] is None else check_real("R2", params["R2"], low=0.0,
                                                      include_low=False)
    span_tol = check_real("span_tol", params["span_tol"], low=0.0, high=1.0, include_low=False,
                          include_high=False)
    variant = check_choice("variant", params["variant"], VARIANTS)
    budget = check_memory_budget(params["memory_budget"])
    form = check_form(params["form"], ("primal", "dual"))
    matrices = MATRICES[variant]
    fits = dense_matrices_fit(data.n_features, matrices, budget)
    if form == "auto" and params["kernel"] == "linear":
        form = "primal" if fits and data.n_features <= data.n_samples else "dual"
    if form == "primal" and not fits:
        raise ValueError(over_budget("primal", data.n_features, matrices, budget, "form='dual'"))
    resolved = resolve_kernel_form({**params, "form": form}, data)
    return {"a": a, "variant": variant, "c": c, "R2": r2, "span_tol": span_tol,
            "memory_budget": budget, **resolved}


SECOND_ORDER = register(
    Algorithm(
        name="second_order",
        estimator="SecondOrderPerceptron",
        defaults={"a": 1.0, "variant": "inverse", "c": 1.0, "R2": None, "span_tol": 1e-9,
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
