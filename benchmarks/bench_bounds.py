"""Speed of ``bounds.evaluate`` against named baselines (issue 5, "Speed").

Target (issue 5): ``evaluate`` on a run with 20000 trials and about 2000
mistakes, 100 features, including the gamma search for every bound, takes
under 2 seconds.

Data: ``make_separable(20000, 100, margin=0.05, label_noise=0.04, seed=1)``,
one epoch (about 2000 mistakes for every algorithm). For each algorithm, in
one process, best wall time of ``--repeats`` calls after a warm-up call (the
Numba compile and scikit-learn's imports are excluded), of:

* ``evaluate target``: ``evaluate(run, X, y, target=u)`` (one comparator);
* ``evaluate svm``: ``evaluate(run, X, y)`` (five linear SVMs over C, each
  bound searched for each, the default without a known target);

against two baselines in the same process:

* ``run``: ``run_online`` of the same algorithm (the cost of producing the run);
* ``eigvalsh``: one ``scipy.linalg.eigvalsh`` of the 100 x 100 X_m^T X_m
  (the LAPACK floor of the spectral quantities).

Run: ``python benchmarks/bench_bounds.py [--repeats 3]``.
"""

from __future__ import annotations

import argparse

import scipy.linalg
from _timing import best_time

from perceptron_bounds import run_online
from perceptron_bounds.bounds import evaluate
from perceptron_bounds.datasets import make_separable

CASES = [
    ("perceptron", {}),
    ("ballseptron", {"r": 0.01}),
    ("second_order", {"variant": "inverse"}),
    ("second_order", {"variant": "adaptive"}),
    ("second_order", {"variant": "pinv"}),
    ("higher_order", {}),
]
TARGET_SECONDS = 2.0



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    X, y, u = make_separable(20000, 100, margin=0.05, label_noise=0.04, seed=1)
    header = (f"{'algorithm':<24}{'mistakes':>9}{'run s':>8}{'eig ms':>8}{'target s':>10}"
              f"{'svm s':>8}{'svm/run':>9}{'svm/eig':>9}  < {TARGET_SECONDS:g} s")
    print(header)
    print("-" * len(header))
    for name, params in CASES:
        run = run_online(name, X, y, **params)
        t_run = best_time(lambda n=name, p=params: run_online(n, X, y, **p), args.repeats)
        Xm = X[run.mistake_rows]
        t_eig = best_time(lambda A=Xm.T @ Xm: scipy.linalg.eigvalsh(A), args.repeats)
        t_target = best_time(lambda r=run: evaluate(r, X, y, target=u), args.repeats)
        t_svm = best_time(lambda r=run: evaluate(r, X, y), args.repeats)
        label = name + (f" ({params['variant']})" if "variant" in params else "")
        ok = "yes" if max(t_target, t_svm) < TARGET_SECONDS else "NO"
        print(f"{label:<24}{run.mistakes:>9}{t_run:>8.3f}{1e3 * t_eig:>8.2f}{t_target:>10.3f}"
              f"{t_svm:>8.3f}{t_svm / t_run:>9.1f}{t_svm / t_eig:>9.0f}  {ok}")


if __name__ == "__main__":
    main()
