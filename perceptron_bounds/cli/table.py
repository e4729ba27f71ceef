"""``perceptron-bounds table``: a paper's table on its real data, ours beside the paper's.

``table hop-ocr [--data mnist|usps] [--algorithms FO,HO2,sparse-HO2,SO]
[--kernels gauss,poly] [--cv [--folds K]]`` is paper 000's Table 3, ``table
hop-rcv1 [--algorithms FO,HO2,SO]`` its Table 2, ``table hop-dna --data FILE [--data FILE]
[--label-column C] [--delimiter D] [--algorithms FO,HO2,...]`` its Table 1 on the user's
expression matrices (58 rows: Breast, 96: Lymphoma); all take ``--out DIR``,
``--seeds N`` (hop-dna: the number of random splits), ``--n-jobs J``, ``--quick``,
``--cache DIR`` and ``--scheduler ADDRESS``, and the first two ``--download``.
Each writes ``DIR/NAME.png``, ``.pdf``, ``.csv`` and ``.md`` (the Markdown table,
also printed: our numbers, the paper's and the differences). ``--cv`` first
runs the 5-fold search for the kernel and algorithm parameters on a training
subsample and writes it to ``DIR/NAME-search.csv`` and ``.md``; without it the
table uses the parameters that search chose (shipped as defaults).
"""

from __future__ import annotations

import argparse
import os

from .._validation import check_int, did_you_mean
from ..experiments import write_csv
from ..papers import REPRODUCTIONS
from ..papers.higher_order import hop_ocr_search
from ..papers.writer import save_markdown
from ._commands import HELP
from ._common import (
    UsageError,
    add_sweep_options,
    choice,
    cluster,
    label_column,
    reproduce,
    sweep_options,
)

#: The tables by name.
TABLES = {name: rep for name, rep in REPRODUCTIONS.items() if rep.kind == "table"}


def add_parser(subparsers, name: str) -> argparse.ArgumentParser:
    """Register the command ``name`` on the main parser's subparsers."""
    parser = subparsers.add_parser(
        name, help=HELP[name],
        description="Run a table of the Higher-Order paper (paper 000) on its real data, read "
        "from the data home ($PERCEPTRON_BOUNDS_DATA) without downloading, and write "
        "DIR/NAME.png, .pdf, .csv and .md. hop-ocr: Table 3, MNIST or USPS, one-vs-rest, "
        "Gaussian and polynomial kernels, one epoch. hop-rcv1: Table 2, the four RCV1 tasks, "
        "linear, one epoch. hop-dna: Table 1, the Breast and Lymphoma expression matrices given as "
        "files (--data FILE, once per data set), 5 epochs, random splits.",
    )
    parser.add_argument("name", type=choice(TABLES, "table"), metavar="NAME",
                        help="the table: " + ", ".join(TABLES))
    parser.add_argument("--data", action="append", default=None, metavar="mnist|usps|FILE",
                        help="hop-ocr: the data set (default mnist); hop-dna: an expression "
                        "matrix, CSV (one row per profile, a label column) or svmlight, "
                        "repeated for the second data set")
    parser.add_argument("--label-column", type=label_column, default=None,
                        metavar="first|last|INDEX",
                        help="hop-dna: the CSV column of the labels (default last)")
    parser.add_argument("--delimiter", default=None, metavar="CHAR",
                        help="hop-dna: the CSV separator (default detected)")
    parser.add_argument("--algorithms", default=None, metavar="A,B,...",
                        help="comma-separated: FO, HO2, sparse-HO2, SO for hop-ocr; FO, HO2, "
                        "SO for hop-rcv1; FO, HO2, HO4, HO7(0), HO7, HO10, SO for hop-dna "
                        "(default: all)")
    parser.add_argument("--kernels", default=None, metavar="K,...",
                        help="hop-ocr only: comma-separated among "
                        + ", ".join(TABLES["hop-ocr"].choices["kernels"]) + " (default: both)")
    parser.add_argument("--cv", action="store_true",
                        help="hop-ocr only: choose the kernel and algorithm parameters by "
                        "k-fold cross-validation on a training subsample first (default: the "
                        "parameters that search chose, shipped)")
    parser.add_argument("--folds", type=int, default=5, metavar="K",
                        help="folds of --cv (default 5, as the paper)")
    add_sweep_options(parser, out="tables",
                      seeds="random orders of the training set, averaged (default: the order "
                      "given, once)",
                      quick="subsampled, for a smoke test; marked as quick in the outputs")
    parser.set_defaults(handler=table_command)
    return parser


def _names(text: str | None, option: str, known) -> tuple[str, ...] | None:
    """The comma-separated names of ``option``, each checked against ``known``."""
    if text is None:
        return None
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    bad = [name for name in names if name not in known]
    if not names or bad:
        raise UsageError(f"{option}: {'unknown ' + ', '.join(bad) if bad else 'empty list'} "
                         f"(choose from {', '.join(known)})")
    return names


def _data_given(table, data: list[str] | None) -> list:
    """The experiment's data argument: hop-dna's list of files, or the one data set of the
    data home that ``--data`` names (the table's default without it)."""
    if not table.data:
        return [data]
    if data is not None and len(data) > 1:
        raise UsageError(f"--data: {table.name} takes one data set, got {', '.join(data)}")
    name = table.data[0] if data is None else data[0]
    if name not in table.data:
        raise UsageError(f"--data: unknown data set {name!r}{did_you_mean(name, table.data)} "
                         f"(choose from {', '.join(table.data)})")
    return [name]


def table_command(args) -> int:
    """Run the table (and the search with ``--cv``), save it, print the report; exit 0."""
    options = sweep_options(args)
    table = TABLES[args.name]
    for option, value in (("--data", args.data), ("--kernels", args.kernels),
                          ("--cv", args.cv or None), ("--label-column", args.label_column),
                          ("--delimiter", args.delimiter)):
        if value is not None and option[2:].replace("-", "_") not in table.options:
            raise UsageError(f"{option}: only "
                             + ", ".join(name for name, rep in TABLES.items()
                                         if option[2:].replace("-", "_") in rep.options)
                             + " takes it")
    check_int("--folds", args.folds, low=2)
    options.update(cache=args.cache)
    if args.name == "hop-dna":
        if not args.data:
            raise UsageError("hop-dna: give the expression matrices, --data FILE (Breast, 58 "
                             "rows) and/or --data FILE (Lymphoma, 96 rows); see the "
                             "reproducing page for where to get them")
        if args.download:
            raise UsageError("--download: hop-dna reads the files of --data; the DNA data "
                             "sets cannot be downloaded by this tool")
        options.update(label_column=args.label_column, delimiter=args.delimiter)
    else:
        options.update(download=args.download)
    for option in ("algorithms", "kernels"):
        names = _names(getattr(args, option), f"--{option}", table.choices.get(option, ()))
        if names is not None:
            options[option] = names
    given = _data_given(table, args.data) if "data" in table.options else []
    os.makedirs(args.out, exist_ok=True)  # a bad --out fails now, not after the runs
    if args.cv:
        seeds = options.pop("seeds")
        try:
            with cluster(args.scheduler):
                records, options["params"], markdown = hop_ocr_search(
                    *given, folds=args.folds, **options)
        except FileNotFoundError as error:
            raise UsageError(f"{error} (on the command line: --download)") from None
        base = os.path.join(args.out, f"{args.name}-search")
        write_csv(records, base + ".csv")
        save_markdown(markdown, base + ".md")
        print(markdown + "\n")
        options["seeds"] = seeds
    return reproduce(table, args, *given, **options)
