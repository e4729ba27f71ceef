"""Training corrections and test error after one epoch, and the k-fold search behind them.

The Higher-Order paper's Tables 2 and 3 (paper 000, sec. 4, Tasks 2 and 3):
each algorithm trained for one epoch, binary on the RCV1 tasks, one-vs-rest
on USPS and MNIST; "Train" is
the number of training corrections (summed over the 10 categories), "Test"
the fraction of misclassified test patterns. The OCR kernel parameters were
"chosen via 5-fold cross validation on the training set":
:func:`cross_validate` is that search.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_class_labels, check_int, check_X
from .._version import __version__
from ..online import run_online
from ._cache import data_key, run_cached_cells
from ._cells import AlgorithmSpec, as_specs, check_seeds, plain


def _labelled(data, name: str, classes=None, n_features=None):
    """Checked ``(X, y_index, classes)`` of a Dataset or ``(X, y)`` pair; y as class indices."""
    X = check_X(data[0], n_features=n_features, name=f"{name}.X")
    y, classes = check_class_labels(data[1], X.shape[0], classes)
    return X, y, classes


def corrections_table(
    specs,
    train,
    test,
    *,
    seeds=None,
    n_jobs: int | None = None,
    progress: bool = False,
    cache=None,
) -> list[dict]:
    """One epoch of each algorithm: training corrections, matrix updates and test error.

    Parameters
    ----------
    specs : list of AlgorithmSpec or (label, algorithm, params) tuples
        The algorithms with all their parameters, kernel included, e.g.
        ``("HO2", "higher_order", {"c": 0.4, "kernel": "rbf", "gamma": 2.0})``.
    train, test : Dataset or (X, y) tuple
        Dense or sparse X; two labels give binary runs, more give one-vs-rest runs
        (theory §2.6) with the classes of ``train``.
    seeds : sequence of int or None, default=None
        None presents the training rows in the order given (paper 000's RCV1
        tasks: "consecutive news stories"); seed s presents them in the order
        ``numpy.random.default_rng(s).permutation(n_train)``.
    n_jobs, progress, cache
        joblib workers over the (spec, seed) cells, a tqdm bar, and the folder
        that keeps finished cells (see :func:`voted_epochs_curve`).

    Returns
    -------
    list of dict
        One record per (spec, seed): ``experiment``, ``label``, ``algorithm``,
        ``params`` (as resolved by the run), ``seed``, ``n_train``, ``n_test``,
        ``corrections`` (binary mistakes summed over the class runs: the papers'
        training corrections; a binary run's mistakes), ``matrix_updates`` (the
        Higher-Order Perceptron's mistakes with rho_k > 0, summed likewise; None for
        the other algorithms), ``mistakes`` (the run's own: multiclass mistakes for
        one-vs-rest) and ``test_error`` of the final hypothesis.

    Examples
    --------
    >>> from perceptron_bounds.datasets import make_separable
    >>> X, y, _ = make_separable(120, 4, margin=0.05, seed=0)
    >>> table = corrections_table([("FO", "perceptron", {}),
    ...                            ("HO2", "higher_order", {"c": 0.4})],
    ...                           (X[:80], y[:80]), (X[80:], y[80:]))
    >>> [(row["label"], row["matrix_updates"] == row["corrections"]) for row in table]
    [('FO', False), ('HO2', True)]
    """
    specs = as_specs(specs)
    X, y, classes = _labelled(train, "train")
    X_test, y_test, _ = _labelled(test, "test", classes, X.shape[1])
    key = data_key(X, y, X_test, y_test)
    cells = [
        {"X": X, "y": y, "X_test": X_test, "y_test": y_test, "data_key": key,
         "n_classes": classes.shape[0], "spec": spec, "seed": seed, "version": __version__}
        for spec in specs
        for seed in check_seeds(seeds)
    ]
    return run_cached_cells(_corrections_cell, cells, cache=cache, n_jobs=n_jobs,
                            progress=progress, desc="corrections")


def _one_epoch(spec: AlgorithmSpec, X, y, n_classes: int, seed):
    """The run of ``spec`` over one epoch of (X, y) in the order of ``seed``."""
    if seed is not None:
        order = np.random.default_rng(seed).permutation(X.shape[0])
        X, y = X[order], y[order]
    multiclass = "ovr" if n_classes > 2 else None
    return run_online(spec.algorithm, X, y, classes=np.arange(n_classes), multiclass=multiclass,
                      **spec.params)


def _corrections_cell(X, y, X_test, y_test, data_key, n_classes, spec, seed,
                      version) -> list[dict]:
    run = _one_epoch(spec, X, y, n_classes, seed)
    parts = run.class_runs if run.class_runs is not None else (run,)
    updates = [part.state.get("matrix_updates") for part in parts]
    predicted = run.predict(X_test)  # class indices: the run's classes are 0..K-1
    return [{
        "experiment": "corrections",
        "label": spec.label,
        "algorithm": spec.algorithm,
        "params": plain(run.params),
        "seed": seed,
        "n_train": int(X.shape[0]),
        "n_test": int(X_test.shape[0]),
        "corrections": run.corrections,
        "matrix_updates": None if None in updates else int(sum(updates)),
        "mistakes": run.mistakes,
        "test_error": float(np.mean(predicted != y_test)),
    }]


def cross_validate(
    specs,
    train,
    *,
    folds: int = 5,
    seed: int = 0,
    n_jobs: int | None = None,
    progress: bool = False,
    cache=None,
) -> list[dict]:
    """k-fold cross-validation of one-epoch runs: the validation error of each spec.

    Parameters
    ----------
    specs : list of AlgorithmSpec or (label, algorithm, params) tuples
        The candidates (an algorithm under several kernel parameters).
    train : Dataset or (X, y) tuple
        The training set; it is split, the test set is not used.
    folds : int, default=5
        k; row i is in fold ``p[i] % k`` for the permutation
        ``p = numpy.random.default_rng(seed).permutation(n)``.
    seed : int, default=0
        Seed of the split. Each fit presents its k - 1 folds in the order of the
        training set.
    n_jobs, progress, cache
        As for :func:`corrections_table`, over the (spec, fold) cells.

    Returns
    -------
    list of dict
        One record per (spec, fold): ``experiment``, ``label``, ``algorithm``,
        ``params`` (as given), ``fold``, ``folds``, ``n_fit``, ``n_validate``,
        ``corrections`` and ``validation_error``.

    Notes
    -----
    Paper 002, sec. 4, Task 3: kernel "parameters chosen via 5-fold cross
    validation on the training set across standard ranges". :func:`best_params`
    picks the candidate of smallest mean validation error.
    """
    specs = as_specs(specs)
    X, y, classes = _labelled(train, "train")
    folds = check_int("folds", folds, low=2, high=X.shape[0])
    fold_of = np.random.default_rng(check_int("seed", seed, low=0)).permutation(X.shape[0]) % folds
    key = data_key(X, y)
    cells = [
        {"X": X, "y": y, "data_key": key, "n_classes": classes.shape[0], "spec": spec,
         "fold_of": fold_of, "fold": fold, "version": __version__}
        for spec in specs
        for fold in range(folds)
    ]
    return run_cached_cells(_fold_cell, cells, cache=cache, n_jobs=n_jobs, progress=progress,
                            desc="cross_validate")


def _fold_cell(X, y, data_key, n_classes, spec, fold_of, fold, version) -> list[dict]:
    fit, held = fold_of != fold, fold_of == fold
    run = _one_epoch(spec, X[fit], y[fit], n_classes, None)
    predicted = run.predict(X[held])
    return [{
        "experiment": "cross_validate",
        "label": spec.label,
        "algorithm": spec.algorithm,
        "params": plain(spec.params),
        "fold": fold,
        "folds": int(fold_of.max()) + 1,
        "n_fit": int(fit.sum()),
        "n_validate": int(held.sum()),
        "corrections": run.corrections,
        "validation_error": float(np.mean(predicted != y[held])),
    }]


def best_params(records, by=("label",)) -> dict:
    """The candidate of smallest mean validation error in each group of a cross-validation.

    Parameters
    ----------
    records : list of dict
        The table of :func:`cross_validate`; extra keys (added by the caller) may
        name the groups.
    by : sequence of str, default=("label",)
        The keys that form a group; the candidates of a group differ in ``params``.

    Returns
    -------
    dict
        Group (a tuple of the ``by`` values) -> ``(params, mean validation error)``;
        ties go to the candidate seen first.

    Examples
    --------
    >>> rows = [{"g": "FO", "params": {"gamma": 1.0}, "validation_error": 0.2},
    ...         {"g": "FO", "params": {"gamma": 2.0}, "validation_error": 0.1}]
    >>> best_params(rows, by=["g"])
    {('FO',): ({'gamma': 2.0}, 0.1)}
    """
    means: dict[tuple, dict] = {}
    for record in records:
        group = tuple(record[key] for key in by)
        candidate = repr(sorted(record["params"].items()))
        entry = means.setdefault(group, {}).setdefault(candidate, [record["params"], []])
        entry[1].append(record["validation_error"])
    return {
        group: min(((params, float(np.mean(errors))) for params, errors in candidates.values()),
                   key=lambda pair: pair[1])
        for group, candidates in means.items()
    }
