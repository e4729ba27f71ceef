"""Choosing the comparator u and the margin gamma of a bound (theory §4.3).

Every bound holds for every unit u and every gamma > 0 meeting its
conditions, so its tightest value is an optimisation. The comparators are
the given u, the data's known target, or linear SVM directions over a range
of C (kernel SVM functions of unit RKHS norm for kernel runs); gamma is
searched per bound over the sorted positive margins y u.x and a log grid,
then refined between the neighbours of the best candidate.

The bounds of the p-norm algorithms (theory §4.1) take u of unit dual norm,
||u||_q = 1 with q = p / (p - 1): the same vectors are then scaled in q
(``q=`` of :func:`unit_comparator` and :func:`svm_comparators`).

The bounds of a native multiclass run (theory §4.5) compare with K prototypes
u^1..u^K of unit Frobenius norm, sum_r ||u^r||^2 = 1: the given or the data's
target (a K x n matrix), scikit-learn's Crammer-Singer multiclass linear SVM, or
for kernel runs K one-vs-rest kernel SVM functions scaled together.
"""

from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass

import numpy as np
import scipy.optimize

from .._linalg import ldexp_rows, row_norms
from ..kernels import Kernel, rowwise_dot

SVM_C = (0.01, 0.1, 1.0, 10.0, 100.0)
# Rows an SVM is fitted on (a seeded subset beyond this, linear / kernel): any unit u or
# f is a valid comparator, so the subset only affects how tight the bounds get.
SVM_ROWS = 4000
KERNEL_SVM_ROWS = 1500
# At most this many margins enter the scan, evenly spread over the sorted ones.
MAX_MARGIN_CANDIDATES = 1024
GRID_POINTS = 128
GRID_DECADES = 6
# The work of the kernel SVM fits (libsvm has no iteration limit of its own): at most
# SVC_MAX_ITER iterations per fit (about 1 s on KERNEL_SVM_ROWS rows) and, once the fits of one
# search have made SVM_TOTAL_ITER iterations, no further value of C. Counted in iterations, not
# seconds, so that the comparators, and so the bounds, do not depend on the machine's speed.
# Any unit f is a valid comparator, so stopping early only affects how tight the bounds get;
# the report's notes say so.
SVC_MAX_ITER = 100_000
SVM_TOTAL_ITER = 200_000
# Kernel values a kernel comparator evaluates at once (16 MiB of float64).
VALUES_BLOCK = 1 << 21
# Two rows are one point for a kernel SVM when their squared distance in the feature space,
# K(x, x) + K(z, z) - 2 K(x, z), is at most SAME_POINT max(K(x, x), K(z, z)): the Gram matrix,
# whose entries carry about 1e-16 of rounding, cannot tell them apart.
SAME_POINT = 1e-12
# A kernel comparator f = sum_i c_i K(s_i, .) is kept only when the bound on the rounding error
# of its computed ||f||^2 (:meth:`_KernelPoints.comparator`) is at most NORM_RTOL ||f||^2 (a
# worst-case bound: on MNIST subsets it is 1e-10 .. 6e-8, for an error of a few 1e-16); f(x) then
# carries at most sqrt(NORM_RTOL) ||f|| t(x) of rounding too, t(x)^2 >= |K(x, x)|.
NORM_RTOL = 1e-6
# A linear SVM is fitted on rows whose norms lie in [2^-FIT_OCTAVES, 2^FIT_OCTAVES] (about
# 1e-12 .. 1e12): liblinear's primal solver does not return on rows of norm about 1e80 and more.
FIT_OCTAVES = 40


@dataclass(frozen=True)
class Comparator:
    """A unit-norm comparator: u in input space, or f = sum_i coef_i K(support_i, .).

    A multiclass comparator (theory §4.5) holds K prototypes of unit Frobenius
    norm: ``u`` of shape (K, n), or ``coef`` of shape (n_support, K), column r
    the expansion of f^r, with sum_r ||f^r||_K^2 = 1.

    Attributes
    ----------
    label : str
        How it was chosen.
    kernel : Kernel
    u : ndarray or None
        The unit vector (linear kernel), or the (K, n) prototypes.
    support, coef : ndarray or None
        The expansion of f (non-linear kernel), scaled so that ||f||_K = 1.
    note : str or None
        How the search that produced it stopped early (iteration or time limit,
        a failed fit), for the report's notes; None when it ran in full.
    """

    label: str
    kernel: Kernel
    u: np.ndarray | None = None
    support: np.ndarray | None = None
    coef: np.ndarray | None = None
    note: str | None = None

    def values(self, Z) -> np.ndarray:
        """u.z (or f(z)) for every row z of Z; shape (rows, K), u^r.z, for K prototypes."""
        if self.u is not None:
            if self.u.ndim == 2:
                return np.asarray(Z @ self.u.T, dtype=np.float64)
            return np.asarray(Z @ self.u, dtype=np.float64).ravel()
        # By blocks of rows: the kernel values of all rows against the supports at once would
        # be an n_samples x n_support matrix (GBs for a large data set).
        step = max(1, VALUES_BLOCK // max(self.support.shape[0], 1))
        blocks = [self.kernel.gram(Z[start:start + step], self.support) @ self.coef
                  for start in range(0, Z.shape[0], step)]
        return np.concatenate(blocks) if blocks else np.zeros((0, *self.coef.shape[1:]))


def vector_norm(u, q: float = 2.0) -> float:
    """||u||_q of a 1-D array, q >= 1 (``numpy.linalg.norm`` for q = 2; scaled against overflow).

    Examples
    --------
    >>> vector_norm(np.array([3.0, -4.0])), vector_norm(np.array([3.0, -4.0]), 1.0)
    (5.0, 7.0)
    """
    u = np.asarray(u, dtype=np.float64)
    if q == 2.0:
        return float(np.linalg.norm(u))
    if not np.all(np.isfinite(u)):
        return float("inf") if not np.any(np.isnan(u)) else float("nan")
    return float(row_norms(np.ascontiguousarray(u.reshape(1, -1)), q)[0])


def unit_comparator(u, n_features: int, label: str, kernel: Kernel,
                    q: float = 2.0) -> Comparator:
    """Validate a user's or the data's u (a finite nonzero vector) and scale it to ||u||_q = 1.

    ``q`` is 2 (unit norm) except for the bounds of the p-norm algorithms,
    which take q = p / (p - 1) (theory §4.1).
    """
    if not kernel.is_linear:
        raise ValueError(
            f"u is a vector of the input space, but the run uses the {kernel.name!r} kernel; "
            "kernel runs are compared with a kernel SVM: pass u=None and comparator='svm'"
        )
    u = np.asarray(u, dtype=np.float64)
    if u.shape != (n_features,):
        raise ValueError(f"u must have shape ({n_features},), got {u.shape}")
    norm = vector_norm(u, q)
    if not np.isfinite(norm) or norm == 0.0:
        raise ValueError(f"u must be a finite nonzero vector, got norm {norm}")
    return Comparator(label, kernel, u=u / norm)


def unit_prototypes(U, n_classes: int, n_features: int, label: str,
                    kernel: Kernel) -> Comparator:
    """Validate K prototypes (a finite nonzero K x n matrix), scaled to unit Frobenius norm.

    The multiclass bounds (theory §4.5) ask for sum_r ||u^r||^2 = 1; row r of
    ``U`` is the prototype of class ``classes[r]``.
    """
    if not kernel.is_linear:
        raise ValueError(
            f"u is a matrix of prototypes in the input space, but the run uses the "
            f"{kernel.name!r} kernel; kernel runs are compared with kernel SVMs: pass u=None "
            "and comparator='svm'"
        )
    U = np.asarray(U, dtype=np.float64)
    if U.shape != (n_classes, n_features):
        raise ValueError(f"u must have shape ({n_classes}, {n_features}) (one prototype per "
                         f"class), got {U.shape}")
    norm = float(np.linalg.norm(U))
    if not np.isfinite(norm) or norm == 0.0:
        raise ValueError(f"u must be a finite nonzero matrix, got Frobenius norm {norm}")
    return Comparator(label, kernel, u=U / norm)


def crammer_singer_comparators(X, y, n_classes: int, kernel: Kernel,
                               seed: int = 0) -> list[Comparator]:
    """Multiclass SVM prototypes of unit Frobenius norm, one set per C in ``SVM_C``.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n, d)
    y : ndarray of int64, shape (n,)
        Class indices 0 .. n_classes - 1.
    n_classes : int
        K; a class absent from the rows fitted gets a zero prototype.
    kernel : Kernel
    seed : int, default=0
        Seed of the subset of rows fitted (``SVM_ROWS`` / ``KERNEL_SVM_ROWS``).

    Returns
    -------
    list of Comparator
        Empty when fewer than two classes are present.

    Notes
    -----
    Linear kernel: ``LinearSVC(multi_class="crammer_singer", fit_intercept=False)``
    on the rows of :func:`fit_rows`, whose K x d ``coef_`` maximises the multiclass
    margin min_{r != y}(u^y - u^r).x of theory §4.5; with two classes present
    scikit-learn returns one row w, taken as the prototypes (-w/2, w/2). Other
    kernels: for each class a one-vs-rest ``SVC(kernel="precomputed")``, intercept
    dropped, the K functions scaled together to sum_r ||f^r||_K^2 = 1, within the
    limits of :func:`svm_comparators` (coinciding rows, a norm lost in rounding);
    when no set passes, the class sums f^r = sum_{y_i = r} K(x_i, .), scaled so.
    Every set of prototypes of unit norm is a valid comparator; the choice only
    affects how tight the bounds get.
    """
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.svm import LinearSVC

    out = []
    Xs, ys = _svm_rows(X, y, kernel, seed)
    present = np.unique(ys)
    if present.shape[0] < 2:
        return out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        if kernel.is_linear:
            Xf = fit_rows(Xs)
            for C in SVM_C:
                svm = LinearSVC(C=C, multi_class="crammer_singer", fit_intercept=False,
                                max_iter=2000, random_state=0).fit(Xf, ys)
                coef = np.asarray(svm.coef_, dtype=np.float64)
                if present.shape[0] == 2:
                    coef = np.vstack([-coef[0] / 2.0, coef[0] / 2.0])
                U = np.zeros((n_classes, X.shape[1]))
                U[present] = coef
                norm = float(np.linalg.norm(U))
                if norm > 0:
                    out.append(Comparator(f"crammer-singer svm C={C:g}", kernel, u=U / norm))
            return out
        points = _KernelPoints(Xs, kernel)
        search = _KernelSVMSearch()
        for C in search.values_of_C():
            coef = np.zeros((Xs.shape[0], n_classes))
            for k in present:
                column = search.fit(points, np.where(ys == k, 1.0, -1.0), C)
                if column is None:
                    break
                coef[:, k] = column
            else:
                search.keep(out, points.comparator(f"kernel svm one-vs-rest C={C:g}", coef), C)
        if not out:
            sums = np.zeros((Xs.shape[0], n_classes))
            sums[np.arange(Xs.shape[0]), ys] = 1.0
            search.fall_back(out, points.comparator("kernel class sums", sums))
    return search.annotate(out)


class _KernelPoints:
    """The rows a kernel SVM is fitted on, their Gram matrix, and which rows coincide.

    Rows whose squared distance in the feature space is within ``SAME_POINT`` of
    their squared norms are one point for the Gram matrix. The SVM sees a point
    shown with both labels once, with its net label and weight (dropped at net
    zero): on the rows themselves it would put opposite coefficients of size C
    on them, a function of norm lost in rounding (issue 31). Comparators are
    built by :meth:`comparator`, which merges the coefficients of coinciding
    rows before it computes the norm.
    """

    def __init__(self, Xs, kernel: Kernel):
        self.X, self.kernel = Xs, kernel
        self.G = kernel.gram(Xs, Xs)
        diag = np.diag(self.G)
        near = (diag[:, None] + diag[None, :] - 2.0 * self.G
                <= SAME_POINT * np.maximum(diag[:, None], diag[None, :]))
        np.fill_diagonal(near, False)
        # rep[i]: the first row of i's point (greedy over the rows in order).
        self.rep = np.arange(Xs.shape[0])
        for i in np.flatnonzero(near.any(axis=1)):
            if self.rep[i] == i:
                self.rep[near[i] & (self.rep == np.arange(Xs.shape[0]))] = i
        self.merged = 0
        # |K(s_i, s_j)| <= t_i t_j, computed within entry_units eps t_i t_j.
        sq = rowwise_dot(Xs, Xs)
        self.entry_units = kernel.rounding_units(Xs)
        if kernel.name == "poly":
            self.t = (kernel.gamma * sq + abs(kernel.coef0)) ** (kernel.degree / 2.0)
        else:
            self.t = np.ones(Xs.shape[0])

    def fit_set(self, y):
        """(rows, labels, sample weights or None) the SVM is fitted on for the labels ``y``."""
        rows = np.arange(y.shape[0])
        if np.all(self.rep == rows):
            return rows, y, None
        pos = np.bincount(self.rep, weights=y > 0, minlength=y.shape[0])
        neg = np.bincount(self.rep, weights=y < 0, minlength=y.shape[0])
        both = (pos > 0) & (neg > 0)
        if not both.any():
            return rows, y, None
        self.merged = max(self.merged, int(np.count_nonzero(both)))
        net = pos - neg
        alone = np.flatnonzero(both & (net != 0))
        rows = np.sort(np.concatenate([np.flatnonzero(~both[self.rep]), alone]))
        at = both[rows]
        labels = np.where(at, np.sign(net[rows]), y[rows])
        return rows, labels, np.where(at, np.abs(net[rows]), 1.0)

    def comparator(self, label: str, coef) -> Comparator | None:
        """f = sum_i coef_i K(x_i, .) (columns: K functions) scaled to unit norm, or None.

        The coefficients of coinciding rows are summed onto the first. With
        s = sum_i |c_i| t_i, the computed ||f||^2 = c^T G c is within
        (entry_units + k + 1) eps s^2 of the exact one (k supports; entries within
        entry_units eps t_i t_j, the sum's own rounding within (k + 1) eps s^2):
        None when that exceeds ``NORM_RTOL ||f||^2`` or ||f||^2 <= 0.
        """
        coef = np.asarray(coef, dtype=np.float64)
        merged = np.zeros((self.X.shape[0], *coef.shape[1:]))
        np.add.at(merged, self.rep, coef)
        flat = merged.reshape(merged.shape[0], -1)
        keep = np.flatnonzero(np.any(flat != 0.0, axis=1))
        c = flat[keep]
        norm_sq = float(np.sum(c * (self.G[np.ix_(keep, keep)] @ c)))
        scale_sq = float(np.sum(np.sum(np.abs(c) * self.t[keep, None], axis=0) ** 2))
        error = (self.entry_units + keep.shape[0] + 1) * np.finfo(np.float64).eps * scale_sq
        if not norm_sq > 0.0 or error > NORM_RTOL * norm_sq:
            return None
        c = c / np.sqrt(norm_sq)
        return Comparator(label, self.kernel, support=self.X[keep],
                          coef=c.ravel() if coef.ndim == 1 else c)


class _KernelSVMSearch:
    """The kernel SVM fits of one comparator search, within ``SVC_MAX_ITER`` and ``SVM_TOTAL_ITER``.

    Each fit is on the rows of :meth:`_KernelPoints.fit_set`. A fit that libsvm
    ends with non-finite coefficients (a Gram of huge values, e.g. a ``poly``
    kernel on rows of norm 1e8) is fitted again on the Gram divided by its
    largest diagonal value: SVC(C) on G / s is SVC(C s) on G up to the scale of
    the coefficients, which the comparator normalises away. Records the values
    of C whose fit stopped at the iteration limit, was refitted so, failed, was
    skipped for the work budget, or gave a function whose norm is lost in
    rounding, and writes them into the comparators' ``note``.
    """

    def __init__(self):
        self.iterations = 0
        self.capped, self.rescaled, self.failed, self.skipped, self.refused = [], [], [], [], []
        self.merged = 0
        self.one_label = False
        self.fallback = None

    def values_of_C(self):
        """The values of ``SVM_C`` in turn, until the fits have made ``SVM_TOTAL_ITER`` iterations
        (the first is always fitted)."""
        for i, C in enumerate(SVM_C):
            if i and self.iterations >= SVM_TOTAL_ITER:
                self.skipped = list(SVM_C[i:])
                return
            yield C

    def fit(self, points: _KernelPoints, y, C):
        """The dual coefficients (one per row of ``points``, zero off the supports) of
        ``SVC(C=C, kernel="precomputed", max_iter=SVC_MAX_ITER)``, or None."""
        from sklearn.svm import SVC

        rows, labels, weights = points.fit_set(y)
        self.merged = points.merged
        if np.unique(labels).shape[0] < 2:
            self.one_label = True
            return None
        G = points.G if rows.shape[0] == y.shape[0] else points.G[np.ix_(rows, rows)]
        svc = SVC(C=C, kernel="precomputed", max_iter=SVC_MAX_ITER)
        if not _fits(svc, G, labels, weights):
            top = float(np.max(np.diag(G)))
            if not _fits(svc, G / top if top > 0 else G, labels, weights):
                self.failed.append(C)
                return None
            if C not in self.rescaled:
                self.rescaled.append(C)
        self.iterations += int(np.sum(svc.n_iter_))
        if np.any(np.asarray(svc.n_iter_) >= SVC_MAX_ITER) and C not in self.capped:
            self.capped.append(C)
        coef = np.zeros(y.shape[0])
        coef[rows[svc.support_]] = np.asarray(svc.dual_coef_, dtype=np.float64).ravel()
        return coef

    def keep(self, out: list, comp: Comparator | None, C) -> None:
        """Append the comparator of C, or record that its norm was lost in rounding."""
        if comp is None:
            self.refused.append(C)
        else:
            out.append(comp)

    def fall_back(self, out: list, comp: Comparator | None) -> None:
        """Append a comparator that no SVM gave (``comp.label`` says which), if any."""
        if comp is not None:
            self.fallback = comp.label
            out.append(comp)

    def annotate(self, comparators):
        """The comparators, each with the note of this search's early stops (if any)."""
        parts = []
        if self.merged:
            parts.append(f"{self.merged} point(s) shown with both labels (rows that coincide "
                         "in the feature space up to rounding) fitted once, with their net "
                         "label and weight" + (", which leaves one label to fit" if
                                                self.one_label else ""))
        if self.capped:
            parts.append(f"stopped at max_iter={SVC_MAX_ITER} for C={_cs(self.capped)}")
        if self.rescaled:
            parts.append(f"refitted on the Gram scaled by 1 / max K(x, x) for "
                         f"C={_cs(self.rescaled)} (non-finite coefficients)")
        if self.failed:
            parts.append(f"failed (non-finite coefficients) for C={_cs(self.failed)}")
        if self.refused:
            parts.append(f"refused C={_cs(self.refused)}: the norm of the function is lost "
                         f"in rounding (bound on its error over {NORM_RTOL:g} ||f||^2)")
        if self.skipped:
            parts.append(f"skipped C={_cs(self.skipped)} after {self.iterations} iterations")
        if self.fallback:
            parts.append(f"no SVM function passed, so f is the {self.fallback}")
        if not parts:
            return comparators
        note = ("kernel SVM search cut short (the bounds hold for any comparator; they may "
                "be looser): " + "; ".join(parts))
        return [dataclasses.replace(comp, note=note) for comp in comparators]


def _fits(svc, G, y, weights=None) -> bool:
    """Fit ``svc`` on the precomputed Gram G; False if libsvm's coefficients are not finite."""
    try:
        svc.fit(G, y, sample_weight=weights)
    except ValueError as exc:  # "The dual coefficients or intercepts are not finite."
        if "not finite" not in str(exc):
            raise
        return False
    return True


def _cs(values) -> str:
    return ",".join(f"{C:g}" for C in values)


def _svm_rows(X, y, kernel: Kernel, seed: int):
    """The rows an SVM is fitted on: all, or a seeded subset of ``SVM_ROWS`` (linear) or
    ``KERNEL_SVM_ROWS`` (kernel) rows."""
    rows = np.arange(X.shape[0])
    limit = SVM_ROWS if kernel.is_linear else KERNEL_SVM_ROWS
    if rows.shape[0] > limit:
        rows = np.sort(np.random.default_rng(seed).choice(rows, limit, replace=False))
    return X[rows], y[rows]


def fit_rows(Xs):
    """The rows a linear SVM is fitted on: ``Xs`` with every row's norm brought within
    [2^-FIT_OCTAVES, 2^FIT_OCTAVES] by a power of two.

    Rows are first shifted together by the median of their binary exponents when
    that median lies outside the range, then each row still outside is shifted
    to its edge. A positive factor per row keeps the sign of every margin y u.x,
    and any unit u is a valid comparator (theory §4.3), so the bounds stay valid;
    the fit, whose time liblinear does not bound on rows of norm about 1e80 and
    more (issue 31), then sees norms whose squares times C fit in float64 by far.
    Rows already in range, all of them on most data, are not changed.

    Examples
    --------
    >>> X = np.array([[3.0, 4.0], [1e150, 0.0], [0.0, -1e-150]])
    >>> norms = np.linalg.norm(fit_rows(X), axis=1)
    >>> bool(np.all((2.0**-40 <= norms) & (norms < 2.0**40))), float(norms[0])
    (True, 5.0)
    """
    norms = row_norms(Xs, 2.0)
    nonzero = norms > 0
    if not nonzero.any():
        return Xs
    exponent = np.frexp(norms[nonzero])[1]  # norm in [2^(e - 1), 2^e)
    centre = int(np.round(np.median(exponent)))
    centre = centre if abs(centre) > FIT_OCTAVES else 0
    shift = np.zeros(Xs.shape[0], dtype=np.int64)
    shift[nonzero] = np.clip(exponent - centre, 1 - FIT_OCTAVES, FIT_OCTAVES) - exponent
    if not shift.any():
        return Xs
    return ldexp_rows(Xs, shift)


def svm_comparators(X, y, kernel: Kernel, seed: int = 0, q: float = 2.0) -> list[Comparator]:
    """Normalised SVM directions, one per C in ``SVM_C`` (no intercept in the bounds).

    Linear kernel: ``LinearSVC(fit_intercept=False)`` on at most ``SVM_ROWS``
    rows, brought into range by :func:`fit_rows`, w / ||w||_q (q = 2 but for the
    p-norm bounds, theory §4.1). Other kernels: ``SVC(kernel="precomputed")`` on
    at most ``KERNEL_SVM_ROWS`` rows, a point shown with both labels (rows that
    coincide in the feature space up to ``SAME_POINT``) fitted once with its net
    label, its intercept dropped (the bounds compare with homogeneous functions),
    the dual coefficients of coinciding rows summed and scaled to ||f||_K = 1,
    each fit within ``SVC_MAX_ITER`` iterations and the fits within
    ``SVM_TOTAL_ITER`` (an early stop is written in the comparators' ``note``). A
    function whose norm is lost in rounding (``NORM_RTOL``) is refused; when
    every C is, f is the label sum sum_i y_i K(x_i, .), or failing that one
    K(x_i, .), scaled so. The subsets are drawn with
    ``numpy.random.default_rng(seed)``.
    """
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.svm import LinearSVC

    out = []
    Xs, ys = _svm_rows(X, y, kernel, seed)
    if np.unique(ys).shape[0] < 2:
        return out
    # a fit on a subset says so in its label, which the reports and the atlas carry
    rows = f" on {Xs.shape[0]} of {X.shape[0]} rows" if Xs.shape[0] < X.shape[0] else ""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        if kernel.is_linear:
            Xf = fit_rows(Xs)
            for C in SVM_C:
                w = LinearSVC(C=C, fit_intercept=False, dual="auto", max_iter=2000,
                              random_state=0).fit(Xf, ys)
                w = np.asarray(w.coef_, dtype=np.float64).ravel()
                norm = vector_norm(w, q)
                if norm > 0:
                    out.append(Comparator(f"svm C={C:g}{rows}", kernel, u=w / norm))
            return out
        points = _KernelPoints(Xs, kernel)
        search = _KernelSVMSearch()
        for C in search.values_of_C():
            coef = search.fit(points, ys, C)
            if coef is not None:
                search.keep(out, points.comparator(f"kernel svm C={C:g}{rows}", coef), C)
        if not out:
            comp = points.comparator("label sum sum_i y_i K(x_i, .)", ys)
            if comp is None:
                row = int(np.argmax(points.t))
                comp = points.comparator(f"row {row} K(x_{row}, .)",
                                         np.eye(1, ys.shape[0], row).ravel() * ys[row])
            search.fall_back(out, comp)
    return search.annotate(out)


def gamma_candidates(margins, low: float, high: float, scale: float) -> np.ndarray:
    """Sorted candidate margins gamma in (low, high] for the scan.

    The positive margins of the set (at most ``MAX_MARGIN_CANDIDATES``, evenly
    spread), a log grid of ``GRID_POINTS`` over ``GRID_DECADES`` decades below
    ``min(high, scale)``, and ``high`` itself when finite.
    """
    top = min(high, scale)
    if not top > max(low, 0.0):
        return np.zeros(0)
    bottom = max(low, top * 10.0**-GRID_DECADES)
    grid = np.geomspace(bottom, top, GRID_POINTS)
    margins = np.asarray(margins, dtype=np.float64)
    inside = np.unique(margins[(margins > low) & (margins <= top)])
    if inside.shape[0] > MAX_MARGIN_CANDIDATES:
        pick = np.linspace(0, inside.shape[0] - 1, MAX_MARGIN_CANDIDATES).round().astype(np.intp)
        inside = inside[pick]
    cands = np.unique(np.concatenate([grid, inside, [top]]))
    return cands[cands > low]


def minimise_over_gamma(value, candidates) -> tuple[float, float]:
    """Minimise ``value(gamma)`` (vectorised; inf where invalid) over the candidates, refined.

    Returns (gamma, value); (nan, inf) when no candidate gives a finite value.
    The refinement is a bounded scalar minimisation between the neighbours of
    the best candidate, kept only if it improves on it.
    """
    if candidates.shape[0] == 0:
        return np.nan, np.inf
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        values = np.asarray(value(candidates), dtype=np.float64)
    values = np.where(np.isnan(values), np.inf, values)
    best = int(np.argmin(values))
    gamma, val = float(candidates[best]), float(values[best])
    if not np.isfinite(val):
        return np.nan, np.inf
    left = float(candidates[max(best - 1, 0)])
    right = float(candidates[min(best + 1, candidates.shape[0] - 1)])
    if right > left:
        def scalar(g):
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                out = float(np.asarray(value(np.array([g])))[0])
            return out if np.isfinite(out) else np.inf

        # The bracket may hold infinite values (invalid gammas): Brent's parabola
        # steps then compute inf - inf, which only means "not this way".
        with np.errstate(invalid="ignore", over="ignore"):
            result = scipy.optimize.minimize_scalar(
                scalar, bounds=(left, right), method="bounded", options={"xatol": 1e-10 * right}
            )
        if np.isfinite(result.fun) and result.fun < val:
            gamma, val = float(result.x), float(result.fun)
    return gamma, val
