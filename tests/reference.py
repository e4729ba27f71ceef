"""Plain-NumPy reference implementations, written straight from the papers (and docs/theory.md).

Slow and obvious on purpose: every jitted loop of the package is compared with
one of these. Each function takes X (dense ndarray), y in {-1, +1}, and the
presented order (rows of X, one per trial; ``presented_sequence`` draws it
as theory §1.2 says), and mirrors the paper's pseudo-code line by line. A margin
of exactly zero is a mistake (theory §1.1).
"""

import numpy as np
import scipy.linalg


def kernel(name, a, b, degree=3, gamma=1.0, coef0=1.0):
    """theory §1.7: linear a.b, poly (gamma a.b + coef0)^degree, rbf exp(-gamma ||a-b||^2)."""
    if name == "linear":
        return float(a @ b)
    if name == "poly":
        return float((gamma * (a @ b) + coef0) ** degree)
    return float(np.exp(-gamma * np.sum((a - b) ** 2)))


def perceptron(X, y, order, w=None):
    """theory §2.1: w_1 = 0; on y_t w.x_t <= 0, w <- w + y_t x_t.

    Returns (mistake_trials, w, margins).
    """
    w = np.zeros(X.shape[1]) if w is None else np.array(w, dtype=float)
    mistakes, margins = [], []
    for t, i in enumerate(order):
        margin = w @ X[i]
        margins.append(margin)
        if y[i] * margin <= 0:
            w = w + y[i] * X[i]
            mistakes.append(t)
    return np.array(mistakes, dtype=np.int64), w, np.array(margins)


def kernel_perceptron(X, y, order, kernel_name="rbf", **kernel_params):
    """theory §2.1, kernel form: f = sum over mistakes of y_i K(x_i, .).

    Returns (mistake_trials, support_rows, dual_coef, margins).
    """
    support, coef, mistakes, margins = [], [], [], []
    for t, i in enumerate(order):
        margin = sum(c * kernel(kernel_name, X[s], X[i], **kernel_params)
                     for s, c in zip(support, coef, strict=True))
        margins.append(margin)
        if y[i] * margin <= 0:
            support.append(i)
            coef.append(y[i])
            mistakes.append(t)
    return (np.array(mistakes, dtype=np.int64), np.array(support, dtype=np.int64),
            np.array(coef, dtype=float), np.array(margins))


def voted_perceptron(X, y, order, kernel_name="linear", **kernel_params):
    """Paper 001, Fig. 1, training: the list of (v_j, c_j) and the mistake trials.

    Every v_j is built explicitly: a vector of R^n for the linear kernel, the
    list of its terms (x_s, y_s) of sum_s y_s K(x_s, .) otherwise. Returns
    (mistake_trials, vectors, counts), where vectors[j] is a pair (dot, norm)
    for v_{j+1}: dot(z) = v_{j+1} . z and norm = ||v_{j+1}|| (sqrt(a^T G a)).
    """
    linear = kernel_name == "linear"

    def dot(v, z):
        if linear:
            return float(v @ z)
        return sum(c * kernel(kernel_name, s, z, **kernel_params) for s, c in v)

    def norm(v):
        if linear:
            return float(np.linalg.norm(v))
        a = np.array([c for _, c in v])
        G = np.array([[kernel(kernel_name, s, q, **kernel_params) for q, _ in v] for s, _ in v])
        return float(np.sqrt(a @ G @ a)) if len(v) else 0.0

    vectors = [np.zeros(X.shape[1]) if linear else []]
    counts = [0]
    mistakes = []
    for t, i in enumerate(order):
        v = vectors[-1]
        if y[i] * dot(v, X[i]) <= 0:
            vectors.append(v + y[i] * X[i] if linear else v + [(X[i], y[i])])
            counts.append(1)
            mistakes.append(t)
        else:
            counts[-1] += 1
    pairs = [((lambda z, v=v: dot(v, z)), norm(v)) for v in vectors]
    return np.array(mistakes, dtype=np.int64), pairs, np.array(counts)


def voted_predict(trained, Z, method, normalize=False, seed=None):
    """Paper 001, sec. 5: scores of the rows of Z by ``trained = voted_perceptron(...)``.

    vote: sum_j c_j sign(v_j.z); average: sum_j c_j v_j.z; last: v_{k+1}.z;
    random: v_j.z for the vector alive after r rounds, r uniform in {0..T}
    drawn per point by numpy.random.default_rng(seed).integers(0, T + 1) (that
    vector is v_{1 + number of mistakes among the first r trials}).
    ``normalize`` divides each v_j.z by ||v_j|| (0 for a zero vector).
    """
    mistakes, vectors, counts = trained
    if method == "random":
        slices = np.random.default_rng(seed).integers(0, counts.sum() + 1, size=Z.shape[0])
    out = np.zeros(Z.shape[0])
    for p, z in enumerate(Z):
        scores = []
        for dot, norm in vectors:
            score = dot(z)
            if normalize:
                score = score / norm if norm > 0 else 0.0
            scores.append(score)
        if method == "vote":
            out[p] = sum(c * np.sign(s) for c, s in zip(counts, scores, strict=True))
        elif method == "average":
            out[p] = sum(c * s for c, s in zip(counts, scores, strict=True))
        elif method == "last":
            out[p] = scores[-1]
        else:
            out[p] = scores[int(np.sum(mistakes < slices[p]))]
    return out


def ballseptron(X, y, order, r, w=None):
    """Paper 004, Fig. 2, literally with the pseudo-instance x_hat.

    Returns (mistake_trials, margin_error_trials, w, margins).
    """
    w = np.zeros(X.shape[1]) if w is None else np.array(w, dtype=float)
    mistakes, margin_errors, margins = [], [], []
    for t, i in enumerate(order):
        margin = w @ X[i]
        margins.append(margin)
        if y[i] * margin <= 0:
            w = w + y[i] * X[i]
            mistakes.append(t)
        elif y[i] * margin / np.linalg.norm(w) <= r:
            x_hat = X[i] - y[i] * r * w / np.linalg.norm(w)
            w = w + y[i] * x_hat
            margin_errors.append(t)
    return (np.array(mistakes, dtype=np.int64), np.array(margin_errors, dtype=np.int64), w,
            np.array(margins))


def kernel_ballseptron(X, y, order, r, kernel_name="rbf", **kernel_params):
    """Paper 004, Fig. 2 with w = sum_s alpha_s K(x_s, .) and plain dual coefficients.

    ||w||^2 = alpha^T G alpha (G the Gram matrix of the support rows); a margin
    error multiplies every alpha_s by 1 - r/||w|| and appends x_t with y_t.
    Returns (mistake_trials, margin_error_trials, support_rows, alpha, margins).
    """
    support, alpha, mistakes, margin_errors, margins = [], [], [], [], []
    G = np.zeros((0, 0))
    for t, i in enumerate(order):
        margin = sum(a * kernel(kernel_name, X[s], X[i], **kernel_params)
                     for s, a in zip(support, alpha, strict=True))
        margins.append(margin)
        if y[i] * margin <= 0:
            mistakes.append(t)
        else:
            norm = np.sqrt(np.array(alpha) @ G @ np.array(alpha))
            if y[i] * margin / norm > r:
                continue
            alpha = [(1 - r / norm) * a for a in alpha]
            margin_errors.append(t)
        row = [kernel(kernel_name, X[s], X[i], **kernel_params) for s in support]
        G = np.block([[G, np.array(row)[:, None]],
                      [np.array(row)[None, :], kernel(kernel_name, X[i], X[i], **kernel_params)]])
        support.append(i)
        alpha.append(y[i])
    return (np.array(mistakes, dtype=np.int64), np.array(margin_errors, dtype=np.int64),
            np.array(support, dtype=np.int64), np.array(alpha, dtype=float), np.array(margins))


def second_order(X, y, order, a):
    """theory §2.4 / paper 003 Fig. 3: margin_t = v^T (a I + S S^T)^{-1} x_t, S = [X_k, x_t].

    Solves the n x n system directly at every trial. Returns (mistake_trials,
    w = (a I + X_m X_m^T)^{-1} v_m, margins).
    """
    n = X.shape[1]
    corr, v = np.zeros((n, n)), np.zeros(n)
    mistakes, margins = [], []
    for t, i in enumerate(order):
        x = X[i]
        margin = v @ np.linalg.solve(a * np.eye(n) + corr + np.outer(x, x), x)
        margins.append(margin)
        if y[i] * margin <= 0:
            v = v + y[i] * x
            corr = corr + np.outer(x, x)
            mistakes.append(t)
    w = np.linalg.solve(a * np.eye(n) + corr, v)
    return np.array(mistakes, dtype=np.int64), w, np.array(margins)


def _kernel_matrix(X, kernel_name, kernel_params):
    """K(X[p], X[q]) for every pair of rows, one ``kernel`` call each."""
    return np.array([[kernel(kernel_name, xp, xq, **kernel_params) for xq in X] for xp in X])


def second_order_gram(X, y, order, a=None, c=None, kernel_name="linear", **kernel_params):
    """theory §2.4 dual form: margin_t = y~^T (a I + G_t)^{-1} G_t[:, last], G_t the Gram of S_t.

    Fixed ``a`` (paper 003 Fig. 3 and Theorem 2) or, with ``c``, the adaptive
    a_k = c R^2 k, k = mistakes so far + 1, R^2 = max K(x_t, x_t) (Fig. 3).
    Returns (mistake_trials, support_rows, alpha = (a I + G_m)^{-1} y_m with the
    final a, margins, a_k of every mistake and the final one).
    """
    K = _kernel_matrix(X, kernel_name, kernel_params)
    r2 = max(K[i, i] for i in order)
    support, mistakes, margins, a_used = [], [], [], []

    def a_now():
        return a if c is None else c * r2 * (len(support) + 1)

    for t, i in enumerate(order):
        rows = [*support, i]
        G = K[np.ix_(rows, rows)]
        y_tilde = np.array([*(y[p] for p in support), 0.0])
        margin = y_tilde @ np.linalg.solve(a_now() * np.eye(len(rows)) + G, G[:, -1])
        margins.append(margin)
        if y[i] * margin <= 0:
            a_used.append(a_now())
            support.append(i)
            mistakes.append(t)
    a_used.append(a_now())
    G = K[np.ix_(support, support)]
    alpha = np.linalg.solve(a_now() * np.eye(len(support)) + G, y[support])
    return (np.array(mistakes, dtype=np.int64), np.array(support, dtype=np.int64), alpha,
            np.array(margins), np.array(a_used))


def second_order_pinv(X, y, order, span_tol=1e-9, rcond=1e-10):
    """theory §2.4 / paper 003 Fig. 5: margin_t = v^T (S S^T)^+ x_t, with numpy.linalg.pinv.

    x_t is outside the span of the past mistakes when the least-squares
    residual of x_t on them has ||r||^2 > span_tol ||x_t||^2; the margin is then
    exactly 0. Returns (mistake_trials, w = (X_m X_m^T)^+ v_m, margins).
    """
    n = X.shape[1]
    corr, v, rows = np.zeros((n, n)), np.zeros(n), []
    mistakes, margins = [], []
    for t, i in enumerate(order):
        x = X[i]
        if rows:
            coef = np.linalg.lstsq(X[rows].T, x, rcond=None)[0]
            residual = x - X[rows].T @ coef
        else:
            residual = x
        if residual @ residual > span_tol * (x @ x):
            margin = 0.0
        else:
            margin = v @ np.linalg.pinv(corr + np.outer(x, x), rcond=rcond, hermitian=True) @ x
        margins.append(margin)
        if y[i] * margin <= 0:
            v = v + y[i] * x
            corr = corr + np.outer(x, x)
            rows.append(i)
            mistakes.append(t)
    w = np.linalg.pinv(corr, rcond=rcond, hermitian=True) @ v
    return np.array(mistakes, dtype=np.int64), w, np.array(margins)


def second_order_pinv_gram(X, y, order, span_tol=1e-9, rcond=1e-10, kernel_name="linear",
                           **kernel_params):
    """theory §2.4 pseudoinverse, dual form: margin_t = y~^T G_t^+ G_t[:, last].

    x_t is outside the span (in feature space) when
    K(x_t, x_t) - g^T G_k^+ g > span_tol K(x_t, x_t), g = K(X_k, x_t); the
    margin is then 0. Returns (mistake_trials, margins).
    """
    K = _kernel_matrix(X, kernel_name, kernel_params)
    support, mistakes, margins = [], [], []
    for t, i in enumerate(order):
        rows = [*support, i]
        G = K[np.ix_(rows, rows)]
        g, kxx = G[:-1, -1], G[-1, -1]
        residual = kxx - g @ np.linalg.pinv(G[:-1, :-1], rcond=rcond, hermitian=True) @ g
        if residual > span_tol * kxx:
            margin = 0.0
        else:
            y_tilde = np.array([*(y[p] for p in support), 0.0])
            margin = y_tilde @ np.linalg.pinv(G, rcond=rcond, hermitian=True) @ G[:, -1]
        margins.append(margin)
        if y[i] * margin <= 0:
            support.append(i)
            mistakes.append(t)
    return np.array(mistakes, dtype=np.int64), np.array(margins)


def pnorm_link(theta, p):
    """theory §2.5: g(theta)_i = sign(theta_i) |theta_i|^(p-1) / ||theta||_p^(p-2); g(0) = 0."""
    norm = np.sum(np.abs(theta) ** p) ** (1.0 / p)
    if norm == 0:
        return np.zeros_like(theta)
    return np.sign(theta) * np.abs(theta) ** (p - 1) / norm ** (p - 2)


def pnorm_normalize(X, p):
    """Rows scaled to unit p-norm (zero rows left at zero)."""
    norms = np.sum(np.abs(X) ** p, axis=1) ** (1.0 / p)
    return X / np.where(norms > 0, norms, 1.0)[:, None]


def higher_order(X, y, order, c=0.4, p=2.0, rho=None, sparse=False, normalize=True):
    """Paper 000 Figure 1 (with sec. 2 item 3 for p > 2), the n x n matrix B multiplied explicitly.

    B_0 = I, v_0 = 0; margin g(B v)^T B x_t; on a mistake (the k-th)
    rho_k = c/k (or rho[k-1]), set to 0 by the sparse variant when
    y_t v.x_t < 0; v <- v + y_t x_t; B <- B (I - rho_k x_t g(x_t)^T).

    Returns a dict: mistakes, margins, rho, y_v_x, transformed (rows
    y_t B_{k-1} x_t), Bv (B_k v_k after each mistake), B, v, w = B^T g(B v).
    """
    X = pnorm_normalize(X, p) if normalize else np.array(X, dtype=float)
    n = X.shape[1]
    B, v = np.eye(n), np.zeros(n)
    out = {key: [] for key in ("mistakes", "margins", "rho", "y_v_x", "transformed", "Bv")}
    k = 0
    for t, i in enumerate(order):
        x = X[i]
        margin = pnorm_link(B @ v, p) @ (B @ x)
        out["margins"].append(margin)
        if y[i] * margin <= 0:
            k += 1
            yvx = y[i] * (v @ x)
            rho_k = c / k if rho is None else rho[k - 1]
            if sparse and yvx < 0:
                rho_k = 0.0
            out["transformed"].append(y[i] * (B @ x))
            out["mistakes"].append(t)
            out["rho"].append(rho_k)
            out["y_v_x"].append(yvx)
            v = v + y[i] * x
            B = B @ (np.eye(n) - rho_k * np.outer(x, pnorm_link(x, p)))
            out["Bv"].append(B @ v)
    result = {key: np.array(val) for key, val in out.items()}
    result["mistakes"] = result["mistakes"].astype(np.int64)
    result.update(B=B, v=v, w=B.T @ pnorm_link(B @ v, p))
    return result


def pnorm_perceptron(X, y, order, p=2.0, normalize=True):
    """The p-norm Perceptron: theta <- theta + y_t x_t on y_t g(theta).x_t <= 0.

    Returns (mistake_trials, theta, margins).
    """
    X = pnorm_normalize(X, p) if normalize else np.array(X, dtype=float)
    theta = np.zeros(X.shape[1])
    mistakes, margins = [], []
    for t, i in enumerate(order):
        margin = pnorm_link(theta, p) @ X[i]
        margins.append(margin)
        if y[i] * margin <= 0:
            theta = theta + y[i] * X[i]
            mistakes.append(t)
    return np.array(mistakes, dtype=np.int64), theta, np.array(margins)


def higher_order_dual(X, y, order, c=0.4, sparse=False, normalize=True, kernel_name="rbf",
                      **kernel_params):
    """Paper 000 sec. 2 item 2: the D_k, H_k, g_k recursion (p = 2), full k x k matrices.

    K_n(a, b) = K(a, b) / sqrt(K(a, a) K(b, b)) when normalising. Margin
    g_{k-1}^T X_{k-1}^T x. On the k-th mistake: b_k = D_{k-1} X_{k-1}^T x_k,
    D_k = [[D_{k-1}, -rho b_k], [-rho b_k^T, rho^2 x_k^T X_{k-1} b_k - 2 rho + rho^2 K(x_k, x_k)]],
    H_k = diag(h_{k-1} + y_k X_{k-1}^T x_k, y_{k-1}^T X_{k-1}^T x_k + y_k K(x_k, x_k)),
    g_k = y_k + D_k H_k 1_k. A zero rho pads D with a zero row and column.

    Returns (mistake_trials, support_rows, g, margins).
    """
    def kern(a, b):
        value = kernel(kernel_name, a, b, **kernel_params)
        if normalize:
            value /= np.sqrt(kernel(kernel_name, a, a, **kernel_params)
                             * kernel(kernel_name, b, b, **kernel_params))
        return value

    D, H, ys, g = np.zeros((0, 0)), np.zeros((0, 0)), np.zeros(0), np.zeros(0)
    support, mistakes, margins = [], [], []
    for t, i in enumerate(order):
        x = X[i]
        kx = np.array([kern(X[s], x) for s in support])
        margin = g @ kx if support else 0.0
        margins.append(margin)
        if y[i] * margin > 0:
            continue
        k = len(support) + 1
        yvx = y[i] * (ys @ kx) if support else 0.0
        rho_k = 0.0 if sparse and yvx < 0 else c / k
        kxx = kern(x, x)
        b = D @ kx
        d_kk = rho_k**2 * (kx @ b) - 2 * rho_k + rho_k**2 * kxx
        D = np.block([[D, -rho_k * b[:, None]], [-rho_k * b[None, :], np.array([[d_kk]])]])
        h_old = np.diag(H)
        h_new = np.append(h_old + y[i] * kx, ys @ kx + y[i] * kxx)
        H = np.diag(h_new)
        ys = np.append(ys, y[i])
        g = ys + D @ H @ np.ones(k)
        support.append(i)
        mistakes.append(t)
    return (np.array(mistakes, dtype=np.int64), np.array(support, dtype=np.int64), g,
            np.array(margins))


def presented_sequence(n_samples, epochs, shuffle=False, seed=None):
    """theory §1.2: rows 0..n-1 of X, ``epochs`` times; with ``shuffle``, each epoch a fresh
    permutation drawn from one ``numpy.random.default_rng(seed)``. Trial t shows row order[t]."""
    rng = np.random.default_rng(seed)
    order = []
    for _ in range(epochs):
        order.extend(rng.permutation(n_samples) if shuffle else range(n_samples))
    return np.array(order, dtype=np.int64)


def _native(X, y, order, r, kernel, n_classes):
    """Paper 004 sec. 4 with radius r (r = 0: the Perceptron's eq. (18) alone), theory §2.6.

    Linear (``kernel`` None): the prototypes are the rows of W. With a
    ``kernel`` callable K(a, b): w^q = sum_j A[q, j] phi(x_{support[j]}), and
    ||w^y - w^{y~}||^2 = (A[y] - A[y~]) G (A[y] - A[y~]) with the supports' Gram G.
    """
    n_classes = int(np.max(y)) + 1 if n_classes is None else n_classes
    W = np.zeros((n_classes, X.shape[1]))
    support, A, G = [], np.zeros((n_classes, 0)), np.zeros((0, 0))
    out = {name: [] for name in ("mistakes", "margin_errors", "true_class", "runner_up",
                                 "gap_norm", "margins")}
    for t, i in enumerate(order):
        x, label = X[i], y[i]
        # s_q = w^q . x_t
        if kernel is None:
            s = W @ x
        else:
            s = A @ np.array([kernel(X[j], x) for j in support])
        out["margins"].append(s)
        # y~ = argmax_{q != y_t} s_q, the smallest index on ties
        others = [q for q in range(n_classes) if q != label]
        runner = others[int(np.argmax(s[others]))]
        # ||w^y - w^{y~}||
        if kernel is None:
            d = np.linalg.norm(W[label] - W[runner])
        else:
            diff = A[label] - A[runner]
            d = np.sqrt(max(diff @ G @ diff, 0.0))
        if s[label] <= s[runner]:
            # a multiclass mistake: the update of eq. (18) with x_t
            out["mistakes"].append(t)
            c = 0.0
        elif s[label] - s[runner] <= r * d:
            # a margin error: the update of eq. (18) with x_hat = x + r (w^{y~} - w^y) / d
            out["margin_errors"].append(t)
            c = r / d
        else:
            continue
        out["true_class"].append(label)
        out["runner_up"].append(runner)
        out["gap_norm"].append(d)
        if kernel is None:
            x_hat = x + c * (W[runner] - W[label])
            W[label] = W[label] + x_hat
            W[runner] = W[runner] - x_hat
        else:
            # w^y + x_hat = w^y + c (w^{y~} - w^y) + x: mix the coefficient rows, append x
            shift = c * (A[runner] - A[label])
            A[label] = A[label] + shift
            A[runner] = A[runner] - shift
            column = np.zeros((n_classes, 1))
            column[label], column[runner] = 1.0, -1.0
            A = np.hstack([A, column])
            row = np.array([kernel(X[j], x) for j in support])
            G = np.block([[G, row[:, None]], [row[None, :], kernel(x, x)]])
            support.append(i)
    indices = ("mistakes", "margin_errors", "true_class", "runner_up")
    result = {name: np.array(values, dtype=np.int64 if name in indices else float)
              for name, values in out.items()}
    result["margins"] = result["margins"].reshape(len(order), n_classes)
    if kernel is None:
        result["weights"] = W
    else:
        result["support"] = np.array(support, dtype=np.int64)
        result["dual_coef"] = A
    return result


def native_perceptron(X, y, order, kernel=None, n_classes=None):
    """Native multiclass Perceptron, paper 004 eq. (18) with the runner-up y~ (theory §2.6).

    Prototypes w^q = 0; on s_y <= max_{q != y} s_q (a tie is a mistake),
    w^y += x and w^{y~} -= x. ``y`` holds class indices 0..K-1. Returns a dict:
    ``mistakes``, ``margin_errors`` (empty), ``true_class``, ``runner_up``,
    ``gap_norm`` (||w^y - w^{y~}|| before each update), ``margins`` (T, K), and
    ``weights`` (K, n) or, with a ``kernel``, ``support`` (rows of X) and
    ``dual_coef`` (K, S).
    """
    return _native(X, y, order, 0.0, kernel, n_classes)


def native_ballseptron(X, y, order, r, kernel=None, n_classes=None):
    """Native multiclass Ballseptron, paper 004 sec. 4, eqs. (18)-(19) (theory §2.6).

    As :func:`native_perceptron`; a trial with s_y > s_{y~} but
    s_y - s_{y~} <= r ||w^y - w^{y~}|| is a margin error, updated with
    x_hat = x + r (w^{y~} - w^y) / ||w^{y~} - w^y||.
    """
    return _native(X, y, order, r, kernel, n_classes)


# ---------------------------------------------------------------------------------------------
# Passive-Aggressive: K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz, Y. Singer, "Online
# Passive-Aggressive Algorithms", JMLR 7 (2006): Fig. 1 (binary), sec. 7 eqs. (36)-(38) with
# the multi-prototype reduction (native multiclass); theory §2.7.
# ---------------------------------------------------------------------------------------------


def pa_tau(loss, norm_sq, variant, C):
    """Fig. 1 / eq. (8): tau for the loss l > 0 and ||x||^2 > 0 of the instance stepped along."""
    if variant == "pa":
        return loss / norm_sq
    if variant == "pa1":
        return min(C, loss / norm_sq)
    return loss / (norm_sq + 1.0 / (2.0 * C))


def passive_aggressive(X, y, order, variant="pa1", C=1.0, kernel_name=None, **kernel_params):
    """Fig. 1 literally: l_t = max(0, 1 - y_t f_t(x_t)); on l_t > 0, f += tau_t y_t k(x_t, .).

    A zero instance (||x||^2 = 0) changes nothing (theory §2.7). Linear (``kernel_name``
    None): w as a vector; else f = sum_s alpha_s K(x_s, .). Returns a dict: ``mistakes``
    (y f <= 0), ``margin_errors`` (an update with y f > 0), ``loss`` and ``tau`` per update,
    ``margins``, and ``weights`` or ``support`` (rows of X) with ``dual_coef``.
    """
    w = np.zeros(X.shape[1])
    support, alpha = [], []
    out = {name: [] for name in ("mistakes", "margin_errors", "loss", "tau", "margins")}
    for t, i in enumerate(order):
        x = X[i]
        if kernel_name is None:
            f = w @ x
            norm_sq = x @ x
        else:
            f = sum(a * kernel(kernel_name, X[s], x, **kernel_params)
                    for s, a in zip(support, alpha, strict=True))
            norm_sq = kernel(kernel_name, x, x, **kernel_params)
        out["margins"].append(f)
        loss = max(0.0, 1.0 - y[i] * f)
        if loss == 0.0:
            continue
        out["mistakes" if y[i] * f <= 0 else "margin_errors"].append(t)
        out["loss"].append(loss)
        tau = pa_tau(loss, norm_sq, variant, C) if norm_sq > 0 else 0.0
        out["tau"].append(tau)
        if norm_sq > 0:
            if kernel_name is None:
                w = w + tau * y[i] * x
            else:
                support.append(i)
                alpha.append(tau * y[i])
    result = {name: np.array(values, dtype=np.int64 if name in ("mistakes", "margin_errors")
                             else float) for name, values in out.items()}
    result["weights"] = w
    result["support"] = np.array(support, dtype=np.int64)
    result["dual_coef"] = np.array(alpha)
    return result


def native_passive_aggressive(X, y, order, variant="pa1", C=1.0, n_classes=None):
    """Sec. 7, eqs. (36)-(38), multi-prototype, Y_t = {y_t}: r_t = y_t, s_t the highest-scoring
    wrong label (the smallest index on ties), the virtual instance Phi(x, y) - Phi(x, s) of
    squared norm 2 ||x||^2 as a block vector of the stacked prototypes W (K, n).

    Returns a dict as :func:`passive_aggressive` with ``true_class``, ``runner_up``,
    ``margins`` (T, K) and ``weights`` (K, n).
    """
    n_classes = int(np.max(y)) + 1 if n_classes is None else n_classes
    n = X.shape[1]
    W = np.zeros(n_classes * n)  # Kesler: the prototypes stacked into one vector

    def phi(x, label):
        v = np.zeros(n_classes * n)
        v[label * n:(label + 1) * n] = x
        return v

    out = {name: [] for name in ("mistakes", "margin_errors", "loss", "tau", "margins",
                                 "true_class", "runner_up")}
    for t, i in enumerate(order):
        x, label = X[i], y[i]
        scores = np.array([W @ phi(x, q) for q in range(n_classes)])
        out["margins"].append(scores)
        others = [q for q in range(n_classes) if q != label]
        s = others[int(np.argmax(scores[others]))]
        loss = max(0.0, 1.0 - (scores[label] - scores[s]))  # eq. (33)
        if loss == 0.0:
            continue
        out["mistakes" if scores[label] <= scores[s] else "margin_errors"].append(t)
        z = phi(x, label) - phi(x, s)  # the virtual instance of eq. (37)
        norm_sq = z @ z
        tau = pa_tau(loss, norm_sq, variant, C) if norm_sq > 0 else 0.0
        W = W + tau * z  # eq. (38)
        for name, value in (("loss", loss), ("tau", tau), ("true_class", label),
                            ("runner_up", s)):
            out[name].append(value)
    ints = ("mistakes", "margin_errors", "true_class", "runner_up")
    result = {name: np.array(values, dtype=np.int64 if name in ints else float)
              for name, values in out.items()}
    result["margins"] = result["margins"].reshape(len(order), n_classes)
    result["weights"] = W.reshape(n_classes, n)
    return result


# --- ALMA_p: C. Gentile, "A new approximate maximal margin classification algorithm", JMLR 2
# (2001), as described by the LIBOL manual (Algorithm 3) and DOGMA's k_alma2_train.m (the
# paper itself could not be read; theory §2.9).


def alma(X, y, order, p=2.0, alpha=0.9, B=None, C=2.0**0.5, theta=None, k=1):
    """ALMA_p: x_hat = x / ||x||_p; w = g(theta); k-th update when
    y w.x_hat <= (1 - alpha) B sqrt(p-1)/sqrt(k): theta <- theta + C/(sqrt(p-1) sqrt(k)) y x_hat,
    theta <- theta / max(1, ||theta||_p).

    Returns a dict: updates, mistakes, margin_errors (trials), margins, theta, w, k (the next k).
    """
    B = 1.0 / alpha if B is None else B
    X = pnorm_normalize(X, p)
    theta = np.zeros(X.shape[1]) if theta is None else np.array(theta, dtype=float)
    out = {"updates": [], "mistakes": [], "margin_errors": [], "margins": []}
    for t, i in enumerate(order):
        margin = pnorm_link(theta, p) @ X[i]
        out["margins"].append(margin)
        if y[i] * margin <= (1 - alpha) * B * np.sqrt(p - 1) / np.sqrt(k):
            out["updates"].append(t)
            out["mistakes" if y[i] * margin <= 0 else "margin_errors"].append(t)
            theta = theta + C / (np.sqrt(p - 1) * np.sqrt(k)) * y[i] * X[i]
            theta = theta / max(1.0, np.sum(np.abs(theta) ** p) ** (1.0 / p))
            k += 1
    result = {key: np.array(val, dtype=np.int64 if key != "margins" else float)
              for key, val in out.items()}
    result.update(theta=theta, w=pnorm_link(theta, p), k=k)
    return result


def kernel_alma(X, y, order, alpha=0.9, B=None, C=2.0**0.5, kernel_name="rbf",
                **kernel_params):
    """ALMA_2 with a kernel, w = sum_j c_j phi(s_j), instances phi(x) / sqrt(K(x, x)).

    Margins from the kernel values, ||w||^2 from the coefficients' Gram matrix
    (not kept incrementally). Returns a dict: updates, mistakes, margin_errors,
    supports (rows of X), coef (on the raw phi(s_j)), norm_sq.
    """
    B = 1.0 / alpha if B is None else B
    supports, coef = [], []
    out = {"updates": [], "mistakes": [], "margin_errors": []}
    k = 1

    def K(a, b):
        return kernel(kernel_name, a, b, **kernel_params)

    def norm_sq():
        return sum(ci * cj * K(X[si], X[sj]) for si, ci in zip(supports, coef, strict=True)
                   for sj, cj in zip(supports, coef, strict=True))

    for t, i in enumerate(order):
        kii = K(X[i], X[i])
        nx = np.sqrt(kii) if kii > 0 else 0.0
        f = sum(c * K(X[s], X[i]) for s, c in zip(supports, coef, strict=True))
        margin = f / nx if nx > 0 else 0.0
        if y[i] * margin <= (1 - alpha) * B / np.sqrt(k):
            out["updates"].append(t)
            out["mistakes" if y[i] * margin <= 0 else "margin_errors"].append(t)
            supports.append(i)
            coef.append(y[i] * C / np.sqrt(k) / nx if nx > 0 else 0.0)
            n = np.sqrt(max(norm_sq(), 0.0))
            if n > 1.0:
                coef = [c / n for c in coef]
            k += 1
    result = {key: np.array(val, dtype=np.int64) for key, val in out.items()}
    result.update(supports=np.array(supports, dtype=np.int64), coef=np.array(coef),
                  norm_sq=norm_sq(), k=k)
    return result


# Y. Li and P. M. Long, "The relaxed online maximum margin algorithm", NIPS 12 (1999), sec. 2.1
# and 3 (theory §2.8): w_{t+1} = the minimum-norm w with w.w_t >= ||w_t||^2 and y_t w.x_t >= 1.
ROMMA_PARALLEL = 1e-12  # sin^2 of the angle of x_t and w_t at or below which the update is left out


def _romma_minimum_norm(norm_w, wx, norm_x, y_t):
    """The minimum-norm element of {w : w.w_t >= ||w_t||^2} ∩ {w : y_t w.x_t >= 1}, by its KKT
    cases, as (lambda, mu) of w = lambda w_t + mu x_t, from ||w_t||, w_t.x_t and ||x_t||; None
    when the set is empty or x_t is parallel to w_t (w_t kept, theory §2.8).
    """
    if norm_x == 0:
        return None  # the new constraint cannot be met
    if norm_w == 0:
        return 0.0, y_t / norm_x**2  # w_1 = 0: y x / ||x||^2
    q, cos = norm_x * norm_w, wx / (norm_x * norm_w)
    if y_t * cos >= q:  # y w.x >= ||x||^2 ||w||^2: y x / ||x||^2 meets the old constraint
        return 0.0, y_t / norm_x**2
    if 1 - cos**2 <= ROMMA_PARALLEL:
        return None  # x_t parallel to w_t: both constraints bind on no line
    # both constraints bind: w = A^T (A A^T)^{-1} b with A = (w_t; x_t), b = (||w_t||^2, y_t),
    # solved with A's rows scaled to unit norm (D) so that no entry under- or overflows
    D = 1 / np.array([norm_w, norm_x])
    z = np.linalg.solve(np.array([[1.0, cos], [cos, 1.0]]), np.array([norm_w, y_t / norm_x]))
    lam, mu = D * z
    return lam, mu


def romma(X, y, order, aggressive=False, w=None):
    """Li & Long's ROMMA (aggressive: update when y w.x < 1), primal.

    Returns (mistake_trials, margin_error_trials, w, margins).
    """
    w = np.zeros(X.shape[1]) if w is None else np.array(w, dtype=float)
    mistakes, margin_errors, margins = [], [], []
    for t, i in enumerate(order):
        margin = w @ X[i]
        margins.append(margin)
        if y[i] * margin <= 0:
            mistakes.append(t)
        elif aggressive and y[i] * margin < 1:
            margin_errors.append(t)
        else:
            continue
        step = _romma_minimum_norm(np.linalg.norm(w), margin, np.linalg.norm(X[i]), y[i])
        if step is not None:
            w = step[0] * w + step[1] * X[i]
    return (np.array(mistakes, dtype=np.int64), np.array(margin_errors, dtype=np.int64), w,
            np.array(margins))


def kernel_romma(X, y, order, aggressive=False, kernel_name="rbf", **kernel_params):
    """Li & Long's ROMMA with w = sum_s alpha_s K(x_s, .) (sec. 3: inner products replaced by
    kernel values), ||w||^2 = alpha^T G alpha from the Gram matrix G of the support rows.

    Returns (mistake_trials, margin_error_trials, support_rows, alpha, margins).
    """
    support, alpha, mistakes, margin_errors, margins = [], np.zeros(0), [], [], []
    G = np.zeros((0, 0))
    for t, i in enumerate(order):
        row = np.array([kernel(kernel_name, X[s], X[i], **kernel_params) for s in support])
        margin = float(alpha @ row) if support else 0.0
        margins.append(margin)
        if y[i] * margin <= 0:
            mistakes.append(t)
        elif aggressive and y[i] * margin < 1:
            margin_errors.append(t)
        else:
            continue
        diag = kernel(kernel_name, X[i], X[i], **kernel_params)
        step = _romma_minimum_norm(np.sqrt(alpha @ G @ alpha), margin, np.sqrt(diag), y[i])
        if step is None:
            continue
        G = np.block([[G, row.reshape(-1, 1)], [row.reshape(1, -1), np.array([[diag]])]])
        support.append(i)
        alpha = np.append(step[0] * alpha, step[1])
    return (np.array(mistakes, dtype=np.int64), np.array(margin_errors, dtype=np.int64),
            np.array(support, dtype=np.int64), alpha, np.array(margins))


# ---------------------------------------------------------------- AROW
# K. Crammer, A. Kulesza, M. Dredze, "Adaptive regularization of weight vectors", NIPS 2009
# (not readable here): the LIBOL manual's Algorithm 10 with Sigma_1 = I, DOGMA's
# arow_train.m; the diagonal variant as DOGMA's arow_diag_train.m (theory §2.10).


def arow(X, y, order, r, diagonal=False):
    """theory §2.10: mu_1 = 0, Sigma_1 = I; l = max(0, 1 - y mu.x); if l > 0:
    beta = 1/(x^T Sigma x + r), alpha = l beta, mu += alpha y Sigma x,
    Sigma -= beta (Sigma x)(Sigma x)^T. Diagonal: Sigma = diag(1/p),
    p_i += x_i^2 / r (the diagonal of Sigma^{-1} += x x^T / r).

    Returns (mistake_trials, margin_error_trials, mu, Sigma (diagonal: the vector p),
    margins, m, chi) with m = y mu.x and chi = x^T Sigma x on each update.
    """
    n = X.shape[1]
    mu = np.zeros(n)
    sigma = np.ones(n) if diagonal else np.eye(n)  # diagonal: the precision p = 1/Sigma_ii
    mistakes, errors, margins, ms, chis = [], [], [], [], []
    for t, i in enumerate(order):
        x = X[i]
        margin = mu @ x
        margins.append(margin)
        loss = max(0.0, 1.0 - y[i] * margin)
        if loss > 0:
            sx = x / sigma if diagonal else sigma @ x
            chi = x @ sx
            beta = 1.0 / (chi + r)
            alpha = loss * beta
            mu = mu + alpha * y[i] * sx
            if diagonal:
                sigma = sigma + x * x / r
            else:
                sigma = sigma - beta * np.outer(sx, sx)
            (mistakes if y[i] * margin <= 0 else errors).append(t)
            ms.append(y[i] * margin)
            chis.append(chi)
    return (np.array(mistakes, dtype=np.int64), np.array(errors, dtype=np.int64), mu, sigma,
            np.array(margins), np.array(ms), np.array(chis))


def arow_gram(X, y, order, r, kernel_name="rbf", **kernel_params):
    """theory §2.10, kernel form: with A the update trials so far, mu.x =
    y_A^T (r I + K_A)^{-1} k_A(x), chi = K(x, x) - k_A^T (r I + K_A)^{-1} k_A; update
    when y mu.x < 1 (each solve made afresh).

    Returns (mistake_trials, margin_error_trials, support rows, alpha =
    (r I + K_A)^{-1} y_A, margins, m, chi).
    """
    support, labels = [], []
    mistakes, errors, margins, ms, chis = [], [], [], [], []
    for t, i in enumerate(order):
        k = np.array([kernel(kernel_name, X[j], X[i], **kernel_params) for j in support])
        kxx = kernel(kernel_name, X[i], X[i], **kernel_params)
        if support:
            K = np.array([[kernel(kernel_name, X[a], X[b], **kernel_params) for b in support]
                          for a in support])
            M = r * np.eye(len(support)) + K
            margin = float(np.array(labels) @ np.linalg.solve(M, k))
            chi = kxx - float(k @ np.linalg.solve(M, k))
        else:
            margin, chi = 0.0, kxx
        margins.append(margin)
        if y[i] * margin < 1:
            (mistakes if y[i] * margin <= 0 else errors).append(t)
            ms.append(y[i] * margin)
            chis.append(chi)
            support.append(i)
            labels.append(y[i])
    K = np.array([[kernel(kernel_name, X[a], X[b], **kernel_params) for b in support]
                  for a in support]).reshape(len(support), len(support))
    alpha = np.linalg.solve(r * np.eye(len(support)) + K, np.array(labels, dtype=float))
    return (np.array(mistakes, dtype=np.int64), np.array(errors, dtype=np.int64),
            np.array(support, dtype=np.int64), alpha, np.array(margins), np.array(ms),
            np.array(chis))


# ---------------------------------------------------------------- selective sampling
# N. Cesa-Bianchi, C. Gentile, L. Zaniboni, "Worst-case analysis of selective sampling for
# linear classification", JMLR 7 (2006) (not readable here): the rule as the issue states it
# and DOGMA's sel_perc_train.m (theory §2.14). Z_t = 1 iff draws[t] < b / (b + |p_t|); every
# mistake counts, only a queried one updates.


def selective_perceptron(X, y, order, draws, b, kernel_name="linear", start=((), ()),
                         **kernel_params):
    """theory §2.14: the Perceptron (kernel form, f = sum of y_i K(x_i, .)) that reads y_t and
    updates on a mistake only when draws[t] < b / (b + |f(x_t)|); ``start`` = (rows, coefs)
    of a warm start's supports.

    Returns (mistake_trials, queried_trials, support_rows, dual_coef, margins).
    """
    support, coef = list(start[0]), list(start[1])
    mistakes, queried, margins = [], [], []
    for t, i in enumerate(order):
        margin = sum(c * kernel(kernel_name, X[s], X[i], **kernel_params)
                     for s, c in zip(support, coef, strict=True))
        margins.append(margin)
        if y[i] * margin <= 0:
            mistakes.append(t)
        if draws[t] < b / (b + abs(margin)):
            queried.append(t)
            if y[i] * margin <= 0:
                support.append(i)
                coef.append(y[i])
    return (np.array(mistakes, dtype=np.int64), np.array(queried, dtype=np.int64),
            np.array(support, dtype=np.int64), np.array(coef, dtype=float), np.array(margins))


def selective_second_order(X, y, order, draws, a, b, kernel_name="linear", **kernel_params):
    """theory §2.14: the Second-Order Perceptron with fixed a (Gram form, margin
    y~^T (a I + G_t)^{-1} G_t[:, last] as ``second_order_gram``) that reads y_t and updates
    on a mistake only when draws[t] < b / (b + |margin_t|).

    Returns (mistake_trials, queried_trials, support_rows, alpha = (a I + G)^{-1} y_S,
    margins).
    """
    K = _kernel_matrix(X, kernel_name, kernel_params)
    support, mistakes, queried, margins = [], [], [], []
    for t, i in enumerate(order):
        rows = [*support, i]
        G = K[np.ix_(rows, rows)]
        y_tilde = np.array([*(y[p] for p in support), 0.0])
        margin = y_tilde @ np.linalg.solve(a * np.eye(len(rows)) + G, G[:, -1])
        margins.append(margin)
        if y[i] * margin <= 0:
            mistakes.append(t)
        if draws[t] < b / (b + abs(margin)):
            queried.append(t)
            if y[i] * margin <= 0:
                support.append(i)
    G = K[np.ix_(support, support)]
    alpha = np.linalg.solve(a * np.eye(len(support)) + G, y[support])
    return (np.array(mistakes, dtype=np.int64), np.array(queried, dtype=np.int64),
            np.array(support, dtype=np.int64), alpha, np.array(margins))


# ---------------------------------------------------------------- Projectron
# F. Orabona, J. Keshet, B. Caputo, "Bounded kernel-based online learning", JMLR 10 (2009) (not
# readable here): the rule of theory §2.13, cross-checked with DOGMA's k_projectron_train.m and
# k_projectron2_train.m (whose eta bounds the squared projection error; here the error itself).


def projectron(X, y, order, eta, plus=False, kernel_name="rbf", dependent=1e-12, units=0.0,
               **kernel_params):
    """Theory §2.13: project a mistaken instance onto the supports' span when its error is <= eta.

    The projection is solved afresh on every update from the Cholesky factor L of the
    supports' Gram matrix (np.linalg.cholesky), not kept incrementally: z = L^{-1} k_t,
    c = L^{-T} z, delta^2 = K(x, x) - z . z. An instance is in the span when delta^2 is
    at most dependent K(x, x) or twice the rounding bound
    (k + 2 + units) eps (sqrt(K(x, x)) + sum_j |c_j| sqrt(K(s_j, s_j)))^2, ``units``
    the kernel's (Kernel.rounding_units). Returns (mistake_trials, margin_error_trials,
    support_rows, beta, margins, added, deltas, taus), the last three per update trial.
    """
    support, beta, margins = [], np.zeros(0), []
    mistakes, errors, added, deltas, taus = [], [], [], [], []
    for t, i in enumerate(order):
        k_t = np.array([kernel(kernel_name, X[s], X[i], **kernel_params) for s in support])
        margin = float(beta @ k_t) if support else 0.0
        margins.append(margin)
        m = y[i] * margin
        if m >= 1.0 or (m > 0.0 and not plus):
            continue
        kxx = kernel(kernel_name, X[i], X[i], **kernel_params)
        if support:
            G = np.array([[kernel(kernel_name, X[a], X[b], **kernel_params) for b in support]
                          for a in support])
            L = np.linalg.cholesky(G)
            z = scipy.linalg.solve_triangular(L, k_t, lower=True)
            c = scipy.linalg.solve_triangular(L.T, z, lower=False)
            projected_sq = float(z @ z)
        else:
            G, c, projected_sq = np.zeros((0, 0)), np.zeros(0), 0.0
        delta = np.sqrt(max(kxx - projected_sq, 0.0))
        reach = np.sqrt(kxx) + float(np.abs(c) @ np.sqrt(np.diag(G)))
        error = (len(support) + 2 + units) * np.finfo(np.float64).eps * reach**2
        in_span = delta**2 <= max(dependent * kxx, 2.0 * error)
        if m <= 0.0:
            tau = 1.0
            grow = delta > eta and not in_span
            if grow:
                support.append(i)
                beta = np.append(beta, y[i])
            else:
                beta = beta + y[i] * c
            mistakes.append(t)
            added.append(grow)
        else:
            loss = 1.0 - m
            slack = loss - delta / eta if eta > 0.0 else (loss if in_span else -1.0)
            if slack <= 0.0 or projected_sq <= 0.0:
                continue
            tau = min(loss / projected_sq, 1.0, 2.0 * slack / projected_sq)
            beta = beta + tau * y[i] * c
            errors.append(t)
            added.append(False)
        deltas.append(delta)
        taus.append(tau)
    return (np.array(mistakes, dtype=np.int64), np.array(errors, dtype=np.int64),
            np.array(support, dtype=np.int64), beta, np.array(margins), np.array(added, bool),
            np.array(deltas), np.array(taus))


# ---------------------------------------------------------------- Forgetron, RBP
# O. Dekel, S. Shalev-Shwartz, Y. Singer, "The Forgetron: a kernel-based Perceptron on a budget",
# SIAM J. Comput. 37 (2008), self-tuned variant (not readable here: the rule of theory §2.11,
# cross-checked with DOGMA's k_forgetron_st_train.m); G. Cavallanti, N. Cesa-Bianchi,
# C. Gentile, "Tracking the best hyperplane with a simple budget Perceptron", Machine
# Learning 69 (2007) (not readable here: theory §2.12). Supports are kept in lists in the
# order the rules state them: the Forgetron's oldest first, the RBP's by slot (a new support
# takes the slot of the one it replaces).


def forgetron(X, y, order, budget, kernel_name="rbf", **kernel_params):
    """theory §2.11: add, shrink every coefficient by the self-tuned phi, drop the oldest.

    Returns (mistake_trials, support_rows (oldest first), dual_coef, shrink factors).
    """
    k = lambda a, b: kernel(kernel_name, X[a], X[b], **kernel_params)  # noqa: E731
    support, coef, mistakes, shrinks = [], [], [], []
    Q = 0.0
    for t, i in enumerate(order):
        margin = sum(c * k(s, i) for s, c in zip(support, coef, strict=True))
        if y[i] * margin > 0:
            continue
        mistakes.append(t)
        support.append(i)
        coef.append(float(y[i]))
        phi = 1.0
        if len(support) > budget:
            r = support[0]
            sigma, y_r = abs(coef[0]), np.sign(coef[0])
            f_r = sum(c * k(s, r) for s, c in zip(support, coef, strict=True))  # f'(x_r)
            # the largest phi in (0, 1] with Q + Psi(sigma phi, y_r phi f_r) <= 15/32 M
            a, b, c = sigma**2 - 2 * sigma * y_r * f_r, 2 * sigma, Q - 15 / 32 * len(mistakes)
            if a + b + c > 0:
                roots = np.roots([a, b, c]) if a != 0 else np.array([-c / b])
                phi = min(float(z.real) for z in roots if abs(z.imag) < 1e-12 and z.real > 0)
            coef = [phi * c for c in coef]
            lam = sigma * phi
            Q += lam**2 + 2 * lam - 2 * lam * y_r * phi * f_r
            support.pop(0)
            coef.pop(0)
        shrinks.append(phi)
    return (np.array(mistakes, dtype=np.int64), np.array(support, dtype=np.int64),
            np.array(coef), np.array(shrinks))


def randomized_budget_perceptron(X, y, order, budget, draws, kernel_name="rbf",
                                 **kernel_params):
    """theory §2.12: with ``budget`` supports, a mistake on trial t replaces the support of
    slot floor(budget draws[t]); else it appends. Returns (mistake_trials, support_rows (by
    slot), dual_coef, the trials that added the removed supports (-1: none))."""
    support, born, mistakes, removed = [], [], [], []
    for t, i in enumerate(order):
        margin = sum(y[s] * kernel(kernel_name, X[s], X[i], **kernel_params) for s in support)
        if y[i] * margin > 0:
            continue
        mistakes.append(t)
        if len(support) < budget:
            support.append(i)
            born.append(t)
            removed.append(-1)
        else:
            j = int(np.floor(budget * draws[t]))
            removed.append(born[j])
            support[j], born[j] = i, t
    support = np.array(support, dtype=np.int64)
    return (np.array(mistakes, dtype=np.int64), support, y[support].astype(float),
            np.array(removed, dtype=np.int64))


def shifting_perceptron(X, y, order, decay, kernel_name="linear", **kernel_params):
    """theory §2.15: w_1 = 0; on y_t w.x_t <= 0 after k updates,
    w <- (1 - lambda_k) w + y_t x_t with lambda_k = decay / (decay + k).

    The hypothesis is kept as its expansion sum_j alpha_j K(x_{s_j}, .) (every
    alpha multiplied by 1 - lambda_k on an update, then y_t appended); for the
    linear kernel w = sum_j alpha_j x_{s_j} is also returned.
    Returns (mistake_trials, support_rows, alpha, w or None, margins).
    """
    support, alpha, mistakes, margins = [], [], [], []
    for t, i in enumerate(order):
        margin = sum(a * kernel(kernel_name, X[s], X[i], **kernel_params)
                     for s, a in zip(support, alpha, strict=True))
        margins.append(margin)
        if y[i] * margin <= 0:
            k = len(mistakes)
            lambda_k = decay / (decay + k)
            alpha = [(1.0 - lambda_k) * a for a in alpha] + [float(y[i])]
            support.append(i)
            mistakes.append(t)
    support = np.array(support, dtype=np.int64)
    alpha = np.array(alpha, dtype=float)
    w = alpha @ X[support] if kernel_name == "linear" and len(support) else (
        np.zeros(X.shape[1]) if kernel_name == "linear" else None)
    return np.array(mistakes, dtype=np.int64), support, alpha, w, np.array(margins)


def projected_perceptron(X, y, order, radius, kernel_name="linear", **kernel_params):
    """theory §2.16: w_1 = 0; on y_t w.x_t <= 0, w <- P(w + y_t x_t), P the projection onto
    the ball ||w|| <= radius (w scaled by radius / ||w|| when longer).

    The linear kernel keeps w; another keeps the expansion sum_j alpha_j K(x_{s_j}, .), its
    norm measured by the Gram matrix of the supports. Returns (mistake_trials, support_rows,
    alpha, w or None, margins, number of projections).
    """
    support, alpha, mistakes, margins = [], [], [], []
    projected = 0
    linear = kernel_name == "linear"
    w = np.zeros(X.shape[1])
    for t, i in enumerate(order):
        margin = w @ X[i] if linear else sum(
            a * kernel(kernel_name, X[s], X[i], **kernel_params)
            for s, a in zip(support, alpha, strict=True))
        margins.append(margin)
        if y[i] * margin <= 0:
            support.append(i)
            alpha.append(float(y[i]))
            a = np.array(alpha)
            if linear:
                w = w + y[i] * X[i]
                norm = np.linalg.norm(w)
                if norm > radius:
                    w = w * (radius / norm)
            else:
                G = np.array([[kernel(kernel_name, X[p], X[q], **kernel_params)
                               for q in support] for p in support])
                norm = np.sqrt(max(a @ G @ a, 0.0))
            if norm > radius:
                alpha = list(a * (radius / norm))
                projected += 1
            mistakes.append(t)
    support = np.array(support, dtype=np.int64)
    return (np.array(mistakes, dtype=np.int64), support, np.array(alpha, dtype=float),
            w if linear else None, np.array(margins), projected)
