"""The voted Perceptron's test error against epochs, one-vs-rest (paper 001, sec. 5).

Freund and Schapire's MNIST experiment: polynomial kernels (1 + x . z)^d,
d = 1..6, the voted Perceptron trained once per class ("l against the rest")
for T epochs over a random permutation of the training set, and the test
error of seven ways to predict with the K sequences of weighted vectors
(paper 001 sec. 5; :mod:`perceptron_bounds.algorithms.voted`), with the
"SupVec" and "Mistake" counts of Tables 1-3.
"""

from __future__ import annotations

import math

import numpy as np

from .._validation import check_class_labels, check_int, check_X
from .._version import __version__
from ..algorithms.voted import mistake_count, support_rows
from ..datasets import add_bias
from ..online import run_online
from ._cache import data_key, run_cached_cells
from ._cells import check_seeds

#: Paper 001 sec. 5: "vote", then the unnormalised and normalised "average", "last" and
#: "random", as (method, normalize) of ``VotedHypothesis.decision_function``.
VOTE_PREDICTIONS = (
    ("vote", False),
    ("average", False),
    ("average", True),
    ("last", False),
    ("last", True),
    ("random", False),
    ("random", True),
)
#: The epochs of paper 001's Table 1 (T = 0.1 is a tenth of the training set).
PAPER_EPOCHS = (0.1, 1, 2, 3, 4, 10, 30)
PAPER_DEGREES = (1, 2, 3, 4, 5, 6)


def prediction_label(method: str, normalize: bool) -> str:
    """The row name of paper 001's tables: ``"vote"``, ``"average (unnorm)"``, ``"last (norm)"``.

    Examples
    --------
    >>> prediction_label("vote", False), prediction_label("random", True)
    ('vote', 'random (norm)')
    """
    if method == "vote":
        return "vote"
    return f"{method} ({'norm' if normalize else 'unnorm'})"


def check_checkpoints(epochs, n_train: int) -> list[float]:
    """Distinct positive epoch counts, sorted; each must reach a new trial of the sequence.

    A checkpoint e is the state after round(e * n_train) trials of the cyclic
    sequence (e = 0.1: the first tenth of an epoch).
    """
    if isinstance(epochs, (int, float, np.integer, np.floating)):
        epochs = [epochs]
    values = sorted(float(e) for e in epochs)
    bad = [e for e in values if not math.isfinite(e) or e <= 0]
    if not values or bad:
        raise ValueError(f"epochs must be a non-empty list of numbers > 0, got {list(epochs)}")
    trials = [round(e * n_train) for e in values]
    if trials[0] < 1 or len(set(trials)) != len(trials):
        raise ValueError(
            f"epochs {values} give the trial counts {trials} on {n_train} training rows; each "
            "checkpoint must add at least one trial"
        )
    return values


def trial_pieces(start: int, stop: int, n_rows: int) -> list[tuple[int, int, int]]:
    """Trials [start, stop) of the sequence that cycles over rows 0..n_rows-1, as runs.

    Returns ``(first_row, end_row, epochs)`` triples: rows first_row..end_row-1
    presented ``epochs`` times, in the order given.

    Examples
    --------
    >>> trial_pieces(0, 6, 10), trial_pieces(6, 30, 10), trial_pieces(30, 35, 10)
    ([(0, 6, 1)], [(6, 10, 1), (0, 10, 2)], [(0, 5, 1)])
    """
    pieces = []
    while start < stop:
        row = start % n_rows
        if row == 0 and stop - start >= n_rows:
            epochs = (stop - start) // n_rows
            pieces.append((0, n_rows, epochs))
            start += epochs * n_rows
        else:
            end = min(n_rows, row + stop - start)
            pieces.append((row, end, 1))
            start += end - row
    return pieces


def voted_epochs_curve(
    train,
    test,
    *,
    degrees=PAPER_DEGREES,
    epochs=(0.1, 1, 2),
    seeds=(0,),
    n_jobs: int | None = None,
    progress: bool = False,
    cache=None,
) -> list[dict]:
    """Test error of the seven voted predictions, SupVec and Mistake, after each epoch count.

    Parameters
    ----------
    train, test : Dataset or (X, y) tuple
        Dense instances and K >= 2 labels (MNIST: raw pixels 0..255, digits 0..9, as
        :func:`~perceptron_bounds.datasets.load_mnist` gives them).
    degrees : sequence of int, default=(1, 2, 3, 4, 5, 6)
        Degrees d of the kernel (1 + x . z)^d (``kernel="poly", gamma=1, coef0=1``).
    epochs : sequence of float, default=(0.1, 1, 2)
        Checkpoints, in epochs; paper 001's Table 1 has 0.1, 1, 2, 3, 4, 10 and 30.
    seeds : sequence of int or None, default=(0,)
        Seed s presents the training rows in the order
        ``numpy.random.default_rng(s).permutation(n_train)``, the same in every epoch
        (paper 001: "randomly permuting the training sequence"); None: as given.
    n_jobs : int or None, default=None
        joblib workers over the (d, seed) cells (see
        :func:`~perceptron_bounds.experiments._cells.run_cells`).
    progress : bool, default=False
        A tqdm bar over the cells.
    cache : str, os.PathLike or None, default=None
        A folder where every finished cell is kept (joblib.Memory); a later call with
        the same data and arguments reads it back instead of running it.

    Returns
    -------
    list of dict
        One record per (d, seed, checkpoint, prediction): ``experiment``, ``degree``,
        ``seed``, ``epochs``, ``n_train``, ``n_test``, ``prediction`` (paper 001's
        row name), ``method``, ``normalize``, ``test_error``, ``supvec`` (instances
        on which any class erred, the union over the training so far) and
        ``mistakes`` (the K binary runs' mistakes summed, Table 1's "Mistake").

    Notes
    -----
    Paper 001, sec. 5. A (d, seed) cell is one one-vs-rest run of
    ``"voted_perceptron"`` continued from checkpoint to checkpoint with
    ``warm_start``, so no trial is run twice; a fractional checkpoint splits the
    epoch into runs over consecutive rows (:func:`trial_pieces`). The test
    error of ``random`` draws its time slices from ``default_rng(seed)``
    (seed 0 when ``seed`` is None). For d = 1 the kernel 1 + x . z is the
    linear kernel on x with a constant feature 1 appended
    (:func:`~perceptron_bounds.datasets.add_bias`), run in the primal form:
    the same algorithm (up to rounding), without a kernel row per trial.

    Examples
    --------
    >>> from perceptron_bounds.datasets import make_separable
    >>> X, y, _ = make_separable(90, 3, seed=0)
    >>> table = voted_epochs_curve((X[:60], y[:60]), (X[60:], y[60:]), degrees=[2],
    ...                            epochs=[0.5, 1])
    >>> sorted({row["epochs"] for row in table}), len(table)
    ([0.5, 1.0], 14)
    """
    X = check_X(train[0], name="train.X")
    y, classes = check_class_labels(train[1], X.shape[0])
    X_test = check_X(test[0], n_features=X.shape[1], name="test.X")
    y_test, _ = check_class_labels(test[1], X_test.shape[0], classes)
    degrees = [check_int("degree", d, low=1) for d in degrees]
    if not degrees or len(set(degrees)) != len(degrees):
        raise ValueError(f"degrees must be a non-empty list of distinct integers, got {degrees}")
    checkpoints = check_checkpoints(epochs, X.shape[0])
    key = data_key(X, y, X_test, y_test)
    cells = [
        {"X": X, "y": y, "X_test": X_test, "y_test": y_test, "data_key": key,
         "n_classes": classes.shape[0], "degree": degree, "seed": seed,
         "checkpoints": checkpoints, "version": __version__}
        for degree in degrees
        for seed in check_seeds(seeds)
    ]
    return run_cached_cells(_voted_cell, cells, cache=cache, n_jobs=n_jobs, progress=progress,
                            desc="voted_epochs")


def _voted_cell(X, y, X_test, y_test, data_key, n_classes, degree, seed, checkpoints,
                version) -> list[dict]:
    n_rows = X.shape[0]
    if seed is not None:
        order = np.random.default_rng(seed).permutation(n_rows)
        X, y = np.ascontiguousarray(X[order]), y[order]
    if degree == 1:
        X, X_test = add_bias(X), add_bias(X_test)
        params = {"kernel": "linear", "form": "primal"}
    else:
        params = {"kernel": "poly", "degree": degree, "gamma": 1.0, "coef0": 1.0}
    classes = np.arange(n_classes)
    run = None
    done = mistakes = 0
    support = np.zeros(n_rows, dtype=bool)
    records = []
    for epochs in checkpoints:
        stop = round(epochs * n_rows)
        for first, end, passes in trial_pieces(done, stop, n_rows):
            run = run_online("voted_perceptron", X[first:end], y[first:end], epochs=passes,
                             classes=classes, multiclass="ovr", warm_start=run, **params)
            mistakes += mistake_count(run)
            support[first + support_rows(run)] = True
        done = stop
        for method, normalize in VOTE_PREDICTIONS:
            predicted = run.predict(X_test, method=method, normalize=normalize,
                                    seed=0 if seed is None else seed)
            records.append({
                "experiment": "voted_epochs",
                "degree": degree,
                "seed": seed,
                "epochs": epochs,
                "n_train": n_rows,
                "n_test": int(X_test.shape[0]),
                "prediction": prediction_label(method, normalize),
                "method": method,
                "normalize": normalize,
                "test_error": float(np.mean(predicted != y_test)),
                "supvec": int(support.sum()),
                "mistakes": mistakes,
            })
    return records
