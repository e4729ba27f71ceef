"""The quantities every bound uses, computed on the trials of an ``OnlineRun`` (theory §4).

* hinge losses l_t = max(0, gamma - y_t u.x_t) and their sums D1, D2 over
  a set of trials (all trials, the mistaken ones, the update trials), as
  functions of gamma (:class:`HingeProfile`);
* the radius R over the same sets (R_p = max ||x_t||_p for a run whose bounds
  measure the instances in a p-norm, theory §4.1).

What only some theorems read (the spectrum of the mistakes, the transformed
sequence of the Higher-Order Perceptron, the Ballseptron's ball) is computed by
the providers of those theorems, in their modules, and cached on the
:class:`RunData` (:meth:`RunData.cached`).

Kernel runs use the kernel's feature space: ||x|| = sqrt(K(x, x)).
"""

from __future__ import annotations

import numpy as np

from .._linalg import dual_exponent, row_norms
from .._validation import check_choice, check_labels, check_real, check_X
from ..kernels import Kernel, check_feature_norms, kernel_of
from ..registry import get as get_algorithm
from ..run import OnlineRun
from .declaration import norm_exponent
from .search import unit_comparator


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
    q : float
        The exponent of the norm the run's bounds measure a comparator in: q = p / (p - 1)
        for instances measured in ||.||_p, p the ``norm_exponent`` of the providers of its
        bounds (:func:`~.declaration.norm_exponent`; 2 for the Euclidean bounds, theory §4.1).
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
        self.X_raw, self.y_raw = X, y
        self.kernel = kernel_of(run.params) if "kernel" in run.params else Kernel()
        instance_map = get_algorithm(run.algorithm).instance_map
        self._of_run(run)
        self.X = X if instance_map is None else instance_map(X, run.params)
        self.norms = check_feature_norms(self.X, self.kernel)

    def _of_run(self, run) -> None:
        """What comes of the run alone: its sets of trials, q, m, an empty cache."""
        self.run = run
        self.q = dual_exponent(norm_exponent(run))
        self.rows_all = run.sample_index
        self.rows_mistakes = run.mistake_rows
        self.rows_updates = run.sample_index[run.update_trials]
        self.m = run.mistakes
        self._cache = {}

    @classmethod
    def of_parts(cls, run, X, y, norms, cached: dict) -> RunData:
        """A linear-kernel run's data given as the parts the providers read, not checked
        here: a streamed file's (:func:`~.streamed.streamed_run_data`).

        Parameters
        ----------
        run : OnlineRun
        X : object
            Stands for the rows where the providers read them (``X @ u``, ``X[rows]``).
        y, norms : ndarray
            The labels in {-1, +1} and ||x_i|| of every row, as the algorithm saw them.
        cached : dict
            Values of :meth:`cached` computed already (p-norms, spectra).
        """
        data = cls.__new__(cls)
        data.kernel = Kernel()
        data._of_run(run)
        data.X, data.y, data.norms, data.X_raw, data.y_raw = X, y, norms, None, None
        data._cache.update(cached)
        return data

    def rows(self, trials: str) -> np.ndarray:
        """Row of X shown at each trial of the set ``"all"``, ``"mistakes"`` or ``"updates"``."""
        trials = check_choice("trials", trials, TRIALS)
        return {"all": self.rows_all, "mistakes": self.rows_mistakes,
                "updates": self.rows_updates}[trials]

    def radius(self, rows) -> float:
        """R = max ||x|| over the given rows (0 for none)."""
        return float(self.norms[rows].max()) if rows.shape[0] else 0.0

    def cached(self, key, compute):
        """``compute()``, computed once per ``key`` for this run and its data: what a provider
        reads on the whole run and on its prefixes (a spectrum, a transformed sequence)."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def p_norms(self, p: float) -> np.ndarray:
        """||x_i||_p of every row of :attr:`X` (:attr:`norms` itself for p = 2), computed once."""
        if p == 2.0:
            return self.norms
        return self.cached(("p_norms", p), lambda: row_norms(self.X, p))


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
    p = norm_exponent(run)
    if p != 2.0:
        out.update(R_p=float(data.p_norms(p)[rows].max()) if rows.shape[0] else 0.0, p=p)
    return out


def _unit(u, data) -> np.ndarray:
    """The vector u scaled to unit q-norm, q of the run's bounds (``RunData.q``; checked: shape,
    finite, nonzero)."""
    return unit_comparator(u, data.run.n_features, "given", data.kernel, q=data.q).u


