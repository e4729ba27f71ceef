"""Teaching: ROMMA and aggressive ROMMA on 2-D data, against their mistake bound.

Data: 60 points of the plane separated by a known unit u with margin 0.1
(``make_separable(60, 2, margin=0.1, seed=6)``), shown three times in order.
Top: the state of ROMMA (left) and of aggressive ROMMA (right) after their last
update: the mistakes, aggressive ROMMA's margin errors (right predictions with
y w.x < 1, which it also updates on), the line w . x = 0 before and after the
update, u's margin band. Bottom: the mistakes of trials 1..t against Li & Long's
bound (R/gamma)^2 for u and gamma = 0.1, tightened (theory §4.7: u must
separate the update trials, R is taken over the mistaken ones). Writes
OUT_DIR/romma.png and prints what it shows; ``--quick`` shows the data once.

Usage: python examples/romma.py [--quick] [OUT_DIR]   (default: ./figures)
"""

import argparse
import time
from pathlib import Path

from matplotlib.figure import Figure

from perceptron_bounds import __version__, run_online
from perceptron_bounds.bounds import bounds_over_time, evaluate
from perceptron_bounds.datasets import make_separable
from perceptron_bounds.plots import plot_mistakes_over_time, plot_run_2d

SEED, MARGIN = 6, 0.1


def main(out: Path, quick: bool) -> None:
    start = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    X, y, u = make_separable(60, 2, margin=MARGIN, seed=SEED)
    epochs = 1 if quick else 3
    fig = Figure(figsize=(11.0, 10.0), dpi=80, layout="constrained")
    axes = fig.subplots(2, 2)
    for column, aggressive in enumerate((False, True)):
        run = run_online("romma", X, y, aggressive=aggressive, epochs=epochs)
        curves = bounds_over_time(run, X, y, u=u, gamma=MARGIN, variant="tightened")
        plot_run_2d(run, X, y, ax=axes[0, column], u=u, gamma=MARGIN)
        plot_mistakes_over_time(run, X, y, curves, ax=axes[1, column])
        rows = evaluate(run, X, y, u=u, gamma=MARGIN).rows
        print(f"{'aggressive ' if aggressive else ''}ROMMA: {run.mistakes} mistakes, "
              f"{run.margin_errors} margin errors in {run.n_trials} trials; ||w|| = "
              f"{run.state['norm']:.3g}")
        for row in rows:
            print(f"  {row.name} ({row.variant}): {row.value:.4g} (R = "
                  f"{row.quantities['R']:.3g}, {row.source})")
    png = out / "romma.png"
    fig.savefig(png)
    print(f"ROMMA demo: {time.perf_counter() - start:.1f} s (perceptron_bounds {__version__}, "
          f"seed {SEED}); wrote {png}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=Path("figures"), metavar="OUT_DIR",
                        help="folder of romma.png (default: ./figures)")
    parser.add_argument("--quick", action="store_true", help="one pass over the data")
    args = parser.parse_args()
    main(args.out, args.quick)
