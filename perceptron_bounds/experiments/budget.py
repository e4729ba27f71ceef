"""Kernel Perceptrons on a budget against the budget B: test error, mistakes and bounds.

One record per (algorithm, budget, seed): the run's mistakes and supports
held, its error on held-out data, and its smallest bound that applies
(:func:`~perceptron_bounds.bounds.evaluate`, the comparator and margin that
make each bound smallest, theory §4.3). An algorithm without a budget (the
kernel Perceptron) is run once per seed, with ``budget`` None.
"""

from __future__ import annotations

import numpy as np

from .._progress import bar
from ..bounds import evaluate
from ..online import run_online


def budget_curve(budgeted, unbudgeted, train, test, budgets, *, kernel: dict, seeds=None,
                 progress: bool = False) -> list[dict]:
    """Test error, mistakes and the best bound of each algorithm for each budget B.

    Parameters
    ----------
    budgeted : mapping of str to callable (B: int) -> dict
        Each budget algorithm's registered name and its parameters for the budget B
        (e.g. ``{"forgetron": lambda B: {"budget": B}}``).
    unbudgeted : sequence of str
        Algorithms run without a budget, once per seed (e.g. ``["perceptron"]``).
    train, test : (X, y) tuples
        Binary data: the online run on ``train``, the error on ``test``.
    budgets : sequence of int
        The budgets B.
    kernel : dict
        The kernel parameters of every run (``kernel``, ``degree``, ``gamma``, ``coef0``).
    seeds : sequence of int or None, default=None
        None: the rows in the order given, the draws of seed 0; seed s: a pass in the
        permutation of seed s, the draws of seed s.
    progress : bool, default=False
        A progress bar over the runs.

    Returns
    -------
    list of dict
        ``label``, ``algorithm``, ``budget`` (None for the unbudgeted), ``order``
        (``"given"``: the rows in the order given, or ``"shuffled"``), ``seed`` (of the
        permutation and the algorithm's draws: 0 in the order given), ``mistakes``, ``supports``, ``test_error``, ``bound`` (inf if none applies),
        ``bound_name``, ``bound_variant``, ``bound_ratio`` (mistakes / bound).
    """
    cells = [(name, B, params(B)) for name, params in budgeted.items() for B in budgets]
    cells += [(name, None, {}) for name in unbudgeted]
    seed_list = [None] if seeds is None else list(seeds)
    records = []
    X, y = train
    X_test, y_test = test
    done = bar(len(cells) * len(seed_list), "budget", "run") if progress else None
    try:
        for name, B, params in cells:
            for seed in seed_list:
                run = run_online(name, X, y, shuffle=seed is not None,
                                 seed=0 if seed is None else seed, **kernel, **params)
                rows = [row for row in evaluate(run, X, y).rows if row.applies]
                best = min(rows, key=lambda row: row.value, default=None)
                records.append({
                    "label": name, "algorithm": name, "budget": B,
                    "order": "given" if seed is None else "shuffled",
                    "seed": 0 if seed is None else seed,
                    "mistakes": run.mistakes, "supports": int(run.support_vectors.shape[0]),
                    "test_error": float(np.mean(run.predict(X_test) != y_test)),
                    "bound": np.inf if best is None else float(best.value),
                    "bound_name": "" if best is None else best.name,
                    "bound_variant": "" if best is None else best.variant,
                    "bound_ratio": 0.0 if best is None else run.mistakes / best.value,
                })
                if done is not None:
                    done.update(1)
    finally:
        if done is not None:
            done.close()
    return records
