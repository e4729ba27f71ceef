"""Teaching: Passive-Aggressive PA, PA-I and PA-II on 2-D data, against their mistake bounds.

Data: points on the unit circle separated by a known unit u with margin 0.1,
5% of the labels flipped (``make_separable(N, 2, margin=0.1, label_noise=0.05,
seed=7)``), shown twice in order (theory §2.7). Top row: the state of each
variant after its last update (the data, the mistakes and the margin errors,
the line w . x = 0, u's margin band). Bottom row: the mistakes of trials 1..t
against the variant's bounds on the same trials (theory §4.6) for u and
gamma = 0.1, tightened. PA's separable bound stops applying at the first flipped
label that PA updates on; its general bound (unit rows) and PA-I's and PA-II's
hold throughout. Writes OUT_DIR/passive_aggressive.png and prints what it shows.

Usage: python examples/passive_aggressive.py [OUT_DIR] [--quick]   (default: ./figures)
"""

import argparse
import time
from pathlib import Path

from matplotlib.figure import Figure

from perceptron_bounds import __version__, run_online
from perceptron_bounds.bounds import bounds_over_time
from perceptron_bounds.datasets import make_separable
from perceptron_bounds.plots import plot_mistakes_over_time, plot_run_2d

SEED, MARGIN, C = 7, 0.1, 0.5
VARIANTS = ("pa", "pa1", "pa2")


def main(out: Path, quick: bool) -> None:
    start = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    X, y, u = make_separable(40 if quick else 120, 2, margin=MARGIN, label_noise=0.05,
                             seed=SEED)
    fig = Figure(figsize=(14.0, 8.6), dpi=80, layout="constrained")
    axes = fig.subplots(2, 3)
    print(f"passive-aggressive demo (perceptron_bounds {__version__}, seed {SEED}, "
          f"{'quick' if quick else 'full'} size: {X.shape[0]} points, 2 epochs)")
    for column, variant in enumerate(VARIANTS):
        run = run_online("passive_aggressive", X, y, variant=variant, C=C, epochs=2)
        curves = bounds_over_time(run, X, y, u=u, gamma=MARGIN, variant="tightened")
        plot_run_2d(run, X, y, ax=axes[0, column], u=u, gamma=MARGIN)
        plot_mistakes_over_time(run, X, y, curves, ax=axes[1, column])
        print(f"{variant}: {run.mistakes} mistakes, {run.margin_errors} margin errors in "
              f"{run.n_trials} trials")
        for name, values in curves.items():
            applies = values < float("inf")
            print(f"  {name:14s} at t = {run.n_trials}: {values[-1]:.4g}; applies on "
                  f"{applies.sum()} of {run.n_trials} prefixes; above the mistakes: "
                  f"{bool((values[applies] >= curves.mistakes[applies]).all())}")
    png = out / "passive_aggressive.png"
    fig.savefig(png)
    print(f"wrote {png} in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=Path("figures"), metavar="OUT_DIR",
                        help="folder of passive_aggressive.png (default: ./figures)")
    parser.add_argument("--quick", action="store_true", help="40 points instead of 120")
    args = parser.parse_args()
    main(args.out, args.quick)
