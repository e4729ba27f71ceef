"""Command-line front end: ``perceptron-bounds SUBCOMMAND ...``.

Every subcommand is an argparse subparser whose handler takes the parsed
arguments and returns an exit code. Bad arguments or files end with a one-line
error and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys

BUILTIN_DATA = {"n_samples": 2000, "n_features": 20, "margin": 0.05, "label_noise": 0.05, "seed": 0}


class UsageError(Exception):
    """A problem with the user's arguments or files: reported in one line, exit code 2."""


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


def load_dataset(path: str | None):
    """The user's data file, or the built-in seeded data set (SPEC 5 style synthetic data)."""
    from .datasets import load_data, make_separable

    if path is None:
        return make_separable(**BUILTIN_DATA)
    return load_data(path)


def describe_data(path: str | None, X) -> str:
    """One line naming the data and its shape."""
    source = path if path is not None else (
        "built-in make_separable(" + ", ".join(f"{k}={v}" for k, v in BUILTIN_DATA.items()) + ")"
    )
    return f"{source}: {X.shape[0]} samples, {X.shape[1]} features"


def run_command(args) -> int:
    """``run``: one algorithm over the data; print its mistakes and margin errors."""
    from .online import run_online

    params = parse_params(args.param)
    data = load_dataset(args.data)
    X, y = data[0], data[1]
    run = run_online(
        args.algorithm, X, y, epochs=args.epochs, shuffle=args.shuffle, seed=args.seed, **params
    )
    if args.json:
        record = {
            "algorithm": run.algorithm,
            "params": run.params,
            "data": args.data or "built-in",
            "n_trials": run.n_trials,
            "mistakes": run.mistakes,
            "margin_errors": run.margin_errors,
            "epochs": run.epochs,
            "shuffle": run.shuffle,
            "seed": run.seed,
        }
        print(json.dumps(record, indent=2, default=str))
        return 0
    shown = ", ".join(f"{k}={v!r}" for k, v in run.params.items())
    print(f"data:          {describe_data(args.data, X)}")
    print(f"algorithm:     {run.algorithm}({shown})")
    order = "shuffled, seed " + str(run.seed) if run.shuffle else "in order"
    print(f"trials:        {run.n_trials} ({run.epochs} epoch(s), {order})")
    print(f"mistakes:      {run.mistakes} ({run.mistakes / run.n_trials:.4f} per trial)")
    print(f"margin errors: {run.margin_errors}")
    return 0


def algorithms_command(args) -> int:
    """``algorithms``: list the registered algorithms and their parameters."""
    from .algorithms import available, get

    for name in available():
        algorithm = get(name)
        defaults = ", ".join(f"{k}={v!r}" for k, v in algorithm.defaults.items())
        print(f"{name}: {algorithm.summary}\n    {defaults}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    from .algorithms import available
    from .bounds.cli import add_compare_parser
    from .experiments.cli import add_figure_parser

    parser = argparse.ArgumentParser(
        prog="perceptron-bounds",
        description="Run Perceptron-family online learners and hold their mistakes against "
        "the papers' bounds.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = subparsers.add_parser(
        "run", help="run one algorithm and print its mistakes",
        description="Run one online algorithm over the data and print its mistakes and margin "
        "errors. Without --data it uses a built-in seeded synthetic data set "
        "(separable with 5% label noise).",
    )
    run.add_argument("--algorithm", required=True, choices=available(), metavar="NAME",
                     help="one of: " + ", ".join(available()))
    add_data_argument(run)
    run.add_argument("--epochs", type=int, default=1, help="passes over the data (default 1)")
    run.add_argument("--shuffle", action="store_true", help="shuffle each epoch")
    run.add_argument("--seed", type=int, default=None, help="seed of the shuffles")
    run.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                     help="an algorithm parameter, e.g. --param r=0.05 --param kernel=rbf "
                     "(repeatable)")
    run.add_argument("--json", action="store_true", help="print the result as JSON")
    run.set_defaults(handler=run_command)

    listing = subparsers.add_parser("algorithms", help="list the algorithms and their parameters",
                                    description="List the registered algorithms.")
    listing.set_defaults(handler=algorithms_command)
    add_compare_parser(subparsers)
    add_figure_parser(subparsers)
    return parser


def add_data_argument(parser: argparse.ArgumentParser) -> None:
    """The ``--data FILE`` option shared by the subcommands."""
    parser.add_argument(
        "--data", metavar="FILE", default=None,
        help="svmlight/LIBSVM file, .npz with arrays X and y, or .csv with the label in the "
        "last column (default: built-in synthetic data)",
    )


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except (UsageError, ValueError, TypeError, OSError, MemoryError, OverflowError) as error:
        message = str(error).splitlines()[0] if str(error) else type(error).__name__
        if isinstance(error, (MemoryError, OverflowError)):  # e.g. --epochs 10**12
            message = f"the arguments ask for too much: {message}"
        print(f"{parser.prog} {args.command}: error: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
