"""The bound atlas's four views, drawn from its tidy records (issue 25).

- :func:`plot_atlas_heatmap`: the tightest ratio mistakes / bound, algorithms x data sets;
- :func:`plot_atlas_winners`: which bound is the tightest, algorithms x data sets;
- :func:`plot_atlas_ratios`: each bound's ratio across the data sets, stated and tightened;
- :func:`plot_atlas_noise`: mistakes and bounds against label noise, one panel per algorithm;
- :func:`plot_atlas_drift`: mistakes, fixed and shifting bounds against the number of shifts.

The records are those of :func:`perceptron_bounds.experiments.bound_atlas` (the first two
views take one record per cell, its tightest bound). Algorithms are named by their
registration; each function returns a matplotlib Figure and never calls ``plt.show()``.
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.colors import ListedColormap, LogNorm
from matplotlib.ticker import NullLocator

from .._tables import run_label
from ..algorithms import available, get
from .curves import check_records, distinct, new_figure, shared_legend
from .labels import display_name
from .style import bound_handles, bound_style, figure_legend, series_style, variant_handles

#: The columns every view reads.
ATLAS_KEYS = ("dataset", "task", "algorithm", "bound", "variant", "value", "ratio")
#: The colours of the winning bounds' cells: thirty distinct ones, none black (the
#: mistakes' colour in every figure) and none a grey (a cell where no bound applies).
WINNER_COLOURS = tuple(f"tab:{name}" for name in (
    "blue", "orange", "green", "red", "purple", "brown", "pink")) + ("magenta",) + tuple(
    f"tab:{name}" for name in ("olive", "cyan")) + (
    "navy", "gold", "lime", "maroon", "teal", "violet", "darkgoldenrod", "coral", "khaki",
    "indigo", "saddlebrown", "deepskyblue", "orchid", "darkgreen", "salmon", "slateblue",
    "darkorange", "turquoise", "crimson", "yellowgreen")
#: Entries per column of a legend, beyond which it takes another column.
LEGEND_ROWS = 20
#: The colour scale of the heat map: ratios from 1e-3 (a loose bound) to 1 (exact).
RATIO_RANGE = (1e-3, 1.0)
#: A panel's log y axis spanning at least this many decades is ticked at its decades only.
DECADES_ONLY = 2.0


def _column(row) -> str:
    return f"{row['dataset']}\n{row['task']}"


def _name(run: str) -> str:
    """A run's name (``run_label`` of the records) with the
    registered algorithm's display name (a name no longer registered as it is)."""
    algorithm, _, setting = run.partition(" [")
    name = display_name(get(algorithm)) if algorithm in available() else algorithm
    return f"{name} [{setting}" if setting else name


def _grid(best):
    """Rows (an algorithm, with its kernel and epochs when the records hold several), columns
    (data set and task), the cell of each record, and the rows' labels."""
    best = check_records(best, "tightest(bound_atlas(...))", (*ATLAS_KEYS, "kernel", "epochs"))
    kernels, epochs = distinct(best, "kernel"), distinct(best, "epochs")
    rows = sorted({(run_label(row), row["kernel"], row["epochs"]) for row in best},
                  key=lambda key: (_name(key[0]), kernels.index(key[1]), key[2]))
    labels = [_name(algorithm) + (f" · {kernel}" if len(kernels) > 1 else "")
              + (f" · {passes} ep." if len(epochs) > 1 else "")
              for algorithm, kernel, passes in rows]
    columns = distinct([{"c": _column(row)} for row in best], "c")
    cells = {((run_label(row), row["kernel"], row["epochs"]), _column(row)): row
             for row in best}
    return rows, columns, cells, labels


def _decades(ax) -> None:
    """No minor ticks on a log y axis spanning at least :data:`DECADES_ONLY` decades: its
    labelled decades give the scale, and the eight minor ticks of every decade (a line and
    a label each, laid out again at every layout pass) were most of the drawing time of the
    many-panel views; a shorter axis keeps them, as its only labels may be minor ones."""
    low, high = ax.get_ylim()
    if low > 0.0 and math.log10(high / low) >= DECADES_ONLY:
        ax.yaxis.set_minor_locator(NullLocator())


def _frame(ax, labels, columns):
    ax.set_xticks(np.arange(len(columns)), columns, rotation=60, ha="right", fontsize=7)
    ax.set_yticks(np.arange(len(labels)), labels, fontsize=8)
    ax.set_xticks(np.arange(len(columns) + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(len(labels) + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", linewidth=1.0)
    ax.tick_params(which="minor", length=0)


def plot_atlas_heatmap(best):
    """The tightest ratio mistakes / bound of every algorithm on every data set.

    Parameters
    ----------
    best : list of dict
        One record per (data set, task, algorithm, kernel, epochs): the tightest bound's
        (:func:`perceptron_bounds.experiments.tightest`); a row per algorithm, or per
        algorithm, kernel and epochs when the records hold several.

    Returns
    -------
    matplotlib.figure.Figure
        A cell per algorithm and data set, coloured by the ratio on a log scale
        (:data:`RATIO_RANGE`) and labelled with it; grey with a dash where no bound
        applies, blank where the records hold no such run.
    """
    algorithms, columns, cells, labels = _grid(best)
    values = np.full((len(algorithms), len(columns)), np.nan)
    for (algorithm, column), row in cells.items():
        if row["value"] is not None:
            values[algorithms.index(algorithm), columns.index(column)] = max(
                row["ratio"], RATIO_RANGE[0])
    fig, axes = new_figure(1, 1, (0.55 * len(columns) + 3.5, 0.38 * len(algorithms) + 2.6))
    ax = axes[0, 0]
    ax.set_facecolor("0.85")
    image = ax.imshow(np.ma.masked_invalid(values), cmap="viridis", aspect="auto",
                      norm=LogNorm(*RATIO_RANGE))
    for (algorithm, column), row in cells.items():
        i, j = algorithms.index(algorithm), columns.index(column)
        ratio = row["ratio"]
        text = ("–" if row["value"] is None else f"{ratio:.3f}" if ratio >= 0.99
                else f"{ratio:.2g}")
        dark = row["value"] is not None and row["ratio"] < 0.1
        ax.text(j, i, text, ha="center", va="center", fontsize=6,
                color="white" if dark else "black")
    _frame(ax, labels, columns)
    fig.colorbar(image, ax=ax, label="mistakes / tightest bound (1: exact)", shrink=0.8)
    ax.set_title("How close is the tightest bound to the mistakes? (–: no bound applies; "
                 "blank: not run)", fontsize=10)
    return fig


def plot_atlas_winners(best):
    """Which bound is the tightest for every algorithm on every data set.

    Parameters
    ----------
    best : list of dict
        As for :func:`plot_atlas_heatmap`.

    Returns
    -------
    matplotlib.figure.Figure
        A cell per algorithm and data set, coloured by the winning bound (legend) and
        marked ``s`` (stated) or ``t`` (tightened form); grey where none applies.
    """
    algorithms, columns, cells, labels = _grid(best)
    winners = sorted({row["bound"] for row in cells.values() if row["value"] is not None})
    codes = np.full((len(algorithms), len(columns)), np.nan)
    for (algorithm, column), row in cells.items():
        if row["value"] is not None:
            codes[algorithms.index(algorithm), columns.index(column)] = winners.index(
                row["bound"])
    colours = [WINNER_COLOURS[k % len(WINNER_COLOURS)] for k in range(max(1, len(winners)))]
    fig, axes = new_figure(1, 1, (0.55 * len(columns) + 6.0, 0.38 * len(algorithms) + 2.6))
    ax = axes[0, 0]
    ax.set_facecolor("0.85")
    ax.imshow(np.ma.masked_invalid(codes), cmap=ListedColormap(colours), aspect="auto",
              vmin=-0.5, vmax=len(colours) - 0.5, alpha=0.75)
    for (algorithm, column), row in cells.items():
        if row["value"] is not None:
            ax.text(columns.index(column), algorithms.index(algorithm), row["variant"][0],
                    ha="center", va="center", fontsize=6)
    for k, bound in enumerate(winners):
        ax.plot([], [], linestyle="none", marker="s", markersize=8, color=colours[k],
                alpha=0.75, label=bound)
    _frame(ax, labels, columns)
    ax.set_title("Which bound is the tightest? (s: stated, t: tightened; grey: none applies "
                 "or not run)", fontsize=10)
    shared_legend(fig, ax, title="tightest bound")
    return fig


def plot_atlas_ratios(records):
    """Each bound's ratio mistakes / bound across the data sets, stated and tightened.

    Parameters
    ----------
    records : list of dict
        The atlas's records for one kernel and epochs (every bound of every cell).

    Returns
    -------
    matplotlib.figure.Figure
        One panel per bound; a column per data set, one marker per algorithm (filled:
        stated, hollow: tightened), on a log axis with the line ratio = 1.
    """
    records = check_records(records, "bound_atlas", ATLAS_KEYS)
    applied = [row for row in records if row["value"] is not None]
    if not applied:
        raise ValueError("no applicable bound among the records: nothing to plot")
    bounds = sorted(distinct(applied, "bound"))
    columns = distinct([{"c": _column(row)} for row in records], "c")
    algorithms = sorted(distinct([{"a": run_label(r)} for r in applied], "a"), key=_name)
    ncols = min(3, len(bounds))
    nrows = math.ceil(len(bounds) / ncols)
    width = max(3.6, 0.2 * len(columns) + 0.8)  # a column per data set, 7-point labels
    fig, axes = new_figure(nrows, ncols, (width * ncols + 2.5, 2.4 * nrows + 2.4))
    low = min(max(row["ratio"], 1e-6) for row in applied)
    for k, bound in enumerate(bounds):
        ax = axes[k // ncols, k % ncols]
        for a, algorithm in enumerate(algorithms):
            for variant in ("stated", "tightened", "any"):
                rows = [row for row in applied if row["bound"] == bound
                        and run_label(row) == algorithm and row["variant"] == variant]
                if not rows:
                    continue
                shift = 0.6 * ((a + 0.5) / len(algorithms) - 0.5)
                filled = variant != "tightened"
                style = series_style(a)
                ax.plot([columns.index(_column(row)) + shift for row in rows],
                        [max(row["ratio"], 1e-6) for row in rows], linestyle="none",
                        markersize=4, **style,
                        markerfacecolor=style["color"] if filled else "none",
                        label=_name(algorithm) if filled or k == 0 else None)
        ax.axhline(1.0, color="k", linewidth=0.8, linestyle="--")
        ax.set_yscale("log")
        ax.set_ylim(low / 2, 2.0)
        _decades(ax)
        ax.set_title(bound, fontsize=9)
        # the data sets are named under the lowest panel of each column only
        lowest = k + ncols >= len(bounds)
        ax.set_xticks(np.arange(len(columns)), [c.replace("\n", " ") for c in columns]
                      if lowest else [], rotation=60, ha="right", fontsize=7)
        ax.set_xlim(-0.6, len(columns) - 0.4)
        ax.grid(alpha=0.3, axis="y")
    for k in range(len(bounds), nrows * ncols):
        axes[k // ncols, k % ncols].set_visible(False)
    handles = {}
    for ax in axes.ravel():
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(label, handle)
    fig.legend(list(handles.values()), list(handles), loc="outside right upper", fontsize=7,
               ncols=math.ceil(len(handles) / LEGEND_ROWS),
               title="algorithm (filled: stated,\nhollow: tightened)", title_fontsize=7)
    fig.suptitle("Each bound's mistakes / bound across the data sets (at most 1: it holds)",
                 fontsize=10)
    return fig


def plot_atlas_noise(records):
    """Mistakes and every bound against the label-noise rate, one panel per algorithm.

    Parameters
    ----------
    records : list of dict
        The atlas's records of one synthetic family at several noise rates, each with a
        ``noise`` key (the rate eta of its task), for one kernel and epochs.

    Returns
    -------
    matplotlib.figure.Figure
        Per algorithm: its mistakes (black) and each bound that applies (colour per bound;
        solid: stated, dashed: tightened) against eta, on a log axis.
    """
    return _against(records, "noise", "label noise rate $\\eta$",
                    "Mistakes and bounds against label noise (bounds: solid stated, dashed "
                    "tightened)")


def plot_atlas_drift(records):
    """Mistakes and every bound, fixed-comparator and shifting, against the number of shifts
    of drifting data, one panel per algorithm.

    Parameters
    ----------
    records : list of dict
        The atlas's records of the drifting family, each with a ``shifts`` key (the number
        of abrupt switches of its task's target), for one kernel and epochs.

    Returns
    -------
    matplotlib.figure.Figure
        Per algorithm: its mistakes (black) and each bound that applies (colour per bound;
        the shifting bounds, against the target sequence, are those named ``shifting`` or
        ``tracking``; solid: stated, dashed: tightened) against the number of shifts.
    """
    return _against(records, "shifts", "number of shifts of the target",
                    "Mistakes and bounds against drift: fixed-comparator and shifting bounds "
                    "(solid stated, dashed tightened)", xscale="symlog")


def _against(records, key: str, xlabel: str, title: str, xscale: str = "linear"):
    """Per algorithm and setting, its mistakes and each bound against ``key`` of the records."""
    records = check_records(records, f"bound_atlas (one family, with {key!r})",
                            (*ATLAS_KEYS, key, "mistakes"))
    algorithms = sorted(distinct([{"a": run_label(r)} for r in records], "a"), key=_name)
    bounds = sorted(distinct([row for row in records if row["value"] is not None], "bound"))
    ncols = min(4, len(algorithms))
    nrows = math.ceil(len(algorithms) / ncols)
    fig, axes = new_figure(nrows, ncols, (3.4 * ncols + 2.5, 2.6 * nrows + 1.0))
    for k, algorithm in enumerate(algorithms):
        ax = axes[k // ncols, k % ncols]
        rows = [row for row in records if run_label(row) == algorithm]
        mistakes = sorted({(row[key], row["mistakes"]) for row in rows})
        ax.plot(*zip(*mistakes, strict=True), color="k", marker="o", markersize=3,
                linewidth=1.6, label="mistakes")
        for bound in bounds:
            for variant, style in (("stated", "-"), ("tightened", "--")):
                points = sorted((row[key], row["value"]) for row in rows
                                if row["bound"] == bound and row["variant"] == variant
                                and row["value"] is not None)
                if points:
                    ax.plot(*zip(*points, strict=True), linestyle=style, markersize=3,
                            linewidth=1.0, **bound_style(bound))
        ax.set_yscale("log")
        _decades(ax)
        ax.set_xscale(xscale)
        if xscale == "symlog":  # counts: ticks at the family's values, as numbers
            ax.set_xticks(sorted({row[key] for row in rows}), minor=False)
            ax.xaxis.set_major_formatter("{x:g}")
            ax.xaxis.set_minor_locator(NullLocator())
        ax.set_title(_name(algorithm), fontsize=9)
        ax.set_xlabel(xlabel, fontsize=8)
        ax.grid(alpha=0.3)
    for k in range(len(algorithms), nrows * ncols):
        axes[k // ncols, k % ncols].set_visible(False)
    mistakes = axes[0, 0].get_legend_handles_labels()[0]
    figure_legend(fig, [*mistakes, *variant_handles(lines=True), *bound_handles(bounds,
                                                                              linestyle="-")],
                  title="bound (colour: its paper)")
    fig.suptitle(title, fontsize=10)
    return fig
