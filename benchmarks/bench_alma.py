"""Speed of ALMA_p's loops (theory §2.9) against the read-once and GEMM floors (issue 22).

In one process, the compile excluded by a warm-up call:

* primal: one epoch of the jitted loop on 100,000 x 100 dense rows (already of
  unit p-norm, 5% labels flipped) against the read-once floor, a jitted loop that
  only computes each row's dot product with a fixed w (as
  ``bench_perceptron.py``), best of ``--repeats`` rounds in which the
  contenders take turns; for p = 2 and p = 3, beside the Perceptron's loop.
  Target: loop / floor <= 1.3. For p = 2 an update is one pass over x_t (w
  kept as a scale times a vector, ||w||^2 carried along); for p > 2 the link
  changes every coordinate of w, one power each, so an update costs n powers
  and the ratio grows with the share of trials that update.
* dual: ALMA_2 with the poly-4 kernel (1 + x.z)^4, MNIST "9 against the rest"
  (raw grey values; synthetic data of the same shape when MNIST is absent, as
  ``bench_kernel_mnist.py``), one epoch, wall time of ``run_online`` against the
  GEMM floor of its support set (``X @ S.T`` and the kernel in place). Target
  <= 1.2.

Run: ``python benchmarks/bench_alma.py [--repeats 5] [--n 60000] [--skip-dual]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _timing import race
from bench_kernel_mnist import POLY4, floor_time, mnist_or_synthetic

from perceptron_bounds import run_online
from perceptron_bounds._jit import jit
from perceptron_bounds._linalg import normalize_rows
from perceptron_bounds.algorithms.alma import _alma2_primal_loop, _alma_primal_loop
from perceptron_bounds.algorithms.perceptron import _perceptron_primal_loop
from perceptron_bounds.algorithms.pnorm import link


@jit
def _dense_floor(X, y, w):
    """Count the rows with y_i (w . x_i) <= 0 for a fixed w: one read of X."""
    count = 0
    for i in range(X.shape[0]):
        s = 0.0
        for j in range(X.shape[1]):
            s += w[j] * X[i, j]
        if y[i] * s <= 0.0:
            count += 1
    return count


def primal(repeats, rng):
    X = rng.standard_normal((100_000, 100))
    u = rng.standard_normal(100)
    y = np.where(X @ u > 0, 1.0, -1.0)
    y[rng.random(y.shape[0]) < 0.05] *= -1
    order = np.arange(X.shape[0], dtype=np.int64)
    none = np.empty(0)
    w_fixed = np.full(100, 0.1)
    print(f"{'primal, 100000 x 100, 1 epoch':34s} {'seconds':>8s} {'/ floor':>8s} "
          f"{'updates':>8s}")
    for p in (2.0, 3.0):
        Xp = normalize_rows(X, p)

        def alma(Xp=Xp, p=p):
            theta = np.zeros(100)
            margin, C = (1.0 - 0.9) / 0.9, np.sqrt(2.0)  # (1 - alpha) B, alpha = 0.9, B = 1/alpha
            if p == 2.0:  # theta = scale * v, ||theta||^2 kept: one pass over x per update
                return _alma2_primal_loop(Xp, y, order, (theta,),
                                          (margin, C, 0, 1.0, margin, 0.0, 1.0), none)
            root = np.sqrt(p - 1.0)
            return _alma_primal_loop(Xp, y, order, (theta, link(theta, p)),
                                     (p, root, margin, C, 0, 1.0, margin * root), none)

        t = race({"alma": alma, "floor": lambda Xp=Xp: _dense_floor(Xp, y, w_fixed),
                  "perceptron": lambda Xp=Xp: _perceptron_primal_loop(Xp, y, order,
                                                                      (np.zeros(100),), (),
                                                                      none)},
                 repeats)
        updates = alma()[0].shape[0]
        for name in ("alma", "perceptron", "floor"):
            print(f"  {name + f', p = {p:g}':32s} {t[name]:8.4f} {t[name] / t['floor']:8.2f} "
                  f"{updates if name == 'alma' else '':>8}")


def dual(n):
    X, y, source = mnist_or_synthetic(n)
    yb = np.where(y == 9, 1, -1)
    run_online("alma", X[:2000], yb[:2000], **POLY4)  # compile
    start = time.perf_counter()
    run = run_online("alma", X, yb, **POLY4)
    seconds = time.perf_counter() - start
    floor = floor_time(X, run.support_vectors, POLY4)
    print(f"\ndual, {source}, {n} rows, '9 against the rest', poly-4, 1 epoch")
    print(f"  run_online {seconds:.2f} s, GEMM floor of its {run.support_vectors.shape[0]} "
          f"supports {floor:.2f} s, ratio {seconds / floor:.2f}; {run.mistakes} mistakes, "
          f"{run.margin_errors} margin errors")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--n", type=int, default=60_000, help="MNIST rows of the dual case")
    parser.add_argument("--skip-dual", action="store_true")
    args = parser.parse_args()
    primal(args.repeats, np.random.default_rng(0))
    if not args.skip_dual:
        dual(args.n)


if __name__ == "__main__":
    main()
