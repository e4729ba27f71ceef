"""Kernel Perceptrons on a budget on MNIST: test error and mistakes against the budget B.

- ``budget-mnist``: "d against the rest" (default 9), one pass of each budget
  algorithm of :data:`BUDGETED` for each B of :data:`BUDGETS` and of the
  unbudgeted kernel Perceptron, with the Gaussian kernel on rows of unit norm
  (K(x, x) = 1: the budget bounds' condition, theory §4.10, §4.11); each run's
  test error on the test set and its smallest bound beside its mistakes.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._validation import check_bool, check_int
from ..datasets import normalize_rows
from ..experiments import budget_curve
from ..experiments._cells import check_n_jobs
from ..plots import plot_budget_curves
from ..plots.style import add_caption
from .common import (
    Reproduction,
    bound_text,
    load_real,
    markdown_table,
    provenance,
    provenance_line,
    seed_range,
    size_line,
    subsample,
)


def _budget(B: int) -> dict:
    return {"budget": B}


#: The budget algorithms drawn, each with its parameters for the budget B.
BUDGETED = {"forgetron": _budget, "randomized_budget_perceptron": _budget}
#: Drawn as a line: the kernel Perceptron, whose supports are its mistakes.
UNBUDGETED = ("perceptron",)
#: The budgets B of the full figure.
BUDGETS = (250, 500, 1000, 2000)
#: The kernel of every run, on rows of unit norm.
KERNEL = {"kernel": "rbf", "gamma": 2.0}

BUDGET_QUICK = {"n_train": 1000, "n_test": 500, "budgets": (10, 30, 100)}


def budget_mnist_records(*, digit: int = 9, seeds=None, quick=False, n_jobs=None,
                         progress=False, cache=None, data_home=None,
                         download=False) -> list[dict]:
    """Test error, mistakes and bound against B on MNIST ``digit`` vs rest (see the module).

    ``seeds``: that many shuffled passes per point (default: one pass in the given
    order). A budget the data set cannot reach (not below its training images) is
    run, with a warning. ``n_jobs`` and ``cache`` are the real-data figures' options; the runs of
    this sweep are made one after the other and kept in no cache.
    """
    check_n_jobs(n_jobs)
    quick = check_bool("quick", quick)
    digit = check_int("digit", digit, low=0, high=9)
    train, test = load_real("mnist", data_home, download)
    X, y = subsample(train.X, train.y, BUDGET_QUICK["n_train"] if quick else None)
    X_test, y_test = subsample(test.X, test.y, BUDGET_QUICK["n_test"] if quick else None)
    budgets = BUDGET_QUICK["budgets"] if quick else BUDGETS
    unreachable = [B for B in budgets if B >= X.shape[0]]
    if unreachable:
        warnings.warn(f"budget-mnist: the budgets {unreachable} are not below the "
                      f"{X.shape[0]} training images of the data home's MNIST: one pass never "
                      "fills them, and those runs are the kernel Perceptron", UserWarning,
                      stacklevel=2)
    seed_list = None if seeds is None else list(seed_range(seeds, 1))
    meta = provenance("budget-mnist", quick=quick, n_seeds=1 if seed_list is None else
                      len(seed_list), data="mnist", digit=digit, n_train=X.shape[0],
                      n_test=X_test.shape[0], **KERNEL)
    rows = budget_curve(BUDGETED, UNBUDGETED,
                        (normalize_rows(X), np.where(y == digit, 1, -1)),
                        (normalize_rows(X_test), np.where(y_test == digit, 1, -1)), budgets,
                        kernel=KERNEL, seeds=seed_list, progress=progress)
    return [{**meta, **row} for row in rows]


def draw_budget_mnist(records, **options):
    """The figure of :func:`budget_mnist_records`."""
    meta = records[0]
    fig = plot_budget_curves(records)
    add_caption(
        fig,
        f"Data: MNIST, {meta['n_train']} training and {meta['n_test']} test images of unit "
        f"norm, digit {meta['digit']} (+1) against the rest (-1); one pass, Gaussian kernel "
        f"exp(-{meta['gamma']:g} ||x - z||^2). Left: test error; right: mistakes of the pass "
        "and each run's smallest bound that applies (theory §4.10 Forgetron, §4.11 RBP, a "
        "bound on the EXPECTED mistakes; §4.1 kernel Perceptron), with the SVM comparator "
        "and margin that make it smallest.",
        provenance_line(meta),
    )
    return fig


def budget_markdown(records) -> str:
    """The report of :func:`budget_mnist_records`: one row per algorithm and budget."""
    meta = records[0]
    rows = [[row["label"], "none" if row["budget"] is None else row["budget"],
             "in order" if row["order"] == "given" else f"shuffled, seed {row['seed']}",
             row["supports"], row["mistakes"], f"{row['test_error']:.4f}",
             bound_text(row["bound"]),
             f"{row['bound_name']} ({row['bound_variant']})" if row["bound_name"] else "none"]
            for row in records]
    return "\n".join([
        f"# Kernel Perceptrons on a budget: MNIST {meta['digit']} against the rest",
        "",
        size_line(meta) + f" {meta['n_train']} training images of unit norm, one pass.",
        "",
        markdown_table(["algorithm", "budget", "pass", "supports", "mistakes", "test error",
                        "bound", "bound name"], rows),
        "",
        f"_{provenance_line(meta)}_",
    ])


#: The declaration; calling it returns ``(records, figure, markdown)``.
budget_mnist = Reproduction("budget-mnist", "figure", "issue 23: budget Perceptrons",
                            budget_mnist_records, draw_budget_mnist, budget_markdown,
                            options=("positive_class",), real=True, quick=BUDGET_QUICK)
