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
runs this variant through ``fit_pinv``.

References
----------
N. Cesa-Bianchi, A. Conconi and C. Gentile, "A second-order Perceptron
algorithm", SIAM J. Computing 34 (2005) (paper 003): Fig. 5 and Theorem 4.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._interrupt import stop_requested
from .._jit import jit
from .._linalg import (
    append_row,
    dot,
    grow_square,
    grow_square_within,
    grow_vector,
    rank_one_downdate,
    row_dense,
    rows,
    rows_buffer,
    square_buffer,
    sym_matvec,
)
from ..hypothesis import kernel_scores, primal_vectors
from ..kernel_engine import (
    engine_append,
    engine_diag,
    engine_order,
    engine_row,
    engine_supports,
    kernel_engine,
)
from ..kernels import Kernel, kernel_of, rowwise_dot
from ..registry import LoopResult, register_hypothesis
from ._common import check_dual_stop, max_supports, support_set

#: The matrices the pseudoinverse keeps: the basis Q (at most n rows) and C^{-1} in the primal
#: form; L^{-1} and C^{-1} of the basis (k x k, k the supports) in the dual form.
PINV_MATRICES = 2


@jit
def _coordinates_update(c_inv, wc, p, r, s, yi, zc):
    """In-span mistake in coordinates: Sherman-Morrison on c_inv and wc = c_inv v_c.

    Returns (y - s) / (1 + p . c_inv p), with zc = c_inv p (old c_inv) left in ``zc``.
    """
    sym_matvec(c_inv, p, r, zc)
    d = 1.0 + dot(p, zc, r)
    rank_one_downdate(c_inv, zc, d, r)
    c = (yi - s) / d
    for j in range(r):
        wc[j] += c * zc[j]
    return c


@jit
def _coordinates_grow(c_inv, p, r, eta, zc):
    """c_inv for one more basis direction, the mistake having coordinates (p, eta).

    [[C + p p^T, eta p], [eta p^T, eta^2]]^{-1} = [[C^{-1}, -z/eta], [-z^T/eta, (1 + p.z)/eta^2]]
    with z = C^{-1} p: the old block is unchanged.
    """
    sym_matvec(c_inv, p, r, zc)
    d = 1.0 + dot(p, zc, r)
    c_inv = grow_square(c_inv, r)
    for j in range(r):
        c_inv[j, r] = -zc[j] / eta
        c_inv[r, j] = -zc[j] / eta
    c_inv[r, r] = d / (eta * eta)
    return c_inv


@jit
def _so_pinv_primal_loop(X, y, order, span_tol, Q, wc, c_inv, r, w, margins):
    """Primal SO with the pseudoinverse, Q[:r] an orthonormal basis of the mistakes' span.

    Returns (mistake trials, rank-growth flags per mistake, Q, wc, c_inv, r);
    ``w`` = Q^T wc is updated in place.
    """
    n_trials = order.shape[0]
    n = w.shape[0]
    record = margins.shape[0] > 0
    scratch = np.zeros(n)
    e = np.empty(n)
    p = np.empty(n)
    p2 = np.empty(n)
    zc = np.empty(n)
    mistakes = np.empty(n_trials, dtype=np.int64)
    grew = np.zeros(n_trials, dtype=np.int64)
    m = 0
    for t in range(n_trials):
        if stop_requested(t):  # Ctrl-C: return trials 0..t-1
            break
        i = order[t]
        x = row_dense(X, i, scratch)
        s = dot(w, x, n)
        full = r == n
        if full and not record and y[i] * s > 0.0:
            continue
        # Coordinates p = Q x and residual e = x - Q^T p (Gram-Schmidt applied twice).
        e[:] = x
        for j in range(r):
            p[j] = 0.0
        for _ in range(2):
            for j in range(r):
                p2[j] = dot(Q[j], e, n)
                p[j] += p2[j]
            for j in range(r):
                c = p2[j]
                for q in range(n):
                    e[q] -= c * Q[j, q]
        e2 = dot(e, e, n)
        in_span = full or e2 <= span_tol * dot(x, x, n)
        if in_span:
            if record:
                sym_matvec(c_inv, p, r, zc)
                margins[t] = s / (1.0 + dot(p, zc, r))
            if y[i] * s <= 0.0:
                c = _coordinates_update(c_inv, wc, p, r, s, y[i], zc)
                for j in range(r):
                    cj = c * zc[j]
                    for q in range(n):
                        w[q] += cj * Q[j, q]
                mistakes[m] = t
                m += 1
        else:
            if record:
                margins[t] = 0.0
            eta = np.sqrt(e2)
            c_inv = _coordinates_grow(c_inv, p, r, eta, zc)
            c = (y[i] - s) / eta
            for q in range(n):
                e[q] /= eta
                w[q] += c * e[q]
            Q = append_row(Q, r, e)
            wc = grow_vector(wc, r)
            wc[r] = c
            r += 1
            grew[m] = 1
            mistakes[m] = t
            m += 1
    return mistakes[:m].copy(), grew[:m].copy(), Q, wc, c_inv, r


@jit
def _so_pinv_dual_loop(src, st, r, y, span_tol, wc, l_inv, c_inv, max_k, margins):
    """Dual SO with the pseudoinverse over the engine's r supports, the basis mistakes b_j.

    ``l_inv`` is the inverse Cholesky factor of the Gram of b_0, ..., b_{r-1};
    the coordinates of x are p = l_inv K(B, x), the kernel values coming from
    the kernel-row engine (``src``, ``st``). Stops at a rank increase that
    would make more than ``max_k`` supports. Returns (mistake trials,
    rank-growth flags per mistake, engine state, wc, l_inv, c_inv, r, the trial
    it stopped at or -1).
    """
    order = engine_order(src)
    n_trials = order.shape[0]
    record = margins.shape[0] > 0
    g = np.empty(0)
    p = np.empty(0)
    zc = np.empty(0)
    mistakes = np.empty(n_trials, dtype=np.int64)
    grew = np.zeros(n_trials, dtype=np.int64)
    m = 0
    stop = -1
    for t in range(n_trials):
        if stop_requested(t):  # Ctrl-C: return trials 0..t-1
            break
        i = order[t]
        g = grow_vector(g, r)
        p = grow_vector(p, r)
        zc = grow_vector(zc, r)
        st = engine_row(src, st, t, r, g)
        for j in range(r):
            s = 0.0
            for q in range(j + 1):
                s += l_inv[j, q] * g[q]
            p[j] = s
        s = dot(wc, p, r)
        kxx = engine_diag(src, i)
        e2 = kxx - dot(p, p, r)
        if e2 <= span_tol * kxx:
            if record:
                sym_matvec(c_inv, p, r, zc)
                margins[t] = s / (1.0 + dot(p, zc, r))
            if y[i] * s <= 0.0:
                _coordinates_update(c_inv, wc, p, r, s, y[i], zc)
                mistakes[m] = t
                m += 1
        else:
            if r >= max_k:
                stop = t
                break
            if record:
                margins[t] = 0.0
            eta = np.sqrt(e2)
            c_inv = _coordinates_grow(grow_square_within(c_inv, r, max_k), p, r, eta, zc)
            # Cholesky of the basis Gram gains the row (p^T, eta): invert it by rows.
            l_inv = grow_square_within(l_inv, r, max_k)
            for q in range(r):
                s2 = 0.0
                for j in range(q, r):
                    s2 += p[j] * l_inv[j, q]
                l_inv[r, q] = -s2 / eta
            l_inv[r, r] = 1.0 / eta
            st = engine_append(src, st, t, r)
            wc = grow_vector(wc, r)
            wc[r] = (y[i] - s) / eta
            r += 1
            grew[m] = 1
            mistakes[m] = t
            m += 1
    return mistakes[:m].copy(), grew[:m].copy(), st, wc, l_inv, c_inv, r, stop


def fit_pinv(data, order, params, margins, previous) -> LoopResult:
    """Pseudoinverse (Fig. 5): an orthonormal basis of the mistakes' span and C^{-1} in it."""
    tol = params["span_tol"]
    kernel = kernel_of(params)
    h = None if previous is None else previous.hypothesis
    n = data.n_features
    wc = np.empty(16) if h is None else rows_buffer(h.coords)
    c_inv = np.zeros((16, 16)) if h is None else square_buffer(h.c_inv)
    if params["form"] == "primal":
        r = 0 if h is None else h.basis.shape[0]
        basis = np.empty((16, n)) if h is None else rows_buffer(h.basis)
        w = np.zeros(n) if h is None else np.array(h.weights)
        trials, grew, basis, wc, c_inv, r = _so_pinv_primal_loop(
            rows(data.X), data.y, order, tol, basis, wc, c_inv, r, w, margins
        )
        basis, transform = basis[:r].copy(), None
    else:
        src, st, r = kernel_engine(data.X, order, kernel, support_set(previous))
        l_inv = np.zeros((16, 16)) if h is None else square_buffer(h.transform)
        trials, grew, st, wc, l_inv, c_inv, r, stop = _so_pinv_dual_loop(
            src, st, r, data.y, tol, wc, l_inv, c_inv,
            max_supports(PINV_MATRICES, params["memory_budget"]), margins
        )
        check_dual_stop(stop, r, PINV_MATRICES, params["memory_budget"])
        basis, transform = engine_supports(st, r), l_inv[:r, :r].copy()
    hypothesis = PseudoinverseHypothesis(
        basis, transform, c_inv[:r, :r].copy(), wc[:r].copy(), kernel, tol
    )
    state = {"rank": int(r), "rank_growth": np.flatnonzero(grew).astype(np.int64)}
    return LoopResult(trials, hypothesis, state=state)


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
