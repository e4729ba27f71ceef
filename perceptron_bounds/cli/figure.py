"""``perceptron-bounds figure``: redraw a paper's figure and save its data.

``figure NAME [--out DIR] [--seeds N] [--n-jobs J] [--quick] [--data FILE]`` writes
``DIR/NAME.png``, ``DIR/NAME.pdf`` and ``DIR/NAME.csv`` (the records behind
the figure) and prints where they went. ``--data`` runs ``ballseptron-radius``
on a data file instead of its synthetic data, as the paper on MNIST and USPS:
multiclass data (theory §2.6) give the native multiclass Ballseptron.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from .._validation import check_int
from ..datasets import load_data
from ..experiments.figures import FIGURES, save_figure
from ._common import UsageError, choice

#: The figures that run on a ``--data`` file.
DATA_FIGURES = ("ballseptron-radius",)


def add_parser(subparsers, name: str) -> argparse.ArgumentParser:
    """Register the command ``name`` on the main parser's subparsers."""
    names = [*FIGURES, "all"]
    parser = subparsers.add_parser(
        name, help="redraw a figure of the papers (PNG, PDF and the CSV behind it)",
        description="Run a paper's experiment and write DIR/NAME.png, .pdf and .csv. "
        "A progress bar is shown when stderr is a terminal.",
    )
    parser.add_argument("name", type=choice(names, "figure"), metavar="NAME",
                        help="the figure, or all of them: " + ", ".join(names))
    parser.add_argument("--out", default="figures", metavar="DIR",
                        help="output directory (default: ./figures)")
    parser.add_argument("--seeds", type=int, default=None, metavar="N",
                        help="seeds (permutations or data draws) averaged per point "
                        "(default: the figure's own)")
    parser.add_argument("--n-jobs", type=int, default=1, metavar="J",
                        help="parallel workers (joblib; -1 = all cores; default 1)")
    parser.add_argument("--quick", action="store_true",
                        help="small sizes, for a smoke test (seconds instead of minutes)")
    parser.add_argument("--data", metavar="FILE", default=None,
                        help="ballseptron-radius only: run on this svmlight, .npz or .csv file "
                        "(labels in the last column) instead of the synthetic data; more than "
                        "two labels run the native multiclass Ballseptron (paper 004 sec. 4), "
                        "as the paper on MNIST and USPS")
    parser.set_defaults(handler=figure_command)
    return parser


def figure_command(args) -> int:
    """Run the named figure(s), save PNG, PDF and CSV, print the paths; exit code 0."""
    if args.seeds is not None:
        check_int("--seeds", args.seeds, low=1)
    if args.n_jobs == 0:
        raise ValueError("--n-jobs must be a nonzero integer, got 0")
    given = {}
    if args.data is not None:
        if args.name not in DATA_FIGURES:
            raise UsageError(f"--data: only {', '.join(DATA_FIGURES)} runs on given data; "
                             f"{args.name} makes its own")
        X, y, _ = load_data(args.data)
        given = {"data": (X, y), "name": os.path.basename(args.data)}
    os.makedirs(args.out, exist_ok=True)  # a bad --out fails now, not after the sweep
    names = list(FIGURES) if args.name == "all" else [args.name]
    progress = sys.stderr.isatty()
    for name in names:
        start = time.perf_counter()
        records, fig = FIGURES[name](
            seeds=args.seeds, quick=args.quick, n_jobs=args.n_jobs, progress=progress, **given
        )
        paths = save_figure(name, records, fig, args.out)
        elapsed = time.perf_counter() - start
        print(f"{name}: {', '.join(paths)} ({len(records)} rows, {elapsed:.1f} s)")
    return 0
