"""Teaching: the Perceptron on 2-D data, one update at a time, against its mistake bounds.

Data: 80 points on the unit circle, separated by a known unit u with margin
0.1, 5% of the labels flipped (``make_separable(80, 2, margin=0.1,
label_noise=0.05, seed=7)``), shown twice in order. Left: the state after
the 8th update (the data, the mistakes so far, the line w . x = 0 before and
after the update, u's margin band). Right: the mistakes of trials 1..t
against Novikoff's, Freund and Schapire's and the D1 bound on the same
trials, for u and gamma = 0.1; Novikoff's stops applying at the first flipped
label. Writes OUT_DIR/teaching.png (the README's picture) and the whole run
as an animation, OUT_DIR/teaching.gif, and prints what it shows.

Usage: python examples/teaching_demo.py [OUT_DIR]   (default: ./figures)
"""

import argparse
import time
from pathlib import Path

from matplotlib.figure import Figure

from perceptron_bounds import __version__, run_online
from perceptron_bounds.bounds import bounds_over_time
from perceptron_bounds.datasets import make_separable
from perceptron_bounds.plots import (
    animate_run,
    plot_mistakes_over_time,
    plot_run_2d,
    save_animation,
)

SEED, MARGIN, STEP = 7, 0.1, 8


def main(out: Path) -> None:
    start = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    X, y, u = make_separable(80, 2, margin=MARGIN, label_noise=0.05, seed=SEED)
    run = run_online("perceptron", X, y, epochs=2)
    curves = bounds_over_time(run, X, y, u=u, gamma=MARGIN)
    trial = run.hypothesis_at(STEP, X, y).trial

    fig = Figure(figsize=(11.0, 5.4), dpi=80, layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=[1.0, 1.1])
    plot_run_2d(run, X, y, step=STEP, ax=left, u=u, gamma=MARGIN)
    plot_mistakes_over_time(run, X, y, curves, ax=right)
    right.axvline(trial + 1, color="crimson", linewidth=1.2)
    png = out / "teaching.png"
    fig.savefig(png)

    gif = save_animation(animate_run(run, X, y, u=u, gamma=MARGIN), out / "teaching.gif")
    print(f"teaching demo: {time.perf_counter() - start:.1f} s "
          f"(perceptron_bounds {__version__}, seed {SEED})")
    print(f"{run.mistakes} mistakes, {run.n_updates} updates in {run.n_trials} trials; "
          f"picture at update {STEP} (trial {trial + 1})")
    for name, values in curves.items():
        applies = values < float("inf")
        print(f"  {name:16s} at t = {run.n_trials}: {values[-1]:.4g}; applies on "
              f"{applies.sum()} of {run.n_trials} prefixes; above the mistakes: "
              f"{bool((values[applies] >= curves.mistakes[applies]).all())}")
    print(f"wrote {png}, {gif}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=Path("figures"), metavar="OUT_DIR",
                        help="folder of teaching.png and teaching.gif (default: ./figures)")
    main(parser.parse_args().out)
