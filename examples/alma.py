"""Teaching: ALMA_p on 2-D data, update by update, against its bounds on the updates.

Data: 80 points separated by a known unit u with margin 0.1, 5% of the labels
flipped (``make_separable(80, 2, margin=0.1, label_noise=0.05, seed=7)``),
shown three times in order. ALMA_2 with alpha = 0.5 (theory §2.9) updates on
mistakes and on margin errors, trials whose normalised margin
y w . x_hat is positive but at most (1 - alpha) gamma_k, a threshold that shrinks
as 1/sqrt(k). Left: the state after the 12th update (the data, the mistakes
and margin errors so far, the line w . x = 0 before and after). Right: the
mistakes and the updates of trials 1..t against the bound on the updates of
theory §4.8 (``alma_d2``; ``alma_separable`` stops applying at the first
flipped label), for u and gamma = 0.1. Writes OUT_DIR/alma.png and, unless
``--quick``, the whole run as an animation, OUT_DIR/alma.gif.

Usage: python examples/alma.py [OUT_DIR] [--quick]   (default: ./figures)
"""

import argparse
import time
from pathlib import Path

import numpy as np
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

SEED, MARGIN, STEP, ALPHA = 7, 0.1, 12, 0.5


def main(out: Path, quick: bool) -> None:
    start = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    X, y, u = make_separable(80, 2, margin=MARGIN, label_noise=0.05, seed=SEED)
    run = run_online("alma", X, y, alpha=ALPHA, epochs=3)
    curves = bounds_over_time(run, X, y, u=u, gamma=MARGIN)
    trial = run.hypothesis_at(STEP, X, y).trial
    updates = np.cumsum(np.isin(np.arange(run.n_trials), run.update_trials))

    fig = Figure(figsize=(11.0, 5.4), dpi=80, layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=[1.0, 1.1])
    plot_run_2d(run, X, y, step=STEP, ax=left, u=u, gamma=MARGIN)
    plot_mistakes_over_time(run, X, y, curves, ax=right)
    right.plot(np.arange(1, run.n_trials + 1), updates, color="purple", linestyle=":",
               linewidth=1.6, label="updates (mistakes + margin errors)")
    right.axvline(trial + 1, color="crimson", linewidth=1.2)
    right.legend(loc="lower right", fontsize=8)
    png = out / "alma.png"
    fig.savefig(png)

    print(f"ALMA demo: {time.perf_counter() - start:.1f} s "
          f"(perceptron_bounds {__version__}, seed {SEED}, alpha {ALPHA})")
    print(f"{run.mistakes} mistakes, {run.margin_errors} margin errors in {run.n_trials} "
          f"trials; picture at update {STEP} (trial {trial + 1})")
    for name, values in curves.items():
        applies = values < float("inf")
        print(f"  {name:15s} at t = {run.n_trials}: {values[-1]:.4g}; applies on "
              f"{applies.sum()} of {run.n_trials} prefixes; above the updates: "
              f"{bool((values[applies] >= updates[applies]).all())}")
    report = evaluate(run, X, y)  # u and gamma searched (theory §4.3)
    for row in report.rows:
        value = f"{row.value:.4g} at gamma = {row.gamma:.3g}" if row.applies else row.reason
        print(f"  evaluate: {row.name} ({row.variant}): {value}")
    written = [png]
    if not quick:
        written.append(save_animation(animate_run(run, X, y, u=u, gamma=MARGIN),
                                      out / "alma.gif"))
    print("wrote " + ", ".join(map(str, written)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=Path("figures"), metavar="OUT_DIR",
                        help="folder of alma.png and alma.gif (default: ./figures)")
    parser.add_argument("--quick", action="store_true", help="the picture only, no animation")
    args = parser.parse_args()
    main(args.out, args.quick)
