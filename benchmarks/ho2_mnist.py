"""HO2 against FO on MNIST (issue 26): an independent transcription of paper 000's dual HO2.

Paper 000 (Brotto, Gentile, Vitale 2007), Table 3 reports that HO2 makes fewer
corrections than FO on MNIST with both kernels; the package finds them level.
This script settles whether the package's dual HO2 differs from the paper's
algorithm, and then whether any setting the paper leaves open gives its ordering.
It shares no code with the package: MNIST is read from the IDX files here, the
kernels are computed here, and the algorithms below are written from the paper:

* FO, the kernel Perceptron: margin sum_i y_i K(x_i, x) over the mistakes i;
* HO2 (Figure 1, p = 2) in its dual form (sec. 2, "2) Dual version"): with
  A_k = B_k^T B_k = I + sum_ij d_ij x_i x_j^T and v_k = sum_i y_i x_i, the margin
  v^T A x = g^T k(x), g = y + D h, h_i = v . x_i; on the k-th mistake
  b = D k(x_t), D grows by the row/column -rho_k b and the corner
  d_kk = rho_k^2 (x_t . x_t + k(x_t)^T b) - 2 rho_k, rho_k = c / k;
* sparse HO2: rho_k = 0 when y_t v_{k-1} . x_t < 0 (the matrix is not updated).

"Kernel normalisation" scales the kernel to unit norm in feature space,
K(x, z) / sqrt(K(x, x) K(z, z)) (the paper assumes ||x_t|| = 1, Figure 1), for HO2;
FO's predictions do not change under it for the kernels here (K(x, x) is constant
on rows of one norm, and only for the polynomial kernel of raw rows it is not).

Modes:

``compare``: trial by trial against ``run_online("higher_order", form="dual")`` and
``run_online("perceptron")`` on N training images, one digit against the rest:
the mistaken trials and the margins.

``sweep``: 5-fold cross-validation (as the paper) over instance normalisation
(unit rows / pixels in [0, 1]), kernel normalisation, c in 0.1..0.9, the Gaussian
width, the polynomial degree and offset, one-vs-rest over the 10 digits, one
epoch: the mean validation error and corrections of every setting, written as JSON.

``full``: the package at the paper's size on given kernel settings, FO against HO2.

``summary``: the sweep's paired comparison, and the chosen settings trained on the N
rows and tested on the test set.

Run: ``python benchmarks/ho2_mnist.py compare --n 2000``;
``nice -n 10 python benchmarks/ho2_mnist.py sweep --n 3000 --out sweep.json``.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import os
import time

import numpy as np

MNIST = os.environ.get("PERCEPTRON_BOUNDS_DATA", "/work/shared/data/mnist")
BLOCK = 512


def read_idx(name: str) -> np.ndarray:
    """An IDX file of the MNIST folder: big-endian header, then unsigned bytes."""
    with gzip.open(os.path.join(MNIST, name), "rb") as handle:
        data = handle.read()
    dims = data[3]
    shape = tuple(int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(dims))
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * dims).reshape(shape)


def mnist(n_train: int, n_test: int, seed: int = 0):
    """n_train training and n_test test images (random rows, kept in file order)."""
    rng = np.random.default_rng(seed)
    X = read_idx("train-images-idx3-ubyte.gz").reshape(60000, -1).astype(np.float64)
    y = read_idx("train-labels-idx1-ubyte.gz").astype(np.int64)
    Xt = read_idx("t10k-images-idx3-ubyte.gz").reshape(10000, -1).astype(np.float64)
    yt = read_idx("t10k-labels-idx1-ubyte.gz").astype(np.int64)
    rows = np.sort(rng.choice(60000, n_train, replace=False))
    test = np.sort(rng.choice(10000, n_test, replace=False))
    return X[rows], y[rows], Xt[test], yt[test]


def instances(X, mode: str):
    """Rows of unit Euclidean norm ("unit") or pixels scaled to [0, 1] ("pixels")."""
    if mode == "unit":
        return X / np.linalg.norm(X, axis=1, keepdims=True)
    return X / 255.0


def gram(A, B, kernel: str, gamma: float, degree: int, coef0: float):
    """K(a_i, b_j): exp(-gamma ||a - b||^2) or (gamma a . b + coef0)^degree."""
    dots = A @ B.T
    if kernel == "gauss":
        sq = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2.0 * dots
        return np.exp(-gamma * np.maximum(sq, 0.0))
    return (gamma * dots + coef0) ** degree


def run_fo(G, diag, y, order):
    """One epoch of the kernel Perceptron over ``order``: (mistaken trials, coefficients)."""
    support, coef, mistakes = [], [], []
    pos = 0
    while pos < len(order):
        block = order[pos:pos + BLOCK]
        if support:
            margins = np.asarray(coef) @ G[np.ix_(support, block)]
        else:
            margins = np.zeros(len(block))
        bad = np.flatnonzero(y[block] * margins <= 0.0)
        if bad.size == 0:
            pos += len(block)
            continue
        t = block[bad[0]]
        mistakes.append(pos + bad[0])
        support.append(t)
        coef.append(y[t])
        pos += bad[0] + 1
    return mistakes, np.array(support, dtype=np.int64), np.array(coef, dtype=np.float64)


def run_ho2(G, diag, y, order, c: float, sparse: bool = False):
    """One epoch of dual HO2 over ``order`` (paper 000 sec. 2): (mistaken trials, support,
    coefficients g, matrix updates). G is the kernel among rows, diag its diagonal
    (x_t . x_t in feature space)."""
    S, ys = [], []                     # mistaken instances and their labels
    D = np.zeros((0, 0))               # d_ij of A = I + sum d_ij x_i x_j^T
    h = np.zeros(0)                    # h_i = v . x_i
    g = np.zeros(0)                    # g = y + D h: the margin is g . k(x)
    mistakes, updates = [], 0
    pos = 0
    while pos < len(order):
        block = order[pos:pos + BLOCK]
        margins = g @ G[np.ix_(S, block)] if S else np.zeros(len(block))
        bad = np.flatnonzero(y[block] * margins <= 0.0)
        if bad.size == 0:
            pos += len(block)
            continue
        t = block[bad[0]]
        mistakes.append(pos + bad[0])
        k = len(S) + 1
        kx = G[S, t] if S else np.zeros(0)          # k(x_t) over the past mistakes
        yvx = y[t] * (np.asarray(ys) @ kx) if S else 0.0
        rho = 0.0 if (sparse and yvx < 0.0) else c / k
        updates += rho > 0.0
        b = D @ kx
        corner = rho * rho * (diag[t] + kx @ b) - 2.0 * rho
        D = np.block([[D, -rho * b[:, None]], [-rho * b[None, :], np.array([[corner]])]])
        h = np.append(h + y[t] * kx, (np.asarray(ys) @ kx if S else 0.0) + y[t] * diag[t])
        S.append(t)
        ys.append(y[t])
        g = np.asarray(ys, dtype=np.float64) + D @ h
        pos += bad[0] + 1
    return mistakes, np.array(S, dtype=np.int64), g, updates


def normalised(G, diag_rows, diag_cols):
    """The kernel scaled to unit feature-space norm: K / sqrt(K(x, x) K(z, z))."""
    return G / np.sqrt(np.outer(diag_rows, diag_cols))


def ovr(G, diag, labels, order, algorithm, **params):
    """One-vs-rest: per digit a binary run; (corrections, per digit (support, coef))."""
    total, models = 0, []
    for digit in range(10):
        y = np.where(labels == digit, 1.0, -1.0)
        if algorithm == "FO":
            mistakes, support, coef = run_fo(G, diag, y, order)
        else:
            mistakes, support, coef, _ = run_ho2(G, diag, y, order, **params)
        total += len(mistakes)
        models.append((support, coef))
    return total, models


def predict(models, G_cross):
    """argmax over the digits of g . k(x); G_cross[i, j] = K(train_i, x_j)."""
    scores = np.stack([coef @ G_cross[support] if len(support) else np.zeros(G_cross.shape[1])
                       for support, coef in models])
    return scores.argmax(axis=0)


def compare(args):
    """Trial by trial against the package (binary: ``--digit`` against the rest)."""
    from perceptron_bounds.online import run_online

    X, labels, _, _ = mnist(args.n, 10)
    X = instances(X, "unit")
    y = np.where(labels == args.digit, 1.0, -1.0)
    order = np.arange(args.n)
    cases = [("gauss", {"gamma": 4.0}), ("poly", {"gamma": 1.0, "degree": 6, "coef0": 1.0})]
    for (kernel, kp), c, sparse in itertools.product(cases, (0.2, 0.5, 0.8), (False, True)):
        full = {"gamma": 1.0, "degree": 3, "coef0": 1.0, **kp}
        G = gram(X, X, kernel, **full)
        diag = np.diag(G).copy()
        Gn = normalised(G, diag, diag)
        ours, support, g, updates = run_ho2(Gn, np.ones(args.n), y, order, c, sparse)
        name = "rbf" if kernel == "gauss" else "poly"
        run = run_online("higher_order", X, y, p=2.0, c=c, sparse=sparse, form="dual",
                         kernel=name, record_margins=True, **kp)
        theirs = run.mistake_trials.tolist()
        same = theirs == ours
        first = next((i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b),
                     None)
        fo, _, _ = run_fo(G, diag, y, order)
        fo_pkg = run_online("perceptron", X, y, kernel=name, **kp).mistake_trials.tolist()
        print(f"{kernel:5} c={c} sparse={sparse!s:5}: ours {len(ours)} mistakes "
              f"({updates} matrix updates), package {len(theirs)} "
              f"({run.state['matrix_updates']}); same trials: {same}"
              + ("" if same else f" (first difference at mistake {first})")
              + f"; FO ours {len(fo)}, package {len(fo_pkg)}, same: {fo == fo_pkg}")


def settings(X):
    """The grid: (instances, kernel, kernel parameters, gamma's scale), the Gaussian kernel
    first, then the polynomial one with offset 1, then offsets 0.5 and 2 (a sweep cut short
    still covers every dimension)."""
    scale = {}
    for inst in ("unit", "pixels"):
        Z = instances(X, inst)
        scale[inst] = float(np.mean((Z * Z).sum(1)))  # mean squared norm: gamma in its units
    out = [(inst, "gauss", {"gamma": s / scale[inst], "degree": 0, "coef0": 0.0}, s)
           for inst in ("unit", "pixels") for s in (1.0, 2.0, 4.0, 8.0, 16.0)]
    for coef0 in (1.0, 0.5, 2.0):
        out += [(inst, "poly", {"gamma": 1.0 / scale[inst], "degree": degree, "coef0": coef0},
                 None) for inst in ("unit", "pixels") for degree in (2, 3, 4, 5, 6, 7)]
    return out


def sweep(args):
    """5-fold cross-validation of FO and HO2 over the grid; one JSON record per setting."""
    X, labels, _, _ = mnist(args.n, 10)
    fold_of = np.random.default_rng(0).permutation(args.n) % 5
    records = []
    if os.path.exists(args.out):  # resume: the settings already measured are kept
        with open(args.out, encoding="utf-8") as handle:
            records = json.load(handle)
    done = {(r["instances"], r["kernel"], r["degree"], r["coef0"], r["scale"]) for r in records}
    start = time.perf_counter()
    for inst, kernel, kp, scale in settings(X):
        if (inst, kernel, kp["degree"], kp["coef0"], scale) in done:
            continue
        Z = instances(X, inst)
        G = gram(Z, Z, kernel, **kp)
        diag = np.diag(G).copy()
        variants = [("FO", None, None)]
        norms = (True,) if kernel == "gauss" else (True, False)
        variants += [("HO2", c, knorm) for knorm in norms for c in (0.1, 0.3, 0.5, 0.7, 0.9)]
        Gn = normalised(G, diag, diag)
        for algorithm, c, knorm in variants:
            errors, corrections = [], []
            for fold in range(5):
                fit, held = np.flatnonzero(fold_of != fold), np.flatnonzero(fold_of == fold)
                K, d = (Gn, np.ones(args.n)) if knorm else (G, diag)
                params = {} if algorithm == "FO" else {"c": c}
                total, models = ovr(K, d, labels, fit, algorithm, **params)
                corrections.append(total)
                errors.append(float(np.mean(predict(models, K[:, held]) != labels[held])))
            records.append({"instances": inst, "kernel": kernel, **kp, "scale": scale,
                            "algorithm": algorithm, "c": c, "kernel_normalised": knorm,
                            "validation_error": float(np.mean(errors)),
                            "corrections": float(np.mean(corrections))})
            print(json.dumps(records[-1]), f"{time.perf_counter() - start:.0f} s",
                  f"load {os.getloadavg()[0]:.1f}", flush=True)
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump(records, handle, indent=1)


def summary(args):
    """The sweep read back: per kernel the paired FO/HO2 comparison and the chosen settings,
    then those settings trained on the N rows and tested on the 10,000 test images."""
    with open(args.out, encoding="utf-8") as handle:
        records = json.load(handle)
    key = ("instances", "kernel", "gamma", "degree", "coef0")
    chosen = []
    for kernel in ("gauss", "poly"):
        rows = [r for r in records if r["kernel"] == kernel]
        if not rows:
            continue
        fo = {tuple(r[k] for k in key): r for r in rows if r["algorithm"] == "FO"}
        both = fewer = lower = 0
        for setting, base in fo.items():
            ho = [r for r in rows
                  if r["algorithm"] == "HO2" and tuple(r[k] for k in key) == setting]
            best = min(ho, key=lambda r: r["validation_error"])
            lower += best["validation_error"] < base["validation_error"]
            fewer += best["corrections"] < base["corrections"]
            both += any(r["validation_error"] < base["validation_error"]
                        and r["corrections"] < base["corrections"] for r in ho)
        print(f"{kernel}: {len(fo)} kernel settings; HO2's best c has a lower validation error "
              f"than FO in {lower}, fewer corrections in {fewer}; some c has both in {both}")
        for algorithm in ("FO", "HO2"):
            best = min((r for r in rows if r["algorithm"] == algorithm),
                       key=lambda r: r["validation_error"])
            print(f"  chosen {algorithm}: {json.dumps(best)}")
            chosen.append(best)
    X, labels, Xt, yt = mnist(args.n, 10000)
    for row in chosen:
        kp = {k: row[k] for k in ("gamma", "degree", "coef0")}
        Z, Zt = instances(X, row["instances"]), instances(Xt, row["instances"])
        G, C = gram(Z, Z, row["kernel"], **kp), gram(Z, Zt, row["kernel"], **kp)
        diag = np.diag(G).copy()
        if row["kernel_normalised"]:
            dt = np.array([gram(z[None], z[None], row["kernel"], **kp)[0, 0] for z in Zt])
            G, C, diag = normalised(G, diag, diag), normalised(C, diag, dt), np.ones(args.n)
        params = {} if row["algorithm"] == "FO" else {"c": row["c"]}
        total, models = ovr(G, diag, labels, np.arange(args.n), row["algorithm"], **params)
        error = float(np.mean(predict(models, C) != yt))
        print(f"test {row['kernel']} {row['algorithm']}: {total} corrections on {args.n} rows, "
              f"test error {100 * error:.2f}% on 10,000")


def full(args):
    """The package at full size (60,000 + 10,000, unit rows, one epoch, one-vs-rest) on the
    kernel settings ``--kernel`` with FO and HO2(c) for every ``--c``: does the ordering that
    the 3,000-row sweep found hold at the paper's size?"""
    from perceptron_bounds.datasets import load_mnist, normalize_rows
    from perceptron_bounds.experiments import corrections_table

    train, test = load_mnist(MNIST, download=False)
    kernel = json.loads(args.kernel)
    name = "rbf" if kernel.pop("kernel") == "gauss" else "poly"
    specs = [("FO", "perceptron", {"kernel": name, **kernel})]
    specs += [(f"HO2({c})", "higher_order", {"p": 2.0, "c": c, "kernel": name, **kernel})
              for c in args.c]
    start = time.perf_counter()
    rows = corrections_table(specs, (normalize_rows(train.X), train.y),
                             (normalize_rows(test.X), test.y), n_jobs=args.n_jobs)
    for row in rows:
        print(f"{row['label']:10} {json.dumps(kernel)}: {row['corrections']} corrections, test "
              f"error {100 * row['test_error']:.2f}%")
    print(f"{time.perf_counter() - start:.0f} s wall, load {os.getloadavg()[0]:.1f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("compare", "sweep", "summary", "full"))
    parser.add_argument("--kernel", default='{"kernel": "gauss", "gamma": 2.0}',
                        help="full: the kernel, JSON")
    parser.add_argument("--c", type=float, nargs="+", default=[0.7, 0.9], help="full: HO2's c")
    parser.add_argument("--n-jobs", type=int, default=1, help="full: joblib workers")
    parser.add_argument("--n", type=int, default=3000, help="training images")
    parser.add_argument("--digit", type=int, default=9, help="compare: the positive class")
    parser.add_argument("--out", default="ho2_sweep.json")
    args = parser.parse_args()
    {"compare": compare, "sweep": sweep, "summary": summary, "full": full}[args.mode](args)


if __name__ == "__main__":
    main()
