"""Tracking a moving target: mistakes and bounds against the number of shifts (theory §4.15).

Drawn from the records of :func:`perceptron_bounds.papers.tracking.tracking_records`.
"""

from __future__ import annotations

import numpy as np

from .curves import check_records, distinct, new_figure
from .style import MARKERS

#: The record keys :func:`plot_tracking` reads.
KEYS = ("algorithm", "label", "n_shifts", "mistakes", "best_fixed", "best_shifting")


def _mean(rows, key):
    values = [row[key] for row in rows if row[key] is not None and np.isfinite(row[key])]
    return float(np.mean(values)) if values else np.nan


def plot_tracking(records, *, target_shifts=10, target_algorithm=None,
                  xlabel="number of shifts of the target (abrupt)",
                  title="Tracking a moving target: mistakes and bounds against the number of "
                  "shifts"):
    """Mistakes (solid), best shifting bound (dashed) and best fixed bound (dotted) per
    algorithm against the number of shifts, on a log scale; the ratio of the two bounds of
    ``target_algorithm`` (a registered name; None: no ratio) at ``target_shifts`` written on
    the panel.

    Parameters
    ----------
    records : list of dict
        One record per (algorithm, number of shifts, seed) with the keys :data:`KEYS`.
    xlabel, title : str
        The axis label of the number of shifts, and the title (the comparison appended).

    Returns
    -------
    matplotlib.figure.Figure
    """
    records = check_records(records, "tracking_records", KEYS)
    fig, axes = new_figure(1, 1, (11.5, 5.2))
    ax = axes[0][0]
    shifts = sorted({row["n_shifts"] for row in records})
    x = np.array([max(s, 0.5) for s in shifts], dtype=float)  # 0 shifts drawn at 0.5
    comparison = ""
    for i, algorithm in enumerate(distinct(records, "algorithm")):
        rows = [row for row in records if row["algorithm"] == algorithm]
        color, marker = f"C{i}", MARKERS[i % len(MARKERS)]
        label = rows[0]["label"]
        for key, style, what in (("mistakes", "-", "mistakes"),
                                 ("best_shifting", "--", "best shifting bound"),
                                 ("best_fixed", ":", "best fixed-comparator bound")):
            y = [_mean([r for r in rows if r["n_shifts"] == s], key) for s in shifts]
            ax.plot(x, y, style, color=color, marker=marker if key == "mistakes" else None,
                    label=f"{label}: {what}")
        if algorithm == target_algorithm and target_shifts in shifts:
            at = [r for r in rows if r["n_shifts"] == target_shifts]
            shifting, fixed = _mean(at, "best_shifting"), _mean(at, "best_fixed")
            if np.isfinite(shifting) and np.isfinite(fixed):
                ax.plot([target_shifts], [shifting], "*", color=color, markersize=13)
                comparison = (f"\n{label}, {target_shifts} shifts (star): best shifting "
                              f"{shifting:.4g},\nbest fixed {fixed:.4g} "
                              f"(fixed / shifting = {fixed / shifting:.2f})")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(x)
    ax.set_xticklabels([str(s) for s in shifts])
    ax.set_xticks([], minor=True)  # log-axis minor labels (6 x 10^-1) on a short range
    ax.set_xlabel(xlabel)
    ax.set_ylabel("mistakes / bound on the mistakes")
    ax.set_title(title + comparison, fontsize=10)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), ncols=1)
    return fig
