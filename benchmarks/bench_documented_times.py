"""Every time the docs state, measured: the statement beside the measurement (issue 35).

Each claim names the file and the exact words that state a time, the time stated (a
range, in seconds) and how to measure it: a command of the CLI run in a fresh process
(its compile included, as a user meets it, unless the claim says warm) or a warm call
timed in this process. The script first checks that every claim's words are still in
its file, so that the docs and this list cannot drift apart, then prints, per claim,
stated against measured (wall and CPU seconds), the load average before and after, and
whether the CPU time lies within 2x of the statement: a statement is of a quiet machine,
where a single-threaded run's wall time is about its CPU time; on a loaded one the wall
time only says how loaded it was.

MNIST and Fashion-MNIST are read from the data home (``PERCEPTRON_BOUNDS_DATA``);
claims that need them are skipped without it. ``--full`` adds the full-size figures
(minutes each); by default only the claims under a minute run.

Run: ``python benchmarks/bench_documented_times.py [--full] [--only NAME,...]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "perceptron_bounds"]


@dataclass(frozen=True)
class Claim:
    """A time the docs state: where, in which words, how long, and how to measure it."""

    name: str
    file: str
    words: str
    low: float
    high: float
    command: tuple = ()
    warm: str = ""  # a function of this module timed warm (second call), instead of a command
    data: bool = False  # needs MNIST in the data home
    full: bool = False  # minutes: only with --full


def _figure(name, *options):
    return ("figure", name, *options, "--out", "{out}")


CLAIMS = (
    Claim("kernel-9-vs-rest", "README.md", 'kernel Perceptron "9 against the rest" on MNIST',
          4.6, 5.5, warm="kernel_nine_vs_rest", data=True),
    Claim("load-mnist", "README.md", "A warm `load_mnist()` takes about 1 s.", 0.5, 1.5,
          warm="load_mnist", data=True),
    Claim("atlas-quick", "docs/reproducing.md", "22 s `--quick` (issue 35: 22.1 s", 22.0, 22.0,
          command=("atlas", "--quick", "--out", "{out}")),
    Claim("bounds-mnist-quick", "docs/reproducing.md", "bounds-mnist` | 32 s `--quick`", 32.0,
          32.0, command=_figure("bounds-mnist", "--quick"), data=True),
    Claim("budget-mnist-quick", "docs/reproducing.md", "budget-mnist` | 10 s `--quick`", 10.0,
          10.0, command=_figure("budget-mnist", "--quick"), data=True),
    Claim("selective-quick", "docs/reproducing.md", "selective-sampling` | 2 s `--quick`", 2.0,
          2.0, command=_figure("selective-sampling", "--quick")),
    Claim("selective-mnist-quick", "docs/reproducing.md",
          "selective-sampling --data mnist` | 15 s `--quick`", 15.0, 15.0,
          command=_figure("selective-sampling", "--quick", "--data", "mnist"), data=True),
    Claim("sop-toy", "docs/reproducing.md", "figure sop-toy` | 2–6 s", 2.0, 6.0,
          command=_figure("sop-toy")),
    Claim("ballseptron-noise", "docs/reproducing.md", "ballseptron-noise` | 5–15 s", 5.0,
          15.0, command=_figure("ballseptron-noise")),
    Claim("ballseptron-radius", "docs/reproducing.md", "ballseptron-radius` | 2–6 s", 2.0, 6.0,
          command=_figure("ballseptron-radius")),
    Claim("fs-mnist-quick", "docs/reproducing.md", "D` | 22 s `--quick`", 22.0, 22.0,
          command=_figure("fs-mnist", "--quick"), data=True),
    Claim("bounds-mnist", "docs/reproducing.md", "279 s at load 1.5; 491 s CPU", 279.0, 491.0,
          command=_figure("bounds-mnist"), data=True, full=True),
    Claim("selective", "docs/reproducing.md", "selective-sampling` | 2 s `--quick`; 6 s", 6.0,
          6.0, command=_figure("selective-sampling"), full=True),
)


def kernel_nine_vs_rest():
    """The README's kernel Perceptron, 9 against the rest on MNIST's 60,000 images, poly-4."""
    import numpy as np

    from perceptron_bounds import run_online
    from perceptron_bounds.datasets import load_mnist

    train = load_mnist(download=False).train
    labels = np.where(train.y == 9, 1, -1)
    return lambda: run_online("perceptron", train.X, labels, kernel="poly", degree=4,
                              gamma=1.0, coef0=1.0)


def load_mnist():
    """A warm ``load_mnist()`` from the data home."""
    from perceptron_bounds.datasets import load_mnist as load

    return lambda: load(download=False)


def _cpu(who) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def _measure(claim: Claim, out: str) -> tuple[float, float]:
    """(wall, CPU) seconds: on a quiet machine a single-threaded run's wall time is about its
    CPU time, so the CPU time is what a loaded machine can still say of a statement."""
    if claim.warm:
        func = globals()[claim.warm]()
        func()  # compile and caches: the claim is warm
        start, cpu = time.perf_counter(), _cpu(resource.RUSAGE_SELF)
        func()
        return time.perf_counter() - start, _cpu(resource.RUSAGE_SELF) - cpu
    argv = [part.format(out=out) for part in claim.command]
    start, cpu = time.perf_counter(), _cpu(resource.RUSAGE_CHILDREN)
    subprocess.run([*CLI, *argv], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, cwd=out)
    return time.perf_counter() - start, _cpu(resource.RUSAGE_CHILDREN) - cpu


def check_words(claims=CLAIMS) -> list[str]:
    """The claims whose words are no longer in their file (the docs changed: update both)."""
    return [claim.name for claim in claims
            if claim.words not in (ROOT / claim.file).read_text(encoding="utf-8")]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="also the full-size figures")
    parser.add_argument("--only", default=None, help="comma-separated claim names")
    args = parser.parse_args(argv)
    missing = check_words()
    if missing:
        print(f"the docs no longer state: {', '.join(missing)}", file=sys.stderr)
        return 1
    chosen = [c for c in CLAIMS if (args.full or not c.full)
              and (args.only is None or c.name in args.only.split(","))]
    have_data = bool(os.environ.get("PERCEPTRON_BOUNDS_DATA"))
    print(f"{'claim':22} {'where':20} {'stated':>12} {'wall':>8} {'CPU':>8} {'load':>11}  "
          "within 2x (CPU)")
    for claim in chosen:
        if claim.data and not have_data:
            print(f"{claim.name:22} {claim.file:20} skipped: no PERCEPTRON_BOUNDS_DATA")
            continue
        before = os.getloadavg()[0]
        with tempfile.TemporaryDirectory() as out:
            seconds, cpu = _measure(claim, out)
        after = os.getloadavg()[0]
        stated = (f"{claim.low:g} s" if claim.low == claim.high
                  else f"{claim.low:g}-{claim.high:g} s")
        ok = claim.low / 2 <= cpu <= 2 * claim.high
        print(f"{claim.name:22} {claim.file:20} {stated:>12} {seconds:7.1f}s {cpu:7.1f}s "
              f"{before:4.1f}->{after:4.1f}  {'yes' if ok else 'NO'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
