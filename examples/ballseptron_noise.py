"""Ballseptron paper (Shalev-Shwartz, Singer, COLT 2005), Fig. 3 bottom.

10,000 points on the unit circle, separable with margin 0.15, then label noise
eta or instance noise sigma. The Perceptron runs once over them; its
Freund-Schapire D2-bound and the paper's D1-bound (Thm 2), with u the
generating separator and gamma = 0.15 (and gamma searched), are printed as
fractions of T. The paper: the D2-bound exceeds 1 once eta > 0.03, the
D1-bound stays tighter.

Usage: python examples/ballseptron_noise.py [OUT_DIR] [N_JOBS]
"""

import argparse
import sys
import time
from pathlib import Path

from perceptron_bounds.experiments import summarize
from perceptron_bounds.papers import provenance_line, save_figure
from perceptron_bounds.papers.ballseptron import ballseptron_noise

COLUMNS = ("mistake_rate", "d2_bound_rate", "d1_bound_rate", "d2_best_rate", "d1_best_rate")


def main(out: Path, n_jobs: int) -> None:
    start = time.perf_counter()
    records, fig = ballseptron_noise(n_jobs=n_jobs, progress=sys.stderr.isatty())
    print(f"ballseptron-noise: {time.perf_counter() - start:.1f} s with n_jobs={n_jobs}")
    print(provenance_line(records[0]))  # version, seeds, quick or full size
    for kind in ("label", "instance"):
        part = [row for row in records if row["kind"] == kind]
        tables = {c: summarize(part, ["level"], c) for c in COLUMNS}
        print(f"\n{kind} noise (mean over seeds): level, " + ", ".join(COLUMNS))
        for i, row in enumerate(tables["mistake_rate"]):
            values = "  ".join(f"{tables[c][i]['mean']:8.4f}" for c in COLUMNS)
            print(f"  {row['level']:5.2f}  {values}")
    print("\nwrote " + ", ".join(save_figure("ballseptron-noise", records, fig, out)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=Path("figures"), metavar="OUT_DIR",
                        help="folder of the figure and its CSV (default: ./figures)")
    parser.add_argument("n_jobs", nargs="?", type=int, default=2, metavar="N_JOBS",
                        help="parallel workers (default 2)")
    args = parser.parse_args()
    main(args.out, args.n_jobs)
