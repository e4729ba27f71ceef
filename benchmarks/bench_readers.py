"""Data in at the speed of the disk (issue 34): ``run --data FILE`` against Vowpal Wabbit.

In one process, on files generated under ``--folder`` (default /tmp/pb-bench-readers,
deleted at the end unless ``--keep``):

* dense: 100,000 x 100 unit rows (repr of each float64: 17 significant digits), as
  svmlight (about 230 MB), CSV (about 210 MB) and CSV with text labels (spam/ham);
* sparse: 100,000 rows x 262,144 features, 80 nonzeros each (svmlight, about 130 MB).

Contenders, each best of ``--repeats`` rounds taking turns (wall time):

* ``vw text``: Vowpal Wabbit's one pass with the hinge loss over the same rows in its text
  format, in this process (``vowpalwabbit.Workspace(...).run_parser()``; no process
  start-up, so a stricter baseline than the ``vw`` command);
* ``run, no cache``: ``perceptron-bounds run --algorithm perceptron --data FILE`` as a
  fresh process (start-up and imports included), the cache of parsed files off;
* ``run, cache``: the same with the cache warm (the second run on a file);
* ``read floor``: ``np.fromfile`` of the file (reading it once, from the page cache);
* ``start-up floor``: the same command on a 2-row file: the process, its imports and the
  loading of the compiled loops from Numba's cache, which every run pays.

Targets: ``run, no cache`` <= ``vw text``; ``run, cache`` <= 2/3 ``vw text``.

With ``--stream-gb G`` (default 2): a G GB svmlight file (copies of the dense file's rows)
streamed by ``run --memory-budget 256MB``, its peak resident memory read by
``/usr/bin/time -v``, and its mistakes checked against the in-memory run on the same rows
(the dense rows with ``epochs`` = the number of copies). Target: peak < 400 MB, equal runs.
Then ``compare --memory-budget 256MB --u FILE`` on it (the run and its bounds at u, the
in-memory run's final weights, streamed): peak memory, and its bounds against ``evaluate``
of the in-memory run on the same rows.

Needs ``pip install vowpalwabbit`` (the ``bench`` extra). Run:
``python benchmarks/bench_readers.py [--repeats 3] [--stream-gb 2] [--keep]``
(``--repeats 0``: the streamed file only).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

import numpy as np

from perceptron_bounds import run_online
from perceptron_bounds.datasets import load_data

CLI = [os.path.join(os.path.dirname(sys.executable), "perceptron-bounds")]


def write_dense(folder: str, n: int = 100_000, d: int = 100, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    y = np.where(X @ rng.standard_normal(d) > 0, 1, -1)
    y[rng.random(n) < 0.05] *= -1
    rows = X.tolist()
    paths = {k: os.path.join(folder, f"dense.{k}") for k in ("svm", "csv", "vw")}
    paths["words"] = os.path.join(folder, "words.csv")
    with open(paths["svm"], "w") as svm, open(paths["csv"], "w") as csv, \
            open(paths["vw"], "w") as vw, open(paths["words"], "w") as words:
        for label, row in zip(y.tolist(), rows, strict=True):
            cells = [repr(v) for v in row]
            features = " ".join(f"{j + 1}:{c}" for j, c in enumerate(cells))
            svm.write(f"{label} {features}\n")
            vw.write(f"{label} | {features}\n")
            csv.write(",".join(cells) + f",{label}\n")
            words.write(",".join(cells) + (",spam\n" if label > 0 else ",ham\n"))
    return paths


def write_sparse(folder: str, n: int = 100_000, d: int = 262_144, nnz: int = 80,
                 seed: int = 1) -> dict:
    rng = np.random.default_rng(seed)
    paths = {k: os.path.join(folder, f"sparse.{k}") for k in ("svm", "vw")}
    w = rng.standard_normal(d)
    with open(paths["svm"], "w") as svm, open(paths["vw"], "w") as vw:
        for _ in range(n):
            columns = np.sort(rng.choice(d, nnz, replace=False))
            values = rng.random(nnz) / np.sqrt(nnz)
            label = 1 if values @ w[columns] > 0 else -1
            features = " ".join(f"{j + 1}:{v!r}" for j, v in zip(columns.tolist(),
                                                                 values.tolist(), strict=True))
            svm.write(f"{label} {features}\n")
            vw.write(f"{label} | {features}\n")
    return paths


def vw_pass(path: str, bits: int) -> float:
    from vowpalwabbit import Workspace

    start = time.perf_counter()
    workspace = Workspace(f"--loss_function hinge --quiet -b {bits} -d {path} --noconstant")
    workspace.run_parser()
    workspace.finish()
    return time.perf_counter() - start


def cli_run(path: str, cache: str, extra=()) -> float:
    env = dict(os.environ, PERCEPTRON_BOUNDS_CACHE=cache)
    start = time.perf_counter()
    base = ["--one-based"] if path.endswith(".svm") else []
    subprocess.run([*CLI, "run", "--algorithm", "perceptron", "--data", path, *base, *extra],
                   check=True, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def tiny(path: str) -> str:
    """A 2-row file of the kind of ``path`` (the start-up floor's data)."""
    suffix = os.path.splitext(path)[1]
    small = os.path.join(os.path.dirname(path), "tiny" + suffix)
    with open(small, "w") as handle:
        handle.write("1 1:0.5\n-1 2:0.5\n" if suffix == ".svm" else "0.5,0,1\n0,0.5,-1\n")
    return small


def race(path: str, vw_path: str, bits: int, cache: str, repeats: int) -> dict:
    best = {}
    cli_run(path, "off")  # compiles and warms the page cache
    for _ in range(repeats):
        times = {"vw text": vw_pass(vw_path, bits)}
        shutil.rmtree(cache, ignore_errors=True)
        times["run, no cache"] = cli_run(path, "off")
        cli_run(path, cache)  # fills the cache
        times["run, cache"] = cli_run(path, cache)
        start = time.perf_counter()
        np.fromfile(path, dtype=np.uint8)
        times["read floor"] = time.perf_counter() - start
        times["start-up floor"] = cli_run(tiny(path), "off")
        for name, value in times.items():
            best[name] = min(best.get(name, np.inf), value)
    return best


def report(name: str, best: dict) -> None:
    vw = best["vw text"]
    print(f"\n{name}: " + ", ".join(f"{k} {v:.3f} s" for k, v in best.items()))
    print(f"  run / vw = {best['run, no cache'] / vw:.2f} (target <= 1), "
          f"cached run / vw = {best['run, cache'] / vw:.2f} (target <= 0.67)")


def stream(folder: str, dense_svm: str, gigabytes: float) -> None:
    size = os.path.getsize(dense_svm)
    copies = max(1, round(gigabytes * 1e9 / size))
    big = os.path.join(folder, "big.svm")
    with open(big, "wb") as out:
        for _ in range(copies):
            with open(dense_svm, "rb") as part:
                shutil.copyfileobj(part, out, 1 << 24)
    env = dict(os.environ, PERCEPTRON_BOUNDS_CACHE="off")
    start = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-v", *CLI, "run", "--algorithm", "perceptron",
                           "--data", big, "--one-based", "--memory-budget", "256MB",
                           "--json"], check=True, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)[1])
    streamed = json.loads(done.stdout)
    X, y, _ = load_data(dense_svm, zero_based=False, cache=False)
    whole = run_online("perceptron", X, y, epochs=copies)
    print(f"\nstreamed {os.path.getsize(big) / 1e9:.2f} GB ({copies} copies of the dense "
          f"rows) with --memory-budget 256MB: {elapsed:.1f} s, peak RSS {peak / 1024:.0f} MB "
          "(target < 400 MB)")
    print(f"  mistakes streamed {streamed['mistakes']}, in memory (same rows) "
          f"{whole.mistakes}: {'equal' if streamed['mistakes'] == whole.mistakes else 'DIFFER'}")
    evaluate_stream(big, whole, X, y, copies)
    os.remove(big)


def evaluate_stream(big: str, whole, X, y, copies: int) -> None:
    """``compare --memory-budget 256MB --u FILE`` on the big file: its peak memory, and its
    bounds against ``evaluate`` of the in-memory run on the same rows (``copies`` epochs:
    the same trials, so the same R, D1, D2 and margins)."""
    from perceptron_bounds.bounds import evaluate

    u_path = os.path.join(os.path.dirname(big), "u.npy")
    np.save(u_path, whole.weights)
    env = dict(os.environ, PERCEPTRON_BOUNDS_CACHE="off")
    start = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-v", *CLI, "compare", "--algorithms", "perceptron",
                           "--data", big, "--one-based", "--memory-budget", "256MB", "--u",
                           u_path, "--json"], check=True, env=env, capture_output=True,
                          text=True)
    elapsed = time.perf_counter() - start
    peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)[1])
    streamed = json.loads(done.stdout)["reports"][0]["bounds"]
    memory = json.loads(evaluate(whole, X, y, u=whole.weights).to_json())["bounds"]
    worst = max(abs(a["value"] - b["value"]) / abs(b["value"])
                for a, b in zip(streamed, memory, strict=True) if b["applies"])
    same = [a["applies"] for a in streamed] == [b["applies"] for b in memory]
    print(f"  compare --memory-budget 256MB --u (run and bounds streamed): {elapsed:.1f} s, "
          f"peak RSS {peak / 1024:.0f} MB; bounds against the in-memory evaluate: largest "
          f"relative difference {worst:.2g}{'' if same else ', applicability DIFFERS'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--folder", default="/tmp/pb-bench-readers")
    parser.add_argument("--stream-gb", type=float, default=2.0)
    parser.add_argument("--keep", action="store_true", help="keep the generated files")
    args = parser.parse_args()
    os.makedirs(args.folder, exist_ok=True)
    free = shutil.disk_usage(args.folder).free
    if free < (args.stream_gb + 1.5) * 1e9:
        sys.exit(f"{args.folder}: {free / 1e9:.1f} GB free, needs {args.stream_gb + 1.5} GB")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    dense = os.path.join(args.folder, "dense.svm")
    if not os.path.exists(os.path.join(args.folder, "words.csv")):
        write_dense(args.folder)
        write_sparse(args.folder)
    cache = os.path.join(args.folder, "cache")
    races = () if args.repeats == 0 else (
        ("dense svmlight", dense, dense[:-3] + "vw", 18),
        ("dense csv", dense[:-3] + "csv", dense[:-3] + "vw", 18),
        ("dense csv, text labels", os.path.join(args.folder, "words.csv"), dense[:-3] + "vw", 18),
        ("sparse svmlight", os.path.join(args.folder, "sparse.svm"),
         os.path.join(args.folder, "sparse.vw"), 18))
    for name, path, vw_path, bits in races:
        report(name, race(path, vw_path, bits, cache, args.repeats))
    if args.stream_gb > 0:
        stream(args.folder, dense, args.stream_gb)
    print(f"load average {os.getloadavg()[0]:.2f}")
    if not args.keep:
        shutil.rmtree(args.folder, ignore_errors=True)


if __name__ == "__main__":
    main()
