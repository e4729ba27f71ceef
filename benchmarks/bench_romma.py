"""Speed of ROMMA's loops (issue 22) against the floors of the Perceptron's benchmarks.

In one process, best of ``--repeats`` rounds in which the contenders take turns,
after a warm-up call each (the compile is excluded):

* primal: one epoch of ROMMA and of aggressive ROMMA (the jitted loops on
  validated data) on 100,000 x 100 unit-norm rows, labels sign(u . x) with 5%
  flipped, against the read-once floor of ``bench_perceptron`` (a jitted loop
  computing each row's dot product with a fixed w). Target <= 1.3x.
* dual: ROMMA with the poly-4 kernel (1 + x . z)^4, MNIST "9 against the rest",
  one epoch (``run_online``), against the GEMM floor of ``bench_kernel_mnist``
  for its final support set (``X @ S.T`` and the kernel in place). Target
  <= 1.2x. MNIST from the data home (``PERCEPTRON_BOUNDS_DATA``), else the
  synthetic stand-in of ``bench_kernel_mnist``. Wall-clock times.

Run: ``python benchmarks/bench_romma.py [--repeats 5] [--small] [--n 60000] [--skip-dual]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _timing import CLOCKS, race
from bench_kernel_mnist import POLY4, floor_time, mnist_or_synthetic
from bench_perceptron import _floor, dense_data

from perceptron_bounds import run_online
from perceptron_bounds.algorithms.romma import _romma_primal_loop

PRIMAL_TARGET, DUAL_TARGET = 1.3, 1.2


def primal_rows(small, repeats):
    rng = np.random.default_rng(0)
    X, y = dense_data((10_000 if small else 100_000, 100), rng, 0.05)
    order = np.arange(X.shape[0], dtype=np.int64)
    empty = np.empty(0)
    w0 = np.zeros(X.shape[1])
    contenders = {"floor": lambda: _floor(X, y, w0)}
    for aggressive in (False, True):
        contenders[f"aggressive={aggressive}"] = (
            lambda a=aggressive: _romma_primal_loop(X, y, order, (np.zeros(X.shape[1]),),
                                                    (a, 0.0, 1.0), empty))
    best = race(contenders, repeats, CLOCKS["cpu"])
    print(f"primal, 1 epoch on {X.shape[0]} x {X.shape[1]} (CPU s, best of {repeats})")
    print(f"{'loop':22s} {'seconds':>9s} {'/ floor':>8s} {'mistakes':>9s} {'m.errors':>9s}")
    print(f"{'read-once floor':22s} {best['floor']:9.4f} {1.0:8.2f}")
    for aggressive in (False, True):
        run = run_online("romma", X, y, aggressive=aggressive)
        seconds = best[f"aggressive={aggressive}"]
        ratio = seconds / best["floor"]
        print(f"{'ROMMA ' + ('aggressive' if aggressive else 'plain'):22s} {seconds:9.4f} "
              f"{ratio:8.2f} {run.mistakes:9d} {run.margin_errors:9d}"
              f"  (target <= {PRIMAL_TARGET})")


def dual_row(n):
    X, y, source = mnist_or_synthetic(n)
    yb = np.where(y == 9, 1, -1)
    run_online("romma", X[:2000], yb[:2000], **POLY4)  # compile
    start = time.perf_counter()
    run = run_online("romma", X, yb, **POLY4)
    seconds = time.perf_counter() - start
    floor = floor_time(X, run.support_vectors, POLY4)
    print(f"\ndual, poly-4, {source} 9 against the rest, {X.shape[0]} rows, 1 epoch (wall s)")
    print(f"ROMMA {seconds:.3f} s, GEMM floor of its {run.support_vectors.shape[0]} supports "
          f"{floor:.3f} s: {seconds / floor:.2f}x (target <= {DUAL_TARGET}); "
          f"{run.mistakes} mistakes")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--small", action="store_true", help="10,000 rows for the primal loop")
    parser.add_argument("--n", type=int, default=60_000, help="MNIST rows of the dual run")
    parser.add_argument("--skip-dual", action="store_true")
    args = parser.parse_args()
    primal_rows(args.small, args.repeats)
    if not args.skip_dual:
        dual_row(args.n)


if __name__ == "__main__":
    main()
