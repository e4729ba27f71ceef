"""Speed of AROW (theory §2.10) against named floors (issue 22, "Speed").

In one process, BLAS limited to one thread, best of ``--repeats`` rounds after a
warm-up call (the compile is excluded); CPU time of the calling thread by default
(``--clock wall`` for wall time), as ``bench_perceptron.py`` measures:

* ``diagonal``: the primal diagonal loop, one epoch of 100,000 x 100 dense unit-norm
  rows (labels sign(u . x), 5% flipped), against the read-once floor of
  ``bench_perceptron.py`` (a jitted loop that only takes each row's dot product with
  a fixed w). Target <= 1.3x. An update reads its row twice more (chi, then mu and the
  precision), so the ratio grows with the fraction of updates, which is reported.
* ``full``: the full-covariance primal form, one epoch of 20,000 x 200 rows of the
  same kind, against the floor of ``bench_second_order.py``: the read-once floor plus,
  per update, one symmetric matrix-vector product and one symmetric rank-one update
  (BLAS ``dsymv`` + ``dsyr``), i.e. two reads of an n x n matrix. An AROW update reads
  half of the n x n Cholesky factor three times (two triangular solves, one rotation
  sweep). Reported, no target.
* ``dual``: the kernel form on MNIST "9 against the rest" (or its synthetic stand-in,
  ``bench_kernel_mnist.mnist_or_synthetic``), rows scaled to unit norm, poly-4
  (gamma 1, coef0 1), r = 1, one epoch, against the GEMM floor of its support set
  (``bench_kernel_mnist.floor_time``: X @ S.T and the kernel in place). Target <= 1.2x,
  the Perceptron's, which no exact second-order dual can meet when most trials update:
  each update reads a k x k matrix, k the supports so far. So a second floor is
  reported too: the GEMM floor plus, per update, one symmetric k x k matrix-vector
  product (BLAS ``dsymv``, timed at the final k and counted as k/3 on average over the
  run, since k grows linearly: sum of k_t^2 = k^3/3).

Run: ``python benchmarks/bench_arow.py [--cases diagonal,full,dual] [--repeats 5]
[--n-dual 60000] [--clock cpu|wall]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _timing import CLOCKS, race
from bench_kernel_mnist import floor_time, mnist_or_synthetic
from bench_perceptron import _floor
from bench_second_order import symv_syr_cost
from scipy.linalg.blas import dsymv
from threadpoolctl import threadpool_limits

from perceptron_bounds import run_online
from perceptron_bounds.algorithms.arow import _arow_diagonal_loop

TARGETS = {"diagonal": 1.3, "dual": 1.2}
POLY4 = {"kernel": "poly", "degree": 4, "gamma": 1.0, "coef0": 1.0}


def unit_rows(n_samples, n_features, rng):
    X = rng.standard_normal((n_samples, n_features))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    y = np.where(X @ rng.standard_normal(n_features) > 0, 1.0, -1.0)
    flip = rng.random(n_samples) < 0.05
    y[flip] = -y[flip]
    return X, y


def case_diagonal(args, clock):
    X, y = unit_rows(100_000, 100, np.random.default_rng(0))
    order = np.arange(X.shape[0], dtype=np.int64)
    w_fixed = np.random.default_rng(1).standard_normal(100)
    empty = np.empty(0)

    def loop():
        records = np.empty(X.shape[0]), np.empty(X.shape[0])
        return _arow_diagonal_loop(X, y, order, (np.zeros(100), np.ones(100), np.ones(100),
                                                 *records), (1.0,), empty)

    updates = loop()[0].shape[0]
    t = race({"loop": loop, "floor": lambda: _floor(X, y, w_fixed)}, args.repeats, clock)
    return {"loop_s": t["loop"], "floor_s": t["floor"], "ratio": t["loop"] / t["floor"],
            "update_fraction": updates / X.shape[0]}


def case_full(args, clock):
    rng = np.random.default_rng(0)
    X, y = unit_rows(20_000, 200, rng)
    w_fixed = rng.standard_normal(200)
    run = run_online("arow", X, y, form="primal")
    t = race({"arow": lambda: run_online("arow", X, y, form="primal"),
              "read": lambda: _floor(X, y, w_fixed)}, args.repeats, clock)
    per_update = symv_syr_cost(200, rng)
    floor = t["read"] + run.n_updates * per_update
    return {"arow_s": t["arow"], "floor_s": floor, "ratio": t["arow"] / floor,
            "updates": run.n_updates, "dsymv_dsyr_s": per_update}


def case_dual(args, clock):
    X, labels, source = mnist_or_synthetic(args.n_dual)
    X = X / np.linalg.norm(X, axis=1, keepdims=True)
    y = np.where(labels == 9, 1, -1)
    run_online("arow", X[:2000], y[:2000], **POLY4)  # compiles
    start = time.perf_counter()
    run = run_online("arow", X, y, **POLY4)
    seconds = time.perf_counter() - start
    floor = floor_time(X, run.support_vectors, POLY4)
    k = int(run.support_vectors.shape[0])
    M = np.asfortranarray(np.eye(k))
    g = np.random.default_rng(0).standard_normal(k)
    symv = race({"dsymv": lambda: dsymv(1.0, M, g)}, 3, clock)["dsymv"]
    second = floor + run.n_updates * symv / 3.0
    return {"source": source, "seconds": seconds, "floor_s": floor, "ratio": seconds / floor,
            "gemm_plus_dsymv_s": second, "ratio_to_it": seconds / second,
            "mistakes": run.mistakes, "margin_errors": run.margin_errors, "supports": k}


CASES = {"diagonal": case_diagonal, "full": case_full, "dual": case_dual}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--n-dual", type=int, default=60_000)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    args = parser.parse_args()
    with threadpool_limits(limits=1):
        for name in args.cases.split(","):
            result = CASES[name](args, CLOCKS[args.clock])
            target = TARGETS.get(name)
            verdict = "" if target is None else (
                f"  target <= {target}: {'met' if result['ratio'] <= target else 'NOT met'}")
            cells = ", ".join(f"{key}={value:.4g}" if isinstance(value, float)
                              else f"{key}={value}" for key, value in result.items())
            print(f"{name}: {cells}{verdict}", flush=True)


if __name__ == "__main__":
    main()
