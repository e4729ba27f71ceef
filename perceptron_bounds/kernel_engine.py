"""The kernel-row engine: every dual loop's kernel values, a block of trials at a time, by BLAS.

A dual (kernel) loop needs, at trial t, the values K(s_j, x_t) of its
instance against the supports s_0, ..., s_{k-1} held so far (theory §1.7),
and appends x_t as support s_k on an update. Evaluated one trial at a time
these values cost a pass over the supports per trial, at the speed of memory.
The engine evaluates them exactly, but for a block of upcoming trials at
once:

* at the first trial t0 of a block it computes, in one matrix product, the
  kernel values of the block's instances x_{t0}, ..., x_{t0+B-1} against the
  supports s_0, ..., s_{k0-1} held at that moment (dense X: one ``dgemm`` of
  the BLAS; CSR X: a sparse product);
* when the loop appends x_t as a support inside the block, the engine
  computes that one new column, K(x_t, x_q) for the trials q after t in the
  block, so that later trials of the block see every support the one-at-a-time
  algorithm would have seen. No update is delayed: a loop run through the
  engine makes the same decisions as the algorithm of the papers.

The kernel values that enter the loop are the same numbers as those of
:func:`perceptron_bounds.kernels.kernel_value` up to the order in which the
BLAS adds the products of a dot product (a relative difference of order
1e-16 per value, 1e-12 at most for a kernel value that is a high power of a
dot product; for ``rbf``, ||x - z||^2 is ||x||^2 + ||z||^2 - 2 x . z,
recomputed by the difference form for the pairs where that sum cancels,
:data:`perceptron_bounds.kernels.RBF_CANCELLATION`, so that K(x, x) = 1
exactly and rows of large norm lose no digits); with integer-valued data
such as raw MNIST pixels every dot product is exact and so is every kernel
value. A run is bit for bit
reproducible on one machine with a fixed number of BLAS threads; the BLAS
may split a product differently for another number of threads, which can
move the last bit of a kernel value (the tests check that the mistaken trials
are the same for 1 and 2 threads).

Budgets. A loop that keeps at most B supports (theory §2.11, §2.12) reuses
their slots: :func:`engine_replace` makes the instance of trial t the
support of slot j in place of the one held there, and overwrites the
block's column of slot j, K(x_t, x_q) for the trials q after t, so that the
rest of the block sees the new support and never the removed one, as the
one-at-a-time algorithm does. Such an engine is made with ``cache=False``
(its values are keyed by slot, and a slot changes its support). Shrinking
the supports' coefficients is the loop's: the engine holds no coefficients.

Kernel cache across epochs. When a run shows a row of X more than once
(several epochs), the engine keeps the values K(s_j, x_i) it has computed in
a cache keyed by (row i of X, support j): supports are only ever appended,
so a row shown again costs only the values of the supports added since. The
cache holds at most :data:`KERNEL_CACHE_ENTRIES` values (rows x width, 1 GiB;
set the module attribute to change it for the runs that follow); values past
its width are computed again each time they are needed. It is allocated at
its full width once, and the operating system gives it memory only as rows
fill (about 8 bytes per value computed), so it never needs a copy to grow.

State layout. A loop receives ``src``, what does not change in a run, and
``st``, the engine's buffers, and threads ``st`` through
:func:`engine_row` and :func:`engine_append`, which return it (a buffer may
be regrown). Both are plain tuples of arrays and scalars, so that a loop
compiles one signature whose cache entry names no class of the package; they
are read by name only: ``src`` through the accessors below
(:func:`engine_order` for the loops), ``st`` by unpacking all its fields.
Loops never look inside ``st``.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ._jit import CONTIGUOUS, jit, row_kind
from ._linalg import capacity, copy_into, dot, grow_vector, row_copy, rows
from .kernels import (
    RBF,
    Kernel,
    cancels,
    dot_kernel,
    row_scatter,
    rowwise_dot,
    scatter,
    scattered_sq_distance,
    sq_distance,
)

# Trials per block: large enough for the BLAS to run at full speed, small enough that the
# block's buffers (BLOCK_SIZE x supports) stay in the caches of the CPU.
BLOCK_SIZE = 256

# The kernel cache keeps at most this many float64 values (1 GiB) unless told otherwise.
KERNEL_CACHE_ENTRIES = 1 << 27

# src: (X, sq, order, code, degree, gamma, coef0, block), X dense or CSR's (data, indices,
#      indptr) (:func:`perceptron_bounds._linalg.rows`), read through the accessors _rows,
#      _norms, engine_order, _kernel_args and _block_size only.
# st:  (S, s_data, s_indices, s_span, s_sq, XB, G, H, info, values, filled, work)
#      info = [t0, t1, k0, c0, top]; CSR support j is s_data/s_indices[s_span[j, 0]:s_span[j, 1]],
#      top the end of the entries written (a replaced support's entries are left behind until
#      the arrays are compacted); dense supports are the rows of S (the CSR fields empty).
# The helpers taking X first run a dense or a CSR body, chosen when a loop compiles
# (perceptron_bounds._jit.row_kind): a loop compiles only its input kind's code.


@jit
def _rows(src):
    """The data X: a 2-D array, or CSR's (data, indices, indptr)."""
    return src[0]


@jit
def _norms(src):
    """||x_i||^2 for every row i of X."""
    return src[1]


@jit
def engine_order(src):
    """The trial order of a run: the row of X shown at each trial (int64)."""
    return src[2]


@jit
def _kernel_args(src):
    """The kernel: (code, degree, gamma, coef0), as :meth:`Kernel.loop_args` gives them."""
    return src[3], src[4], src[5], src[6]


@jit
def _block_size(src):
    """Trials per block."""
    return src[7]


@jit
def _sparse_row_dot(data, indices, start, end, work):
    """sum_p data[p] work[indices[p]] over p in [start, end)."""
    s = 0.0
    for p in range(start, end):
        s += data[p] * work[indices[p]]
    return s


def _row_dot(X, r, i, work):
    """x_r . x_i; for CSR X ``work`` must hold x_i scattered
    (:func:`~perceptron_bounds.kernels.row_scatter`)."""
    return (_csr_row_dot if isinstance(X, tuple) else _dense_row_dot)(X, r, i, work)


def _dense_row_dot(X, r, i, work):
    return dot(X[r], X[i], X.shape[1])


def _csr_row_dot(X, r, i, work):
    data, indices, indptr = X
    return _sparse_row_dot(data, indices, indptr[r], indptr[r + 1], work)


def _row_sq_distance(X, i, r, work):
    """||x_i - x_r||^2 by the difference form; for CSR X ``work`` holds x_i scattered (and is
    left so)."""
    return (_csr_row_sq_distance if isinstance(X, tuple) else _dense_row_sq_distance)(
        X, i, r, work)


def _dense_row_sq_distance(X, i, r, work):
    return sq_distance(X[i], X[r], X.shape[1])


def _csr_row_sq_distance(X, i, r, work):
    data, indices, indptr = X
    return scattered_sq_distance(data, indices, indptr[i], indptr[i + 1], work, data, indices,
                                 indptr[r], indptr[r + 1])


def _support_sq_distance(X, i, S, s_data, s_indices, s_span, j, work):
    """||x_i - s_j||^2 by the difference form; for CSR X ``work`` holds x_i scattered (and is
    left so)."""
    return (_csr_support_sq_distance if isinstance(X, tuple) else _dense_support_sq_distance)(
        X, i, S, s_data, s_indices, s_span, j, work)


def _dense_support_sq_distance(X, i, S, s_data, s_indices, s_span, j, work):
    return sq_distance(X[i], S[j], X.shape[1])


def _csr_support_sq_distance(X, i, S, s_data, s_indices, s_span, j, work):
    data, indices, indptr = X
    return scattered_sq_distance(data, indices, indptr[i], indptr[i + 1], work, s_data,
                                 s_indices, s_span[j, 0], s_span[j, 1])


def _block_product(X, rows, c0, k, S, s_data, s_indices, s_span, XB, work, out):
    """out[q, j - c0] = x_{rows[q]} . s_j for the supports c0 <= j < k: one BLAS product for
    dense X (through the buffer XB), a scattered row against each support for CSR X."""
    (_csr_block_product if isinstance(X, tuple) else _dense_block_product)(
        X, rows, c0, k, S, s_data, s_indices, s_span, XB, work, out)


def _dense_block_product(X, rows, c0, k, S, s_data, s_indices, s_span, XB, work, out):
    nb = rows.shape[0]
    for q in range(nb):
        row_copy(X, rows[q], XB[q])
    np.dot(XB[:nb], S[c0:k].T, out)


def _csr_block_product(X, rows, c0, k, S, s_data, s_indices, s_span, XB, work, out):
    data, indices, indptr = X
    for q in range(rows.shape[0]):
        i = rows[q]
        scatter(data, indices, indptr[i], indptr[i + 1], work, 1.0)
        for j in range(c0, k):
            out[q, j - c0] = _sparse_row_dot(s_data, s_indices, s_span[j, 0], s_span[j, 1],
                                             work)
        scatter(data, indices, indptr[i], indptr[i + 1], work, 0.0)


def _store_row(X, i, j, top, S, s_data, s_indices, s_span, info):
    """Store x_i as support j (CSR: its entries from ``top``, the arrays grown or compacted);
    returns (S, s_data, s_indices, s_span)."""
    return (_csr_store_row if isinstance(X, tuple) else _dense_store_row)(
        X, i, j, top, S, s_data, s_indices, s_span, info)


def _dense_store_row(X, i, j, top, S, s_data, s_indices, s_span, info):
    if j == S.shape[0]:
        grown_S = np.empty((capacity(j + 1), S.shape[1]))
        for r in range(j):
            copy_into(grown_S[r], S[r], S.shape[1])
        S = grown_S
    row_copy(X, i, S[j])
    return S, s_data, s_indices, s_span


def _csr_store_row(X, i, j, top, S, s_data, s_indices, s_span, info):
    data, indices, indptr = X
    if j >= s_span.shape[0]:
        grown_span = np.zeros((capacity(j + 1), 2), dtype=np.int64)
        for r in range(j):
            grown_span[r, 0], grown_span[r, 1] = s_span[r, 0], s_span[r, 1]
        s_span = grown_span
    s_span[j, 0] = s_span[j, 1] = 0  # x_t's entries replace the slot's
    nnz = indptr[i + 1] - indptr[i]
    if top + nnz > s_data.shape[0]:  # compact the supports held, with room to spare
        live = 0  # slots not (yet) holding a support have empty spans
        for q in range(s_span.shape[0]):
            live += s_span[q, 1] - s_span[q, 0]
        grown_data = np.empty(capacity(2 * (live + nnz)))
        grown_idx = np.empty(grown_data.shape[0], dtype=np.int64)
        top = 0
        for q in range(s_span.shape[0]):
            a, b = s_span[q, 0], s_span[q, 1]
            for p in range(b - a):
                grown_data[top + p] = s_data[a + p]
                grown_idx[top + p] = s_indices[a + p]
            s_span[q, 0], s_span[q, 1] = top, top + b - a
            top += b - a
        s_data, s_indices = grown_data, grown_idx
    for p in range(nnz):
        s_data[top + p] = data[indptr[i] + p]
        s_indices[top + p] = indices[indptr[i] + p]
    s_span[j, 0], s_span[j, 1] = top, top + nnz
    info[4] = top + nnz
    return S, s_data, s_indices, s_span


for _name in ("row_dot", "row_sq_distance", "support_sq_distance", "block_product",
              "store_row"):
    # Their CSR bodies sum nothing themselves (the jitted helpers they call do): the options
    # every engine function had.
    row_kind(globals()[f"_{_name}"], globals()[f"_dense_{_name}"], globals()[f"_csr_{_name}"],
             csr_fastmath=CONTIGUOUS)


@jit
def _rbf_row(src, S, s_data, s_indices, s_span, s_sq, work, i, c0, row):
    """row[j] = exp(-gamma ||x_i - s_{c0+j}||^2) from row[j] = x_i . s_{c0+j}.

    ||x_i||^2 + ||s||^2 - 2 x_i . s for every entry, in a loop the compiler
    vectorises, then the difference form for the entries where that sum
    cancels (:func:`perceptron_bounds.kernels.cancels`; rare on data whose
    rows are not near-duplicates of large norm).
    """
    X = _rows(src)
    sq, gamma = _norms(src), _kernel_args(src)[2]
    width = row.shape[0]
    sq_i = sq[i]
    for j in range(width):
        row[j] = sq_i + s_sq[c0 + j] - 2.0 * row[j]
    scattered = False
    for j in range(width):
        if cancels(row[j], sq_i, s_sq[c0 + j]):
            if not scattered:
                row_scatter(X, i, work, 1.0)
                scattered = True
            row[j] = _support_sq_distance(X, i, S, s_data, s_indices, s_span, c0 + j, work)
    if scattered:
        row_scatter(X, i, work, 0.0)
    for j in range(width):
        row[j] = np.exp(-gamma * max(row[j], 0.0))


@jit
def engine_diag(src, i):
    """K(x_i, x_i) for row i of X (exactly 1 for rbf)."""
    code, degree, gamma, coef0 = _kernel_args(src)
    if code == RBF:
        return 1.0
    return dot_kernel(_norms(src)[i], code, degree, gamma, coef0)


@jit
def _block(src, st, t, k):
    """Start the block at trial t with k supports: the block's product against s_c0..s_{k-1}."""
    X = _rows(src)
    order, block = engine_order(src), _block_size(src)
    code, degree, gamma, coef0 = _kernel_args(src)
    S, s_data, s_indices, s_span, s_sq, XB, G, H, info, values, filled, work = st
    t1 = min(t + block, order.shape[0])
    nb = t1 - t
    c0 = k
    if values.shape[0] > 0:
        for q in range(nb):
            c0 = min(c0, filled[order[t + q]])
    else:
        c0 = 0
    width = k - c0
    if G.shape[0] < nb * width:
        G = np.empty(capacity(nb * width))
    out = G[: nb * width].reshape((nb, width))
    if width > 0:
        _block_product(X, order[t:t1], c0, k, S, s_data, s_indices, s_span, XB, work, out)
        if code == RBF:
            for q in range(nb):
                _rbf_row(src, S, s_data, s_indices, s_span, s_sq, work, order[t + q], c0,
                         out[q])
        elif code != 0:
            for q in range(nb):
                for j in range(width):
                    out[q, j] = dot_kernel(out[q, j], code, degree, gamma, coef0)
    info[0], info[1], info[2], info[3] = t, t1, k, c0
    return S, s_data, s_indices, s_span, s_sq, XB, G, H, info, values, filled, work


@jit
def engine_row(src, st, t, k, out):
    """out[j] = K(s_j, x_t) for j < k, the supports held at trial t; returns the state.

    ``out`` must hold at least k entries. The first call of a block (see the
    module docstring) computes the block's product; the others only read.
    """
    order = engine_order(src)
    S, s_data, s_indices, s_span, s_sq, XB, G, H, info, values, filled, work = st
    if t >= info[1] or t < info[0]:
        st = _block(src, st, t, k)
        S, s_data, s_indices, s_span, s_sq, XB, G, H, info, values, filled, work = st
    t0, k0, c0 = info[0], info[2], info[3]
    width = k0 - c0
    q = t - t0
    i = order[t]
    cached = filled[i] if values.shape[0] > 0 else 0
    for j in range(cached):
        out[j] = values[i, j]
    for j in range(max(cached, c0), k0):
        out[j] = G[q * width + j - c0]
    for j in range(max(cached, k0), k):
        out[j] = H[q, j - k0]
    if values.shape[0] > 0:
        stop = min(k, values.shape[1])
        for j in range(cached, stop):
            values[i, j] = out[j]
        filled[i] = max(cached, stop)
    return S, s_data, s_indices, s_span, s_sq, XB, G, H, info, values, filled, work


@jit
def _column(src, work, t, i, M, col, t0, t1):
    """M[q, col] = K(x_i, x_r), r = order[t0 + q], for the block [t0, t1)'s trials after t.

    For CSR data ``work`` must hold x_i scattered.
    """
    X = _rows(src)
    sq, order = _norms(src), engine_order(src)
    code, degree, gamma, coef0 = _kernel_args(src)
    for q in range(t - t0 + 1, t1 - t0):
        r = order[t0 + q]
        g = _row_dot(X, r, i, work)
        if code == RBF:
            d = sq[r] + sq[i] - 2.0 * g
            if cancels(d, sq[r], sq[i]):
                d = _row_sq_distance(X, i, r, work)
            M[q, col] = np.exp(-gamma * max(d, 0.0))
        else:
            M[q, col] = dot_kernel(g, code, degree, gamma, coef0)


@jit
def _store(src, st, t, j, top):
    """Store x_t as support j, its CSR entries from ``top`` (the arrays grown or compacted);
    returns the state."""
    sq, order = _norms(src), engine_order(src)
    S, s_data, s_indices, s_span, s_sq, XB, G, H, info, values, filled, work = st
    i = order[t]
    s_sq = grow_vector(s_sq, j)
    s_sq[j] = sq[i]
    S, s_data, s_indices, s_span = _store_row(_rows(src), i, j, top, S, s_data, s_indices,
                                              s_span, info)
    return S, s_data, s_indices, s_span, s_sq, XB, G, H, info, values, filled, work


@jit
def engine_append(src, st, t, k):
    """Make the instance of trial t support k (the k-th, 0-based); returns the state.

    Stores x_t and fills the block's column of K(x_t, x_q) for the block's
    trials q after t.
    """
    X = _rows(src)
    i = engine_order(src)[t]
    st = _store(src, st, t, k, st[8][4])
    S, s_data, s_indices, s_span, s_sq, XB, G, H, info, values, filled, work = st
    t0, t1, k0 = info[0], info[1], info[2]
    if t0 <= t < t1:
        column = k - k0
        if column >= H.shape[1]:
            grown_H = np.empty((H.shape[0], capacity(column + 1)))
            for q in range(H.shape[0]):
                copy_into(grown_H[q], H[q], H.shape[1])
            H = grown_H
        row_scatter(X, i, work, 1.0)
        _column(src, work, t, i, H, column, t0, t1)
        row_scatter(X, i, work, 0.0)
    return S, s_data, s_indices, s_span, s_sq, XB, G, H, info, values, filled, work


@jit
def engine_replace(src, st, t, j):
    """Make the instance of trial t support j (0-based, held) in place of the support there.

    For an engine made with ``cache=False``. Stores x_t in slot j and
    overwrites the block's column of slot j with K(x_t, x_q) for the block's
    trials q after t (see the module docstring, "Budgets"); returns the state.
    """
    X = _rows(src)
    i = engine_order(src)[t]
    st = _store(src, st, t, j, st[8][4])
    S, s_data, s_indices, s_span, s_sq, XB, G, H, info, values, filled, work = st
    t0, t1, k0, c0 = info[0], info[1], info[2], info[3]
    if t0 <= t < t1 and j >= c0:
        row_scatter(X, i, work, 1.0)
        if j < k0:
            width = k0 - c0
            _column(src, work, t, i, G[: (t1 - t0) * width].reshape((t1 - t0, width)), j - c0,
                    t0, t1)
        else:
            _column(src, work, t, i, H, j - k0, t0, t1)
        row_scatter(X, i, work, 0.0)
    return S, s_data, s_indices, s_span, s_sq, XB, G, H, info, values, filled, work


def kernel_engine(X, order, kernel: Kernel, supports=None, *, cache: bool = True):
    """The engine's ``(src, st, k)`` for a run over the rows ``order`` of X.

    Parameters
    ----------
    X : ndarray or scipy.sparse.csr_matrix
        Validated float64 data (C-contiguous, or CSR with int64 indices).
    order : ndarray of int64
        The row of X shown at each trial.
    kernel : Kernel
    supports : ndarray or sparse matrix, optional
        Supports to start from (a warm start); converted to the format of X.
    cache : bool, default=True
        Keep the kernel cache across epochs; False for a loop that replaces
        supports (:func:`engine_replace`).

    The block size and the cache's cap are :data:`BLOCK_SIZE` and
    :data:`KERNEL_CACHE_ENTRIES` as they are at the call. Any block size gives
    the same decisions; it only changes the speed.

    Returns
    -------
    src : tuple
        The data, trial order and kernel, as the jitted helpers take them.
    st : tuple
        The engine's buffers, holding ``supports``.
    k : int
        The number of supports held.
    """
    csr = sp.issparse(X)
    n_features = X.shape[1]
    sq = rowwise_dot(X, X)
    src = (rows(X), sq, np.array(order, dtype=np.int64),
           *kernel.loop_args(), BLOCK_SIZE)
    k = 0 if supports is None else supports.shape[0]
    top = 0
    s_data, s_indices = np.empty(0), np.empty(0, np.int64)
    s_span = np.zeros((capacity(k) if csr else 0, 2), dtype=np.int64)
    S = np.empty((0 if csr else capacity(k), n_features))
    if csr:
        held = sp.csr_matrix(supports if k else (0, n_features), dtype=np.float64)
        top = held.nnz
        s_data = np.concatenate([held.data, np.empty(max(top, 16))])
        s_indices = np.concatenate([held.indices.astype(np.int64), np.empty(max(top, 16),
                                                                            np.int64)])
        s_span[:k, 0], s_span[:k, 1] = held.indptr[:-1], held.indptr[1:]
    elif k:
        S[:k] = supports.toarray() if sp.issparse(supports) else supports
    s_sq = np.empty(capacity(k))
    if k:
        s_sq[:k] = rowwise_dot(supports, supports)
    cache_rows = X.shape[0] if cache and order.shape[0] > X.shape[0] else 0
    width = min(KERNEL_CACHE_ENTRIES // max(cache_rows, 1), order.shape[0] + k)
    st = (
        S, s_data, s_indices, s_span, s_sq,
        np.empty((0 if csr else BLOCK_SIZE, n_features)),
        np.empty(16),
        np.empty((BLOCK_SIZE, 16)),
        np.array([0, 0, 0, 0, top], dtype=np.int64),
        np.empty((cache_rows, width)),
        np.zeros(X.shape[0], dtype=np.int64),
        np.zeros(n_features if csr else 0),
    )
    return src, st, k


def engine_supports(st, k: int):
    """The k supports held by the engine state ``st``, in the order of their slots: an
    ndarray, or CSR for sparse data."""
    S, s_data, s_indices, s_span, *_ = st
    if s_span.shape[0] == 0:
        return S[:k].copy()
    spans = s_span[:k]
    lengths = spans[:, 1] - spans[:, 0]
    indptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    entries = np.repeat(spans[:, 0] - indptr[:-1], lengths) + np.arange(indptr[-1])
    return sp.csr_matrix((s_data[entries], s_indices[entries], indptr), shape=(k, S.shape[1]))
