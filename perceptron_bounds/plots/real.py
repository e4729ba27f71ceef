"""Figures of the papers' real-data experiments, drawn from the experiments' tidy tables.

- :func:`plot_voted_epochs`: paper 001's Figure 2, test error against epochs per degree;
- :func:`plot_radius_panels`: paper 004's Fig. 3 top, mistakes/T against r, and the margin
  errors beside;
- :func:`plot_corrections`: paper 000's Tables 2 and 3 as bars, the paper's values marked;
- :func:`plot_bound_ratios`: mistakes / bound for every bound and algorithm.

Each returns a matplotlib Figure and never calls ``plt.show()``; values are the
mean over seeds, with error bars of one standard deviation when there are several.
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.ticker import FuncFormatter

from .._tables import summarize
from .curves import check_records, distinct, mean_line, new_figure, percent_formatter, shared_legend
from .style import MARKERS, bound_handles, bound_style, figure_legend, variant_handles

#: The four predictions of paper 001's Figure 2, as the ``prediction`` values of the records.
FIGURE2_PREDICTIONS = ("vote", "average (unnorm)", "last (unnorm)", "random (unnorm)")


def plot_voted_epochs(records, *, predictions=FIGURE2_PREDICTIONS):
    """Test error against epochs, one panel per kernel degree d (paper 001, Figure 2).

    Parameters
    ----------
    records : list of dict
        The table of :func:`perceptron_bounds.experiments.voted_epochs_curve`.
    predictions : sequence of str, default=FIGURE2_PREDICTIONS
        The ``prediction`` values drawn: paper 001 plots vote and the unnormalised
        average, last and random ("we omitted the normalized versions for the sake
        of readability").

    Returns
    -------
    matplotlib.figure.Figure
        One panel per degree on a log epoch axis; each panel notes SupVec and
        Mistake at the last checkpoint.
    """
    records = check_records(records, "voted_epochs_curve",
                            ("degree", "epochs", "prediction", "test_error"))
    degrees = sorted(distinct(records, "degree"))
    ncols = min(3, len(degrees))
    nrows = math.ceil(len(degrees) / ncols)
    fig, axes = new_figure(nrows, ncols, (3.6 * ncols + 2.2, 3.0 * nrows + 0.6))
    for index, degree in enumerate(degrees):
        ax = axes.flat[index]
        part = [row for row in records if row["degree"] == degree]
        for i, name in enumerate(predictions):
            rows = [row for row in part if row["prediction"] == name]
            if rows:
                mean_line(ax, rows, "epochs", "test_error", label=name,
                          marker=MARKERS[i % len(MARKERS)], color=f"C{i}",
                          linestyle=":" if name.startswith("random") else "-")
        last = max(row["epochs"] for row in part)
        at_end = [row for row in part if row["epochs"] == last]
        supvec = np.mean([row["supvec"] for row in at_end])
        mistakes = np.mean([row["mistakes"] for row in at_end])
        ax.text(0.97, 0.95, f"T = {last:g}: SupVec {supvec:,.0f}\nMistake {mistakes:,.0f}",
                transform=ax.transAxes, ha="right", va="top", fontsize=7, color="0.3")
        epochs = sorted({row["epochs"] for row in part})
        ax.set_xscale("log")
        ax.set_xticks(epochs, [f"{e:g}" for e in epochs])
        ax.minorticks_off()
        ax.set_title(f"polynomial kernel, d = {degree}", fontsize=10)
        ax.set_xlabel("epochs T (log scale)")
        ax.set_ylabel("test error")
        ax.yaxis.set_major_formatter(percent_formatter())
        ax.grid(alpha=0.3)
    top = max(ax.get_ylim()[1] for ax in axes.flat[:len(degrees)])
    for ax in axes.flat[:len(degrees)]:  # one scale, so that the degrees compare
        ax.set_ylim(0.0, top)
    for ax in axes.flat[len(degrees):]:
        ax.set_visible(False)
    shared_legend(fig, axes.flat[0], title="prediction (paper 001 sec. 5)")
    return fig


def plot_radius_panels(records):
    """Ballseptron mistakes/T against r (paper 004, Fig. 3 top) beside the margin errors/T.

    Parameters
    ----------
    records : list of dict
        The table of :func:`perceptron_bounds.experiments.radius_curve` (one data set).

    Returns
    -------
    matplotlib.figure.Figure
        Left, the paper's plot: prediction mistakes epsilon/T against r, the
        Perceptron's (r = 0) as a dotted line; right, the margin errors/T, on their
        own scale (an order of magnitude larger, they would flatten the left curve).
    """
    records = check_records(records, "radius_curve", ("r", "mistake_rate", "margin_error_rate"))
    fig, axes = new_figure(1, 2, (10.0, 4.0))
    left, right = axes[0]
    mean_line(left, records, "r", "mistake_rate", label=r"prediction mistakes $\epsilon$ / T",
              marker="o", color="C3")
    perceptron = [row["mistake_rate"] for row in records if row["r"] == 0.0]
    if perceptron:
        left.axhline(np.mean(perceptron), color="0.5", linestyle=":", linewidth=1.0,
                     label="the Perceptron's (r = 0)")
    name = records[0].get("dataset")
    left.set_title(("" if name is None else f"{name}: ")
                   + r"prediction mistakes $\epsilon$ / T (paper 004, Fig. 3 top)", fontsize=10)
    mean_line(right, records, "r", "margin_error_rate", label="margin errors / T", marker="s",
              color="C0", linestyle="--")
    right.set_title(r"margin errors / T (right class wins by at most r $\|w^y - w^{\tilde y}\|$)",
                    fontsize=10)
    for ax in (left, right):
        ax.set_xlabel("Ballseptron radius r (r = 0 is the Perceptron)")
        ax.set_ylabel("fraction of the T rounds")
        ax.set_ylim(bottom=0.0)
        ax.grid(alpha=0.3)
    left.legend(fontsize=8, loc="upper center")
    return fig


def plot_corrections(records, *, group: str = "kernel", bar: str = "label",
                     paper: str | None = "paper"):
    """Training corrections and test error per algorithm, the paper's values marked.

    Parameters
    ----------
    records : list of dict
        The table of :func:`perceptron_bounds.experiments.corrections_table` with a
        ``group`` key added (``kernel`` for the OCR table, ``task`` for RCV1) and,
        where the paper reports them, ``paper_corrections`` and ``paper_test_error``.
    group : str, default="kernel"
        The record key whose values form the groups of bars.
    bar : str, default="label"
        The record key that names the bars of a group (the algorithm).
    paper : str or None, default="paper"
        The legend's name for the paper's values (e.g. ``"paper 000, Table 3"``); None
        draws none (a quick run's sizes are not the paper's).

    Returns
    -------
    matplotlib.figure.Figure
        Two panels (corrections, test error): one bar per algorithm in each group,
        ours (mean over seeds), and a black tick at the paper's value (unless
        ``paper`` is None).
    """
    records = check_records(records, "corrections_table",
                            (group, bar, "corrections", "test_error"))
    groups = distinct(records, group)
    labels = distinct(records, bar)
    fig, axes = new_figure(1, 2, (5.0 * 2 + 2.2, 4.2))
    width = 0.8 / len(labels)
    for k, (key, title) in enumerate((("corrections", "training corrections"),
                                      ("test_error", "test error"))):
        ax = axes[0, k]
        shown_paper = False
        for i, label in enumerate(labels):
            rows = summarize([r for r in records if r[bar] == label], [group], key)
            by_group = {row[group]: row for row in rows}
            x = np.arange(len(groups)) + (i - (len(labels) - 1) / 2) * width
            mean = [by_group[g]["mean"] if g in by_group else np.nan for g in groups]
            std = [by_group[g]["std"] if g in by_group else 0.0 for g in groups]
            several = any(row["n"] > 1 for row in rows)
            ax.bar(x, mean, width * 0.92, yerr=std if several else None, capsize=2,
                   color=f"C{i}", label=f"{label} (ours)" if k == 0 else None)
            if paper is None:
                continue
            reported = {r[group]: r.get(f"paper_{key}") for r in records if r[bar] == label}
            for xi, g in zip(x, groups, strict=True):
                value = reported.get(g)
                if value is not None:
                    ax.plot([xi], [value], marker="_", markersize=14, markeredgewidth=2.2,
                            color="k", linestyle="none",
                            label=paper if (k == 0 and not shown_paper) else None)
                    shown_paper = True
        ax.set_xticks(np.arange(len(groups)), [str(g) for g in groups])
        ax.set_title(title, fontsize=10)
        ax.grid(alpha=0.3, axis="y")
        if key == "test_error":
            ax.yaxis.set_major_formatter(percent_formatter())
        else:
            ax.set_ylabel("binary mistakes, summed over the class runs")
    shared_legend(fig, axes[0, 0])
    return fig


def _minor_label(ax, value: float) -> str:
    """A minor tick's label on a log y axis, only where the labels have room.

    Spanning at most about one decade every minor tick is labelled, up to about
    three decades those at 2 and 5 times a power of ten, beyond that none (the
    decades' own labels are enough).
    """
    low, high = ax.get_ylim()
    decades = np.log10(high / low) if low > 0 else np.inf
    mantissa = round(value / 10.0 ** np.floor(np.log10(value) + 1e-9))
    if decades <= 1.2 or (decades <= 3.2 and mantissa in (2, 5)):
        return f"{value:g}"
    return ""


def plot_bound_ratios(records):
    """Mistakes / bound of every applicable bound, per algorithm, on a log axis.

    Parameters
    ----------
    records : list of dict
        One record per (algorithm, bound, variant): ``label`` (the algorithm),
        ``name`` (the bound), ``variant`` ("stated" or "tightened"), ``applies`` and
        ``ratio`` (mistakes / bound), as :func:`perceptron_bounds.experiments.bound_ratios`
        returns them.

    Returns
    -------
    matplotlib.figure.Figure
        One column per algorithm, one marker per bound (filled: stated, hollow:
        tightened); a ratio at most 1 is a bound that holds, and the closer to 1,
        the tighter.
    """
    records = check_records(records, "bound_ratios", ("label", "name", "variant", "ratio"))
    records = [row for row in records if row.get("applies") and row["ratio"] is not None]
    if not records:
        raise ValueError("no applicable bound among the records: nothing to plot")
    labels = distinct(records, "label")
    names = distinct(records, "name")
    fig, axes = new_figure(1, 1, (min(0.75 * len(labels) + 4.5, 15.0), 5.5))
    ax = axes[0, 0]
    # Each algorithm's column holds its own bounds side by side, centred on its tick.
    here = {label: [name for name in names if any(r["label"] == label and r["name"] == name
                                                  for r in records)] for label in labels}
    for name in names:
        style = bound_style(name)
        for variant in ("stated", "tightened"):
            rows = [r for r in records if r["name"] == name and r["variant"] == variant]
            if not rows:
                continue
            means = summarize(rows, ["label"], "ratio")
            x = [labels.index(row["label"]) + 0.7 * ((here[row["label"]].index(name) + 0.5)
                                                     / len(here[row["label"]]) - 0.5)
                 for row in means]
            ax.plot(x, [row["mean"] for row in means], linestyle="none", markersize=6,
                    markerfacecolor=style["color"] if variant == "stated" else "none",
                    label=f"_{name} ({variant})", **style)
    ax.axhline(1.0, color="k", linewidth=1.0, linestyle="--")
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda value, _: _minor_label(ax, value)))
    ax.tick_params(axis="y", which="minor", labelsize=7)
    ax.set_xticks(np.arange(len(labels)), labels, rotation=30, ha="right", fontsize=8)
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.set_ylabel("mistakes / bound (at most 1: the bound holds)")
    ax.set_title("How tight is each bound? (dashed: mistakes = bound)", fontsize=10)
    ax.grid(alpha=0.3, axis="y", which="both")
    figure_legend(fig, [*variant_handles(), *bound_handles(names)],
                  title="bound (colour: its paper)")
    return fig
