"""``perceptron-bounds table``: a paper's table on its real data, ours beside the paper's.

``table hop-ocr [--data mnist|usps] [--algorithms FO,HO2,sparse-HO2,SO]
[--kernels gauss,poly] [--cv [--folds K]]`` is paper 000's Table 3, ``table
hop-rcv1 [--algorithms FO,HO2,SO]`` its Table 2; both take ``--out DIR``,
``--seeds N``, ``--n-jobs J``, ``--quick``, ``--cache DIR`` and ``--download``.
Each writes ``DIR/NAME.png``, ``.pdf``, ``.csv`` and ``.md`` (the Markdown table,
also printed: our numbers, the paper's and the differences). ``--cv`` first
runs the 5-fold search for the kernel and algorithm parameters on a training
subsample and writes it to ``DIR/NAME-search.csv`` and ``.md``; without it the
table uses the parameters that search chose (shipped as defaults).
"""

from __future__ import annotations

import argparse
import os
import time

from .._interrupt import replacing
from .._validation import check_int
from ..experiments import write_csv
from ..experiments.real import (
    OCR_ALGORITHMS,
    OCR_KERNELS,
    RCV1_ALGORITHMS,
    TABLES,
    hop_ocr_search,
    save_outputs,
)
from ._common import UsageError, check_sweep_options, choice

#: Each table's data sets (the first is the default) and algorithms.
DATA = {"hop-ocr": ("mnist", "usps"), "hop-rcv1": ()}
ALGORITHMS = {"hop-ocr": tuple(OCR_ALGORITHMS), "hop-rcv1": tuple(RCV1_ALGORITHMS)}


def add_parser(subparsers, name: str) -> argparse.ArgumentParser:
    """Register the command ``name`` on the main parser's subparsers."""
    parser = subparsers.add_parser(
        name, help="a paper's table on its real data, ours beside the paper's (Markdown, CSV, "
        "PNG, PDF)",
        description="Run a table of the Higher-Order paper (paper 000) on its real data, read "
        "from the data home ($PERCEPTRON_BOUNDS_DATA) without downloading, and write "
        "DIR/NAME.png, .pdf, .csv and .md. hop-ocr: Table 3, MNIST or USPS, one-vs-rest, "
        "Gaussian and polynomial kernels, one epoch. hop-rcv1: Table 2, the four RCV1 tasks, "
        "linear, one epoch.",
    )
    parser.add_argument("name", type=choice(TABLES, "table"), metavar="NAME",
                        help="the table: " + ", ".join(TABLES))
    parser.add_argument("--data", type=choice(DATA["hop-ocr"], "data set"), default=None,
                        metavar="mnist|usps", help="hop-ocr only: the data set (default mnist)")
    parser.add_argument("--algorithms", default=None, metavar="A,B,...",
                        help="comma-separated: FO, HO2, sparse-HO2, SO for hop-ocr; FO, HO2, "
                        "SO for hop-rcv1 (default: all)")
    parser.add_argument("--kernels", default=None, metavar="K,...",
                        help="hop-ocr only: comma-separated among " + ", ".join(OCR_KERNELS)
                        + " (default: both)")
    parser.add_argument("--cv", action="store_true",
                        help="hop-ocr only: choose the kernel and algorithm parameters by "
                        "k-fold cross-validation on a training subsample first (default: the "
                        "parameters that search chose, shipped)")
    parser.add_argument("--folds", type=int, default=5, metavar="K",
                        help="folds of --cv (default 5, as the paper)")
    parser.add_argument("--out", default="tables", metavar="DIR",
                        help="output directory (default: ./tables)")
    parser.add_argument("--seeds", type=int, default=None, metavar="N",
                        help="random orders of the training set, averaged (default: the order "
                        "given, once)")
    parser.add_argument("--n-jobs", type=int, default=1, metavar="J",
                        help="parallel workers (joblib; -1 = all cores; default 1)")
    parser.add_argument("--quick", action="store_true",
                        help="subsampled, for a smoke test; marked as quick in the outputs")
    parser.add_argument("--cache", metavar="DIR", default=None,
                        help="keep every finished run in DIR and read it back when run again "
                        "(a killed run resumes)")
    parser.add_argument("--download", action="store_true",
                        help="fetch a data set missing from the data home (default: a one-line "
                        "error naming the missing files)")
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


def table_command(args) -> int:
    """Run the table (and the search with ``--cv``), save it, print the report; exit 0."""
    check_sweep_options(args)
    ocr = args.name == "hop-ocr"
    for option, value in (("--data", args.data), ("--kernels", args.kernels),
                          ("--cv", args.cv or None)):
        if value is not None and not ocr:
            raise UsageError(f"{option}: only hop-ocr takes it")
    check_int("--folds", args.folds, low=2)
    options = {"quick": args.quick, "n_jobs": args.n_jobs, "progress": True,
               "cache": args.cache, "download": args.download}
    chosen = {}
    algorithms = _names(args.algorithms, "--algorithms", ALGORITHMS[args.name])
    if algorithms is not None:
        chosen["algorithms"] = algorithms
    if ocr:
        kernels = _names(args.kernels, "--kernels", tuple(OCR_KERNELS))
        if kernels is not None:
            chosen["kernels"] = kernels
        chosen["data"] = args.data or DATA["hop-ocr"][0]
    os.makedirs(args.out, exist_ok=True)  # a bad --out fails now, not after the runs
    start = time.perf_counter()
    try:
        if args.cv:
            records, params, markdown = hop_ocr_search(folds=args.folds, **chosen, **options)
            base = os.path.join(args.out, f"{args.name}-search")
            write_csv(records, base + ".csv")
            with replacing(base + ".md") as temp, open(temp, "w", encoding="utf-8") as handle:
                handle.write(markdown + "\n")
            print(markdown + "\n")
            chosen["params"] = params
        records, fig, markdown = TABLES[args.name](seeds=args.seeds, **chosen, **options)
    except FileNotFoundError as error:
        raise UsageError(f"{error} (on the command line: --download)") from None
    paths = save_outputs(args.name, records, fig, markdown, args.out)
    print(markdown)
    elapsed = time.perf_counter() - start
    print(f"\n{args.name}: {', '.join(paths)} ({len(records)} rows, {elapsed:.1f} s)")
    return 0
