"""Speed of ``bounds.evaluate`` on wide CSR data against named baselines (issue 31, item 12).

Before issue 12's fix, ``evaluate`` densified the mistaken rows of wide CSR data (m x n:
1.5 GB at 3,000 x 100,000 for a 0.4 MB matrix) and the pinv variant's evaluate took 13 s
after a 0.2 s run. ``tests/test_sparse_supports.py`` checks the memory (no dense copy of
the mistaken rows); this script holds the speed, which no test asserts.

Data: ``--rows`` random CSR rows of 50,000 features, 20 stored entries each
(``scipy.sparse.random``, seed 0), labels the sign of a random direction. For each case,
in one process, best wall time of ``--repeats`` calls after a warm-up call (the Numba
compile and scikit-learn's imports excluded), of:

* ``evaluate``: ``evaluate(run, X, y)`` (five linear SVMs over C, every bound searched);

against three baselines in the same process:

* ``svm``: scikit-learn's ``LinearSVC(C=C, fit_intercept=False)`` fitted on (X, y) for
  every C in ``bounds.search.SVM_C``, the comparators ``evaluate`` searches (its floor
  without a known target);
* ``run``: ``run_online`` of the same algorithm and parameters (the cost of the run);
* ``gram``: the sparse Gram matrix of the mistaken rows, ``Xm @ Xm.T`` with scipy
  (the floor of every spectral quantity of the Second- and Higher-Order bounds).

Target: ``evaluate / run`` at most ``RUN_RATIO`` in every case (the pinv variant's
evaluate took 13 s after a 0.2 s run, 65 runs, before issue 12's fix); ``eval/svm`` is
printed beside it.

Run: ``python benchmarks/bench_evaluate_sparse.py [--rows 300] [--repeats 3]``.
"""

from __future__ import annotations

import argparse
import os

import numpy as np
import scipy.sparse as sp
from _timing import best_time

from perceptron_bounds import run_online
from sklearn.svm import LinearSVC

from perceptron_bounds.bounds import evaluate
from perceptron_bounds.bounds.search import SVM_C

CASES = [
    ("higher_order", {"memory_budget": 1e7}),  # the dual form, sparse supports
    ("higher_order", {"form": "implicit"}),
    ("second_order", {"variant": "pinv"}),
]
RUN_RATIO = 40.0


def wide_csr(n_samples, n_features=50_000, seed=0):
    X = sp.random(n_samples, n_features, density=20 / n_features, format="csr",
                  random_state=seed)
    y = np.where(X @ np.random.default_rng(seed).standard_normal(n_features) > 0, 1, -1)
    return X, y


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    X, y = wide_csr(args.rows)
    print(f"{args.rows} x {X.shape[1]} CSR, {X.nnz} entries; load {os.getloadavg()[0]:.2f}")
    t_svm = best_time(lambda: [LinearSVC(C=C, fit_intercept=False).fit(X, y) for C in SVM_C],
                      args.repeats)
    print(f"svm baseline ({len(SVM_C)} LinearSVC fits): {t_svm:.3f} s")
    header = (f"{'case':<40}{'mistakes':>9}{'run s':>8}{'gram ms':>9}{'evaluate s':>11}"
              f"{'eval/svm':>10}{'eval/run':>10}  eval/run <= {RUN_RATIO:g}")
    print(header)
    print("-" * len(header))
    failed = False
    for name, params in CASES:
        run = run_online(name, X, y, **params)
        t_run = best_time(lambda n=name, p=params: run_online(n, X, y, **p), args.repeats)
        Xm = X[run.sample_index[run.mistake_trials]]
        t_gram = best_time(lambda m=Xm: (m @ m.T).toarray(), args.repeats)
        t_eval = best_time(lambda r=run: evaluate(r, X, y), args.repeats)
        ratio = t_eval / t_run
        failed |= ratio > RUN_RATIO
        label = f"{name} {params}"
        print(f"{label:<40}{run.mistakes:>9}{t_run:>8.3f}{1e3 * t_gram:>9.2f}{t_eval:>11.3f}"
              f"{t_eval / t_svm:>10.1f}{ratio:>10.1f}  {'ok' if ratio <= RUN_RATIO else 'MISSED'}")
    print("target met" if not failed else "target MISSED")


if __name__ == "__main__":
    main()
