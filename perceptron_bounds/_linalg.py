"""Generic jitted numerics shared by every algorithm's loops.

One home for what the loops have in common: dot products and axpy over dense
rows or CSR rows, symmetric matrix products, buffer growth, and the prefetch
hint for the rows of upcoming trials (triangular solves and Cholesky factors are
in ``_triangular``). Algorithm modules hold their own update rules and nothing
generic.

Conventions
-----------
* **Rows.** A loop takes its rows X as a 2-D array or as the CSR tuple
  ``(data, indices, indptr)`` (:func:`rows`) and reads them only through the
  row-access helpers (:func:`row_dot`, :func:`row_axpy`, :func:`row_sq_norm`,
  :func:`row_dense`, ...), whose dense or CSR body Numba picks by X's type
  when the loop compiles (:func:`perceptron_bounds._jit.row_kind`): an update
  rule is written once and compiles once per input kind. A dense body sums
  with ``reassoc`` (vectorised), a CSR body without (a scalar gather). A CSR
  body indexes with unsigned positions and columns (``np.uint64``; validated X
  has no negative ones): a signed index costs a wrap-around test per access
  (``a[-1]``), three instructions per array read in the unrolled gather.
* **Determinism.** With ``fastmath={"reassoc"}`` LLVM vectorises a sum
  and so adds its terms in another order than a plain loop. A loop that also
  writes to an array gets two versions, vectorised and scalar, chosen at run
  time by whether the arrays might overlap, a test on their addresses
  (small arrays allocated one after the other can fail it). Its sum would
  then depend on where the allocator put the arrays. So every sum runs in a
  loop that only reads, which is always vectorised: the same inputs give the
  same bits in every process. (Arrays of at least :data:`SHORT` entries
  that do not overlap always pass the test, so a hot loop over such rows may
  stay fused.)
* **Growth.** A buffer that must hold ``needed`` rows (or entries) and is
  full is replaced by one of :func:`capacity` ``(needed)`` rows, twice the
  need and at least 16, its filled part copied: appends cost O(1) amortised.
"""

from __future__ import annotations

import llvmlite.ir as ir
import numpy as np
import scipy.sparse as sp
from numba.core import cgutils, types

from ._jit import CONTIGUOUS, GATHER, intrinsic, jit, row_kind
from ._validation import index_arrays, scan_csr, scan_dense

# The runtime overlap test of a vectorised loop compares start addresses against at most
# 8 lanes x 8 interleaved iterations of float64 (512 bytes): arrays this long pass it.
SHORT = 64


@jit
def capacity(needed):
    """The size of a buffer grown to hold ``needed`` rows: max(2 needed, 16)."""
    return max(2 * needed, 16)


@jit
def dot(a, b, n):
    """a[:n] . b[:n]."""
    s = 0.0
    for j in range(n):
        s += a[j] * b[j]
    return s


def row_dot(X, i, w):
    """w . x_i, for row i of dense X or of the CSR tuple X."""
    return (_csr_dot if isinstance(X, tuple) else _dense_dot)(X, i, w)


def _dense_dot(X, i, w):
    s = 0.0
    for j in range(w.shape[0]):
        s += w[j] * X[i, j]
    return s


def _csr_dot(X, i, w):
    data, indices, indptr = X
    s = 0.0
    for p in range(np.uint64(indptr[i]), np.uint64(indptr[i + 1])):
        s += w[np.uint64(indices[p])] * data[p]
    return s


def row_dot_lanes(X, i, w, square):
    """w . x_i (x_i . x_i when ``square``) in four lanes, the same bits for a row and its CSR
    form (sorted indices).

    Lane l adds the terms of the columns j = l mod 4 in column order; the sum is
    (s_0 + s_1) + (s_2 + s_3). A CSR row has the dense row's nonzero terms in
    the same lanes and order, and a zero term adds nothing exactly, so both
    kinds give the same bits; the dense lanes are four independent chains (no
    reassociation), as fast as a vectorised sum on short rows. For a rule whose
    scores are ill-conditioned (ROMMA's, theory §2.8), where the vectorised
    dense order and a CSR order differ by more than a test of the two kinds
    allows.
    """
    return (_csr_dot_lanes if isinstance(X, tuple) else _dense_dot_lanes)(X, i, w, square)


def _dense_dot_lanes(X, i, w, square):
    n = X.shape[1]
    row = X[i]
    s0 = s1 = s2 = s3 = 0.0
    m = n - n % 4
    for j in range(0, m, 4):
        if square:
            s0 += row[j] * row[j]
            s1 += row[j + 1] * row[j + 1]
            s2 += row[j + 2] * row[j + 2]
            s3 += row[j + 3] * row[j + 3]
        else:
            s0 += w[j] * row[j]
            s1 += w[j + 1] * row[j + 1]
            s2 += w[j + 2] * row[j + 2]
            s3 += w[j + 3] * row[j + 3]
    for j in range(m, n):  # lanes 0, 1, 2 of the last columns
        term = row[j] * row[j] if square else w[j] * row[j]
        if j == m:
            s0 += term
        elif j == m + 1:
            s1 += term
        else:
            s2 += term
    return (s0 + s1) + (s2 + s3)


def _csr_dot_lanes(X, i, w, square):
    data, indices, indptr = X
    s0 = s1 = s2 = s3 = 0.0
    for p in range(np.uint64(indptr[i]), np.uint64(indptr[i + 1])):
        j = indices[p]
        term = data[p] * data[p] if square else w[np.uint64(j)] * data[p]
        lane = j % 4
        if lane == 0:
            s0 += term
        elif lane == 1:
            s1 += term
        elif lane == 2:
            s2 += term
        else:
            s3 += term
    return (s0 + s1) + (s2 + s3)


def row_dot_norm(X, i, w):
    """(w . x_i, x_i . x_i) in one read of row i."""
    return (_csr_dot_norm if isinstance(X, tuple) else _dense_dot_norm)(X, i, w)


def _dense_dot_norm(X, i, w):
    s = 0.0
    xx = 0.0
    for j in range(w.shape[0]):
        s += w[j] * X[i, j]
        xx += X[i, j] * X[i, j]
    return s, xx


def _csr_dot_norm(X, i, w):
    data, indices, indptr = X
    s = 0.0
    xx = 0.0
    for p in range(np.uint64(indptr[i]), np.uint64(indptr[i + 1])):
        s += w[np.uint64(indices[p])] * data[p]
        xx += data[p] * data[p]
    return s, xx


def row_axpy(X, i, a, out):
    """out += a x_i."""
    (_csr_axpy if isinstance(X, tuple) else _dense_axpy)(X, i, a, out)


def _dense_axpy(X, i, a, out):
    for j in range(out.shape[0]):
        out[j] += a * X[i, j]


def _csr_axpy(X, i, a, out):
    data, indices, indptr = X
    for p in range(np.uint64(indptr[i]), np.uint64(indptr[i + 1])):
        out[np.uint64(indices[p])] += a * data[p]


def row_axpy_norm(X, i, a, out):
    """out += a x_i; returns x_i . x_i, summed in the same pass."""
    return (_csr_axpy_norm if isinstance(X, tuple) else _dense_axpy_norm)(X, i, a, out)


def _dense_axpy_norm(X, i, a, out):
    xx = 0.0
    for j in range(out.shape[0]):
        out[j] += a * X[i, j]
        xx += X[i, j] * X[i, j]
    return xx


def _csr_axpy_norm(X, i, a, out):
    data, indices, indptr = X
    xx = 0.0
    for p in range(np.uint64(indptr[i]), np.uint64(indptr[i + 1])):
        out[np.uint64(indices[p])] += a * data[p]
        xx += data[p] * data[p]
    return xx


def row_axpy_over(X, i, a, d, out):
    """out += a (x_i / d): a step along a row rescaled by d, each entry divided first."""
    (_csr_axpy_over if isinstance(X, tuple) else _dense_axpy_over)(X, i, a, d, out)


def _dense_axpy_over(X, i, a, d, out):
    for j in range(out.shape[0]):
        out[j] += a * (X[i, j] / d)


def _csr_axpy_over(X, i, a, d, out):
    data, indices, indptr = X
    for p in range(np.uint64(indptr[i]), np.uint64(indptr[i + 1])):
        out[np.uint64(indices[p])] += a * (data[p] / d)


def row_sq_norm(X, i):
    """x_i . x_i."""
    return (_csr_sq_norm if isinstance(X, tuple) else _dense_sq_norm)(X, i)


def _dense_sq_norm(X, i):
    s = 0.0
    for j in range(X.shape[1]):
        s += X[i, j] * X[i, j]
    return s


def _csr_sq_norm(X, i):
    data, indices, indptr = X
    s = 0.0
    for p in range(np.uint64(indptr[i]), np.uint64(indptr[i + 1])):
        s += data[p] * data[p]
    return s


@jit
def stable_norm(values):
    """||v|| as max_j |v_j| times the norm of v / max_j |v_j| (0 for v = 0): no square
    underflows or overflows."""
    top = 0.0
    for v in values:
        top = max(top, abs(v))
    if top == 0.0:
        return 0.0
    s = 0.0
    for v in values:
        z = v / top
        s += z * z
    return top * np.sqrt(s)


def row_stable_norm(X, i):
    """||x_i|| by :func:`stable_norm`."""
    return (_csr_stable_norm if isinstance(X, tuple) else _dense_stable_norm)(X, i)


def _dense_stable_norm(X, i):
    return stable_norm(X[i])


def _csr_stable_norm(X, i):
    data, indices, indptr = X
    return stable_norm(data[indptr[i]:indptr[i + 1]])


def row_values(X, i):
    """The stored values of row i: X[i] for dense X, its slice of ``data`` for CSR."""
    return (_csr_values if isinstance(X, tuple) else _dense_values)(X, i)


def _dense_values(X, i):
    return X[i]


def _csr_values(X, i):
    data, indices, indptr = X
    return data[indptr[i]:indptr[i + 1]]


def row_dense(X, i, scratch):
    """Row i as a dense vector: a view of X for dense X, ``scratch`` filled for CSR."""
    return (_csr_dense if isinstance(X, tuple) else _dense_dense)(X, i, scratch)


def _dense_dense(X, i, scratch):
    return X[i]


def _csr_dense(X, i, scratch):
    data, indices, indptr = X
    scratch[:] = 0.0
    for p in range(np.uint64(indptr[i]), np.uint64(indptr[i + 1])):
        scratch[np.uint64(indices[p])] = data[p]
    return scratch


def row_copy(X, i, out):
    """out[:] = x_i densely: :func:`row_dense` for a rule compiled without Numba's
    references, which may return no view."""
    (_csr_copy if isinstance(X, tuple) else _dense_copy)(X, i, out)


def _dense_copy(X, i, out):
    for j in range(out.shape[0]):
        out[j] = X[i, j]


def _csr_copy(X, i, out):
    data, indices, indptr = X
    for j in range(out.shape[0]):
        out[j] = 0.0
    for p in range(np.uint64(indptr[i]), np.uint64(indptr[i + 1])):
        out[np.uint64(indices[p])] = data[p]


def row_nnz(X, i):
    """The stored entries of row i: n_features for dense X."""
    return (_csr_nnz if isinstance(X, tuple) else _dense_nnz)(X, i)


def _dense_nnz(X, i):
    return X.shape[1]


def _csr_nnz(X, i):
    return X[2][i + 1] - X[2][i]


def n_rows(X):
    """The number of rows of dense or CSR X."""
    return (_csr_n_rows if isinstance(X, tuple) else _dense_n_rows)(X)


def _dense_n_rows(X):
    return X.shape[0]


def _csr_n_rows(X):
    return X[2].shape[0] - 1


def rows(X):
    """The rows a loop reads (see "Rows" above): dense X itself, or CSR X's
    ``(data, indices, indptr)``, the index arrays as validated X holds them (both int32 or
    both int64, ``_validation.INDEX_KINDS``; others made int64)."""
    if sp.issparse(X):
        return X.data, *index_arrays(X)
    return X


@jit
def sym_matvec(M, x, k, out):
    """out[:k] = M[:k, :k] @ x[:k]."""
    for i in range(k):
        s = 0.0
        for j in range(k):
            s += M[i, j] * x[j]
        out[i] = s


@jit
def symmetric_matvec(A, x, ax):
    """ax = A x for symmetric A, reading only the upper triangle of its leading n x n block.

    n = x.shape[0] (A may be a larger buffer). Row r of the triangle (j >= r)
    gives ax[r] += A[r, j] x[j] and, by symmetry, ax[j] += A[r, j] x[r].
    """
    n = x.shape[0]
    for r in range(n):
        ax[r] = 0.0
    for r in range(n):
        # Slices from the diagonal, so that the inner loops start at 0 (Numba vectorises them).
        row, xt, at = A[r, r:], x[r:], ax[r:]
        xr = x[r]
        for j in range(n - r):
            at[j] += row[j] * xr
        s = 0.0
        for j in range(n - r):  # apart from the writes (see "Determinism" above)
            s += row[j] * xt[j]
        ax[r] += s - row[0] * xr  # the diagonal entered both s and at[0] = ax[r]


@jit
def symmetric_sweep(A, u, xp, x, ax):
    """A <- A + u xp^T + xp u^T, then ax = A x, in one sweep of A's upper triangle.

    As :func:`symmetric_matvec`, with a pending rank-two change applied on the
    way: fusing the change of one mistake with the next product reads half of
    A once instead of all of it twice.
    """
    n = x.shape[0]
    for r in range(n):
        ax[r] = 0.0
    for r in range(n):
        row, ut, pt, xt, at = A[r, r:], u[r:], xp[r:], x[r:], ax[r:]
        xr = x[r]
        ur = u[r]
        pr = xp[r]
        for j in range(n - r):
            e = row[j] + ur * pt[j] + pr * ut[j]
            row[j] = e
            at[j] += e * xr
        s = 0.0
        for j in range(n - r):  # apart from the writes (see "Determinism" above)
            s += row[j] * xt[j]
        ax[r] += s - row[0] * xr


def row_symmetric_matvec(X, i, A, x, ax):
    """ax = A x_i from A's upper triangle (:func:`symmetric_matvec`), x = x_i densely;
    O(n nnz(x_i)) from the nonzeros of a CSR row."""
    (_csr_symmetric_matvec if isinstance(X, tuple) else _dense_symmetric_matvec)(X, i, A, x, ax)


def _dense_symmetric_matvec(X, i, A, x, ax):
    symmetric_matvec(A, x, ax)


def _csr_symmetric_matvec(X, i, A, x, ax):
    data, indices, indptr = X
    n = ax.shape[0]
    for r in range(n):
        ax[r] = 0.0
    for q in range(indptr[i], indptr[i + 1]):
        j = indices[q]
        xj = data[q]
        for r in range(j):
            ax[r] += xj * A[r, j]
        row = A[j]
        for r in range(j, n):
            ax[r] += xj * row[r]


@jit
def rank_one_matvec(M, pending, sign, x, n, out):
    """M[:n, :n] -= sign pending pending^T, then out = M x, in one sweep of the rows of M.

    Fusing the rank-one change of one update with the matrix-vector product
    of the next reads M once per update instead of twice (the Second-Order
    and AROW loops, theory §2.4, §2.10). ``pending`` is zeroed. Rows shorter
    than ``SHORT`` go to :func:`_rank_one_matvec_short`, so that the sum's
    order never depends on where the arrays sit ("Determinism" above).
    """
    if n < SHORT:
        _rank_one_matvec_short(M, pending, sign, x, n, out)
        return
    for i in range(n):
        pi = sign * pending[i]
        row = M[i]
        s = 0.0
        for j in range(n):
            a = row[j] - pi * pending[j]
            row[j] = a
            s += a * x[j]
        out[i] = s
    for i in range(n):
        pending[i] = 0.0


@jit
def _rank_one_matvec_short(M, pending, sign, x, n, out):
    """:func:`rank_one_matvec` with the change and the sum in two loops (short rows)."""
    for i in range(n):
        pi = sign * pending[i]
        row = M[i]
        for j in range(n):
            row[j] -= pi * pending[j]
        s = 0.0
        for j in range(n):
            s += row[j] * x[j]
        out[i] = s
    for i in range(n):
        pending[i] = 0.0


@jit
def border_inverse(m_inv, u, schur, pending, k, limit):
    """The inverse of the bordered [[M, g], [g^T, d]] from m_inv = M^{-1}, u = M^{-1} g and the
    Schur complement schur = d - g . u, all but the leading block's change.

    Row and column k become -u / schur and 1 / schur (m_inv grown as by
    :func:`grow_square_within`, within ``limit``); the leading block still lacks
    + u u^T / schur, left in ``pending`` = u / sqrt(schur) for the next
    :func:`rank_one_matvec` (sign -1) to add with its product. Returns m_inv.
    """
    m_inv = grow_square_within(m_inv, k, limit)
    root = 1.0 / np.sqrt(schur)
    for p in range(k):
        m_inv[p, k] = -u[p] / schur
        m_inv[k, p] = -u[p] / schur
        pending[p] = u[p] * root
    m_inv[k, k] = 1.0 / schur
    return m_inv


@jit
def rank_one_downdate(M, z, d, k):
    """M[:k, :k] -= z z^T / d, as (z_i / sqrt d)(z_j / sqrt d) so that M stays exactly symmetric."""
    r = 1.0 / np.sqrt(d)
    for i in range(k):
        zi = z[i] * r
        for j in range(k):
            M[i, j] -= zi * (z[j] * r)


def _no_prefetch(array, index):
    """:func:`prefetch` with the JIT off: no hint."""


@intrinsic(python=_no_prefetch)
def prefetch(typingctx, array, index):
    """Ask the CPU to bring ``array[index]`` (1-D) into its caches: ``llvm.prefetch``, a hint.

    For a loop whose trial does too much arithmetic on its row for the
    processor to reach ahead to the next rows on its own (the one-vs-rest
    loops do K times a binary trial's): on shuffled rows it would wait for
    each row from memory. Results never depend on it.
    """

    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        view = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, array_type, view, [args[1]])
        byte_pointer = ir.IntType(8).as_pointer()
        int32 = ir.IntType(32)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer, int32, int32, int32]),
            "llvm.prefetch.p0i8",
        )
        # read (0), keep in all cache levels (3), data cache (1)
        builder.call(function, [builder.bitcast(pointer, byte_pointer), int32(0), int32(3),
                                int32(1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen


#: Entries of float64 in a cache line (64 bytes).
LINE = 8


def line_zeros(n_rows: int, n_columns: int) -> np.ndarray:
    """A C-contiguous float64 (n_rows, n_columns) array of zeros whose first entry starts a
    cache line (a 64-byte boundary).

    For rows that a loop reads and writes in full vectors many times a trial (the
    one-vs-rest weights and trial row): NumPy places an array on a 16-byte boundary, and
    on this CPU (AMD EPYC, 512-bit vectors executed as two 256-bit halves) a vectorised
    loop whose 32-byte halves straddle cache lines took 1.15x as long. Rows of a multiple
    of 4 entries then all start on 32-byte boundaries.
    """
    buffer = np.zeros(n_rows * n_columns + LINE)
    start = (-buffer.ctypes.data % (8 * LINE)) // 8
    return buffer[start:start + n_rows * n_columns].reshape(n_rows, n_columns)


@jit
def copy_into(out, v, n):
    """out[:n] = v[:n], entry by entry (1-D float64 arrays).

    The jitted code copies through this, not a slice assignment from an array:
    Numba compiles the latter with its shape-mismatch error, whose message
    formatting (about 300 kB of LLVM IR) was then optimised and compiled again in
    every loop linking the function; on the first run of ``compare`` (a cold
    cache) it cost a quarter of the kernel loops' compile time
    (``benchmarks/bench_first_run.py``).
    """
    for p in range(n):
        out[p] = v[p]


@jit
def grow_vector(v, k):
    """v if it has room for k + 1 entries, else a zero-padded copy of :func:`capacity` (k + 1)."""
    if v.shape[0] > k:
        return v
    out = np.zeros(capacity(k + 1))
    copy_into(out, v, v.shape[0])
    return out


@jit
def grow_columns(A, k):
    """A if it has room for column k, else a copy with :func:`capacity` (k + 1) columns
    keeping A[:, :k] (the others unset)."""
    if k < A.shape[1]:
        return A
    grown = np.empty((A.shape[0], capacity(k + 1)))
    for q in range(A.shape[0]):
        copy_into(grown[q], A[q], k)
    return grown


@jit
def grow_square(M, k):
    """M if it has room for row and column k, else a zero-padded copy keeping M[:k, :k]."""
    return grow_square_within(M, k, capacity(k + 1))


@jit
def grow_square_within(M, k, limit):
    """:func:`grow_square` with a side of at most ``limit`` (> k) for the new buffer."""
    if k < M.shape[0]:
        return M
    size = min(capacity(k + 1), limit)
    out = np.zeros((size, size))
    for i in range(k):
        copy_into(out[i], M[i], k)
    return out


@jit
def span_residual(Q, r, x, e, p, p2):
    """Coordinates p[:r] = Q[:r] x and residual e = x - Q[:r]^T p of x against the
    orthonormal rows Q[:r], by Gram-Schmidt applied twice; returns ||e||^2.

    The squared distance of x to the span is computed from e itself, to about machine
    precision of ||x||^2, not as ||x||^2 - ||p||^2, which loses it (paper 003, Fig. 5's
    span test; theory §2.4). ``p2`` is a work vector of at least r entries.
    """
    n = x.shape[0]
    copy_into(e, x, n)
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
    return dot(e, e, n)


@jit
def append_row(S, k, x):
    """Store x as row k of S, growing S when full; returns the (possibly new) buffer."""
    if k == S.shape[0]:
        S_new = np.empty((capacity(k + 1), S.shape[1]))
        for r in range(k):
            copy_into(S_new[r], S[r], S.shape[1])
        S = S_new
    copy_into(S[k], x, S.shape[1])
    return S


def rows_buffer(values: np.ndarray) -> np.ndarray:
    """A zero buffer of ``capacity(len(values))`` rows, starting with ``values``."""
    out = np.zeros((capacity(values.shape[0]), *values.shape[1:]))
    out[: values.shape[0]] = values
    return out


def square_buffer(values: np.ndarray) -> np.ndarray:
    """A square zero buffer of side ``capacity(len(values))``, starting with ``values``."""
    k = values.shape[0]
    out = np.zeros((capacity(k),) * 2)
    out[:k, :k] = values
    return out


@jit
def _row_norms_loop(X, p, out):
    """out[i] = ||x_i||_p for dense or CSR X, scaled by max_j |x_ij| against overflow."""
    for i in range(out.shape[0]):
        row = row_values(X, i)
        top = 0.0
        for v in row:
            top = max(top, abs(v))
        if top == 0.0:
            out[i] = 0.0
            continue
        s = 0.0
        for v in row:
            z = abs(v) / top
            s += z * z if p == 2.0 else z ** p
        out[i] = top * s ** (1.0 / p)


def row_sq_norms(X) -> np.ndarray:
    """x_i . x_i of every row of validated dense or CSR X, in one read of X, summed in
    any order (vectorised).

    Unlike :func:`row_norms` (p = 2), the squares may underflow or overflow.
    """
    out = np.empty(X.shape[0])
    if sp.issparse(X):
        scan_csr(X.data, *index_arrays(X), X.shape[1], out)
    else:
        scan_dense(X, out)
    return out


def dual_exponent(p: float) -> float:
    """q = p / (p - 1), the exponent of the dual norm of ||.||_p (2 for p = 2).

    Examples
    --------
    >>> dual_exponent(2.0), dual_exponent(3.0)
    (2.0, 1.5)
    """
    return p / (p - 1.0)


def row_norms(X, p: float) -> np.ndarray:
    """||x||_p of every row of validated dense or CSR X, without a temporary copy of X."""
    out = np.empty(X.shape[0])
    _row_norms_loop(rows(X), float(p), out)
    return out


def lift_tiny_rows(X):
    """X with every nonzero row whose squared 2-norm is not a normal float scaled up exactly.

    Such a row (norm below sqrt(tiny), about 1.5e-154) has x.x underflow, so a
    kernel form would take it for a zero row. Multiplying it by a power of two
    (exact in floating point) brings its norm into [0.5, 1) and changes nothing
    an algorithm that normalises its instances computes.

    Parameters
    ----------
    X : ndarray or scipy.sparse.csr_matrix
        float64 data (validated).

    Returns
    -------
    ndarray or scipy.sparse.csr_matrix
        ``X`` itself when no row needs it, else a copy with those rows scaled.
    """
    norms = row_norms(X, 2.0)
    tiny = (norms > 0) & (norms < np.sqrt(np.finfo(np.float64).tiny))
    if not tiny.any():
        return X
    shift = np.zeros(X.shape[0], dtype=np.int64)
    shift[tiny] = -np.frexp(norms[tiny])[1]
    return ldexp_rows(X, shift)


def ldexp_rows(X, shift):
    """A copy of X with row i multiplied by 2**shift[i]: exact, and signs and directions kept.

    The entries are scaled one by one (``numpy.ldexp``), since 2**shift alone can
    overflow where the scaled entries do not.

    Parameters
    ----------
    X : ndarray or scipy.sparse.csr_matrix
        float64 data.
    shift : ndarray of int64, shape (n_samples,)

    Returns
    -------
    ndarray (C-contiguous) or scipy.sparse.csr_matrix like ``X``
    """
    shift = np.asarray(shift, dtype=np.int64)
    if sp.issparse(X):
        out = X.copy()
        out.data = np.ldexp(out.data, np.repeat(shift, np.diff(out.indptr)))
        return out
    return np.ascontiguousarray(np.ldexp(X, shift[:, None]))


def normalize_rows(X, p: float):
    """X with every nonzero row scaled to unit p-norm (zero rows stay zero); a copy.

    Parameters
    ----------
    X : ndarray or scipy.sparse.csr_matrix
        float64 data (validated).
    p : float
        Norm parameter, >= 2 (theory §2.5: ||x_t||_p = 1).

    Returns
    -------
    ndarray or scipy.sparse.csr_matrix (int64 indices) like ``X``
        Row t is x_t / ||x_t||_p, the instances of paper 000 Figure 1.
    """
    norms = row_norms(X, p)
    inv = np.divide(1.0, norms, out=np.ones_like(norms), where=norms > 0)
    if sp.issparse(X):
        out = sp.csr_matrix(sp.diags(inv) @ X)
        out.indices = out.indices.astype(np.int64)
        out.indptr = out.indptr.astype(np.int64)
        return out
    return np.ascontiguousarray(X * inv[:, None])


# Lanes in column order for both kinds (no reassociation): the same bits from a row and its CSR.
row_kind(row_dot_lanes, _dense_dot_lanes, _csr_dot_lanes, dense_fastmath=GATHER)

# The CSR bodies that read a row's values alone, contiguously, are vectorised too. The dense
# axpy and copy are inlined: the one-vs-rest loop makes up to K axpys a trial (its 450,000
# updates on 100,000 x 100 rows, replayed alone: 17 ms as calls, 10 ms inlined) and a copy,
# and an array passed to a call costs it two atomic reference counts.
for _name in ("dot", "dot_norm", "axpy", "axpy_norm", "axpy_over", "sq_norm", "stable_norm",
              "values", "dense", "copy", "nnz", "n_rows", "symmetric_matvec"):
    _stub = globals()[_name if _name == "n_rows" else f"row_{_name}"]
    _contiguous = _name in ("sq_norm", "stable_norm", "values", "nnz", "n_rows")
    row_kind(_stub, globals()[f"_dense_{_name}"], globals()[f"_csr_{_name}"],
             csr_fastmath=CONTIGUOUS if _contiguous else GATHER,
             dense_inline=_name in ("axpy", "copy"))
