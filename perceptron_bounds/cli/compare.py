"""``perceptron-bounds compare``: every algorithm's mistakes beside every bound that applies.

``compare [--data FILE] [--algorithms A,B,...] [--epochs E] [--shuffle] [--seed S]
[--param NAME=VALUE ...] [--multiclass ovr|native] [--gamma G] [--comparator auto|target|svm]
[--u FILE] [--pieces K] [--memory-budget SIZE] [--json]``

The table comes a run at a time: each algorithm's rows as soon as its run is done (on a
cold Numba cache, before the next algorithms' loops compile), in fixed columns, so that every
run prints the same table (:class:`ReportPrinter`).

With ``--memory-budget`` the ``--data`` file is streamed in chunks of that size, for the
runs (:func:`~perceptron_bounds.streaming.run_file`) and for their bounds at the comparator
``--u`` (:func:`~perceptron_bounds.streaming.evaluate_file`): the table of the file read
whole, for files larger than memory.

On ``--data drifting`` (theory §4.14) the rows also hold the shifting bounds of
theory §4.15 against the data's target sequence (names with ``shifting`` or
``tracking``), beside the fixed-comparator ones; ``--pieces K`` adds them at the
best piecewise-constant sequence of 1..K pieces instead, on any data.

Multiclass data (theory §2.6) makes one-vs-rest runs by default: their rows
sum each bound over the classes and bound the corrections (the binary
mistakes summed over the classes); ``--multiclass native`` runs the
algorithms' own multiclass forms, whose bounds (through Kesler's
construction, theory §4.5) bound the multiclass mistakes.
"""

from __future__ import annotations

import argparse
import json
import math

import numpy as np

from .. import run_online
from .._progress import status_line_ended
from .._validation import did_you_mean
from ..algorithms import available, get
from ..bounds import evaluate
from ..bounds.declaration import declared_bounds
from ..bounds.evaluate import COMPARATORS, VARIANTS
from ..bounds.report import aligned, holds_text
from ..online import MULTICLASS
from ..registry import current_name
from ..streaming import STREAMED, evaluate_file, open_chunks, run_file
from ._commands import HELP
from ._common import (
    UsageError,
    add_run_options,
    check_run_options,
    choice,
    describe_data,
    format_params,
    load_dataset,
    seed_origin,
    sequence_text,
    warnings_printed,
)
from .data import size_text
from .run import byte_size, check_streamed, file_options

#: ``--seed`` when not given: the shuffles and the randomized algorithms' draws of every
#: run of ``compare`` (the README's main job) are the same, so is its table.
DEFAULT_SEED = 0

COLUMNS = ("algorithm", "mistakes", "bound", "variant", "value", "margin_gamma",
           "mistakes/bound", "holds")
#: The width of the value column: a bound's value as printed (``.6g``), e.g. 1.23457e+06.
VALUE_WIDTH = 11


def add_parser(subparsers, name: str) -> argparse.ArgumentParser:
    """Register the command ``name`` on the main parser's subparsers."""
    parser = subparsers.add_parser(
        name, help=HELP[name],
        description="Run each algorithm (default: every registered one) over the data and print "
        "its mistakes beside every mistake bound of the papers that applies, stated and "
        "tightened: value, margin gamma, mistakes/bound. Each --param NAME=VALUE goes to every "
        "compared algorithm that takes NAME (--param p=4 sets p of higher_order and "
        "pnorm; the others run with their defaults); a NAME that none of them takes "
        "is an error. With --shuffle every algorithm sees the same sequence, and a randomized "
        "algorithm draws from the same seed (--seed, default 0: every run prints the same "
        "table; the seed is printed). Without --data it uses a built-in seeded synthetic data "
        "set with a known target and 5% label noise. Multiclass data (more than two labels) "
        "give one-vs-rest runs, whose bounds are summed over the classes and bound the "
        "corrections (binary mistakes summed over the classes).",
    )
    add_run_options(parser, seed=DEFAULT_SEED)
    parser.add_argument("--algorithms", default=None, metavar="A,B,...",
                        help="comma-separated algorithm names (default: all registered; with "
                        "--multiclass native, those with a native multiclass form)")
    parser.add_argument("--multiclass", type=choice(MULTICLASS, "multiclass mode"), default=None,
                        metavar="ovr|native",
                        help="ovr: one-vs-rest (the default for more than two labels, and also "
                        "allowed on two); native: the algorithms' own multiclass form "
                        "(perceptron, ballseptron), bounded through Kesler's construction")
    parser.add_argument("--gamma", type=float, default=None,
                        help="margin gamma of every bound (default: searched per bound); a "
                        "kernel's gamma is --param gamma=...")
    parser.add_argument("--comparator", type=choice(COMPARATORS, "comparator"), default="auto",
                        metavar="{" + ",".join(COMPARATORS) + "}",
                        help="u: the data's target, a linear/kernel SVM, or auto (target when "
                        "the data carry one, default)")
    parser.add_argument("--u", default=None, metavar="FILE",
                        help="the comparator u of every bound: n_features numbers (a .npy file, "
                        "(K, n_features) for one-vs-rest runs; or text), scaled to unit norm")
    parser.add_argument("--memory-budget", type=byte_size, default=None, metavar="SIZE",
                        help="stream the --data file (svmlight or CSV, possibly larger "
                        "than memory) in chunks within SIZE bytes (e.g. 256MB): runs and bounds "
                        "equal those of the file read whole; needs --u, rows in file order, "
                        "binary labels, the algorithms " + ", ".join(STREAMED)
                        + " (the default then)")
    parser.add_argument("--pieces", type=int, default=None, metavar="K",
                        help="shifting bounds (theory §4.15) at the best comparator sequence of "
                        "1..K constant pieces, searched (default: at the target sequence on "
                        "--data drifting, else none)")
    parser.add_argument("--json", action="store_true",
                        help="print the reports as JSON (the bounds' margin is margin_gamma; "
                        "gamma among an algorithm's params is its kernel's)")
    parser.set_defaults(handler=compare_command)
    return parser


def chosen_algorithms(text: str | None, multiclass: str | None = None) -> list[str]:
    """The names of ``--algorithms`` (all registered when not given).

    With ``--multiclass native`` only algorithms with a native multiclass form
    (the default then) may be named.
    """
    names = available()
    native = [name for name in names if get(name).fit_native is not None]
    if text is None:
        return native if multiclass == "native" else names
    with warnings_printed():  # a former name is read as the current one, with a warning
        chosen = [current_name(name.strip()) for name in text.split(",") if name.strip()]
    if not chosen:
        raise UsageError(f"--algorithms: empty list; choose from {', '.join(names)}")
    for name in chosen:
        if name not in names:
            raise UsageError(f"--algorithms: unknown {name}{did_you_mean(name, names)} "
                             f"(choose from {', '.join(names)})")
        if multiclass == "native" and name not in native:
            raise UsageError(f"--multiclass native: {name} has no native multiclass form "
                             f"(those with one: {', '.join(native)}); use --multiclass ovr")
    return chosen


def compare_command(args) -> int:
    """``compare``: run the algorithms, evaluate their bounds, print a table (or JSON)."""
    if args.memory_budget is not None and args.algorithms is None:
        args.algorithms = ",".join(STREAMED)
    algorithms = chosen_algorithms(args.algorithms, args.multiclass)
    params, shares = check_run_options(args, algorithms)
    if args.gamma is not None and not 0 < args.gamma < math.inf:
        raise UsageError(f"--gamma must be a finite number > 0, got {args.gamma}")
    u = None if args.u is None else read_comparator(args.u)
    if args.memory_budget is not None:
        return streamed_compare(args, algorithms, params, shares, u)
    X, y, target = load_dataset(args)
    sequence = None
    if target is not None and np.ndim(target) == 2:  # --data drifting: a target per sample
        sequence, target = target, None
    if args.pieces is not None and args.pieces < 1:
        raise UsageError(f"--pieces must be >= 1, got {args.pieces}")
    if u is not None and sequence is not None:
        raise UsageError("--u is one comparator for every trial; --data drifting's bounds are "
                         "at its target sequence: drop --u")
    if args.comparator == "target" and target is None:
        raise UsageError(f"--comparator target needs data with a known target (the built-in "
                         f"data, or an .npz file with an array u); {args.data} has none")
    seed = args.seed
    printer = ReportPrinter(args, params, shares, algorithms)
    source = describe_data(args.data, X, args)
    with warnings_printed():  # e.g. as many classes as rows, once for all the algorithms
        for name in algorithms:
            run = run_online(name, X, y, epochs=args.epochs, shuffle=args.shuffle, seed=seed,
                             multiclass=args.multiclass, progress=True, **shares[name])
            seed = run.seed  # drawn by the first run when not given: the others see its sequence
            shifting = {}
            if run.multiclass is None and args.pieces is not None:
                shifting = {"pieces": args.pieces}
            elif run.multiclass is None and sequence is not None:
                shifting = {"u": sequence[run.sample_index]}
            printer.add(evaluate(run, X, y, gamma=args.gamma, comparator=args.comparator,
                                 target=target, **{"u": u, **shifting}), source, seed)
    return printer.close(source, seed)


def read_comparator(path: str) -> np.ndarray:
    """The comparator of ``--u FILE``: a ``.npy`` array as it is (a (K, n_features) one for
    a one-vs-rest run), or text, numbers separated by whitespace or commas (one vector)."""
    try:
        if path.endswith(".npy"):
            return np.load(path, allow_pickle=False).astype(np.float64)
        with open(path) as handle:
            text = handle.read().replace(",", " ")
        return np.array(text.split(), dtype=np.float64)
    except FileNotFoundError:
        raise UsageError(f"--u {path}: no such file") from None
    except ValueError as error:
        raise UsageError(f"--u {path}: not a list of numbers ({error})") from None


def streamed_compare(args, algorithms, params, shares, u) -> int:
    """``compare --memory-budget``: each algorithm run over the streamed ``--data`` file, its
    bounds evaluated over it again at ``--u``."""
    check_streamed(args, ("--pieces", args.pieces))
    if u is None:
        raise UsageError("--memory-budget evaluates the bounds at a given comparator: pass "
                         "--u FILE (the SVM comparator search needs the rows in memory)")
    if args.comparator != "auto":
        raise UsageError(f"--comparator {args.comparator} needs the rows in memory; "
                         "--memory-budget evaluates the bounds at --u")
    printer = ReportPrinter(args, params, shares, algorithms)
    chunks = open_chunks(args.data, args.memory_budget, **file_options(args))  # scanned once
    for name in algorithms:
        run = run_file(name, chunks, epochs=args.epochs, progress=True, **shares[name])
        source = (f"{args.data}: {run.n_trials // run.epochs} samples, {run.n_features} "
                  f"features, streamed within {size_text(args.memory_budget)}")
        printer.add(evaluate_file(run, chunks, u=u, gamma=args.gamma), source, args.seed)
    return printer.close(source, args.seed)


class ReportPrinter:
    """The output of ``compare``, printed as the reports arrive.

    As text, the data line and the table's head are printed with the first report
    and each report's rows as soon as it exists (its run may be the first to compile
    its loop: a cold cache shows results while the others compile), in the columns
    of :func:`table_widths`, so that the table is the same printed a run at a time or
    at once (:func:`format_table`); :meth:`close` prints the multiclass counts, the
    inapplicable bounds and the notes. With ``--json`` the one document is printed
    by :meth:`close`.
    """

    def __init__(self, args, params, shares, algorithms):
        self.args, self.params, self.shares, self.algorithms = args, params, shares, algorithms
        self.reports = []
        self.widths = None

    def add(self, report, source, seed) -> None:
        """Record ``report``; as text, print its rows (after the head, for the first one)."""
        self.reports.append(report)
        if self.args.json:
            return
        lines = []
        if self.widths is None:
            mode = getattr(report, "multiclass", None)
            self.widths = table_widths([_labelled(name, mode) for name in self.algorithms])
            lines = [*self._head(source, seed), *aligned([COLUMNS], ragged_last=True,
                                                         widths=self.widths)]
        lines += aligned(_cells(report), ragged_last=True, widths=self.widths)
        status_line_ended()
        print("\n".join(lines), flush=True)

    def _head(self, source, seed) -> list[str]:
        args = self.args
        draws = any(get(name).randomized for name in self.algorithms)
        lines = [f"data: {source}; " + sequence_text(
            args.epochs, args.shuffle, seed, draws=draws,
            origin=seed_origin(args.seed, seed, DEFAULT_SEED))]
        for key, value in self.params.items():
            takers = [name for name in self.algorithms if key in self.shares[name]]
            lines.append(f"param: {format_params({key: value})} for {', '.join(takers)}")
        return lines

    def close(self, source, seed) -> int:
        """Print what follows the table (or the JSON document); the command's exit code."""
        args = self.args
        if args.json:
            payload = {"data": source, "epochs": args.epochs, "shuffle": args.shuffle,
                       "seed": seed, "params": self.params, "margin_gamma": args.gamma,
                       "multiclass": args.multiclass,
                       "reports": [json.loads(report.to_json()) for report in self.reports]}
            print(json.dumps(payload, indent=2))
            return 0
        lines = _after_table(self.reports)
        if lines:
            status_line_ended()
            print("\n".join(lines), flush=True)
        return 0


def _labelled(name: str, mode) -> str:
    """An algorithm's name, with the multiclass mode of a multiclass run."""
    return name if mode is None else f"{name} ({mode})"


def _label(report) -> str:
    """The algorithm's name, with its multiclass mode for a multiclass run."""
    return _labelled(report.algorithm, getattr(report, "multiclass", None))


def table_widths(labels) -> list[int]:
    """The widths of the table's columns but the last (holds), for runs labelled ``labels``.

    Fixed before any row is known (:class:`ReportPrinter`): the algorithm column as wide as
    the longest label, the bound column as the longest declared bound's name, the variant
    column as the longest variant, the value column :data:`VALUE_WIDTH`; the others as their
    heads, which hold what their cells print (a count of 8 digits, a margin ``.4g`` or
    ``per class``, a ratio ``.3g``). A longer cell shifts the rest of its line.
    """
    return [max(len(COLUMNS[0]), *map(len, labels)), len(COLUMNS[1]),
            max(len(COLUMNS[2]), *map(len, declared_bounds())),
            max(len(COLUMNS[3]), *map(len, VARIANTS)), max(len(COLUMNS[4]), VALUE_WIDTH),
            len(COLUMNS[5]), len(COLUMNS[6])]


def _cells(report) -> list[tuple]:
    """The table's rows of one report: a row per applicable bound, or one with its mistakes
    alone when none applies (e.g. ROMMA's bound on noisy data)."""
    label = _label(report)
    table = []
    for row in report.rows:
        if row.applies:
            gamma = "per class" if row.gamma is None else f"{row.gamma:.4g}"
            table.append((label, str(row.mistakes), row.name, row.variant, f"{row.value:.6g}",
                          gamma, f"{row.ratio:.3g}", holds_text(row)))
    if not table:
        table.append((label, str(getattr(report, "corrections", report.mistakes)), "-", "-",
                      "-", "-", "-", "-"))
    return table


def format_table(reports) -> str:
    """One aligned table of every applicable bound, then the inapplicable ones with reasons:
    what ``compare`` prints a run at a time (:class:`ReportPrinter`), at once.

    A run none of whose bounds applies still has its line, with its mistakes.

    A multiclass run's rows are labelled with its mode; its ``mistakes`` are what
    the bounds bound: the corrections of a one-vs-rest run (each bound summed over
    the classes, the margin chosen per class), the multiclass mistakes of a native
    one. A line per multiclass run gives both counts. Each note is printed once, with
    the runs it concerns unless it concerns them all.
    """
    widths = table_widths([_label(report) for report in reports])
    table = [COLUMNS, *(cells for report in reports for cells in _cells(report))]
    return "\n".join([*aligned(table, ragged_last=True, widths=widths),
                      *_after_table(reports)])


def _after_table(reports) -> list[str]:
    """The lines after the table: the multiclass runs' counts, the bounds that do not apply
    (with the reason), the notes (each once, with the runs it concerns unless all)."""
    missing = []
    notes: dict[str, list[str]] = {}
    labels = []
    counts = []
    for report in reports:
        label = _label(report)
        labels.append(label)
        missing += [f"  {label} {row.name} ({row.variant}): {row.reason}"
                    for row in report.rows if not row.applies]
        for note in report.notes:
            notes.setdefault(note, []).append(label)
        if hasattr(report, "corrections"):
            counts.append(f"  {label}: {report.mistakes} multiclass mistakes, "
                          f"{report.corrections} corrections (binary mistakes summed over the "
                          "classes)")
        elif getattr(report, "multiclass", None) is not None:
            counts.append(f"  {label}: {report.mistakes} multiclass mistakes")
    lines = []
    if counts:
        lines += ["multiclass runs (the mistakes column is what the bounds bound):", *counts]
    if missing:
        lines += ["not applicable:", *missing]
    if notes:
        lines += ["notes:", *(f"  {note}" if len(runs) == len(labels) else
                              f"  {', '.join(runs)}: {note}" for note, runs in notes.items())]
    return lines
