"""``perceptron-bounds figure``: redraw a paper's figure and save its data.

``figure NAME [--out DIR] [--seeds N] [--n-jobs J] [--quick] [--data FILE|mnist|usps]
[--radii R1,R2,...] [--cache DIR] [--download] [--positive-class D]`` writes
``DIR/NAME.png``, ``DIR/NAME.pdf`` and ``DIR/NAME.csv`` (the records behind the
figure) and prints where they went. ``--data`` runs ``ballseptron-radius`` on a
data file instead of its synthetic data (multiclass data, theory §2.6, give the
native multiclass Ballseptron; the radii scaled to the file's mean instance norm
unless ``--radii`` sets them), or on MNIST or USPS prepared as paper 004 did.

The real-data figures (``fs-mnist``, ``bounds-mnist``, ``ballseptron-radius
--data mnist|usps``) read the data home and never download unless
``--download``; they also write ``DIR/NAME.md``, a report that sets the
paper's numbers or claims beside ours (printed too), and with ``--cache DIR``
keep every finished cell on disk, so a killed run started again loses nothing.
"""

from __future__ import annotations

import argparse
import os
import time

from ..experiments.figures import FIGURES, save_figure
from ..experiments.real import REAL_FIGURES, ballseptron_radius_real, save_outputs
from ._common import (
    UsageError,
    add_index_base_arguments,
    check_sweep_options,
    choice,
    load_file,
)

#: The figures that run on a ``--data`` file.
DATA_FIGURES = ("ballseptron-radius",)
#: The data sets ``ballseptron-radius --data`` reads from the data home, as paper 004.
RADIUS_DATA = ("mnist", "usps")


def add_parser(subparsers, name: str) -> argparse.ArgumentParser:
    """Register the command ``name`` on the main parser's subparsers."""
    names = [*FIGURES, *REAL_FIGURES, "all"]
    parser = subparsers.add_parser(
        name, help="redraw a figure of the papers (PNG, PDF and the CSV behind it)",
        description="Run a paper's experiment and write DIR/NAME.png, .pdf and .csv. "
        "A progress bar is shown on a terminal, a line every 10 s otherwise. The real-data figures (fs-mnist, "
        "bounds-mnist, ballseptron-radius --data mnist|usps) read the data home "
        "($PERCEPTRON_BOUNDS_DATA) without downloading and also write DIR/NAME.md, ours "
        "beside the paper's numbers.",
    )
    parser.add_argument("name", type=choice(names, "figure"), metavar="NAME",
                        help="the figure: " + ", ".join(names) + " (all: the figures on "
                        "synthetic data, " + ", ".join(FIGURES) + ")")
    parser.add_argument("--out", default="figures", metavar="DIR",
                        help="output directory (default: ./figures)")
    parser.add_argument("--seeds", type=int, default=None, metavar="N",
                        help="seeds (permutations or data draws) averaged per point "
                        "(default: the figure's own)")
    parser.add_argument("--n-jobs", type=int, default=1, metavar="J",
                        help="parallel workers (joblib; -1 = all cores; default 1)")
    parser.add_argument("--quick", action="store_true",
                        help="small sizes, for a smoke test (seconds instead of minutes; real "
                        "data subsampled), marked as quick on the figure and in the CSV")
    parser.add_argument("--data", metavar="FILE|mnist|usps", default=None,
                        help="ballseptron-radius only: mnist or usps from the data home, "
                        "prepared as paper 004 (centred, average norm 1, kernel (x.z + 1/2)^5, "
                        "native multiclass Ballseptron); or an svmlight, .npz or .csv file "
                        "(labels in the last column) run as given: more than two labels run "
                        "the native multiclass Ballseptron")
    parser.add_argument("--radii", metavar="R1,R2,...", default=None,
                        help="ballseptron-radius only: the radii r (comma-separated, >= 0); "
                        "default: the synthetic figure's 0 to 0.5, on a data file times its "
                        "mean instance norm")
    add_index_base_arguments(parser)
    parser.add_argument("--cache", metavar="DIR", default=None,
                        help="real-data figures: keep every finished run in DIR and read it "
                        "back when run again (a killed run resumes)")
    parser.add_argument("--download", action="store_true",
                        help="real-data figures: fetch a data set missing from the data home "
                        "(default: a one-line error naming the missing files)")
    parser.add_argument("--positive-class", metavar="D", type=int, default=None,
                        help="bounds-mnist only: the digit against the rest (default 9)")
    parser.set_defaults(handler=figure_command)
    return parser


def figure_command(args) -> int:
    """Run the named figure(s), save PNG, PDF and CSV (and a report), print the paths."""
    check_sweep_options(args)
    real = args.name in REAL_FIGURES or (args.name in DATA_FIGURES and args.data in RADIUS_DATA)
    given = {}
    if args.data is not None:
        if args.name not in DATA_FIGURES:
            raise UsageError(f"--data: only {', '.join(DATA_FIGURES)} runs on given data; "
                             f"{args.name} makes its own")
        if not real:
            X, y, _ = load_file(args.data, zero_based=args.zero_based)
            given = {"data": (X, y), "name": os.path.basename(args.data)}
    if args.zero_based != "auto" and (args.data is None or real):
        raise UsageError("--zero-based and --one-based describe an svmlight file given as --data")
    for option, value in (("--cache", args.cache), ("--download", args.download)):
        if value and not real:
            raise UsageError(f"{option}: only the real-data figures take it ("
                             f"{', '.join(REAL_FIGURES)}, ballseptron-radius --data mnist|usps)")
    if args.positive_class is not None and args.name != "bounds-mnist":
        raise UsageError("--positive-class: only bounds-mnist takes it")
    if args.radii is not None:
        if args.name != "ballseptron-radius":
            raise UsageError("--radii: only ballseptron-radius takes it")
        given["radii"] = _radii(args.radii)
    os.makedirs(args.out, exist_ok=True)  # a bad --out fails now, not after the sweep
    if real:
        return _real_figure(args)
    names = list(FIGURES) if args.name == "all" else [args.name]
    for name in names:
        start = time.perf_counter()
        records, fig = FIGURES[name](
            seeds=args.seeds, quick=args.quick, n_jobs=args.n_jobs, progress=True, **given
        )
        paths = save_figure(name, records, fig, args.out)
        elapsed = time.perf_counter() - start
        print(f"{name}: {', '.join(paths)} ({len(records)} rows, {elapsed:.1f} s)")
    return 0


def _radii(text: str) -> list[float]:
    """``--radii``: comma-separated finite reals >= 0."""
    try:
        radii = [float(part) for part in text.split(",")]
    except ValueError:
        radii = []
    if not radii or not all(0.0 <= r < float("inf") for r in radii):
        raise UsageError(f"--radii must be comma-separated numbers >= 0, e.g. 0,0.5,1; got {text}")
    return radii


def _real_figure(args) -> int:
    """A real-data figure: PNG, PDF, CSV and the Markdown report, which is printed too."""
    options = {"seeds": args.seeds, "quick": args.quick, "n_jobs": args.n_jobs,
               "progress": True, "cache": args.cache, "download": args.download}
    if args.radii is not None:
        options["radii"] = _radii(args.radii)
    if args.positive_class is not None:
        options["digit"] = args.positive_class
    start = time.perf_counter()
    try:
        if args.name in REAL_FIGURES:
            records, fig, markdown = REAL_FIGURES[args.name](**options)
        else:
            records, fig, markdown = ballseptron_radius_real(args.data, **options)
    except FileNotFoundError as error:
        raise UsageError(f"{error} (on the command line: --download)") from None
    paths = save_outputs(args.name, records, fig, markdown, args.out)
    elapsed = time.perf_counter() - start
    print(markdown)
    print(f"\n{args.name}: {', '.join(paths)} ({len(records)} rows, {elapsed:.1f} s)")
    return 0
