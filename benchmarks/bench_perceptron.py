"""Speed of one epoch of ``"perceptron"`` against named baselines (issues 2 and 32).

For each data set, in one process, best of ``--repeats`` rounds in which the
contenders take turns, after a warm-up call each (the compile is excluded):

* ``loop``: the package's jitted Perceptron loop on validated data;
* ``floor``: a jitted loop (same Numba options, via ``perceptron_bounds._jit.jit``,
  and the same row access, ``perceptron_bounds._linalg.row_dot``) that only
  computes each row's dot product with a fixed w, i.e. the cost of reading X once;
* ``X @ w`` (CSR only): SciPy's product, reading X once;
* ``fixed w`` (CSR only): the package's loop on a w that makes no mistake (the reading
  alone, issue 32);
* ``sklearn loop``: ``sklearn.linear_model.Perceptron(fit_intercept=False,
  shuffle=False, tol=None, eta0=1, alpha=0, max_iter=1).fit`` under
  ``sklearn.config_context(assume_finite=True)``;
* ``numpy``: a plain NumPy loop over rows (timed on a prefix and scaled);
* end to end: ``run_online`` with its input checks against scikit-learn's
  ``fit`` with its own.

Data: unit-norm rows, labels sign(u . x) for a random u with ``--noise`` of
them flipped (default 5%, so a run keeps updating; the loop pays for every
mistake, the floor does not). The CSR matrix keeps scipy's int32 index
arrays, as a user would have them, and so do ``run_online`` and the loops (an
input kind of its own, issue 32). On CSR, end to end is split into the loop, the
input checks (``check_X``: one compiled read of X for NaN/inf, overflow, index
ranges, row order and the rows' norms) and the data fingerprint (``x_part``).

Targets: loop/floor <= 1.15 on the first dense shape (issue 32), 1.3 on the
second and 1.5 on the third (issue 2); on CSR (issue 32: 100,000 x 262,144, 80
nonzeros a row) loop / SciPy's ``X @ w`` <= 1.5; sklearn loop / loop >= 3;
sklearn fit / run_online >= 1.7 dense and >= 1.5 on CSR (issue 32); PA-I's
and the Ballseptron's loops on the CSR data within 1.2x of the Perceptron's
(issue 32); a fresh process importing the package and making a small run with
a warm Numba cache in < 2 s.

Floors of the CSR targets (measured 2026-11-27, load 0.7): the loop on a w that makes
no mistake takes 1.05x its rows' ``X @ w`` (both sum each row in order, a chain of
dependent additions), so the loop's 1.4x ``X @ w`` is the 44% mistakes' updates. End to
end is the loop (15.2 ms) plus one read of X for the input checks (3.8 ms), 19 ms
against scikit-learn's 25.8: 1.36x at best, below the 1.5x of issue 32 (measured
1.20x). PA-I updates on 99% of the trials and the Ballseptron (r = 0.1) on all,
against the Perceptron's 44%: what they add to its time is their updates, not the
reading (1.14x and 1.23x).

Times are CPU times of the calling thread by default (``--clock wall`` for
wall time): on a machine shared with other jobs they do not count the time the
process waits for a core. Every contender does its work in that thread
(process CPU time would also count idle helper threads of other libraries).

Run: ``python benchmarks/bench_perceptron.py [--repeats 7] [--small] [--noise 0.05]
[--clock cpu|wall] [--only dense|csr]``.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy.sparse as sp
import sklearn
from _timing import CLOCKS, best_time, race
from sklearn.linear_model import Perceptron as SkPerceptron

from perceptron_bounds import run_online
from perceptron_bounds._fingerprint import x_part
from perceptron_bounds._jit import jit
from perceptron_bounds._linalg import n_rows, row_dot, rows
from perceptron_bounds._validation import check_X
from perceptron_bounds.algorithms.ballseptron import _ballseptron_primal_loop
from perceptron_bounds.algorithms.passive_aggressive import _pa_primal_loop
from perceptron_bounds.algorithms.passive_aggressive_rules import VARIANTS
from perceptron_bounds.algorithms.perceptron import _perceptron_primal_loop

DENSE_SHAPES = {(100_000, 100): 1.15, (20_000, 1000): 1.3, (1_000_000, 20): 1.5}
CSR_SHAPE, CSR_NNZ_PER_ROW, CSR_FLOOR_TARGET = (100_000, 262_144), 80, 1.5
SKLEARN_LOOP_TARGET, STARTUP_TARGET = 3.0, 2.0
END_TO_END_TARGET = {"dense": 1.7, "csr": 1.5}
FAMILY_TARGET = 1.2  # PA-I's and the Ballseptron's loops / the Perceptron's, on CSR
NUMPY_PREFIX = 100_000


@jit
def _floor(X, y, w):
    """Count the rows with y_i (w . x_i) <= 0 for a fixed w: one read of dense or CSR X."""
    count = 0
    for i in range(n_rows(X)):
        if y[i] * row_dot(X, i, w) <= 0.0:
            count += 1
    return count


def _numpy_dense(X, y, w):
    for i in range(X.shape[0]):
        if y[i] * (X[i] @ w) <= 0.0:
            w += y[i] * X[i]


def _numpy_csr(data, indices, indptr, y, w):
    for i in range(indptr.shape[0] - 1):
        rows = slice(indptr[i], indptr[i + 1])
        idx = indices[rows]
        if y[i] * (data[rows] @ w[idx]) <= 0.0:
            w[idx] += y[i] * data[rows]


clock = CLOCKS["cpu"]


def labels(X, rng, noise) -> np.ndarray:
    u = rng.standard_normal(X.shape[1])
    y = np.where(np.asarray(X @ u).ravel() > 0, 1.0, -1.0)
    flip = rng.random(X.shape[0]) < noise
    y[flip] = -y[flip]
    return y


def dense_data(shape, rng, noise):
    X = rng.standard_normal(shape)
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    return X, labels(X, rng, noise)


def csr_data(shape, nnz_per_row, rng, noise):
    n, d = shape
    indices = np.sort(rng.integers(0, d, size=(n, nnz_per_row)), axis=1).ravel()
    indptr = np.arange(0, n * nnz_per_row + 1, nnz_per_row)
    X = sp.csr_matrix((rng.standard_normal(n * nnz_per_row), indices, indptr), shape=shape)
    X.sum_duplicates()
    norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    X = sp.csr_matrix(sp.diags(1.0 / norms) @ X)
    return X, labels(X, rng, noise)


def sklearn_fit(X, y):
    return SkPerceptron(fit_intercept=False, shuffle=False, tol=None, eta0=1, alpha=0,
                        max_iter=1).fit(X, y)


def measure(name, X, y, floor_target, repeats):
    """Time every contender on (X, y); return one row of the table."""
    Xv = check_X(X)
    Xr = rows(Xv)
    order = np.arange(X.shape[0], dtype=np.int64)
    no_margins = np.empty(0)
    w_fixed = np.full(X.shape[1], 1.0 / np.sqrt(X.shape[1]))
    kind = "csr" if sp.issparse(Xv) else "dense"
    extra = {}

    def loop():
        return _perceptron_primal_loop(Xr, y, order, (np.zeros(X.shape[1]),), (), no_margins)

    def floor():
        return _floor(Xr, y, w_fixed)

    if kind == "csr":
        w_right = sklearn_fit(X, y).coef_[0].copy()
        keep = y * np.asarray(X @ w_right) > 0  # rows this w gets right: no mistake there
        Xk, yk = check_X(X[keep]), y[keep]
        Xkr, order_k = rows(Xk), np.arange(Xk.shape[0], dtype=np.int64)
        records = np.empty(order.shape[0]), np.empty(order.shape[0])  # losses, taus
        extra = {
            "X @ w": lambda: X @ w_fixed,
            "fixed w": lambda: _perceptron_primal_loop(Xkr, yk, order_k, (w_right.copy(),), (),
                                                       no_margins),
            "fixed w X @ w": lambda: Xk @ w_right,
            "pa1": lambda: _pa_primal_loop(Xr, y, order, (np.zeros(X.shape[1]), *records),
                                           (VARIANTS.index("pa1"), 1.0), no_margins),
            "ballseptron": lambda: _ballseptron_primal_loop(
                Xr, y, order, (np.zeros(X.shape[1]),), (0.1, 0.0, 1.0), no_margins),
            "checks": lambda: check_X(X, return_sq_norms=True),
            "fingerprint": lambda: x_part(Xv),
        }
        prefix = min(X.shape[0], NUMPY_PREFIX // 5)

        def numpy_loop():
            end = Xv.indptr[prefix]
            _numpy_csr(Xv.data[:end], Xv.indices[:end], Xv.indptr[: prefix + 1], y,
                       np.zeros(X.shape[1]))
    else:
        prefix = min(X.shape[0], NUMPY_PREFIX)

        def numpy_loop():
            _numpy_dense(Xv[:prefix], y, np.zeros(X.shape[1]))

    def sklearn_loop():
        with sklearn.config_context(assume_finite=True):
            sklearn_fit(X, y)

    run = run_online("perceptron", X, y)
    sk = sklearn_fit(X, y)
    assert np.allclose(run.weights, sk.coef_[0], rtol=0, atol=1e-8), "weights differ from sklearn"
    t = race(
        {
            "loop": loop,
            "floor": floor,
            "sklearn_loop": sklearn_loop,
            "run_online": lambda: run_online("perceptron", X, y),
            "sklearn_fit": lambda: sklearn_fit(X, y),
            **extra,
        },
        repeats,
        clock,
    )
    t["numpy"] = best_time(numpy_loop, 1, clock) * X.shape[0] / prefix
    ratios = {
        "loop/floor": t["loop"] / t["floor"],
        "sk/loop": t["sklearn_loop"] / t["loop"],
        "np/loop": t["numpy"] / t["loop"],
        "sk/e2e": t["sklearn_fit"] / t["run_online"],
    }
    met = {
        "loop/floor": ratios["loop/floor"] <= floor_target,
        "sk/loop": ratios["sk/loop"] >= SKLEARN_LOOP_TARGET,
        "sk/e2e": ratios["sk/e2e"] >= END_TO_END_TARGET[kind],
    }
    if kind == "csr":  # the floor of issue 32 is SciPy's product
        ratios["loop/floor"] = t["loop"] / t["X @ w"]
        met["loop/floor"] = ratios["loop/floor"] <= floor_target
        for rule in ("pa1", "ballseptron"):
            ratios[f"{rule}/loop"] = t[rule] / t["loop"]
            met[f"{rule}/loop"] = ratios[f"{rule}/loop"] <= FAMILY_TARGET
    return {"name": name, "mistake_rate": run.mistakes / run.n_trials, "t": t,
            "ratios": ratios, "met": met, "floor_target": floor_target}


def startup_time(repeats: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """A fresh process importing the package and making a small run: (warm, cold) pairs
    of (wall, CPU) seconds, the best of ``repeats`` for warm.

    Warm uses the package's Numba cache (filled by a first call); cold points
    ``NUMBA_CACHE_DIR`` at an empty folder, so every loop it uses compiles.
    """
    code = (
        "import numpy as np; from perceptron_bounds import run_online; "
        "X = np.random.default_rng(0).standard_normal((200, 5)); "
        "run_online('perceptron', X, np.sign(X[:, 0]), epochs=2)"
    )

    def spawn(env):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, env=env)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime

    spawn(dict(os.environ))
    warm = min(spawn(dict(os.environ)) for _ in range(repeats))
    with tempfile.TemporaryDirectory() as cache:
        cold = spawn({**os.environ, "NUMBA_CACHE_DIR": cache})
    return warm, cold


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                        help="cpu: the thread's CPU time, robust on a shared machine (default)")
    parser.add_argument("--small", action="store_true", help="shapes / 10 (a quick look)")
    parser.add_argument("--only", choices=("dense", "csr"),
                        help="measure these data alone (and skip the fresh-process startup)")
    parser.add_argument("--noise", type=float, default=0.05,
                        help="fraction of flipped labels (mistakes cost the loop, not the floor)")
    args = parser.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]
    scale = 10 if args.small else 1
    rng = np.random.default_rng(0)
    rows = []
    for (n, d), target in DENSE_SHAPES.items() if args.only != "csr" else ():
        X, y = dense_data((n // scale, d), rng, args.noise)
        rows.append(measure(f"dense {n // scale}x{d}", X, y, target, args.repeats))
        del X, y
        gc.collect()
    if args.only != "dense":
        n, d = CSR_SHAPE
        X, y = csr_data((n // scale, d), CSR_NNZ_PER_ROW, rng, args.noise)
        rows.append(measure(f"csr {n // scale}x{d} nnz/row~{X.nnz / X.shape[0]:.0f}", X, y,
                            CSR_FLOOR_TARGET, args.repeats))
        del X, y
        gc.collect()

    header = (f"{'data':<28}{'mistakes':>9}{'loop ms':>9}{'floor ms':>9}{'sk loop':>9}"
              f"{'numpy ms':>10}{'e2e ms':>8}{'sk fit':>8} | {'loop/floor':>18}{'sk/loop':>13}"
              f"{'np/loop':>9}{'sk/e2e':>13}")
    print(header)
    print("-" * len(header))
    for r in rows:
        t, q, ok = r["t"], r["ratios"], r["met"]

        def mark(key, q=q, ok=ok):
            return f"{q[key]:.2f} {'ok' if ok[key] else 'MISS'}"

        floor_mark = f"{mark('loop/floor')} (<={r['floor_target']})"
        print(
            f"{r['name']:<28}{r['mistake_rate']:>9.1%}{1e3 * t['loop']:>9.1f}"
            f"{1e3 * t['floor']:>9.1f}{1e3 * t['sklearn_loop']:>9.1f}{1e3 * t['numpy']:>10.0f}"
            f"{1e3 * t['run_online']:>8.1f}{1e3 * t['sklearn_fit']:>8.1f} | "
            f"{floor_mark:>18}"
            f"{mark('sk/loop'):>13}{q['np/loop']:>9.0f}{mark('sk/e2e'):>13}"
        )
    print(f"{args.clock} time, best of {args.repeats}; targets: loop/floor as shown (CSR: "
          f"loop / SciPy X @ w); sk/loop >= 3; sk/e2e (sklearn fit / run_online) >= "
          f"{END_TO_END_TARGET['dense']} dense, >= {END_TO_END_TARGET['csr']} CSR")
    for r in rows:
        if "pa1/loop" not in r["ratios"]:
            continue
        t, q, ok = r["t"], r["ratios"], r["met"]
        print(f"{r['name']}: end to end at most sklearn fit / loop = "
              f"{t['sklearn_fit'] / t['loop']:.2f}x faster than scikit-learn (the loop alone, "
              f"no input checks); the checks, fingerprint and bookkeeping take "
              f"{1e3 * (t['run_online'] - t['loop']):.1f} ms")
        print(f"{r['name']}: end to end {1e3 * t['run_online']:.1f} ms = loop "
              f"{1e3 * t['loop']:.1f} + input checks {1e3 * t['checks']:.1f} + fingerprint "
              f"{1e3 * t['fingerprint']:.1f} + the rest "
              f"{1e3 * (t['run_online'] - t['loop'] - t['checks'] - t['fingerprint']):.1f} ms; "
              f"the checks read X once in {t['checks'] / t['X @ w']:.2f}x SciPy's X @ w")
        print(f"{r['name']}: X @ w {1e3 * t['X @ w']:.1f} ms; the loop on a w with no mistake "
              f"{1e3 * t['fixed w']:.1f} ms against its rows' X @ w {1e3 * t['fixed w X @ w']:.1f}"
              f" ms; PA-I loop {1e3 * t['pa1']:.1f} ms ({q['pa1/loop']:.2f}x the Perceptron's, "
              f"{'ok' if ok['pa1/loop'] else 'MISS'}), Ballseptron loop "
              f"{1e3 * t['ballseptron']:.1f} ms ({q['ballseptron/loop']:.2f}x, "
              f"{'ok' if ok['ballseptron/loop'] else 'MISS'}; target <= {FAMILY_TARGET})")
    if args.only:
        return
    warm, cold = startup_time(5)
    print(f"fresh process, import + small run, wall (CPU) s: warm cache {warm[0]:.2f} "
          f"({warm[1]:.2f}) {'ok' if warm[0] < STARTUP_TARGET else 'MISS'} "
          f"(target < {STARTUP_TARGET}); cold compile {cold[0]:.2f} ({cold[1]:.2f})")


if __name__ == "__main__":
    main()
