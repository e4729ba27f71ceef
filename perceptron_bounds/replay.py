"""The states a run passed through, replayed from its record (theory §1.2, §1.4).

A run is deterministic given its presented sequence, so its state after the k-th
update is the final state of the same algorithm, with the run's resolved
parameters, on the prefix of that sequence up to the (k + 1)-th update:
:func:`hypothesis_at` replays it and returns a :class:`Snapshot`, and
:func:`snapshots` gives every state in turn. ``OnlineRun.hypothesis_at`` and
``OnlineRun.snapshots`` call them; they read the record's fields and the
registered algorithm (``perceptron_bounds.registry``), never the algorithms'
modules.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._interrupt import interruptible
from ._sequence import trial_draws
from ._validation import Data, check_int, check_labels
from .hypothesis import ScoredRecord
from .registry import get


@dataclass(frozen=True, eq=False)
class Snapshot(ScoredRecord):
    """The state of a run after its k-th update, from ``OnlineRun.hypothesis_at``.

    ``decision_function``, ``predict``, ``weights``, ``support_vectors`` and
    ``dual_coef`` read the hypothesis as those of :class:`~perceptron_bounds.OnlineRun`
    read the final one (``predict`` gives the original labels).

    Attributes
    ----------
    k : int
        Number of updates made so far (mistakes and margin errors, theory §1.4),
        0 .. ``run.n_updates``.
    trial : int
        0-based trial of the k-th update (theory §1.3); -1 for k = 0, the zero
        state before any trial.
    hypothesis : object
        The hypothesis in force from the k-th update to the next: the final
        hypothesis ``run_online`` gives on the trials of the presented sequence
        before the (k + 1)-th update (on all of them for k = ``run.n_updates``,
        so that the last snapshot scores as the run). Every algorithm but the
        voted Perceptron changes only on updates (theory §1.4), so this is also
        its final hypothesis on the trials up to ``trial``; the voted
        Perceptron's newest vector gains one survival count per trial in
        between (theory §2.2). For k = 0 it scores 0 everywhere.
    classes : ndarray of shape (2,)
        The run's original label values.
    n_features : int
        The run's number of features.
    matrix : ndarray of shape (n_features, n_features) or None
        What sets a second-order algorithm apart from the Perceptron. Second-Order
        Perceptron, primal form: A_k = a I + X_k X_k^T over the k mistaken
        instances X_k (theory §2.4), with the fixed a, with a_{k+1} = c R^2 (k + 1)
        for ``variant="adaptive"`` (the a of the next trial) and without the
        a I term for ``variant="pinv"``. Higher-Order Perceptron, primal and
        implicit forms: A_k = B_k^T B_k (theory §2.5), in the space of the
        instances as the algorithm used them (unit p-norm with ``normalize=True``).
        None for dual (kernel) forms and other algorithms.
    r : float or None
        The run's parameter ``r``: the Ballseptron's radius (theory §2.3); None for
        algorithms without one.
    """

    k: int
    trial: int
    hypothesis: Any
    classes: np.ndarray
    n_features: int
    matrix: np.ndarray | None = None
    r: float | None = None

    def __post_init__(self):
        if self.matrix is not None:
            self.matrix.flags.writeable = False

    def __repr__(self) -> str:
        return f"Snapshot(k={self.k}, trial={self.trial})"


def hypothesis_at(run, k, X, y) -> Snapshot:
    """The state of ``run`` after its k-th update, as ``run.hypothesis_at(k, X, y)`` gives it.

    See :meth:`~perceptron_bounds.OnlineRun.hypothesis_at`.

    Parameters
    ----------
    run : OnlineRun
        A binary run from the zero state.
    k : int
        Number of updates, 0 .. ``run.n_updates``.
    X, y
        The run's data.

    Returns
    -------
    Snapshot

    Raises
    ------
    TypeError, ValueError
        As :meth:`~perceptron_bounds.OnlineRun.hypothesis_at`.
    """
    _check_binary(run, "hypothesis_at")
    k = check_int("k", k, low=0, high=run.n_updates)
    return _replayer(run, X, y)(k)


def snapshots(run, X, y, steps: Iterable[int] | None = None) -> Iterator[Snapshot]:
    """The states of ``run`` after the updates ``steps``, as ``run.snapshots(X, y, steps)``.

    See :meth:`~perceptron_bounds.OnlineRun.snapshots`.

    Parameters
    ----------
    run : OnlineRun
        A binary run from the zero state.
    X, y
        The run's data, checked once, when this is called.
    steps : iterable of int, optional
        Update counts k, each in [0, n_updates], in the order wanted (default: all).

    Returns
    -------
    iterator of Snapshot
        Replayed one by one as it is read.
    """
    _check_binary(run, "snapshots")
    if steps is None:
        steps = range(run.n_updates + 1)
    steps = [check_int("steps[i]", k, low=0, high=run.n_updates) for k in steps]
    replay = _replayer(run, X, y)
    return (replay(k) for k in steps)


def _check_binary(run, method: str) -> None:
    """``ValueError`` for a multiclass run: its states are not replayed yet."""
    if run.multiclass is None:
        return
    per_class = (
        f"; replay one class with run.class_runs[k].{method}(..., X, "
        "np.where(y == run.classes[k], 1, -1))" if run.class_runs is not None else ""
    )
    raise ValueError(
        f"{method} is not available for multiclass runs yet (this run is "
        f"multiclass={run.multiclass!r}){per_class}"
    )


def _replayer(run, X, y):
    """Check X and y against the record; return the function k -> Snapshot."""
    if run.warm_started:
        raise ValueError(
            "this run continued an earlier one (a warm start): the state it started from "
            "is not recorded, so its updates cannot be replayed; replay the earlier run and "
            "this one's trials from the zero state instead"
        )
    algorithm = get(run.algorithm)
    X = run.check_data(X, y)
    n_rows = int(run.sample_index.max()) + 1
    if X.shape[0] != n_rows:
        raise ValueError(
            f"X has {X.shape[0]} rows, but the run was made on {n_rows} (every epoch shows "
            "every row): pass the run's X"
        )
    y_pm, classes = check_labels(y, X.shape[0], run.classes)
    draws = trial_draws(run.seed, run.n_trials) if algorithm.randomized else None
    data = Data(X, y_pm, classes, draws)
    algorithm.resolve(dict(run.params), data)  # X suits the run's form and kernel
    updates = run.update_trials
    radius = None if algorithm.ball is None else run.params[algorithm.ball]

    @interruptible()
    def replay(k: int) -> Snapshot:
        trial = int(updates[k - 1]) if k else -1
        stop = int(updates[k]) if k < updates.shape[0] else run.n_trials
        order = np.array(run.sample_index[:stop])
        result = algorithm.fit(data, order, run.params, np.empty(0), None)
        replayed = result.update_trials
        if not np.array_equal(replayed, updates[:k]):
            first = int(np.setxor1d(replayed, updates[:k])[0])
            did, does = ("did", "not") if first in updates else ("did not", "")
            raise ValueError(
                f"X and y are not the data of this run: the run {did} update on trial "
                f"{first}, its replay on them does {does}".rstrip()
            )
        matrix = (None if algorithm.matrix is None
                  else algorithm.matrix(result, run.params, X[order[replayed]]))
        return Snapshot(k, trial, result.hypothesis, run.classes, run.n_features, matrix,
                        radius)

    return replay
