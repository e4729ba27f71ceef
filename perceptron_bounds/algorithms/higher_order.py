"""The Higher-Order Perceptron HO_p(c) and the p-norm Perceptron (SPEC 2.5).

Brotto, Gentile and Vitale's algorithm (paper 000, Figure 1 and sec. 2): with
instances normalised to ||x_t||_p = 1, B_0 = I, v_0 = 0 and the dual-norm link
g(theta) = grad ||theta||_p^2 / 2, i.e.
g_i(theta) = sign(theta_i) |theta_i|^(p-1) / ||theta||_p^(p-2),

    margin_t = g(B_{k-1} v_{k-1}) . B_{k-1} x_t
    on a mistake (y_t margin_t <= 0):
        v_k = v_{k-1} + y_t x_t,   B_k = B_{k-1} (I - rho_k x_t g(x_t)^T)

with rho_k = c / k (k counts mistakes from 1) or a user schedule. The sparse
variant sets rho_k = 0 when y_t v_{k-1} . x_t < 0 (B not updated, k still
counts the mistake). c = 0 is the p-norm Perceptron, and HO_2(0) the
Perceptron.

Three forms compute the same margins (paper 000 sec. 2, items 1-3):

* ``primal`` (p = 2): A_k = B_k^T B_k updated in O(n^2) per mistake (O(n nnz(x))
  when rho_k = 0), and w = A v kept so that a correct trial is one dot product;
* ``dual`` (p = 2, any Mercer kernel): the D_k, H_k, g_k recursion, margin
  g_{k-1}^T X_{k-1}^T x (k kernel values per trial, cached per row of X across
  epochs), O(a^2 + k) per mistake where a counts the mistakes with rho > 0;
* ``implicit`` (any p): B stored as its factors (x_i, g(x_i), rho_i);
  w = B^T g(B v) is recomputed once per mistake in O(n a), so a correct trial
  is one dot product.

Parameters of ``run_online("higher_order", ...)``: ``c`` in [0, 1) (default
0.4); ``rho`` None (the schedule c/k) or an array of values in [0, 1), one per
possible mistake (at least earlier mistakes + trials of the run); ``p >= 2``
(default 2); ``sparse`` (default False); ``form`` "primal" | "dual" |
"implicit" | "auto" (auto: dual for a non-linear kernel, primal for p = 2,
not sparse and at most ``PRIMAL_MAX_FEATURES`` features, implicit otherwise);
``normalize`` (default True: rows scaled to unit p-norm, or to unit norm in
the kernel's feature space, K(x, z) / sqrt(K(x, x) K(z, z)); a zero row stays
zero; False uses the data as given); ``kernel``, ``degree``, ``gamma``,
``coef0`` as in :mod:`perceptron_bounds.algorithms.kernels` (a non-linear
kernel needs p = 2 and the dual form). ``run_online("pnorm_perceptron", ...)``
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
    (SPEC 4.2).
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
    (dual form) every mistaken row of X (raw), its label, its feature-space
    scale 1/sqrt(K(x, x)) (1 without normalisation), the supports with
    rho > 0 and their rho, the compact D over them, and the vectors h and g
    of sec. 2 item 2.

The transformed instances y_t B_{k-1} x_{t(k)} of Theorem 1 are not stored
(an m x n array, dense even for sparse data): :func:`transformed_instances`
rebuilds them exactly from the record and X, and :func:`transformed_margins`
gives y_t u . B_{k-1} x_{t(k)} for a comparator u in O((m + a) n).

References
----------
C. Brotto, C. Gentile and F. Vitale, "On Higher-Order Perceptron Algorithms",
NIPS 2007 (paper 000): Figure 1, sec. 2, Theorem 1, sec. 4. C. Gentile,
"The robustness of the p-norm algorithms", Machine Learning 53 (2003), for
the p-norm Perceptron.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._jit import jit
from .._validation import (
    check_bool,
    check_choice,
    check_finite,
    check_labels,
    check_real,
    check_X,
    loop_arrays,
)
from ..hypothesis import HigherOrderHypothesis, HigherOrderKernelHypothesis
from ._registry import Algorithm, LoopResult, register
from .kernels import (
    KERNEL_DEFAULTS,
    _append_row,
    _append_support,
    _dot,
    _kernel_value,
    check_kernel_range,
    kernel_of,
    make_kernel,
    rows_buffer,
    square_buffer,
)

FORMS = ("primal", "dual", "implicit", "auto")
# form="auto" runs the primal form for p = 2 up to this many features (its A is n x n; a
# mistake costs O(n^2) against the implicit form's O(n a)), unless sparse=True, whose rare
# matrix updates keep a small.
PRIMAL_MAX_FEATURES = 1000
# The dual form caches kernel values per row of X across epochs up to this many entries.
CACHE_ENTRIES = 1 << 24


@jit
def _link(theta, p, out):
    """out = g(theta) = grad ||theta||_p^2 / 2 (identity for p = 2; 0 at theta = 0).

    Uses g(a theta) = a g(theta) with a = max |theta_i| so that |theta_i|^p
    cannot overflow, and one power per entry (|z|^p = |z|^(p-1) |z|). ``out``
    must not be ``theta``.
    """
    n = theta.shape[0]
    if p == 2.0:
        for j in range(n):
            out[j] = theta[j]
        return
    top = 0.0
    for j in range(n):
        top = max(top, abs(theta[j]))
    if top == 0.0:
        for j in range(n):
            out[j] = 0.0
        return
    s = 0.0
    for j in range(n):
        z = abs(theta[j]) / top
        t = z ** (p - 1.0)
        out[j] = t
        s += t * z
    scale = top / s ** ((p - 2.0) / p)
    for j in range(n):
        out[j] *= np.sign(theta[j]) * scale


@jit
def _link_rows(theta, p, out):
    """out[i] = g(theta[i]) for every row i of a 2-D array."""
    for i in range(theta.shape[0]):
        _link(theta[i], p, out[i])


# Two dot helpers rather than one with a dense/CSR branch inside: with the branch, the
# dense sum was not vectorised and a correct trial cost 1.7x the Perceptron's.
@jit
def _dense_dot(w, X, i):
    """w . X[i] for dense X."""
    s = 0.0
    for j in range(w.shape[0]):
        s += w[j] * X[i, j]
    return s


@jit
def _csr_dot(w, data, indices, indptr, i):
    """w . x_i for row i of the CSR matrix (data, indices, indptr)."""
    s = 0.0
    for q in range(indptr[i], indptr[i + 1]):
        s += w[indices[q]] * data[q]
    return s


@jit
def _row_axpy(a, X, data, indices, indptr, i, csr, out):
    """out += a x_i for row i of dense X or of the CSR matrix."""
    if csr:
        for q in range(indptr[i], indptr[i + 1]):
            out[indices[q]] += a * data[q]
    else:
        for j in range(out.shape[0]):
            out[j] += a * X[i, j]


@jit
def _mistake_start(X, data, indices, indptr, i, csr, yi, v, rho_k, sparse, x):
    """Load row i into the dense x; return (y v . x, rho): rho_k, or 0 for a sparse skip."""
    x[:] = 0.0
    _row_axpy(1.0, X, data, indices, indptr, i, csr, x)
    yvx = yi * _dot(v, x, x.shape[0])
    return yvx, 0.0 if sparse and yvx < 0.0 else rho_k


@jit
def _apply_B(F, G, rho, a, z):
    """z <- B z with B = prod_{i<a} (I - rho_i F_i G_i^T), unwrapped from the last factor."""
    n = z.shape[0]
    for k in range(a):
        i = a - 1 - k
        # The dot written out: with _dot(G[i], z, n) (or range(a - 1, -1, -1)) this loop
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
def _apply_BT(F, G, rho, a, q):
    """q <- B^T q with B as in :func:`_apply_B`, unwrapped from the first factor."""
    n = q.shape[0]
    for i in range(a):
        s = rho[i] * _dot(F[i], q, n)
        g = G[i]
        for j in range(n):
            q[j] -= s * g[j]


@jit
def _pnorm_loop(X, data, indices, indptr, csr, y, order, p, theta, w, margins):
    """p-norm Perceptron: margin w . x_t with w = g(theta); a mistake adds y_t x_t to theta.

    Updates theta and w in place; returns the mistake trials.
    """
    n_trials = order.shape[0]
    record = margins.shape[0] > 0
    mistakes = np.empty(n_trials, dtype=np.int64)
    m = 0
    for t in range(n_trials):
        i = order[t]
        s = _csr_dot(w, data, indices, indptr, i) if csr else _dense_dot(w, X, i)
        if record:
            margins[t] = s
        if y[i] * s <= 0.0:
            _row_axpy(y[i], X, data, indices, indptr, i, csr, theta)
            _link(theta, p, w)
            mistakes[m] = t
            m += 1
    return mistakes[:m].copy()


@jit
def _symmetric_sweep(A, u, xp, pending, x, ax):
    """A <- A + u xp^T + xp u^T (if ``pending``), then ax = A x, in one sweep of A's upper triangle.

    A is symmetric; with n = x.shape[0], only its leading n x n block is used
    (A may be a larger buffer). Only the upper triangle (j >= r) of that block
    is read and written: row r gives
    ax[r] += A[r, j] x[j] and, by symmetry, ax[j] += A[r, j] x[r]. Fusing the
    rank-two change of one mistake with the product of the next reads half of
    A once per mistake instead of all of it twice.
    """
    n = x.shape[0]
    for r in range(n):
        ax[r] = 0.0
    for r in range(n):
        # Slices from the diagonal, so that the inner loops start at 0 (Numba vectorises them).
        row, ut, pt, xt, at = A[r, r:], u[r:], xp[r:], x[r:], ax[r:]
        xr = x[r]
        s = 0.0
        if pending:
            ur = u[r]
            pr = xp[r]
            for j in range(n - r):
                e = row[j] + ur * pt[j] + pr * ut[j]
                row[j] = e
                s += e * xt[j]
                at[j] += e * xr
        else:
            for j in range(n - r):
                s += row[j] * xt[j]
                at[j] += row[j] * xr
        ax[r] += s - row[0] * xr  # the diagonal entered both s and at[0] = ax[r]


@jit
def _symmetric_csr_matvec(A, data, indices, indptr, i, ax):
    """ax = A x_i for row i of a CSR matrix, from A's upper triangle, in O(n nnz(x_i))."""
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
def _primal_loop(X, data, indices, indptr, csr, y, order, rho_seq, k0, sparse,
                 A, v, w, F, frho, a, margins, out_rho, out_yvx, out_r):
    """HO_2 primal form (paper 000 sec. 2 item 1): A = B^T B, w = A v, margin w . x_t.

    On a mistake, with a = A x and v' = v + y x:
    w <- A' v' = w + y a - rho a (x . v') - rho x (a . v') + rho^2 (x . a) x (x . v'),
    and, when rho > 0, A <- A + u x^T + x u^T with u = rho (rho (x . a) / 2 x - a),
    i.e. A - rho a x^T - rho x a^T + rho^2 (x . a) x x^T, and x is appended to the
    factor buffers (F, frho). The loop keeps the upper triangle of A only; the
    rank-two change is deferred to the next mistake's product (one O(n^2 / 2)
    sweep per mistake, see :func:`_symmetric_sweep`), and applied, and A
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
        i = order[t]
        s = _csr_dot(w, data, indices, indptr, i) if csr else _dense_dot(w, X, i)
        if record:
            margins[t] = s
        if y[i] * s > 0.0:
            continue
        yi = y[i]
        yvx, rho = _mistake_start(X, data, indices, indptr, i, csr, yi, v, rho_seq[k0 + m],
                                  sparse, x)
        out_rho[m] = rho
        out_yvx[m] = yvx
        out_r[m] = 1.0 - rho * (yvx + _dot(x, x, n))
        # a = A x by the cheapest route (counted in element reads): with no change pending,
        # A = B^T B is also its a factors (about 4 a n), or x's nonzeros (nnz n); else
        # the sweep of the triangle (n^2 / 2).
        nnz = indptr[i + 1] - indptr[i] if csr else n
        if not pending and 4 * a < min(nnz, n // 2):
            for j in range(n):
                ax[j] = x[j]
            _apply_B(F, F, frho, a, ax)
            _apply_BT(F, F, frho, a, ax)
        elif csr and not pending:
            _symmetric_csr_matvec(A, data, indices, indptr, i, ax)
        else:
            _symmetric_sweep(A, u, xp, pending, x, ax)
        pending = False
        for j in range(n):
            v[j] += yi * x[j]
        if rho > 0.0:
            xax = _dot(x, ax, n)
            xv = _dot(x, v, n)
            axv = _dot(ax, v, n)
            half = 0.5 * rho * xax
            for j in range(n):
                w[j] += yi * ax[j] - rho * (ax[j] * xv + x[j] * axv - rho * xax * x[j] * xv)
                u[j] = rho * (half * x[j] - ax[j])
                xp[j] = x[j]
            pending = True
            F, frho = _append_support(F, frho, a, x, rho)
            a += 1
        else:
            for j in range(n):
                w[j] += yi * ax[j]
        mistakes[m] = t
        m += 1
    if pending:
        _symmetric_sweep(A, u, xp, pending, x, ax)
    for r in range(n):
        for j in range(r + 1, n):
            A[j, r] = A[r, j]
    return mistakes[:m].copy(), F, frho, a


@jit
def _implicit_loop(X, data, indices, indptr, csr, y, order, rho_seq, k0, sparse, p,
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
        i = order[t]
        s = _csr_dot(w, data, indices, indptr, i) if csr else _dense_dot(w, X, i)
        if record:
            margins[t] = s
        if y[i] * s > 0.0:
            continue
        yi = y[i]
        yvx, rho = _mistake_start(X, data, indices, indptr, i, csr, yi, v, rho_seq[k0 + m],
                                  sparse, x)
        _link(x, p, gx)
        out_rho[m] = rho
        out_yvx[m] = yvx
        out_r[m] = 1.0 - rho * (yi * _dot(v, gx, n) + _dot(gx, x, n))
        if rho > 0.0:
            F, frho = _append_support(F, frho, a, x, rho)
            if p != 2.0:
                G = _append_row(G, a, gx)
            a += 1
        for j in range(n):
            v[j] += yi * x[j]
            z[j] = v[j]
        Gp = F if p == 2.0 else G
        _apply_B(F, Gp, frho, a, z)
        _link(z, p, w)
        _apply_BT(F, Gp, frho, a, w)
        mistakes[m] = t
        m += 1
    return mistakes[:m].copy(), F, G, frho, a


@jit
def _dual_loop(X, y, order, xscale, xnorm2, rho_seq, k0, sparse,
               S, sy, k, sscale, h, g, active, arho, D, a, code, degree, gamma, coef0,
               cache, filled, margins, out_rho, out_yvx, out_r):
    """HO_2 dual form (paper 000 sec. 2 item 2) with a Mercer kernel.

    Instances are phi(x) xscale (xscale = 1/sqrt(K(x, x)) when normalising, so
    xnorm2 = ||phi(x) xscale||^2 = 1). The margin is g . r with
    r_j = K(S_j, x) sscale_j xscale; A = I + X_a D X_a^T over the supports
    with rho > 0 (``active``, their rho in ``arho``). On a mistake with rho > 0:
    b = D X_a^T x, D <- [[D, -rho b], [-rho b^T, rho^2 x^T X_a b - 2 rho + rho^2 ||x||^2]];
    always h_j += y r_j, h_k = v . x + y ||x||^2. g = y + D h is updated in
    O(a + k) from b: g_q += (y - rho h_k) b_q on the old active supports and
    g_k = y - rho b . h_a + d_kk h_k (g_k = y when rho = 0), so a mistake costs
    one pass over D (O(a^2)). Kernel rows
    of a row of X are cached in ``cache`` (``filled[i]`` entries valid) and
    reused on later epochs. Returns (mistake trials, S, sy, k, D, a, cache).
    """
    n_trials = order.shape[0]
    record = margins.shape[0] > 0
    mistakes = np.empty(n_trials, dtype=np.int64)
    r = np.empty(h.shape[0])
    ra = np.empty(h.shape[0])  # r over the active supports, contiguous for the product with D
    b = np.empty(h.shape[0])
    use_cache = cache.shape[0] > 0
    m = 0
    for t in range(n_trials):
        i = order[t]
        x = X[i]
        start = 0
        if use_cache:
            start = filled[i]
            for j in range(start):
                r[j] = cache[i, j]
        s = 0.0
        for j in range(start, k):
            r[j] = _kernel_value(S[j], x, code, degree, gamma, coef0) * sscale[j] * xscale[i]
        for j in range(k):
            s += g[j] * r[j]
        if use_cache and k > start:
            if k > cache.shape[1] and cache.shape[0] * 2 * k <= CACHE_ENTRIES:
                grown = np.empty((cache.shape[0], 2 * k))
                for q in range(cache.shape[0]):
                    for j in range(filled[q]):
                        grown[q, j] = cache[q, j]
                cache = grown
            stop = min(k, cache.shape[1])
            for j in range(start, stop):
                cache[i, j] = r[j]
            filled[i] = max(start, stop)
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
        _symmetric_sweep(D, ra, ra, False, ra[:a], b[:a])
        rb = _dot(ra, b, a)
        for j in range(k):
            h[j] += yi * r[j]
        hk = vx + yi * xx
        h[k] = hk
        for q in range(a):
            g[active[q]] += (yi - rho * hk) * b[q]
        g[k] = yi
        if rho > 0.0:
            if a == D.shape[0]:
                grown = np.zeros((2 * a + 16, 2 * a + 16))
                grown[:a, :a] = D[:a, :a]
                D = grown
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
        S, sy = _append_support(S, sy, k, x, yi)
        k += 1
        mistakes[m] = t
        m += 1
    return mistakes[:m].copy(), S, sy, k, D, a, cache


@jit
def _transform_loop(Z, F, G, frho, idx):
    """Z[k] <- B_{idx[k]} Z[k], B_a the product of the first a factors (see :func:`_apply_B`)."""
    for k in range(Z.shape[0]):
        _apply_B(F, G, frho, idx[k], Z[k])


@jit
def _row_norms_loop(X, data, indices, indptr, p, out):
    """out[i] = ||x_i||_p for dense X or the CSR arrays, scaled by max_j |x_ij| against overflow."""
    csr = indptr.shape[0] > 0
    for i in range(out.shape[0]):
        row = data[indptr[i]:indptr[i + 1]] if csr else X[i]
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


def _row_norms(X, p: float) -> np.ndarray:
    """||x||_p of every row of validated dense or CSR X, without a temporary copy of X."""
    out = np.empty(X.shape[0])
    _row_norms_loop(*loop_arrays(X), float(p), out)
    return out


def normalize_rows(X, p: float):
    """X with every nonzero row scaled to unit p-norm (zero rows stay zero); a copy.

    Parameters
    ----------
    X : ndarray or scipy.sparse.csr_matrix
        float64 data (validated).
    p : float
        Norm parameter, >= 2 (SPEC 2.5: ||x_t||_p = 1).

    Returns
    -------
    ndarray or scipy.sparse.csr_matrix (int64 indices) like ``X``
        Row t is x_t / ||x_t||_p, the instances of paper 000 Figure 1.
    """
    norms = _row_norms(X, p)
    inv = np.divide(1.0, norms, out=np.ones_like(norms), where=norms > 0)
    if sp.issparse(X):
        out = sp.csr_matrix(sp.diags(inv) @ X)
        out.indices = out.indices.astype(np.int64)
        out.indptr = out.indptr.astype(np.int64)
        return out
    return np.ascontiguousarray(X * inv[:, None])


def link(theta, p: float) -> np.ndarray:
    """The p-norm link g(theta) = grad ||theta||_p^2 / 2, for a 1-D array or row by row.

    g_i(theta) = sign(theta_i) |theta_i|^(p-1) / ||theta||_p^(p-2), g(0) = 0,
    and g is the identity for p = 2 (SPEC 2.5; paper 000 sec. 2; Gentile 2003
    for the p-norm algorithms). Computed as g(theta) = a g(theta / a) with
    a = max |theta_i|, so that |theta_i|^p cannot overflow.

    Parameters
    ----------
    theta : array-like of shape (n,) or (m, n)
        A vector, or vectors as rows.
    p : float
        Norm parameter, p >= 2.

    Returns
    -------
    ndarray of the shape of ``theta``

    Examples
    --------
    >>> link([3.0, -4.0], 2.0).tolist()
    [3.0, -4.0]
    >>> g = link([3.0, -4.0], 4.0)
    >>> bool(np.isclose(g @ [3.0, -4.0], np.sum(np.abs([3.0, -4.0]) ** 4) ** 0.5))
    True
    """
    theta = np.array(theta, dtype=np.float64, order="C")  # a writeable copy: one loop signature
    out = np.empty_like(theta)
    if theta.ndim == 1:
        _link(theta, float(p), out)
    else:
        _link_rows(theta, float(p), out)
    return out


def _loop_rows(X) -> tuple:
    """(dense X, data, indices, indptr, csr) as the loops take them."""
    return (*loop_arrays(X), sp.issparse(X))


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
    form = check_choice("form", params["form"], FORMS)
    kernel = make_kernel(
        params["kernel"], params["degree"], params["gamma"], params["coef0"],
        n_features=data.n_features,
    )
    if not kernel.is_linear and p != 2.0:
        raise ValueError(f"a non-linear kernel needs p=2 (the dual form), got p={p!r}")
    if form == "auto":
        if not kernel.is_linear:
            form = "dual"
        elif p == 2.0 and not sparse and data.n_features <= PRIMAL_MAX_FEATURES:
            form = "primal"
        else:
            form = "implicit"
    if form != "dual" and not kernel.is_linear:
        raise ValueError(f"form={form!r} needs kernel='linear'; kernel={kernel.name!r} "
                         "needs form='dual'")
    if form in ("primal", "dual") and p != 2.0:
        raise ValueError(f"form={form!r} exists for p=2 only, got p={p!r}; use form='implicit'")
    if form == "dual" and data.sparse:
        raise TypeError("the dual (kernel) form needs dense X, got a sparse matrix; "
                        "pass X.toarray() or use form='primal' or 'implicit'")
    check_kernel_range(kernel, data.X)
    return {"c": c, "rho": rho, "p": p, "sparse": sparse, "form": form,
            "normalize": normalize, **kernel.params()}


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


def _run_linear(data, order, params, margins, previous) -> LoopResult:
    p = params["p"]
    X = normalize_rows(data.X, p) if params["normalize"] else data.X
    n = data.n_features
    k0 = 0 if previous is None else previous.state["mistakes_total"]
    T = order.shape[0]
    rho_seq = _rho_sequence(params, k0, T)
    outs = np.empty(T), np.empty(T), np.empty(T)
    v = np.zeros(n) if previous is None else np.array(previous.state["v"])
    F, frho, a = _factor_buffers(previous, n)
    rows = _loop_rows(X)
    state = {}
    if params["form"] == "primal":
        A = np.eye(n) if previous is None else np.array(previous.state["A"])
        w = A @ v
        trials, F, frho, a = _primal_loop(
            *rows, data.y, order, rho_seq, k0, params["sparse"], A, v, w, F, frho, a,
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
        trials, F, G, frho, a = _implicit_loop(
            *rows, data.y, order, rho_seq, k0, params["sparse"], p, v, w, F, G, frho, a,
            margins, *outs,
        )
    m = trials.shape[0]
    state.update(_records(m, *outs))
    state.update(v=v, factors=F[:a].copy(), factor_rho=frho[:a].copy(),
                 mistakes_total=k0 + m, normalized=params["normalize"])
    return LoopResult(trials, HigherOrderHypothesis(w, p, params["normalize"]), state=state)


def _dual_buffers(previous, n: int, capacity: int):
    """Support-set state (S, sy, k, sscale, h, g, active, arho, D, a) for the dual loop."""
    S, sy, k = np.empty((16, n)), np.empty(16), 0
    sscale, h, g = np.empty(capacity), np.empty(capacity), np.empty(capacity)
    active, arho = np.empty(capacity, dtype=np.int64), np.empty(capacity)
    D, a = np.zeros((16, 16)), 0
    if previous is not None:
        st = previous.state
        k, a = st["support"].shape[0], st["active"].shape[0]
        S, sy = rows_buffer(st["support"]), rows_buffer(st["support_y"])
        sscale[:k], h[:k], g[:k] = st["support_scale"], st["h"], st["g"]
        active[:a], arho[:a] = st["active"], st["factor_rho"]
        D = square_buffer(st["D"])
    return S, sy, k, sscale, h, g, active, arho, D, a


def _run_dual(data, order, params, margins, previous) -> LoopResult:
    kernel = kernel_of(params)
    X = data.X
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
    k_prev = 0 if previous is None else previous.state["support"].shape[0]
    S, sy, k, sscale, h, g, active, arho, D, a = _dual_buffers(
        previous, data.n_features, k_prev + T + 1
    )
    repeats = T > data.n_samples
    cache = np.empty((data.n_samples if repeats else 0, 16))
    filled = np.zeros(data.n_samples, dtype=np.int64)
    outs = np.empty(T), np.empty(T), np.empty(T)
    trials, S, sy, k, D, a, _ = _dual_loop(
        X, data.y, order, xscale, xnorm2, rho_seq, k0, params["sparse"],
        S, sy, k, sscale, h, g, active, arho, D, a, *kernel.loop_args(),
        cache, filled, margins, *outs,
    )
    m = trials.shape[0]
    state = _records(m, *outs)
    state.update(
        support=S[:k].copy(), support_y=sy[:k].copy(), support_scale=sscale[:k].copy(),
        active=active[:a].copy(), factor_rho=arho[:a].copy(), D=D[:a, :a].copy(),
        h=h[:k].copy(), g=g[:k].copy(),
        mistakes_total=k0 + m, normalized=params["normalize"],
    )
    hypothesis = HigherOrderKernelHypothesis(
        S[:k].copy(), g[:k] * sscale[:k], kernel, params["normalize"]
    )
    return LoopResult(trials, hypothesis, state=state)


def _fit(data, order, params, margins, previous) -> LoopResult:
    if params["form"] == "dual":
        return _run_dual(data, order, params, margins, previous)
    return _run_linear(data, order, params, margins, previous)


HIGHER_ORDER = register(
    Algorithm(
        name="higher_order",
        defaults={"c": 0.4, "rho": None, "p": 2.0, "sparse": False, "form": "auto",
                  "normalize": True, **KERNEL_DEFAULTS},
        resolve=_resolve,
        fit=_fit,
        summary="Higher-Order Perceptron HO_p(c) (Brotto-Gentile-Vitale): primal, dual, implicit",
    )
)


def _resolve_pnorm(params: dict, data) -> dict:
    return {"p": check_real("p", params["p"], low=2.0),
            "normalize": check_bool("normalize", params["normalize"])}


def _fit_pnorm(data, order, params, margins, previous) -> LoopResult:
    p = params["p"]
    X = normalize_rows(data.X, p) if params["normalize"] else data.X
    theta = np.zeros(data.n_features) if previous is None else np.array(previous.state["theta"])
    w = link(theta, p)
    trials = _pnorm_loop(*_loop_rows(X), data.y, order, p, theta, w, margins)
    return LoopResult(trials, HigherOrderHypothesis(w, p, params["normalize"]),
                      state={"theta": theta, "normalized": params["normalize"]})


PNORM_PERCEPTRON = register(
    Algorithm(
        name="pnorm_perceptron",
        defaults={"p": 2.0, "normalize": True},
        resolve=_resolve_pnorm,
        fit=_fit_pnorm,
        summary="p-norm Perceptron (Grove-Littlestone-Schuurmans; Gentile): HO_p(0)",
    )
)


def _check_ho_run(run, X, y):
    """Validate (run, X, y) and return the mistaken instances as the loop used them, and y_t."""
    if getattr(run, "algorithm", None) != "higher_order":
        raise ValueError(f"run must be an OnlineRun of 'higher_order', got {run!r}")
    X = check_X(X, n_features=run.n_features)
    y_pm, _ = check_labels(y, X.shape[0], run.classes)
    rows = run.mistake_rows
    if rows.size and rows.max() >= X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows, but the run showed row {rows.max()}: "
                         "pass the training data of the run")
    return X[rows], y_pm[rows]


def _factor_index(run) -> np.ndarray:
    """For mistake k of the run, the number of factors of B_{k-1} (warm-start factors included)."""
    rho = run.state["rho"]
    a0 = run.state["factor_rho"].shape[0] - run.state["matrix_updates"]
    return (a0 + np.concatenate([[0], np.cumsum(rho > 0)[:-1]])).astype(np.int64)


def _linear_factors(run):
    """(F, G, frho): the factors x_i, g(x_i), rho_i of B as the loop used them (linear kernel)."""
    st, p = run.state, run.params["p"]
    if run.params["form"] == "dual":
        active = st["active"]
        F = st["support"][active] * st["support_scale"][active, None]
    else:
        F = np.array(st["factors"])
    return F, link(F, p), np.array(st["factor_rho"])


def _as_dense(Z) -> np.ndarray:
    return np.ascontiguousarray(Z.toarray() if sp.issparse(Z) else Z, dtype=np.float64)


def transformed_instances(run, X, y) -> np.ndarray:
    """The transformed mistaken instances y_t B_{k-1} x_{t(k)} of paper 000 eq. (1).

    Rebuilt exactly from the record: B_{k-1} is the product of the first
    factors (I - rho_i x_i g(x_i)^T) stored in ``run.state`` (warm-start
    factors first), applied to the mistaken instance as the run used it
    (normalised when ``normalize=True``). Linear runs only (any p, any form);
    for a non-linear kernel use :func:`transformed_margins`.

    Parameters
    ----------
    run : OnlineRun
        A ``"higher_order"`` run.
    X, y : array-like
        The training data of the run (the rows its ``sample_index`` points to).

    Returns
    -------
    ndarray of shape (run.mistakes, n_features)
        Row k is y_t B_{k-1} x_{t(k)}, t = ``run.mistake_trials[k]``. Costs
        O(m a n) for m mistakes and a factors.
    """
    Xm, ym = _check_ho_run(run, X, y)
    if run.params["kernel"] != "linear":
        raise ValueError("transformed_instances needs a linear-kernel run (the instances of a "
                         f"{run.params['kernel']!r} kernel live in its feature space); use "
                         "transformed_margins with u given as a function")
    Z = normalize_rows(Xm, run.params["p"]) if run.params["normalize"] else Xm
    Z = _as_dense(Z)
    F, G, frho = _linear_factors(run)
    _transform_loop(Z, F, G, frho, _factor_index(run))
    return Z * ym[:, None]


def transformed_margins(run, X, y, u) -> np.ndarray:
    """Margins y_t u . B_{k-1} x_{t(k)} of a comparator u on the transformed sequence (Thm 1).

    Computed as y_t (B_{k-1}^T u) . x_{t(k)} with
    B_k^T u = B_{k-1}^T u - rho_k g(x_k) (x_k . B_{k-1}^T u), in O((m + a) n) for a
    linear run. The hinge losses of Theorem 1 are max(0, gamma - margins).

    Parameters
    ----------
    run : OnlineRun
        A ``"higher_order"`` run.
    X, y : array-like
        The training data of the run.
    u : ndarray of shape (n_features,) or callable
        The comparator (the theorem takes ||u|| = 1; u is used as given). For a
        non-linear kernel run, a function mapping a 2-D array of raw rows z to
        the values u . phi(z) (e.g. ``lambda Z: kernel.gram(Z, Zu) @ alpha``);
        normalisation in feature space is applied here.

    Returns
    -------
    ndarray of shape (run.mistakes,)

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import run_online
    >>> from perceptron_bounds.algorithms.higher_order import (
    ...     transformed_instances, transformed_margins)
    >>> X = np.array([[1.0, 0.2], [0.3, 1.0], [-1.0, -0.1], [-0.2, -1.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> run = run_online("higher_order", X, y, epochs=3, c=0.4)
    >>> u = np.array([0.6, 0.8])
    >>> margins = transformed_margins(run, X, y, u)
    >>> bool(np.allclose(margins, transformed_instances(run, X, y) @ u))
    True
    >>> margins.shape == (run.mistakes,)
    True
    """
    Xm, ym = _check_ho_run(run, X, y)
    idx = _factor_index(run)
    if run.params["kernel"] == "linear":
        if callable(u):
            raise TypeError("u must be an array of n_features values for a linear-kernel run")
        u = np.asarray(u, dtype=np.float64)
        if u.shape != (run.n_features,):
            raise ValueError(f"u must have shape ({run.n_features},), got {u.shape}")
        Z = normalize_rows(Xm, run.params["p"]) if run.params["normalize"] else Xm
        Z = _as_dense(Z)
        F, G, frho = _linear_factors(run)
        out = np.empty(Z.shape[0])
        U = u.copy()
        j = 0
        for k in range(Z.shape[0]):
            while j < idx[k]:
                U -= frho[j] * (F[j] @ U) * G[j]
                j += 1
            out[k] = U @ Z[k]
        return ym * out
    if not callable(u):
        raise TypeError("for a non-linear kernel run, u must be a function returning u . phi(z) "
                        "for the rows z of a 2-D array")
    st = run.state
    kernel = kernel_of(run.params)
    active = st["active"]
    Fr, fs, frho = st["support"][active], st["support_scale"][active], st["factor_rho"]
    xs = np.ones(Xm.shape[0])
    if run.params["normalize"]:
        diag = kernel.diagonal(Xm)
        xs = np.divide(1.0, np.sqrt(np.maximum(diag, 0.0)), out=xs, where=diag > 0)
    u_f = np.asarray(u(Fr), dtype=np.float64) * fs
    u_x = np.asarray(u(Xm), dtype=np.float64) * xs
    gram_f = kernel.gram(Fr, Fr) * fs[:, None] * fs[None, :]
    cross = kernel.gram(Fr, Xm) * fs[:, None] * xs[None, :]
    beta = np.zeros(Fr.shape[0])
    for i in range(Fr.shape[0]):
        beta[i] = -frho[i] * (u_f[i] + beta[:i] @ gram_f[:i, i])
    before = np.arange(Fr.shape[0])[:, None] < idx[None, :]
    return ym * (u_x + np.sum(np.where(before, beta[:, None] * cross, 0.0), axis=0))
