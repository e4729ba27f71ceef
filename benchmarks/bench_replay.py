"""Speed of ``OnlineRun.snapshots`` (the replay of every update) against the run itself.

The teaching panels and the animations replay a run: every hypothesis after each update
(:mod:`perceptron_bounds.replay`). ``tests/test_replay.py`` checks what the snapshots hold;
this script holds their speed, which no test asserts (issue 31, item 12).

Data: 1,000 points in the plane, labels from a line with 3% flipped (80 to 150 updates).
For the Perceptron and the Second-Order Perceptron, in one process, best wall time of
``--repeats`` calls after a warm-up call (the Numba compile excluded), of
``list(run.snapshots(X, y))`` against the baseline ``run_online`` of the same run.

Target: snapshots / run at most ``RATIO`` (about 10 ms of snapshots measured in issue 16).

Run: ``python benchmarks/bench_replay.py [--repeats 5]``.
"""

from __future__ import annotations

import argparse
import os

import numpy as np
from _timing import race

from perceptron_bounds import run_online

RATIO = 100.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    X = rng.standard_normal((1000, 2))
    y = np.where(X @ [1.0, -0.5] + 0.1 > 0, 1.0, -1.0)
    flip = rng.random(1000) < 0.03
    y[flip] = -y[flip]
    print(f"load {os.getloadavg()[0]:.2f}")
    failed = False
    for algorithm in ("perceptron", "second_order"):
        run = run_online(algorithm, X, y)
        times = race({"run": lambda a=algorithm: run_online(a, X, y),
                      "snapshots": lambda r=run: list(r.snapshots(X, y))}, args.repeats)
        ratio = times["snapshots"] / times["run"]
        failed |= ratio > RATIO
        print(f"{algorithm:<14} {run.n_updates:>4} updates  run {1e3 * times['run']:.2f} ms  "
              f"snapshots {1e3 * times['snapshots']:.2f} ms  ratio {ratio:.1f} "
              f"(<= {RATIO:g}: {'ok' if ratio <= RATIO else 'MISSED'})")
    print("target met" if not failed else "target MISSED")


if __name__ == "__main__":
    main()
