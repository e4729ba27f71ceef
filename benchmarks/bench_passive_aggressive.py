"""Speed of the Passive-Aggressive loops (theory §2.7) against named floors (issue 22, "Speed").

All in one process, the compile excluded by a warm-up call:

* primal, one epoch on 100,000 x 100 unit-norm rows (5% of the labels flipped), for
  PA, PA-I and PA-II: the package's jitted loop on validated arrays against the
  read-once floor of ``bench_perceptron`` (one dot product per row with a fixed w),
  best of ``--repeats`` rounds in which they take turns (CPU time of this thread).
  Target: loop/floor <= 1.3 (the Perceptron's loop is 1.1x);
* dual, PA-I on MNIST "9 against the rest" (the first ``--n`` training images, raw
  grey values), poly-4 kernel (gamma 1, coef0 1), one epoch, through ``run_online``,
  against the GEMM floor of its support set (``bench_kernel_mnist.floor_time``:
  ``X @ S.T`` and the kernel in place), wall time. Target <= 1.2, as the Perceptron's.

Run: ``python benchmarks/bench_passive_aggressive.py [--repeats 5] [--n 10000]`` (MNIST from
``PERCEPTRON_BOUNDS_DATA``, e.g. the folder of its four IDX files; synthetic data otherwise).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _timing import CLOCKS, race
from bench_kernel_mnist import POLY4, floor_time, mnist_or_synthetic, warm_up
from bench_perceptron import _floor, dense_data

from perceptron_bounds import run_online
from perceptron_bounds.algorithms.passive_aggressive import _pa_primal_loop
from perceptron_bounds.algorithms.passive_aggressive_native import VARIANTS

SHAPE, PRIMAL_TARGET, DUAL_TARGET = (100_000, 100), 1.3, 1.2


def primal_rows(repeats):
    rng = np.random.default_rng(0)
    X, y = dense_data(SHAPE, rng, 0.05)
    order = np.arange(X.shape[0], dtype=np.int64)
    w_fixed = rng.standard_normal(X.shape[1])
    no_margins = np.empty(0)
    print(f"primal, one epoch on {SHAPE[0]:,} x {SHAPE[1]} (CPU s, best of {repeats})")
    print(f"{'variant':8s} {'loop ms':>9s} {'floor ms':>9s} {'loop/floor':>11s} {'updates':>8s}")
    for code, variant in enumerate(VARIANTS):
        taus = np.empty(X.shape[0])

        def loop(code=code, taus=taus):
            return _pa_primal_loop(X, y, order, (np.zeros(X.shape[1]), np.empty_like(taus), taus),
                                   (code, 1.0), no_margins)

        t = race({"loop": loop, "floor": lambda: _floor(X, y, w_fixed)}, repeats,
                 CLOCKS["cpu"])
        updates = loop()[0].shape[0]
        ratio = t["loop"] / t["floor"]
        print(f"{variant:8s} {1e3 * t['loop']:9.1f} {1e3 * t['floor']:9.1f} {ratio:11.2f} "
              f"{updates:8d}  {'met' if ratio <= PRIMAL_TARGET else 'MISSED'} "
              f"(<= {PRIMAL_TARGET})")


def dual_row(n):
    X, y, source = mnist_or_synthetic(n)
    yb = np.where(y == 9, 1, -1)
    warm_up("passive_aggressive", X, yb, **POLY4)
    start = time.perf_counter()
    run = run_online("passive_aggressive", X, yb, **POLY4)
    seconds = time.perf_counter() - start
    floor = floor_time(X, run.support_vectors, POLY4)
    ratio = seconds / floor
    print(f"\ndual PA-I, {source} '9 against the rest', {n:,} rows, poly-4, one epoch (wall s)")
    print(f"run {seconds:.3f} s, GEMM floor of its {run.support_vectors.shape[0]} supports "
          f"{floor:.3f} s: ratio {ratio:.2f} {'met' if ratio <= DUAL_TARGET else 'MISSED'} "
          f"(<= {DUAL_TARGET}); {run.mistakes} mistakes, {run.margin_errors} margin errors")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--n", type=int, default=10_000, help="MNIST rows of the dual run")
    args = parser.parse_args()
    primal_rows(args.repeats)
    dual_row(args.n)


if __name__ == "__main__":
    main()
