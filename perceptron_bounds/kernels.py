"""Mercer kernels (SPEC 1.7), with scikit-learn's parameter names and defaults.

* ``linear``: K(x, z) = x . z
* ``poly``:   K(x, z) = (gamma x . z + coef0) ** degree
* ``rbf``:    K(x, z) = exp(-gamma ||x - z||^2)

``gamma=None`` means 1 / n_features, as in :func:`sklearn.metrics.pairwise.polynomial_kernel`
and :func:`sklearn.metrics.pairwise.rbf_kernel`; ``degree`` defaults to 3 and
``coef0`` to 1. Freund & Schapire's kernel (1 + x . z)^d is ``poly`` with
``gamma=1, coef0=1, degree=d``.

The jitted helpers below (``_dot``, ``_kernel_value``, the buffer growth
``_append_row``/``_append_support``) are shared by the algorithms' loops, and
the Python helpers by their wrappers (kernel and form resolution, warm-start
buffers). A kernel enters a loop as four scalars ``(code, degree, gamma,
coef0)`` so that every loop compiles for one signature whatever the kernel.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .._jit import jit
from .._validation import check_choice, check_int, check_real

KERNELS = ("linear", "poly", "rbf")
LINEAR, POLY, RBF = 0, 1, 2


@jit
def _dot(a, b, n):
    """a[:n] . b[:n]."""
    s = 0.0
    for j in range(n):
        s += a[j] * b[j]
    return s


@jit
def _kernel_value(a, b, code, degree, gamma, coef0):
    """K(a, b) for two 1-D float64 arrays."""
    n = a.shape[0]
    if code == RBF:
        s = 0.0
        for j in range(n):
            d = a[j] - b[j]
            s += d * d
        return np.exp(-gamma * s)
    s = _dot(a, b, n)
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


def make_kernel(kernel="linear", degree=3, gamma=None, coef0=1.0, *, n_features: int) -> Kernel:
    """Validate kernel parameters and resolve ``gamma=None`` to 1 / n_features.

    The kernels of SPEC 1.7, with scikit-learn's names: ``linear`` x . z,
    ``poly`` (gamma x . z + coef0)^degree, ``rbf`` exp(-gamma ||x - z||^2).
    Freund & Schapire's (1 + x . z)^d (paper 001 sec. 4) is ``poly`` with
    gamma = 1, coef0 = 1, degree = d.

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf"}, default="linear"
    degree : int, default=3
        Degree of ``poly``, >= 1.
    gamma : float or None, default=None
        > 0; None means 1 / n_features.
    coef0 : float, default=1.0
        Finite.
    n_features : int
        Number of features of the data (for ``gamma=None``).

    Returns
    -------
    Kernel

    Raises
    ------
    ValueError
        For an unknown kernel name, ``degree < 1``, ``gamma <= 0`` or a
        non-finite ``gamma``/``coef0``; ``TypeError`` for a non-number.

    Examples
    --------
    >>> make_kernel("rbf", n_features=4)
    Kernel(name='rbf', degree=3, gamma=0.25, coef0=1.0)
    """
    kernel = check_choice("kernel", kernel, KERNELS)
    degree = check_int("degree", degree, low=1)
    if gamma is None:
        gamma = 1.0 / n_features
    else:
        gamma = check_real("gamma", gamma, low=0.0, include_low=False)
    coef0 = check_real("coef0", coef0)
    return Kernel(kernel, degree, gamma, coef0)


FORMS = ("primal", "dual", "auto")

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


def resolve_kernel_form(params: dict, data) -> dict:
    """Resolve the kernel parameters and ``form`` shared by the first-order algorithms.

    ``form="auto"`` is ``"primal"`` for the linear kernel and ``"dual"``
    otherwise; ``"primal"`` with a non-linear kernel is a ``ValueError``; the
    dual form needs dense X (``TypeError`` otherwise). Returns a dict with the
    resolved ``kernel``, ``degree``, ``gamma``, ``coef0`` and ``form``.
    """
    kernel = make_kernel(
        params["kernel"], params["degree"], params["gamma"], params["coef0"],
        n_features=data.n_features,
    )
    form = check_choice("form", params["form"], FORMS)
    if form == "auto":
        form = "primal" if kernel.is_linear else "dual"
    if form == "primal" and not kernel.is_linear:
        raise ValueError(f"form='primal' needs kernel='linear', got kernel={kernel.name!r}")
    if form == "dual" and data.sparse:
        raise TypeError("the dual (kernel) form needs dense X, got a sparse matrix; "
                        "pass X.toarray() or use the linear kernel with form='primal'")
    check_kernel_range(kernel, data.X)
    return {**kernel.params(), "form": form}


def kernel_of(params: dict) -> Kernel:
    """The :class:`Kernel` named by resolved run parameters."""
    return Kernel(params["kernel"], params["degree"], params["gamma"], params["coef0"])


@jit
def _append_row(S, k, x):
    """Store x as row k of S, doubling S when full; returns the (possibly new) buffer."""
    if k == S.shape[0]:
        S_new = np.empty((max(2 * k, 16), S.shape[1]))
        S_new[:k] = S[:k]
        S = S_new
    S[k] = x
    return S


@jit
def _append_support(S, coef, k, x, c):
    """Store x as support row k with coefficient c, doubling the buffers when full.

    Returns the (possibly new) buffers; the caller increments k.
    """
    if k == coef.shape[0]:
        coef_new = np.empty(max(2 * k, 16))
        coef_new[:k] = coef[:k]
        coef = coef_new
    coef[k] = c
    return _append_row(S, k, x), coef


def rows_buffer(values: np.ndarray) -> np.ndarray:
    """A zero buffer with room for twice (at least 16) the rows of ``values``, which start it."""
    out = np.zeros((max(2 * values.shape[0], 16), *values.shape[1:]))
    out[: values.shape[0]] = values
    return out


def square_buffer(values: np.ndarray) -> np.ndarray:
    """A square zero buffer twice (at least 16) the size of ``values``, which it starts with."""
    k = values.shape[0]
    out = np.zeros((max(2 * k, 16),) * 2)
    out[:k, :k] = values
    return out


def support_buffers(previous, n_features: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Support-vector buffers (S, coef, k) to start a dual loop from.

    Empty for a fresh run; a copy of the final support set of ``previous``
    (a dual ``OnlineRun``) for a warm start.
    """
    if previous is None:
        return np.empty((16, n_features)), np.empty(16), 0
    S = previous.support_vectors
    return rows_buffer(S), rows_buffer(previous.dual_coef), S.shape[0]
