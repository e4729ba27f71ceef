"""The budget figure: test error, and mistakes beside their bound, against the budget B."""

from __future__ import annotations

import numpy as np

from matplotlib.ticker import NullFormatter, NullLocator

from .curves import distinct, new_figure
from .style import figure_legend, series_style


def plot_budget_curves(records):
    """Two panels against B (log axis): test error; mistakes (solid) and bound (dashed).

    Parameters
    ----------
    records : list of dict
        :func:`~perceptron_bounds.experiments.budget_curve`'s records; the
        means over seeds are drawn. A record with ``budget`` None (an algorithm
        without a budget) is a horizontal line, its mistakes at its number of
        supports.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, axes = new_figure(1, 2, (13.0, 4.8))
    ax_error, ax_mistakes = axes[0]
    budgets = sorted(b for b in distinct(records, "budget") if b is not None)
    for i, label in enumerate(distinct(records, "label")):
        rows = [row for row in records if row["label"] == label]
        colour, marker = series_style(i)["color"], series_style(i)["marker"]
        if rows[0]["budget"] is None:
            for ax, key in ((ax_error, "test_error"), (ax_mistakes, "mistakes")):
                ax.axhline(np.mean([row[key] for row in rows]), color=colour, linestyle=":",
                           label=f"{label} (no budget)")
            bound = np.mean([row["bound"] for row in rows])
            if np.isfinite(bound):
                ax_mistakes.axhline(bound, color=colour, linestyle="--", linewidth=0.9,
                                    label=f"{label}: its bound")
            continue
        xs = [b for b in budgets if any(row["budget"] == b for row in rows)]

        def mean(key, rows=rows, xs=xs):
            return np.array([np.mean([row[key] for row in rows if row["budget"] == b])
                             for b in xs])

        ax_error.plot(xs, mean("test_error"), marker=marker, color=colour, label=label)
        ax_mistakes.plot(xs, mean("mistakes"), marker=marker, color=colour,
                         label=f"{label}: mistakes")
        bound = mean("bound")
        shown = np.isfinite(bound)
        if shown.any():
            ax_mistakes.plot(np.array(xs)[shown], bound[shown], marker=marker, color=colour,
                             markerfacecolor="none", linestyle="--",
                             label=f"{label}: its bound")
    for ax, name in ((ax_error, "test error"), (ax_mistakes, "mistakes, and bounds (dashed)")):
        ax.set_xscale("log")
        ax.set_xticks(budgets, [f"{b:g}" for b in budgets])  # every budget run, and no other
        ax.xaxis.set_minor_locator(NullLocator())
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("budget B (supports)")
        ax.set_ylabel(name)
        ax.grid(True, alpha=0.3)
    ax_mistakes.set_yscale("log")
    figure_legend(fig, ax_mistakes.get_legend_handles_labels()[0], fontsize=8,
                  title="solid: mistakes; dashed, hollow: the smallest bound")
    return fig
