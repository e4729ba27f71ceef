"""Speed of the Higher-Order Perceptron forms against NumPy and the Perceptron (issue 4, "Speed").

Data: the paper's Artificial 0.0 (paper 000 sec. 4 Task 1, theory §5): n = 500,
1000 training examples, 20 epochs in order, from
:func:`perceptron_bounds.datasets.make_hop_artificial`. Configurations:
HO2(0.4), HO7(0.4) and sparse HO2(0.4), each in every form it has (primal,
dual with the linear kernel, implicit; HO7 only implicit).

For each configuration and form, in one process, after a warm-up call (the
compile is excluded), best of ``--repeats``:

* ``run``: the whole 20-epoch ``run_online`` call (mistakes and correct trials);
* ``numpy``: a plain NumPy implementation of the same form (per-trial Python
  loop, NumPy inside a trial), on the same sequence; it must make the same
  mistakes. ``numpy/run`` is the speed-up (target >= 20);
* ``correct``: the cost of one correct trial, from the final state: the run is
  continued (warm start) over rows the final hypothesis classifies correctly,
  for two lengths, and the time difference is divided by the trial
  difference (fixed costs cancel). Same for the NumPy form and for
  ``"perceptron"`` (its own final state, measured again beside each form so
  that both see the same machine load). ``corr/FO`` is the target ratio for
  the implicit form (<= 1.5);
* ``mistake``: (run - correct trials x correct) / mistakes. For the dual form
  a correct trial costs O(k) and k grows during the run, so its per-mistake
  figure (from the final, largest k) is a lower estimate.

``compile``: a fresh process with an empty Numba cache making one small run of
every form and of ``"pnorm"`` (cold compile plus import), then the
same with the cache it left (warm).

Run: ``python benchmarks/bench_higher_order.py [--repeats 3] [--epochs 20]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from perceptron_bounds import run_online
from perceptron_bounds._linalg import normalize_rows
from perceptron_bounds.datasets import make_hop_artificial

CONFIGS = [
    ("HO2(0.4)", {"p": 2.0, "c": 0.4, "sparse": False}, ("primal", "dual", "implicit")),
    ("HO7(0.4)", {"p": 7.0, "c": 0.4, "sparse": False}, ("implicit",)),
    ("sparse HO2(0.4)", {"p": 2.0, "c": 0.4, "sparse": True}, ("primal", "dual", "implicit")),
]
SPEEDUP_TARGET, CORRECT_TRIAL_TARGET = 20.0, 1.5
CORRECT_TRIALS = (20_000, 620_000)
CORRECT_REPEATS = 7  # the difference of two timings is noisy on a shared machine: best of many


def np_link(theta, p):
    if p == 2.0:
        return theta.copy()
    norm = np.sum(np.abs(theta) ** p) ** (1.0 / p)
    if norm == 0:
        return np.zeros_like(theta)
    return np.sign(theta) * np.abs(theta) ** (p - 1) / norm ** (p - 2)


def np_primal(X, y, order, rho_seq, sparse, state=None):
    """Paper 000 sec. 2 item 1 in NumPy: A = B^T B, w = A v."""
    n = X.shape[1]
    st = state or {"A": np.eye(n), "v": np.zeros(n), "w": np.zeros(n), "k": 0}
    A, v, w, k = st["A"].copy(), st["v"].copy(), st["w"].copy(), st["k"]
    mistakes = []
    for t, i in enumerate(order):
        x = X[i]
        if y[i] * (w @ x) > 0:
            continue
        k += 1
        rho = 0.0 if sparse and y[i] * (v @ x) < 0 else rho_seq[k - 1]
        if rho > 0:
            ax = A @ x
            A += rho * (rho * (x @ ax) * np.outer(x, x) - np.outer(ax, x) - np.outer(x, ax))
        v += y[i] * x
        w = A @ v
        mistakes.append(t)
    return mistakes, {"A": A, "v": v, "w": w, "k": k}


def np_implicit(X, y, order, rho_seq, sparse, p, state=None):
    """Paper 000 sec. 2 item 3 in NumPy: factors kept, w = B^T g(B v) per mistake."""
    n = X.shape[1]
    st = state or {"F": [], "G": [], "R": [], "v": np.zeros(n), "w": np.zeros(n), "k": 0}
    F, G, R = list(st["F"]), list(st["G"]), list(st["R"])
    v, w, k = st["v"].copy(), st["w"].copy(), st["k"]
    mistakes = []
    for t, i in enumerate(order):
        x = X[i]
        if y[i] * (w @ x) > 0:
            continue
        k += 1
        rho = 0.0 if sparse and y[i] * (v @ x) < 0 else rho_seq[k - 1]
        if rho > 0:
            F.append(x)
            G.append(np_link(x, p))
            R.append(rho)
        v += y[i] * x
        z = v.copy()
        for j in range(len(F) - 1, -1, -1):
            z -= R[j] * (G[j] @ z) * F[j]
        w = np_link(z, p)
        for j in range(len(F)):
            w -= R[j] * (F[j] @ w) * G[j]
        mistakes.append(t)
    return mistakes, {"F": F, "G": G, "R": R, "v": v, "w": w, "k": k}


def np_dual(X, y, order, rho_seq, sparse, state=None):
    """Paper 000 sec. 2 item 2 in NumPy (linear kernel, unit rows): D, h, g; margin g . X_k^T x."""
    n, cap = X.shape[1], len(order) + (state["k"] if state else 0) + 1
    if state is None:
        S, sy, h, g = np.zeros((cap, n)), np.zeros(cap), np.zeros(cap), np.zeros(cap)
        D, active, k = np.zeros((0, 0)), [], 0
    else:
        k = state["k"]
        S, sy, h, g = (np.zeros((cap, n)), np.zeros(cap), np.zeros(cap), np.zeros(cap))
        S[:k], sy[:k], h[:k], g[:k] = state["S"], state["sy"], state["h"], state["g"]
        D, active = state["D"], list(state["active"])
    mistakes = []
    for t, i in enumerate(order):
        x = X[i]
        r = S[:k] @ x
        if y[i] * (g[:k] @ r) > 0:
            continue
        vx = sy[:k] @ r
        rho = 0.0 if sparse and y[i] * vx < 0 else rho_seq[k]
        if rho > 0:
            ra = r[active]
            b = D @ ra
            dkk = rho * rho * (ra @ b) - 2 * rho + rho * rho
            D = np.block([[D, -rho * b[:, None]], [-rho * b[None, :], np.array([[dkk]])]])
            active.append(k)
        h[:k] += y[i] * r
        h[k] = vx + y[i]
        S[k], sy[k] = x, y[i]
        k += 1
        g[:k] = sy[:k]
        g[active] += D @ h[active]
        mistakes.append(t)
    return mistakes, {"S": S[:k], "sy": sy[:k], "h": h[:k], "g": g[:k], "D": D,
                      "active": active, "k": k}


def best_time(repeats, fn, *args, **kwargs):
    """(best wall time of ``repeats`` calls of fn(*args, **kwargs), its last result)."""
    best, out = np.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn(*args, **kwargs)
        best = min(best, time.perf_counter() - start)
    return best, out


def numpy_form(form, Xn, y, order, rho_seq, params, state=None):
    if form == "primal":
        return np_primal(Xn, y, order, rho_seq, params["sparse"], state)
    if form == "dual":
        return np_dual(Xn, y, order, rho_seq, params["sparse"], state)
    return np_implicit(Xn, y, order, rho_seq, params["sparse"], params["p"], state)


def correct_trial_cost(run, X, y, repeats, numpy_state=None, numpy_args=None):
    """Seconds per correct trial from the final state of ``run`` (jitted, and NumPy if given)."""
    ok = np.flatnonzero(run.predict(X) == y)
    Xc, yc = X[ok], y[ok]
    times = []
    for trials in CORRECT_TRIALS:
        epochs = trials // ok.size
        t, cont = best_time(max(repeats, CORRECT_REPEATS), run_online, run.algorithm, Xc, yc,
                            epochs=epochs, warm_start=run)
        assert cont.mistakes == 0
        times.append((t, epochs * ok.size))
    jit_cost = (times[1][0] - times[0][0]) / (times[1][1] - times[0][1])
    if numpy_state is None:
        return jit_cost, None
    form, Xn, params = numpy_args
    order = np.tile(ok, 5)
    t, (mistakes, _) = best_time(1, numpy_form, form, Xn, y, order, np.zeros(1), params,
                                 numpy_state)
    assert not mistakes
    return jit_cost, t / order.size


COMPILE_SCRIPT = """
import numpy as np
from perceptron_bounds import run_online
X = np.random.default_rng(0).standard_normal((30, 4))
y = np.sign(X[:, 0])
for params in ({"form": "primal"}, {"form": "implicit", "p": 3.0}, {"kernel": "rbf"}):
    run_online("higher_order", X, y, epochs=2, **params)
run_online("pnorm", X, y, p=3.0)
"""


def compile_times() -> tuple[float, float]:
    """Seconds for a fresh process running COMPILE_SCRIPT: empty Numba cache, then warm."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        times = []
        for _ in range(2):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", COMPILE_SCRIPT], env=env, check=True)
            times.append(time.perf_counter() - start)
    return times[0], times[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--epochs", type=int, default=20)
    args = parser.parse_args()
    train, _ = make_hop_artificial(0.0, n_train=1000, n_test=1, seed=0)
    X, y = train.X, train.y
    T = args.epochs * X.shape[0]
    run_online("perceptron", X, y, epochs=2)
    t_fo, fo = best_time(args.repeats, run_online, "perceptron", X, y, epochs=args.epochs)
    fo_correct, _ = correct_trial_cost(fo, X, y, args.repeats)
    print(f"Artificial 0.0: n={X.shape[1]}, {X.shape[0]} examples, {args.epochs} epochs "
          f"({T} trials)")
    print(f"perceptron: run {t_fo * 1e3:.1f} ms, {fo.mistakes} mistakes, "
          f"correct trial {fo_correct * 1e9:.0f} ns")
    header = (f"{'config':<16}{'form':<9}{'mistakes':>9}{'run ms':>9}{'numpy ms':>10}"
              f"{'numpy/run':>10}{'correct ns':>11}{'np corr ns':>11}{'corr/FO':>8}"
              f"{'mistake us':>11}{'np mist us':>11}")
    print(header)
    print("-" * len(header))
    failures = []
    for name, params, forms in CONFIGS:
        Xn = normalize_rows(X, params["p"])
        rho_seq = params["c"] / np.arange(1.0, T + 1.0)
        for form in forms:
            run_online("higher_order", X, y, epochs=2, form=form, **params)
            t_run, run = best_time(args.repeats, run_online, "higher_order", X, y,
                                   epochs=args.epochs, form=form, **params)
            t_np, (np_mistakes, np_state) = best_time(1, numpy_form, form, Xn, y,
                                                      run.sample_index, rho_seq, params)
            assert np.array_equal(np_mistakes, run.mistake_trials), (name, form)
            correct, np_correct = correct_trial_cost(run, X, y, args.repeats, np_state,
                                                     (form, Xn, params))
            n_correct = T - run.mistakes
            mistake = (t_run - n_correct * correct) / run.mistakes
            np_mistake = (t_np - n_correct * np_correct) / run.mistakes
            fo_now, _ = correct_trial_cost(fo, X, y, args.repeats)  # same load as `correct`
            speedup, vs_fo = t_np / t_run, correct / fo_now
            print(f"{name:<16}{form:<9}{run.mistakes:>9}{t_run * 1e3:>9.1f}{t_np * 1e3:>10.0f}"
                  f"{speedup:>10.0f}{correct * 1e9:>11.0f}{np_correct * 1e9:>11.0f}"
                  f"{vs_fo:>8.2f}{mistake * 1e6:>11.1f}{np_mistake * 1e6:>11.0f}")
            if speedup < SPEEDUP_TARGET:
                failures.append(f"{name} {form}: numpy/run {speedup:.1f} < {SPEEDUP_TARGET}")
            if form == "implicit" and vs_fo > CORRECT_TRIAL_TARGET:
                failures.append(f"{name} implicit: correct trial {vs_fo:.2f}x the Perceptron's")
    cold, warm = compile_times()
    print(f"compile: fresh process, every form: {cold:.1f} s cold cache, {warm:.1f} s warm")
    print("targets met" if not failures else "targets missed:\n  " + "\n  ".join(failures))


if __name__ == "__main__":
    main()
