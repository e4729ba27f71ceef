"""Time to write the GIF of a run of 100 updates (issue 10: under 10 seconds).

Data: ``make_separable(400, 2, margin=0.02, label_noise=0.15, seed=0)``; the
Perceptron, one epoch in order, on the rows up to its 100th update (so the
run has exactly 100 updates and the animation 101 frames). Timed, wall clock,
in one process after a warm-up (Numba compile, imports): ``animate_run`` (the
replay of every state and the two panels) and ``save_animation`` to a GIF.

Run: ``python benchmarks/bench_teaching.py [--repeats 3]``.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from perceptron_bounds import run_online
from perceptron_bounds.datasets import make_separable
from perceptron_bounds.plots import animate_run, save_animation

UPDATES = 100


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    X, y, u = make_separable(400, 2, margin=0.02, label_noise=0.15, seed=0)
    rows = run_online("perceptron", X, y).update_trials[UPDATES - 1] + 1
    X, y = X[:rows], y[:rows]
    run = run_online("perceptron", X, y)
    assert run.n_updates == UPDATES
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "run.gif")
        save_animation(animate_run(run, X, y, u=u), path)  # warm-up
        best = {"animate_run": float("inf"), "save_animation (gif)": float("inf")}
        for _ in range(args.repeats):
            start = time.perf_counter()
            anim = animate_run(run, X, y, u=u)
            built = time.perf_counter()
            save_animation(anim, path)
            done = time.perf_counter()
            best["animate_run"] = min(best["animate_run"], built - start)
            best["save_animation (gif)"] = min(best["save_animation (gif)"], done - built)
        size = os.path.getsize(path)
    print(f"{UPDATES} updates, {UPDATES + 1} frames, {run.n_trials} trials; "
          f"GIF {size / 1e3:.0f} kB")
    for name, seconds in best.items():
        print(f"{name:22s} {seconds:6.2f} s")
    print(f"{'total':22s} {sum(best.values()):6.2f} s (target: under 10 s)")


if __name__ == "__main__":
    main()
