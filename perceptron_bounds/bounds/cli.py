"""The ``compare`` subcommand: every algorithm's mistakes beside every bound that applies.

``perceptron-bounds compare [--data FILE] [--algorithms a,b,...] [--epochs E]
[--gamma G] [--comparator auto|target|svm] [--json]``
"""

from __future__ import annotations

import argparse
import json
import math

from .evaluate import COMPARATORS
from .report import aligned

COLUMNS = ("algorithm", "mistakes", "bound", "variant", "value", "gamma", "mistakes/bound",
           "holds")


def add_compare_parser(subparsers) -> argparse.ArgumentParser:
    """Register ``compare`` on the main parser's subparsers."""
    from ..cli import add_data_argument

    parser = subparsers.add_parser(
        "compare", help="run algorithms and print their mistakes beside the papers' bounds",
        description="Run each algorithm (default: every registered one, with its default "
        "parameters) over the data and print its mistakes beside every mistake bound of the "
        "papers that applies, stated and tightened: value, gamma, mistakes/bound. Without "
        "--data it uses a built-in seeded synthetic data set with a known target and 5% "
        "label noise.",
    )
    add_data_argument(parser)
    parser.add_argument("--algorithms", default=None, metavar="A,B,...",
                        help="comma-separated algorithm names (default: all registered)")
    parser.add_argument("--epochs", type=int, default=1, help="passes over the data (default 1)")
    parser.add_argument("--gamma", type=float, default=None,
                        help="margin gamma for every bound (default: searched per bound)")
    parser.add_argument("--comparator", choices=COMPARATORS, default="auto",
                        help="u: the data's target, a linear/kernel SVM, or auto (target when "
                        "the data carry one, default)")
    parser.add_argument("--json", action="store_true", help="print the reports as JSON")
    parser.set_defaults(handler=compare_command)
    return parser


def _algorithms(text: str | None) -> list[str]:
    from ..algorithms import available
    from ..cli import UsageError

    names = available()
    if text is None:
        return names
    chosen = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in names]
    if unknown or not chosen:
        raise UsageError(f"--algorithms: unknown {', '.join(unknown) or 'empty list'}; "
                         f"choose from {', '.join(names)}")
    return chosen


def compare_command(args) -> int:
    """``compare``: run the algorithms, evaluate their bounds, print a table (or JSON)."""
    from ..cli import UsageError, describe_data, load_dataset
    from ..online import run_online
    from .evaluate import evaluate

    algorithms = _algorithms(args.algorithms)
    if args.epochs < 1:
        raise UsageError(f"--epochs must be >= 1, got {args.epochs}")
    if args.gamma is not None and not 0 < args.gamma < math.inf:
        raise UsageError(f"--gamma must be a finite number > 0, got {args.gamma}")
    X, y, target = load_dataset(args.data)
    if args.comparator == "target" and target is None:
        raise UsageError(f"--comparator target needs data with a known target (the built-in "
                         f"data, or an .npz file with an array u); {args.data} has none")
    reports = []
    for name in algorithms:
        run = run_online(name, X, y, epochs=args.epochs)
        reports.append(evaluate(run, X, y, gamma=args.gamma, comparator=args.comparator,
                                target=target))
    source = describe_data(args.data, X)
    if args.json:
        payload = {"data": source, "epochs": args.epochs, "gamma": args.gamma,
                   "reports": [json.loads(report.to_json()) for report in reports]}
        print(json.dumps(payload, indent=2))
        return 0
    print(f"data: {source}; {args.epochs} epoch(s)")
    print(format_table(reports))
    return 0


def format_table(reports) -> str:
    """One aligned table of every applicable bound, then the inapplicable ones with reasons."""
    table = [COLUMNS]
    missing = []
    notes = []
    for report in reports:
        for row in report.rows:
            if row.applies:
                table.append((report.algorithm, str(row.mistakes), row.name, row.variant,
                              f"{row.value:.6g}", f"{row.gamma:.4g}", f"{row.ratio:.3g}",
                              "yes" if row.holds else "NO"))
            else:
                missing.append(f"  {report.algorithm} {row.name} ({row.variant}): {row.reason}")
        if not report.rows:
            table.append((report.algorithm, str(report.mistakes), "-", "-", "-", "-", "-", "-"))
        notes.extend(f"  {report.algorithm}: {note}" for note in report.notes)
    lines = aligned(table)
    if missing:
        lines += ["not applicable:", *missing]
    if notes:
        lines += ["notes:", *dict.fromkeys(notes)]
    return "\n".join(lines)
