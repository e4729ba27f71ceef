"""
Freund & Schapire: the voted Perceptron on MNIST
================================================

Paper 001 (Freund and Schapire, "Large margin classification using the
Perceptron algorithm", Machine Learning 1999), sec. 5, Table 1 and Figure 2:
one voted Perceptron per digit (one-vs-rest) with the polynomial kernels
(1 + x.z)^d, d = 1..6, on the raw MNIST pixels; the test error of the seven
predictions (vote, average and last, unnormalised and normalised, random)
after T = 0.1, 1, 2 epochs, with SupVec and Mistake. The script compares
with the paper's claims, not with Table 1's numbers: it prints ours and
checks on them that voting and averaging beat the last vector before convergence,
random is the worst, and d = 1 -> 2 is the big step.

MNIST is read from the data home (``$PERCEPTRON_BOUNDS_DATA``); the script
says so and stops when it is missing. ``--quick``: 2000 training and 1000
test images (about 30 s). Full size (60,000 + 10,000 images, one permutation,
T up to 2) is minutes per degree on 2 cores; ``--cache DIR`` keeps every
finished (d, permutation) run, so a run stopped half way resumes; ``--epochs``
and ``--degrees`` go further than the default (the paper: T up to 30).

Usage: python examples/fs_mnist.py [--out DIR] [--n-jobs J] [--seeds N] [--cache DIR]
[--epochs 0.1,1,2,3] [--degrees 1,2,3,4,5,6] [--quick]
"""

import argparse
import sys
import time

from perceptron_bounds.papers import save_figure
from perceptron_bounds.papers.freund_schapire import fs_mnist


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="figures")
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--seeds", type=int, default=None)
    parser.add_argument("--cache", default=None)
    parser.add_argument("--epochs", default=None, help="checkpoints, e.g. 0.1,1,2,3")
    parser.add_argument("--degrees", default=None, help="kernel degrees, e.g. 1,2,4")
    parser.add_argument("--quick", action="store_true", help="2000 + 1000 images")
    args = parser.parse_args()
    epochs = None if args.epochs is None else [float(e) for e in args.epochs.split(",")]
    degrees = None if args.degrees is None else [int(d) for d in args.degrees.split(",")]
    start = time.perf_counter()
    try:
        records, fig, report = fs_mnist(quick=args.quick, n_jobs=args.n_jobs, seeds=args.seeds,
                                        cache=args.cache, epochs=epochs, degrees=degrees,
                                        progress=sys.stderr.isatty())
    except FileNotFoundError as error:
        print(f"skipped: {error}")
        return
    print(report)
    print(f"\nfs-mnist: {time.perf_counter() - start:.1f} s with n_jobs={args.n_jobs}")
    print("wrote " + ", ".join(save_figure("fs-mnist", records, fig, args.out, report)))


if __name__ == "__main__":
    main()
