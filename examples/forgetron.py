"""Teaching: kernel Perceptrons on a budget, the Forgetron and the Randomized Budget Perceptron.

Data: 60 points of the plane labelled by a known unit u with margin 0.1, one
label in ten flipped (``make_separable(60, 2, margin=0.1, label_noise=0.1,
seed=6)``), shown three times in order, with the Gaussian kernel
exp(-2 ||x - z||^2) and a budget of B = 8 supports. Top: the state of the
Forgetron (left) and of the Randomized Budget Perceptron (right) after their
last update: the decision boundary before and after it, the supports held,
ringed as opaque as their coefficients are large (the Forgetron shrinks them,
so the oldest fade), and crossed the one the update removed. Bottom: the
mistakes of trials 1..t against each algorithm's bound (theory §4.10, §4.11;
the RBP's bounds the EXPECTATION of its mistakes over the draws). Also writes
the Forgetron's animation, one frame per mistake: supports fading and
leaving. Writes OUT_DIR/forgetron.png and OUT_DIR/forgetron.gif and prints
what they show; ``--quick`` shows the data once.

Usage: python examples/forgetron.py [--quick] [OUT_DIR]   (default: ./figures)
"""

import argparse
import time
from pathlib import Path

from matplotlib.figure import Figure

from perceptron_bounds import __version__, run_online
from perceptron_bounds.bounds import bounds_over_time, evaluate
from perceptron_bounds.datasets import make_separable
from perceptron_bounds.plots import (
    animate_run,
    plot_mistakes_over_time,
    plot_run_2d,
    save_animation,
)

SEED, BUDGET = 6, 8
KERNEL = {"kernel": "rbf", "gamma": 2.0}


def main(out: Path, quick: bool) -> None:
    start = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    X, y, _ = make_separable(60, 2, margin=0.1, label_noise=0.1, seed=SEED)
    epochs = 1 if quick else 3
    fig = Figure(figsize=(11.0, 10.5), dpi=80, layout="constrained")
    axes = fig.subplots(2, 2)
    runs = {}
    for column, name in enumerate(("forgetron", "randomized_budget_perceptron")):
        run = run_online(name, X, y, budget=BUDGET, epochs=epochs, seed=SEED, **KERNEL)
        runs[name] = run
        curves = bounds_over_time(run, X, y)
        plot_run_2d(run, X, y, ax=axes[0, column])
        plot_mistakes_over_time(run, X, y, curves, ax=axes[1, column])
        removals = int((run.state["removed_trials"] >= 0).sum())
        print(f"{name}: {run.mistakes} mistakes in {run.n_trials} trials, {removals} supports "
              f"removed, {run.support_vectors.shape[0]} held (budget {BUDGET}); smallest "
              f"shrink factor {run.state['shrink'].min():.3g}")
        for row in evaluate(run, X, y).rows:
            value = f"{row.value:.4g} at gamma = {row.gamma:.3g}" if row.applies else row.reason
            print(f"  {row.name} ({row.variant}): {value}")
    png = out / "forgetron.png"
    fig.savefig(png)
    gif = save_animation(animate_run(runs["forgetron"], X, y, interval=250),
                         out / "forgetron.gif")
    print(f"budget demo: {time.perf_counter() - start:.1f} s (perceptron_bounds {__version__}, "
          f"seed {SEED}); wrote {png} and {gif}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=Path("figures"), metavar="OUT_DIR",
                        help="folder of forgetron.png and forgetron.gif (default: ./figures)")
    parser.add_argument("--quick", action="store_true", help="one pass over the data")
    args = parser.parse_args()
    main(args.out, args.quick)
