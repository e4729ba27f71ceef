"""Speed of the Second-Order Perceptron against named baselines (issue 3, "Speed").

Primal form, in one process, BLAS limited to one thread (threadpoolctl), best
of ``--repeats`` timings after a warm-up call (the compile is excluded):

* (a) one ``"perceptron"`` epoch (``run_online``) on the same data;
* (b) one symmetric matrix-vector product plus one symmetric rank-one update,
  ``scipy.linalg.blas.dsymv`` and ``dsyr`` on an n x n matrix, averaged over
  ``B_CALLS`` pairs;
* the SO epoch (``run_online("second_order", form="primal")``), with m mistakes.

Target: SO epoch <= (a) + 1.5 m (b). Data: 20000 dense unit-norm rows,
n_features = 1000, labels sign(u . x) for a random u with 5% flipped.

Dual form: a degree-4 polynomial kernel (gamma = 1/784, coef0 = 1) on 20000
non-negative MNIST-sized rows (784 features; a synthetic stand-in: ten sparse
non-negative prototypes plus noise, clipped at 0, so no download), one epoch,
against a NumPy implementation of the same dual update (one matrix-vector
product for the k kernel values, the partitioned-inverse growth with np.outer);
the ratio NumPy / ours is reported, and both must make the same mistakes.

Loop against its floor (issue 32): the fixed-a primal loop alone (no
validation, no margins), one epoch on 100,000 dense unit-norm rows x 100 and on
100,000 CSR rows x 1,000 (80 nonzeros a row, unit norm, 5% noise), against
the read-once floor ``X @ w`` plus one ``dsymv`` (one pass over the n x n
A^{-1}) per mistake: the loop reads each row once and, on a mistake, sweeps
A^{-1} once (its pending downdate and the product fused).

Cold compile: a fresh process with ``NUMBA_CACHE_DIR`` pointed at an empty
folder makes one small run of every variant in both forms (every loop
compiles), against the same process with the package's warm cache.

Run: ``python benchmarks/bench_second_order.py [--repeats 3] [--small]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy.sparse as sp
from _timing import best_time, race
from scipy.linalg.blas import dsymv, dsyr
from threadpoolctl import threadpool_limits

from perceptron_bounds import run_online
from perceptron_bounds._linalg import rows
from perceptron_bounds.algorithms.second_order_rules import inverse_primal_loop

B_CALLS = 200
PRIMAL_TARGET = 1.5



def unit_norm_data(n_samples, n_features, rng):
    X = rng.standard_normal((n_samples, n_features))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    y = np.where(X @ rng.standard_normal(n_features) > 0, 1.0, -1.0)
    flip = rng.random(n_samples) < 0.05
    y[flip] = -y[flip]
    return X, y


def mnist_like(n_samples, rng):
    """Non-negative 784-pixel rows: one of ten sparse prototypes plus noise.

    y = +1 for an even prototype, with 3% of the labels flipped (a few percent
    of mistakes, as a kernel Perceptron makes on MNIST).
    """
    prototypes = np.where(rng.random((10, 784)) < 0.2, rng.random((10, 784)), 0.0)
    digit = rng.integers(0, 10, n_samples)
    X = np.clip(prototypes[digit] + 0.3 * rng.standard_normal((n_samples, 784)), 0.0, 1.0)
    X[rng.random(X.shape) < 0.6] = 0.0
    y = np.where(digit % 2 == 0, 1.0, -1.0)
    flip = rng.random(n_samples) < 0.03
    y[flip] = -y[flip]
    return X, y


def sparse_unit_rows(n_samples, n_features, nnz, rng):
    """CSR rows with ``nnz`` random nonzeros each (duplicates summed), unit norm, 5% noise."""
    indices = np.sort(rng.integers(0, n_features, (n_samples, nnz)), axis=1).ravel()
    X = sp.csr_matrix((rng.standard_normal(n_samples * nnz), indices,
                       np.arange(0, (n_samples + 1) * nnz, nnz)), shape=(n_samples, n_features))
    X.sum_duplicates()
    X = sp.csr_matrix(sp.diags(1.0 / np.sqrt(np.asarray(X.multiply(X).sum(1)).ravel())) @ X)
    y = np.where(X @ rng.standard_normal(n_features) > 0, 1.0, -1.0)
    flip = rng.random(n_samples) < 0.05
    y[flip] = -y[flip]
    return X, y


def loop_against_floor(name, X, y, repeats):
    """The fixed-a primal loop, one epoch in order, against X @ w plus m dsymv."""
    n = X.shape[1]
    order = np.arange(X.shape[0])
    Xr, w = rows(X), np.ones(n) / np.sqrt(n)
    A = np.asfortranarray(np.eye(n))

    def loop():
        state = (np.eye(n), np.zeros(n), np.zeros(n), np.empty(n), np.zeros(n))
        return inverse_primal_loop(Xr, y, order, state, (False,), np.empty(0))[0].shape[0]

    def symv():
        for _ in range(B_CALLS):
            dsymv(1.0, A, w)

    m = loop()
    best = race({"loop": loop, "read": lambda: X @ w, "symv": symv}, repeats)
    best["symv"] /= B_CALLS
    floor = best["read"] + m * best["symv"]
    print(f"{name}: fixed-a primal loop {best['loop'] * 1e3:.1f} ms, m = {m}; floor "
          f"{floor * 1e3:.1f} ms (X @ w {best['read'] * 1e3:.1f} ms + m dsymv "
          f"{m * best['symv'] * 1e3:.1f} ms): {best['loop'] / floor:.2f} x the floor")


def symv_syr_cost(n, rng) -> float:
    """(b): mean time of one dsymv + one dsyr on an n x n Fortran-ordered matrix."""
    A = np.asfortranarray(np.eye(n))
    xs = rng.standard_normal((B_CALLS, n)) / np.sqrt(n)

    def pairs():
        nonlocal A
        for x in xs:
            z = dsymv(1.0, A, x)
            A = dsyr(-1e-3, z, a=A, overwrite_a=True)

    return best_time(pairs, 3) / B_CALLS


def numpy_dual_poly(X, y, a, gamma, coef0, degree):
    """The dual SO update with fixed a in NumPy (same formulas as the jitted loop)."""
    n_samples = X.shape[0]
    S = np.empty((n_samples, X.shape[1]))
    m_inv = np.empty((n_samples, n_samples))
    alpha = np.empty(n_samples)
    k = 0
    mistakes = []
    for t in range(n_samples):
        x = X[t]
        g = (gamma * (S[:k] @ x) + coef0) ** degree
        s = alpha[:k] @ g
        if y[t] * s <= 0.0:
            u = m_inv[:k, :k] @ g
            schur = a + (gamma * (x @ x) + coef0) ** degree - g @ u
            m_inv[:k, :k] += np.outer(u, u / schur)
            m_inv[:k, k] = m_inv[k, :k] = -u / schur
            m_inv[k, k] = 1.0 / schur
            c = (y[t] - s) / schur
            alpha[:k] -= c * u
            alpha[k] = c
            S[k] = x
            k += 1
            mistakes.append(t)
    return np.array(mistakes, dtype=np.int64)


def compile_time() -> tuple[float, float]:
    """(warm, cold) wall seconds of a fresh process running every variant and form once."""
    code = (
        "import numpy as np; from perceptron_bounds import run_online; "
        "X = np.random.default_rng(0).standard_normal((40, 5)); y = np.sign(X[:, 0]); "
        "[run_online('second_order', X, y, variant=v, form=f, epochs=2, record_margins=True) "
        "for v in ('inverse', 'adaptive', 'pinv') for f in ('primal', 'dual')]"
    )

    def spawn(env):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, env=env)
        return time.perf_counter() - start

    spawn(dict(os.environ))
    warm = spawn(dict(os.environ))
    with tempfile.TemporaryDirectory() as cache:
        cold = spawn({**os.environ, "NUMBA_CACHE_DIR": cache})
    return warm, cold


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--small", action="store_true", help="2000 rows instead of 20000")
    args = parser.parse_args()
    n_samples = 2000 if args.small else 20_000
    rng = np.random.default_rng(0)
    with threadpool_limits(limits=1):
        X, y = unit_norm_data(n_samples, 1000, rng)
        t_fo = best_time(lambda: run_online("perceptron", X, y), args.repeats)
        t_b = symv_syr_cost(1000, rng)
        run = run_online("second_order", X, y, form="primal")
        t_so = best_time(lambda: run_online("second_order", X, y, form="primal"), args.repeats)
        m = run.mistakes
        budget = t_fo + PRIMAL_TARGET * m * t_b
        print(f"primal SO, {n_samples} x 1000 unit-norm rows, 5% noise, one epoch, 1 BLAS thread")
        print(f"  (a) perceptron epoch          {t_fo * 1e3:10.1f} ms")
        print(f"  (b) dsymv + dsyr, n = 1000    {t_b * 1e3:10.3f} ms")
        print(f"  SO epoch, m = {m:<6d}          {t_so * 1e3:10.1f} ms"
              f"   = {(t_so - t_fo) / (m * t_b):.2f} x m (b) + (a)")
        print(f"  target (a) + 1.5 m (b)        {budget * 1e3:10.1f} ms"
              f"   ratio {t_so / budget:.2f}  {'met' if t_so <= budget else 'NOT met'}")

        Xd, yd = mnist_like(n_samples, rng)
        options = {"kernel": "poly", "degree": 4, "gamma": 1.0 / 784, "coef0": 1.0}
        run = run_online("second_order", Xd, yd, form="dual", **options)
        t_dual = best_time(lambda: run_online("second_order", Xd, yd, form="dual", **options),
                           args.repeats)
        mistakes = numpy_dual_poly(Xd, yd, 1.0, 1.0 / 784, 1.0, 4)
        t_np = best_time(lambda: numpy_dual_poly(Xd, yd, 1.0, 1.0 / 784, 1.0, 4),
                         max(1, args.repeats - 1))
        same = np.array_equal(mistakes, run.mistake_trials)
        print(f"dual SO, poly degree 4, {n_samples} x 784 non-negative rows, one epoch")
        print(f"  ours  m = {run.mistakes:<6d}               {t_dual * 1e3:10.1f} ms")
        print(f"  NumPy m = {mistakes.shape[0]:<6d}               {t_np * 1e3:10.1f} ms"
              f"   ratio NumPy / ours {t_np / t_dual:.2f}; same mistakes: {same}")
        loop_against_floor("dense 100000 x 100", *unit_norm_data(100_000, 100, rng), args.repeats)
        loop_against_floor("CSR 100000 x 1000, 80 nonzeros a row",
                           *sparse_unit_rows(100_000, 1000, 80, rng), args.repeats)
    warm, cold = compile_time()
    print(f"fresh process, every variant and form: warm cache {warm:.2f} s, cold compile "
          f"{cold:.2f} s")


if __name__ == "__main__":
    main()
