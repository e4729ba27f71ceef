"""The record of one online run (theory §3) and the states it passed through.

Every algorithm returns an :class:`OnlineRun`. The bounds, plots and
experiments read it and never re-run the algorithm behind the user's back.
The one exception is asked for by name: :meth:`OnlineRun.hypothesis_at` (and
:meth:`OnlineRun.snapshots`) replays the deterministic record on a prefix of
its presented sequence to give the state after each update, a
:class:`~perceptron_bounds.replay.Snapshot` (the replay is
:mod:`perceptron_bounds.replay`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import _fingerprint, replay
from ._validation import check_class_labels, check_X
from .hypothesis import ScoredRecord
from .persistence import read_run, save_run, saved_record
from .replay import Snapshot
from .registry import current_name, update_trials

_EMPTY = np.empty(0, dtype=np.int64)


def _freeze(value):
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
    return value


@saved_record
@dataclass(frozen=True, eq=False)
class OnlineRun(ScoredRecord):
    """Immutable, picklable record of an online run, binary or multiclass.

    A multiclass run (K >= 2 classes, theory §2.6) is one record too: its
    ``mistake_trials`` are the multiclass mistakes (s_y <= max_{r != y} s_r
    over the scores s_r before the trial's update, a tie included), its
    ``decision_function`` scores (n, K), its ``predict`` is the class of the
    largest score. One-vs-rest (``multiclass="ovr"``) keeps the K binary runs
    "class k against the rest" in ``class_runs``; the native form
    (``multiclass="native"``) keeps the prototypes in its hypothesis.

    Its fields are what :meth:`save` writes, with the types they are annotated with;
    a field added after the first saved format names the format version that added
    it in its ``metadata`` (see :mod:`perceptron_bounds.persistence`).

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
    queried_trials : ndarray of int64 or None
        A selective-sampling run (theory §2.14): the sorted 0-based trials whose label
        the algorithm asked for (``mistake_trials`` count every trial, queried or not;
        only the queried mistakes update). One-vs-rest: the trials whose label some
        class run asked for. None for an algorithm that reads every label.
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
    multiclass: str | None = field(default=None, metadata={"format_version": 2})
    class_runs: tuple | None = field(default=None, metadata={"format_version": 2})
    data_fingerprint: tuple | None = field(default=None, metadata={"format_version": 3})
    queried_trials: np.ndarray | None = field(default=None, metadata={"format_version": 4})

    def __post_init__(self):
        # a run saved under a former name is read as the current one (no warning)
        object.__setattr__(self, "algorithm", current_name(self.algorithm, warn=False))
        for name in ("classes", "sample_index", "mistake_trials", "margin_error_trials", "margins",
                     "queried_trials"):
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
    def queried(self) -> int:
        """Number of labels the run asked for: ``len(run.queried_trials)``, or every trial
        (``n_trials``) for an algorithm that reads every label (theory §2.14)."""
        if self.queried_trials is None:
            return self.n_trials
        return int(self.queried_trials.shape[0])

    @property
    def update_trials(self) -> np.ndarray:
        """Sorted trials that changed the state: mistakes and margin errors; for a
        selective-sampling run only the queried mistakes (theory §2.14)."""
        return update_trials(self.mistake_trials, self.margin_error_trials,
                             self.queried_trials)

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
        between (see :class:`~perceptron_bounds.replay.Snapshot`).

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
        return replay.hypothesis_at(self, k, X, y)

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
        return replay.snapshots(self, X, y, steps)

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
