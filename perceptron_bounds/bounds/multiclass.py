"""Mistake bounds of multiclass runs (theory §4.5).

* One-vs-rest: each class's binary run ("class k against the rest") gets every
  binary bound; a bound summed over the classes, each class at its own best
  comparator and margin, bounds the run's corrections (the binary mistakes
  summed over the classes) and so its multiclass mistakes
  (:func:`sum_over_classes`, giving a :class:`~.report.MulticlassBoundReport`).
* Native Perceptron and Ballseptron: through Kesler's construction the
  multiclass update is a binary update of a vector of norm sqrt(2) ||x||, so
  the binary first-order bounds hold with R = sqrt(2) max ||x_t|| (and, for the
  Ballseptron, r' = sqrt(2) r), the multiclass hinge loss
  l_t = max(0, gamma - min_{r != y_t} (u^{y_t} - u^r).x_t) and K prototypes with
  sum_r ||u^r||^2 = 1 (:func:`multiclass_margins`, :class:`MulticlassRunData`).

References
----------
S. Shalev-Shwartz and Y. Singer, "A new perspective on an old Perceptron
algorithm", COLT 2005 (paper 004), sec. 4.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_class_labels, check_real, check_X
from ..kernels import Kernel, check_feature_norms, kernel_of
from ..run import OnlineRun
from .report import BoundRow, MulticlassBoundReport

# ||Phi(x, y) - Phi(x, y~)|| / ||x||: the norm of a Kesler update vector (theory §4.5).
KESLER_FACTOR = float(np.sqrt(2.0))


def multiclass_margins(scores, y) -> np.ndarray:
    """The multiclass margins mu_t = min_{r != y_t} (s_{y_t} - s_r) of K scores per row.

    Parameters
    ----------
    scores : ndarray of shape (n, K)
        s_r = u^r.x_t (the comparator's prototypes), K >= 2.
    y : ndarray of int, shape (n,)
        Class indices 0 .. K - 1.

    Returns
    -------
    ndarray of shape (n,)

    Notes
    -----
    The hinge loss of paper 004 sec. 4 is l_t = max(0, gamma - mu_t): the
    prototypes must beat every other class by gamma, not only the algorithm's
    runner-up (theory §4.5).

    Examples
    --------
    >>> multiclass_margins(np.array([[3.0, 1.0, 2.0], [0.0, 1.0, 1.0]]), np.array([0, 2])).tolist()
    [1.0, 0.0]
    """
    scores = np.asarray(scores, dtype=np.float64)
    y = np.asarray(y, dtype=np.intp)
    n, K = scores.shape
    if K < 2:
        raise ValueError(f"scores must have K >= 2 columns (one per class), got {K}")
    if y.shape != (n,):
        raise ValueError(f"y must have shape ({n},), got {y.shape}")
    if n and (y.min() < 0 or y.max() >= K):
        raise ValueError(f"y must hold class indices in [0, {K - 1}], got values in "
                         f"[{y.min()}, {y.max()}]")
    rows = np.arange(n)
    own = scores[rows, y]
    others = scores.copy()
    others[rows, y] = -np.inf
    return own - others.max(axis=1)


def multiclass_hinge_losses(X, y, U, gamma) -> np.ndarray:
    """Multiclass hinge losses l_t = max(0, gamma - min_{r != y_t} (u^{y_t} - u^r).x_t).

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n, d)
    y : ndarray of int, shape (n,)
        Class indices 0 .. K - 1.
    U : ndarray of shape (K, d)
        The prototypes (sum_r ||u^r||^2 = 1 for the bounds).
    gamma : float
        Margin gamma > 0.

    Returns
    -------
    ndarray of shape (n,)

    Notes
    -----
    Paper 004 sec. 4; D1 = sum l_t, D2 = sqrt(sum l_t^2) (theory §4.5).

    Examples
    --------
    >>> U = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
    >>> multiclass_hinge_losses(np.eye(2), np.array([0, 1]), U, 0.5).tolist()
    [0.0, 0.0]
    """
    gamma = check_real("gamma", gamma, low=0.0, include_low=False)
    U = np.asarray(U, dtype=np.float64)
    scores = np.asarray(X @ U.T, dtype=np.float64)
    return np.maximum(0.0, gamma - multiclass_margins(scores, y))


class MulticlassRunData:
    """A native multiclass run with its training data, as the Kesler bounds read it.

    Parameters
    ----------
    run : OnlineRun
        A ``multiclass="native"`` run.
    X, y : array-like
        The training data of the run; any labels, mapped with ``run.classes``.

    Attributes
    ----------
    run, X
    y : ndarray of int64
        Class indices 0 .. K - 1.
    n_classes : int
        K.
    kernel : Kernel
        The run's kernel (linear when it has none).
    norms : ndarray
        ||x_i|| of every row in the kernel's feature space; R = sqrt(2) max of them.
    rows_all, rows_updates : ndarray of int64
        The row shown at every trial, and at every update trial (mistakes and
        margin errors).
    m : int
        The run's multiclass mistakes.
    """

    def __init__(self, run, X, y):
        if not isinstance(run, OnlineRun):
            raise TypeError(f"run must be an OnlineRun, got {type(run).__name__}")
        X = check_X(X, n_features=run.n_features)
        self.y, _ = check_class_labels(y, X.shape[0], run.classes)
        if run.n_trials and run.sample_index.max() >= X.shape[0]:
            raise ValueError(f"X has {X.shape[0]} rows, but the run showed row "
                             f"{run.sample_index.max()}: pass the training data of the run")
        self.run, self.X = run, X
        self.n_classes = int(run.classes.shape[0])
        self.kernel = kernel_of(run.params) if "kernel" in run.params else Kernel()
        self.norms = check_feature_norms(X, self.kernel)
        self.rows_all = run.sample_index
        self.rows_updates = run.sample_index[run.update_trials]
        self.m = run.mistakes

    def radius(self, rows) -> float:
        """max ||x|| over the given rows (0 for none); the Kesler R is sqrt(2) times it."""
        return float(self.norms[rows].max()) if rows.shape[0] else 0.0


def sum_over_classes(run, class_reports, notes=()) -> MulticlassBoundReport:
    """Add each bound over the classes of a one-vs-rest run (theory §4.5).

    Parameters
    ----------
    run : OnlineRun, or tuple of OnlineRun
        A one-vs-rest run (``run.multiclass == "ovr"``), or several that differ by their
        seed only, whose class reports are those of the means over them: the multiclass
        mistakes and the corrections are then means too.
    class_reports : sequence of BoundReport
        ``evaluate`` of each class run, in the order of ``run.classes``.
    notes : sequence of str
        Notes of the whole report (how the comparators were chosen).

    Returns
    -------
    MulticlassBoundReport
        For each bound and variant of the class reports, a summed row: the sum
        of the K values when every class's row applies (each at its own
        comparator and gamma), else not applicable with the first class's
        reason; and ``smallest_per_class``, the sum of each class's smallest
        applicable bound. Each bounds ``run.corrections``.

    Notes
    -----
    Class k's run makes m_k mistakes, at most its bound B_k, so the
    corrections sum_k m_k are at most sum_k B_k. A multiclass mistake is a
    mistake of at least one class run (theory §4.5), so the multiclass mistakes
    are at most the corrections.
    """
    runs = tuple(run) if isinstance(run, tuple | list) else (run,)
    run = runs[0]
    classes = tuple(np.asarray(run.classes).tolist())
    corrections = sum(report.mistakes for report in class_reports)
    corrections = int(corrections) if len(runs) == 1 else float(corrections)
    mistakes = run.mistakes if len(runs) == 1 else float(np.mean([r.mistakes for r in runs]))
    keys = list(dict.fromkeys((row.name, row.variant) for report in class_reports
                              for row in report.rows))
    rows = [_summed_row(key, classes, class_reports, corrections) for key in keys]
    if rows:
        rows.append(_smallest_row(classes, class_reports, corrections))
    return MulticlassBoundReport(run.algorithm, dict(run.params), classes, run.n_trials,
                                 mistakes, corrections, tuple(rows), tuple(class_reports),
                                 tuple(notes), n_runs=len(runs))


def _summed_row(key, classes, class_reports, corrections) -> BoundRow:
    name, variant = key
    found = [_find(report, name, variant) for report in class_reports]
    source = next(row.source for row in found if row is not None)
    source = f"{source}, summed over the classes"
    failed = [(label, "no such bound" if row is None else row.reason)
              for label, row in zip(classes, found, strict=True)
              if row is None or not row.applies]
    values = [row.value if row is not None and row.applies else None for row in found]
    quantities = {"class_values": values,
                  "class_gammas": [None if row is None else row.gamma for row in found],
                  "class_mistakes": [report.mistakes for report in class_reports]}
    expectation = any(row.expectation for row in found if row is not None)
    if failed:
        return BoundRow(name, variant, source, False, _failure(failed), None, None, corrections,
                        "per class", quantities, expectation)
    return BoundRow(name, variant, source, True, None, float(sum(values)), None, corrections,
                    "per class", quantities, expectation, _summed_draws(found))


def _summed_draws(rows) -> tuple:
    """Each draw's excess (mistakes minus bound) summed over the classes' rows: that of the
    summed bound against the corrections of the draw; () unless every row has the draws."""
    if not rows or any(not row.draws for row in rows):
        return ()
    return tuple(float(sum(excess)) for excess in zip(*(row.draws for row in rows), strict=True))


def _smallest_row(classes, class_reports, corrections) -> BoundRow:
    best = [min((row for row in report.rows if row.applies), key=lambda row: row.value,
                default=None) for report in class_reports]
    quantities = {
        "class_values": [None if row is None else row.value for row in best],
        "class_gammas": [None if row is None else row.gamma for row in best],
        "class_bounds": [None if row is None else f"{row.name} ({row.variant})" for row in best],
        "class_mistakes": [report.mistakes for report in class_reports],
    }
    source = "each class's smallest bound, summed over the classes"
    failed = [(label, "no bound applies") for label, row in zip(classes, best, strict=True)
              if row is None]
    expectation = any(row.expectation for row in best if row is not None)
    if failed:
        return BoundRow("smallest_per_class", "any", source, False, _failure(failed), None,
                        None, corrections, "per class", quantities, expectation)
    return BoundRow("smallest_per_class", "any", source, True, None,
                    float(sum(row.value for row in best)), None, corrections, "per class",
                    quantities, expectation, _summed_draws(best))


def _find(report, name, variant):
    return next((row for row in report.rows if row.name == name and row.variant == variant),
                None)


def _failure(failed) -> str:
    label, reason = failed[0]
    more = f" (and {len(failed) - 1} more classes)" if len(failed) > 1 else ""
    return f"class {label!r}: {reason}{more}"
