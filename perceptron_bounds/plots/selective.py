"""The selective-sampling trade-off: labels asked for against mistakes and test error.

Drawn from the records of :func:`perceptron_bounds.experiments.selective_curve`
(theory §2.14, §4.13).
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import PercentFormatter

from .curves import check_records, distinct, new_figure
from .style import MARKERS, label_points

#: The record keys :func:`plot_selective_sampling` reads.
KEYS = ("algorithm", "pair", "label", "supervised", "b", "query_rate", "mistake_rate", "test_error",
        "bound_rate")


def _means(rows, key):
    """(b values, mean query rate, mean and std of ``key``) per b of ``rows``, by b."""
    bs = sorted({row["b"] for row in rows})
    query = np.array([np.mean([r["query_rate"] for r in rows if r["b"] == b]) for b in bs])
    values = [[r[key] for r in rows if r["b"] == b and r[key] is not None] for b in bs]
    mean = np.array([np.mean(v) if v else np.nan for v in values])
    std = np.array([np.std(v) if v else np.nan for v in values])
    return bs, query, mean, std


def plot_selective_sampling(records):
    """Mistakes/T (left) and test error (right) against the fraction of labels queried.

    Parameters
    ----------
    records : list of dict
        The table of :func:`perceptron_bounds.experiments.selective_curve`.

    Returns
    -------
    matplotlib.figure.Figure
        One curve per selective-sampling algorithm, a point per b (labelled with b),
        the mean over seeds with error bars of one standard deviation; its expected-
        mistake bound / T dashed in the same colour (left; theory §4.13); the fully
        supervised counterpart as a star at "every label queried" (100%). The test
        error panel is left empty without test data.
    """
    records = check_records(records, "selective_curve", KEYS)
    fig, axes = new_figure(1, 2, (12.0, 4.8))
    left, right = axes[0]
    pairs = distinct(records, "pair")
    points = []  # the b labels, placed once every line and limit is drawn
    for algorithm in distinct(records, "algorithm"):
        rows = [row for row in records if row["algorithm"] == algorithm]
        i = pairs.index(rows[0]["pair"])  # a pair shares its colour
        color, marker = f"C{i}", MARKERS[i % len(MARKERS)]
        label = rows[0]["label"]
        if rows[0]["supervised"]:
            for ax, key in ((left, "mistake_rate"), (right, "test_error")):
                _, query, mean, std = _means(rows, key)
                ax.errorbar(query, mean, yerr=std, marker="*", markersize=13, color=color,
                            linestyle="none", label=f"{label} (every label)")
            continue
        for ax, key in ((left, "mistake_rate"), (right, "test_error")):
            bs, query, mean, std = _means(rows, key)
            ax.errorbar(query, mean, yerr=std, marker=marker, color=color, capsize=2,
                        label=label)
            points.append((ax, color, [(f"b={b:g}", x, value)
                                       for b, x, value in zip(bs, query, mean, strict=True)]))
        bs, query, bound, _ = _means(rows, "bound_rate")
        if np.isfinite(bound).any():
            left.plot(query, bound, linestyle="--", color=color, linewidth=1.2,
                      label=f"{label}: bound on E[mistakes] / T")
    left.set_ylabel("online mistakes / T (every trial counts)")
    right.set_ylabel("test error of the final hypothesis")
    for ax in (left, right):
        ax.set_xlabel("fraction of labels queried")
        ax.xaxis.set_major_formatter(PercentFormatter(1.0))
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
        ax.grid(alpha=0.3)
    low, high = left.get_ylim()
    top = 2.5 * max(row["mistake_rate"] for row in records)
    left.set_ylim(0.0, min(high, top))  # a bound far above leaves through the top
    for ax, color, labels in points:
        label_points(ax, labels, color=color)
    left.legend(fontsize=7)
    left.set_title("mistakes against labels asked for", fontsize=9)
    right.set_title("test error against labels asked for", fontsize=9)
    return fig
