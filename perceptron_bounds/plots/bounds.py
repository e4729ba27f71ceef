"""Mistakes against bounds: one column per run, the run's mistakes and every bound that applies."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure

from .style import bound_handles, bound_style, variant_handles

#: What the data-dependent bounds' names stand for, for the legend's title (theory §4.1):
#: the hinge loss of trial t is l_t = max(0, gamma - y_t u.x_t).
BOUND_GLOSSARY = {
    "freund_schapire": r"freund_schapire: $D_2$-bound $((R + D_2)/\gamma)^2$, "
    r"$D_2 = \sqrt{\sum_t \ell_t^2}$ (squared hinge)",
    "ballseptron_d1": r"ballseptron_d1: $D_1$-bound $((R + \sqrt{\gamma D_1})/\gamma)^2$, "
    r"$D_1 = \sum_t \ell_t$ (hinge)",
}
HINGE_LOSS = r"hinge loss $\ell_t = \max(0, \gamma - y_t\,u \cdot x_t)$"


def mistakes_vs_bounds(reports: Sequence, ax=None, *, labels: Sequence[str] | None = None):
    """Plot the empirical mistakes of several runs and each of their bounds on a log axis.

    Parameters
    ----------
    reports : sequence of BoundReport
        From :func:`perceptron_bounds.bounds.evaluate`, one per run.
    ax : matplotlib Axes, optional
        Where to draw; a new Figure (no pyplot) is made when None.
    labels : sequence of str, optional
        One tick label per report (default: the algorithm names).

    Returns
    -------
    matplotlib.axes.Axes

    Notes
    -----
    Column i shows report i: a black line at its mistakes m, and one marker per
    applicable bound, filled for the stated variant (theory §4.1) and hollow for
    the tightened one (theory §4.2). Bounds that do not apply are not drawn. The
    y axis is logarithmic, so the distance from a marker down to the line is the
    factor by which the bound exceeds m.

    Examples
    --------
    >>> from perceptron_bounds import run_online
    >>> from perceptron_bounds.bounds import evaluate
    >>> from perceptron_bounds.datasets import make_separable
    >>> X, y, u = make_separable(200, 5, margin=0.1, label_noise=0.05, seed=0)
    >>> reports = [evaluate(run_online(a, X, y), X, y, target=u)
    ...            for a in ("perceptron", "second_order")]
    >>> ax = mistakes_vs_bounds(reports)
    >>> ax.get_yscale()
    'log'
    """
    reports = list(reports)
    if not reports:
        raise ValueError("no reports to plot; pass the BoundReports evaluate() returned")
    if labels is None:
        labels = [report.algorithm for report in reports]
    labels = list(labels)
    if len(labels) != len(reports):
        raise ValueError(f"labels has {len(labels)} entries for {len(reports)} reports")
    if ax is None:
        ax = Figure(figsize=(max(4.0, 1.4 * len(reports)) + 3.5, 4.0),
                    layout="constrained").subplots()
    names = list(dict.fromkeys(row.name for report in reports for row in report.rows
                               if row.applies))
    positions = np.arange(len(reports), dtype=np.float64)
    # The count each report's rows bound: the mistakes, or a one-vs-rest run's corrections.
    counts = [report.rows[0].mistakes if report.rows else report.mistakes for report in reports]
    ax.hlines([max(count, 1e-1) for count in counts], positions - 0.3, positions + 0.3,
              colors="k", linewidth=2.5, label="mistakes (one-vs-rest: corrections)"
              if any(getattr(report, "multiclass", None) == "ovr" for report in reports)
              else "mistakes")
    width = 0.5 / max(len(names), 1)
    for i, report in enumerate(reports):
        for row in report.rows:
            if not row.applies:
                continue
            j = names.index(row.name)
            x = positions[i] - 0.25 + (j + 0.5) * width
            style = bound_style(row.name)
            ax.plot([x], [max(row.value, 1e-1)], linestyle="none", **style,
                    markerfacecolor=style["color"] if row.variant == "stated" else "none")
    ax.set_yscale("log")
    ax.set_xticks(positions, labels, rotation=20, ha="right")
    ax.set_ylabel("mistakes / bound value")
    ax.set_title("Mistakes against the papers' bounds\n(filled: stated, hollow: tightened)",
                 fontsize="medium")
    glossary = [BOUND_GLOSSARY[name] for name in names if name in BOUND_GLOSSARY]
    mistakes = ax.get_legend_handles_labels()[0]
    ax.legend(
        handles=[*mistakes, *variant_handles(), *bound_handles(names)],
        ncol=max(1, -(-(len(names) + 3) // 18)),
        fontsize="x-small",
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        title="\n".join([HINGE_LOSS, *glossary]) if glossary else None,
        title_fontsize="x-small",
        alignment="left",
    )
    return ax
