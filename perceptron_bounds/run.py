"""The record of one online run (SPEC 3).

Every algorithm returns an :class:`OnlineRun`. The bounds, plots and
experiments read it and never re-run the algorithm behind the user's back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._validation import check_X
from .persistence import read_run, save_run

_EMPTY = np.empty(0, dtype=np.int64)


def _freeze(value):
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
    return value


@dataclass(frozen=True, eq=False)
class OnlineRun:
    """Immutable, picklable record of an online run.

    Attributes
    ----------
    algorithm : str
        Registered name of the algorithm (see ``perceptron_bounds.algorithms.available()``).
    params : dict
        Every parameter as used, defaults and resolved values included
        (e.g. ``gamma=None`` resolved to 1/n_features, ``form="auto"`` to the form used).
    n_features : int
        Number of features of the training data.
    classes : ndarray of shape (2,)
        Original label values; ``classes[1]`` is the positive class.
    epochs, shuffle, seed
        How the presented sequence was drawn (SPEC 1.2); ``seed`` is the seed
        actually used, drawn from the OS when none was given with ``shuffle=True``.
    sample_index : ndarray of int64, shape (n_trials,)
        Row of X shown at each trial.
    mistake_trials : ndarray of int64
        Sorted 0-based trial indices where ``y_t * margin_t <= 0`` (SPEC 1.1).
    margin_error_trials : ndarray of int64
        Trials that were not mistakes but still caused an update (the
        Ballseptron's margin errors); empty for other algorithms.
    margins : ndarray of float64 or None
        ``margin_t`` of every trial when the run was made with ``record_margins=True``.
    hypothesis : object
        Final hypothesis; ``decision_function``/``predict`` evaluate it.
    state : dict
        Algorithm-specific final state and per-mistake records that bounds need
        (documented by each algorithm).
    warm_started : bool
        True when the run continued the final state of an earlier run
        (``run_online(..., warm_start=...)``, ``partial_fit``): its trials do not
        start from the zero state the mistake bounds assume.
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

    def __post_init__(self):
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
    def mistake_rows(self) -> np.ndarray:
        """Row of X shown at each mistaken trial: ``X[run.mistake_rows]`` is X_m."""
        return self.sample_index[self.mistake_trials]

    @property
    def weights(self) -> np.ndarray | None:
        """Final primal weight vector, or None for a non-linear kernel."""
        return getattr(self.hypothesis, "weights", None)

    @property
    def support_vectors(self) -> np.ndarray | None:
        """Support vectors of the final hypothesis, one row each; None when it keeps none."""
        return getattr(self.hypothesis, "support_vectors", None)

    @property
    def dual_coef(self) -> np.ndarray | None:
        """Coefficients of the support vectors in the final hypothesis; None when it keeps none."""
        return getattr(self.hypothesis, "dual_coef", None)

    def decision_function(self, X, **options) -> np.ndarray:
        """Real-valued scores of the final hypothesis on the rows of X.

        ``options`` are passed to the hypothesis (e.g. ``method="vote"`` for the
        voted Perceptron).
        """
        X = check_X(X, n_features=self.n_features, accept_sparse=True)
        return self.hypothesis.decision_function(X, **options)

    def predict(self, X, **options) -> np.ndarray:
        """Labels (original values) predicted by the final hypothesis; score 0 gives classes[0]."""
        scores = self.decision_function(X, **options)
        return self.classes[(scores > 0).astype(np.intp)]

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
        return (
            f"OnlineRun(algorithm={self.algorithm!r}, n_trials={self.n_trials}, "
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
    FileNotFoundError
        If there is no file at ``path``.
    ValueError
        If the file is not a saved run: not an ``.npz`` archive (e.g. a
        pickle), damaged or truncated, an entry holding Python objects (which
        would need pickle), missing or unexpected entries, a header that does
        not describe a record, or a format version newer than this package
        reads. One line, naming the file and the problem.
    TypeError
        If ``path`` is not a path.

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
    return OnlineRun(**read_run(path))
