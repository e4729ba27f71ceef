"""Every algorithm's mistakes against every bound of the papers that applies to it, as a table.

What ``perceptron-bounds compare`` prints, as tidy records over algorithms and
seeds (theory §4): one record per (algorithm, seed, bound, variant) with the
bound's value and the ratio mistakes / bound.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_class_labels, check_labels, check_X
from .._version import __version__
from ..bounds import evaluate
from ..datasets import DriftingDataset
from ..online import run_online
from ..registry import get
from ._cache import data_key, run_cached_cells
from ._cells import as_specs, check_seeds, plain

#: The runs of a randomized algorithm in one cell: its bounds in expectation are held
#: against the mean of their mistakes.
EXPECTATION_RUNS = 20


def bound_ratios(
    specs,
    data,
    *,
    epochs: int = 1,
    seeds=None,
    gamma: float | None = None,
    comparator: str = "auto",
    n_jobs: int | None = None,
    progress: bool = False,
    cache=None,
) -> list[dict]:
    """Run each algorithm on binary data and evaluate every bound that applies.

    Parameters
    ----------
    specs : list of AlgorithmSpec or (label, algorithm, params) tuples
        The algorithms, e.g. ``[("FO", "perceptron", {}), ("SO", "second_order", {})]``.
    data : Dataset or (X, y) tuple
        Binary data (two labels; a Dataset's target u is the comparator under
        ``comparator="auto"`` or ``"target"``), or more labels: one-vs-rest runs
        (``bound_cells``).
    epochs : int, default=1
        Passes over the data.
    seeds : sequence of int or None, default=None
        None presents the rows in the order given; seed s runs with
        ``shuffle=True, seed=s``. Every algorithm sees the same sequences.
    gamma : float or None, default=None
        The bounds' margin; searched per bound when None (theory §4.3).
    comparator : {"auto", "target", "svm"}, default="auto"
        How :func:`~perceptron_bounds.bounds.evaluate` chooses u.
    n_jobs, progress, cache
        joblib workers over the (spec, seed) cells, a tqdm bar, the folder that
        keeps finished cells (see :func:`voted_epochs_curve`).

    Returns
    -------
    list of dict
        One record per (spec, seed, bound, variant): ``experiment``, ``label``,
        ``algorithm``, ``params`` (as resolved), ``seed``, ``n_trials``, then the
        bound's :meth:`~perceptron_bounds.bounds.BoundRow.to_record` (``name``,
        ``variant``, ``source``, ``value``, ``margin_gamma``, ``applies``,
        ``reason``, ``mistakes``, ``holds``, ``ratio`` = mistakes / value,
        ``comparator`` and the quantities the value came from).

    Examples
    --------
    >>> from perceptron_bounds.datasets import make_separable
    >>> data = make_separable(200, 5, margin=0.1, seed=0)
    >>> table = bound_ratios([("FO", "perceptron", {})], data)
    >>> all(row["holds"] for row in table if row["applies"])
    True
    """
    cells = bound_cells(specs, data, epochs=epochs, seeds=seeds, gamma=gamma,
                        comparator=comparator)
    return run_cached_cells(bounds_cell, cells, cache=cache, n_jobs=n_jobs, progress=progress,
                            desc="bound_ratios")


def bound_cells(specs, data, *, epochs: int = 1, seeds=None, gamma: float | None = None,
                comparator: str = "auto") -> list[dict]:
    """The cells of :func:`bound_ratios`: the keyword arguments of :func:`bounds_cell`, one
    dict per (spec, seed), checked; the data hashed once (``data_key``).

    Data with more than two labels make multiclass (one-vs-rest) runs, whose records are
    the bounds summed over the classes (``class`` None) and each class's (theory §4.5).
    Drifting data (a :class:`~perceptron_bounds.datasets.DriftingDataset`) give their
    target sequence U as the cells' ``sequence``, and no fixed target.
    """
    specs = as_specs(specs)
    X = check_X(data[0], name="data.X")
    multiclass = np.unique(np.asarray(data[1])).size > 2
    y, _ = (check_class_labels if multiclass else check_labels)(data[1], X.shape[0])
    drifting = isinstance(data, DriftingDataset)
    target = data[2] if len(data) > 2 and not drifting else None
    sequence = data.U if drifting else None
    key = data_key(X, y, target, sequence)
    return [
        {"X": X, "y": y, "data_key": key, "target": target, "sequence": sequence, "spec": spec,
         "epochs": epochs, "seed": seed, "gamma": gamma, "comparator": comparator,
         "version": __version__}
        for spec in specs
        for seed in check_seeds(seeds)
    ]


def bounds_cell(X, y, data_key, target, sequence, spec, epochs, seed, gamma, comparator,
                version) -> list[dict]:
    """One run of ``spec`` and its :func:`~perceptron_bounds.bounds.evaluate` report, as
    records (see :func:`bound_ratios`; ``data_key`` and ``version`` key the cache).

    A randomized algorithm, whose bounds hold for the expectation of its mistakes over
    the draws (theory §1.2, §4.11, §4.13), makes :data:`EXPECTATION_RUNS` runs, the draws
    of seeds ``seed``, ``seed + 1``, ... (0 when ``seed`` is None), binary or one-vs-rest
    alike, and the report holds their mean mistakes against the bounds (``evaluate`` of
    the runs: ``mean_mistakes``, ``stderr``, ``n_draws`` in the records; a bound in
    expectation is exceeded only beyond ``report.EXPECTATION_SIGMAS`` standard errors).

    A ``sequence`` (drifting data: one target per row of X) adds the shifting bounds against
    it (theory §4.15), presented trial by trial, to the report of a single binary run (the
    runs of a randomized algorithm have fixed-comparator bounds only: ``evaluate`` takes a
    sequence for one run).
    """
    shuffle = seed is not None
    runs = [run_online(spec.algorithm, X, y, epochs=epochs, shuffle=shuffle, seed=draw,
                       **spec.params)
            for draw in _draw_seeds(spec.algorithm, seed)]
    run = runs[0]
    u = sequence[run.sample_index] if sequence is not None and len(runs) == 1 else None
    report = evaluate(runs if len(runs) > 1 else run, X, y, u=u, gamma=gamma,
                      comparator=comparator, target=target)
    head = {
        "experiment": "bound_ratios",
        "label": spec.label,
        "algorithm": spec.algorithm,
        "params": plain(run.params),
        "seed": seed,
        "n_trials": run.n_trials,
    }
    return [{**head, **{key: _plain(value) for key, value in row.items()}}
            for row in report.to_records()]


def _draw_seeds(algorithm, seed) -> list:
    """The seeds of a cell's runs: :data:`EXPECTATION_RUNS` consecutive ones for a randomized
    algorithm, else ``[seed]``."""
    if not get(algorithm).randomized:
        return [seed]
    first = 0 if seed is None else seed
    return list(range(first, first + EXPECTATION_RUNS))


def _plain(value):
    """NumPy scalars as Python numbers, for CSV and JSON."""
    return value.item() if isinstance(value, np.generic) else value
