"""Comparator fits and ``evaluate`` on rows of norms from 1e-150 to 1e150 (issue 31, item 6).

Target (issue 31): every comparator fit and every ``evaluate`` on 20 x 3 data with rows
from 1e-150 to 1e150 returns within 10 s (liblinear's primal solver never returned on a
row of norm 1e150).

Data: ``--sets`` seeded 20 x 3 Gaussian sets, labels sign(x . (1, -0.5, 0.2)), each row
scaled by 10^U(-150, 150), and issue 31's set (one row times 1e150). For each set, the
wall time of:

* ``svm``: ``svm_comparators`` (five ``LinearSVC`` fits) and ``crammer-singer``:
  ``crammer_singer_comparators`` on three classes (labels by the sign of two directions);
* ``evaluate <algorithm>``: ``evaluate(run, X, y)`` of every registered binary
  algorithm's linear run, and of the rbf-kernel Perceptron and Projectron (a ``poly``
  kernel is refused on such rows with a one-line error, as the theory page says);

against the baseline of the same calls on the same sets with every row scaled to unit
norm (measured in the same process, after a warm-up that excludes the Numba compile).
Prints the largest time of each call and its ratio to the baseline's.

Run: ``python benchmarks/bench_extreme_rows.py [--sets 5]``.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from perceptron_bounds import registry, run_online
from perceptron_bounds.bounds import evaluate
from perceptron_bounds.bounds.search import crammer_singer_comparators, svm_comparators
from perceptron_bounds.kernels import Kernel

TARGET_SECONDS = 10.0
KERNEL_RUNS = [("perceptron", {"kernel": "rbf", "gamma": 0.5}),
               ("projectron", {"kernel": "rbf", "gamma": 0.5})]


def _sets(count: int) -> list:
    """(name, X, y) of the issue's set and ``count`` seeded sets of mixed row scales."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((20, 3))
    y = np.sign(X @ [1.0, -0.5, 0.2])
    X[3] *= 1e150
    out = [("issue 31", X, y)]
    for seed in range(count):
        rng = np.random.default_rng(seed + 1)
        X = rng.standard_normal((20, 3))
        y = np.sign(X @ [1.0, -0.5, 0.2])
        out.append((f"seed {seed + 1}", X * 10.0 ** rng.uniform(-150, 150, size=(20, 1)), y))
    return out


def _calls(X, y) -> dict:
    """Every comparator fit and every evaluate on (X, y), by name."""
    classes = (X @ [1.0, 0.0, 0.0] > 0).astype(np.int64) + (X @ [0.0, 1.0, 0.0] > 0)
    calls = {"svm": lambda: svm_comparators(X, y, Kernel()),
             "crammer-singer": lambda: crammer_singer_comparators(X, classes, 3, Kernel())}
    setups = [(name, {"budget": 5} if "budget" in registry.get(name).defaults else {})
              for name in registry.available()]
    for algorithm, params in setups + KERNEL_RUNS:
        label = f"evaluate {algorithm}" + (f" {params['kernel']}" if "kernel" in params else "")

        def call(algorithm=algorithm, params=params):
            try:
                run = run_online(algorithm, X, y, epochs=2, seed=0, **params)
                evaluate(run, X, y)
            except ValueError as error:  # a one-line refusal is an answer
                return str(error)
            return None

        calls[label] = call
    return calls


def _unit_rows(X):
    """X with every row scaled to unit norm (by its largest entry first: no overflow)."""
    Z = X / np.abs(X).max(axis=1, keepdims=True)
    return Z / np.linalg.norm(Z, axis=1, keepdims=True)


def _timed(func) -> float:
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=5)
    args = parser.parse_args()
    sets = _sets(args.sets)
    unit = [(name, _unit_rows(X), y) for name, X, y in sets]
    for call in _calls(*unit[0][1:]).values():  # warm-up: compiles, imports
        call()
    worst, base = {}, {}
    for (_, X, y), (_, U, _) in zip(sets, unit, strict=True):
        for name, call in _calls(X, y).items():
            worst[name] = max(worst.get(name, 0.0), _timed(call))
        for name, call in _calls(U, y).items():
            base[name] = max(base.get(name, 0.0), _timed(call))
    print(f"load average {os.getloadavg()[0]:.1f}; {len(sets)} sets of 20 x 3, rows 1e-150 .. "
          f"1e150; target: every call under {TARGET_SECONDS:g} s")
    print(f"{'call':<46}{'extreme rows (s)':>18}{'unit rows (s)':>15}{'ratio':>8}")
    for name in worst:
        print(f"{name:<46}{worst[name]:>18.4f}{base[name]:>15.4f}"
              f"{worst[name] / base[name]:>8.2f}")
    slowest = max(worst.values())
    print(f"slowest call {slowest:.3f} s: target {'met' if slowest < TARGET_SECONDS else 'MISSED'}")


if __name__ == "__main__":
    main()
