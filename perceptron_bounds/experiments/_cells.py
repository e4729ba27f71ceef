"""What every experiment shares: algorithm specs, the parallel runner, tidy tables.

An experiment is a list of independent cells (algorithm, parameter, seed);
each cell is a pure function of its arguments that returns a list of records
(dicts of plain Python values). :func:`run_cells` runs them through joblib and
concatenates the records in cell order, so the table is the same whatever
``n_jobs`` or joblib backend runs it.
"""

from __future__ import annotations

import contextlib
import csv
import json
import math
import os
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from .._files import replacing
from .._progress import bar
from .._sequence import check_seed
from .._validation import check_bool, check_class_labels, check_int, check_labels, check_X
from ..registry import check_params


@dataclass(frozen=True)
class AlgorithmSpec:
    """One curve of an experiment: a legend label, an algorithm and its parameters.

    Parameters
    ----------
    label : str
        The name shown in tables and legends, in the papers' notation
        (``"FO"``, ``"SO(0.2)"``, ``"HO_4(0.4)"``).
    algorithm : str
        A name from ``perceptron_bounds.algorithms.available()``.
    params : dict, default={}
        Keyword parameters passed to ``run_online``.
    """

    label: str
    algorithm: str
    params: dict = field(default_factory=dict)


def as_specs(specs) -> list[AlgorithmSpec]:
    """Accept AlgorithmSpec objects or ``(label, algorithm[, params])`` tuples."""
    if isinstance(specs, (AlgorithmSpec, str)) or not isinstance(specs, Iterable):
        raise TypeError(
            "specs must be a list of AlgorithmSpec or (label, algorithm, params) tuples, "
            f"got {type(specs).__name__}"
        )
    out = []
    for spec in specs:
        if not isinstance(spec, AlgorithmSpec):
            if not isinstance(spec, tuple) or len(spec) not in (2, 3):
                raise TypeError(
                    f"each spec must be an AlgorithmSpec or a (label, algorithm[, params]) "
                    f"tuple, got {spec!r}"
                )
            spec = AlgorithmSpec(*spec)
        if not isinstance(spec.label, str) or not isinstance(spec.params, dict):
            raise TypeError(f"spec label must be a str and params a dict, got {spec!r}")
        check_params(spec.algorithm, spec.params, where=f"spec {spec.label!r}: ")
        out.append(spec)
    if not out:
        raise ValueError("specs is empty: give at least one algorithm")
    labels = [spec.label for spec in out]
    if len(set(labels)) != len(labels):
        raise ValueError(f"spec labels must be distinct, got {labels}")
    return out


def as_xy(data, name: str, *, multiclass: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Validated ``(X, y)`` from a Dataset or an ``(X, y[, u])`` tuple.

    y in -1/+1; with ``multiclass=True``, K >= 2 labels as class indices 0..K-1
    (theory §2.6; two classes give 0/1, which runs map to -1/+1 alike).
    """
    if not isinstance(data, tuple) or len(data) not in (2, 3):
        raise TypeError(f"{name} must be a Dataset or an (X, y) tuple, got {type(data).__name__}")
    X = check_X(data[0], name=f"{name}.X")
    check = check_class_labels if multiclass else check_labels
    y, _ = check(data[1], X.shape[0])
    return X, y


def check_seeds(seeds, *, allow_none: bool = True) -> list[int | None]:
    """A non-empty list of seeds (None or non-negative ints); None alone means [None]."""
    if seeds is None and allow_none:
        return [None]
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Iterable):
        raise TypeError(f"seeds must be a list of non-negative integers, got {seeds!r}")
    seeds = [check_seed(seed) for seed in seeds]
    if not seeds or (not allow_none and None in seeds):
        raise ValueError(f"seeds must be a non-empty list of non-negative integers, got {seeds}")
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct, got {seeds}")
    return seeds


def check_levels(name: str, values, *, low: float = 0.0, high: float | None = None) -> list[float]:
    """A non-empty list of finite reals in [low, high]."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(f"{name} must be a list of numbers, got {values!r}")
    out = [float(v) for v in np.asarray(list(values), dtype=np.float64).ravel()]
    if not out:
        raise ValueError(f"{name} is empty")
    bad = [v for v in out if not math.isfinite(v) or v < low or (high is not None and v > high)]
    if bad:
        upper = "inf)" if high is None else f"{high:g}]"
        raise ValueError(f"{name} must lie in [{low:g}, {upper}, got {bad[0]!r}")
    return out


def check_n_jobs(n_jobs) -> int | None:
    """None (joblib's configured default) or a nonzero integer (negative counts from the top)."""
    if n_jobs is None:
        return None
    n_jobs = check_int("n_jobs", n_jobs)
    if n_jobs == 0:
        raise ValueError("n_jobs must be a nonzero integer or None, got 0")
    return n_jobs


def run_cells(
    function: Callable[..., list[dict]],
    cells: Sequence[dict],
    *,
    n_jobs: int | None,
    progress: bool,
    desc: str,
) -> list[dict]:
    """Run ``function(**cell)`` for every cell through joblib; records in cell order.

    ``n_jobs=None`` takes the count set by ``joblib.parallel_config`` (1 when
    none is set), so a caller can move the sweep to a Dask cluster with
    ``joblib.parallel_config(backend="dask")``. ``progress`` shows a tqdm bar
    over the cells (under the command line off a terminal, a line every 10 s).
    """
    from joblib import Parallel, delayed

    n_jobs = check_n_jobs(n_jobs)
    progress = check_bool("progress", progress)
    tasks = (delayed(function)(**cell) for cell in cells)
    with workers_replaced_quietly():
        if progress:
            results = bar(len(cells), desc, "run",
                          Parallel(n_jobs=n_jobs, return_as="generator")(tasks))
        else:
            results = Parallel(n_jobs=n_jobs)(tasks)
        return [record for records in results for record in records]


#: What loky (joblib's default backend) warns when it replaces a worker while cells wait:
#: with psutil installed, a worker whose resident memory grew by more than 300 MB since its
#: first cell, which loky takes for a leak (or one idle for 300 s, which no waiting cell
#: leaves). A worker grows so by the compiled loops it loads once each, up to 90 MB per
#: algorithm and kernel (measured on the quick atlas with three kernels: 231 -> 535 MB over
#: its cells, the warning twice): not a leak. The worker stops after returning its cell's
#: records, so no cell is lost or run twice and the records are the same; the replacement
#: costs one worker's start-up. Nothing for a user to act on.
WORKER_REPLACED = "A worker stopped while some jobs were given to the executor"


@contextlib.contextmanager
def workers_replaced_quietly():
    """Within the block, loky's warning :data:`WORKER_REPLACED` is not shown (only that one)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=WORKER_REPLACED, category=UserWarning)
        yield


def write_csv(records: Sequence[dict], path) -> str:
    """Write records as CSV (columns in first-seen order; dict values as JSON); return the path.

    The file is written under a temporary name and renamed when complete.
    """
    columns: list[str] = []
    for record in records:
        columns.extend(key for key in record if key not in columns)
    path = os.fspath(path)
    with replacing(path) as temp, open(temp, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        for record in records:
            writer.writerow(
                {
                    key: json.dumps(value, sort_keys=True) if isinstance(value, dict) else value
                    for key, value in record.items()
                }
            )
    return path


def plain(params: dict) -> dict:
    """Parameters as plain Python values (NumPy scalars unwrapped), for tidy records."""
    return {
        key: value.item() if isinstance(value, np.generic) else value
        for key, value in params.items()
    }
