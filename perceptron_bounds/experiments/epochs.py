"""Training updates and test error against the number of epochs (paper 000, Figure 2)."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._validation import check_int
from ..bounds import bounds_over_time
from ..online import run_online
from ._cells import AlgorithmSpec, as_specs, as_xy, check_seeds, plain, run_cells

PAPER_EPOCHS = (1, 2, 3, 5, 10, 15, 20)


def epochs_curve(
    specs,
    train,
    test,
    epochs=PAPER_EPOCHS,
    seeds=None,
    *,
    bounds=(),
    n_jobs: int | None = None,
    progress: bool = False,
) -> list[dict]:
    """Cumulative training updates and test error after each number of epochs.

    Parameters
    ----------
    specs : list of AlgorithmSpec or (label, algorithm, params) tuples
        The curves, e.g. ``("HO_4(0.4)", "higher_order", {"p": 4, "c": 0.4})``.
    train, test : Dataset or (X, y) tuple
        Training and test data (e.g. from ``make_hop_artificial``); X dense or
        a scipy.sparse matrix for algorithms with a sparse (primal) form.
    epochs : sequence of int, default=(1, 2, 3, 5, 10, 15, 20)
        The checkpoints: distinct epoch counts >= 1, measured in increasing order.
    seeds : sequence of int or None, default=None
        Each seed s presents the training rows in the fixed order
        ``numpy.random.default_rng(s).permutation(n_train)``, cycled every
        epoch; None presents them in the order given.
    bounds : sequence of str, default=()
        Labels of the specs whose runs also get a mistake bound at every
        checkpoint (see Notes). A bound costs one more run of the largest
        number of epochs, and, for the Higher-Order Perceptron with p > 2,
        as much again for its transformed sequence (theory §4.1); the
        Second-Order bounds take an eigendecomposition per mistake.
    n_jobs : int or None, default=None
        joblib workers over the (spec, seed) cells; None uses the count set by
        ``joblib.parallel_config`` (1 when unset). The table does not depend on it.
    progress : bool, default=False
        Show a tqdm progress bar over the cells.

    Returns
    -------
    list of dict
        One record per (spec, seed, checkpoint) with keys ``experiment``,
        ``label``, ``algorithm``, ``params`` (as resolved by the run), ``seed``,
        ``epochs``, ``n_train``, ``n_test``, ``updates`` (mistakes made over the
        first ``epochs`` passes, the paper's "training updates") and
        ``test_error`` (fraction of test rows the hypothesis after those
        passes misclassifies); for the specs in ``bounds`` also ``bound`` (the
        smallest stated bound on those updates, None when none applies),
        ``bound_name`` and ``bound_gamma``.

    Notes
    -----
    Paper 000, sec. 4, Task 1 and Figure 2: the algorithms cycle over the
    training set and their test error is measured after 1, 2, 3, 5, 10, 15 and
    20 epochs. Each cell is one run continued from checkpoint to checkpoint
    with ``run_online(..., warm_start=previous)``: the state after e epochs is
    the state of a single run of e epochs, and no pass is repeated.

    The bounds count mistakes from the zero state, so a spec in ``bounds`` is
    also run once from scratch for the largest number of epochs. Its first e
    epochs are a run of e epochs (theory §1.4), so
    :func:`~perceptron_bounds.bounds.bounds_over_time` gives every stated bound
    (theory §4.1) of each checkpoint's updates at once, for one comparator and
    margin: the training data's target u when it carries one (scaled to unit
    q-norm for p > 2), else the SVM comparator, and the gamma of the smallest
    stated bound of the whole run (theory §4.3). ``bound`` is the smallest of
    them at the checkpoint.

    Examples
    --------
    >>> from perceptron_bounds.datasets import make_hop_artificial
    >>> train, test = make_hop_artificial(0.0, n_train=100, n_test=50, seed=0)
    >>> table = epochs_curve([("FO", "perceptron", {})], train, test, epochs=(1, 2))
    >>> [(row["epochs"], row["updates"] >= 1) for row in table]
    [(1, True), (2, True)]
    """
    cells = epochs_cells(specs, train, test, epochs, seeds, bounds=bounds)
    return run_epochs_cells(cells, n_jobs=n_jobs, progress=progress)


def epochs_cells(specs, train, test, epochs=PAPER_EPOCHS, seeds=None, *, tag=None,
                 bounds=()) -> list[dict]:
    """The validated (spec, seed) cells of :func:`epochs_curve`, for :func:`run_epochs_cells`.

    ``tag`` (a dict) is put at the front of every record of these cells, so
    that cells of several data sets can share one parallel sweep.
    """
    specs = as_specs(specs)
    X, y = as_xy(train, "train")
    X_test, y_test = as_xy(test, "test")
    if X_test.shape[1] != X.shape[1]:
        raise ValueError(f"test has {X_test.shape[1]} features but train has {X.shape[1]}")
    checkpoints = _check_epochs(epochs)
    bounded = _check_bounds(bounds, specs)
    target = train[2] if len(train) == 3 else None
    return [
        {
            "spec": spec,
            "X": X,
            "y": y,
            "X_test": X_test,
            "y_test": y_test,
            "checkpoints": checkpoints,
            "seed": seed,
            "tag": dict(tag or {}),
            "target": target if spec.label in bounded else None,
            "bound": spec.label in bounded,
        }
        for spec in specs
        for seed in check_seeds(seeds)
    ]


def run_epochs_cells(
    cells: list[dict], *, n_jobs: int | None, progress: bool, desc: str = "epochs_curve"
) -> list[dict]:
    """Run cells from :func:`epochs_cells` (possibly of several data sets) in one sweep.

    The records are those of :func:`epochs_curve`, in cell order, each led by
    its cell's ``tag``.
    """
    return run_cells(_epochs_cell, cells, n_jobs=n_jobs, progress=progress, desc=desc)


def _check_epochs(epochs) -> list[int]:
    if isinstance(epochs, (int, np.integer)):
        epochs = [epochs]
    values = [check_int("epochs", e, low=1) for e in epochs]
    if not values or len(set(values)) != len(values):
        raise ValueError(f"epochs must be a non-empty list of distinct integers >= 1, got {values}")
    return sorted(values)


def _check_bounds(bounds, specs) -> set[str]:
    """The labels of ``bounds``, each one of the specs'."""
    if isinstance(bounds, str):
        bounds = [bounds]
    labels = [spec.label for spec in specs]
    unknown = [label for label in bounds if label not in labels]
    if unknown:
        raise ValueError(f"bounds must name spec labels ({', '.join(labels)}), got {unknown[0]!r}")
    return set(bounds)


def _checkpoint_bounds(spec: AlgorithmSpec, X, y, target, checkpoints) -> list[tuple]:
    """(bound, name, gamma) on the updates of the first e epochs, for each checkpoint e."""
    run = run_online(spec.algorithm, X, y, epochs=checkpoints[-1], **spec.params)
    curves = bounds_over_time(run, X, y, u=target, variant="stated")
    out = []
    for epochs in checkpoints:
        t = epochs * X.shape[0] - 1
        values = {name: float(values[t]) for name, values in curves.items()}
        name = min(values, key=values.get, default=None)
        if name is None or not np.isfinite(values[name]):
            out.append((None, None, None))
        else:
            out.append((values[name], name, float(curves.gamma)))
    return out


def _epochs_cell(spec: AlgorithmSpec, X, y, X_test, y_test, checkpoints, seed, tag, target,
                 bound) -> list[dict]:
    if seed is not None:
        order = np.random.default_rng(seed).permutation(X.shape[0])
        X, y = X[order], y[order]
        if not sp.issparse(X):
            X = np.ascontiguousarray(X)
    records = []
    run = None
    done = 0
    updates = 0
    for epochs in checkpoints:
        run = run_online(spec.algorithm, X, y, epochs=epochs - done, warm_start=run, **spec.params)
        updates += run.mistakes
        done = epochs
        test_error = float(np.mean(run.predict(X_test) != y_test))
        records.append(
            {
                **tag,
                "experiment": "epochs_curve",
                "label": spec.label,
                "algorithm": spec.algorithm,
                "params": plain(run.params),
                "seed": seed,
                "epochs": epochs,
                "n_train": int(X.shape[0]),
                "n_test": int(X_test.shape[0]),
                "updates": updates,
                "test_error": test_error,
            }
        )
    if bound:
        for record, (value, name, gamma) in zip(
                records, _checkpoint_bounds(spec, X, y, target, checkpoints), strict=True):
            record.update(bound=value, bound_name=name, bound_gamma=gamma)
    return records
