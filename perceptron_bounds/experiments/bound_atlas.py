"""The bound atlas: every registered algorithm, every bound that applies to it, on every
data set, as one tidy table (issue 25).

One cell per (data set, task, algorithm, kernel, epochs): the cell of
:func:`~perceptron_bounds.experiments.bound_ratios` (one run, then
:func:`~perceptron_bounds.bounds.evaluate` with the comparator and margin that make each
bound smallest, theory §4.3), timed, its rows renamed to the atlas's columns
(:data:`ATLAS_COLUMNS`). The algorithms and their bounds are read from the registry, so
an algorithm registered later appears by itself; a bound that does not apply to a run is
a row with an empty value and its reason.
"""

from __future__ import annotations

import csv
import json
import math
import time

from .._validation import check_bool, check_int, did_you_mean
from ..algorithms import available, get
from ..datasets.catalog import Task, atlas_tasks
from ._cache import run_cached_cells
from ._cells import AlgorithmSpec, write_csv
from .bound_ratios import bound_cells, bounds_cell

#: The columns of the atlas's records and CSV, in order.
ATLAS_COLUMNS = ("dataset", "task", "n_samples", "n_features", "algorithm", "params",
                 "kernel", "epochs", "mistakes", "bound", "variant", "value", "ratio", "holds",
                 "gamma", "comparator", "seconds", "reason", "expectation")

#: The kernels the atlas runs, by name, with their parameters: on rows of unit norm,
#: x . z, (x . z + 1)^3 and exp(-||x - z||^2) (theory §2.1, Mercer kernels). Every one is
#: passed to an algorithm with a kernel form, so that a cell runs the kernel it names
#: (not the algorithm's default kernel, e.g. the Randomized Budget Perceptron's poly).
KERNELS = {
    "linear": {"kernel": "linear"},
    "poly": {"kernel": "poly", "degree": 3, "gamma": 1.0, "coef0": 1.0},
    "rbf": {"kernel": "rbf", "gamma": 1.0},
}


def takes_kernel(algorithm: str) -> bool:
    """Whether the registered ``algorithm`` has a kernel (dual) form: a ``kernel`` parameter."""
    return "kernel" in get(algorithm).defaults


def check_atlas_options(algorithms=None, kernels=("linear",), epochs=(1,)):
    """The atlas's algorithms, kernels and epochs, checked before anything loads or runs.

    Returns
    -------
    algorithms : list of str
        None gives every registered algorithm.
    kernels : list of str
        Names of :data:`KERNELS`.
    epochs : list of int
        Each >= 1.

    Raises
    ------
    ValueError
        One line: an unknown algorithm or kernel (with the closest name suggested), an
        algorithm named in ``algorithms`` that takes no kernel asked for one, no epochs.
    """
    known = available()
    explicit = algorithms is not None
    algorithms = known if algorithms is None else _names("algorithms", algorithms, known)
    kernels = _names("kernels", kernels, list(KERNELS))
    if isinstance(epochs, int):
        epochs = [epochs]
    epochs = list(dict.fromkeys(check_int("epochs", e, low=1) for e in epochs))
    if not epochs:
        raise ValueError("epochs is empty: give at least one number of passes, e.g. 1")
    others = [kernel for kernel in kernels if kernel != "linear"]
    if explicit and others:
        for name in algorithms:
            if not takes_kernel(name):
                raise ValueError(f"kernels: {name} takes no kernel (it has no dual form), "
                                 f"asked for {', '.join(others)}; leave it out or ask for "
                                 "linear only")
    return algorithms, kernels, epochs


def _names(what: str, names, known) -> list[str]:
    if isinstance(names, str):
        names = [names]
    names = list(dict.fromkeys(names))
    for name in names:
        if name not in known:
            raise ValueError(f"{what}: unknown name {name!r}{did_you_mean(name, known)} "
                             f"(choose from {', '.join(known)})")
    if not names:
        raise ValueError(f"{what} is empty")
    return names


def atlas_cells(tasks, algorithms, kernels, epochs) -> list[dict]:
    """The atlas's cells: the arguments of :func:`bounds_cell` (from
    :func:`~perceptron_bounds.experiments.bound_ratios.bound_cells`) and the ``head`` of
    the atlas's records, one per (task, algorithm, kernel, epochs). An algorithm without
    a kernel form runs only under ``linear``."""
    cells = []
    for task in tasks:
        X = task.data.X
        for kernel in kernels:
            specs = [AlgorithmSpec(name, name, dict(KERNELS[kernel]) if takes_kernel(name) else {})
                     for name in algorithms if kernel == "linear" or takes_kernel(name)]
            if not specs:
                continue
            for passes in epochs:
                for cell in bound_cells(specs, task.data, epochs=passes):
                    head = {"dataset": task.dataset, "task": task.task,
                            "n_samples": X.shape[0], "n_features": X.shape[1],
                            "kernel": kernel, "epochs": passes}
                    cells.append({**cell, "head": head})
    return cells


def atlas_cell(X, y, data_key, target, spec, epochs, seed, gamma, comparator, version,
               head) -> list[dict]:
    """One cell of the atlas: :func:`bounds_cell` timed, its rows as atlas records.

    A one-vs-rest run keeps its rows summed over the classes (theory §4.5), which bound
    its corrections; ``seconds`` is the wall time of the run and its bounds together.
    """
    start = time.perf_counter()
    rows = bounds_cell(X, y, data_key, target, spec, epochs, seed, gamma, comparator, version)
    seconds = round(time.perf_counter() - start, 3)
    records = []
    for row in rows:
        if row.get("class") is not None:
            continue
        record = {
            **head, "algorithm": row["algorithm"],
            "params": json.dumps(row["params"], sort_keys=True, default=str),
            "mistakes": row["mistakes"], "bound": row["name"], "variant": row["variant"],
            "value": row["value"], "ratio": row["ratio"], "holds": row["holds"],
            "gamma": row["margin_gamma"], "comparator": row["comparator"],
            "seconds": seconds, "reason": row["reason"],
            "expectation": bool(row.get("expectation", False)),
        }
        records.append({key: record[key] for key in ATLAS_COLUMNS})
    return records


def bound_atlas(data=None, *, algorithms=None, kernels=("linear",), epochs=(1,),
                quick: bool = False, data_home=None, download: bool = False,
                n_jobs: int | None = None, progress: bool = False, cache=None) -> list[dict]:
    """Every registered algorithm's mistakes against every bound, on every data set.

    Parameters
    ----------
    data : list of str or Task, or None, default=None
        Data set names, group names and data files
        (:func:`~perceptron_bounds.datasets.catalog.atlas_tasks`), or tasks already made;
        None: every synthetic and scikit-learn set and the real sets in the data home.
    algorithms : list of str or None, default=None
        Registered names; None: every one (``perceptron_bounds.algorithms.available()``).
    kernels : list of str, default=("linear",)
        Among ``KERNELS`` (linear, poly, rbf); an algorithm without a kernel form runs
        under ``linear`` only (naming it in ``algorithms`` with another kernel is an error).
    epochs : list of int, default=(1,)
        Passes over the data, in the order given (no shuffling).
    quick : bool, default=False
        Reduced sizes (the data sets' quick sizes).
    data_home, download
        The real data sets' folder and whether a missing one is fetched.
    n_jobs, progress, cache
        joblib workers over the cells (under ``joblib.parallel_config(backend="dask")`` a
        Dask cluster's), a progress bar, and the folder that keeps every finished cell (a
        second call recomputes nothing; an interrupted one resumes).

    Returns
    -------
    list of dict
        One record per (data set, task, algorithm, kernel, epochs, bound, variant), with
        the keys :data:`ATLAS_COLUMNS`: ``ratio = mistakes / value`` and ``holds =
        mistakes <= value`` (up to the rounding of the bound's arithmetic); ``value``,
        ``ratio``, ``holds`` and ``gamma`` are None, and ``reason`` says why, for a bound
        that does not apply; ``params`` is the run's resolved parameters as JSON;
        ``expectation`` is True for a bound on the expected mistakes over a randomized
        algorithm's draws (theory §4.13): ``mistakes`` is then the mean over
        ``bound_ratios.EXPECTATION_RUNS`` runs, binary or one-vs-rest, and ``holds`` is
        False only beyond ``report.EXPECTATION_SIGMAS`` standard errors of the mean excess
        (mistakes minus bound).

    Examples
    --------
    >>> rows = bound_atlas(["iris"], algorithms=["perceptron"], quick=True)
    >>> sorted({row["task"] for row in rows})
    ['3-class', 'setosa-vs-rest']
    >>> all(row["holds"] for row in rows if row["value"] is not None)
    True
    """
    algorithms, kernels, epochs = check_atlas_options(algorithms, kernels, epochs)
    check_bool("progress", progress)
    if data is not None and not isinstance(data, str) and all(isinstance(t, Task) for t in data):
        tasks = list(data)
    else:
        tasks, _ = atlas_tasks(data, quick=quick, data_home=data_home, download=download)
    cells = atlas_cells(tasks, algorithms, kernels, epochs)
    return run_cached_cells(atlas_cell, cells, cache=cache, n_jobs=n_jobs, progress=progress,
                            desc="atlas")


def write_atlas_csv(records, path) -> str:
    """Write the atlas's records as CSV with the columns :data:`ATLAS_COLUMNS`; the path."""
    return write_csv([{key: record[key] for key in ATLAS_COLUMNS} for record in records], path)


def read_atlas_csv(path) -> list[dict]:
    """The records of an atlas CSV (:func:`write_atlas_csv`), typed back: numbers as numbers,
    ``holds`` as bool, empty cells as None.

    Raises
    ------
    ValueError
        A file whose header is not :data:`ATLAS_COLUMNS`.
    """
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != ATLAS_COLUMNS:
            raise ValueError(f"{path}: not an atlas CSV (its columns are {reader.fieldnames})")
        return [_typed(row) for row in reader]


_INTS = ("n_samples", "n_features", "epochs")
# mistakes are a count, or a mean over the runs of a randomized algorithm (bounds_cell)
_FLOATS = ("value", "ratio", "gamma", "seconds", "mistakes")


def _typed(row: dict) -> dict:
    out = {}
    for key, text in row.items():
        if text == "":
            out[key] = None
        elif key in _INTS:
            out[key] = int(text)
        elif key in _FLOATS:
            number = float(text)
            out[key] = int(number) if key == "mistakes" and number.is_integer() else number
        elif key in ("holds", "expectation"):
            out[key] = text == "True"
        else:
            out[key] = text
    return out


def tightest(records) -> list[dict]:
    """Per (data set, task, algorithm, kernel, epochs): the record of the tightest bound
    that applies (the largest ratio mistakes / value), or, when none applies, the first
    record with ``value`` None (its reason says why).

    Examples
    --------
    >>> rows = [{"dataset": "d", "task": "t", "algorithm": "a", "kernel": "linear",
    ...          "epochs": 1, "bound": b, "ratio": r, "value": v}
    ...         for b, r, v in (("x", 0.2, 5.0), ("y", 0.5, 2.0), ("z", None, None))]
    >>> [row["bound"] for row in tightest(rows)]
    ['y']
    """
    best: dict[tuple, dict] = {}
    for row in records:
        key = (row["dataset"], row["task"], row["algorithm"], row["kernel"], row["epochs"])
        held = best.get(key)
        ratio = -math.inf if row["value"] is None else row["ratio"]
        if held is None or ratio > (-math.inf if held["value"] is None else held["ratio"]):
            best[key] = row
    return list(best.values())
