"""The update rules of the Higher-Order Perceptron HO_p(c) (theory §2.5), one per form.

Each rule is written once for dense and CSR rows and compiled into the loop
frame of :mod:`perceptron_bounds.algorithms._frame`, which checks for Ctrl-C
on every trial (a mistake costs O(n^2) or O(n a)); :mod:`.higher_order` holds
the parameters, the fits and the registration. The notation is that of
:mod:`.higher_order`: on a mistake with rho_k > 0, B_k = B_{k-1} (I - rho_k x g(x)^T),
A = B^T B, v_k = v_{k-1} + y x. Every rule records, per mistake (the frame's
update index u), rho_k, y v_{k-1} . x and r_k = 1 - rho_k (y g(x) . v_{k-1} + g(x) . x)
in ``out_rho``, ``out_yvx`` and ``out_r``.

References
----------
C. Brotto, C. Gentile and F. Vitale, "On Higher-Order Perceptron Algorithms",
NIPS 2007 (paper 000): Figure 1, sec. 2 items 1-3, Theorem 1.
"""

from __future__ import annotations

from .._jit import jit, rule
from .._linalg import (
    append_row,
    dot,
    grow_square,
    grow_vector,
    row_axpy,
    row_dot,
    row_nnz,
    row_symmetric_matvec,
    symmetric_matvec,
    symmetric_sweep,
)
from ..kernel_engine import engine_append, engine_row
from ._cases import MISTAKE, NO_UPDATE
from ._frame import online_loop
from .pnorm import link_into


@jit
def _mistake_start(X, i, yi, v, rho_k, sparse, x, u, out_rho, out_yvx):
    """Load row i into the dense x; return (y v . x, rho): rho_k, or 0 for a sparse skip,
    both recorded as the u-th mistake's."""
    x[:] = 0.0
    row_axpy(X, i, 1.0, x)
    yvx = yi * dot(v, x, x.shape[0])
    rho = 0.0 if sparse and yvx < 0.0 else rho_k
    out_rho[u] = rho
    out_yvx[u] = yvx
    return yvx, rho


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


@rule(returns_arrays=True)
def _primal_step(X, y, i, t, u, arrays, state):
    """HO_2 primal form (paper 000 sec. 2 item 1): A = B^T B, w = A v, margin w . x_t.

    On a mistake, with a = A x and v' = v + y x:
    w <- A' v' = w + y a - rho a (x . v') - rho x (a . v') + rho^2 (x . a) x (x . v'),
    and, when rho > 0, A <- A + u x^T + x u^T with u = rho (rho (x . a) / 2 x - a),
    i.e. A - rho a x^T - rho x a^T + rho^2 (x . a) x x^T, and x is appended to the
    factor buffers (F, frho). Only the upper triangle of A is kept; the rank-two
    change is deferred to the next mistake's product (one O(n^2 / 2) sweep per
    mistake, :func:`perceptron_bounds._linalg.symmetric_sweep`), and applied, and
    A mirrored, by the caller at the end (``pending``). When no change is pending
    (rho = 0 at the last mistake, e.g. the sparse variant's skips), a = B^T B x from
    the a factors in O(n a) if that is cheaper, or from the nonzeros of a CSR row
    in O(n nnz(x)).

    ``arrays`` is (rho_k per mistake of the history, A, v, w, work vectors x, ax,
    the pending change's u and x, out_rho, out_yvx, out_r); ``state`` is (mistakes
    before this run, sparse, pending, F, frho, a).
    """
    rho_seq, A, v, w, x, ax, uu, xp, out_rho, out_yvx, out_r = arrays
    k0, sparse, pending, F, frho, a = state
    n = v.shape[0]
    s = row_dot(X, i, w)
    yi = y[i]
    if yi * s > 0.0:
        return s, NO_UPDATE, state
    yvx, rho = _mistake_start(X, i, yi, v, rho_seq[k0 + u], sparse, x, u, out_rho, out_yvx)
    out_r[u] = 1.0 - rho * (yvx + dot(x, x, n))
    # a = A x by the cheapest route (counted in element reads): with no change pending,
    # A = B^T B is also its a factors (about 4 a n), or x's nonzeros (nnz n); else
    # the sweep of the triangle (n^2 / 2).
    if not pending and 4 * a < min(row_nnz(X, i), n // 2):
        for j in range(n):
            ax[j] = x[j]
        apply_b(F, F, frho, a, ax)
        _apply_bt(F, F, frho, a, ax)
    elif pending:
        symmetric_sweep(A, uu, xp, x, ax)
    else:
        row_symmetric_matvec(X, i, A, x, ax)
    for j in range(n):
        v[j] += yi * x[j]
    pending = rho > 0.0
    if pending:
        xax = dot(x, ax, n)
        xv = dot(x, v, n)
        axv = dot(ax, v, n)
        half = 0.5 * rho * xax
        for j in range(n):
            w[j] += yi * ax[j] - rho * (ax[j] * xv + x[j] * axv - rho * xax * x[j] * xv)
            uu[j] = rho * (half * x[j] - ax[j])
            xp[j] = x[j]
        F = append_row(F, a, x)
        frho = grow_vector(frho, a)
        frho[a] = rho
        a += 1
    else:
        for j in range(n):
            w[j] += yi * ax[j]
    return s, MISTAKE, (k0, sparse, pending, F, frho, a)


@rule(returns_arrays=True)
def _implicit_step(X, y, i, t, u, arrays, state):
    """HO_p implicit primal form (paper 000 sec. 2 item 3): margin w . x_t, w = B^T g(B v).

    B is kept as its factors (F_i = x_i, G_i = g(x_i), frho_i; for p = 2, G is
    F itself and the G buffer stays unused); on a mistake the factor is
    appended when rho > 0, v <- v + y x, and w is recomputed by unwrapping B
    (O(n a)). ``arrays`` is (rho_k per mistake of the history, v, w, work vectors
    x, g(x), z, out_rho, out_yvx, out_r); ``state`` is (mistakes before this run,
    sparse, p, F, G, frho, a).
    """
    rho_seq, v, w, x, gx, z, out_rho, out_yvx, out_r = arrays
    k0, sparse, p, F, G, frho, a = state
    n = v.shape[0]
    s = row_dot(X, i, w)
    yi = y[i]
    if yi * s > 0.0:
        return s, NO_UPDATE, state
    yvx, rho = _mistake_start(X, i, yi, v, rho_seq[k0 + u], sparse, x, u, out_rho, out_yvx)
    link_into(x, p, gx)
    out_r[u] = 1.0 - rho * (yi * dot(v, gx, n) + dot(gx, x, n))
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
    return s, MISTAKE, (k0, sparse, p, F, G, frho, a)


@rule(returns_arrays=True)
def _dual_step(src, y, i, t, u, arrays, state):
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
    engine (``src``). ``arrays`` is (xscale, xnorm2, rho_k per mistake of the
    history, the per-support sy, sscale, h, g, active, arho, work vectors r,
    ra (r over the active supports, contiguous for the product with D), b,
    out_rho, out_yvx, out_r); ``state`` is (mistakes before this run, sparse,
    engine state, k, D, a).
    """
    (xscale, xnorm2, rho_seq, sy, sscale, h, g, active, arho, r, ra, b,
     out_rho, out_yvx, out_r) = arrays
    k0, sparse, st, k, D, a = state
    st = engine_row(src, st, t, k, r)
    for j in range(k):
        r[j] = r[j] * sscale[j] * xscale[i]
    s = 0.0
    for j in range(k):
        s += g[j] * r[j]
    yi = y[i]
    if yi * s > 0.0:
        return s, NO_UPDATE, (k0, sparse, st, k, D, a)
    vx = 0.0
    for j in range(k):
        vx += sy[j] * r[j]
    yvx = yi * vx
    rho = rho_seq[k0 + u]
    if sparse and yvx < 0.0:
        rho = 0.0
    xx = xnorm2[i]
    out_rho[u] = rho
    out_yvx[u] = yvx
    out_r[u] = 1.0 - rho * (yvx + xx)
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
    return s, MISTAKE, (k0, sparse, st, k + 1, D, a)


primal_loop = online_loop(_primal_step, every=1)
implicit_loop = online_loop(_implicit_step, every=1)
dual_loop = online_loop(_dual_step, every=1)
