"""AROW, Adaptive Regularization of Weight vectors (theory §2.10): full, diagonal, kernel.

Crammer, Kulesza and Dredze (NIPS 2009). The paper could not be read here: the
update rule follows the AROW box of the LIBOL manual (Algorithm 10, with
Sigma_1 = I) and DOGMA's ``arow_train.m``; the diagonal variant follows DOGMA's
``arow_diag_train.m``. Parameter r > 0; mu_1 = 0, Sigma_1 = I. On trial t, with
the score s_t = mu_t . x_t and the hinge loss l_t = max(0, 1 - y_t s_t):

* if l_t > 0 (an update): chi_t = x_t^T Sigma_t x_t, beta_t = 1 / (chi_t + r),
  alpha_t = l_t beta_t,
  mu_{t+1} = mu_t + alpha_t y_t Sigma_t x_t,
  Sigma_{t+1} = Sigma_t - beta_t (Sigma_t x_t)(Sigma_t x_t)^T;
* else nothing changes.

A trial is a mistake iff y_t s_t <= 0 (theory §1.1); an update with
y_t s_t > 0 (a right prediction with margin below 1) is a margin error
(``run.margin_error_trials``).

Forms (``form="primal" | "dual" | "auto"``, ``diagonal=False | True``):

* primal, full covariance (dense or CSR X): Sigma_{t+1}^{-1} = Sigma_t^{-1} +
  x_t x_t^T / r (theory §2.10), so the n x n upper Cholesky factor R of the
  precision Sigma^{-1} = R^T R is kept: a trial costs one dot product, an update
  two triangular solves (w = R^{-T} x_t, chi_t = w . w, Sigma x_t = R^{-1} w) and a
  rank-one update of R by rotations (:func:`~perceptron_bounds._linalg.cholesky_update`).
  Downdating Sigma itself, as the LIBOL and DOGMA codes do, loses every digit of
  its small eigenvalues when the rows' norms span many decades (chi_t then comes
  out negative); the growing factor does not.
* primal, diagonal (``diagonal=True``, dense or CSR X; DOGMA's
  ``arow_diag_train.m``): Sigma is kept diagonal through its inverse, the
  precision P = diag(p): chi = sum_i x_i^2 / p_i, mu_i += alpha y x_i / p_i and
  p_i += x_i^2 / r, the diagonal of the full rule's precision update
  Sigma_{t+1}^{-1} = Sigma_t^{-1} + x x^T / r. O(nnz(x_t)) per trial; the score and
  chi are summed in one read of the row (with the variances 1 / p_i kept beside p).
* dual (full covariance, any kernel): with A the update trials so far, K_A their
  kernel Gram and y_A their labels, mu_t . x = y_A^T (r I + K_A)^{-1} k_A(x) and
  chi = K(x, x) - k_A(x)^T (r I + K_A)^{-1} k_A(x) (theory §2.10). The inverse
  M = (r I + K_A)^{-1} and alpha = M y_A are kept incrementally as the
  Second-Order dual form keeps (a I + G)^{-1}: an update borders M by the
  partitioned-inverse formula, whose Schur complement is chi + r. Kernel values
  come from the kernel-row engine (:mod:`perceptron_bounds.kernel_engine`). Here
  chi is a difference of kernel values, K(x, x) - g^T M g, accurate only to
  about 1e-16 K(x, x): where it rounds below 0 it is taken as 0 (Sigma is
  positive definite), and on rows whose norms span many decades the dual run is
  not the exact algorithm; the primal form is (theory §2.10).

Memory: the full primal form's n x n factor R and the dual form's k x k M (k the
updates) obey ``memory_budget`` (:mod:`perceptron_bounds.algorithms._common`).

Record (what the AROW bound reads, theory §3, §4.9): ``run.state["m"]`` and
``run.state["chi"]`` hold y_t mu_t . x_t and x_t^T Sigma_t x_t on each update
trial of the run, in order; ``run.state["precision_factor"]`` (full primal: R,
upper triangular, Sigma^{-1} = R^T R),
``run.state["precision"]`` (diagonal: the p_i) or ``run.state["m_inv"]`` (dual:
(r I + K_A)^{-1}) the final covariance a warm start continues from. The
hypothesis is linear in mu (``run.weights``; dual: dual coefficients
alpha = (r I + K_A)^{-1} y_A on the update instances).

References
----------
K. Crammer, A. Kulesza and M. Dredze, "Adaptive regularization of weight
vectors", NIPS 22 (2009). S. C. H. Hoi, J. Wang and P. Zhao, LIBOL manual,
sec. 2.2.4, Algorithm 10. F. Orabona, DOGMA, ``arow_train.m``,
``arow_diag_train.m``.

Examples
--------
>>> import numpy as np
>>> from perceptron_bounds import run_online
>>> X = np.array([[1.0, 0.0], [0.8, 0.6], [-1.0, 0.0], [0.0, -1.0]])
>>> run = run_online("arow", X, [1, 1, -1, -1], r=1.0, epochs=2)
>>> run.mistake_trials.tolist(), run.margin_error_trials.tolist()
([0], [1, 2, 3, 4, 5, 6, 7])
"""

from __future__ import annotations

import numpy as np
import scipy.sparse

from .._jit import row_kind, rule
from .._linalg import (
    border_inverse,
    capacity,
    dot,
    grow_vector,
    rank_one_matvec,
    row_dense,
    rows,
    square_buffer,
)
from .._triangular import cholesky_update, upper_solve, upper_solve_t
from .._validation import check_bool, check_real
from ..hypothesis import KernelHypothesis, LinearHypothesis
from ..kernel_engine import (
    engine_append,
    engine_diag,
    engine_order,
    engine_row,
    engine_supports,
    kernel_engine,
)
from ..kernels import KERNEL_DEFAULTS, kernel_of
from ..registry import Algorithm, LoopResult, attach, register
from ._cases import MISTAKE, NO_UPDATE
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
from ._frame import STOP, online_loop

# The frame's case of an update trial (algorithms/_frame.py); mistakes among them are told apart
# by y_t mu_t . x_t <= 0 (the wrapper).
UPDATE = MISTAKE

# The dense matrices a full-covariance form keeps: the factor R of Sigma^{-1} (primal,
# n x n), (r I + K_A)^{-1} (dual, k x k).
_MATRICES = 1


@rule(returns_arrays=True)  # the row it reads is a view of X, or scratch
def _arow_full_step(X, y, i, t, u, arrays, state):
    """Primal AROW with a full covariance on trial t; updates ``factor`` and ``mu`` in place.

    ``factor`` is the upper Cholesky factor R of the precision Sigma^{-1} = R^T R. An
    update computes w = R^{-T} x (chi = w . w >= 0) and z = R^{-1} w = Sigma x, then
    adds x x^T / r to R^T R by rotations. ``arrays`` is (factor, mu, per update
    y_t mu_t . x_t and chi_t = x_t^T Sigma_t x_t, then the buffers x, w, z, v of
    n entries); ``state`` is (r,).
    """
    factor, mu, ms, chis, scratch, w, z, v = arrays
    (r,) = state
    n = mu.shape[0]
    x = row_dense(X, i, scratch)
    s = dot(mu, x, n)
    ys = y[i] * s
    if ys >= 1.0:
        return s, NO_UPDATE, state
    upper_solve_t(factor, x, n, w)
    chi = dot(w, w, n)
    upper_solve(factor, w, n, z)
    c = (y[i] - s) / (chi + r)  # alpha y = l beta y, and l y = y - s
    root_r = np.sqrt(r)
    for j in range(n):
        mu[j] += c * z[j]
        v[j] = x[j] / root_r
    cholesky_update(factor, v, n)
    ms[u] = ys
    chis[u] = chi
    return s, UPDATE, state


# A trial costs O(n^2): the Ctrl-C check runs on every trial.
_arow_full_loop = online_loop(_arow_full_step, every=1)


def _row_score_chi(X, i, mu, variance):
    """(mu . x_i, sum_j x_ij^2 variance_j) in one read of row i (dense or CSR)."""
    return (_csr_score_chi if isinstance(X, tuple) else _dense_score_chi)(X, i, mu, variance)


def _dense_score_chi(X, i, mu, variance):
    s = 0.0
    chi = 0.0
    for j in range(mu.shape[0]):
        xj = X[i, j]
        s += mu[j] * xj
        chi += xj * xj * variance[j]
    return s, chi


def _csr_score_chi(X, i, mu, variance):
    data, indices, indptr = X
    s = 0.0
    chi = 0.0
    for p in range(indptr[i], indptr[i + 1]):
        j = indices[p]
        xj = data[p]
        s += mu[j] * xj
        chi += xj * xj * variance[j]
    return s, chi


def _row_diagonal_update(X, i, c, r, mu, precision, variance):
    """mu += c Sigma x_i, Sigma^{-1} += diag(x_i^2) / r, over the row's entries."""
    (_csr_diagonal_update if isinstance(X, tuple) else _dense_diagonal_update)(
        X, i, c, r, mu, precision, variance)


def _dense_diagonal_update(X, i, c, r, mu, precision, variance):
    for j in range(mu.shape[0]):  # apart from the sums: see perceptron_bounds._linalg
        xj = X[i, j]
        mu[j] += c * xj * variance[j]
        precision[j] += xj * xj / r
        variance[j] = 1.0 / precision[j]


def _csr_diagonal_update(X, i, c, r, mu, precision, variance):
    data, indices, indptr = X
    for p in range(indptr[i], indptr[i + 1]):
        j = indices[p]
        xj = data[p]
        mu[j] += c * xj * variance[j]
        precision[j] += xj * xj / r
        variance[j] = 1.0 / precision[j]


row_kind(_row_score_chi, _dense_score_chi, _csr_score_chi)
row_kind(_row_diagonal_update, _dense_diagonal_update, _csr_diagonal_update)


@rule
def _arow_diagonal_step(X, y, i, t, u, arrays, state):
    """Diagonal AROW on trial t over a dense or CSR row (O(nnz(x_t)) on CSR).

    ``arrays`` is (mu, precision = 1 / Sigma_ii, the variances 1 / precision,
    and per update y_t mu_t . x_t and chi_t); the score and chi are summed in
    one read of the row, so an update reads the row once more.
    """
    mu, precision, variance, ms, chis = arrays
    (r,) = state
    s, chi = _row_score_chi(X, i, mu, variance)
    ys = y[i] * s
    if ys >= 1.0:
        return s, NO_UPDATE, state
    _row_diagonal_update(X, i, (y[i] - s) / (chi + r), r, mu, precision, variance)
    ms[u] = ys
    chis[u] = chi
    return s, UPDATE, state


_arow_diagonal_loop = online_loop(_arow_diagonal_step)


@rule(returns_arrays=True)
def _arow_dual_step(src, y, i, t, u, arrays, state):
    """Dual AROW on trial t over the engine's k supports s_j (the update instances, with
    multiplicity).

    Keeps m_inv = (r I_k + K_A)^{-1} and alpha = m_inv y_A, so that the score is
    alpha . g with g = (K(s_j, x_t))_j; kernel values come from the kernel-row
    engine (``src``). ``arrays`` is (per update y_t s_t and chi_t); ``state``
    (r, max_k, engine state, alpha, m_inv, g, u, pending, k), the buffers
    regrown as needed: m_inv[:k, :k] still lacks + pending pending^T, which the
    next product adds. The case is :data:`~._frame.STOP` at an update that would
    make more than ``max_k`` supports.
    """
    ms, chis = arrays
    r, max_k, st, alpha, m_inv, g, v, pending, k = state
    g = grow_vector(g, k)
    v = grow_vector(v, k)
    pending = grow_vector(pending, k)
    st = engine_row(src, st, t, k, g)
    s = dot(alpha, g, k)
    ys = y[i] * s
    if ys >= 1.0:
        return s, NO_UPDATE, (r, max_k, st, alpha, m_inv, g, v, pending, k)
    if k >= max_k:
        return s, STOP, (r, max_k, st, alpha, m_inv, g, v, pending, k)
    rank_one_matvec(m_inv, pending, -1.0, g, k, v)
    # x^T Sigma x >= 0; the difference of kernel values may round below it
    chi = max(engine_diag(src, i) - dot(g, v, k), 0.0)
    schur = r + chi
    # Partitioned inverse of [[r I + K_A, g], [g^T, r + K(x, x)]]: border now, the
    # leading block's + u u^T / schur with the next product.
    m_inv = border_inverse(m_inv, v, schur, pending, k, max_k)
    c = (y[i] - s) / schur
    for p in range(k):
        alpha[p] -= c * v[p]
    st = engine_append(src, st, t, k)
    alpha = grow_vector(alpha, k)
    alpha[k] = c
    ms[u] = ys
    chis[u] = chi
    return s, UPDATE, (r, max_k, st, alpha, m_inv, g, v, pending, k + 1)


# A trial costs O(k^2): the Ctrl-C check runs on every trial.
_arow_dual_loop = online_loop(_arow_dual_step, every=1)


def _fit_primal(data, params, order, margins, previous):
    """The primal forms: (update trials, m, chi, hypothesis, covariance state)."""
    n, r = data.n_features, params["r"]
    mu = np.zeros(n) if previous is None else np.array(previous.weights)
    if params["diagonal"]:
        precision = np.ones(n) if previous is None else np.array(previous.state["precision"])
        ms, chis = np.empty(order.shape[0]), np.empty(order.shape[0])
        updates = _arow_diagonal_loop(rows(data.X), data.y, order,
                                      (mu, precision, 1.0 / precision, ms, chis), (r,), margins)[0]
        u = updates.shape[0]
        return (updates, ms[:u].copy(), chis[:u].copy(), LinearHypothesis(mu),
                {"precision": precision})
    factor = np.eye(n) if previous is None else np.array(previous.state["precision_factor"])
    ms, chis = np.empty(order.shape[0]), np.empty(order.shape[0])
    updates = _arow_full_loop(rows(data.X), data.y, order,
                              (factor, mu, ms, chis, np.zeros(n), *np.empty((3, n))), (r,),
                              margins)[0]
    u = updates.shape[0]
    return (updates, ms[:u].copy(), chis[:u].copy(), LinearHypothesis(mu),
            {"precision_factor": factor})


def _fit_dual(data, params, order, margins, previous):
    """The dual form: (update trials, m, chi, hypothesis, covariance state)."""
    kernel = kernel_of(params)
    src, st, k = kernel_engine(data.X, order, kernel, support_set(previous))
    m_inv = np.zeros((16, 16)) if previous is None else square_buffer(previous.state["m_inv"])
    budget = params["memory_budget"]
    ms, chis = np.empty(order.shape[0]), np.empty(order.shape[0])
    g, v, pending = np.zeros((3, capacity(k + 1)))  # nothing pending
    updates, _, state, stop = _arow_dual_loop(
        src, data.y, engine_order(src), (ms, chis),
        (params["r"], max_supports(_MATRICES, budget), st, dual_buffer(previous), m_inv,
         g, v, pending, k), margins)
    _, _, st, alpha, m_inv, g, v, pending, k = state
    rank_one_matvec(m_inv, pending, -1.0, g, k, v)  # the last update's pending change
    ms, chis = ms[:updates.shape[0]].copy(), chis[:updates.shape[0]].copy()
    check_dual_stop(stop, k, _MATRICES, budget)
    hypothesis = KernelHypothesis(engine_supports(st, k), alpha[:k].copy(), kernel)
    return updates, ms, chis, hypothesis, {"m_inv": m_inv[:k, :k].copy()}


def _fit(data, order, params, margins, previous) -> LoopResult:
    fit = _fit_primal if params["form"] == "primal" else _fit_dual
    updates, ms, chis, hypothesis, covariance = fit(data, params, order, margins, previous)
    return LoopResult(updates[ms <= 0.0], hypothesis, margin_error_trials=updates[ms > 0.0],
                      state={"m": ms, "chi": chis, **covariance})


def _resolve(params: dict, data) -> dict:
    """Validate r, diagonal, memory_budget, the kernel and ``form``; resolve ``form="auto"``.

    ``diagonal=True`` has the primal form only (linear kernel). For the full
    covariance ``"auto"`` is the dual form with a non-linear kernel; with the
    linear kernel the primal form when n_features <= n_samples and its n x n
    Sigma fits within ``memory_budget`` bytes, else the dual. An explicit primal
    form over the budget is a ``ValueError`` before anything is allocated; the
    dual form's loop stops with one before its k x k inverse passes the budget.
    """
    r = check_real("r", params["r"], low=0.0, include_low=False)
    diagonal = check_bool("diagonal", params["diagonal"])
    budget = check_memory_budget(params["memory_budget"])
    form = check_form(params["form"], ("primal", "dual"))
    linear = params["kernel"] == "linear"
    if diagonal:
        if form == "dual" or not linear:
            raise ValueError(f"diagonal=True has only the primal form (kernel='linear'); got "
                             f"form={form!r}, kernel={params['kernel']!r}")
        form = "primal"
    else:
        fits = dense_matrices_fit(data.n_features, _MATRICES, budget)
        if form == "auto" and linear:
            form = "primal" if fits and data.n_features <= data.n_samples else "dual"
        if form == "primal" and not fits:
            raise ValueError(over_budget("primal", data.n_features, _MATRICES, budget,
                                         "form='dual' or diagonal=True"))
    resolved = resolve_kernel_form({**params, "form": form}, data)
    return {"r": r, "diagonal": diagonal, "memory_budget": budget, **resolved}


def _matrix(result, params, rows) -> np.ndarray | None:
    """Sigma^{-1} = I + X_k X_k^T / r of the primal forms (theory §2.10), X_k the k update
    ``rows``; the diagonal variant's precision diag(p). None for the dual form."""
    if params["form"] != "primal":
        return None
    if params["diagonal"]:
        return np.diag(result.state["precision"])
    X_k = rows.toarray() if scipy.sparse.issparse(rows) else rows
    return np.eye(X_k.shape[1]) + X_k.T @ X_k / params["r"]


AROW = register(
    Algorithm(
        name="arow",
        estimator="AROW",
        defaults={"r": 1.0, "diagonal": False, **KERNEL_DEFAULTS, "form": "auto",
                  "memory_budget": MEMORY_BUDGET},
        resolve=_resolve,
        fit=_fit,
        matrix=_matrix,
        summary="AROW (Crammer, Kulesza, Dredze): adaptive regularization of weight vectors, "
                "full or diagonal covariance; primal or kernel form",
        bounds=("arow",),
    )
)
attach(AROW.name, "presentation",
       display_name="AROW",
       label_params=lambda params: ("r", "diagonal") if params["diagonal"] else ("r",),
       # a right prediction with margin below 1: an update (theory §2.10); no native form
       margin_error=(r"right sign, $y\,\mu \cdot x < 1$", r"right sign, $y\,\mu \cdot x < 1$"),
       teaching=dict(matrix=lambda params: (
           r"$\Sigma_k^{-1} = I + \mathrm{diag}(X_k X_k^T) / r$" if params["diagonal"]
           else r"$\Sigma_k^{-1} = I + X_k X_k^T / r$")))
