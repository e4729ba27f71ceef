"""The one writer of the reproductions: PNG, PDF, CSV and the Markdown report.

Each file is written under a temporary name and renamed when complete
(:func:`perceptron_bounds._files.replacing`), so an interrupted save leaves
no partial file.
"""

from __future__ import annotations

import os

from .._files import replacing
from ..experiments import write_csv


def save_markdown(markdown: str, path) -> str:
    """Write a Markdown report (a trailing newline added); return the path."""
    path = os.fspath(path)
    with replacing(path) as temp, open(temp, "w", encoding="utf-8") as handle:
        handle.write(markdown + "\n")
    return path


def save_figure(name: str, records, fig, out, markdown: str | None = None) -> list[str]:
    """Write ``out/name.png`` (150 dpi), ``.pdf``, ``.csv`` (the records) and, given a
    report, ``.md``; return the paths.

    Parameters
    ----------
    name : str
        The files' stem (the reproduction's name).
    records : list of dict
        The tidy table, written by :func:`perceptron_bounds.experiments.write_csv`.
    fig : matplotlib.figure.Figure
        The figure.
    out : str or path
        The directory, made if missing.
    markdown : str or None, default=None
        The report of a real-data reproduction.

    Returns
    -------
    list of str
        The paths written, in the order png, pdf, csv[, md].
    """
    os.makedirs(out, exist_ok=True)
    base = os.path.join(os.fspath(out), name)
    with replacing(base + ".png") as temp:
        fig.savefig(temp, dpi=150)
    with replacing(base + ".pdf") as temp:
        fig.savefig(temp)
    paths = [base + ".png", base + ".pdf", write_csv(records, base + ".csv")]
    if markdown is not None:
        paths.append(save_markdown(markdown, base + ".md"))
    return paths
