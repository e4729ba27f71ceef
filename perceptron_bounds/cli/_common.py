"""What the subcommands share: one-line errors, ``--param`` values, the data and run options.

``run`` and ``compare`` take the same options through :func:`add_run_options`:
``--data`` (a file, or a paper's data set by name) with its CSV options and
``--positive-class``, ``--epochs``, ``--shuffle``, ``--seed`` and ``--param``;
``figure`` and ``table`` the same sweep options through :func:`add_sweep_options`
and run the papers' reproductions through :func:`reproduce`.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import sys
import time
import warnings

import numpy as np

from .._validation import check_int, check_label_values, did_you_mean
from ..algorithms import available, get
from ..datasets import (
    Dataset,
    DriftingDataset,
    RealData,
    get_data_home,
    load_data,
    load_fashion_mnist,
    load_mnist,
    load_rcv1_tasks,
    load_usps,
    make_drifting,
    make_separable,
)
from ..datasets.real import DATA_HOME_ENV, RCV1_TASKS
from ..registry import current_name
from ._commands import Parser, UsageError  # noqa: F401  (the commands import them from here)

#: The seeded synthetic data used when ``--data`` is not given (theory §5 style).
BUILTIN_DATA = {"n_samples": 2000, "n_features": 20, "margin": 0.05, "label_noise": 0.05, "seed": 0}
#: The papers' data sets ``--data`` takes by name (:mod:`perceptron_bounds.datasets.real`).
DATA_NAMES = ("mnist", "fashion-mnist", "usps", "rcv1:TASK", "drifting")
#: ``--data drifting``: :func:`~perceptron_bounds.datasets.make_drifting` with these and
#: ``--n-shifts``, ``--drift`` (theory §4.14).
DRIFTING_DATA = {"n_samples": 2000, "n_features": 20, "margin": 0.05, "label_noise": 0.0,
                 "seed": 0}
DRIFTING_DEFAULTS = {"n_shifts": 10, "drift": "abrupt"}
#: The data sets ``--data`` takes by a plain name, and their loaders.
IMAGE_SETS = {"mnist": load_mnist, "fashion-mnist": load_fashion_mnist, "usps": load_usps}
RCV1_TASKS_TEXT = ", ".join(f"rcv1:{number}" for number in RCV1_TASKS)


def choice(choices, what: str = "choice"):
    """An argparse ``type`` accepting one of ``choices``; else an error suggesting the closest.

    argparse's own ``choices`` check (Python 3.11 to 3.13) names no close match.
    """
    choices = list(choices)

    def check(text: str) -> str:
        if text not in choices:
            raise argparse.ArgumentTypeError(
                f"unknown {what} {text!r}{did_you_mean(text, choices)} "
                f"(choose from {', '.join(choices)})"
            )
        return text

    return check


def parse_value(text: str):
    """Read a ``--param`` value: int, float, true/false, none, or else the string itself."""
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_params(pairs: list[str]) -> dict:
    """Turn ``["k=v", ...]`` into a dict of parsed values."""
    params = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--param expects NAME=VALUE, got {pair!r}")
        params[key] = parse_value(value)
    return params


def params_for(algorithms: list[str], params: dict) -> dict[str, dict]:
    """Each algorithm's share of ``params``: the names it takes.

    Raises :class:`UsageError` for a name that none of ``algorithms`` takes,
    suggesting the closest name one of them does.
    """
    takes = {name: get(name).defaults for name in algorithms}
    known = list(dict.fromkeys(key for defaults in takes.values() for key in defaults))
    for key in params:
        if key not in known:
            who = (f"{algorithms[0]} takes no parameter" if len(algorithms) == 1
                   else f"no algorithm among {', '.join(algorithms)} takes a parameter")
            raise UsageError(f"--param {key}: {who} {key!r}{did_you_mean(key, known)} "
                             f"(known: {', '.join(known) or 'none'})")
    return {name: {k: v for k, v in params.items() if k in defaults}
            for name, defaults in takes.items()}


def label_column(text: str):
    """An argparse ``type`` for ``--label-column``: first, last or a column index (0-based)."""
    if text in ("first", "last"):
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected first, last or a column index, got {text!r}"
            + did_you_mean(text, ("first", "last"))
        ) from None


def add_data_arguments(parser: argparse.ArgumentParser) -> None:
    """``--data FILE|NAME``, the options of its CSV reader and ``--positive-class``."""
    parser.add_argument(
        "--data", metavar="FILE|NAME", default=None,
        help="svmlight/LIBSVM file (.svm .svmlight .libsvm .txt), .npz with arrays X and y "
        "(and optionally the target u), or .csv; or a real data set: mnist, fashion-mnist, "
        "usps, "
        "rcv1:TASK (TASK 70, 101, 4, 59 or the category's name), the training part, read "
        f"from the data home (${DATA_HOME_ENV}), fetched when missing only with --download "
        "(default: built-in synthetic data); or drifting: seeded data whose target moves "
        "(theory §4.14), shaped by --n-shifts and --drift",
    )
    parser.add_argument(
        "--n-shifts", type=int, default=None, metavar="N",
        help="--data drifting: number of switches of the target (abrupt) or of its quarter "
        f"turns (gradual), default {DRIFTING_DEFAULTS['n_shifts']}",
    )
    parser.add_argument(
        "--drift", type=choice(("abrupt", "gradual"), "drift"), default=None,
        help="--data drifting: abrupt switches at random times or a slow turn (default "
        f"{DRIFTING_DEFAULTS['drift']})",
    )
    parser.add_argument(
        "--download", action="store_true",
        help="--data mnist|usps|rcv1:TASK: fetch the data set when the data home lacks it "
        "(default: a one-line error naming the missing files), as figure and table do",
    )
    parser.add_argument(
        "--positive-class", metavar="LABEL", default=None,
        help="relabel the data (and held-out data) as LABEL (+1) against the rest (-1), "
        "e.g. --positive-class 9 on mnist",
    )
    parser.add_argument(
        "--label-column", type=label_column, default=None, metavar="first|last|INDEX",
        help="CSV: the column holding the labels, by name or 0-based index (negative counts "
        "from the end; default last). Labels may be any two numbers or strings",
    )
    parser.add_argument(
        "--delimiter", default=None, metavar="CHAR",
        help="CSV: one character, or comma, semicolon, tab, whitespace (default: detected, the "
        "first of , ; tab whitespace that splits the first 100 rows evenly)",
    )
    add_index_base_arguments(parser)


def add_index_base_arguments(parser: argparse.ArgumentParser) -> None:
    """``--zero-based`` / ``--one-based``: the index base of an svmlight file (``zero_based``
    of :func:`~perceptron_bounds.datasets.load_data`; default: decided from the file)."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--zero-based", dest="zero_based", action="store_const", const=True, default="auto",
        help="svmlight: feature index 0 is the first column (scikit-learn's dump_svmlight_file "
        "default). Default: decided from the file (index 0 present, or a header comment "
        "naming the base), else read one-based with a warning",
    )
    group.add_argument(
        "--one-based", dest="zero_based", action="store_const", const=False,
        help="svmlight: feature index 1 is the first column (LIBSVM's convention)",
    )


@contextlib.contextmanager
def warnings_printed():
    """Each warning given inside printed on stderr as one line ``warning: ...`` (a message
    given several times, e.g. once per compared algorithm, once)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    for message in dict.fromkeys(str(warning.message) for warning in caught):
        print(f"warning: {message}", file=sys.stderr)


def load_file(path: str, **options) -> Dataset:
    """:func:`~perceptron_bounds.datasets.load_data`, each warning it gives printed on stderr
    (:func:`warnings_printed`; e.g. an svmlight file of ambiguous index base)."""
    with warnings_printed():
        return load_data(path, **options)


def algorithm_name(text: str) -> str:
    """An argparse ``type``: a registered algorithm's name, or a former name read as the
    current one (its deprecation printed by :func:`warnings_printed`); else the error of
    :func:`choice`."""
    with warnings_printed():
        name = current_name(text)
    return choice(available(), "algorithm")(name)


def add_run_options(parser: argparse.ArgumentParser, *, seed: int | None = None) -> None:
    """The options ``run`` and ``compare`` share: the data, the presented sequence, params.

    ``seed`` is the default of ``--seed`` (``compare``'s 0: the same table on every run);
    None: drawn from the OS when needed, and printed (``run``)."""
    add_data_arguments(parser)
    parser.add_argument("--epochs", type=int, default=1, help="passes over the data (default 1)")
    parser.add_argument("--shuffle", action="store_true",
                        help="a fresh permutation each epoch (default: rows in file order)")
    default = ("drawn from the OS, and printed" if seed is None
               else f"{seed}, so that every run prints the same")
    parser.add_argument("--seed", type=int, default=seed,
                        help=f"seed of the shuffles and of a randomized algorithm's draws "
                        f"(default: {default})")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="an algorithm parameter, e.g. --param r=0.05 --param kernel=rbf "
                        "(repeatable; values are numbers, true/false, none or strings)")


def check_run_options(args: argparse.Namespace, algorithms: list[str]) -> tuple[dict, dict]:
    """Check the options of :func:`add_run_options` before any file is read.

    Returns ``(params, shares)``: the ``--param`` values, and each algorithm's
    share of them (:func:`params_for`).
    """
    params = parse_params(args.param)
    shares = params_for(algorithms, params)
    if args.epochs < 1:
        raise UsageError(f"--epochs must be >= 1, got {args.epochs}")
    return params, shares


def read_file(path: str, args: argparse.Namespace, *, part: str = "train") -> Dataset:
    """The data file ``path`` read with the CSV options of ``args``, or the ``part``
    (``"train"`` or ``"test"``) of the data set ``path`` names; relabelled by
    ``--positive-class``."""
    real = named_data(path, download=args.download)
    if real is not None:
        if args.label_column is not None or args.delimiter is not None:
            raise UsageError(f"--label-column and --delimiter describe a CSV file, not {path}")
        if args.zero_based != "auto":
            raise UsageError(f"--zero-based and --one-based describe an svmlight file, not {path}")
        data = getattr(real, part)
    else:
        if not os.path.splitext(path)[1] and not os.path.exists(path):
            raise UsageError(f"{path}: no such file, nor a data set name"
                             f"{did_you_mean(path, DATA_NAMES)} ({', '.join(DATA_NAMES)})")
        data = load_file(path, label_column=args.label_column, delimiter=args.delimiter,
                         zero_based=args.zero_based)
        check_label_column(data.y, path, args.label_column)
    return positive_class(data, args.positive_class, required=part == "train")


def check_label_column(y, path: str, label_column) -> None:
    """A usage error when the labels read from ``path`` are non-integer numbers: the column
    read as the labels is a feature or a continuous target (``check_label_values``)."""
    y = np.asarray(y)
    if y.dtype.kind == "f":
        column = "last" if label_column is None else label_column
        try:
            check_label_values(np.unique(y), f"{path}: the label column ({column})")
        except ValueError as error:
            raise UsageError(f"{error} (--label-column names the label column)") from None


def load_dataset(args: argparse.Namespace) -> Dataset | DriftingDataset:
    """The ``--data`` file or data set, the drifting data (:data:`DRIFTING_DATA`), or the
    built-in seeded data :data:`BUILTIN_DATA`."""
    drifting = {key: getattr(args, key) for key in DRIFTING_DEFAULTS
                if getattr(args, key, None) is not None}
    if args.data == "drifting":
        try:
            data = make_drifting(**DRIFTING_DATA, **drifting_params(args))
        except ValueError as error:
            raise UsageError(f"--data drifting: {error}") from None
        return positive_class(data, args.positive_class)
    if drifting:
        raise UsageError(f"--{next(iter(drifting)).replace('_', '-')} shapes --data drifting, "
                         f"not {args.data or 'the built-in data'}")
    if args.data is not None:
        return read_file(args.data, args)
    if args.label_column is not None or args.delimiter is not None:
        raise UsageError("--label-column and --delimiter describe a CSV file: give --data FILE")
    if args.zero_based != "auto":
        raise UsageError("--zero-based and --one-based describe an svmlight file: give --data "
                         "FILE")
    return positive_class(make_separable(**BUILTIN_DATA), args.positive_class)


def drifting_params(args: argparse.Namespace) -> dict:
    """``n_shifts`` and ``drift`` of ``--data drifting``: the options, else their defaults."""
    return {key: getattr(args, key, None) if getattr(args, key, None) is not None else default
            for key, default in DRIFTING_DEFAULTS.items()}


def named_data(name: str, *, download: bool = False) -> RealData | None:
    """The data set ``name`` names (``mnist``, ``usps``, ``rcv1:70``, ``rcv1:GCAT``), read
    from the data home (fetched when missing only with ``download``); None when ``name`` is
    not such a name (a file)."""
    kind, colon, task = name.partition(":")
    if name not in IMAGE_SETS and (kind != "rcv1" or not colon):
        return None
    if kind == "rcv1" and (not task or (task.isdigit() and int(task) not in RCV1_TASKS)):
        raise UsageError(f"{name}: the RCV1 tasks are {RCV1_TASKS_TEXT} (paper 000's "
                         "numbers), or a category's name")
    try:
        return _load_named(name, get_data_home(), download)
    except FileNotFoundError as error:
        raise UsageError(f"{error} (on the command line: --download)") from None


@functools.lru_cache(maxsize=1)
def _load_named(name: str, home: str, download: bool) -> RealData:
    """:func:`named_data`, cached so that ``run --data mnist`` reads MNIST once for its
    training and test parts (keyed by the data home too)."""
    if name in IMAGE_SETS:
        return IMAGE_SETS[name](home, download=download)
    task = name.partition(":")[2]
    tasks = load_rcv1_tasks(home, download=download)
    for number, data in tasks.items():
        if task.upper() in (str(number), data.target_names[1].upper()):
            return data
    names = [data.target_names[1] for data in tasks.values()]
    raise UsageError(f"{name}: no RCV1 task {task!r}{did_you_mean(task, names)}; the "
                     f"tasks are {RCV1_TASKS_TEXT} ({', '.join(names)})")


def named_test_part(args: argparse.Namespace) -> tuple[Dataset, str] | None:
    """The test part of the data set ``--data`` names, relabelled like the data, and a line
    describing it; None for a file or the built-in data."""
    real = named_data(args.data, download=args.download) if args.data is not None else None
    if real is None:
        return None
    test = positive_class(real.test, args.positive_class, required=False)
    return test, f"the test part of {args.data}: {test.X.shape[0]} samples"


def positive_class(data: Dataset, label: str | None, *, required: bool = True) -> Dataset:
    """``data`` relabelled as ``label`` (+1) against the rest (-1); unchanged for None.

    ``label`` is read as a number when the labels are numbers. It must occur among the
    labels when ``required`` (the training data). A target u of binary data stays the
    separator: u when ``label`` is the larger label, -u when it is the smaller one.
    """
    if label is None:
        return data
    X, y, u = data
    y = np.asarray(y)
    classes = np.unique(y)
    value = label
    if y.dtype.kind in "biuf":
        try:
            value = float(label)
        except ValueError:
            raise UsageError(f"--positive-class {label}: the labels are numbers "
                             f"({_labels_text(classes)})") from None
    positive = y == value
    if required and not positive.any():
        raise UsageError(f"--positive-class {label}: not among the labels "
                         f"({_labels_text(classes)})")
    if u is not None:
        u = None if classes.size != 2 else (u if value == classes[1] else -u)
    return Dataset(X, np.where(positive, 1, -1), u)


def _labels_text(classes) -> str:
    shown = ", ".join(str(label) for label in classes[:10].tolist())
    return shown + (f", ... ({classes.size} labels)" if classes.size > 10 else "")


def describe_data(path: str | None, X, args: argparse.Namespace | None = None) -> str:
    """One line naming the data and its shape (``args`` shapes ``--data drifting``)."""
    if path == "drifting":
        shape = {**DRIFTING_DATA, **drifting_params(args or argparse.Namespace())}
        return ("make_drifting(" + ", ".join(f"{k}={v!r}" for k, v in shape.items()
                                             if k not in ("n_samples", "n_features"))
                + f"): {X.shape[0]} samples, {X.shape[1]} features")
    source = path if path is not None else (
        "built-in make_separable(" + ", ".join(f"{k}={v}" for k, v in BUILTIN_DATA.items()) + ")"
    )
    return f"{source}: {X.shape[0]} samples, {X.shape[1]} features"


def sequence_text(epochs: int, shuffle: bool, seed, *, draws: bool = False,
                  origin: str = "") -> str:
    """``"2 epoch(s), shuffled, seed 3"``, ``"1 epoch(s), in order"``, or with a randomized
    algorithm's ``draws`` ``"1 epoch(s), in order, seed 3 of the random draws"``; ``origin``
    says where the seed came from (e.g. drawn from the OS), so that every seed a run used
    is on the screen."""
    if not (shuffle or draws):
        return f"{epochs} epoch(s), in order"
    text = (f"{epochs} epoch(s), shuffled, seed {seed}" if shuffle
            else f"{epochs} epoch(s), in order, seed {seed} of the random draws")
    return text + (f" ({origin})" if origin else "")


def seed_origin(given, seed, default=None) -> str:
    """Where the seed of a run came from, for :func:`sequence_text`: drawn from the OS (with
    the option that replays it), the command's default, or nothing for a given one."""
    if given is None:
        return f"drawn from the OS: --seed {seed} replays it"
    if default is not None and given == default:
        return "the default --seed"
    return ""


def format_params(params: dict) -> str:
    """``"r=0.05, kernel='rbf'"``."""
    return ", ".join(f"{key}={value!r}" for key, value in params.items())


def add_sweep_options(parser: argparse.ArgumentParser, *, out: str, seeds: str, quick: str,
                      real: str = "") -> None:
    """The options of the sweeping commands (``figure``, ``table``), one set for both.

    ``--out DIR`` (default ``./OUT``), ``--seeds N``, ``--n-jobs J``, ``--quick``,
    ``--cache DIR``, ``--download`` and ``--scheduler ADDRESS``; ``seeds`` and
    ``quick`` are the help of ``--seeds`` and ``--quick``, ``real`` the words that lead
    the help of the two options only real data take (e.g. ``"real-data figures: "``).
    """
    parser.add_argument("--out", default=out, metavar="DIR",
                        help=f"output directory (default: ./{out})")
    parser.add_argument("--seeds", type=int, default=None, metavar="N", help=seeds)
    parser.add_argument("--n-jobs", type=int, default=1, metavar="J",
                        help="parallel workers (joblib; -1 = all cores; default 1)")
    parser.add_argument("--quick", action="store_true", help=quick)
    parser.add_argument("--cache", metavar="DIR", default=None,
                        help=f"{real}keep every finished run in DIR and read it back when run "
                        "again (a killed run resumes)")
    parser.add_argument("--download", action="store_true",
                        help=f"{real}fetch a data set missing from the data home (default: a "
                        "one-line error naming the missing files)")
    parser.add_argument("--scheduler", metavar="ADDRESS", default=None,
                        help="run the cells on the Dask cluster whose scheduler is at ADDRESS "
                        "(e.g. tcp://host:8786; the dask extra), as many at once as it has "
                        "workers (--n-jobs is ignored); --cache must then be a folder the "
                        "workers share")


def sweep_options(args) -> dict:
    """The keyword options of a reproduction from the sweep's: checked, progress on."""
    check_sweep_options(args)
    n_jobs = None if args.scheduler is not None else args.n_jobs
    return {"seeds": args.seeds, "quick": args.quick, "n_jobs": n_jobs, "progress": True}


@contextlib.contextmanager
def cluster(address: str | None):
    """Inside, joblib runs the cells on the Dask cluster of the scheduler at ``address``
    (``--scheduler``); nothing changes for None. A scheduler that cannot be reached is an
    OSError after Dask's connect timeout."""
    if address is None:
        yield
        return
    try:
        from dask.distributed import Client
    except ImportError:
        raise UsageError("--scheduler needs Dask: pip install \"perceptron_bounds[dask]\"") \
            from None
    from joblib import parallel_config

    with Client(address), parallel_config(backend="dask"):
        yield


def reproduce(reproduction, args, *args_of_experiment, **options) -> int:
    """Run a reproduction, write its files to ``--out``, print the report and the paths.

    A real-data one's report is printed before the paths; a data set missing from the
    data home is a one-line error that names ``--download``. With ``--scheduler`` the
    cells run on that Dask cluster (:func:`cluster`).
    """
    start = time.perf_counter()
    try:
        with cluster(args.scheduler):
            made = reproduction(*args_of_experiment, **options)
    except FileNotFoundError as error:
        raise UsageError(f"{error} (on the command line: --download)") from None
    records, fig, markdown = (*made, None)[:3]
    from ..papers import save_figure  # Matplotlib: only the commands that draw import it

    paths = save_figure(reproduction.name, records, fig, args.out, markdown)
    elapsed = time.perf_counter() - start
    summary = f"{reproduction.name}: {', '.join(paths)} ({len(records)} rows, {elapsed:.1f} s)"
    if markdown is not None:
        print(markdown)
        summary = "\n" + summary
    print(summary)
    return 0


def check_sweep_options(args) -> None:
    """``--seeds`` (>= 1 when given) and ``--n-jobs`` (nonzero) of a sweeping command."""
    if args.seeds is not None:
        check_int("--seeds", args.seeds, low=1)
    if args.n_jobs == 0:
        raise ValueError("--n-jobs must be a nonzero integer, got 0")
