"""What every reproduction shares: its declaration, its provenance, the real data, reports.

A reproduction is declared once (:class:`Reproduction`): its experiment returns the
tidy records, its drawing turns them into the figure, its report (for the real-data
ones) into Markdown; ``perceptron_bounds.papers`` collects the declarations of
the paper modules in one registry, which ``perceptron-bounds figure`` and ``table``
read, and :func:`~perceptron_bounds.papers.writer.save_figure` writes what they make.

Every record starts with the columns that say what made it (:func:`provenance`):
the reproduction's name, ``perceptron_bounds_version``, ``quick``, ``n_seeds`` and
the data's configuration; the figure repeats them in a small caption under its
panels (:func:`provenance_line`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from .._validation import check_bool, check_int
from .._version import __version__
from ..datasets import load_fashion_mnist, load_mnist, load_rcv1_tasks, load_usps
from ..datasets.catalog import subsample  # noqa: F401  (the reproductions' subsample)

#: The loaders of the data sets the real-data reproductions name.
LOADERS = {"mnist": load_mnist, "fashion-mnist": load_fashion_mnist, "usps": load_usps,
           "rcv1": load_rcv1_tasks}


@dataclass(frozen=True)
class Reproduction:
    """One figure or table of a paper, declared once: what runs, what draws, what reports.

    Calling it runs ``experiment(*args, **options)``, then ``draw(records, *args,
    **options)`` and, when declared, ``markdown(records)``.

    Parameters
    ----------
    name : str
        The command's NAME and the stem of the files written (``hop-fig2``).
    kind : {"figure", "table"}
        Which command runs it: ``perceptron-bounds figure`` or ``table``.
    paper : str
        What it reproduces, e.g. ``"paper 000, Figure 2"``.
    experiment : callable
        Keyword options (``seeds``, ``quick``, ``n_jobs``, ``progress`` and its own) in,
        the tidy records (a list of dicts led by :func:`provenance`) out.
    draw : callable
        ``draw(records, *args, **options)``: the figure, its caption included.
    markdown : callable or None, default=None
        ``markdown(records)``: the report setting the paper's numbers beside ours.
    options : tuple of str, default=()
        The options of the command it takes beyond the sweep's (``data``, ``radii``,
        ``positive_class``, ``algorithms``, ``kernels``, ``cv``).
    real : bool, default=False
        Whether it reads the data home: it takes ``cache`` and ``download``.
    quick : mapping, default={}
        The reduced sizes of ``quick=True``.
    data : tuple of str, default=()
        The data sets of the data home that its ``data`` option names, the default first.
    choices : mapping, default={}
        The names each list option (``algorithms``, ``kernels``) accepts.

    Examples
    --------
    >>> def experiment(*, quick=False):
    ...     return [{**provenance("demo", quick=quick, n_seeds=1), "x": 1}]
    >>> demo = Reproduction("demo", "table", "no paper", experiment, lambda records, **_: None)
    >>> records, fig = demo(quick=True)
    >>> records[0]["figure"], records[0]["x"], fig
    ('demo', 1, None)
    """

    name: str
    kind: str
    paper: str
    experiment: Callable[..., list]
    draw: Callable
    markdown: Callable[[list], str] | None = None
    options: tuple[str, ...] = ()
    real: bool = False
    quick: Mapping = field(default_factory=dict)
    data: tuple[str, ...] = ()
    choices: Mapping = field(default_factory=dict)

    def __call__(self, *args, **options):
        """``(records, figure)``, and the Markdown report third when one is declared."""
        records = self.experiment(*args, **options)
        fig = self.draw(records, *args, **options)
        if self.markdown is None:
            return records, fig
        return records, fig, self.markdown(records)


def seed_range(seeds: int | None, default: int) -> range:
    """Seeds 0..N-1, N = ``seeds`` (an integer >= 1) or the reproduction's default."""
    return range(default if seeds is None else check_int("seeds", seeds, low=1))


def provenance(figure: str, *, quick: bool, n_seeds: int, **config) -> dict:
    """The leading columns of a reproduction's records: what made them.

    Parameters
    ----------
    figure : str
        The reproduction's name (a key of :data:`perceptron_bounds.papers.REPRODUCTIONS`).
    quick : bool
        Whether the reduced sizes of ``--quick`` were used.
    n_seeds : int
        Seeds (permutations or data draws) averaged per point.
    **config
        The data's configuration not already in every record (e.g. ``n_features``).

    Returns
    -------
    dict
        ``figure``, ``perceptron_bounds_version`` (the package's
        ``__version__``), ``quick``, ``n_seeds``, then ``config``.

    Examples
    --------
    >>> row = provenance("sop-toy", quick=True, n_seeds=3, ratio=8.0)
    >>> row["figure"], row["quick"], row["n_seeds"], row["ratio"]
    ('sop-toy', True, 3, 8.0)
    >>> row["perceptron_bounds_version"] == __version__
    True
    """
    return {
        "figure": figure,
        "perceptron_bounds_version": __version__,
        "quick": quick,
        "n_seeds": n_seeds,
        **config,
    }


def provenance_line(meta: dict) -> str:
    """The caption's last line: ``"perceptron_bounds 0.1.0 · hop-fig2 · seeds=5 · quick ..."``."""
    size = "quick (reduced sizes, not the paper's)" if meta["quick"] else "full size"
    return (
        f"perceptron_bounds {meta['perceptron_bounds_version']} · {meta['figure']} · "
        f"seeds={meta['n_seeds']} · {size}"
    )


# ----------------------------------------------------------------------------- real data

def load_real(name: str, data_home=None, download: bool = False):
    """The data set ``name`` ("mnist", "usps" or "rcv1") from the data home.

    Raises
    ------
    FileNotFoundError
        One line naming the loader, the missing files and the data home, when they
        are missing and ``download`` is False.
    """
    loader = LOADERS[name]
    try:
        return loader(data_home, download=check_bool("download", download))
    except FileNotFoundError as error:
        raise FileNotFoundError(f"{loader.__name__}: {error}") from None


def check_names(kind: str, names, known) -> list[str]:
    """``names`` as a list, each among ``known`` and none twice; else a one-line ValueError."""
    names = list(names)
    unknown = [name for name in names if name not in known]
    if not names or unknown or len(set(names)) != len(names):
        raise ValueError(f"{kind} must be distinct names among {', '.join(known)}, got {names}")
    return names


# ----------------------------------------------------------------------------- reports

def percent(value) -> str:
    """``"4.76%"``, or ``"-"`` for None."""
    return "-" if value is None else f"{100 * value:.2f}%"


def mean_of(records, key, **where) -> float | None:
    """The mean of ``key`` over the records matching ``where`` (None values skipped)."""
    values = [row[key] for row in records
              if all(row.get(k) == v for k, v in where.items()) and row[key] is not None]
    return float(np.mean(values)) if values else None


def difference(ours, paper, percent_points=False) -> str:
    """Ours minus the paper's: ``"+12 (+3%)"``, or ``"+0.41 points"`` of a rate."""
    if ours is None or paper is None:
        return "-"
    if percent_points:
        return f"{100 * (ours - paper):+.2f} points"
    return f"{ours - paper:+,.0f} ({100 * (ours / paper - 1):+.0f}%)"


def bound_text(value) -> str:
    """A bound in a report: ``"1,234.5"``, or ``"n/a"`` when none applied (not finite)."""
    return f"{value:,.1f}" if math.isfinite(value) else "n/a"


def size_line(meta: dict) -> str:
    """The report's first words: a quick run is flagged as not comparable with the paper."""
    return ("**Quick run** (subsampled, not the paper's size): numbers are not comparable with "
            "the paper's." if meta["quick"] else "Full size.")


def markdown_table(header, rows) -> str:
    """A GitHub Markdown table.

    Examples
    --------
    >>> print(markdown_table(["a", "b"], [[1, "x"]]))
    | a | b |
    |---|---|
    | 1 | x |
    """
    lines = ["| " + " | ".join(map(str, header)) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(map(str, row)) + " |" for row in rows]
    return "\n".join(lines)
