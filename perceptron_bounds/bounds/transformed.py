"""The transformed sequence of the Higher-Order Perceptron's bound (theory §4.1; paper 000 Thm 1).

Theorem 1 of paper 000 holds the mistakes of HO_2(c) against the hinge
losses of a comparator u on the transformed mistaken instances
y_t B_{k-1} x_{t(k)}, where B_{k-1} is the matrix the algorithm held before
its k-th mistake. A run does not store them (an m x n array, dense even for
sparse data); they are rebuilt here exactly from the run's record and X.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._interrupt import interruptible, stop_requested
from .._jit import jit
from .._linalg import normalize_rows, row_norms
from .._validation import check_labels, check_X
from ..algorithms.higher_order_rules import apply_b
from ..algorithms.pnorm import link
from ..kernels import kernel_of
from ..registry import get as get_algorithm
from ..run import OnlineRun


@jit
def _transform_loop(Z, F, G, frho, idx):
    """Z[k] <- B_{idx[k]} Z[k], B_a the product of the first a factors.

    See :func:`~perceptron_bounds.algorithms.higher_order_rules.apply_b`.
    """
    for k in range(Z.shape[0]):
        if stop_requested(k):  # Ctrl-C: the caller raises KeyboardInterrupt
            break
        apply_b(F, G, frho, idx[k], Z[k])


def _check_ho_run(run, X, y):
    """Validate (run, X, y) and return the mistaken instances as the loop used them, and y_t."""
    if not (isinstance(run, OnlineRun) and get_algorithm(run.algorithm).transformed_sequence):
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
    """(F, G, frho): the factors x_i, g(x_i), rho_i of B as the loop used them (linear kernel).

    F is a CSR matrix when a dual run kept its supports sparse (CSR X); that form has
    p = 2, so G is F itself.
    """
    st, p = run.state, run.params["p"]
    if run.params["form"] == "dual":
        active = st["active"]
        F = st["support"][active]
        scale = st["support_scale"][active]
        F = sp.csr_matrix(sp.diags(scale) @ F) if sp.issparse(F) else F * scale[:, None]
    else:
        F = np.asarray(st["factors"])  # read only: no copy of the run's a x n factors
    return F, F if p == 2.0 else link(F, p), np.asarray(st["factor_rho"])


def _as_dense(Z) -> np.ndarray:
    """Z as a writeable C-contiguous float64 array (a loop's one signature), copied if need be."""
    return np.require(Z.toarray() if sp.issparse(Z) else Z, dtype=np.float64,
                      requirements=["C", "W"])


@interruptible()
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
    F, G, frho = (_as_dense(A) for A in _linear_factors(run))
    _transform_loop(Z, F, G, frho, _factor_index(run))
    return Z * ym[:, None]


# Mistaken instances transformed per block by transformed_norms: at most TRANSFORM_BLOCK rows
# and TRANSFORM_ENTRIES floats (16 MiB; fewer rows for wide data), however many mistakes the
# run made.
TRANSFORM_BLOCK = 256
TRANSFORM_ENTRIES = 1 << 21


@interruptible()
def transformed_norms(run, X, y) -> np.ndarray:
    """||B_{k-1} x_{t(k)}||_p of every transformed mistaken instance, p the run's norm.

    The radius of the transformed sequence in the p-norm, which the Higher-Order
    bound for p > 2 takes (theory §4.1): the factors I - rho x g(x)^T are not
    contractions in ||.||_p, so it may exceed 1 even for unit instances. Same
    instances as :func:`transformed_instances` (linear runs only), built
    ``TRANSFORM_BLOCK`` mistakes at a time (fewer when ``TRANSFORM_BLOCK`` n
    exceeds ``TRANSFORM_ENTRIES``), so memory stays O(min(``TRANSFORM_BLOCK``
    n, ``TRANSFORM_ENTRIES``)) over O(m a n) time.

    Parameters
    ----------
    run : OnlineRun
        A linear-kernel ``"higher_order"`` run.
    X, y : array-like
        The training data of the run.

    Returns
    -------
    ndarray of shape (run.mistakes,)

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import run_online
    >>> X = np.array([[1.0, 0.2], [0.3, 1.0], [-1.0, -0.1], [-0.2, -1.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> run = run_online("higher_order", X, y, epochs=3, c=0.4, p=4.0)
    >>> Z = transformed_instances(run, X, y)
    >>> bool(np.allclose(transformed_norms(run, X, y), np.sum(np.abs(Z) ** 4, axis=1) ** 0.25))
    True
    """
    Xm, _ = _check_ho_run(run, X, y)
    if run.params["kernel"] != "linear":
        raise ValueError("transformed_norms needs a linear-kernel run (p > 2 has no kernel "
                         f"form), got kernel {run.params['kernel']!r}")
    p = run.params["p"]
    Z = normalize_rows(Xm, p) if run.params["normalize"] else Xm
    F, G, frho = (_as_dense(A) for A in _linear_factors(run))
    idx = _factor_index(run)
    out = np.empty(Xm.shape[0])
    rows = max(1, min(TRANSFORM_BLOCK, TRANSFORM_ENTRIES // max(Xm.shape[1], 1)))
    for start in range(0, Xm.shape[0], rows):
        stop = min(start + rows, Xm.shape[0])
        block = _as_dense(Z[start:stop])
        _transform_loop(block, F, G, frho, idx[start:stop])
        out[start:stop] = row_norms(block, p)
    return out


def _dense_step(U, F, G, frho, j):
    """U <- (I - rho_j g(x_j) x_j^T) U, i.e. B_j^T u from B_{j-1}^T u."""
    U -= frho[j] * (F[j] @ U) * G[j]


def _sparse_step(U, F, G, frho, j):
    """:func:`_dense_step` on the nonzeros of CSR row j (p = 2: G is F)."""
    cols = F.indices[F.indptr[j]:F.indptr[j + 1]]
    vals = F.data[F.indptr[j]:F.indptr[j + 1]]
    U[cols] -= frho[j] * (vals @ U[cols]) * vals


def _row_dot(U, Z, k) -> float:
    """U . Z[k] for dense or CSR Z."""
    if sp.issparse(Z):
        lo, hi = Z.indptr[k], Z.indptr[k + 1]
        return float(U[Z.indices[lo:hi]] @ Z.data[lo:hi])
    return U @ Z[k]


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
    >>> from perceptron_bounds.bounds.transformed import (
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
        if not sp.issparse(Z):  # CSR stays CSR: m x n dense would be GBs for wide data
            Z = _as_dense(Z)
        F, G, frho = _linear_factors(run)
        step = _sparse_step if sp.issparse(F) else _dense_step
        out = np.empty(Z.shape[0])
        U = u.copy()
        j = 0
        for k in range(Z.shape[0]):
            while j < idx[k]:
                step(U, F, G, frho, j)
                j += 1
            out[k] = _row_dot(U, Z, k)
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
