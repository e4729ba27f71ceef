"""Across the papers: every algorithm's mistakes against every bound that applies, on MNIST.

- ``bounds-mnist``: "d against the rest" (paper 001's Table 3 takes d = 9), one pass
  per registered algorithm, each bound of :func:`~perceptron_bounds.bounds.evaluate`
  with the comparator and margin that make it smallest (theory §4.3).
"""

from __future__ import annotations

import numpy as np

from .._validation import check_bool, check_int
from ..algorithms import available
from ..datasets import normalize_rows
from ..experiments import bound_ratios
from ..experiments._cells import check_n_jobs
from ..plots import plot_bound_ratios
from ..plots.style import add_caption
from .common import (
    Reproduction,
    check_names,
    load_real,
    markdown_table,
    provenance,
    provenance_line,
    seed_range,
    size_line,
    subsample,
)

#: The bounds figure: "d against the rest" on MNIST (paper 001's Table 3 takes 9).
BOUNDS_DIGIT = 9

BOUNDS_QUICK = {"n_train": 2000}


def bounds_mnist_records(*, digit: int = BOUNDS_DIGIT, algorithms=None, seeds=None,
                         quick=False, n_jobs=None, progress=False, cache=None, data_home=None,
                         download=False) -> list[dict]:
    """Every algorithm's mistakes against every bound that applies, on MNIST ``digit`` vs rest.

    The training set (quick: 2000 rows) with rows of unit norm, labels +1 for
    ``digit`` and -1 for the rest; each algorithm (default: every registered one,
    with its defaults, linear) makes one pass in the order given (``seeds``: that many
    shuffled passes); :func:`~perceptron_bounds.bounds.evaluate` with SVM comparators
    and the margin searched per bound.
    """
    check_n_jobs(n_jobs)
    quick = check_bool("quick", quick)
    digit = check_int("digit", digit, low=0, high=9)
    algorithms = available() if algorithms is None else check_names(
        "algorithms", algorithms, available())
    seed_list = None if seeds is None else list(seed_range(seeds, 1))
    train, _ = load_real("mnist", data_home, download)
    X, y = subsample(train.X, train.y, BOUNDS_QUICK["n_train"] if quick else None)
    X = normalize_rows(X)
    y = np.where(y == digit, 1, -1)
    meta = provenance("bounds-mnist", quick=quick, n_seeds=1 if seed_list is None else
                      len(seed_list), data="mnist", digit=digit, n_train=X.shape[0])
    rows = bound_ratios([(name, name, {}) for name in algorithms], (X, y), seeds=seed_list,
                        n_jobs=n_jobs, progress=progress, cache=cache)
    return [{**meta, **row} for row in rows]


def draw_bounds_mnist(records, **options):
    """The figure of :func:`bounds_mnist_records`: mistakes / bound on a log axis."""
    meta = records[0]
    fig = plot_bound_ratios(records)
    add_caption(
        fig,
        f"Data: MNIST training set, {meta['n_train']} images of unit norm, digit "
        f"{meta['digit']} (+1) "
        "against the rest (-1); one pass per algorithm with its default parameters (linear). "
        "Each bound with the SVM comparator and margin gamma that make it smallest (theory "
        "§4.3); a ratio above 1 would be a violated bound.",
        provenance_line(meta),
    )
    return fig


def bounds_markdown(records) -> str:
    """The report of :func:`bounds_mnist_records`: mistakes, bound and ratio per bound."""
    meta = records[0]
    rows = []
    for row in records:
        if row["applies"]:
            rows.append([row["label"], row["mistakes"], row["name"], row["variant"],
                         f"{row['value']:,.1f}", f"{row['ratio']:.3f}",
                         "yes" if row["holds"] else "**NO**"])
    skipped = sorted({f"{row['label']}: {row['name']} ({row['variant']}): {row['reason']}"
                      for row in records if not row["applies"]})
    return "\n".join([
        f"# Mistakes against the papers' bounds: MNIST {meta['digit']} against the rest",
        "",
        size_line(meta) + f" {meta['n_train']} training images of unit norm, one pass.",
        "",
        markdown_table(["algorithm", "mistakes", "bound", "variant", "value",
                        "mistakes / bound", "holds"], rows),
        "",
        "Not applicable:" if skipped else "",
        *[f"- {line}" for line in skipped],
        "",
        f"_{provenance_line(meta)}_",
    ])


#: The declaration; calling it returns ``(records, figure, markdown)``.
bounds_mnist = Reproduction("bounds-mnist", "figure", "papers 001-004: every bound",
                            bounds_mnist_records, draw_bounds_mnist, bounds_markdown,
                            options=("positive_class",), real=True, quick=BOUNDS_QUICK)
