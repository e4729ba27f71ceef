"""Speed of one-pass one-vs-rest against binary runs (issue 11, "Speed").

In one process, CPU time of the calling thread, best of ``--repeats`` rounds in
which the contenders take turns, after a warm-up call each (the compile is
excluded). K = 10 classes.

* **Linear** (``"perceptron"``, primal, dense, 100,000 x 100, one epoch, rows
  in order and shuffled): the one-vs-rest hook against ONE binary run, the
  mean over k of the binary ``fit`` on "class k against the rest" (target:
  <= 2x). Also end to end: ``run_online(..., multiclass="ovr")`` against the
  mean binary ``run_online``, and against the product ``X @ W.T`` of the 10
  class weights on one BLAS thread (issue 32, target: <= 1.5x; the loop itself
  does that product's arithmetic, each score summed as the binary loop sums it),
  beside the floor of the loop, ``scores/XW``: the K scores of every trial
  alone (each row read, fetched ahead, as the loop reads it, and its K dot
  products summed as the binary loop sums them, no update), and ``ovr/XW``, the
  hook's time against the same product.
* **Kernel** (``"perceptron"``, dual, poly kernel of degree 3, 3,000 x 50,
  two shuffled epochs): the one-vs-rest hook against the SUM of the K binary ``fit``
  runs (target: <= 0.5x), beside the share of support vectors the classes
  have in common, union / sum of the K support counts: each trial of the
  shared loop evaluates x_t against the union, the K binary runs against
  their own supports, so union / sum is about what the sharing can save:
  the target needs classes that share more than half of their supports.
  Also on scikit-learn's digits (1,797 x 64, scaled to [0, 1]).

Every one-vs-rest class is checked bit for bit against its binary run before
the timing. Data: 10 Gaussian classes, x = mu_y + N(0, I/n), with class means
of norm ``sep`` (the larger, the fewer mistakes), plus a constant feature; and
"argmax" data, unit-norm rows labelled by the argmax of 10 random directions
with 5% relabelled at random (hard: the binary problems are far from
separable).

Why the one-binary-run target is out of reach bit for bit: a binary run over
100,000 x 100 dense rows is bound by reading X from memory (one dot product a
trial), while the one-vs-rest loop computes 10 dot products a trial on the row
it has read, each with the binary loop's own vectorised sum (the same rounding,
so the same mistakes): the arithmetic, not the memory, sets its time. On
shuffled rows the binary run waits for every row from memory, which the
one-vs-rest loop hides by fetching rows ahead.

Issue 32's end-to-end target, as measured on 2 quiet cores (load 0.5-1.3; main at
fccbe14, before issue 32's second pass, run alternately with this code, ``--repeats
5``): argmax data in order, end to end 2.11-2.33x ``X @ W.T`` before, 1.49-1.57x
now (1.49x in a process timing nothing else, best of 15; at load 2-7 it rises to
1.55-1.7x, the product less than the loop); the hook 1.78-2.05x before, 1.16-1.19x
now. Clusters in order (no updates: mistakes/T = 0): 1.19-1.32x before, 1.14-1.20x
now. What is left is floor, each part timed alone in the same process:

* the K scores alone (``scores/XW``): 0.61-0.62x in order. x_t is read from
  memory once, copied to a row that starts a cache line, and read again from L1
  by the K dot products with W's rows, two loads per multiplication: each is
  the binary loop's own vectorised sum, whose rounding the class runs must
  reproduce, so the K sums cannot be fused into one pass over x_t (another
  order of additions is another last bit).
* the updates: on argmax data each class updates on 45% of the trials, 4.5
  axpys of a 100-entry row a trial, about 0.55x (the loads and stores of W's
  rows); the hook is the scores and the updates, little else.
* around the loop, 0.33x: the validation read of X (0.16x, at memory bandwidth,
  as long as ``X.sum()``), the labels' check and the fingerprints of X and of
  the K class labellings (0.08x), the multiclass mistakes read from the margins
  and the class runs' trials from their cases (0.08x), the rest Python.

On shuffled rows the scores alone take 1.03-1.06x (rows come from memory in
random order; fetching them 2 to 8 trials ahead measured alike) and end to end
takes 2.02-2.11x (argmax; 2.70-3.11x before) and 1.64-1.79x (clusters, unchanged:
1.70-1.81x before). Compile: this pass adds no cached function, but its update rule and row
helpers compile into the loop: with an empty cache, after three binary runs
(their compile unchanged, 2.7-2.8 s), the one-vs-rest run took 1.17-1.21 s against
0.97-1.02 s before (three runs each).

Run: ``python benchmarks/bench_multiclass.py [--repeats 3] [--small] [--only linear|kernel]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _timing import race
from sklearn.datasets import load_digits
from threadpoolctl import threadpool_limits

from perceptron_bounds import run_online
from perceptron_bounds._jit import jit
from perceptron_bounds._linalg import LINE, line_zeros, row_dot
from perceptron_bounds._sequence import presentation_order
from perceptron_bounds._validation import Data, check_X
from perceptron_bounds.algorithms import get
from perceptron_bounds.algorithms.ovr import (
    _AHEAD,
    _prefetch_row,
    _trial_row,
    _trial_rows,
    class_data,
    class_labels,
)

N_CLASSES = 10
LINEAR_TARGET, KERNEL_TARGET = 2.0, 0.5
#: run_online one-vs-rest / X @ W.T on one thread (issue 32)
PRODUCT_TARGET = 1.5
clock = time.thread_time


def clusters(n_samples, n_features, sep, rng):
    """Gaussian classes around means of norm ``sep``; the last feature is a constant 1."""
    means = rng.standard_normal((N_CLASSES, n_features - 1))
    means *= sep / np.linalg.norm(means, axis=1, keepdims=True)
    y = rng.integers(0, N_CLASSES, n_samples)
    X = means[y] + rng.standard_normal((n_samples, n_features - 1)) / np.sqrt(n_features)
    return np.hstack([X, np.ones((n_samples, 1))]), y


def argmax_labelled(n_samples, n_features, rng, noise=0.05):
    """Unit-norm rows labelled by the argmax of random directions, ``noise`` relabelled."""
    X = rng.standard_normal((n_samples, n_features))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    y = np.argmax(X @ rng.standard_normal((N_CLASSES, n_features)).T, axis=1)
    flip = rng.random(n_samples) < noise
    y[flip] = rng.integers(0, N_CLASSES, flip.sum())
    return X, y


def measure(X, y, params, epochs, shuffle, repeats):
    """Time the hook and the K binary fits on one presented sequence; check them first."""
    spec = get("perceptron")
    data = Data(check_X(X), y.astype(np.int64), np.arange(N_CLASSES))
    resolved = spec.resolve({**spec.defaults, **params}, class_data(data, 0))
    order = presentation_order(X.shape[0], epochs, shuffle, 0)
    n_trials = order.shape[0]
    margins = np.empty((n_trials, N_CLASSES))
    results = spec.fit_ovr(data, order, resolved, margins, None)
    for k, result in enumerate(results):
        binary = spec.fit(class_data(data, k), order, resolved, np.empty(0), None)
        np.testing.assert_array_equal(result.mistake_trials, binary.mistake_trials)
        for name in ("weights", "dual_coef"):
            np.testing.assert_array_equal(getattr(result.hypothesis, name, None),
                                          getattr(binary.hypothesis, name, None))
    binaries = {
        k: (lambda k=k: spec.fit(class_data(data, k), order, resolved, np.empty(0), None))
        for k in range(N_CLASSES)
    }
    times = race({"ovr": lambda: spec.fit_ovr(data, order, resolved, margins, None), **binaries},
                 repeats, clock)
    mistakes = np.array([r.mistake_trials.size for r in results])
    union = np.unique(np.concatenate([r.mistake_trials for r in results])).size
    return {"ovr": times["ovr"], "binary": np.array([times[k] for k in range(N_CLASSES)]),
            "mistake_rate": mistakes.mean() / n_trials, "union": union, "sum": mistakes.sum()}


@jit
def _scores_only(X, order, W, n_features, scores, x):
    """scores[t, k] = w^k . x_{order[t]}, w^k = W[k, :n_features], each summed as the
    binary loop sums it: the one-vs-rest loop's reads (rows fetched as far ahead, copied
    into ``x``) and dot products, without its updates."""
    R = _trial_rows(X, x)
    x_row = x[0]
    n_trials = order.shape[0]
    for t in range(n_trials):
        if t + _AHEAD < n_trials:
            _prefetch_row(X, order[t + _AHEAD])
        row = _trial_row(X, order[t], x_row)
        for k in range(W.shape[0]):
            scores[t, k] = row_dot(R, row, W[k, :n_features])


def end_to_end(X, y, params, epochs, shuffle, repeats):
    """run_online one-vs-rest against the K binary run_online calls, same options, against
    X @ W.T on one BLAS thread, and (linear) against the K scores alone."""
    options = {"epochs": epochs, "shuffle": shuffle, "seed": 0, **params}
    binaries = {k: (lambda k=k: run_online("perceptron", X, class_labels(y, k), **options))
                for k in range(N_CLASSES)}
    W = np.random.default_rng(1).standard_normal((N_CLASSES, X.shape[1]))
    floor = {}
    if not params:
        order = presentation_order(X.shape[0], epochs, shuffle, 0)
        scores = np.empty((order.shape[0], N_CLASSES))
        n = X.shape[1]
        lines = line_zeros(N_CLASSES, -(-n // LINE) * LINE)  # as the loop keeps W
        lines[:, :n] = W
        floor = {"scores": lambda: _scores_only(X, order, lines, n, scores, line_zeros(1, n))}
    with threadpool_limits(1):
        times = race({"ovr": lambda: run_online("perceptron", X, y, multiclass="ovr",
                                                **options),
                      "X @ W.T": lambda: X @ W.T, **floor, **binaries}, repeats, clock)
    return (times["ovr"], np.array([times[k] for k in range(N_CLASSES)]), times["X @ W.T"],
            times.get("scores"))


def linear_rows(args, rng):
    n = 100_000 // (10 if args.small else 1)
    print(f"Linear one-vs-rest, K = {N_CLASSES}, dense {n} x 100, 1 epoch "
          f"(targets: ovr <= {LINEAR_TARGET} x one binary run; e2e ovr <= {PRODUCT_TARGET} x "
          "X @ W.T on one thread)")
    print(f"{'data':<18}{'order':>9}{'mistakes/T':>11}{'ovr ms':>8}{'binary ms':>10}"
          f"{'ovr/binary':>12}{'e2e ovr ms':>11}{'e2e binary':>11}{'e2e ratio':>10}"
          f"{'X@W.T ms':>9}{'scores/XW':>10}{'ovr/XW':>7}{'e2e/XW':>12}")
    for name, (X, y) in [("clusters sep 2", clusters(n, 100, 2.0, rng)),
                         ("argmax, 5% noise", argmax_labelled(n, 100, rng))]:
        for shuffle in (False, True):
            r = measure(X, y, {}, 1, shuffle, args.repeats)
            ovr_e2e, binary_e2e, product, scores = end_to_end(X, y, {}, 1, shuffle, args.repeats)
            ratio, e2e = r["ovr"] / r["binary"].mean(), ovr_e2e / binary_e2e.mean()
            order = "shuffled" if shuffle else "in order"
            print(f"{name:<18}{order:>9}{r['mistake_rate']:>11.3f}{1e3 * r['ovr']:>8.1f}"
                  f"{1e3 * r['binary'].mean():>10.1f}{ratio:>7.2f} {_mark(ratio <= LINEAR_TARGET)}"
                  f"{1e3 * ovr_e2e:>11.1f}{1e3 * binary_e2e.mean():>11.1f}{e2e:>10.2f}"
                  f"{1e3 * product:>9.1f}{scores / product:>10.2f}{r['ovr'] / product:>7.2f}"
                  f"{ovr_e2e / product:>7.2f} {_mark(ovr_e2e / product <= PRODUCT_TARGET)}")


def kernel_rows(args, rng):
    n = 3000 // (5 if args.small else 1)
    poly = {"kernel": "poly", "degree": 3}
    X_digits, y_digits = load_digits(return_X_y=True)
    cases = [(f"clusters sep {sep:g}", *clusters(n, 50, sep, rng)) for sep in (1.0, 2.0, 3.0)]
    cases += [("argmax, 5% noise", *argmax_labelled(n, 50, rng)),
              ("digits 1797 x 64", X_digits / 16.0, y_digits)]
    print(f"\nKernel one-vs-rest, K = {N_CLASSES}, poly degree 3, {n} x 50 (digits 1797 x 64), "
          f"2 epochs (target: ovr <= {KERNEL_TARGET} x the K binary runs)")
    print(f"{'data':<22}{'mistakes/T':>11}{'union/sum':>16}{'ovr ms':>9}{'sum ms':>9}"
          f"{'ovr/sum':>11}{'e2e ratio':>10}")
    for name, X, y in cases:
        r = measure(X, y, poly, 2, True, args.repeats)
        ovr_e2e, binary_e2e, _, _ = end_to_end(X, y, poly, 2, True, 1)
        ratio = r["ovr"] / r["binary"].sum()
        share = f"{r['union']}/{r['sum']} {r['union'] / r['sum']:.2f}"
        print(f"{name:<22}{r['mistake_rate']:>11.3f}{share:>16}{1e3 * r['ovr']:>9.0f}"
              f"{1e3 * r['binary'].sum():>9.0f}{ratio:>6.2f} {_mark(ratio <= KERNEL_TARGET)}"
              f"{ovr_e2e / binary_e2e.sum():>10.2f}")


def _mark(met: bool) -> str:
    return "ok  " if met else "MISS"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--small", action="store_true", help="fewer rows (a quick look)")
    parser.add_argument("--only", choices=("linear", "kernel"), help="these rows alone")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    if args.only != "kernel":
        linear_rows(args, rng)
    if args.only != "linear":
        kernel_rows(args, rng)
    print(f"thread CPU time, best of {args.repeats} (end to end kernel: 1); one binary run = "
          "the mean over the K problems 'class k against the rest'")


if __name__ == "__main__":
    main()
