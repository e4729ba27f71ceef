"""Figures of the papers' experiments, drawn from the experiments' tidy tables.

Each function takes the records an experiment returned and returns the
matplotlib Figure; none calls ``plt.show()``. Curves are the mean over seeds
(or permutations), with error bars of one standard deviation when there is
more than one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from .._tables import summarize
from ..algorithms.ballseptron import BALLSEPTRON
from ..algorithms.pnorm import HO_NOTATION  # noqa: F401  (the legend title of HO_p(c) curves)
from .labels import legend_entry
from .presentation import LegendEntry, presentation
from .style import MARKERS

#: The record keys that split figures into panels, as a reader should see them.
PANEL_NAMES = {"eta": r"label noise rate $\eta$", "sigma": r"instance noise $\sigma$"}

def legend_label(label: str) -> str:
    """The papers' subscripts as mathtext: ``"HO_4(0.4)"`` -> ``"HO$_{4}$(0.4)"``."""
    return re.sub(r"_(\w+)", r"$_{\1}$", label)


def describe_label(label: str) -> str:
    """A legend entry that spells out the papers' short names, from a label alone (paper 000).

    The figures spell out a curve from the algorithm and parameters its records
    carry (:func:`curve_legend`); this reads a label of a record without them.
    ``FO`` is the Perceptron, ``SO(a)`` the Second-Order Perceptron with
    parameter a, ``HO_p(c)`` the Higher-Order Perceptron with norm p and step
    rho_k = c/k (c = 0: the p-norm Perceptron, and FO = HO_2(0)). Other labels
    are returned as :func:`legend_label` writes them.

    Examples
    --------
    >>> describe_label("HO_4(0.4)")
    'HO$_{4}$(0.4): p = 4, c = 0.4'
    >>> describe_label("HO_7(0.0)")
    'HO$_{7}$(0.0): p-norm Perceptron, p = 7'
    >>> describe_label("SO(0.2)")
    'SO(0.2): Second-Order Perceptron, a = 0.2'
    >>> describe_label("FO")
    'FO: Perceptron (first order)'
    """
    shown = legend_label(label)
    if label == "FO":
        return "FO: Perceptron (first order)"
    match = re.fullmatch(r"SO\((.+)\)", label)
    if match:
        return f"{shown}: Second-Order Perceptron, a = {match[1]}"
    match = re.fullmatch(r"HO_(\w+)\((.+)\)", label)
    if match:
        p, c = match[1], match[2]
        if re.fullmatch(r"0(\.0*)?", c):  # HO_p(0): the p-norm Perceptron
            return f"{shown}: p-norm Perceptron, p = {p}"
        return f"{shown}: p = {p}, c = {c}"
    return shown


def curve_legend(record: dict) -> LegendEntry:
    """How a figure's legend spells out the curve of ``record``: its label, then what it runs.

    Parameters
    ----------
    record : dict
        A record of the curve: its ``label`` and, as the experiments write
        them, its ``algorithm`` and (resolved) ``params``.

    Returns
    -------
    LegendEntry
        ``"label: ..."`` with the rest of the algorithm's
        :func:`~perceptron_bounds.plots.labels.legend_entry` (its registration
        says how to spell it out, whether the curve is dashed and what the
        legend's title explains); for a record without ``algorithm``,
        :func:`describe_label` of the label, solid.

    Examples
    --------
    >>> entry = curve_legend({"label": "HO_7(0.0)", "algorithm": "pnorm",
    ...                       "params": {"p": 7.0}})
    >>> entry.text, entry.dashed
    ('HO$_{7}$(0.0): p-norm Perceptron, p = 7', True)
    """
    if "algorithm" not in record:
        return LegendEntry(describe_label(record["label"]))
    entry = legend_entry(record["algorithm"], record.get("params") or {})
    return replace(entry, text=f"{legend_label(record['label'])}: {entry.text}")


def _curve_legends(records, labels) -> dict:
    """:func:`curve_legend` of the first record of each label."""
    return {label: curve_legend(next(row for row in records if row["label"] == label))
            for label in labels}


def new_figure(nrows: int, ncols: int, size: tuple[float, float]):
    """A constrained-layout Figure (no pyplot) and its nrows x ncols axes, always 2-D."""
    fig = Figure(figsize=size, layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False)
    return fig, axes


def distinct(records: Sequence[dict], key: str) -> list:
    """The values of ``key`` in ``records`` (None where absent), in order of first appearance."""
    seen: list = []
    for record in records:
        if record.get(key) not in seen:
            seen.append(record.get(key))
    return seen


def check_records(records, experiment: str, keys: Sequence[str]) -> list[dict]:
    """``records`` as a list, or a one-line ValueError when empty or lacking one of ``keys``."""
    records = list(records)
    if not records:
        raise ValueError(f"no records to plot; pass the table {experiment} returned")
    missing = [key for key in keys if key not in records[0]]
    if missing:
        raise ValueError(f"records lack {', '.join(missing)}; pass the table {experiment} returned")
    return records


def mean_line(ax, records, x, y, *, label, marker, linestyle="-", color=None):
    """Draw the mean of ``y`` per value of ``x`` (error bars: 1 std when a point has several)."""
    rows = summarize(records, by=[x], value=y)
    rows.sort(key=lambda row: row[x])
    xs = np.array([row[x] for row in rows])
    mean = np.array([row["mean"] for row in rows])
    std = np.array([row["std"] for row in rows])
    yerr = std if any(row["n"] > 1 for row in rows) else None
    return ax.errorbar(
        xs,
        mean,
        yerr=yerr,
        label=label,
        marker=marker,
        linestyle=linestyle,
        color=color,
        markersize=4,
        capsize=2,
        linewidth=1.2,
    )


def percent_formatter():
    """A tick formatter that shows fractions as percentages (0.05 -> 5%)."""
    return PercentFormatter(xmax=1.0)


def _panel_name(key: str, value) -> str:
    """``"label noise rate $\\eta$ = 0.1"`` for ``("eta", 0.1)``; unknown keys as they are."""
    return f"{PANEL_NAMES.get(key, key)} = {value}"


def shared_legend(fig, ax, *, title=None):
    """One legend for the whole figure, outside the panels (the panels share their lines)."""
    handles, labels = ax.get_legend_handles_labels()
    return fig.legend(
        handles,
        labels,
        loc="outside right upper",
        title=title,
        fontsize=8,
        title_fontsize=8,
        alignment="left",
    )


def plot_epochs_curve(records, *, panel: str = "eta"):
    """Training updates (top) and test error (bottom) against epochs: HO paper Figure 2.

    Parameters
    ----------
    records : list of dict
        The table of :func:`perceptron_bounds.experiments.epochs_curve`; when
        the records carry a ``panel`` key (the figure command adds ``eta``),
        each of its values gets a column of two panels.
    panel : str, default="eta"
        The record key that splits the columns.

    Returns
    -------
    matplotlib.figure.Figure
        2 x k axes: updates and test error for each column, one line per label
        (dashed for c = 0), and one legend right of the panels that spells out
        the labels (see :func:`curve_legend`).

    Notes
    -----
    Paper 000, Figure 2: "Training updates vs training epochs" and "Test
    error rates vs training epochs" on Artificial 0.0 (left) and 0.1 (right),
    epochs 1, 2, 3, 5, 10, 15, 20, for FO = HO_2(0.0), SO (a = 0.2),
    HO_2(0.4), HO_4(0.4), HO_7(0.0), HO_7(0.4).
    """
    records = check_records(records, "epochs_curve", ("label", "epochs", "updates", "test_error"))
    columns = distinct(records, panel)
    labels = distinct(records, "label")
    legends = _curve_legends(records, labels)
    fig, axes = new_figure(2, len(columns), (4.6 * len(columns) + 2.4, 7.0))
    for j, value in enumerate(columns):
        part = [row for row in records if row.get(panel) == value]
        name = "" if value is None else f" ({_panel_name(panel, value)})"
        for i, label in enumerate(labels):
            rows = [row for row in part if row["label"] == label]
            for k, key in enumerate(("updates", "test_error")):
                mean_line(
                    axes[k, j],
                    rows,
                    "epochs",
                    key,
                    label=legends[label].text,
                    marker=MARKERS[i % len(MARKERS)],
                    linestyle="--" if legends[label].dashed else "-",
                    color=f"C{i}",
                )
        epochs = sorted({row["epochs"] for row in part})
        for k, title in enumerate(("Training updates", "Test error")):
            ax = axes[k, j]
            ax.set_title(title + name, fontsize=10)
            ax.set_xlabel("training epochs (passes over the training set)")
            ax.set_xticks(epochs)
            ax.grid(alpha=0.3)
        axes[0, j].set_ylabel("training updates\n(mistakes over all epochs so far)")
        axes[1, j].set_ylabel("test error rate")
        axes[1, j].yaxis.set_major_formatter(percent_formatter())
    notes = dict.fromkeys(entry.notation for entry in legends.values() if entry.notation)
    shared_legend(fig, axes[0, 0], title="\n".join(notes) or None)
    return fig


_NOISE_LINES = (
    ("mistake_rate", "Perceptron mistakes / T", "k", "o", "-"),
    (
        "d2_bound_rate",
        "$D_2$-bound / T, $\\gamma$ = {gamma:g}\n(Freund–Schapire, squared hinge)",
        "C3",
        "s",
        "-",
    ),
    (
        "d1_bound_rate",
        "$D_1$-bound / T, $\\gamma$ = {gamma:g}\n(Ballseptron Thm 2, hinge)",
        "C0",
        "^",
        "-",
    ),
    ("d2_best_rate", "$D_2$-bound / T, $\\gamma$ minimising it", "C3", None, ":"),
    ("d1_best_rate", "$D_1$-bound / T, $\\gamma$ minimising it", "C0", None, ":"),
)

#: The legend title of the noise figure: the losses behind D1 and D2 (paper 004, sec. 2).
NOISE_NOTATION = (
    "hinge loss $\\ell_t = \\max(0, \\gamma - y_t\\,u \\cdot x_t)$,\n"
    "u = the generating separator;\n"
    "$D_1 = \\sum_t \\ell_t$,  $D_2 = \\sqrt{\\sum_t \\ell_t^2}$,  $R = \\max_t \\|x_t\\|$;\n"
    "$D_2$-bound $= ((R + D_2)/\\gamma)^2$,\n"
    "$D_1$-bound $= ((R + \\sqrt{\\gamma D_1})/\\gamma)^2$"
)


def plot_noise_curve(records):
    """Perceptron mistakes and the D2/D1 bounds as fractions of T against the noise level.

    Parameters
    ----------
    records : list of dict
        The table of :func:`perceptron_bounds.experiments.noise_curve`; one
        panel per noise kind present (label noise, instance noise).

    Returns
    -------
    matplotlib.figure.Figure
        One panel per noise kind and one legend under them that defines D1
        and D2.

    Notes
    -----
    Paper 004, Fig. 3 bottom: the D2-bound (Freund-Schapire, eq. 3) and the
    D1-bound (Thm 2) of the Perceptron over T = 10,000 trials against eta
    (label noise) and sigma (instance noise). A bound above the dashed line
    bound/T = 1 says nothing.
    """
    records = check_records(records, "noise_curve", ("kind", "level", "mistake_rate"))
    kinds = distinct(records, "kind")
    fig, axes = new_figure(1, len(kinds), (4.6 * len(kinds) + 2.8, 4.6))
    for j, kind in enumerate(kinds):
        ax = axes[0, j]
        part = [row for row in records if row["kind"] == kind]
        gamma = part[0]["gamma"]
        for key, text, color, marker, style in _NOISE_LINES:
            if key in part[0]:
                mean_line(
                    ax,
                    part,
                    "level",
                    key,
                    label=text.format(gamma=gamma),
                    marker=marker,
                    linestyle=style,
                    color=color,
                )
        ax.axhline(
            1.0, color="0.4", linestyle="--", linewidth=1.0, label="bound / T = 1 (above: vacuous)"
        )
        if kind == "label":
            ax.set_xlabel(r"label noise rate $\eta$ (fraction of labels flipped)")
        else:
            ax.set_xlabel(r"instance noise $\sigma$ (std. of Gaussian noise on x)")
        ax.set_ylabel("mistakes or bound, as a fraction of T")
        ax.set_yscale("log")
        ax.set_title(f"Perceptron vs {kind} noise (T = {part[0]['n_trials']} trials)", fontsize=10)
        ax.grid(alpha=0.3, which="both")
    shared_legend(fig, axes[0, 0], title=NOISE_NOTATION)
    return fig


def plot_radius_curve(records):
    """Ballseptron mistakes/T and margin errors/T against the radius r (paper 004, Fig. 3 top).

    Parameters
    ----------
    records : list of dict
        The table of :func:`perceptron_bounds.experiments.radius_curve`; when
        records carry a ``dataset`` key, one panel per data set.

    Returns
    -------
    matplotlib.figure.Figure
    """
    records = check_records(records, "radius_curve", ("r", "mistake_rate", "margin_error_rate"))
    sets = distinct(records, "dataset")
    fig, axes = new_figure(1, len(sets), (6.4 * len(sets), 4.4))
    for j, name in enumerate(sets):
        ax = axes[0, j]
        part = [row for row in records if row.get("dataset") == name]
        mean_line(
            ax,
            part,
            "r",
            "mistake_rate",
            label=r"prediction mistakes $\epsilon$ / T",
            marker="o",
            color="C3",
        )
        native = any(row.get("multiclass") == "native" for row in part)
        # what makes a margin error, binary (theory §2.3) or native multiclass (§2.6)
        condition = presentation(BALLSEPTRON.name).margin_error[1 if native else 0]
        mean_line(
            ax,
            part,
            "r",
            "margin_error_rate",
            label=rf"margin errors $\tilde\epsilon$ / T ({condition})",
            marker="s",
            color="C0",
            linestyle="--",
        )
        perceptron = [row["mistake_rate"] for row in part if row["r"] == 0.0]
        if perceptron:
            ax.axhline(
                np.mean(perceptron),
                color="0.5",
                linestyle=":",
                linewidth=1.0,
                label="Perceptron's mistakes / T (r = 0)",
            )
        ax.set_xlabel("Ballseptron radius r (r = 0 is the Perceptron)")
        ax.set_ylabel("count / T (fraction of the T trials)")
        title = "Ballseptron vs radius r" + ("" if name is None else f"\n{name}")
        ax.set_title(title, fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    return fig


def plot_sop_toy(records):
    """Test mistakes of FO and SO(a) on the two toy data sets (paper 003, sec. 5 table).

    Parameters
    ----------
    records : list of dict
        The table of :func:`perceptron_bounds.experiments.sop_toy`.

    Returns
    -------
    matplotlib.figure.Figure
        Grouped bars: mean test mistakes over permutations, error bars of one
        standard deviation, one group per data set; the legend, right of the
        bars, spells out FO and SO(a) (see :func:`curve_legend`).
    """
    records = check_records(records, "sop_toy", ("target", "label", "test_mistakes"))
    targets = distinct(records, "target")
    labels = distinct(records, "label")
    legends = _curve_legends(records, labels)
    fig, axes = new_figure(1, 1, (8.0, 4.4))
    ax = axes[0, 0]
    width = 0.8 / len(labels)
    for i, label in enumerate(labels):
        rows = summarize([r for r in records if r["label"] == label], ["target"], "test_mistakes")
        by_target = {row["target"]: row for row in rows}
        x = np.arange(len(targets)) + (i - (len(labels) - 1) / 2) * width
        mean = [by_target[t]["mean"] for t in targets]
        std = [by_target[t]["std"] for t in targets]
        bars = ax.bar(
            x, mean, width * 0.95, yerr=std, capsize=3, label=legends[label].text, color=f"C{i}"
        )
        for bar, value, spread in zip(bars, mean, std, strict=True):  # above the error bar
            ax.annotate(
                f"{value:.1f}",
                (bar.get_x() + bar.get_width() / 2, value + spread),
                ha="center",
                va="bottom",
                xytext=(0, 2),
                textcoords="offset points",
                fontsize=7,
            )
    names = {
        "dominant": "data set 1: target = dominant\neigenvector",
        "nondominant": "data set 2: target = non-dominant\neigenvector",
    }
    ax.set_xticks(np.arange(len(targets)), [names.get(t, t) for t in targets], fontsize=9)
    n_test = records[0]["n_test"]
    n_perm = len(distinct(records, "permutation"))
    ax.set_ylabel(f"test mistakes (of {n_test} test examples)")
    ax.set_title(
        "Perceptron vs Second-Order Perceptron, final classifier\n"
        f"mean ± std over {n_perm} training-set permutations",
        fontsize=10,
    )
    ax.margins(y=0.15)
    ax.set_ylim(bottom=0)  # mistakes are counts: a mean - std below 0 is clipped
    ax.grid(alpha=0.3, axis="y")
    shared_legend(fig, ax)
    return fig
