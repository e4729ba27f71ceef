"""
Every bound on real data: MNIST, one digit against the rest
===========================================================

The toolkit's headline comparison on real data: each registered algorithm
(Perceptron, voted Perceptron, p-norm Perceptron, Ballseptron, Second-Order
and Higher-Order Perceptron, with their default parameters, no kernel) makes
one pass over the MNIST training images of unit norm, labelled +1 for one
digit (default 9, the binary problem of paper 001's Table 3) and -1 for the
rest, and every mistake bound of the papers that applies is evaluated on the
run, with the SVM comparator and the margin gamma that make it smallest. The
figure shows mistakes / bound per bound and algorithm (at most 1: the bound
holds; the closer to 1, the tighter); the script prints the table.

MNIST is read from the data home (``$PERCEPTRON_BOUNDS_DATA``); the script
says so and stops when it is missing. ``--quick``: 2000 training images.

Usage: python examples/bounds_mnist.py [--digit D] [--out DIR] [--n-jobs J] [--cache DIR]
[--quick]
"""

import argparse
import sys
import time

from perceptron_bounds.papers import save_figure
from perceptron_bounds.papers.bounds_mnist import bounds_mnist


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--digit", type=int, default=9)
    parser.add_argument("--out", default="figures")
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--cache", default=None)
    parser.add_argument("--quick", action="store_true", help="2000 training images")
    args = parser.parse_args()
    start = time.perf_counter()
    try:
        records, fig, report = bounds_mnist(digit=args.digit, quick=args.quick,
                                            n_jobs=args.n_jobs, cache=args.cache,
                                            progress=sys.stderr.isatty())
    except FileNotFoundError as error:
        print(f"skipped: {error}")
        return
    print(report)
    print(f"\nbounds-mnist: {time.perf_counter() - start:.1f} s with n_jobs={args.n_jobs}")
    print("wrote " + ", ".join(save_figure("bounds-mnist", records, fig, args.out, report)))


if __name__ == "__main__":
    main()
