"""Selective sampling: labels asked for against mistakes, test error and the expected bound.

For each query parameter b, each selective-sampling algorithm (theory §2.14) runs
with several seeds (its draws and, with ``shuffle``, its order); its fully
supervised counterpart runs with the same seeds. Each record is one run: the
fraction of labels queried, the online mistakes and, on held-out data, the test
error of the final hypothesis, beside the smallest bound of the algorithm on the
mean mistakes over the seeds (``evaluate`` over the list of runs, theory §4.13).
"""

from __future__ import annotations

import numpy as np

from .._validation import check_int, check_real
from ..bounds import evaluate
from ..online import run_online
from ..registry import attached, get
from ._cells import as_xy, check_levels, check_n_jobs, check_seeds, plain, run_cells

#: Each selective-sampling algorithm and its fully supervised counterpart.
PAIRS = (("selective_perceptron", "perceptron"), ("selective_second_order", "second_order"))


def selective_curve(b_values, data, *, test=None, u=None, a=1.0, epochs=1, seeds=(0, 1, 2),
                    shuffle=True, pairs=PAIRS, n_jobs=None, progress=False) -> list[dict]:
    """Labels queried, mistakes, test error and the expected-mistake bound against b.

    Parameters
    ----------
    b_values : sequence of float
        The query parameters b > 0 (theory §2.14).
    data : Dataset or (X, y) tuple
        The training sequence, two labels.
    test : Dataset or (X, y) tuple, optional
        Held-out data: the records then hold the final hypothesis' test error.
    u : ndarray or sequence of ndarray, optional
        The comparator(s) of the bounds (unit norm is imposed by ``evaluate``); the
        smallest bound over them is recorded. None: no bound is recorded.
    a : float, default=1.0
        The Second-Order parameter a > 0, for the algorithms that take it.
    epochs : int, default=1
        Passes over the data.
    seeds : sequence of int, default=(0, 1, 2)
        One run per seed: the draws of the selective algorithms and, with
        ``shuffle``, the order of every run.
    shuffle : bool, default=True
        Present each epoch in a permutation drawn from the seed.
    pairs : sequence of (str, str), default=PAIRS
        (selective algorithm, its supervised counterpart).
    n_jobs : int or None, default=None
        joblib workers over the (algorithm, b) cells.
    progress : bool, default=False
        A progress bar over the cells.

    Returns
    -------
    list of dict
        One record per run: ``experiment``, ``algorithm``, ``pair`` (the selective
        algorithm of its pair), ``label`` (its display name), ``supervised`` (bool),
        ``b`` (None when supervised), ``seed``, ``params``, ``n_trials``, ``queried``,
        ``query_rate`` (queried / T; 1 when supervised), ``mistakes``,
        ``mistake_rate``, ``test_error`` (None without ``test``), and, the same for
        every seed of a cell, ``bound`` (the smallest applicable bound on the mean
        mistakes, in expectation over the draws for a selective algorithm; None
        without ``u`` or when none applies), ``bound_name``, ``bound_rate``
        (bound / T).

    Examples
    --------
    >>> from perceptron_bounds.datasets import make_separable
    >>> X, y, u = make_separable(200, 5, margin=0.1, seed=0)
    >>> table = selective_curve([0.1, 1.0], (X, y), u=u, seeds=[0, 1],
    ...                         pairs=[("selective_perceptron", "perceptron")])
    >>> [(row["b"], row["supervised"]) for row in table][::2]
    [(0.1, False), (1.0, False), (None, True)]
    >>> all(row["query_rate"] <= 1.0 and row["bound"] > 0 for row in table)
    True
    """
    b_values = check_levels("b_values", b_values)
    if min(b_values) <= 0.0:
        raise ValueError(f"b_values must be > 0, got {b_values}")
    X, y = as_xy(data, "data")
    test = None if test is None else as_xy(test, "test")
    a = check_real("a", a, low=0.0, include_low=False)
    epochs = check_int("epochs", epochs, low=1)
    seeds = check_seeds(seeds, allow_none=False)
    check_n_jobs(n_jobs)
    comparators = [] if u is None else [np.asarray(v, dtype=np.float64)
                                        for v in (u if isinstance(u, list | tuple) else [u])]
    base = {"X": X, "y": y, "test": test, "comparators": comparators, "a": a,
            "epochs": epochs, "seeds": seeds, "shuffle": bool(shuffle)}
    cells = [{**base, "algorithm": name, "pair": name, "b": b}
             for name, _ in pairs for b in b_values]
    cells += [{**base, "algorithm": supervised, "pair": name, "b": None}
              for name, supervised in pairs]
    return run_cells(_cell, cells, n_jobs=n_jobs, progress=progress, desc="selective_curve")


def _cell(X, y, test, comparators, a, epochs, seeds, shuffle, algorithm, pair, b) -> list[dict]:
    spec = get(algorithm)
    params = {"a": a} if "a" in spec.defaults else {}
    if b is not None:
        params["b"] = b
    runs = [run_online(algorithm, X, y, epochs=epochs, shuffle=shuffle, seed=seed, **params)
            for seed in seeds]
    bound, bound_name = _smallest_bound(runs, X, y, comparators)
    records = []
    for seed, run in zip(seeds, runs, strict=True):
        test_error = (None if test is None
                      else float(np.mean(run.predict(test[0]) != test[1])))
        records.append({
            "experiment": "selective_curve", "algorithm": algorithm, "pair": pair,
            "label": attached(algorithm, "presentation").get("display_name") or algorithm,
            "supervised": b is None, "b": b,
            "seed": seed, "params": plain(run.params), "n_trials": run.n_trials,
            "queried": run.queried, "query_rate": run.queried / run.n_trials,
            "mistakes": run.mistakes, "mistake_rate": run.mistakes / run.n_trials,
            "test_error": test_error, "bound": bound, "bound_name": bound_name,
            "bound_rate": None if bound is None else bound / run.n_trials,
        })
    return records


def _smallest_bound(runs, X, y, comparators) -> tuple[float | None, str | None]:
    """The smallest applicable bound on the runs' mean mistakes over the comparators."""
    best = (None, None)
    for u in comparators:
        for row in evaluate(runs, X, y, u=u).rows:
            if row.applies and (best[0] is None or row.value < best[0]):
                best = (row.value, f"{row.name} ({row.variant})")
    return best
