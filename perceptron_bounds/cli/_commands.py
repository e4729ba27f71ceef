"""The commands of the command line and their one-line help, in the order ``--help`` lists
them, the parser class and the usage error: what the main parser needs without importing a
command's module (and so NumPy, Numba, Matplotlib), so that ``perceptron-bounds --help``
starts at once."""

import argparse

HELP = {
    "run": "run one algorithm and print its mistakes (and a held-out error)",
    "algorithms": "list the algorithms and their parameters",
    "compare": "run algorithms and print their mistakes beside the papers' bounds",
    "figure": "redraw a figure of the papers (PNG, PDF and the CSV behind it)",
    "table": "a paper's table on its real data, ours beside the paper's (Markdown, CSV, PNG, "
             "PDF)",
    "atlas": "every algorithm's mistakes against every bound on every data set (CSV, "
             "Markdown, figures)",
    "demo": "animate one algorithm on 2-D data beside its mistakes and bounds",
    "data": "the real data sets (MNIST, Fashion-MNIST, USPS, RCV1) in the data home, and the "
            "cache of parsed files",
}


class UsageError(Exception):
    """A problem with the user's arguments or files: reported in one line, exit code 2."""


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors are one line, ``PROG: error: MESSAGE``, exit code 2.

    argparse prints the usage before the error; here ``--help`` shows it on request.
    Subparsers made by ``add_subparsers`` are of this class too.
    """

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")
