"""The spectra of the mistakes that the Second-Order family's bounds read (theory §4.1).

* the eigenvalues of X_m X_m^T, X_m the mistaken (or update) instances
  (:func:`mistake_spectrum`: the Second-Order, AROW and selective bounds);
* for the pseudoinverse bound, the mistakes as the run used them, in a basis of
  their span (:func:`span_coordinates`), with lambda* = the smallest positive
  eigenvalue over every X_k X_k^T of the run (:func:`span_spectrum`).

Kernel runs use the kernel Gram of the mistakes.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.sparse as sp

from .._interrupt import interruptible, stop_requested
from .._jit import CONTIGUOUS, jit, row_kind
from .._linalg import dot, row_dense, rows, span_residual
from ..kernels import kernel_value, row_scatter, scattered_kernel_value

# Relative squared distance below which a mistaken instance counts as inside
# the span of the earlier ones (the rank decision of the lambda* scan).
SPAN_RTOL = 1e-10


def mistake_spectrum(Xm, kernel) -> np.ndarray:
    """Eigenvalues of X_m X_m^T, ascending, negatives from rounding set to 0.

    One LAPACK eigendecomposition (``scipy.linalg.eigvalsh``) of the smaller
    of X_m^T X_m (n x n, linear kernel only) and the m x m Gram of the
    mistakes (kernel Gram for kernel runs); both have the same nonzero
    eigenvalues (paper 003 sec. 3).
    """
    m, n = Xm.shape
    if m == 0:
        return np.zeros(0)
    if kernel.is_linear and n < m:
        C = Xm.T @ Xm
        C = C.toarray() if sp.issparse(C) else C
    else:
        C = kernel.gram(Xm, Xm)
    return gram_spectrum(C)


def gram_spectrum(C) -> np.ndarray:
    """Eigenvalues of the symmetric PSD matrix C (X_m^T X_m or a Gram matrix), ascending,
    negatives from rounding set to 0 (one LAPACK ``eigvalsh``)."""
    lam = scipy.linalg.eigvalsh(np.asarray(C, dtype=np.float64), check_finite=False)
    return np.maximum(lam, 0.0)


def _mistake_kernel(Xm, work, p, k, code, degree, gamma, coef0):
    """K(x_p, x_k) for rows of dense Xm, or of CSR Xm with x_k scattered in ``work``."""
    return (_csr_mistake_kernel if isinstance(Xm, tuple) else _dense_mistake_kernel)(
        Xm, work, p, k, code, degree, gamma, coef0)


def _dense_mistake_kernel(Xm, work, p, k, code, degree, gamma, coef0):
    return kernel_value(Xm[p], Xm[k], code, degree, gamma, coef0)


def _csr_mistake_kernel(Xm, work, p, k, code, degree, gamma, coef0):
    data, indices, indptr = Xm
    return scattered_kernel_value(data, indices, indptr[k], indptr[k + 1], work, indptr[p],
                                  indptr[p + 1], code, degree, gamma, coef0)


# The CSR body sums nothing itself (scattered_kernel_value does).
row_kind(_mistake_kernel, _dense_mistake_kernel, _csr_mistake_kernel, csr_fastmath=CONTIGUOUS)


@jit
def _span_loop(Xm, work, code, degree, gamma, coef0, rtol, forced, L, pivots, rises):
    """Ordered incremental Cholesky of the mistakes' Gram with rank detection.

    Row k of L gets the coordinates of mistake k in an orthonormal basis of the
    span of the mistakes up to k. Mistake k raises the rank when its squared
    distance to the span of the earlier ones exceeds rtol K(x_k, x_k), or, when
    ``forced`` is 1, exactly where rises[k] is already 1 (the run's own
    decisions). Sets rises[k] = 1 at every rise and returns the final rank.
    The mistakes are the rows of dense Xm or of CSR Xm (kept sparse,
    :func:`perceptron_bounds._linalg.rows`).
    """
    m = L.shape[0]
    r = 0
    for k in range(m):
        if stop_requested(k):  # Ctrl-C: the caller raises KeyboardInterrupt
            break
        row_scatter(Xm, k, work, 1.0)
        kk = _mistake_kernel(Xm, work, k, k, code, degree, gamma, coef0)
        rest = kk
        for j in range(r):
            p = pivots[j]
            s = _mistake_kernel(Xm, work, p, k, code, degree, gamma, coef0)
            for i in range(j):
                s -= L[k, i] * L[p, i]
            L[k, j] = s / L[p, j]
            rest -= L[k, j] * L[k, j]
        if forced == 1:
            rise = rises[k] == 1
        else:
            rise = kk > 0.0 and rest > rtol * kk
        if rise and r < L.shape[1]:
            L[k, r] = np.sqrt(max(rest, 0.0))
            pivots[r] = k
            rises[k] = 1
            r += 1
        else:
            rises[k] = 0
        row_scatter(Xm, k, work, 0.0)
    return r


@jit
def _primal_span_loop(Xm, scratch, rtol, forced, L, pivots, rises, Q, e, p, p2):
    """:func:`_span_loop` in the primal pseudoinverse run's own arithmetic (linear kernel):
    the coordinates of mistake k on the orthonormal rows Q of the basis so far, and its
    squared distance to their span, by Gram-Schmidt applied twice on the instance itself
    (``span_residual``, as the run computes them), not from the Gram's Cholesky factor.

    A rise forced where the distance is 0 keeps a zero pivot (and a zero row of Q), which
    the caller reports. The mistakes are the rows of dense Xm or of CSR Xm.
    """
    m = L.shape[0]
    n = Q.shape[1]
    r = np.int64(0)  # not the literal 0, which span_residual would compile for apart
    for k in range(m):
        if stop_requested(k):  # Ctrl-C: the caller raises KeyboardInterrupt
            break
        x = row_dense(Xm, k, scratch)
        e2 = span_residual(Q, r, x, e, p, p2)
        for j in range(r):
            L[k, j] = p[j]
        if forced == 1:
            rise = rises[k] == 1
        else:
            rise = e2 > rtol * dot(x, x, n)
        if rise and r < L.shape[1]:
            eta = np.sqrt(max(e2, 0.0))
            L[k, r] = eta
            for q in range(n):
                Q[r, q] = e[q] / eta if eta > 0.0 else 0.0
            pivots[r] = k
            rises[k] = 1
            r += 1
        else:
            rises[k] = 0
    return r


@interruptible()
def span_coordinates(Xm, kernel, rtol=SPAN_RTOL, rank_growth=None, primal=False):
    """Coordinates of the mistakes, as the pseudoinverse run used them, in a basis of their span.

    Parameters
    ----------
    Xm : ndarray or sparse matrix of shape (m, n)
        The mistaken instances in the order of the run.
    kernel : Kernel
    rtol : float, default=SPAN_RTOL
        A mistake whose squared distance to the span of the earlier ones is at
        most ``rtol`` K(x, x) is inside that span.
    rank_growth : array of int, optional
        Indices (0-based, among the mistakes) where the run itself found the
        instance outside the span (``run.state["rank_growth"]`` of a
        pseudoinverse run); used instead of ``rtol`` so that the rank follows
        the run's decisions.
    primal : bool, default=False
        Compute as a primal run does (linear kernel only): each mistake's coordinates and
        squared distance to the span by Gram-Schmidt applied twice on the instance, against
        an orthonormal basis kept explicitly (r x n). Otherwise from an incremental Cholesky
        factor of the mistakes' Gram (kernel values only, as a dual run does), whose
        distances K(x, x) - ||p||^2 lose accuracy as the Gram's condition number grows: on
        MNIST 9 vs rest (span_tol 1e-9, rank 712) they were off by 6e-6 at mistake 792,
        whose distance is 3.7e-6, so that a rise of the primal run read as a zero pivot.

    Returns
    -------
    L : ndarray of shape (m, r)
        Row k holds the coordinates of the projected mistake x~_k (theory §4.1:
        x_k itself where the rank rises, its projection on the span of the
        earlier mistakes elsewhere) in an orthonormal basis of the span; r is the rank.
    pivots : ndarray of int64, shape (r,)
        The mistakes that raised the rank: ``L[pivots]`` is lower triangular, the
        Cholesky factor of their Gram matrix.
    rises : ndarray of int64, shape (m,)
        1 where mistake k raised the rank, else 0.
    """
    # CSR stays CSR (the kernel values come from the sparse rows): m x n dense is GBs when wide.
    Xm = sp.csr_matrix(Xm, dtype=np.float64) if sp.issparse(Xm) else np.ascontiguousarray(
        Xm, dtype=np.float64)
    m, n = Xm.shape
    width = max(min(m, n) if kernel.is_linear else m, 1)
    L = np.zeros((m, width))
    pivots = np.zeros(width, dtype=np.int64)
    rises = np.zeros(m, dtype=np.int64)
    forced = 0
    if rank_growth is not None:
        rises[np.asarray(rank_growth, dtype=np.int64)] = 1
        forced = 1
    if primal:
        if not kernel.is_linear:
            raise ValueError("primal coordinates need the linear kernel, got "
                             f"{kernel.name}")
        rank = _primal_span_loop(rows(Xm), np.zeros(n), float(rtol), forced, L, pivots, rises,
                                 np.zeros((width, n)), *(np.empty(w) for w in (n, width, width)))
        return L[:, :rank], pivots[:rank], rises
    work = np.zeros(n if sp.issparse(Xm) else 0)
    rank = _span_loop(rows(Xm), work, *kernel.loop_args(), float(rtol), forced, L,
                      pivots, rises)
    return L[:, :rank], pivots[:rank], rises


def projected_values(f_basis, L_basis, basis, X, rows, ranks, kernel) -> np.ndarray:
    """f(x~_t) = <f, P_t x_t> on each trial, P_t the projection on the first ``ranks[t]``
    basis directions of a pseudoinverse run (theory §4.1).

    Parameters
    ----------
    f_basis : ndarray of shape (r,)
        f at the basis instances (the mistakes that raised the rank, in order).
    L_basis : ndarray of shape (r, r)
        Lower Cholesky factor of their Gram matrix (``L[pivots]`` of :func:`span_coordinates`).
    basis : ndarray or sparse matrix of shape (r, n)
        The basis instances.
    X : ndarray or sparse matrix
        The rows of the run; ``rows[t]`` is shown at trial t.
    rows, ranks : ndarray of int64
        Row and number of basis directions in force on each trial.
    kernel : Kernel

    Returns
    -------
    ndarray
        sum_{j < ranks[t]} c_j p_j(x_t), with c = L^{-1} f(B) the coordinates of f and
        p(x) = L^{-1} K(B, x) those of x (0 where ranks[t] = 0).
    """
    out = np.zeros(rows.shape[0])
    r = L_basis.shape[0]
    if r == 0:
        return out
    coef = scipy.linalg.solve_triangular(L_basis, f_basis, lower=True, check_finite=False)
    unique, where = np.unique(rows, return_inverse=True)
    step = max(1, 2**22 // r)  # at most 32 MiB of coordinates at a time
    for start in range(0, unique.shape[0], step):
        chunk = unique[start:start + step]
        coords = scipy.linalg.solve_triangular(L_basis, kernel.gram(basis, X[chunk]),
                                               lower=True, check_finite=False)
        partial = np.concatenate((np.zeros((1, chunk.shape[0])),
                                  np.cumsum(coef[:, None] * coords, axis=0)))
        sel = (where >= start) & (where < start + chunk.shape[0])
        out[sel] = partial[ranks[sel], where[sel] - start]
    return out


@interruptible()
def span_spectrum(Xm, kernel, rtol=SPAN_RTOL, rank_growth=None, primal=False):
    """Positive eigenvalues of X~_m X~_m^T and lambda* of the pseudoinverse bound.

    X~_m holds the mistakes as the run used them (:func:`span_coordinates`,
    theory §4.1): an instance found inside the span enters as its projection.

    Parameters
    ----------
    Xm, kernel, rtol, rank_growth, primal
        As for :func:`span_coordinates`.

    Returns
    -------
    eigenvalues : ndarray
        The r positive eigenvalues of X_m X_m^T (r = rank), ascending.
    lambda_star : float
        min over k = 1..m of the smallest positive eigenvalue of X_k X_k^T
        (paper 003, Thm 4); inf when the rank is 0.

    Notes
    -----
    The coordinates of the mistakes in an orthonormal basis of their span come
    from one ordered incremental Cholesky pass (O(m r^2) kernel values, no
    eigendecomposition per mistake). lambda* needs the singular values of the
    coordinates (:func:`coordinate_spectrum`) only at the last mistake of each
    run of consecutive rank increases: while the
    rank stays, X_k X_k^T grows by a PSD term inside its range, so its positive
    eigenvalues do not decrease (Weyl); a rank increase is a rank-one update of
    the embedded matrix, so its smallest positive eigenvalue does not increase
    (interlacing).
    """
    L, _, rises = span_coordinates(Xm, kernel, rtol, rank_growth, primal)
    return coordinate_spectrum(L, rises)


def coordinate_spectrum(L, rises):
    """(positive eigenvalues, lambda*) of the mistakes whose coordinates are the rows of L, the
    rank rising where ``rises`` is 1 (:func:`span_coordinates`; see :func:`span_spectrum`).

    The eigenvalues of X~_k X~_k^T = L_k L_k^T are the squared singular values of L_k, read
    from a triangular factor R (R^T R = L_k^T L_k) updated by QR as the rows come: a singular
    value is exact to about machine precision of the largest, so an eigenvalue to about
    machine precision of sqrt(lambda_max lambda), not of lambda_max as an eigendecomposition
    of L_k^T L_k gives it. On MNIST 10-class class 1 (span_tol 1e-9, rank 586) lambda* is
    1.2e-14 against lambda_max 269: an eigendecomposition of L_k^T L_k put it at or below 0,
    the bound infinite, though no positive eigenvalue of a pseudoinverse run is 0.
    """
    m, rank = L.shape
    if rank == 0:
        return np.zeros(0), np.inf
    lambda_star = np.inf
    R = np.zeros((0, 0))
    done = 0
    r = 0
    for k in range(m - 1):  # the last mistake's matrix is decomposed in full below
        r += rises[k]
        if rises[k] and not rises[k + 1]:
            R = _stacked_factor(R, L[done:k + 1, :r])
            done = k + 1
            lambda_star = min(lambda_star, float(scipy.linalg.svdvals(
                R, check_finite=False)[-1]) ** 2)
    R = _stacked_factor(R, L[done:])
    eigenvalues = scipy.linalg.svdvals(R, check_finite=False)[::-1] ** 2
    # X_m X_m^T is a candidate too; when the run did not end on a rank increase its smallest
    # eigenvalue is no smaller than the last candidate's, so taking it changes nothing.
    return eigenvalues, min(lambda_star, float(eigenvalues[0]))


def _stacked_factor(R, block):
    """Upper triangular factor F (r x r, r = block's columns) of [R 0; block] by QR, so that
    F^T F = R^T R + block^T block (R square, of at most r columns; the rows of a pseudoinverse
    run's first r basis directions span them all)."""
    r = block.shape[1]
    stacked = np.zeros((R.shape[0] + block.shape[0], r))
    stacked[:R.shape[0], :R.shape[1]] = R
    stacked[R.shape[0]:] = block
    factor = scipy.linalg.qr(stacked, mode="r", check_finite=False)[0]
    return factor[:r]


def update_spectrum(ctx) -> np.ndarray:
    """Eigenvalues of X_A X_A^T over the update trials A of ``ctx``'s run
    (:func:`mistake_spectrum`), computed once per run for every comparator and variant (the
    AROW and selective bounds)."""
    return ctx.cached("update_spectrum",
                      lambda: mistake_spectrum(ctx.X[ctx.rows_updates], ctx.kernel))
