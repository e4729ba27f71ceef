"""Command-line front end: ``perceptron-bounds COMMAND ...``.

One module per command, each with ``add_parser(subparsers, name)`` and the
handler it registers (the parsed arguments in, an exit code out):

- :mod:`.run`: one algorithm, its mistakes and a held-out error;
- :mod:`.algorithms`: the registered algorithms and their parameters;
- :mod:`.compare`: every algorithm's mistakes beside the papers' bounds;
- :mod:`.figure`: a paper's figure and the CSV behind it;
- :mod:`.table`: a paper's table on its real data, ours beside the paper's;
- :mod:`.atlas`: every algorithm's mistakes against every bound, on every data set;
- :mod:`.demo`: an animation of one algorithm on 2-D data beside its bounds;
- :mod:`.data`: the papers' data sets found in the data home;
- :mod:`._common`: what they share (one-line errors, ``--param``, the data options).

Bad arguments or files end with a one-line error and exit code 2, never a
traceback; Ctrl-C ends with the one line ``perceptron-bounds COMMAND: interrupted``
and exit code 130 (128 + SIGINT, as a shell reports it). A cold Numba cache is
announced by one line on stderr; long runs and sweeps show a progress bar on a
terminal, and a line every 10 s otherwise. Nothing in the package imports this one.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping

from .._version import __version__
from ._commands import HELP, Parser, UsageError


class _Commands(Mapping):
    """The command modules by name, each imported when first asked for: a command imports
    only what it uses, and ``--help`` nothing heavy."""

    def __iter__(self):
        return iter(HELP)

    def __len__(self):
        return len(HELP)

    def __getitem__(self, name):
        if name not in HELP:
            raise KeyError(name)
        return importlib.import_module(f"{__name__}.{name}")


#: The commands, in the order ``--help`` lists them.
COMMANDS = _Commands()

__all__ = ["COMMANDS", "build_parser", "main"]


def build_parser(commands=None) -> Parser:
    """The parser of every command (or of the ``commands`` named: the others are listed
    with their one-line help only); each command's module adds its own subparser."""
    parser = Parser(
        prog="perceptron-bounds",
        description="Run Perceptron-family online learners and hold their mistakes against "
        "the papers' bounds.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        if commands is None or name in commands:
            COMMANDS[name].add_parser(subparsers, name)
        else:
            subparsers.add_parser(name, help=HELP[name])
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv`` (default ``sys.argv[1:]``), run the command, return its exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    # The first word that is not an option names the command (the main parser's options,
    # --help and --version, take no value); argparse would refuse it without a suggestion.
    command = next((word for word in argv if not word.startswith("-")), None)
    parser = build_parser(() if command not in COMMANDS else (command,))
    if command is not None and command not in COMMANDS:
        from .._validation import did_you_mean

        parser.error(f"unknown command {command!r}{did_you_mean(command, COMMANDS)} "
                     f"(choose from {', '.join(COMMANDS)})")
    args = parser.parse_args(argv)
    from .._interrupt import interruptible
    from .._progress import announcing_compilation, command_line

    try:
        with interruptible(), command_line(), announcing_compilation():
            return args.handler(args)
    except KeyboardInterrupt:  # Ctrl-C: the loops stop between trials; files are whole or absent
        print(f"{parser.prog} {args.command}: interrupted", file=sys.stderr)
        return 130
    except (UsageError, ValueError, TypeError, OSError, MemoryError, OverflowError) as error:
        message = str(error).splitlines()[0] if str(error) else type(error).__name__
        if isinstance(error, (MemoryError, OverflowError)):  # e.g. --epochs 10**12
            message = f"the arguments ask for too much: {message}"
        print(f"{parser.prog} {args.command}: error: {message}", file=sys.stderr)
        return 2
