"""Mercer kernels (theory §1.7), with scikit-learn's parameter names, and the kernel-row cache.

* ``linear``: K(x, z) = x . z
* ``poly``:   K(x, z) = (gamma x . z + coef0) ** degree
* ``rbf``:    K(x, z) = exp(-gamma ||x - z||^2)

``gamma`` is a positive number, ``"scale"`` (1 / (n_features X.var()), the
default of scikit-learn's SVC), or ``"auto"`` / None (1 / n_features, the
default of :func:`sklearn.metrics.pairwise.polynomial_kernel` and
:func:`sklearn.metrics.pairwise.rbf_kernel`); ``degree`` defaults to 3 and
``coef0`` to 1. Freund & Schapire's kernel (1 + x . z)^d is ``poly`` with
``gamma=1, coef0=1, degree=d``.

A kernel enters a jitted loop as four scalars ``(code, degree, gamma,
coef0)`` (:meth:`Kernel.loop_args`), so that every loop compiles for one
signature whatever the kernel. Every dual form gets the kernel values of a
trial against its support vectors from :func:`kernel_row`, which keeps them
across epochs in one cache (see there).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ._jit import jit
from ._linalg import capacity, dot
from ._validation import check_choice, check_int, check_real

KERNELS = ("linear", "poly", "rbf")
LINEAR, POLY, RBF = 0, 1, 2


@jit
def kernel_value(a, b, code, degree, gamma, coef0):
    """K(a, b) for two 1-D float64 arrays."""
    n = a.shape[0]
    if code == RBF:
        s = 0.0
        for j in range(n):
            d = a[j] - b[j]
            s += d * d
        return np.exp(-gamma * s)
    s = dot(a, b, n)
    if code == POLY:
        base = gamma * s + coef0
        out = 1.0
        for _ in range(degree):
            out *= base
        return out
    return s


@dataclass(frozen=True)
class Kernel:
    """A resolved Mercer kernel: name and numeric parameters (gamma never None)."""

    name: str = "linear"
    degree: int = 3
    gamma: float = 1.0
    coef0: float = 1.0

    @property
    def code(self) -> int:
        return KERNELS.index(self.name)

    @property
    def is_linear(self) -> bool:
        return self.name == "linear"

    def loop_args(self) -> tuple[int, int, float, float]:
        """The four scalars a jitted loop takes: (code, degree, gamma, coef0)."""
        return self.code, int(self.degree), float(self.gamma), float(self.coef0)

    def params(self) -> dict:
        """The kernel's parameters as they enter a run's ``params``."""
        return {
            "kernel": self.name, "degree": self.degree, "gamma": self.gamma, "coef0": self.coef0
        }

    def gram(self, X, Z) -> np.ndarray:
        """The matrix K(X[i], Z[j]) of shape (len(X), len(Z)); X or Z may be CSR."""
        G = X @ Z.T
        G = G.toarray() if sp.issparse(G) else np.asarray(G, dtype=np.float64)
        if self.name == "linear":
            return G
        if self.name == "poly":
            return (self.gamma * G + self.coef0) ** self.degree
        sq_x = rowwise_dot(X, X)
        sq_z = rowwise_dot(Z, Z)
        dist = np.maximum(sq_x[:, None] + sq_z[None, :] - 2.0 * G, 0.0)
        return np.exp(-self.gamma * dist)

    def diagonal(self, X) -> np.ndarray:
        """K(x, x) for every row of X."""
        sq = rowwise_dot(X, X)
        if self.name == "linear":
            return sq
        if self.name == "poly":
            return (self.gamma * sq + self.coef0) ** self.degree
        return np.ones(X.shape[0])


def rowwise_dot(A, B) -> np.ndarray:
    """sum_j A[i, j] B[i, j] for each row i; A may be CSR."""
    if sp.issparse(A):
        return np.asarray(A.multiply(B).sum(axis=1)).ravel()
    return np.einsum("ij,ij->i", A, B)


KERNEL_DEFAULTS = {"kernel": "linear", "degree": 3, "gamma": None, "coef0": 1.0}


GAMMAS = ("scale", "auto")


def make_kernel(kernel="linear", degree=3, gamma=None, coef0=1.0, *, n_features: int,
                X=None) -> Kernel:
    """Validate kernel parameters and resolve ``gamma`` to a number.

    The kernels of theory §1.7, with scikit-learn's names: ``linear`` x . z,
    ``poly`` (gamma x . z + coef0)^degree, ``rbf`` exp(-gamma ||x - z||^2).
    Freund & Schapire's (1 + x . z)^d (paper 001 sec. 4) is ``poly`` with
    gamma = 1, coef0 = 1, degree = d.

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf"}, default="linear"
    degree : int, default=3
        Degree of ``poly``, >= 1.
    gamma : float, "scale", "auto" or None, default=None
        A number > 0; ``"scale"`` means 1 / (n_features X.var()) (1 when X has
        zero variance), as scikit-learn's SVC; ``"auto"`` and None mean
        1 / n_features.
    coef0 : float, default=1.0
        Finite.
    n_features : int
        Number of features of the data.
    X : ndarray or sparse matrix, optional
        The data, needed for ``gamma="scale"`` (the variance runs over all
        entries, zeros of a sparse matrix included).

    Returns
    -------
    Kernel

    Raises
    ------
    ValueError
        For an unknown kernel name or gamma string, ``degree < 1``,
        ``gamma <= 0``, a non-finite ``gamma``/``coef0``, or ``gamma="scale"``
        without X; ``TypeError`` for a non-number.

    Examples
    --------
    >>> make_kernel("rbf", n_features=4)
    Kernel(name='rbf', degree=3, gamma=0.25, coef0=1.0)
    >>> make_kernel("rbf", gamma="scale", n_features=2, X=np.array([[0.0, 2.0], [2.0, 0.0]]))
    Kernel(name='rbf', degree=3, gamma=0.5, coef0=1.0)
    """
    kernel = check_choice("kernel", kernel, KERNELS)
    degree = check_int("degree", degree, low=1)
    if gamma is None or isinstance(gamma, str):
        gamma = "auto" if gamma is None else check_choice("gamma", gamma, GAMMAS)
        gamma = 1.0 / n_features if gamma == "auto" else _scale_gamma(X, n_features)
    else:
        gamma = check_real("gamma", gamma, low=0.0, include_low=False)
    coef0 = check_real("coef0", coef0)
    return Kernel(kernel, degree, gamma, coef0)


def _scale_gamma(X, n_features: int) -> float:
    """1 / (n_features Var(X)) over all entries of X, or 1 when the variance is 0 (as SVC)."""
    if X is None:
        raise ValueError("gamma='scale' needs the data X to compute 1 / (n_features X.var())")
    if sp.issparse(X):
        variance = float(X.multiply(X).mean() - X.mean() ** 2)
    else:
        variance = float(np.var(X))
    return 1.0 / (n_features * variance) if variance > 0.0 else 1.0


# A kernel value may reach 10**_MAX_LOG10_KERNEL; sums of many such values still fit in float64.
_MAX_LOG10_KERNEL = 300.0


def check_kernel_range(kernel: Kernel, X) -> None:
    """``ValueError`` if a ``poly`` kernel value on the rows of X could overflow float64.

    |K(x, z)| <= (gamma R^2 + |coef0|)^degree with R = max ||x||; it must stay
    below 1e300, or the loops would compute inf and NaN margins and silently
    count them as correct trials. ``linear`` and ``rbf`` values are bounded by
    the data (checked by ``check_X``) and by 1.
    """
    if kernel.name != "poly":
        return
    base = kernel.gamma * float(np.max(rowwise_dot(X, X))) + abs(kernel.coef0)
    if base > 0 and kernel.degree * np.log10(base) > _MAX_LOG10_KERNEL:
        raise ValueError(
            f"kernel='poly' with degree={kernel.degree}, gamma={kernel.gamma:g}, "
            f"coef0={kernel.coef0:g} overflows float64 on X: (gamma max ||x||^2 + |coef0|)^degree "
            f"= 10^{kernel.degree * np.log10(base):.0f} > 10^{_MAX_LOG10_KERNEL:.0f}; lower the "
            "degree, gamma or coef0, or scale X down"
        )


def kernel_of(params: dict) -> Kernel:
    """The :class:`Kernel` named by resolved run parameters."""
    return Kernel(params["kernel"], params["degree"], params["gamma"], params["coef0"])


# The kernel-row cache keeps at most this many float64 values (256 MiB) unless told otherwise.
KERNEL_CACHE_ENTRIES = 1 << 25


def kernel_cache(n_rows: int, n_trials: int) -> tuple[np.ndarray, np.ndarray, int]:
    """An empty kernel-row cache ``(values, filled, max_entries)`` for :func:`kernel_row`.

    For a run of ``n_trials`` trials over the ``n_rows`` rows of X. ``values``
    has one row per row of X (none when no row is shown twice,
    ``n_trials <= n_rows``: a cache would only cost memory) and grows in width as
    support vectors are added; ``filled[i]`` counts the valid entries of row i;
    ``max_entries`` is :data:`KERNEL_CACHE_ENTRIES` as it is at the call, the
    cap on rows x width.
    """
    rows = n_rows if n_trials > n_rows else 0
    width = min(16, KERNEL_CACHE_ENTRIES // max(rows, 1))
    return np.empty((rows, width)), np.zeros(n_rows, dtype=np.int64), KERNEL_CACHE_ENTRIES


@jit
def _grown(values, filled, k, max_entries):
    """The cache with room for k supports per row, when rows x width may stay within max_entries."""
    n_rows = values.shape[0]
    if n_rows == 0 or k <= values.shape[1] or n_rows * capacity(k) > max_entries:
        return values
    grown = np.empty((n_rows, capacity(k)))
    for q in range(n_rows):
        for j in range(filled[q]):
            grown[q, j] = values[q, j]
    return grown


@jit
def kernel_row(S, k, X, i, values, filled, max_entries, code, degree, gamma, coef0, out):
    """out[j] = K(S[j], X[i]) for j < k, through the kernel-row cache; returns the cache.

    The cache is keyed by (row i of X, index j of the support list): support
    vectors are only ever appended, so ``values[i, :filled[i]]`` stay valid for
    the rest of the run and a row shown again in a later epoch costs only the
    kernel values of the supports added since. Several classifiers over one
    shared support list (one-vs-rest) can share one cache. The width of
    ``values`` doubles when a row needs more room, while rows x width stays
    within ``max_entries``; kernel values past the width are computed every
    time. A cache with no rows (see :func:`kernel_cache`) caches nothing.
    """
    values = _grown(values, filled, k, max_entries)
    x = X[i]
    start = filled[i] if values.shape[0] > 0 else 0
    stop = min(k, values.shape[1]) if values.shape[0] > 0 else 0
    for j in range(start):
        out[j] = values[i, j]
    for j in range(start, k):
        out[j] = kernel_value(S[j], x, code, degree, gamma, coef0)
    for j in range(start, stop):
        values[i, j] = out[j]
    if stop > start:
        filled[i] = stop
    return values


@jit
def kernel_row_dot(S, coef, k, X, i, values, filled, max_entries, code, degree, gamma, coef0):
    """sum_{j<k} coef[j] K(S[j], X[i]) through the kernel-row cache; returns (cache, sum).

    The same cache as :func:`kernel_row`, for a loop that needs only the
    score. The sum runs in the order j = 0, 1, ..., k - 1, one kernel value at
    a time, as the first-order loops have always summed it.
    """
    values = _grown(values, filled, k, max_entries)
    x = X[i]
    start = filled[i] if values.shape[0] > 0 else 0
    stop = min(k, values.shape[1]) if values.shape[0] > 0 else 0
    s = 0.0
    for j in range(k):
        if j < start:
            v = values[i, j]
        else:
            v = kernel_value(S[j], x, code, degree, gamma, coef0)
            if j < stop:
                values[i, j] = v
        s += coef[j] * v
    if stop > start:
        filled[i] = stop
    return values, s
