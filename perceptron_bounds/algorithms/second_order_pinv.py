"""The Second-Order Perceptron with the pseudoinverse, ``variant="pinv"`` (theory §2.4).

Paper 003, Fig. 5: margin_t = v_k^T (S_t S_t^T)^+ x_t, with S_t = [X_k, x_t]
the k mistaken instances so far and the current one, and v_k = sum of y_i x_i
over the mistakes; the margin is exactly 0 when x_t is outside the span of
the past mistakes (sec. 4.2, Theorem 4). A trial is a mistake iff
y_t margin_t <= 0 (theory §1.1).

The span of the mistakes is kept as an orthonormal basis (primal: explicit
rows Q with twice-applied Gram-Schmidt; dual: basis mistakes B with the
inverse Cholesky factor L^{-1} of their Gram, so the coordinates of x are
p = L^{-1} K(B, x)). In coordinates the correlation C = sum_i p_i p_i^T is
positive definite and its inverse is kept by Sherman-Morrison. "Outside the
span" means ||x_perp||^2 > span_tol ||x||^2 (squared norms in the kernel's
feature space); then the margin is 0 and a new basis direction e / ||e|| is
added, for which C^{-1} grows in O(r) (the old block is unchanged).

:mod:`perceptron_bounds.algorithms.second_order` registers the algorithm and
runs this variant through ``fit_pinv`` (added to
``second_order_rules.FITS``); the update rules are in
:mod:`perceptron_bounds.algorithms.second_order_rules`.

References
----------
N. Cesa-Bianchi, A. Conconi and C. Gentile, "A second-order Perceptron
algorithm", SIAM J. Computing 34 (2005) (paper 003): Fig. 5 and Theorem 4.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._linalg import capacity, rows, rows_buffer, square_buffer
from ..hypothesis import kernel_scores, primal_vectors
from ..kernel_engine import engine_order, engine_supports, kernel_engine
from ..kernels import Kernel, kernel_of, rowwise_dot
from ..registry import LoopResult, register_hypothesis
from ._common import check_dual_stop, max_supports, support_set
from .second_order_rules import FITS, MATRICES, pinv_dual_loop, pinv_primal_loop

#: The matrices the pseudoinverse keeps: the basis Q (at most n rows) and C^{-1} in the primal
#: form; L^{-1} and C^{-1} of the basis (k x k, k the supports) in the dual form.
PINV_MATRICES = MATRICES["pinv"]


def fit_pinv(data, order, params, margins, previous) -> LoopResult:
    """Pseudoinverse (Fig. 5): an orthonormal basis of the mistakes' span and C^{-1} in it."""
    tol = params["span_tol"]
    kernel = kernel_of(params)
    h = None if previous is None else previous.hypothesis
    n = data.n_features
    record = margins.shape[0] > 0
    grew = np.zeros(order.shape[0], dtype=np.int64)  # per mistake: 1 if it grew the rank
    wc = np.empty(16) if h is None else rows_buffer(h.coords)
    c_inv = np.zeros((16, 16)) if h is None else square_buffer(h.c_inv)
    if params["form"] == "primal":
        r = 0 if h is None else h.basis.shape[0]
        basis = np.empty((16, n)) if h is None else rows_buffer(h.basis)
        # w as the loop kept it (``state["w"]``), not Q^T wc (rounded apart)
        w = np.zeros(n) if h is None else np.array(previous.state.get("w", h.weights))
        work = (np.zeros(n), *(np.empty(n) for _ in range(4)))
        trials, _, (_, _, basis, wc, c_inv, r), _ = pinv_primal_loop(
            rows(data.X), data.y, order, (w, *work, grew), (record, tol, basis, wc, c_inv, r),
            margins)
        basis, transform = basis[:r].copy(), None
        extra = {"w": w}
    else:
        src, st, r = kernel_engine(data.X, order, kernel, support_set(previous))
        l_inv = np.zeros((16, 16)) if h is None else square_buffer(h.transform)
        budget = params["memory_budget"]
        g, p, zc = (np.zeros(capacity(r + 1)) for _ in range(3))
        trials, _, (_, _, _, st, wc, l_inv, c_inv, _, _, _, r), stop = pinv_dual_loop(
            src, data.y, engine_order(src), (grew,),
            (record, tol, max_supports(PINV_MATRICES, budget), st, wc, l_inv, c_inv, g, p, zc, r),
            margins)
        check_dual_stop(stop, r, PINV_MATRICES, budget)
        basis, transform = engine_supports(st, r), l_inv[:r, :r].copy()
        extra = {}
    hypothesis = PseudoinverseHypothesis(
        basis, transform, c_inv[:r, :r].copy(), wc[:r].copy(), kernel, tol
    )
    grew = grew[:trials.shape[0]]
    state = {"rank": int(r), "rank_growth": np.flatnonzero(grew).astype(np.int64), **extra}
    return LoopResult(trials, hypothesis, state=state)


FITS["pinv"] = fit_pinv


@register_hypothesis
@dataclass(frozen=True, eq=False)
class PseudoinverseHypothesis:
    """Final Second-Order Perceptron with the pseudoinverse (paper 003, Fig. 5).

    The span of the mistaken instances has an orthonormal basis Q (in the
    kernel's feature space); the coordinates of x are p = ``transform`` K(``basis``, x)
    (primal: ``transform`` is None and ``basis`` holds Q itself, so p = Q x).
    ``c_inv`` is the inverse of C = sum over mistakes of p_i p_i^T and
    ``coords`` = c_inv Q^T v. ``decision_function`` returns the margin of x as
    the next trial, v^T (X_m X_m^T + x x^T)^+ x: 0 when x is outside the span
    (||x||^2 - ||p||^2 > span_tol ||x||^2), else
    (coords . p) / (1 + p^T c_inv p).
    """

    basis: np.ndarray
    transform: np.ndarray | None
    c_inv: np.ndarray
    coords: np.ndarray
    kernel: Kernel
    span_tol: float

    @property
    def dual_coef(self) -> np.ndarray | None:
        """beta with w = sum_i beta_i basis_i (dual form only; None in the primal form)."""
        return None if self.transform is None else self.transform.T @ self.coords

    @property
    def support_vectors(self):
        """The mistakes that grew the span (dual form only; None in the primal form)."""
        return None if self.transform is None else self.basis

    @property
    def weights(self) -> np.ndarray | None:
        """w = (X_m X_m^T)^+ v, an ndarray (linear kernel only)."""
        if not self.kernel.is_linear:
            return None
        beta = self.coords if self.transform is None else self.dual_coef
        return primal_vectors(beta, self.basis)

    def decision_function(self, X) -> np.ndarray:
        return kernel_scores(X, self.basis, self.kernel, self._gram_scorer(X), np.empty(X.shape[0]))

    def _gram_scorer(self, X):
        """(G, rows) -> the margins of X[rows] from G = K(X[rows], basis) (see KernelHypothesis)."""

        def score(G, rows):
            P = G if self.transform is None else G @ self.transform.T
            sq = self.kernel.diagonal(X[rows])
            inside = sq - rowwise_dot(P, P) <= self.span_tol * sq
            margin = (P @ self.coords) / (1.0 + rowwise_dot(P @ self.c_inv, P))
            return np.where(inside, margin, 0.0)

        return score
