"""Time to write the GIF of a run of 100 updates (issue 10: under 10 seconds).

Data: ``make_separable(400, 2, margin=0.02, label_noise=0.15, seed=0)``; the
Perceptron, one epoch in order, on the rows up to its 100th update (so the
run has exactly 100 updates and the animation 101 frames). Timed, wall clock,
in one process after a warm-up (Numba compile, imports): ``animate_run`` (the
replay of every state and the two panels) and ``save_animation`` to a GIF;
best of ``--repeats``, wall clock and the process's CPU time (what a quiet
machine would take).

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
        best = {}
        for _ in range(args.repeats):
            for clock in (time.perf_counter, time.process_time):
                start = clock()
                anim = animate_run(run, X, y, u=u)
                built = clock()
                save_animation(anim, path)
                done = clock()
                for name, seconds in (("animate_run", built - start),
                                      ("save_animation (gif)", done - built)):
                    key = (name, clock.__name__)
                    best[key] = min(best.get(key, float("inf")), seconds)
        size = os.path.getsize(path)
    print(f"{UPDATES} updates, {UPDATES + 1} frames, {run.n_trials} trials; "
          f"GIF {size / 1e3:.0f} kB")
    print(f"{'':22s} {'wall':>8s} {'cpu':>8s}")
    for name in ("animate_run", "save_animation (gif)"):
        print(f"{name:22s} {best[name, 'perf_counter']:7.2f}s {best[name, 'process_time']:7.2f}s")
    wall = sum(v for (_, clock), v in best.items() if clock == "perf_counter")
    cpu = sum(v for (_, clock), v in best.items() if clock == "process_time")
    print(f"{'total':22s} {wall:7.2f}s {cpu:7.2f}s (target: under 10 s)")


if __name__ == "__main__":
    main()
