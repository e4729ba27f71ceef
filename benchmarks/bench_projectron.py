"""Speed of the Projectron and Projectron++ (theory §2.13) against the GEMM floor (issue 23).

MNIST "9 against the rest" (or its synthetic stand-in when MNIST is not in the data
home, ``bench_kernel_mnist.mnist_or_synthetic``; ``--data-home`` points at a folder of
the four IDX files), rows scaled to unit norm, poly-4 (gamma 1, coef0 1, so that
K(x, x) = 16 and delta <= 4), one epoch in the given order, for each ``--etas`` and
both variants. In one process, BLAS limited to one thread, wall time, the compile
excluded by a warm-up run on 2,000 rows.

The floor of a run is the issue's: one BLAS product computing every kernel value the
run could need against its final supports S, ``X @ S.T`` for the 60,000 rows, and the
elementwise kernel in place (``bench_kernel_mnist.floor_time``), measured in the same
process right after the run. The Projectron also reads its B x B inverse Gram matrix on
every mistake (and Projectron++ margin error), O(B^2), which no GEMM floor counts; a
second floor adds, per such trial, one symmetric B x B matrix-vector product (BLAS
``dsymv``, timed at the final B). The issue's target for the budget Perceptrons is
<= 1.5x the GEMM floor; it is reported against both.

The machine the numbers of a report come from may be shared: compare ratios measured
in one process, not seconds across runs.

Run: ``python benchmarks/bench_projectron.py [--etas 1.0,2.0,3.0] [--n 60000]
[--data-home DIR]``.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from _timing import race
from bench_kernel_mnist import floor_time, mnist_or_synthetic
from scipy.linalg.blas import dsymv
from threadpoolctl import threadpool_limits

from perceptron_bounds import run_online

TARGET = 1.5
POLY4 = {"kernel": "poly", "degree": 4, "gamma": 1.0, "coef0": 1.0}


def case(X, y, eta, plus):
    """One run and its floors, as a dict of numbers."""
    start = time.perf_counter()
    run = run_online("projectron", X, y, eta=eta, plus=plus, **POLY4)
    seconds = time.perf_counter() - start
    S = run.support_vectors
    floor = floor_time(X, S, POLY4)
    k = int(S.shape[0])
    M = np.asfortranarray(np.eye(k))
    g = np.random.default_rng(0).standard_normal(k)
    symv = race({"dsymv": lambda: dsymv(1.0, M, g)}, 3)["dsymv"]
    second = floor + run.n_updates * symv
    return {"seconds": seconds, "floor_s": floor, "ratio": seconds / floor,
            "floor_plus_dsymv_s": second, "ratio_to_it": seconds / second,
            "mistakes": run.mistakes, "added": int(run.state["added"].sum()),
            "margin_errors": run.margin_errors, "supports": k,
            "training_error": float(np.mean(run.predict(X) != y))}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--etas", default="1.0,2.0,3.0")
    parser.add_argument("--n", type=int, default=60_000)
    parser.add_argument("--data-home", default=None,
                        help="folder of the MNIST IDX files (default: the data home)")
    args = parser.parse_args()
    if args.data_home is not None:
        os.environ["PERCEPTRON_BOUNDS_DATA"] = args.data_home
    X, labels, source = mnist_or_synthetic(args.n)
    X = X / np.linalg.norm(X, axis=1, keepdims=True)
    y = np.where(labels == 9, 1, -1)
    print(f"data: {source}, {X.shape[0]} rows, poly-4 on unit-norm rows, 1 epoch", flush=True)
    with threadpool_limits(limits=1):
        run_online("projectron", X[:2000], y[:2000], eta=1.0, plus=True, **POLY4)  # compiles
        for eta in map(float, args.etas.split(",")):
            for plus in (False, True):
                result = case(X, y, eta, plus)
                verdict = "met" if result["ratio"] <= TARGET else "NOT met"
                cells = ", ".join(f"{key}={value:.4g}" if isinstance(value, float)
                                  else f"{key}={value}" for key, value in result.items())
                name = f"projectron{'++' if plus else ''} eta={eta:g}"
                print(f"{name}: {cells}  target <= {TARGET}x the GEMM floor: {verdict}",
                      flush=True)


if __name__ == "__main__":
    main()
