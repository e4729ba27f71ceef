"""Teaching: AROW on 2-D data, its covariance drawn as an ellipse, against its log-det bound.

Data: 80 points on the unit circle, separated by a known unit u with margin
0.1, 5% of the labels flipped (``make_separable(80, 2, margin=0.1,
label_noise=0.05, seed=7)``), shown twice in order. AROW (r = 0.5, theory
§2.10) updates on its mistakes and on its margin errors, right predictions
with y mu . x < 1. Left: the state after the 12th update (the line
mu . x = 0, the mistakes and margin errors so far, and the precision
Sigma^{-1} = I + X_k X_k^T / r as an ellipse); middle: the same for the
diagonal variant; right: the mistakes of trials 1..t against the AROW bound
of theory §4.9 on the same trials (tightened: over the update trials, with the
run's Q), for u and gamma = 0.1. Writes OUT_DIR/arow.png and the full run as
an animation, OUT_DIR/arow.gif, and prints both variants of the bound.

Usage: python examples/arow.py [OUT_DIR] [--quick]   (default: ./figures; it takes
seconds either way)
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

SEED, MARGIN, STEP, R = 7, 0.1, 12, 0.5


def main(out: Path) -> None:
    start = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    X, y, u = make_separable(80, 2, margin=MARGIN, label_noise=0.05, seed=SEED)
    run = run_online("arow", X, y, r=R, epochs=2)
    diagonal = run_online("arow", X, y, r=R, diagonal=True, epochs=2)
    curves = bounds_over_time(run, X, y, u=u, gamma=MARGIN, variant="tightened")

    fig = Figure(figsize=(15.0, 5.0), dpi=80, layout="constrained")
    full_ax, diagonal_ax, bound_ax = fig.subplots(1, 3, width_ratios=[1.0, 1.0, 1.1])
    plot_run_2d(run, X, y, step=STEP, ax=full_ax, u=u, gamma=MARGIN)
    plot_run_2d(diagonal, X, y, step=STEP, ax=diagonal_ax, u=u, gamma=MARGIN)
    plot_mistakes_over_time(run, X, y, curves, ax=bound_ax)
    png = out / "arow.png"
    fig.savefig(png)

    gif = save_animation(animate_run(run, X, y, u=u, gamma=MARGIN), out / "arow.gif")
    report = evaluate(run, X, y, u=u, gamma=MARGIN)
    print(f"AROW demo: {time.perf_counter() - start:.1f} s "
          f"(perceptron_bounds {__version__}, seed {SEED}, r = {R})")
    for name, each in (("full", run), ("diagonal", diagonal)):
        print(f"  {name:8s}: {each.mistakes} mistakes and {each.margin_errors} margin errors "
              f"in {each.n_trials} trials")
    for row in report.rows:
        print(f"  arow bound ({row.variant}) at gamma = {MARGIN}: {row.value:.4g} "
              f"(U = {row.quantities['U']}, Q = {row.quantities['Q']:.3g})")
    above = bool((curves["arow"] >= curves.mistakes).all())
    print(f"  the tightened curve stays above the mistakes on every prefix: {above}")
    print(f"wrote {png}, {gif}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=Path("figures"), metavar="OUT_DIR",
                        help="folder of arow.png and arow.gif (default: ./figures)")
    parser.add_argument("--quick", action="store_true",
                        help="accepted for the docs' quick build; the demo is small already")
    main(parser.parse_args().out)
