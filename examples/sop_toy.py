"""Second-Order Perceptron paper (Cesa-Bianchi, Conconi, Gentile, SIAM J. Comput. 2005), sec. 5.

Two linearly separable Gaussian data sets in 100 dimensions whose correlation
matrix has one dominant eigenvalue (8 times the others); set 1 is labelled by
the dominant eigenvector, set 2 by a non-dominant one. FO and SO(a), a = 1, 10,
50, train one epoch; the table gives test mistakes of the final classifier,
mean and standard deviation over 20 training-set permutations. The paper: the
Perceptron behaves alike on both sets, SO is clearly better on set 2.

Usage: python examples/sop_toy.py [OUT_DIR] [N_JOBS]
"""

import argparse
import sys
import time
from pathlib import Path

from perceptron_bounds.experiments import summarize
from perceptron_bounds.papers import provenance_line, save_figure
from perceptron_bounds.papers.second_order import sop_toy_figure


def main(out: Path, n_jobs: int) -> None:
    start = time.perf_counter()
    records, fig = sop_toy_figure(n_jobs=n_jobs, progress=sys.stderr.isatty())
    print(f"sop-toy: {time.perf_counter() - start:.1f} s with n_jobs={n_jobs}")
    print(provenance_line(records[0]))  # version, seeds, quick or full size
    print(f"\ntest mistakes (of {records[0]['n_test']}): mean (std)")
    for row in summarize(records, ["target", "label"], "test_mistakes"):
        print(f"  {row['target']:<12} {row['label']:<7} {row['mean']:6.1f} ({row['std']:.1f})")
    print("\nwrote " + ", ".join(save_figure("sop-toy", records, fig, out)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=Path("figures"), metavar="OUT_DIR",
                        help="folder of the figure and its CSV (default: ./figures)")
    parser.add_argument("n_jobs", nargs="?", type=int, default=2, metavar="N_JOBS",
                        help="parallel workers (default 2)")
    args = parser.parse_args()
    main(args.out, args.n_jobs)
