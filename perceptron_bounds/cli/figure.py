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

from ..papers import REPRODUCTIONS
from ._commands import HELP
from ._common import (
    UsageError,
    add_index_base_arguments,
    add_sweep_options,
    choice,
    load_file,
    reproduce,
    sweep_options,
)

#: The figures by name (``ballseptron-radius --data mnist|usps`` is its ``-real`` variant).
FIGURES = {name: rep for name, rep in REPRODUCTIONS.items()
           if rep.kind == "figure" and name == rep.name}
#: The figures on synthetic data, those of ``figure all``.
SYNTHETIC = [name for name, rep in FIGURES.items() if not rep.real]
#: The figures that read the data home, named in the errors of --cache and --download.
REAL = [name for name, rep in FIGURES.items() if rep.real]
#: The figures that run on a ``--data`` file.
DATA_FIGURES = tuple(name for name, rep in FIGURES.items() if "data" in rep.options)


def _real_variant(name: str):
    """The reproduction of ``figure NAME --data SET`` for a data set of the data home."""
    return REPRODUCTIONS.get(f"{name}-real")


def _takers(option: str) -> list[str]:
    """The figures that take the command's ``option``."""
    return [name for name, rep in FIGURES.items() if option in rep.options]


def add_parser(subparsers, name: str) -> argparse.ArgumentParser:
    """Register the command ``name`` on the main parser's subparsers."""
    names = [*FIGURES, "all"]
    parser = subparsers.add_parser(
        name, help=HELP[name],
        description="Run a paper's experiment and write DIR/NAME.png, .pdf and .csv. "
        "A progress bar is shown on a terminal, a line every 10 s otherwise. The real-data figures (fs-mnist, "
        "bounds-mnist, ballseptron-radius --data mnist|usps) read the data home "
        "($PERCEPTRON_BOUNDS_DATA) without downloading and also write DIR/NAME.md, ours "
        "beside the paper's numbers.",
    )
    parser.add_argument("name", type=choice(names, "figure"), metavar="NAME",
                        help="the figure: " + ", ".join(names) + " (all: the figures on "
                        "synthetic data, " + ", ".join(SYNTHETIC) + ")")
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
    parser.add_argument("--positive-class", metavar="D", type=int, default=None,
                        help="bounds-mnist and budget-mnist only: the digit against the rest "
                        "(default 9)")
    add_sweep_options(parser, out="figures",
                      seeds="seeds (permutations or data draws) averaged per point (default: "
                      "the figure's own)",
                      quick="small sizes, for a smoke test (seconds instead of minutes; real "
                      "data subsampled), marked as quick on the figure and in the CSV",
                      real="real-data figures: ")
    parser.set_defaults(handler=figure_command)
    return parser


def figure_command(args) -> int:
    """Run the named figure(s), save PNG, PDF and CSV (and a report), print the paths."""
    options = sweep_options(args)
    variant = _real_variant(args.name)
    real_data = variant is not None and args.data in variant.data
    reproduction = variant if real_data else FIGURES.get(args.name)
    real = reproduction is not None and reproduction.real
    given = []
    if args.data is not None:
        if args.name not in DATA_FIGURES:
            raise UsageError(f"--data: only {', '.join(DATA_FIGURES)} runs on given data; "
                             f"{args.name} makes its own")
        if real_data:
            given = [args.data]
        else:
            X, y, _ = load_file(args.data, zero_based=args.zero_based)
            options.update(data=(X, y), name=os.path.basename(args.data))
    if args.zero_based != "auto" and (args.data is None or real):
        raise UsageError("--zero-based and --one-based describe an svmlight file given as --data")
    for option, value in (("--cache", args.cache), ("--download", args.download)):
        if value and not real:
            raise UsageError(f"{option}: only the real-data figures take it ("
                             f"{', '.join(REAL)}, ballseptron-radius --data mnist|usps)")
    if args.positive_class is not None:
        if args.name not in _takers("positive_class"):
            raise UsageError(f"--positive-class: only {', '.join(_takers('positive_class'))} "
                             "takes it")
        options["digit"] = args.positive_class
    if args.radii is not None:
        if args.name not in _takers("radii"):
            raise UsageError(f"--radii: only {', '.join(_takers('radii'))} takes it")
        options["radii"] = _radii(args.radii)
    os.makedirs(args.out, exist_ok=True)  # a bad --out fails now, not after the sweep
    if real:
        options.update(cache=args.cache, download=args.download)
    for name in SYNTHETIC if args.name == "all" else [args.name]:
        reproduce(reproduction if name == args.name else FIGURES[name], args, *given, **options)
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
