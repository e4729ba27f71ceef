"""``perceptron-bounds run``: one algorithm over the data; its mistakes, and a held-out error.

``run --algorithm NAME [--data FILE] [--epochs E] [--shuffle] [--seed S]
[--param NAME=VALUE ...] [--multiclass ovr|native] [--test FILE | --test-fraction F]
[--memory-budget SIZE] [--json]``

With ``--memory-budget``, the ``--data`` file is streamed in chunks of that size instead
of read whole (:mod:`perceptron_bounds.streaming`): a file larger than memory runs, and
the run is the run on the file read whole.

Multiclass data (more than two labels, theory §2.6) make a one-vs-rest run by
default; the report then gives the multiclass mistakes, the corrections (the
binary mistakes summed over the classes) and the mistakes per class.
"""

from __future__ import annotations

import argparse
import json
import math

import numpy as np
import scipy.sparse as sp

from .. import run_online
from ..algorithms import available, get
from ..online import MULTICLASS
from ..streaming import STREAMED, run_file
from ._commands import HELP
from ._common import (
    UsageError,
    add_run_options,
    algorithm_name,
    check_run_options,
    choice,
    describe_data,
    format_params,
    load_dataset,
    named_data,
    named_test_part,
    read_file,
    seed_origin,
    sequence_text,
    warnings_printed,
)
from .data import size_text


def add_parser(subparsers, name: str) -> argparse.ArgumentParser:
    """Register the command ``name`` on the main parser's subparsers."""
    parser = subparsers.add_parser(
        name, help=HELP[name],
        description="Run one online algorithm over the data and print its mistakes and margin "
        "errors; with --test or --test-fraction, also the error of its final hypothesis on "
        "held-out data. Without --data it uses a built-in seeded synthetic data set "
        "(separable with 5% label noise).",
    )
    parser.add_argument("--algorithm", required=True, type=algorithm_name,
                        metavar="NAME", help="one of: " + ", ".join(available()))
    add_run_options(parser)
    held_out = parser.add_mutually_exclusive_group()
    held_out.add_argument(
        "--test", metavar="FILE|NAME", default=None,
        help="held-out data, read like --data (same CSV options; a data set's name gives its "
        "test part, which --data NAME also uses by default); its labels must be among the "
        "training labels",
    )
    held_out.add_argument(
        "--test-fraction", type=fraction, default=None, metavar="F",
        help="hold out the last ceil(F * n) rows of the data, in file order (0 < F < 1); "
        "the algorithm runs on the rows before them (and --shuffle shuffles only those)",
    )
    parser.add_argument("--multiclass", type=choice(MULTICLASS, "multiclass mode"), default=None,
                        metavar="ovr|native",
                        help="ovr: one-vs-rest, one binary run per class (the default for more "
                        "than two labels, also allowed on two); native: the algorithm's own "
                        "multiclass form, one prototype per class (" + ", ".join(
                            name for name in available() if get(name).fit_native is not None)
                        + ")")
    parser.add_argument("--memory-budget", type=byte_size, default=None, metavar="SIZE",
                        help="stream the --data file (svmlight or CSV, possibly larger "
                        "than memory) in chunks within SIZE bytes (e.g. 256MB, 1GiB): the run "
                        "equals the one on the file read whole; rows in file order, binary "
                        "labels, the algorithms " + ", ".join(STREAMED))
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(handler=run_command)
    return parser


def fraction(text: str) -> float:
    """An argparse ``type`` for ``--test-fraction``: a number in (0, 1)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 1), got {text!r}")
    return value


#: Units ``--memory-budget`` takes (decimal and binary).
UNITS = {"": 1, "B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "KIB": 2 ** 10, "MIB": 2 ** 20,
         "GIB": 2 ** 30, "K": 2 ** 10, "M": 2 ** 20, "G": 2 ** 30}


def byte_size(text: str) -> float:
    """An argparse ``type`` for ``--memory-budget``: a number of bytes with an optional unit
    (``256MB``, ``1.5GiB``, ``64M``), more than 0."""
    number = text.rstrip("bBiIkKmMgG ")
    unit = text[len(number):].strip().upper()
    try:
        value = float(number) * UNITS[unit]
    except (ValueError, KeyError):
        value = math.nan
    if not value > 0 or not math.isfinite(value):
        raise argparse.ArgumentTypeError(
            f"expected a size such as 256MB, 1GiB or a number of bytes, got {text!r}")
    return value


def held_out_rows(fraction: float, n_samples: int) -> int:
    """How many rows ``--test-fraction`` holds out: ceil(F n), checked to leave training rows."""
    n_test = math.ceil(fraction * n_samples)
    if n_test >= n_samples:
        raise UsageError(f"--test-fraction {fraction!r} of {n_samples} samples leaves no "
                         "training rows")
    return n_test


def split_data(args, X, y):
    """``(X_train, y_train, X_test, y_test, source)``; the test part is None without one."""
    if args.test_fraction is not None:
        n_test = held_out_rows(args.test_fraction, X.shape[0])
        cut = X.shape[0] - n_test
        source = f"the last {n_test} of {X.shape[0]} rows (--test-fraction {args.test_fraction})"
        return X[:cut], y[:cut], X[cut:], y[cut:], source
    if args.test is None:
        named = named_test_part(args)  # --data mnist|usps|rcv1:TASK brings its test part
        if named is None:
            return X, y, None, None, None
        (X_test, y_test, _), source = named
        return X, y, X_test, y_test, source
    X_test, y_test, _ = read_file(args.test, args, part="test")
    n_features = X.shape[1]
    if sp.issparse(X_test) and X_test.shape[1] < n_features:
        # svmlight files count features up to their largest index: the rest are zeros.
        X_test = sp.csr_matrix((X_test.data, X_test.indices, X_test.indptr),
                               shape=(X_test.shape[0], n_features))
    if X_test.shape[1] != n_features:
        raise UsageError(f"--test {args.test}: {X_test.shape[1]} features, but the training "
                         f"data have {n_features}")
    return X, y, X_test, y_test, f"{args.test}: {X_test.shape[0]} samples"


def check_test_labels(y_train, y_test, path) -> None:
    """Held-out labels must be training labels (else every one of them would count as an error)."""
    known = set(np.unique(y_train).tolist())
    unknown = sorted({label for label in np.unique(y_test).tolist() if label not in known},
                     key=str)
    if unknown:
        shown = ", ".join(repr(label) for label in unknown[:5])
        raise UsageError(f"--test {path}: label(s) {shown} not among the training labels "
                         f"{', '.join(repr(label) for label in sorted(known, key=str))}")


def multiclass_counts(run, y) -> dict:
    """What ``run`` reports of a multiclass run (theory §2.6) made on labels ``y``.

    ``corrections``: the binary mistakes summed over the class runs (one-vs-rest),
    the multiclass mistakes (native); ``margin_errors``, summed over the class
    runs for one-vs-rest; ``per_class``, one entry per class: ``mistakes``, the
    multiclass mistakes on the trials of that class, and for one-vs-rest
    ``class_run_mistakes`` and ``class_run_margin_errors``, those of its run
    against the rest.
    """
    true_class = np.searchsorted(run.classes, np.asarray(y))[run.sample_index]
    mistakes = np.bincount(true_class[run.mistake_trials], minlength=run.classes.shape[0])
    per_class = []
    for k, label in enumerate(run.classes.tolist()):
        entry = {"class": label, "mistakes": int(mistakes[k])}
        if run.class_runs is not None:
            entry["class_run_mistakes"] = run.class_runs[k].mistakes
            entry["class_run_margin_errors"] = run.class_runs[k].margin_errors
        per_class.append(entry)
    runs = run.class_runs if run.class_runs is not None else (run,)
    return {"multiclass": run.multiclass, "corrections": run.corrections,
            "margin_errors": sum(r.margin_errors for r in runs), "per_class": per_class}


def print_multiclass_counts(counts: dict) -> None:
    """The lines of :func:`multiclass_counts` under the mistakes of ``run``'s text report."""
    per_class = counts["per_class"]
    if counts["multiclass"] == "ovr":
        print(f"corrections:   {counts['corrections']} (binary mistakes summed over the "
              f"{len(per_class)} one-vs-rest runs)")
    print(f"margin errors: {counts['margin_errors']}")
    print("per class:     " + ", ".join(f"{entry['class']!r} {entry['mistakes']}"
                                        for entry in per_class)
          + " (multiclass mistakes on its trials)")
    if counts["multiclass"] == "ovr":
        print("class runs:    " + ", ".join(
            f"{entry['class']!r} {entry['class_run_mistakes']}"
            + (f" (+{entry['class_run_margin_errors']} margin errors)"
               if entry["class_run_margin_errors"] else "")
            for entry in per_class) + " (mistakes of each class against the rest)")


def check_streamed(args, *more) -> None:
    """The options ``--memory-budget`` (a streamed ``--data`` file) does not take refused in
    one line: ``(option, value)`` pairs of ``more`` besides those of ``run``."""
    if args.data in (None, "drifting") or named_data(args.data) is not None:
        raise UsageError("--memory-budget streams a data file: give --data FILE")
    refused = [option for option, value in (
        ("--shuffle", args.shuffle), ("--test-fraction", getattr(args, "test_fraction", None)),
        ("--multiclass", args.multiclass), ("--positive-class", args.positive_class), *more)
        if value not in (None, False)]
    if refused:
        raise UsageError(f"--memory-budget streams the file in file order, as it is: "
                         f"{', '.join(refused)} need(s) it in memory")


def file_options(args) -> dict:
    """The reader options of a streamed ``--data`` file."""
    return {"label_column": args.label_column, "delimiter": args.delimiter,
            "zero_based": args.zero_based}


def streamed_run(args, params: dict, algorithm: str | None = None):
    """``run --memory-budget``: the ``--data`` file streamed; ``(run, description, classes)``,
    the options a stream does not take refused first (:func:`check_streamed`)."""
    check_streamed(args)
    run = run_file(algorithm or args.algorithm, args.data, memory_budget=args.memory_budget,
                   epochs=args.epochs, progress=True, **file_options(args), **params)
    description = (f"{args.data}: {run.n_trials // run.epochs} samples, {run.n_features} "
                   f"features, streamed within {size_text(args.memory_budget)}")
    return run, description, run.classes


def run_command(args) -> int:
    """``run``: one algorithm over the data; print its mistakes (and held-out error)."""
    params, _ = check_run_options(args, [args.algorithm])
    if args.memory_budget is not None:
        run, description, y = streamed_run(args, params)
        X_test = y_test = test_source = None
        if args.test is not None:
            X_test, y_test, _ = read_file(args.test, args, part="test")
            check_test_labels(y, y_test, args.test)
            test_source = f"{args.test}: {X_test.shape[0]} samples"
    else:
        X, y, _ = load_dataset(args)
        description = describe_data(args.data, X, args)
        X, y, X_test, y_test, test_source = split_data(args, X, y)
        if X_test is not None:
            check_test_labels(y, y_test, args.test or args.data or "built-in data")
        with warnings_printed():  # e.g. as many classes as rows: is the label column a label?
            run = run_online(args.algorithm, X, y, epochs=args.epochs, shuffle=args.shuffle,
                             seed=args.seed, multiclass=args.multiclass, progress=True,
                             **params)
    held_out = None
    if X_test is not None:
        errors = int(np.count_nonzero(run.predict(X_test) != y_test))
        held_out = {"source": test_source, "n_samples": int(X_test.shape[0]), "errors": errors,
                    "error": errors / X_test.shape[0]}
    if args.json:
        record = {
            "algorithm": run.algorithm,
            "params": run.params,
            "data": args.data or "built-in",
            "classes": run.classes.tolist(),
            "n_trials": run.n_trials,
            "mistakes": run.mistakes,
            "margin_errors": run.margin_errors,
            "epochs": run.epochs,
            "shuffle": run.shuffle,
            "seed": run.seed,
            "held_out": held_out,
        }
        if run.queried_trials is not None:  # selective sampling (theory §2.14)
            record["queried"] = run.queried
        if run.multiclass is not None:
            record.update(multiclass_counts(run, y))
        print(json.dumps(record, indent=2, default=str))
        return 0
    print(f"data:          {description}")
    if held_out is not None:
        print(f"held out:      {held_out['source']}")
    print(f"algorithm:     {run.algorithm}({format_params(run.params)})")
    if run.multiclass is None:
        negative, positive = run.classes.tolist()
        print(f"labels:        {negative!r} -> -1, {positive!r} -> +1")
    else:
        mode = "one-vs-rest" if run.multiclass == "ovr" else "native multiclass"
        print(f"labels:        {run.classes.shape[0]} classes, {mode}: "
              + ", ".join(repr(label) for label in run.classes.tolist()))
    sequence = sequence_text(run.epochs, run.shuffle, run.seed, draws=get(run.algorithm).randomized,
                             origin=seed_origin(args.seed, run.seed))
    print(f"trials:        {run.n_trials} ({sequence})")
    print(f"mistakes:      {run.mistakes} ({run.mistakes / run.n_trials:.4f} per trial)")
    if run.queried_trials is not None:  # selective sampling: the labels it asked for (§2.14)
        print(f"labels asked:  {run.queried} ({run.queried / run.n_trials:.4f} per trial)")
    if run.multiclass is None:
        print(f"margin errors: {run.margin_errors}")
    else:
        print_multiclass_counts(multiclass_counts(run, y))
    if held_out is not None:
        print(f"test error:    {held_out['error']:.4f} ({held_out['errors']} of "
              f"{held_out['n_samples']} held-out samples)")
    return 0
