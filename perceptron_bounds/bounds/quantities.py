"""The quantities the bounds use, computed on the trials of an ``OnlineRun`` (theory §4).

* hinge losses l_t = max(0, gamma - y_t u.x_t) and their sums D1, D2 over
  a set of trials (all trials, the mistaken ones, the update trials), as
  functions of gamma (:class:`HingeProfile`);
* the radius R over the same sets, and R_p = max ||x_t||_p for the p-norm
  algorithms (theory §4.1);
* the spectrum of X_m X_m^T (the run's mistakes) and, for the
  pseudoinverse bound, lambda* = the smallest positive eigenvalue over
  every X_k X_k^T of the run.

Kernel runs use the kernel's feature space: ||x|| = sqrt(K(x, x)) and the
kernel Gram of the mistakes.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np
import scipy.linalg
import scipy.sparse as sp

from .._interrupt import interruptible, stop_requested
from .._jit import jit
from .._linalg import row_norms
from .._validation import check_choice, check_labels, check_real, check_X, loop_arrays
from ..kernels import Kernel, kernel_of, kernel_value, scatter, scattered_kernel_value
from ..registry import get as get_algorithm
from ..run import OnlineRun
from .pnorm import dual_exponent
from .search import unit_comparator
from .transformed import transformed_margins, transformed_norms

# Relative squared distance below which a mistaken instance counts as inside
# the span of the earlier ones (the rank decision of the lambda* scan).
SPAN_RTOL = 1e-10

# Nonzero norms whose squares are normal float64 numbers (beyond: underflow or overflow).
NORM_RANGE = (float(np.sqrt(np.finfo(np.float64).tiny)), float(np.sqrt(np.finfo(np.float64).max)))


def hinge_losses(X, y, u, gamma):
    """Hinge losses l_t = max(0, gamma - y_t u.x_t) of a comparator u.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n, d)
    y : array-like of shape (n,), values in {-1, +1}
    u : ndarray of shape (d,)
        The comparator (a unit vector for the bounds).
    gamma : float or 1-D array
        Margin(s) gamma > 0.

    Returns
    -------
    ndarray
        Shape (n,) for a scalar gamma, (len(gamma), n) for an array.

    Notes
    -----
    theory §4: D1 = sum l_t, D2 = sqrt(sum l_t^2) (paper 001 sec. 2, paper 004 eq. 2, 4).

    Examples
    --------
    >>> hinge_losses(np.eye(2), [1, -1], np.array([1.0, 0.0]), 0.5).tolist()
    [0.0, 0.5]
    """
    margins = np.asarray(y, dtype=np.float64) * np.asarray(X @ u, dtype=np.float64).ravel()
    gamma = np.asarray(gamma, dtype=np.float64)
    if gamma.ndim == 0:
        check_real("gamma", float(gamma), low=0.0, include_low=False)
        return np.maximum(0.0, gamma - margins)
    if gamma.ndim != 1 or np.any(gamma <= 0):
        raise ValueError("gamma must be a positive scalar or a 1-D array of positive values")
    return np.maximum(0.0, gamma[:, None] - margins[None, :])


class HingeProfile:
    """D1(gamma) and D2(gamma) of a fixed set of margins y_t u.x_t, for many gamma at once.

    The margins are sorted once, so each gamma costs one binary search. Over the
    k margins z_0 <= ... <= z_{k-1} below gamma, with delta = gamma - z_{k-1} >= 0 and
    e_i = z_{k-1} - z_i >= 0,

        D1 = k delta + E1,   D2^2 = k delta^2 + 2 delta E1 + E2,

    where E1 = sum_i e_i and E2 = sum_i e_i^2 are built once by recursions of
    nonnegative terms (no prefix sums of the margins: k gamma^2 - 2 gamma S1 + S2
    cancels to 0 on exactly tight data). Every term is nonnegative, so D1 and D2
    are the direct sums up to rounding. The margins are divided by a power of two
    near the largest |margin| and D2 by the largest hinge loss, so that no square
    overflows and none underflows beyond what R >= max |margin| absorbs in R + D2.

    Parameters
    ----------
    margins : ndarray of shape (T,)
        y_t u.x_t over the trials of the set (with multiplicity).
    """

    def __init__(self, margins):
        self.margins = np.sort(np.asarray(margins, dtype=np.float64))
        top = float(np.max(np.abs(self.margins), initial=0.0))
        scale = float(np.ldexp(1.0, np.frexp(top)[1])) if top > 0.0 else 1.0
        k = np.arange(1, self.size, dtype=np.float64)
        step = np.diff(self.margins / scale)  # z_k - z_{k-1} >= 0, k = 1..T-1
        # E1[k] and sqrt(E2[k]) over the first k margins (e_i from z_{k-1}), k = 0..T.
        e1 = np.concatenate(([0.0, 0.0], np.cumsum(k * step)))
        e2 = np.concatenate(([0.0, 0.0], np.cumsum(k * step**2 + 2.0 * step * e1[1:-1])))
        self._e1, self._r2 = scale * e1, scale * np.sqrt(e2)

    @property
    def size(self) -> int:
        return int(self.margins.shape[0])

    @property
    def min_margin(self) -> float:
        """Smallest margin (inf for an empty set): u separates at gamma iff gamma <= it."""
        return float(self.margins[0]) if self.size else np.inf

    def _split(self, gamma):
        """(k, delta, E1[k], sqrt(E2[k]), largest hinge loss) for each gamma."""
        gamma = np.asarray(gamma, dtype=np.float64)
        k = np.searchsorted(self.margins, gamma, side="left")
        if not self.size:
            zero = np.zeros_like(gamma)
            return k, zero, zero, zero, zero
        delta = np.where(k > 0, gamma - self.margins[np.maximum(k - 1, 0)], 0.0)
        top = np.where(k > 0, gamma - self.margins[0], 0.0)
        return k, np.maximum(delta, 0.0), self._e1[k], self._r2[k], np.maximum(top, 0.0)

    def d1(self, gamma):
        """D1(gamma) = sum_t max(0, gamma - margin_t)."""
        k, delta, e1, _, _ = self._split(gamma)
        return k * delta + e1

    def d2(self, gamma):
        """D2(gamma) = sqrt(sum_t max(0, gamma - margin_t)^2)."""
        k, delta, e1, r2, top = self._split(gamma)
        with np.errstate(divide="ignore", invalid="ignore", under="ignore"):
            d, f1, f2 = delta / top, e1 / top, r2 / top
            root = np.sqrt(k * d * d + 2.0 * d * f1 + f2 * f2)
        return np.where(top > 0.0, top * root, 0.0)


TRIALS = ("all", "mistakes", "updates")


class RunData:
    """A run with its training data as the algorithm saw them, and the sets of trials.

    Parameters
    ----------
    run : OnlineRun
    X, y : array-like
        The training data of the run (the rows its ``sample_index`` points to);
        any label values, mapped with ``run.classes``.

    Attributes
    ----------
    X : ndarray or sparse matrix
        The rows as the algorithm used them (its registered ``instance_map``: unit
        rows for the p-norm Perceptron with ``normalize=True``).
    y : ndarray
        Labels in {-1, +1}.
    kernel : Kernel
        The run's kernel (linear for algorithms without one).
    norms : ndarray
        ||x_i|| of every row in the kernel's feature space.
    p, q : float
        The norm of the run's algorithm (``params["p"]`` of the p-norm Perceptron and
        the Higher-Order Perceptron, else 2) and its dual exponent q = p / (p - 1):
        the bounds measure instances in ||.||_p and comparators in ||.||_q (theory §4.1).
    m : int
        The run's mistakes.
    """

    def __init__(self, run, X, y):
        if not isinstance(run, OnlineRun):
            raise TypeError(f"run must be an OnlineRun, got {type(run).__name__}")
        X = check_X(X, n_features=run.n_features)
        self.y, _ = check_labels(y, X.shape[0], run.classes)
        if run.n_trials and run.sample_index.max() >= X.shape[0]:
            raise ValueError(f"X has {X.shape[0]} rows, but the run showed row "
                             f"{run.sample_index.max()}: pass the training data of the run")
        self.run, self.X_raw, self.y_raw = run, X, y
        self.kernel = kernel_of(run.params) if "kernel" in run.params else Kernel()
        instance_map = get_algorithm(run.algorithm).instance_map
        self.X = X if instance_map is None else instance_map(X, run.params)
        self.norms = feature_norms(self.X, self.kernel)
        self.p = float(run.params.get("p", 2.0))
        self.q = dual_exponent(self.p)
        self.rows_all = run.sample_index
        self.rows_mistakes = run.mistake_rows
        self.rows_updates = run.sample_index[run.update_trials]
        self.m = run.mistakes

    def rows(self, trials: str) -> np.ndarray:
        """Row of X shown at each trial of the set ``"all"``, ``"mistakes"`` or ``"updates"``."""
        trials = check_choice("trials", trials, TRIALS)
        return {"all": self.rows_all, "mistakes": self.rows_mistakes,
                "updates": self.rows_updates}[trials]

    def radius(self, rows) -> float:
        """R = max ||x|| over the given rows (0 for none)."""
        return float(self.norms[rows].max()) if rows.shape[0] else 0.0

    @cached_property
    def p_norms(self) -> np.ndarray:
        """||x_i||_p of every row of :attr:`X` (:attr:`norms` itself for p = 2)."""
        return self.norms if self.p == 2.0 else row_norms(self.X, self.p)

    def radius_p(self, rows) -> float:
        """R_p = max ||x||_p over the given rows (0 for none); :meth:`radius` for p = 2."""
        return float(self.p_norms[rows].max()) if rows.shape[0] else 0.0

    @cached_property
    def transformed_norms(self) -> np.ndarray:
        """||B_{k-1} x_{t(k)}||_p over the mistakes of a linear Higher-Order run
        (:func:`~.transformed.transformed_norms`), computed once."""
        return transformed_norms(self.run, self.X_raw, self.y_raw)

    @cached_property
    def spectrum(self) -> np.ndarray:
        """Eigenvalues of X_m X_m^T (:func:`mistake_spectrum`), computed once."""
        return mistake_spectrum(self.X[self.rows_mistakes], self.kernel)

    @cached_property
    def update_spectrum(self) -> np.ndarray:
        """Eigenvalues of X_A X_A^T over the update trials A (:func:`mistake_spectrum`),
        computed once for every comparator and variant."""
        return mistake_spectrum(self.X[self.rows_updates], self.kernel)

    @cached_property
    def span_coordinates(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(L, pivots, rises) of a pseudoinverse run's mistakes (:func:`span_coordinates`)."""
        return span_coordinates(self.X[self.rows_mistakes], self.kernel,
                                rtol=self.run.params["span_tol"],
                                rank_growth=self.run.state["rank_growth"])

    @cached_property
    def span(self) -> tuple[np.ndarray, float]:
        """(positive eigenvalues, lambda*) of a pseudoinverse run (:func:`span_spectrum`)."""
        L, _, rises = self.span_coordinates
        return _coordinate_spectrum(L, rises)

    def projected_scores(self, scores) -> np.ndarray:
        """f(x~_t) on every trial of a pseudoinverse run, x~_t the instance as the run used it.

        ``scores`` holds f(x_i) for every row of :attr:`X`. On a trial where the
        run found x_t inside the span of the earlier mistakes, x~_t is its
        projection on that span; where the rank rose, x_t itself (theory §4.1).
        """
        L, pivots, rises = self.span_coordinates
        basis = self.rows_mistakes[pivots]
        grew = self.run.mistake_trials[rises == 1]
        trials = np.arange(self.run.n_trials)
        ranks = np.searchsorted(grew, trials, side="left") + np.isin(trials, grew)
        return projected_values(scores[basis], L[pivots], self.X[basis], self.X,
                                self.rows_all, ranks, self.kernel)

    def transformed_margins(self, u) -> np.ndarray:
        """y_t u^T B_{k-1} x_{t(k)} over the mistakes of a Higher-Order run (paper 000, eq. 1).

        ``u`` is a unit vector (linear runs) or a function z -> f(z) with ||f||_K = 1.
        """
        return transformed_margins(self.run, self.X_raw, self.y_raw, u)


def run_quantities(run, X, y, u, gamma, trials="all") -> dict:
    """R, D1 and D2 of a unit u at margin gamma over a set of the run's trials.

    Parameters
    ----------
    run : OnlineRun
    X, y : array-like
        The training data of the run.
    u : ndarray of shape (n_features,)
        The comparator, scaled to unit norm here (linear-kernel runs); to unit
        q-norm, q = p / (p - 1), for a run of the p-norm Perceptron or the
        Higher-Order Perceptron with p > 2 (theory §4.1).
    gamma : float
        Margin gamma > 0.
    trials : {"all", "mistakes", "updates"}, default="all"
        All T presented trials (theory §4.1), the mistaken ones, or the update
        trials: mistakes plus the Ballseptron's margin errors (theory §4.2).

    Returns
    -------
    dict
        ``R`` (max ||x_t||), ``D1`` (sum of l_t), ``D2`` (sqrt of sum of l_t^2)
        over the set, with l_t = max(0, gamma - y_t u.x_t), and ``n_trials``, its size;
        for a run with p > 2 also ``R_p`` (max ||x_t||_p) and ``p``. The instances are
        those the algorithm saw (scaled to unit p-norm by ``normalize=True`` of the
        p-norm Perceptron).

    Examples
    --------
    >>> from perceptron_bounds import run_online
    >>> X = np.array([[1.0, 0.0], [0.0, 2.0]])
    >>> run = run_online("perceptron", X, [1, -1], epochs=2)
    >>> q = run_quantities(run, X, [1, -1], np.array([1.0, -1.0]), 1.0)
    >>> q["R"], q["n_trials"], round(q["D1"], 6)
    (2.0, 4, 0.585786)
    """
    data = RunData(run, X, y)
    gamma = check_real("gamma", gamma, low=0.0, include_low=False)
    if not data.kernel.is_linear:
        raise ValueError("run_quantities takes a vector u: it needs a linear-kernel run")
    u = _unit(u, data)
    rows = data.rows(trials)
    profile = HingeProfile(data.y[rows] * np.asarray(data.X[rows] @ u))
    out = {"R": data.radius(rows), "D1": float(profile.d1(gamma)),
           "D2": float(profile.d2(gamma)), "n_trials": profile.size}
    if data.p != 2.0:
        out.update(R_p=data.radius_p(rows), p=data.p)
    return out


def _unit(u, data) -> np.ndarray:
    """The vector u scaled to unit q-norm, q of the run's algorithm (checked: shape, finite,
    nonzero)."""
    return unit_comparator(u, data.run.n_features, "given", data.kernel, q=data.q).u


def hop_transformed_hinge(run, X, y, u, gamma) -> float:
    """D of paper 000, Thm 1: the hinge loss of u on the transformed mistaken instances.

    D = sum_k max(0, gamma - y_{t(k)} u^T B_{k-1} x_{t(k)}) over the mistakes of a
    Higher-Order run (the transformed sequence S~_c of paper 000, eq. 1).

    Parameters
    ----------
    run : OnlineRun
        A ``"higher_order"`` run with a linear kernel.
    X, y : array-like
        The training data of the run.
    u : ndarray of shape (n_features,)
        The comparator, scaled to unit norm here (to unit q-norm, q = p / (p - 1),
        when p > 2; theory §4.1).
    gamma : float
        Margin gamma > 0.

    Returns
    -------
    float
        D (0 for a run without mistakes).

    Examples
    --------
    >>> from perceptron_bounds import run_online
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> run = run_online("higher_order", X, [1, -1], c=0.5)
    >>> round(hop_transformed_hinge(run, X, [1, -1], np.array([1.0, -1.0]), 1.0), 6)
    0.585786
    """
    if not isinstance(run, OnlineRun) or not get_algorithm(run.algorithm).transformed_sequence:
        raise ValueError("hop_transformed_hinge needs a 'higher_order' run")
    data = RunData(run, X, y)
    gamma = check_real("gamma", gamma, low=0.0, include_low=False)
    u = _unit(u, data)
    if not data.m:
        return 0.0
    return float(HingeProfile(data.transformed_margins(u)).d1(gamma))


def hop_c_run(run) -> float:
    """c_run = min_k min(r_k, 2 - r_k) of a Higher-Order run (theory §4.2).

    r_k = 1 - rho_k (1 + y_t v_{k-1}.x_t) is recorded by the run
    (``run.state["r"]``). The proof of paper 000, Thm 1 needs only
    c <= r_k <= 2 - c, so the bound holds with c = c_run when c_run > 0; 1
    for a run without mistakes.
    """
    r_k = np.asarray(run.state["r"], dtype=np.float64)
    return float(np.min(np.minimum(r_k, 2.0 - r_k), initial=1.0))


def hop_step_terms(run) -> np.ndarray:
    """rho_k (1 + |g(x_t).v_{k-1}|) at each mistake of a Higher-Order run (theory §4.1).

    Theorem 1 of paper 000 asks rho_k (1 + |v_{k-1}.x_t|) <= 1 - c (p = 2;
    g(x_t).v_{k-1} for p > 2, derived). For p = 2 the run records
    y_t v_{k-1}.x_t (``state["y_v_x"]``); for p > 2 the term is read off the
    recorded r_k = 1 - rho_k (y_t g(x_t).v_{k-1} + g(x_t).x_t) with
    g(x_t).x_t = ||x_t||_p^2 = 1 (unit instances, which the theorem assumes):
    rho_k |g(x_t).v_{k-1}| = |1 - rho_k - r_k|, with no division by rho_k.
    """
    rho = np.asarray(run.state["rho"], dtype=np.float64)
    if run.params["p"] == 2.0:
        return rho * (1.0 + np.abs(run.state["y_v_x"]))
    return rho + np.abs(1.0 - rho - np.asarray(run.state["r"], dtype=np.float64))


def feature_norms(X, kernel) -> np.ndarray:
    """||x_i|| of every row in the kernel's feature space, sqrt(K(x_i, x_i)).

    A nonzero norm outside ``NORM_RANGE`` is a ``ValueError``: its square, which
    the runs and the bounds use (R^2, x.x, the eigenvalues of X_m X_m^T), is not
    a normal float64 number, so neither the run's arithmetic nor the bound's
    would be exact (theory §4.4). With the linear kernel the check takes the
    norms scaled by each row's largest entry before squaring
    (:func:`~perceptron_bounds._linalg.row_norms`), which do not underflow.
    """
    norms = np.sqrt(np.maximum(kernel.diagonal(X), 0.0))
    checked = row_norms(X, 2.0) if kernel.is_linear else norms
    low, high = NORM_RANGE
    bad = np.flatnonzero((checked != 0.0) & ~((checked >= low) & (checked <= high)))
    if bad.size:
        i = int(bad[0])
        raise ValueError(
            f"X row {i} has norm {checked[i]:.6g} in the kernel's feature space: the bounds need "
            f"every nonzero norm in [{low:.3g}, {high:.3g}], where its square is a normal "
            "float64 number; rescale X")
    return norms


def mistake_spectrum(Xm, kernel) -> np.ndarray:
    """Eigenvalues of X_m X_m^T, ascending, negatives from rounding set to 0.

    One LAPACK eigendecomposition (``scipy.linalg.eigvalsh``) of the smaller
    of X_m^T X_m (n x n, linear kernel only) and the m x m Gram of the
    mistakes (kernel Gram for kernel runs); both have the same nonzero
    eigenvalues (paper 003 sec. 3).
    """
    m, n = Xm.shape
    if m == 0:
        return np.zeros(0)
    if kernel.is_linear and n < m:
        C = Xm.T @ Xm
        C = C.toarray() if sp.issparse(C) else C
    else:
        C = kernel.gram(Xm, Xm)
    lam = scipy.linalg.eigvalsh(np.asarray(C, dtype=np.float64), check_finite=False)
    return np.maximum(lam, 0.0)


@jit
def _mistake_kernel(Xm, data, indices, indptr, work, p, k, code, degree, gamma, coef0):
    """K(x_p, x_k) for rows of dense Xm, or of the CSR arrays with x_k scattered in ``work``."""
    if indptr.shape[0] > 0:
        return scattered_kernel_value(data, indices, indptr[k], indptr[k + 1], work, indptr[p],
                                      indptr[p + 1], code, degree, gamma, coef0)
    return kernel_value(Xm[p], Xm[k], code, degree, gamma, coef0)


@jit
def _span_loop(Xm, data, indices, indptr, work, code, degree, gamma, coef0, rtol, forced, L,
               pivots, rises):
    """Ordered incremental Cholesky of the mistakes' Gram with rank detection.

    Row k of L gets the coordinates of mistake k in an orthonormal basis of the
    span of the mistakes up to k. Mistake k raises the rank when its squared
    distance to the span of the earlier ones exceeds rtol K(x_k, x_k), or, when
    ``forced`` is 1, exactly where rises[k] is already 1 (the run's own
    decisions). Sets rises[k] = 1 at every rise and returns the final rank.
    The mistakes are the rows of dense Xm or of the CSR arrays (kept sparse).
    """
    m = L.shape[0]
    csr = indptr.shape[0] > 0
    r = 0
    for k in range(m):
        if stop_requested(k):  # Ctrl-C: the caller raises KeyboardInterrupt
            break
        if csr:
            scatter(data, indices, indptr[k], indptr[k + 1], work, 1.0)
        kk = _mistake_kernel(Xm, data, indices, indptr, work, k, k, code, degree, gamma, coef0)
        rest = kk
        for j in range(r):
            p = pivots[j]
            s = _mistake_kernel(Xm, data, indices, indptr, work, p, k, code, degree, gamma,
                                coef0)
            for i in range(j):
                s -= L[k, i] * L[p, i]
            L[k, j] = s / L[p, j]
            rest -= L[k, j] * L[k, j]
        if forced == 1:
            rise = rises[k] == 1
        else:
            rise = kk > 0.0 and rest > rtol * kk
        if rise and r < L.shape[1]:
            L[k, r] = np.sqrt(max(rest, 0.0))
            pivots[r] = k
            rises[k] = 1
            r += 1
        else:
            rises[k] = 0
        if csr:
            scatter(data, indices, indptr[k], indptr[k + 1], work, 0.0)
    return r


@interruptible()
def span_coordinates(Xm, kernel, rtol=SPAN_RTOL, rank_growth=None):
    """Coordinates of the mistakes, as the pseudoinverse run used them, in a basis of their span.

    Parameters
    ----------
    Xm : ndarray or sparse matrix of shape (m, n)
        The mistaken instances in the order of the run.
    kernel : Kernel
    rtol : float, default=SPAN_RTOL
        A mistake whose squared distance to the span of the earlier ones is at
        most ``rtol`` K(x, x) is inside that span.
    rank_growth : array of int, optional
        Indices (0-based, among the mistakes) where the run itself found the
        instance outside the span (``run.state["rank_growth"]`` of a
        pseudoinverse run); used instead of ``rtol`` so that the rank follows
        the run's decisions.

    Returns
    -------
    L : ndarray of shape (m, r)
        Row k holds the coordinates of the projected mistake x~_k (theory §4.1:
        x_k itself where the rank rises, its projection on the span of the
        earlier mistakes elsewhere) in an orthonormal basis of the span; r is the rank.
    pivots : ndarray of int64, shape (r,)
        The mistakes that raised the rank: ``L[pivots]`` is lower triangular, the
        Cholesky factor of their Gram matrix.
    rises : ndarray of int64, shape (m,)
        1 where mistake k raised the rank, else 0.
    """
    # CSR stays CSR (the kernel values come from the sparse rows): m x n dense is GBs when wide.
    Xm = sp.csr_matrix(Xm, dtype=np.float64) if sp.issparse(Xm) else np.ascontiguousarray(
        Xm, dtype=np.float64)
    m, n = Xm.shape
    width = max(min(m, n) if kernel.is_linear else m, 1)
    L = np.zeros((m, width))
    pivots = np.zeros(width, dtype=np.int64)
    rises = np.zeros(m, dtype=np.int64)
    forced = 0
    if rank_growth is not None:
        rises[np.asarray(rank_growth, dtype=np.int64)] = 1
        forced = 1
    work = np.zeros(n if sp.issparse(Xm) else 0)
    rank = _span_loop(*loop_arrays(Xm), work, *kernel.loop_args(), float(rtol), forced, L,
                      pivots, rises)
    return L[:, :rank], pivots[:rank], rises


def projected_values(f_basis, L_basis, basis, X, rows, ranks, kernel) -> np.ndarray:
    """f(x~_t) = <f, P_t x_t> on each trial, P_t the projection on the first ``ranks[t]``
    basis directions of a pseudoinverse run (theory §4.1).

    Parameters
    ----------
    f_basis : ndarray of shape (r,)
        f at the basis instances (the mistakes that raised the rank, in order).
    L_basis : ndarray of shape (r, r)
        Lower Cholesky factor of their Gram matrix (``L[pivots]`` of :func:`span_coordinates`).
    basis : ndarray or sparse matrix of shape (r, n)
        The basis instances.
    X : ndarray or sparse matrix
        The rows of the run; ``rows[t]`` is shown at trial t.
    rows, ranks : ndarray of int64
        Row and number of basis directions in force on each trial.
    kernel : Kernel

    Returns
    -------
    ndarray
        sum_{j < ranks[t]} c_j p_j(x_t), with c = L^{-1} f(B) the coordinates of f and
        p(x) = L^{-1} K(B, x) those of x (0 where ranks[t] = 0).
    """
    out = np.zeros(rows.shape[0])
    r = L_basis.shape[0]
    if r == 0:
        return out
    coef = scipy.linalg.solve_triangular(L_basis, f_basis, lower=True, check_finite=False)
    unique, where = np.unique(rows, return_inverse=True)
    step = max(1, 2**22 // r)  # at most 32 MiB of coordinates at a time
    for start in range(0, unique.shape[0], step):
        chunk = unique[start:start + step]
        coords = scipy.linalg.solve_triangular(L_basis, kernel.gram(basis, X[chunk]),
                                               lower=True, check_finite=False)
        partial = np.concatenate((np.zeros((1, chunk.shape[0])),
                                  np.cumsum(coef[:, None] * coords, axis=0)))
        sel = (where >= start) & (where < start + chunk.shape[0])
        out[sel] = partial[ranks[sel], where[sel] - start]
    return out


@interruptible()
def span_spectrum(Xm, kernel, rtol=SPAN_RTOL, rank_growth=None):
    """Positive eigenvalues of X~_m X~_m^T and lambda* of the pseudoinverse bound.

    X~_m holds the mistakes as the run used them (:func:`span_coordinates`,
    theory §4.1): an instance found inside the span enters as its projection.

    Parameters
    ----------
    Xm : ndarray or sparse matrix of shape (m, n)
        The mistaken instances in the order of the run.
    kernel : Kernel
    rtol : float, default=SPAN_RTOL
        A mistake whose squared distance to the span of the earlier ones is at
        most ``rtol`` K(x, x) is inside that span.
    rank_growth : array of int, optional
        Indices (0-based, among the mistakes) where the run itself found the
        instance outside the span (``run.state["rank_growth"]`` of a
        pseudoinverse run); used instead of ``rtol`` so that the rank follows
        the run's decisions.

    Returns
    -------
    eigenvalues : ndarray
        The r positive eigenvalues of X_m X_m^T (r = rank), ascending.
    lambda_star : float
        min over k = 1..m of the smallest positive eigenvalue of X_k X_k^T
        (paper 003, Thm 4); inf when the rank is 0.

    Notes
    -----
    The coordinates of the mistakes in an orthonormal basis of their span come
    from one ordered incremental Cholesky pass (O(m r^2) kernel values, no
    eigendecomposition per mistake). lambda* needs an eigendecomposition only
    at the last mistake of each run of consecutive rank increases: while the
    rank stays, X_k X_k^T grows by a PSD term inside its range, so its positive
    eigenvalues do not decrease (Weyl); a rank increase is a rank-one update of
    the embedded matrix, so its smallest positive eigenvalue does not increase
    (interlacing).
    """
    L, _, rises = span_coordinates(Xm, kernel, rtol, rank_growth)
    return _coordinate_spectrum(L, rises)


def _coordinate_spectrum(L, rises):
    """(positive eigenvalues, lambda*) of the mistakes with coordinates L (:func:`span_spectrum`)."""
    m, rank = L.shape
    if rank == 0:
        return np.zeros(0), np.inf
    lambda_star = np.inf
    M = np.zeros((rank, rank))
    done = 0
    r = 0
    for k in range(m - 1):  # the last mistake's matrix is decomposed in full below
        r += rises[k]
        if rises[k] and not rises[k + 1]:
            block = L[done:k + 1, :r]
            M[:r, :r] += block.T @ block
            done = k + 1
            low = scipy.linalg.eigvalsh(M[:r, :r], subset_by_index=[0, 0], check_finite=False)
            lambda_star = min(lambda_star, max(float(low[0]), 0.0))
    block = L[done:]
    M += block.T @ block
    eigenvalues = np.maximum(scipy.linalg.eigvalsh(M, check_finite=False), 0.0)
    # X_m X_m^T is a candidate too; when the run did not end on a rank increase its smallest
    # eigenvalue is no smaller than the last candidate's, so taking it changes nothing.
    return eigenvalues, min(lambda_star, float(eigenvalues[0]))
