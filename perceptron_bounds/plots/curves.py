"""Figures of the papers' experiments, drawn from the experiments' tidy tables.

Each function takes the records an experiment returned and returns the
matplotlib Figure; none calls ``plt.show()``. Curves are the mean over seeds
(or permutations), with error bars of one standard deviation when there is
more than one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from .._tables import summarize
from .style import MARKERS


def legend_label(label: str) -> str:
    """The papers' subscripts as mathtext: ``"HO_4(0.4)"`` -> ``"HO$_{4}$(0.4)"``."""
    return re.sub(r"_(\w+)", r"$_{\1}$", label)


def _new_figure(nrows: int, ncols: int, size: tuple[float, float]):
    from matplotlib.figure import Figure

    fig = Figure(figsize=size, layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False)
    return fig, axes


def _distinct(records: Sequence[dict], key: str) -> list:
    seen: list = []
    for record in records:
        if record.get(key) not in seen:
            seen.append(record.get(key))
    return seen


def _check_records(records, experiment: str, keys: Sequence[str]) -> list[dict]:
    records = list(records)
    if not records:
        raise ValueError(f"no records to plot; pass the table {experiment} returned")
    missing = [key for key in keys if key not in records[0]]
    if missing:
        raise ValueError(f"records lack {', '.join(missing)}; pass the table {experiment} returned")
    return records


def _mean_line(ax, records, x, y, *, label, marker, linestyle="-", color=None):
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
        2 x k axes: updates and test error for each column, one line per label.

    Notes
    -----
    Paper 000, Figure 2: "Training updates vs training epochs" and "Test
    error rates vs training epochs" on Artificial 0.0 (left) and 0.1 (right),
    epochs 1, 2, 3, 5, 10, 15, 20, for FO = HO_2(0.0), SO (a = 0.2),
    HO_2(0.4), HO_4(0.4), HO_7(0.0), HO_7(0.4).
    """
    records = _check_records(records, "epochs_curve", ("label", "epochs", "updates", "test_error"))
    columns = _distinct(records, panel)
    labels = _distinct(records, "label")
    fig, axes = _new_figure(2, len(columns), (5.2 * len(columns), 7.2))
    for j, value in enumerate(columns):
        part = [row for row in records if row.get(panel) == value]
        name = "" if value is None else f" ({_symbol(panel)} = {value})"
        for i, label in enumerate(labels):
            rows = [row for row in part if row["label"] == label]
            style = "--" if re.search(r"\(0(\.0*)?\)$", label) else "-"
            for k, key in enumerate(("updates", "test_error")):
                _mean_line(
                    axes[k, j],
                    rows,
                    "epochs",
                    key,
                    label=legend_label(label),
                    marker=MARKERS[i % len(MARKERS)],
                    linestyle=style,
                    color=f"C{i}",
                )
        epochs = sorted({row["epochs"] for row in part})
        for k, title in enumerate(("Training updates vs epochs", "Test error vs epochs")):
            ax = axes[k, j]
            ax.set_title(title + name, fontsize=10)
            ax.set_xlabel("training epochs")
            ax.set_xticks(epochs)
            ax.grid(alpha=0.3)
        axes[0, j].set_ylabel("training updates (cumulative mistakes)")
        axes[1, j].set_ylabel("test error rate")
        axes[1, j].yaxis.set_major_formatter(_percent())
    axes[0, 0].legend(fontsize=8, loc="upper left")
    return fig


def _symbol(key: str) -> str:
    """Greek keys as mathtext (``eta`` -> ``$\\eta$``); other keys unchanged."""
    return f"$\\{key}$" if key in ("eta", "sigma", "gamma", "rho") else key


def _percent():
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(xmax=1.0)


_NOISE_LINES = (
    ("mistake_rate", "Perceptron mistakes / T", "k", "o", "-"),
    ("d2_bound_rate", r"$D_2$-bound / T ($\gamma$ = {gamma:g})", "C3", "s", "-"),
    ("d1_bound_rate", r"$D_1$-bound / T ($\gamma$ = {gamma:g})", "C0", "^", "-"),
    ("d2_best_rate", r"$D_2$-bound / T (best $\gamma$)", "C3", None, ":"),
    ("d1_best_rate", r"$D_1$-bound / T (best $\gamma$)", "C0", None, ":"),
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

    Notes
    -----
    Paper 004, Fig. 3 bottom: the D2-bound (Freund-Schapire, eq. 3) and the
    D1-bound (Thm 2) of the Perceptron over T = 10,000 trials against eta
    (label noise) and sigma (instance noise). A bound above the dotted line
    bound/T = 1 says nothing.
    """
    records = _check_records(records, "noise_curve", ("kind", "level", "mistake_rate"))
    kinds = _distinct(records, "kind")
    fig, axes = _new_figure(1, len(kinds), (5.2 * len(kinds), 4.0))
    for j, kind in enumerate(kinds):
        ax = axes[0, j]
        part = [row for row in records if row["kind"] == kind]
        gamma = part[0]["gamma"]
        for key, text, color, marker, style in _NOISE_LINES:
            if key in part[0]:
                _mean_line(
                    ax,
                    part,
                    "level",
                    key,
                    label=text.format(gamma=gamma),
                    marker=marker,
                    linestyle=style,
                    color=color,
                )
        ax.axhline(1.0, color="0.4", linestyle="--", linewidth=1.0, label="bound / T = 1")
        symbol = r"$\eta$" if kind == "label" else r"$\sigma$"
        ax.set_xlabel(f"{kind} noise {symbol}")
        ax.set_ylabel("fraction of T")
        ax.set_yscale("log")
        ax.set_title(f"Bounds vs {kind} noise (T = {part[0]['n_trials']})", fontsize=10)
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=7, loc="lower right")
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
    records = _check_records(records, "radius_curve", ("r", "mistake_rate", "margin_error_rate"))
    sets = _distinct(records, "dataset")
    fig, axes = _new_figure(1, len(sets), (6.4 * len(sets), 4.2))
    for j, name in enumerate(sets):
        ax = axes[0, j]
        part = [row for row in records if row.get("dataset") == name]
        _mean_line(
            ax,
            part,
            "r",
            "mistake_rate",
            label=r"prediction mistakes $\epsilon$ / T",
            marker="o",
            color="C3",
        )
        _mean_line(
            ax,
            part,
            "r",
            "margin_error_rate",
            label=r"margin errors $\tilde\epsilon$ / T",
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
                label="Perceptron (r = 0)",
            )
        ax.set_xlabel("radius r")
        ax.set_ylabel("fraction of T")
        title = "Ballseptron vs radius" + ("" if name is None else f"\n{name}")
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
        standard deviation, one group per data set.
    """
    records = _check_records(records, "sop_toy", ("target", "label", "test_mistakes"))
    targets = _distinct(records, "target")
    labels = _distinct(records, "label")
    fig, axes = _new_figure(1, 1, (6.0, 4.0))
    ax = axes[0, 0]
    width = 0.8 / len(labels)
    for i, label in enumerate(labels):
        rows = summarize([r for r in records if r["label"] == label], ["target"], "test_mistakes")
        by_target = {row["target"]: row for row in rows}
        x = np.arange(len(targets)) + (i - (len(labels) - 1) / 2) * width
        mean = [by_target[t]["mean"] for t in targets]
        std = [by_target[t]["std"] for t in targets]
        bars = ax.bar(
            x, mean, width * 0.95, yerr=std, capsize=3, label=legend_label(label), color=f"C{i}"
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
    n_perm = len(_distinct(records, "permutation"))
    ax.set_ylabel(f"test mistakes (of {n_test})")
    ax.set_title(
        f"Perceptron vs Second-Order, mean and std over {n_perm} permutations", fontsize=10
    )
    ax.margins(y=0.15)
    ax.set_ylim(bottom=0)  # mistakes are counts: a mean - std below 0 is clipped
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, axis="y")
    return fig
