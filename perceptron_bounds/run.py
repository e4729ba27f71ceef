"""The record of one online run (theory §3) and the states it passed through.

Every algorithm returns an :class:`OnlineRun`. The bounds, plots and
experiments read it and never re-run the algorithm behind the user's back.
The one exception is asked for by name: :meth:`OnlineRun.hypothesis_at` (and
:meth:`OnlineRun.snapshots`) replays the deterministic record on a prefix of
its presented sequence to give the state after each update, a
:class:`Snapshot`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import _fingerprint
from ._interrupt import interruptible
from ._validation import Data, check_class_labels, check_int, check_labels, check_X
from .persistence import read_run, save_run
from .registry import current_name, get

_EMPTY = np.empty(0, dtype=np.int64)


def _freeze(value):
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
    return value


class _Scoring:
    """Scores and labels of a record's ``hypothesis`` (its ``n_features`` and ``classes``)."""

    @property
    def weights(self) -> np.ndarray | None:
        """Primal weight vector of the hypothesis, or None for a non-linear kernel.

        Multiclass: one row per class, shape (K, n_features) (the prototypes of
        a native run, the class runs' vectors for one-vs-rest).
        """
        return getattr(self.hypothesis, "weights", None)

    @property
    def support_vectors(self):
        """Support vectors of the hypothesis, one row each; None when it keeps none.

        An ndarray, or a ``scipy.sparse.csr_matrix`` for a dual (kernel) run
        on CSR X. One-vs-rest: the union of the class runs' support vectors
        (equal rows once, see
        :class:`~perceptron_bounds.hypothesis.OneVsRestHypothesis`).
        """
        return getattr(self.hypothesis, "support_vectors", None)

    @property
    def dual_coef(self) -> np.ndarray | None:
        """Coefficients of the support vectors in the hypothesis; None when it keeps none."""
        return getattr(self.hypothesis, "dual_coef", None)

    def decision_function(self, X, **options) -> np.ndarray:
        """Real-valued scores of the hypothesis on the rows of X: (n,), or (n, K) multiclass.

        ``options`` are passed to the hypothesis (e.g. ``method="vote"`` for the
        voted Perceptron).
        """
        X = check_X(X, n_features=self.n_features, accept_sparse=True)
        return self.hypothesis.decision_function(X, **options)

    def predict(self, X, **options) -> np.ndarray:
        """Labels (original values) predicted by the hypothesis.

        Binary: ``classes[1]`` for a positive score, ``classes[0]`` otherwise
        (score 0 included). Multiclass (scores (n, K), theory §2.6):
        ``classes[argmax_k score_k]``, the smallest index on ties.
        """
        scores = self.decision_function(X, **options)
        if scores.ndim == 2:
            return self.classes[scores.argmax(axis=1)]
        return self.classes[(scores > 0).astype(np.intp)]


@dataclass(frozen=True, eq=False)
class Snapshot(_Scoring):
    """The state of a run after its k-th update, from :meth:`OnlineRun.hypothesis_at`.

    ``decision_function``, ``predict``, ``weights``, ``support_vectors`` and
    ``dual_coef`` read the hypothesis as those of :class:`OnlineRun` read the
    final one (``predict`` gives the original labels).

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
        The Ballseptron's radius (theory §2.3); None for other algorithms.
    """

    k: int
    trial: int
    hypothesis: Any
    classes: np.ndarray
    n_features: int
    matrix: np.ndarray | None = None
    r: float | None = None

    def __post_init__(self):
        _freeze(self.matrix)

    def __repr__(self) -> str:
        return f"Snapshot(k={self.k}, trial={self.trial})"


@dataclass(frozen=True, eq=False)
class OnlineRun(_Scoring):
    """Immutable, picklable record of an online run, binary or multiclass.

    A multiclass run (K >= 2 classes, theory §2.6) is one record too: its
    ``mistake_trials`` are the multiclass mistakes (s_y <= max_{r != y} s_r
    over the scores s_r before the trial's update, a tie included), its
    ``decision_function`` scores (n, K), its ``predict`` is the class of the
    largest score. One-vs-rest (``multiclass="ovr"``) keeps the K binary runs
    "class k against the rest" in ``class_runs``; the native form
    (``multiclass="native"``) keeps the prototypes in its hypothesis.

    Attributes
    ----------
    algorithm : str
        Registered name of the algorithm (see ``perceptron_bounds.algorithms.available()``).
    params : dict
        Every parameter as used, defaults and resolved values included
        (e.g. ``gamma=None`` resolved to 1/n_features, ``form="auto"`` to the form used).
    n_features : int
        Number of features of the training data.
    classes : ndarray of shape (2,) or (K,)
        Original label values, sorted; binary: ``classes[1]`` is the positive
        class; multiclass: class k is ``classes[k]``.
    epochs, shuffle, seed
        How the presented sequence was drawn (theory §1.2); ``seed`` is the seed
        actually used, drawn from the OS when none was given with ``shuffle=True``.
    sample_index : ndarray of int64, shape (n_trials,)
        Row of X shown at each trial.
    mistake_trials : ndarray of int64
        Sorted 0-based trial indices where ``y_t * margin_t <= 0`` (theory §1.1);
        multiclass: where s_y <= max_{r != y} s_r (theory §2.6).
    margin_error_trials : ndarray of int64
        Trials that were not mistakes but still caused an update (the
        Ballseptron's margin errors, binary or native multiclass); empty for
        other algorithms and for one-vs-rest runs (see their ``class_runs``).
    margins : ndarray of float64 or None
        ``margin_t`` of every trial when the run was made with ``record_margins=True``;
        multiclass: shape (n_trials, K), the class scores s_r before the trial's update.
    hypothesis : object
        Final hypothesis; ``decision_function``/``predict`` evaluate it. A
        :class:`~perceptron_bounds.hypothesis.OneVsRestHypothesis` for one-vs-rest.
    state : dict
        Algorithm-specific final state and per-mistake records that bounds need
        (documented by each algorithm); empty for one-vs-rest (each class run
        holds its own).
    warm_started : bool
        True when the run continued the final state of an earlier run
        (``run_online(..., warm_start=...)``, ``partial_fit``): its trials do not
        start from the zero state the mistake bounds assume.
    multiclass : {"ovr", "native"} or None
        How a multiclass run was made (theory §2.6); None for a binary run.
    class_runs : tuple of OnlineRun or None
        One-vs-rest: the K binary runs, ``class_runs[k]`` "class ``classes[k]``
        (+1) against the rest (-1)" on the same presented sequence, with
        classes [-1, 1], this run's parameters, seed and ``warm_started``:
        each is the run ``run_online(algorithm, X, np.where(y == classes[k], 1, -1),
        classes=[-1, 1], ...)`` would give. None otherwise.
    data_fingerprint : tuple of str or None
        A cheap hash of the data each run of the chain ran on, oldest first: one entry
        for a fresh run, one more for each warm start; the last is this run's own (X, y),
        the rows its ``sample_index`` points to (see :meth:`check_data`). Each is
        ``"n_rows x n_features:HX:HY"``, sums of 64-bit mixes of X's nonzero entries
        with their (row, column) and of the labels' class indices with their rows, the
        same for dense and CSR X. None for a run saved by perceptron_bounds 0.x before
        the fingerprint (its data cannot be checked).
    """

    algorithm: str
    params: dict
    n_features: int
    classes: np.ndarray
    epochs: int
    shuffle: bool
    seed: int | None
    sample_index: np.ndarray
    mistake_trials: np.ndarray
    hypothesis: Any
    margin_error_trials: np.ndarray = field(default_factory=lambda: _EMPTY)
    margins: np.ndarray | None = None
    state: dict = field(default_factory=dict)
    warm_started: bool = False
    multiclass: str | None = None
    class_runs: tuple | None = None
    data_fingerprint: tuple | None = None

    def __post_init__(self):
        # a run saved under a former name is read as the current one (no warning)
        object.__setattr__(self, "algorithm", current_name(self.algorithm, warn=False))
        for name in ("classes", "sample_index", "mistake_trials", "margin_error_trials", "margins"):
            _freeze(getattr(self, name))
        for value in self.state.values():
            _freeze(value)

    @property
    def n_trials(self) -> int:
        """Length T of the presented sequence."""
        return int(self.sample_index.shape[0])

    @property
    def mistakes(self) -> int:
        """Number of mistakes m."""
        return int(self.mistake_trials.shape[0])

    @property
    def margin_errors(self) -> int:
        """Number of margin errors (trials updated without a mistake)."""
        return int(self.margin_error_trials.shape[0])

    @property
    def update_trials(self) -> np.ndarray:
        """Sorted trials that changed the state: mistakes and margin errors."""
        return np.union1d(self.mistake_trials, self.margin_error_trials)

    @property
    def n_updates(self) -> int:
        """Number of update trials (mistakes and margin errors): ``len(run.update_trials)``."""
        return int(self.update_trials.shape[0])

    @property
    def corrections(self) -> int:
        """Training corrections: the binary mistakes summed over the class runs (one-vs-rest).

        Paper 001 sec. 5's "Mistake" count, the papers' "training corrections
        summed over the categories". The multiclass mistakes for a native run,
        the mistakes for a binary one.
        """
        if self.class_runs is None:
            return self.mistakes
        return sum(run.mistakes for run in self.class_runs)

    @property
    def mistake_rows(self) -> np.ndarray:
        """Row of X shown at each mistaken trial: ``X[run.mistake_rows]`` is X_m."""
        return self.sample_index[self.mistake_trials]

    def check_data(self, X, y):
        """X validated, once X and y are checked to be the data this run was made on.

        The run's ``data_fingerprint`` is recomputed on X and y (one pass over X, as
        cheap as validating it) and compared. What every function that takes
        ``(run, X, y)`` calls first (:func:`~perceptron_bounds.bounds.evaluate`,
        :func:`~perceptron_bounds.bounds.bounds_over_time`, :meth:`hypothesis_at`).

        Parameters
        ----------
        X : array-like or scipy.sparse matrix
            The run's data: the rows its ``sample_index`` points to, dense or CSR alike.
            For a warm-started run, also accepted: the data of its whole chain of warm
            starts, one after the other, oldest first (the stream ``partial_fit`` saw).
        y : array-like
            Their labels, as given to the run (any values mapping to the same classes).

        Returns
        -------
        ndarray or CSR matrix
            X as :func:`~perceptron_bounds._validation.check_X` returns it.

        Raises
        ------
        ValueError
            One line: X with another number of rows, or X or y that differ from the run's
            (other rows, other values, labels flipped or permuted). A run without a
            fingerprint (saved before it existed) is not checked.

        Examples
        --------
        >>> import numpy as np
        >>> from perceptron_bounds import run_online
        >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
        >>> run = run_online("perceptron", X, [1, 1, -1])
        >>> run.check_data(X, [1, 1, -1]).shape
        (3, 2)
        >>> run.check_data(X, [-1, -1, 1])
        Traceback (most recent call last):
        ...
        ValueError: X and y are not the data of this run: y differs from the run's (3 rows)
        """
        X = check_X(X, n_features=self.n_features)
        chain = self.data_fingerprint
        if chain is None:
            return X
        labels, _ = check_class_labels(y, X.shape[0], self.classes)
        sizes = [_fingerprint.n_rows(entry) for entry in chain]
        if X.shape[0] == sizes[-1]:
            segments = [(chain[-1], 0)]
        elif len(chain) > 1 and X.shape[0] == sum(sizes):
            segments = list(zip(chain, np.cumsum([0, *sizes[:-1]]).tolist(), strict=True))
        else:
            whole = (f", its chain of {len(chain)} warm-started runs on {sum(sizes)}"
                     if len(chain) > 1 else "")
            raise ValueError(f"X has {X.shape[0]} rows, but the run was made on {sizes[-1]}"
                             f"{whole}: pass the run's own X and y")
        for number, (entry, start) in enumerate(segments, start=1):
            differ = _fingerprint.mismatch(entry, X, labels, start)
            if differ is not None:
                where = (f"rows {start}..{start + sizes[number - 1] - 1} of the chain (run "
                         f"{number} of {len(chain)})" if len(segments) > 1
                         else f"{sizes[-1]} rows")
                verb = "differ" if " and " in differ else "differs"
                raise ValueError(f"X and y are not the data of this run: {differ} {verb} from "
                                 f"the run's ({where})")
        return X

    def hypothesis_at(self, k, X, y) -> Snapshot:
        """The state after the run's k-th update, replayed from the record.

        The run is deterministic given its presented sequence (theory §1.2):
        the algorithm is run again from the zero state on the prefix
        ``sample_index[:t]`` of that sequence, t the trial of the (k + 1)-th
        update (the whole sequence for k = ``n_updates``), with the run's
        resolved parameters and the whole of X (so that quantities taken over
        X, such as the R of the adaptive Second-Order Perceptron, are those of
        the run). Its state is then the one the k-th update left (theory §1.4);
        only the voted Perceptron's survival counts grow on the trials in
        between (see :class:`Snapshot`).

        Parameters
        ----------
        k : int
            Number of updates, 0 .. ``n_updates`` (mistakes and margin errors
            both count, theory §1.4); 0 is the zero state, ``n_updates`` the
            final hypothesis.
        X : array-like of shape (n_samples, n_features) or scipy.sparse matrix
            The data the run was made on, dense or sparse (every form replays
            on CSR rows; a dual form's snapshots then keep CSR support vectors).
        y : array-like of shape (n_samples,)
            Its labels, as given to the run.

        Returns
        -------
        Snapshot
            Its hypothesis is the final hypothesis of ``run_online`` on that
            prefix; for k = ``n_updates`` it scores as the run's own.

        Raises
        ------
        TypeError, ValueError
            Before any replay: k not an integer in [0, n_updates]; a run that
            continued an earlier one (its starting state is not recorded); X
            with another number of features or rows than the run's data (each
            epoch shows every row), y of another length or with labels not in
            ``classes``, or data the run's form cannot take. After the replay:
            X and y on which the algorithm does not update on the recorded
            trials (not the run's data).

        See Also
        --------
        snapshots : every state in turn, the data checked once.

        Examples
        --------
        >>> import numpy as np
        >>> from perceptron_bounds import run_online
        >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
        >>> y = ["yes", "yes", "no", "no"]
        >>> run = run_online("perceptron", X, y, epochs=2)
        >>> run.n_updates, run.update_trials.tolist()
        (2, [0, 1])
        >>> first = run.hypothesis_at(1, X, y)
        >>> first, first.weights.tolist(), first.predict(X).tolist()
        (Snapshot(k=1, trial=0), [1.0, 0.0], ['yes', 'no', 'no', 'no'])
        >>> [snapshot.weights.tolist() for snapshot in run.snapshots(X, y)]
        [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]]
        """
        self._check_binary("hypothesis_at")
        k = check_int("k", k, low=0, high=self.n_updates)
        return self._replayer(X, y)(k)

    def snapshots(self, X, y, steps: Iterable[int] | None = None) -> Iterator[Snapshot]:
        """The states after the updates ``steps`` (default: all, k = 0 .. ``n_updates``).

        Each is :meth:`hypothesis_at` for its k, but X, y and ``steps`` are
        checked once, when this is called, and the snapshots are replayed one
        by one as the iterator is read.

        Parameters
        ----------
        X, y
            The run's data, as for :meth:`hypothesis_at`.
        steps : iterable of int, optional
            Update counts k, each in [0, n_updates], in the order wanted.

        Returns
        -------
        iterator of Snapshot
        """
        self._check_binary("snapshots")
        if steps is None:
            steps = range(self.n_updates + 1)
        steps = [check_int("steps[i]", k, low=0, high=self.n_updates) for k in steps]
        replay = self._replayer(X, y)
        return (replay(k) for k in steps)

    def _check_binary(self, method: str) -> None:
        """``ValueError`` for a multiclass run: its states are not replayed yet."""
        if self.multiclass is None:
            return
        per_class = (
            f"; replay one class with run.class_runs[k].{method}(..., X, "
            "np.where(y == run.classes[k], 1, -1))" if self.class_runs is not None else ""
        )
        raise ValueError(
            f"{method} is not available for multiclass runs yet (this run is "
            f"multiclass={self.multiclass!r}){per_class}"
        )

    def _replayer(self, X, y):
        """Check X and y against the record; return the function k -> Snapshot."""
        if self.warm_started:
            raise ValueError(
                "this run continued an earlier one (a warm start): the state it started from "
                "is not recorded, so its updates cannot be replayed; replay the earlier run and "
                "this one's trials from the zero state instead"
            )
        algorithm = get(self.algorithm)
        X = self.check_data(X, y)
        n_rows = int(self.sample_index.max()) + 1
        if X.shape[0] != n_rows:
            raise ValueError(
                f"X has {X.shape[0]} rows, but the run was made on {n_rows} (every epoch shows "
                "every row): pass the run's X"
            )
        y_pm, classes = check_labels(y, X.shape[0], self.classes)
        data = Data(X, y_pm, classes)
        algorithm.resolve(dict(self.params), data)  # X suits the run's form and kernel
        updates = self.update_trials
        radius = self.params["r"] if self.algorithm == "ballseptron" else None

        @interruptible()
        def replay(k: int) -> Snapshot:
            trial = int(updates[k - 1]) if k else -1
            stop = int(updates[k]) if k < updates.shape[0] else self.n_trials
            order = np.array(self.sample_index[:stop])
            result = algorithm.fit(data, order, self.params, np.empty(0), None)
            replayed = np.union1d(result.mistake_trials, result.margin_error_trials)
            if not np.array_equal(replayed, updates[:k]):
                first = int(np.setxor1d(replayed, updates[:k])[0])
                did, does = ("did", "not") if first in updates else ("did not", "")
                raise ValueError(
                    f"X and y are not the data of this run: the run {did} update on trial "
                    f"{first}, its replay on them does {does}".rstrip()
                )
            matrix = (None if algorithm.matrix is None
                      else algorithm.matrix(result, self.params, X[order[replayed]]))
            return Snapshot(k, trial, result.hypothesis, self.classes, self.n_features,
                            matrix, radius)

        return replay

    def save(self, path) -> str:
        """Write the run to one ``.npz`` file, without pickle (``load_run`` reads it back).

        The arrays of the record are entries of the archive, its scalars,
        parameters and hypothesis class a JSON header (the format is described
        in :mod:`perceptron_bounds.persistence`). The file is written under a
        temporary name and renamed, so an interrupted save leaves no partial file.

        Parameters
        ----------
        path : str or os.PathLike
            File to write; ``.npz`` is appended when missing, as :func:`numpy.savez` does.

        Returns
        -------
        str
            The path written.

        Raises
        ------
        TypeError
            If the record holds a value the format cannot store (named by where it
            sits, e.g. ``state/x``); nothing is written then.
        FileNotFoundError
            If the folder of ``path`` does not exist.

        Examples
        --------
        >>> import os, tempfile
        >>> import numpy as np
        >>> from perceptron_bounds import load_run, run_online
        >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
        >>> run = run_online("perceptron", X, ["yes", "yes", "no", "no"])
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     path = run.save(os.path.join(folder, "run"))
        ...     loaded = load_run(path)
        >>> os.path.basename(path), loaded.predict(X).tolist()
        ('run.npz', ['yes', 'yes', 'no', 'no'])
        """
        return save_run(self, path)

    def __repr__(self) -> str:
        multiclass = (f", multiclass={self.multiclass!r}, n_classes={self.classes.shape[0]}"
                      if self.multiclass is not None else "")
        return (
            f"OnlineRun(algorithm={self.algorithm!r}{multiclass}, n_trials={self.n_trials}, "
            f"mistakes={self.mistakes}, margin_errors={self.margin_errors})"
        )


def load_run(path) -> OnlineRun:
    """Read a run saved by :meth:`OnlineRun.save`, without unpickling anything.

    Parameters
    ----------
    path : str or os.PathLike
        The ``.npz`` file, as returned by ``save``.

    Returns
    -------
    OnlineRun
        The saved record: the same fields, its arrays equal bit for bit with
        the same dtypes (and read-only where the original's were), the same
        hypothesis class, so that predictions and bound reports are the same.

    Raises
    ------
    FileNotFoundError, ValueError, TypeError
        As :func:`perceptron_bounds.persistence.read_run`: no file, a file that
        is not a saved run (one line naming the file and the problem), or a
        ``path`` that is not a path.

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> from perceptron_bounds import load_run, run_online
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
    >>> run = run_online("voted_perceptron", X, ["spam", "spam", "ham", "ham"], epochs=2)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     loaded = load_run(run.save(os.path.join(folder, "voted.npz")))
    >>> loaded
    OnlineRun(algorithm='voted_perceptron', n_trials=8, mistakes=2, margin_errors=0)
    >>> loaded.predict(X, method="average").tolist()
    ['spam', 'spam', 'ham', 'ham']
    >>> type(loaded.hypothesis).__name__, loaded.classes.dtype
    ('VotedHypothesis', dtype('<U4'))
    """
    return read_run(path, OnlineRun)
