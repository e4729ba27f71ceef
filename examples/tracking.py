"""Teaching: tracking a turning target with the shifting and the projected Perceptron.

Data: 400 points of the plane labelled by a target line that turns through a half
turn at constant speed (``make_drifting(400, 2, n_shifts=2, drift="gradual",
margin=0.1, seed=3)``), shown once in order. Left to right: the Perceptron, the
shifting Perceptron (decay 2) and the projected Perceptron (radius 2) after their
last update, the target's line at that trial dotted; printed, each run's mistakes
and its shifting bounds against the true target sequence (theory §4.15) beside its
fixed-comparator bounds. Also writes the shifting Perceptron's animation, one frame
per update: its line following the target's as it turns. Writes
OUT_DIR/tracking.png and OUT_DIR/tracking.gif; ``--quick`` uses 150 points.

Usage: python examples/tracking.py [--quick] [OUT_DIR]   (default: ./figures)
"""

import argparse
import time
from pathlib import Path

from matplotlib.animation import FuncAnimation
from matplotlib.figure import Figure

from perceptron_bounds import __version__, run_online
from perceptron_bounds.bounds import evaluate
from perceptron_bounds.datasets import make_drifting
from perceptron_bounds.plots import plot_run_2d, save_animation

SEED = 3
ALGORITHMS = (("perceptron", {}), ("shifting_perceptron", {"decay": 2.0}),
              ("projected_perceptron", {"radius": 2.0}))


def main(out: Path, quick: bool) -> None:
    start = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    X, y, U = make_drifting(150 if quick else 400, 2, n_shifts=2, drift="gradual",
                            margin=0.1, seed=SEED)
    fig = Figure(figsize=(15.0, 5.2), dpi=80, layout="constrained")
    axes = fig.subplots(1, 3)
    runs = {}
    for ax, (name, params) in zip(axes, ALGORITHMS, strict=True):
        run = run_online(name, X, y, **params)
        runs[name] = run
        last = int(run.mistake_trials[-1])
        plot_run_2d(run, X, y, ax=ax, u=U[last])
        print(f"{name}: {run.mistakes} mistakes in {run.n_trials} trials")
        for row in evaluate(run, X, y, u=U).rows:
            value = f"{row.value:.4g}" if row.applies else row.reason
            print(f"  {row.name} ({row.variant}): {value}")
    png = out / "tracking.png"
    fig.savefig(png)
    run = runs["shifting_perceptron"]
    frame_fig = Figure(figsize=(5.5, 5.5), dpi=80, layout="constrained")
    ax = frame_fig.subplots()

    def frame(k):
        ax.clear()
        plot_run_2d(run, X, y, step=k + 1, ax=ax, u=U[int(run.mistake_trials[k])])

    gif = save_animation(FuncAnimation(frame_fig, frame, frames=run.mistakes, interval=250),
                         out / "tracking.gif")
    print(f"tracking demo: {time.perf_counter() - start:.1f} s (perceptron_bounds "
          f"{__version__}, seed {SEED}); wrote {png} and {gif}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=Path("figures"), metavar="OUT_DIR",
                        help="folder of tracking.png and tracking.gif (default: ./figures)")
    parser.add_argument("--quick", action="store_true", help="150 points instead of 400")
    args = parser.parse_args()
    main(args.out, args.quick)
