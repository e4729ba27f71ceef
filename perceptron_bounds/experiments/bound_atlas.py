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
import sys
import time

import numpy as np

from .._tables import run_label
from .._validation import check_bool, check_int, did_you_mean
from ..algorithms import attached, available, check_params, get
from ..datasets.catalog import Task, atlas_tasks
from ._cache import run_cached_cells
from ._cells import AlgorithmSpec, write_csv
from .bound_ratios import EXPECTATION_RUNS, bound_cells, bounds_cell

#: The columns of the atlas's records and CSV, in order.
ATLAS_COLUMNS = ("dataset", "task", "n_samples", "n_features", "algorithm", "setting",
                 "params", "kernel", "epochs", "mistakes", "bound", "variant", "value", "ratio",
                 "holds", "gamma", "comparator", "seconds", "reason", "expectation")

#: The kernels the atlas runs, by name, with their parameters: on rows of unit norm,
#: x . z, (x . z + 1)^3 and exp(-||x - z||^2) (theory §2.1, Mercer kernels). Every one is
#: passed to an algorithm with a kernel form, so that a cell runs the kernel it names
#: (not the algorithm's default kernel, e.g. the Randomized Budget Perceptron's poly).
KERNELS = {
    "linear": {"kernel": "linear"},
    "poly": {"kernel": "poly", "degree": 3, "gamma": 1.0, "coef0": 1.0},
    "rbf": {"kernel": "rbf", "gamma": 1.0},
}


#: The kind of record (:func:`~perceptron_bounds.registry.attach`) by which an algorithm
#: declares, beside its registration, the variants the atlas runs besides its registered
#: defaults: ``attach(name, "atlas", variants=(dict(variant="pa"), ...))``, each a dict of
#: parameters, which may name ``kernels``, the atlas kernels it runs under (default: every
#: one the algorithm runs under), e.g. ``dict(p=3.0, kernels=("linear",))``.
ATLAS_RECORD = "atlas"


def atlas_variants(algorithm: str, kernel: str) -> list[dict]:
    """The parameter settings the atlas runs for ``algorithm`` under ``kernel``: ``{}`` (the
    registered defaults) first, then each variant it declares (:data:`ATLAS_RECORD`) that
    runs under ``kernel``.

    Raises
    ------
    TypeError
        One line: a declared variant names a parameter the algorithm does not take.

    Examples
    --------
    >>> atlas_variants("passive_aggressive", "linear")
    [{}, {'variant': 'pa'}, {'variant': 'pa2'}]
    >>> atlas_variants("alma", "rbf")
    [{}]
    """
    out = [{}]
    for variant in attached(algorithm, ATLAS_RECORD).get("variants", ()):
        params = dict(variant)
        if kernel in params.pop("kernels", KERNELS):
            check_params(algorithm, params, where=f"{algorithm}'s atlas variant {variant}: ")
            out.append(params)
    return out


def setting_text(params: dict) -> str:
    """A variant's parameters as the atlas names them (the ``setting`` column); "" for the
    registered defaults.

    Examples
    --------
    >>> setting_text({"variant": "pa2"}), setting_text({"p": 3.0, "c": 0.0}), setting_text({})
    ('variant=pa2', 'p=3, c=0', '')
    """
    return ", ".join(f"{key}={value:g}" if isinstance(value, float) else f"{key}={value}"
                     for key, value in params.items())


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


def atlas_cells(tasks, algorithms, kernels, epochs, variants: bool = True) -> list[dict]:
    """The atlas's cells: the arguments of :func:`bounds_cell` (from
    :func:`~perceptron_bounds.experiments.bound_ratios.bound_cells`) and the ``head`` of
    the atlas's records, one per (task, algorithm and setting, kernel, epochs): each
    algorithm with its registered defaults and with each variant it declares
    (``atlas_variants``; the defaults only when ``variants`` is False). An algorithm
    without a kernel form runs only under ``linear``; a task only under its kernels
    (``Task.kernels``)."""
    cells = []
    for task in tasks:
        X = task.data.X
        for kernel in kernels:
            if task.kernels is not None and kernel not in task.kernels:
                continue
            specs, settings = [], {}
            for name in algorithms:
                if kernel != "linear" and not takes_kernel(name):
                    continue
                for params in atlas_variants(name, kernel) if variants else [{}]:
                    setting = setting_text(params)
                    label = run_label({"algorithm": name, "setting": setting})
                    settings[label] = setting or None
                    specs.append(AlgorithmSpec(label, name, {
                        **(KERNELS[kernel] if takes_kernel(name) else {}), **params}))
            if not specs:
                continue
            for passes in epochs:
                for cell in bound_cells(specs, task.data, epochs=passes):
                    head = {"dataset": task.dataset, "task": task.task,
                            "n_samples": X.shape[0], "n_features": X.shape[1],
                            "kernel": kernel, "epochs": passes,
                            "setting": settings[cell["spec"].label]}
                    cells.append({**cell, "head": head})
    return cells


def atlas_cell(X, y, data_key, target, sequence, spec, epochs, seed, gamma, comparator,
               version, head) -> list[dict]:
    """One cell of the atlas: :func:`bounds_cell` timed, its rows as atlas records.

    A one-vs-rest run keeps its rows summed over the classes (theory §4.5), which bound
    its corrections; ``seconds`` is the wall time of the run and its bounds together.
    """
    start = time.perf_counter()
    rows = bounds_cell(X, y, data_key, target, sequence, spec, epochs, seed, gamma, comparator,
                       version)
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
                quick: bool = False, variants: bool | None = None, data_home=None,
                download: bool = False, n_jobs: int | None = None, progress: bool = False,
                cache=None) -> list[dict]:
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
    variants : bool or None, default=None
        Run the variants each algorithm declares (``atlas_variants``) besides its
        registered defaults; None: unless ``quick`` (a quick atlas is a smoke test of every
        algorithm, in seconds).
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
    variants = not quick if variants is None else check_bool("variants", variants)
    cells = atlas_cells(tasks, algorithms, kernels, epochs, variants)
    families: dict[tuple, list[dict]] = {}
    for cell in cells:
        families.setdefault((cell["head"]["dataset"], cell["head"]["kernel"]), []).append(cell)
    work = {family: sum(map(cell_work, group)) for family, group in families.items()}
    spent: dict[str, list[float]] = {}  # kernel -> [seconds, work] of its families so far
    records = []
    for (dataset, kernel), group in families.items():
        if progress:
            print(f"atlas: {dataset} · {kernel}: {len(group)} runs, "
                  f"{_estimate(spent, kernel, work[dataset, kernel])}", file=sys.stderr,
                  flush=True)
        start = time.perf_counter()
        records += run_cached_cells(atlas_cell, group, cache=cache, n_jobs=n_jobs,
                                    progress=progress, desc=f"atlas {dataset} · {kernel}")
        seconds = time.perf_counter() - start
        total = spent.setdefault(kernel, [0.0, 0.0])
        total[0] += seconds
        total[1] += work.pop((dataset, kernel))
        if progress and work:
            rest = sum(_rate(spent, k) * w for (_, k), w in work.items())
            print(f"atlas: {dataset} · {kernel} took {seconds:.0f} s; the rest, about "
                  f"{rest:.0f} s", file=sys.stderr, flush=True)
    return records


def cell_work(cell) -> float:
    """A cell's work, the unit of the atlas's estimates: its trials (rows times passes)
    times its binary runs (K for a one-vs-rest run of K classes) times its draws
    (``bound_ratios.EXPECTATION_RUNS`` for a randomized algorithm)."""
    labels = np.unique(cell["y"]).size
    draws = EXPECTATION_RUNS if get(cell["spec"].algorithm).randomized else 1
    return float(cell["X"].shape[0] * cell["epochs"] * (labels if labels > 2 else 1) * draws)


def _rate(spent: dict, kernel: str) -> float:
    """Seconds per unit of work (:func:`cell_work`) of the families run so far under
    ``kernel``, or under any kernel when none has run under it."""
    seconds, work = spent.get(kernel) or [sum(v[i] for v in spent.values()) for i in (0, 1)]
    return seconds / max(work, 1.0)


def _estimate(spent: dict, kernel: str, work: float) -> str:
    """The estimate printed before a family runs, from the families run so far."""
    if not spent:
        return "no estimate before the first family has run"
    return f"about {_rate(spent, kernel) * work:.0f} s at the rate of the families so far"


def write_atlas_csv(records, path) -> str:
    """Write the atlas's records as CSV with the columns :data:`ATLAS_COLUMNS`; the path."""
    return write_csv([{key: record[key] for key in ATLAS_COLUMNS} for record in records], path)


def read_atlas_csv(path) -> list[dict]:
    """The records of an atlas CSV (:func:`write_atlas_csv`), typed back: numbers as numbers,
    ``holds`` as bool, empty cells as None.

    Raises
    ------
    ValueError
        A file whose header is not :data:`ATLAS_COLUMNS` (nor those of an atlas written
        before the ``setting`` column, whose rows all ran the registered defaults).
    """
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        columns = tuple(reader.fieldnames or ())
        if columns not in (ATLAS_COLUMNS, _BEFORE_SETTINGS):
            raise ValueError(f"{path}: not an atlas CSV (its columns are {reader.fieldnames})")
        return [{**_typed(row), "setting": row.get("setting") or None} for row in reader]


# The columns of an atlas CSV written before the variants (issue 35).
_BEFORE_SETTINGS = tuple(column for column in ATLAS_COLUMNS if column != "setting")


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
    """Per (data set, task, algorithm and setting, kernel, epochs): the record of the tightest bound
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
        key = (row["dataset"], row["task"], run_label(row), row["kernel"], row["epochs"])
        held = best.get(key)
        ratio = -math.inf if row["value"] is None else row["ratio"]
        if held is None or ratio > (-math.inf if held["value"] is None else held["ratio"]):
            best[key] = row
    return list(best.values())
