"""The update rules of the Second-Order Perceptron's variants (theory §2.4), each written once.

One rule per variant and form, for dense and CSR rows alike (a row is read as
a dense vector, :func:`~perceptron_bounds._linalg.row_dense` or ``row_copy``, so that every
sum runs over the same n entries in the same order for both kinds, and CSR
runs are dense runs bit for bit), each compiled into the loop frame of
:mod:`perceptron_bounds.algorithms._frame`, which checks for Ctrl-C on every
trial (a mistake costs O(n^2) or O(k^2)). What the fixed-a rules share with
the selective Second-Order Perceptron (:mod:`.selective`, theory §2.14) is
written here once: the Sherman-Morrison margin and update of the primal form
(``inverse_margin``, ``inverse_update``) and the partitioned-inverse
margin and growth of the dual form (``dual_margin``, ``border_inverse``).
The rank-one change of a mistake is left pending and applied in the sweep of
the next product (:func:`~perceptron_bounds._linalg.rank_one_matvec`); the
caller applies the last one after the loop (``apply_pending``).

:mod:`.second_order` registers the algorithm and fits the fixed and adaptive
variants, :mod:`.second_order_pinv` the pseudoinverse; each adds its fits to
``FITS``, so that neither module imports the other.

References
----------
N. Cesa-Bianchi, A. Conconi and C. Gentile, "A second-order Perceptron
algorithm", SIAM J. Computing 34 (2005) (paper 003): Fig. 3 and Theorem 1
(basic form), Theorem 2 (dual form), Fig. 4 (adaptive a), Fig. 5 (pseudoinverse).
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, rule
from .._linalg import (
    append_row,
    dot,
    grow_square,
    grow_square_within,
    grow_vector,
    rank_one_downdate,
    rank_one_matvec,
    row_copy,
    row_dense,
    span_residual,
    sym_matvec,
)
from .._linalg import (
    border_inverse as bordered_inverse,
)
from .._triangular import cholesky_solve, shifted_cholesky, solve_lower
from ..kernel_engine import engine_append, engine_diag, engine_row
from ._cases import MISTAKE, NO_UPDATE
from ._frame import STOP, online_loop

VARIANTS = ("inverse", "adaptive", "pinv")

#: The n_features x n_features matrices each primal variant keeps: A^{-1}; the correlation and
#: the Cholesky factor of a_k I + it (and its copy); the basis Q (at most n rows) and C^{-1}.
#: The dual forms keep as many k x k matrices, k the supports: (a I + G)^{-1}; the Gram, the
#: shifted copy and its Cholesky factor; L^{-1} and C^{-1} of the basis.
MATRICES = {"inverse": 1, "adaptive": 3, "pinv": 2}

#: ``fit(data, order, params, margins, previous)`` of each variant, added by the module that
#: holds it (:mod:`.second_order`: inverse, adaptive; :mod:`.second_order_pinv`: pinv).
FITS = {}


# ---------------------------------------------------------------- fixed a: shared pieces


@jit
def inverse_margin(a_inv, pending, x, n, z):
    """d = 1 + x . z with z = A^{-1} x (Sherman-Morrison: the margin is (w . x) / d), A^{-1}
    first downdated by the pending change ``pending pending^T`` (then zeroed)."""
    rank_one_matvec(a_inv, pending, 1.0, x, n, z)
    return 1.0 + dot(x, z, n)


@jit
def inverse_update(w, z, pending, yi, s, d, n):
    """A mistake: w += z (y - w . x) / d, and A^{-1} -= z z^T / d left pending (z / sqrt d)."""
    c = (yi - s) / d
    r = 1.0 / np.sqrt(d)
    for j in range(n):
        w[j] += c * z[j]
        pending[j] = z[j] * r


@jit
def dual_margin(m_inv, pending, g, k, u, a, kxx):
    """The Schur complement s = a + K(x, x) - g . u, u = (a I + G)^{-1} g (the margin is
    a (alpha . g) / s), m_inv first given its pending change + pending pending^T."""
    rank_one_matvec(m_inv, pending, -1.0, g, k, u)
    return a + kxx - dot(g, u, k)


@jit
def dual_score(src, st, t, k, alpha, g, u, pending):
    """The kernel row g of trial t against the k supports, and alpha . g; returns (engine
    state, alpha . g, g, u, pending), the buffers grown to hold k + 1 entries."""
    g = grow_vector(g, k)
    u = grow_vector(u, k)
    pending = grow_vector(pending, k)
    st = engine_row(src, st, t, k, g)
    return st, dot(alpha, g, k), g, u, pending


@jit
def border_inverse(m_inv, alpha, pending, u, schur, yi, s, k, max_k):
    """A mistake: (m_inv, alpha) for k + 1 supports, possibly regrown.

    The partitioned inverse of [[a I + G_k, g], [g^T, a + K(x, x)]] gets its border now and
    its leading block's + u u^T / schur with the next product (``pending``);
    alpha <- (alpha - u d, d) with d = (y - alpha . g) / schur.
    """
    m_inv = bordered_inverse(m_inv, u, schur, pending, k, max_k)
    c = (yi - s) / schur
    for p in range(k):
        alpha[p] -= c * u[p]
    alpha = grow_vector(alpha, k)
    alpha[k] = c
    return m_inv, alpha


def apply_pending(matrix, pending, sign, k):
    """Apply the change a loop left pending, ``matrix[:k, :k] -= sign pending pending^T``."""
    rank_one_matvec(matrix, pending, sign, np.zeros(k), k, np.empty(k))


# ---------------------------------------------------------------- fixed a (Fig. 3)


@rule
def _inverse_primal_step(X, y, i, t, u, arrays, state):
    """Primal SO with fixed a: a correct trial is one dot product unless its margin is recorded.

    ``arrays`` is (A^{-1}, w, the row buffer, z, the pending change); ``state``
    is (record,). The row is copied into its buffer (``row_copy``): a rule compiled
    without Numba's references may return no view, and theirs would cost more per trial.
    """
    a_inv, w, scratch, z, pending = arrays
    (record,) = state
    n = w.shape[0]
    row_copy(X, i, scratch)
    x = scratch
    s = dot(w, x, n)
    mistake = y[i] * s <= 0.0
    if not (record or mistake):
        return s, NO_UPDATE, state
    d = inverse_margin(a_inv, pending, x, n, z)
    if not mistake:
        return s / d, NO_UPDATE, state
    inverse_update(w, z, pending, y[i], s, d, n)
    return s / d, MISTAKE, state


@rule(returns_arrays=True)
def _inverse_dual_step(src, y, i, t, u, arrays, state):
    """Dual SO with fixed a over the engine's k supports (the mistakes, with multiplicity).

    ``state`` is (record, a, max_k, engine state, alpha, m_inv = (a I_k + G_k)^{-1},
    the buffers g, u and the pending change, k); a mistake that would make more
    than ``max_k`` supports stops the run.
    """
    record, a, max_k, st, alpha, m_inv, g, v, pending, k = state
    st, s, g, v, pending = dual_score(src, st, t, k, alpha, g, v, pending)
    mistake = y[i] * s <= 0.0
    if mistake and k >= max_k:
        return s, STOP, (record, a, max_k, st, alpha, m_inv, g, v, pending, k)
    if not (record or mistake):
        return s, NO_UPDATE, (record, a, max_k, st, alpha, m_inv, g, v, pending, k)
    schur = dual_margin(m_inv, pending, g, k, v, a, engine_diag(src, i))
    case = NO_UPDATE
    if mistake:
        m_inv, alpha = border_inverse(m_inv, alpha, pending, v, schur, y[i], s, k, max_k)
        st = engine_append(src, st, t, k)
        k += 1
        case = MISTAKE
    return a * s / schur, case, (record, a, max_k, st, alpha, m_inv, g, v, pending, k)


inverse_primal_loop = online_loop(_inverse_primal_step, every=1)
inverse_dual_loop = online_loop(_inverse_dual_step, every=1)


# ---------------------------------------------------------------- adaptive a_k (Fig. 4)


@rule(returns_arrays=True)
def _adaptive_primal_step(X, y, i, t, u, arrays, state):
    """Primal SO with a_k = c R^2 k: ``corr`` = X_k X_k^T and v updated in place, and w
    solved afresh from a new Cholesky factor L of a_k I + corr at each mistake.

    ``arrays`` is (corr, v, w, the CSR row buffer, a work vector); ``state`` is
    (record, c R^2, mistakes before this run, L).
    """
    corr, v, w, scratch, tmp = arrays
    record, c_r2, k0, L = state
    n = w.shape[0]
    x = row_dense(X, i, scratch)
    s = dot(w, x, n)
    score = s
    if record:
        solve_lower(L, x, n, tmp)
        score = s / (1.0 + dot(tmp, tmp, n))
    if y[i] * s > 0.0:
        return score, NO_UPDATE, state
    yi = y[i]
    for p in range(n):
        xp = x[p]
        v[p] += yi * xp
        for q in range(n):
            corr[p, q] += xp * x[q]
    L = shifted_cholesky(corr, n, c_r2 * (k0 + u + 2))  # u + 1 mistakes in this run
    cholesky_solve(L, v, n, tmp, w)
    return score, MISTAKE, (record, c_r2, k0, L)


@rule(returns_arrays=True)
def _adaptive_dual_step(src, y, i, t, u, arrays, state):
    """Dual SO with a_k = c R^2 k over the engine's k supports with labels ys[:k].

    Keeps the Gram ``gram`` = G_k and factors a_k I + G_k at every mistake.
    ``state`` is (record, c R^2, max_k, engine state, ys, gram, g, a work vector,
    alpha, L, k); a mistake that would make more than ``max_k`` supports stops the run.
    """
    record, c_r2, max_k, st, ys, gram, g, tmp, alpha, L, k = state
    g = grow_vector(g, k)
    tmp = grow_vector(tmp, k)
    alpha = grow_vector(alpha, k)
    st = engine_row(src, st, t, k, g)
    s = dot(alpha, g, k)
    score = s
    if record:
        a = c_r2 * (k + 1)
        solve_lower(L, g, k, tmp)
        score = a * s / (a + engine_diag(src, i) - dot(tmp, tmp, k))
    if y[i] * s > 0.0:
        return score, NO_UPDATE, (record, c_r2, max_k, st, ys, gram, g, tmp, alpha, L, k)
    if k >= max_k:
        return score, STOP, (record, c_r2, max_k, st, ys, gram, g, tmp, alpha, L, k)
    gram = grow_square_within(gram, k, max_k)
    for p in range(k):
        gram[p, k] = g[p]
        gram[k, p] = g[p]
    gram[k, k] = engine_diag(src, i)
    st = engine_append(src, st, t, k)
    ys = grow_vector(ys, k)
    ys[k] = y[i]
    k += 1
    L = shifted_cholesky(gram, k, c_r2 * (k + 1))
    cholesky_solve(L, ys, k, tmp, alpha)
    return score, MISTAKE, (record, c_r2, max_k, st, ys, gram, g, tmp, alpha, L, k)


adaptive_primal_loop = online_loop(_adaptive_primal_step, every=1)
adaptive_dual_loop = online_loop(_adaptive_dual_step, every=1)


# ---------------------------------------------------------------- pseudoinverse (Fig. 5)


@jit
def coordinates_update(c_inv, wc, p, r, s, yi, zc):
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
def coordinates_grow(c_inv, p, r, eta, zc):
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
def _in_span_margin(c_inv, p, r, s, zc):
    """The margin (w . x) / (1 + p . c_inv p) of an instance in the span, coordinates p."""
    sym_matvec(c_inv, p, r, zc)
    return s / (1.0 + dot(p, zc, r))


@rule(returns_arrays=True)
def _pinv_primal_step(X, y, i, t, u, arrays, state):
    """Primal SO with the pseudoinverse, Q[:r] an orthonormal basis of the mistakes' span.

    ``arrays`` is (w = Q^T wc, the CSR row buffer, work vectors e, p, p2, zc,
    the rank-growth flag per mistake); ``state`` is (record, span_tol, Q, wc, c_inv, r).
    """
    w, scratch, e, p, p2, zc, grew = arrays
    record, span_tol, Q, wc, c_inv, r = state
    n = w.shape[0]
    x = row_dense(X, i, scratch)
    s = dot(w, x, n)
    full = r == n
    if full and not record and y[i] * s > 0.0:
        return s, NO_UPDATE, state
    e2 = span_residual(Q, r, x, e, p, p2)  # p = Q x, e = x - Q^T p
    if full or e2 <= span_tol * dot(x, x, n):
        score = _in_span_margin(c_inv, p, r, s, zc) if record else s
        if y[i] * s > 0.0:
            return score, NO_UPDATE, state
        c = coordinates_update(c_inv, wc, p, r, s, y[i], zc)
        for j in range(r):
            cj = c * zc[j]
            for q in range(n):
                w[q] += cj * Q[j, q]
        return score, MISTAKE, state
    eta = np.sqrt(e2)
    c_inv = coordinates_grow(c_inv, p, r, eta, zc)
    c = (y[i] - s) / eta
    for q in range(n):
        e[q] /= eta
        w[q] += c * e[q]
    Q = append_row(Q, r, e)
    wc = grow_vector(wc, r)
    wc[r] = c
    grew[u] = 1
    return 0.0, MISTAKE, (record, span_tol, Q, wc, c_inv, r + 1)


@rule(returns_arrays=True)
def _pinv_dual_step(src, y, i, t, u, arrays, state):
    """Dual SO with the pseudoinverse over the engine's r supports, the basis mistakes b_j.

    ``l_inv`` is the inverse Cholesky factor of the Gram of b_0, ..., b_{r-1};
    the coordinates of x are p = l_inv K(B, x). ``arrays`` is (the rank-growth
    flag per mistake,); ``state`` is (record, span_tol, max_k, engine state, wc,
    l_inv, c_inv, the buffers g, p, zc, r); a rank increase that would make more
    than ``max_k`` supports stops the run.
    """
    (grew,) = arrays
    record, span_tol, max_k, st, wc, l_inv, c_inv, g, p, zc, r = state
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
        score = _in_span_margin(c_inv, p, r, s, zc) if record else s
        case = NO_UPDATE
        if y[i] * s <= 0.0:
            coordinates_update(c_inv, wc, p, r, s, y[i], zc)
            case = MISTAKE
        return score, case, (record, span_tol, max_k, st, wc, l_inv, c_inv, g, p, zc, r)
    if r >= max_k:
        return s, STOP, (record, span_tol, max_k, st, wc, l_inv, c_inv, g, p, zc, r)
    eta = np.sqrt(e2)
    c_inv = coordinates_grow(grow_square_within(c_inv, r, max_k), p, r, eta, zc)
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
    grew[u] = 1
    return 0.0, MISTAKE, (record, span_tol, max_k, st, wc, l_inv, c_inv, g, p, zc, r + 1)


pinv_primal_loop = online_loop(_pinv_primal_step, every=1)
pinv_dual_loop = online_loop(_pinv_dual_step, every=1)
