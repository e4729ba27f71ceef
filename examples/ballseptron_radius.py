"""Ballseptron paper (Shalev-Shwartz, Singer, COLT 2005), Fig. 3 top, on synthetic data.

The paper plots prediction mistakes / T against the radius r on MNIST and USPS
(multiclass, polynomial kernel). Until those data sets are available this
draws the same curve on the built-in synthetic data (unit-norm instances,
margin 0.05, 5% label noise, T = 10,000): mistakes first fall below the
Perceptron's (r = 0), then rise again for large r, while margin errors grow.

Usage: python examples/ballseptron_radius.py [OUT_DIR] [N_JOBS]
"""

import argparse
import sys
import time
from pathlib import Path

from perceptron_bounds.experiments import summarize
from perceptron_bounds.papers import provenance_line, save_figure
from perceptron_bounds.papers.ballseptron import ballseptron_radius


def main(out: Path, n_jobs: int) -> None:
    start = time.perf_counter()
    records, fig = ballseptron_radius(n_jobs=n_jobs, progress=sys.stderr.isatty())
    print(f"ballseptron-radius: {time.perf_counter() - start:.1f} s with n_jobs={n_jobs}")
    print(provenance_line(records[0]))  # version, seeds, quick or full size
    mistakes = summarize(records, ["r"], "mistake_rate")
    margin_errors = summarize(records, ["r"], "margin_error_rate")
    print("\n     r  mistakes/T  margin errors/T  (mean over seeds)")
    for m, e in zip(mistakes, margin_errors, strict=True):
        print(f"  {m['r']:5.3f}  {m['mean']:10.4f}  {e['mean']:15.4f}")
    print("\nwrote " + ", ".join(save_figure("ballseptron-radius", records, fig, out)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=Path("figures"), metavar="OUT_DIR",
                        help="folder of the figure and its CSV (default: ./figures)")
    parser.add_argument("n_jobs", nargs="?", type=int, default=2, metavar="N_JOBS",
                        help="parallel workers (default 2)")
    args = parser.parse_args()
    main(args.out, args.n_jobs)
