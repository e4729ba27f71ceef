"""``perceptron-bounds algorithms``: the registered algorithms and their parameters."""

from __future__ import annotations

import argparse

from ..algorithms import available, get
from ._commands import HELP
from ._common import format_params


def add_parser(subparsers, name: str) -> argparse.ArgumentParser:
    """Register the command ``name`` on the main parser's subparsers."""
    parser = subparsers.add_parser(
        name, help=HELP[name],
        description="List the registered algorithms, each with its parameters and their "
        "defaults (the names --param takes).",
    )
    parser.set_defaults(handler=algorithms_command)
    return parser


def algorithms_command(args) -> int:
    """``algorithms``: one line of summary and one of defaults per algorithm."""
    for name in available():
        algorithm = get(name)
        print(f"{name}: {algorithm.summary}\n    {format_params(algorithm.defaults)}")
    return 0
