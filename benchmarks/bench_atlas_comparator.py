"""How much tighter the atlas's bounds would be with the kernel SVM fitted on every row (issue 35).

The atlas's kernel comparators are SVMs fitted on a seeded subset of
``search.KERNEL_SVM_ROWS`` rows (any unit-norm f is a valid comparator, theory §4.3), their
hinge losses computed on every row; its CSV names the subset in the ``comparator`` column
("kernel svm C=0.1 on 1500 of 2000 rows"). On the atlas's image tasks of
``catalog.KERNEL_ROWS`` rows both fits run, so this script evaluates each run twice, once
as the atlas does and once with the SVMs fitted on every row, and prints per algorithm and
kernel the tightest bound of each and their ratio (full / subset: below 1 when the full SVM
is tighter), with the seconds of each evaluation. Not collected by pytest.

Run: ``PERCEPTRON_BOUNDS_DATA=DIR python benchmarks/bench_atlas_comparator.py
[--data mnist] [--algorithms perceptron,second_order]``.
"""

from __future__ import annotations

import argparse
import time

from perceptron_bounds import run_online
from perceptron_bounds.bounds import evaluate, search
from perceptron_bounds.datasets.catalog import atlas_tasks
from perceptron_bounds.experiments.bound_atlas import KERNELS


def tightest(report):
    """The applicable row with the smallest value (the tightest bound) of a report."""
    rows = [row for row in report.rows if row.value is not None]
    return min(rows, key=lambda row: row.value)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="mnist")
    parser.add_argument("--algorithms", default="perceptron,second_order,passive_aggressive")
    args = parser.parse_args()
    tasks, _ = atlas_tasks([args.data])
    task = next(t for t in tasks if t.kernels and "rbf" in t.kernels and t.task.endswith("rest"))
    X, y = task.data.X, task.data.y
    subset = search.KERNEL_SVM_ROWS
    print(f"{task.dataset} {task.task}: {X.shape[0]} rows; subset SVM on {subset} rows, full "
          f"SVM on all {X.shape[0]}")
    print("algorithm, kernel, mistakes: tightest bound with the subset SVM (s) | with the "
          "full SVM (s) | full / subset")
    for name in args.algorithms.split(","):
        for kernel in ("poly", "rbf"):
            run = run_online(name, X, y, **KERNELS[kernel])
            values = []
            for rows in (subset, X.shape[0]):
                search.KERNEL_SVM_ROWS = rows
                start = time.perf_counter()
                best = tightest(evaluate(run, X, y))
                values.append((best, time.perf_counter() - start))
            search.KERNEL_SVM_ROWS = subset
            (a, ta), (b, tb) = values
            print(f"{name}, {kernel}, {run.mistakes}: {a.value:.1f} {a.name} ({ta:.1f} s) | "
                  f"{b.value:.1f} {b.name} ({tb:.1f} s) | {b.value / a.value:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
