"""
The Ballseptron's radius on MNIST and USPS
==========================================

Paper 004 (Shalev-Shwartz and Singer, "A new perspective on an old Perceptron
algorithm", COLT 2005), sec. 5, Fig. 3 top: the multiclass Ballseptron
(paper 004 sec. 4) with the kernel (x.z + 1/2)^5 on instances centred and
scaled to average norm 1, one pass, the prediction mistakes over the rounds,
epsilon/T, against the radius r (r = 0 is the Perceptron). The paper's claim:
many r > 0 make fewer mistakes than r = 0, and too large an r makes more.
The script prints mistakes/T and margin errors/T per r and the claim checked
on them (the claim is compared, not the plotted values).

The data come from the data home (``$PERCEPTRON_BOUNDS_DATA``); the script
says so and stops when they are missing. ``--quick``: 2000 rounds, 2 seeds
(about 15 s). Full size: MNIST's 60,000 rounds once per radius (minutes per
radius on 2 cores; ``--cache DIR`` resumes), USPS's 7,291 rounds with 3 seeds.

Usage: python examples/ballseptron_radius_mnist.py [--data mnist|usps] [--out DIR]
[--n-jobs J] [--seeds N] [--cache DIR] [--quick]
"""

import argparse
import sys
import time

from perceptron_bounds.papers import save_figure
from perceptron_bounds.papers.ballseptron import ballseptron_radius_real


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", choices=("mnist", "usps"), default="mnist")
    parser.add_argument("--out", default="figures")
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--seeds", type=int, default=None)
    parser.add_argument("--cache", default=None)
    parser.add_argument("--quick", action="store_true", help="2000 rounds, 2 seeds")
    args = parser.parse_args()
    start = time.perf_counter()
    try:
        records, fig, report = ballseptron_radius_real(
            args.data, quick=args.quick, n_jobs=args.n_jobs, seeds=args.seeds, cache=args.cache,
            progress=sys.stderr.isatty())
    except FileNotFoundError as error:
        print(f"skipped: {error}")
        return
    print(report)
    print(f"\nballseptron-radius on {args.data}: {time.perf_counter() - start:.1f} s "
          f"with n_jobs={args.n_jobs}")
    name = f"ballseptron-radius-{args.data}"
    print("wrote " + ", ".join(save_figure(name, records, fig, args.out, report)))


if __name__ == "__main__":
    main()
