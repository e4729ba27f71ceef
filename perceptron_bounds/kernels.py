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
trial against its support vectors from the engine of
:mod:`perceptron_bounds.kernel_engine`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ._jit import jit, row_kind
from ._linalg import dot, row_norms, row_sq_norms
from ._validation import check_choice, check_int, check_real

KERNELS = ("linear", "poly", "rbf")
LINEAR, POLY, RBF = 0, 1, 2


# rbf needs ||x - z||^2. By ||x||^2 + ||z||^2 - 2 x . z (one matrix product for many pairs)
# the rounding error of x . z is up to about n_features * 1e-16 * (||x||^2 + ||z||^2); where
# the result falls below this fraction of ||x||^2 + ||z||^2 the difference form recomputes it.
# Then every value kept has lost at most log10(1 / RBF_CANCELLATION) digits (about 1, far
# from the 16 a near-duplicate pair of large norm lost), and K(x, x) = 1 exactly.
RBF_CANCELLATION = 2.0**-4


@jit
def sq_distance(a, b, n):
    """||a[:n] - b[:n]||^2 by the difference form (no cancellation)."""
    s = 0.0
    for j in range(n):
        d = a[j] - b[j]
        s += d * d
    return s


@jit
def scattered_sq_distance(a_data, a_indices, a_start, a_end, work, b_data, b_indices, b_start,
                          b_end):
    """||a - b||^2 for two CSR rows, a also scattered into the dense vector ``work``.

    Subtracts b in ``work``, sums the squares over a's entries then over b's
    (those shared with a zeroed first, so counted once), and leaves ``work``
    holding a again. Each sum runs in a loop that only reads (see
    :mod:`perceptron_bounds._linalg`, determinism).
    """
    for p in range(b_start, b_end):
        work[b_indices[p]] -= b_data[p]
    s = 0.0
    for p in range(a_start, a_end):
        v = work[a_indices[p]]
        s += v * v
    for p in range(a_start, a_end):
        work[a_indices[p]] = 0.0
    for p in range(b_start, b_end):
        v = work[b_indices[p]]
        s += v * v
    for p in range(b_start, b_end):
        work[b_indices[p]] = 0.0
    for p in range(a_start, a_end):
        work[a_indices[p]] = a_data[p]
    return s


@jit
def scatter(data, indices, start, end, work, value_scale):
    """work[indices[p]] = value_scale * data[p]: a CSR row spread into a dense vector."""
    for p in range(start, end):
        work[indices[p]] = value_scale * data[p]


def row_scatter(X, i, work, value):
    """work[j] = ``value`` x_ij on the entries of row i of CSR X (with 0: cleared again), for
    the helpers that read a CSR row against a dense one; nothing for dense X, read directly."""
    (_csr_row_scatter if isinstance(X, tuple) else _dense_row_scatter)(X, i, work, value)


def _dense_row_scatter(X, i, work, value):
    pass


def _csr_row_scatter(X, i, work, value):
    data, indices, indptr = X
    scatter(data, indices, indptr[i], indptr[i + 1], work, value)


row_kind(row_scatter, _dense_row_scatter, _csr_row_scatter)


@jit
def dot_kernel(g, code, degree, gamma, coef0):
    """K from the dot product g = a . b for ``linear`` and ``poly``."""
    if code == POLY:
        base = gamma * g + coef0
        out = 1.0
        for _ in range(degree):
            out *= base
        return out
    return g


@jit
def scattered_kernel_value(data, indices, a_start, a_end, work, b_start, b_end, code, degree,
                           gamma, coef0):
    """K(a, b) for two rows a, b of one CSR matrix, a also scattered into ``work``."""
    if code == RBF:
        return np.exp(-gamma * scattered_sq_distance(data, indices, a_start, a_end, work, data,
                                                     indices, b_start, b_end))
    s = 0.0
    for p in range(b_start, b_end):
        s += data[p] * work[indices[p]]
    return dot_kernel(s, code, degree, gamma, coef0)


@jit
def cancels(d, sq_a, sq_b):
    """Whether d = ||a||^2 + ||b||^2 - 2 a . b may have lost its digits (see RBF_CANCELLATION)."""
    return d <= RBF_CANCELLATION * (sq_a + sq_b)


@jit
def kernel_value(a, b, code, degree, gamma, coef0):
    """K(a, b) for two 1-D float64 arrays."""
    n = a.shape[0]
    if code == RBF:
        return np.exp(-gamma * sq_distance(a, b, n))
    return dot_kernel(dot(a, b, n), code, degree, gamma, coef0)


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
        """The matrix K(X[i], Z[j]) of shape (len(X), len(Z)); X or Z may be CSR.

        For ``rbf``, ||x - z||^2 = ||x||^2 + ||z||^2 - 2 x . z from one matrix
        product, and by the difference form for the pairs where that sum
        cancels (:data:`RBF_CANCELLATION`), so K(x, x) = 1 exactly.
        """
        G = X @ Z.T
        G = G.toarray() if sp.issparse(G) else np.array(G, dtype=np.float64, copy=None)
        if self.name == "linear":
            return G
        if self.name == "poly":
            G *= self.gamma
            G += self.coef0
            return _power_in_place(G, self.degree)
        sq_x, sq_z = rowwise_dot(X, X), rowwise_dot(Z, Z)
        G *= -2.0
        G += sq_x[:, None]
        G += sq_z[None, :]
        step = max(1, _CHUNK // max(G.shape[1], 1))
        for start in range(0, G.shape[0], step):
            block = G[start:start + step]
            rows, cols = np.nonzero(block <= RBF_CANCELLATION * np.add.outer(
                sq_x[start:start + step], sq_z))
            if rows.size:
                block[rows, cols] = _sq_distances(X, Z, rows + start, cols)
        np.maximum(G, 0.0, out=G)
        G *= -self.gamma
        return np.exp(G, out=G)

    def rounding_units(self, X) -> float:
        """u such that a computed K(x, z) on rows of X is within u eps t(x) t(z) of the exact one.

        t(x)^2 = gamma ||x||^2 + |coef0| raised to ``degree`` (poly; K(x, x) for
        coef0 >= 0), ||x||^2 (linear) or 1 (rbf). With w the most nonzeros of a
        row plus 3: w for a dot product, degree w for poly ((gamma x.z + coef0) is
        within w eps (gamma ||x|| ||z|| + |coef0|), and (gamma ||x|| ||z|| +
        |coef0|)^2 <= t(x)^2 t(z)^2 for degree 1), 6 w for rbf (Kernel.gram keeps the
        squared distance within w eps / RBF_CANCELLATION relative, and
        exp(-a) a <= 1 / e).
        """
        width = (int(np.max(np.diff(X.indptr), initial=0)) if sp.issparse(X)
                 else X.shape[1]) + 3
        if self.name == "poly":
            return float(self.degree * width)
        return float(6 * width if self.name == "rbf" else width)

    def diagonal(self, X) -> np.ndarray:
        """K(x, x) for every row of X."""
        sq = rowwise_dot(X, X)
        if self.name == "linear":
            return sq
        if self.name == "poly":
            return (self.gamma * sq + self.coef0) ** self.degree
        return np.ones(X.shape[0])


# Entries per temporary array of Kernel.gram's rbf correction (8 MiB of float64).
_CHUNK = 1 << 20


def _sq_distances(X, Z, rows, cols) -> np.ndarray:
    """||X[rows[q]] - Z[cols[q]]||^2 for each pair q, by the difference form; X or Z may be CSR."""
    out = np.empty(rows.shape[0])
    both_sparse = sp.issparse(X) and sp.issparse(Z)
    step = _CHUNK // 16 if both_sparse else max(1, _CHUNK // max(X.shape[1], 1))
    for start in range(0, rows.shape[0], step):
        a, b = X[rows[start:start + step]], Z[cols[start:start + step]]
        if sp.issparse(a) != sp.issparse(b):
            a, b = (m.toarray() if sp.issparse(m) else m for m in (a, b))
        diff = a - b
        out[start:start + step] = rowwise_dot(diff, diff)
    return out


def _power_in_place(G: np.ndarray, degree: int) -> np.ndarray:
    """G ** degree for an integer degree >= 1 by repeated squaring, overwriting G."""
    result = None
    while True:
        if degree & 1:
            result = G.copy() if result is None else np.multiply(result, G, out=result)
        degree >>= 1
        if not degree:
            return result
        np.square(G, out=G)


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


#: Nonzero norms whose squares are normal float64 numbers (beyond: underflow or overflow).
NORM_RANGE = (float(np.sqrt(np.finfo(np.float64).tiny)), float(np.sqrt(np.finfo(np.float64).max)))


def check_feature_norms(X, kernel: Kernel) -> np.ndarray:
    """||x_i|| of every row in the kernel's feature space, sqrt(K(x_i, x_i)), checked.

    A nonzero norm outside :data:`NORM_RANGE` (about 1.5e-154 to 1.3e154) is a one-line
    ``ValueError`` (:func:`check_norms_in_range`): its square, which the loops and the
    bounds use (x.x, R^2, the margins of rows of that scale), is not a normal float64
    number, so a run would learn nothing from such a row (its margins underflow to 0) and
    no bound would be exact (theory §4.4). The same refusal where data enter a run
    (``run_online``) and where a run's bounds are computed (``evaluate``).
    """
    norms = np.sqrt(np.maximum(kernel.diagonal(X), 0.0))
    check_norms_in_range(X, kernel, norms)
    return norms


#: A row whose plain sum of squares lies in [4 tiny, max / 4] surely has its norm in
#: :data:`NORM_RANGE`: rounding moves such a sum by far less than a factor of 4.
_SURELY_IN_RANGE = (4.0 * float(np.finfo(np.float64).tiny), float(np.finfo(np.float64).max) / 4.0)


def check_norms_in_range(X, kernel: Kernel, norms: np.ndarray | None = None,
                         sq_norms: np.ndarray | None = None) -> None:
    """The refusal of :func:`check_feature_norms`, without the norms it returns.

    ``norms`` are the feature-space norms when already computed (else computed here),
    ``sq_norms`` the rows' plain sums of squares (linear kernel; as ``check_X`` returns
    them with ``return_sq_norms``).
    With the linear kernel the check takes the norms scaled by each row's largest entry
    before squaring (:func:`~perceptron_bounds._linalg.row_norms`), which do not
    underflow; they are computed only when a row's plain sum of squares
    (:func:`~perceptron_bounds._linalg.row_sq_norms`, one quick read of X) is zero or
    within a factor of 4 of underflow or overflow, so the same rows are refused with the
    same numbers.
    """
    if kernel.is_linear:
        low, high = _SURELY_IN_RANGE
        sq = row_sq_norms(X) if sq_norms is None else sq_norms
        suspects = np.flatnonzero(~((sq >= low) & (sq <= high)))
        if not suspects.size:
            return
        checked = row_norms(X[suspects], 2.0)
    else:
        checked = np.sqrt(np.maximum(kernel.diagonal(X), 0.0)) if norms is None else norms
        suspects = np.arange(X.shape[0])
    low, high = NORM_RANGE
    bad = np.flatnonzero((checked != 0.0) & ~((checked >= low) & (checked <= high)))
    if bad.size:
        i = int(suspects[bad[0]])
        raise ValueError(
            f"X row {i} has norm {checked[bad[0]]:.6g} in the kernel's feature space: the runs and "
            f"the bounds need every nonzero norm in [{low:.3g}, {high:.3g}], where its square is "
            "a normal float64 number; rescale X")


def kernel_of(params: dict) -> Kernel:
    """The :class:`Kernel` named by resolved run parameters."""
    return Kernel(params["kernel"], params["degree"], params["gamma"], params["coef0"])
