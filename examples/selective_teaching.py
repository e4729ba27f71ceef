"""Teaching: selective sampling on 2-D data, the trials whose label was queried drawn apart.

Data: 80 points of the plane separated by a known unit u with margin 0.1, 5% of
the labels flipped (``make_separable(80, 2, margin=0.1, label_noise=0.05,
seed=7)``), shown twice in order. The selective-sampling Perceptron (b = 0.3,
theory §2.14) asks for a label with probability b / (b + |w . x|) and updates only
on a queried mistake. Left: its state after its last update: the mistakes so far
(red rings; every mistake counts), the points whose label was not asked for the
last time they were shown (dotted grey squares), the line w . x = 0 before and after
the update. Right: the mistakes of trials 1..t against the expected-mistake bound
(tightened) of theory §4.13 for u and gamma = 0.1 (it bounds the mean over the
draws, which one run may exceed); printed: the mean over 50 seeds against the bound
at the best gamma. Writes OUT_DIR/selective_teaching.png and the run trial by trial as an animation,
OUT_DIR/selective_teaching.gif (``--quick``: its first 60 trials).

Usage: python examples/selective_teaching.py [OUT_DIR] [--quick]   (default: ./figures)
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

SEED, MARGIN, B = 7, 0.1, 0.3


def main(out: Path, quick: bool) -> None:
    start = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    X, y, u = make_separable(80, 2, margin=MARGIN, label_noise=0.05, seed=SEED)
    run = run_online("selective_perceptron", X, y, b=B, epochs=2, seed=SEED)
    curves = bounds_over_time(run, X, y, u=u, gamma=MARGIN, variant="tightened")

    fig = Figure(figsize=(11.0, 5.4), dpi=80, layout="constrained")
    run_ax, bound_ax = fig.subplots(1, 2, width_ratios=[1.0, 1.1])
    plot_run_2d(run, X, y, ax=run_ax, u=u, gamma=MARGIN)
    plot_mistakes_over_time(run, X, y, curves, ax=bound_ax)
    png = out / "selective_teaching.png"
    fig.savefig(png)

    shown = run if not quick else run_online("selective_perceptron", X[:60], y[:60], b=B,
                                             seed=SEED)
    data = (X, y) if not quick else (X[:60], y[:60])
    gif = save_animation(animate_run(shown, *data, per="trial", u=u, gamma=MARGIN),
                         out / "selective_teaching.gif")
    runs = [run_online("selective_perceptron", X, y, b=B, epochs=2, seed=s) for s in range(50)]
    mean = evaluate(runs, X, y, u=u).row("selective_perceptron", "tightened")
    print(f"selective sampling demo: {time.perf_counter() - start:.1f} s "
          f"(perceptron_bounds {__version__}, seed {SEED}, b = {B})")
    print(f"  {run.mistakes} mistakes in {run.n_trials} trials; labels asked for: {run.queried} "
          f"({run.queried / run.n_trials:.0%}); updates (queried mistakes): {run.n_updates}")
    print(f"  over 50 seeds: {mean.mistakes:.1f} mistakes on average; the bound on the expected "
          f"mistakes (tightened, gamma = {mean.gamma:.3g} searched): {mean.value:.4g}")
    print(f"wrote {png}, {gif}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=Path("figures"), metavar="OUT_DIR",
                        help="folder of the PNG and the GIF (default: ./figures)")
    parser.add_argument("--quick", action="store_true",
                        help="animate the first 60 trials only")
    args = parser.parse_args()
    main(args.out, args.quick)
