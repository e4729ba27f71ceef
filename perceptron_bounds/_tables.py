"""Tidy tables (lists of dicts) shared by the experiments and the plots.

A base module: it imports nothing from the package, so that
``perceptron_bounds.experiments`` and ``perceptron_bounds.plots`` can both use
it without importing each other.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def summarize(records: Sequence[dict], by: Sequence[str], value: str) -> list[dict]:
    """Mean, standard deviation (ddof=1; 0 for one value) and count of ``value`` per group.

    Groups keep the order in which they first appear in ``records``.

    Examples
    --------
    >>> rows = [{"a": 1, "v": 1.0}, {"a": 1, "v": 3.0}, {"a": 2, "v": 5.0}]
    >>> for row in summarize(rows, by=["a"], value="v"):
    ...     print(row["a"], row["mean"], round(row["std"], 3), row["n"])
    1 2.0 1.414 2
    2 5.0 0.0 1
    """
    groups: dict[tuple, list[float]] = {}
    for record in records:
        groups.setdefault(tuple(record[key] for key in by), []).append(float(record[value]))
    out = []
    for key, values in groups.items():
        arr = np.asarray(values)
        std = float(arr.std(ddof=1)) if arr.size > 1 else 0.0
        out.append(
            {
                **dict(zip(by, key, strict=True)),
                "mean": float(arr.mean()),
                "std": std,
                "n": int(arr.size),
            }
        )
    return out


def run_label(row: dict) -> str:
    """The name of a bound atlas record's run: its algorithm, with the setting of a variant the
    algorithm declares (the ``setting`` column) in brackets.

    Examples
    --------
    >>> run_label({"algorithm": "passive_aggressive", "setting": "variant=pa2"})
    'passive_aggressive [variant=pa2]'
    >>> run_label({"algorithm": "perceptron", "setting": None})
    'perceptron'
    """
    setting = row.get("setting")
    return f"{row['algorithm']} [{setting}]" if setting else row["algorithm"]
