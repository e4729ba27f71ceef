"""Higher-Order Perceptron paper (Brotto, Gentile, Vitale, NIPS 2007), Figure 2.

Training updates and test error against epochs (1, 2, 3, 5, 10, 15, 20) on
Artificial 0.0 and Artificial 0.1 (n = 500, 50 relevant attributes, margin
0.005, 1000 + 1000 examples) for FO, SO(0.2), HO_2(0.4), HO_4(0.4), HO_7(0.0)
and HO_7(0.4). Prints the test error after 20 epochs (mean and standard
deviation over training-set permutations) and the per-seed differences
HO_2(0.4) - FO and HO_7(0.4) - HO_7(0.0) (HO_p(c > 0) against HO_p(0), which the
paper calls "always slightly superior"). Beside the updates it prints each run's
smallest stated mistake bound (theory §4.1), the data's target as the comparator:
the Perceptron's for FO, paper 000's Theorem 1 for HO_2(0.4), the p-norm
Perceptron's for HO_7(0.0) and the derived HO_p bound for HO_4(0.4) and HO_7(0.4)
(SO's is left out: on every prefix it takes an eigendecomposition per mistake).

Why HO_4 and HO_7 end above the paper's axis on Artificial 0.1 (issue 14, item 6).
After 20 epochs our HO_7 and HO_4 reach about 4,200 and 3,500 training updates
(FO 2,400-2,900 over four data draws), while the paper's plot stops at 2,400; on
Artificial 0.0 our HO_7 ends near 1,000, above that plot's 800, while FO (about 700)
and SO fit both. Small experiments rule out the implementation choices: normalising
the instances in the 2-norm instead of the p-norm changes the counts by under 2%; the
dual link (q = p/(p-1) in place of p) gives more updates (5,700 for HO_7); a plain
NumPy transcription of the paper's p-norm update gives exactly our counts; instances
drawn from {-1, +1}^500 instead of [-1, +1]^500 change nothing; halving the label
noise still leaves HO_7 at 2,800. The data explain the order: with 50 relevant of 500
attributes the target is not sparse enough for large p, and the separable bound
(p - 1) R_p^2 ||u||_q^2 / gamma^2 on Artificial 0.0 is 1.29 (p = 4) and 1.96 (p = 7)
times the Perceptron's. The paper's Figure 2 therefore most likely clips or rescales its
axis (its tick labels are compared here, not its curves); only a larger margin
convention (gamma on a target of unit 1-norm, 7 times our margin) brings HO_7 under
2,400, but it also takes every Artificial 0.0 curve under 210, far below that axis.

Usage: python examples/hop_fig2.py [OUT_DIR] [N_JOBS] [--quick]
(--quick: reduced sizes, marked as quick on the figure and in the CSV)
"""

import argparse
import sys
import time
from pathlib import Path

from perceptron_bounds.experiments import summarize
from perceptron_bounds.papers import provenance_line, save_figure
from perceptron_bounds.papers.higher_order import hop_fig2


def main(out: Path, n_jobs: int, quick: bool) -> None:
    start = time.perf_counter()
    records, fig = hop_fig2(n_jobs=n_jobs, quick=quick, progress=sys.stderr.isatty())
    print(f"hop-fig2: {time.perf_counter() - start:.1f} s with n_jobs={n_jobs}")
    print(provenance_line(records[0]))  # version, seeds, quick or full size
    last = max(row["epochs"] for row in records)
    final = [row for row in records if row["epochs"] == last]
    n_seeds = len({row["seed"] for row in final})
    for key in ("test_error", "updates"):
        print(f"\n{key} after {last} epochs (mean +- std over {n_seeds} seeds)")
        for row in summarize(final, ["eta", "label"], key):
            print(
                f"  eta={row['eta']:.1f}  {row['label']:<10} {row['mean']:9.4f} +- {row['std']:.4f}"
            )
    print(f"\nupdates and their smallest stated bound after {last} epochs (mean over {n_seeds} "
          "seeds; u = the data's target, in the q-norm for p > 2)")
    for eta in (0.0, 0.1):
        for label in dict.fromkeys(r["label"] for r in final if r.get("bound") is not None):
            rows = [r for r in final if r["eta"] == eta and r["label"] == label]
            updates = sum(r["updates"] for r in rows) / len(rows)
            bound = sum(r["bound"] for r in rows) / len(rows)
            names = "/".join(sorted({r["bound_name"] for r in rows}))
            print(f"  eta={eta:.1f}  {label:<10} updates {updates:8.1f}  bound {bound:10.1f}  "
                  f"updates/bound {updates / bound:.3f}  ({names})")
    # FO is HO_2(0): each pair is HO_p(c > 0) against HO_p(0).
    for better, base in (("HO_2(0.4)", "FO"), ("HO_7(0.4)", "HO_7(0.0)")):
        print(f"\n{better} - {base}, test error per seed after {last} epochs")
        for eta in (0.0, 0.1):
            by = {(r["label"], r["seed"]): r["test_error"] for r in final if r["eta"] == eta}
            diffs = [by[better, s] - by[base, s] for s in sorted({s for _, s in by})]
            print(f"  eta={eta:.1f}: " + ", ".join(f"{d:+.3f}" for d in diffs))
    print("\nwrote " + ", ".join(save_figure("hop-fig2", records, fig, out)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=Path("figures"), metavar="OUT_DIR",
                        help="folder of the figure and its CSV (default: ./figures)")
    parser.add_argument("n_jobs", nargs="?", type=int, default=2, metavar="N_JOBS",
                        help="parallel workers (default 2)")
    parser.add_argument("--quick", action="store_true",
                        help="reduced sizes, marked as quick on the figure and in the CSV")
    args = parser.parse_args()
    main(args.out, args.n_jobs, quick=args.quick)
