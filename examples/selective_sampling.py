"""Selective sampling: labels asked for against mistakes, test error and the expected bound.

The selective-sampling Perceptron and Second-Order Perceptron (theory §2.14) ask
for the label of trial t with probability b / (b + |p_t|), p_t their margin, and
update only on the queried mistakes; every mistake counts. For b from 0.01 to 10
(``--quick``: 0.03, 0.3, 3) each runs one pass in a random order per seed on a
synthetic task (``make_separable``: unit-norm instances in 20 dimensions, margin
0.05, 5% of the labels flipped, a held-out part for the test error); the fully
supervised algorithms run beside them. Left: online mistakes / T against the
fraction of labels queried, with the bound on the expected mistakes (theory §4.13)
dashed; right: the test error of the final hypothesis. Writes
OUT_DIR/selective-sampling.png, .pdf and .csv, as ``perceptron-bounds figure
selective-sampling`` does (whose ``--data`` runs it on a real binary task).

Usage: python examples/selective_sampling.py [OUT_DIR] [--quick]   (default: ./figures)
"""

import argparse
import time
from pathlib import Path

from perceptron_bounds.experiments import summarize
from perceptron_bounds.papers import provenance_line, save_figure
from perceptron_bounds.papers.selective import selective_sampling


def main(out: Path, quick: bool) -> None:
    start = time.perf_counter()
    records, fig = selective_sampling(quick=quick)
    print(f"selective-sampling: {time.perf_counter() - start:.1f} s")
    print(provenance_line(records[0]))
    print("\nalgorithm, b: labels queried, mistakes / T, bound on E[mistakes] / T (means)")
    queried = summarize(records, ["algorithm", "b"], "query_rate")
    mistakes = summarize(records, ["algorithm", "b"], "mistake_rate")
    bounds = summarize(records, ["algorithm", "b"], "bound_rate")
    for q, m, bound in zip(queried, mistakes, bounds, strict=True):
        b = "every label" if q["b"] is None else f"b = {q['b']:g}"
        print(f"  {q['algorithm']:<24} {b:<12} {q['mean']:7.1%} {m['mean']:7.2%} "
              f"{bound['mean']:8.3f}")
    print("\nwrote " + ", ".join(save_figure("selective-sampling", records, fig, out)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=Path("figures"), metavar="OUT_DIR",
                        help="folder of the figure and its CSV (default: ./figures)")
    parser.add_argument("--quick", action="store_true",
                        help="smaller task and fewer b (seconds)")
    args = parser.parse_args()
    main(args.out, args.quick)
