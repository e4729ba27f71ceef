"""Selective sampling (Cesa-Bianchi, Gentile, Zaniboni, JMLR 2006): the labels-mistakes trade-off.

- ``selective-sampling``: for a range of b, the fraction of labels queried against the
  online mistakes and the test error, for the selective-sampling Perceptron and
  Second-Order Perceptron and their fully supervised counterparts, with the
  expected-mistake bounds (theory §2.14, §4.13); on a synthetic task, or on a data file;
- ``selective-sampling --data mnist``: the same on a binary task of a real data set of
  the data home (MNIST 3 against 5; every data set of :data:`TASKS` whose loader the
  data home knows), with a report.

The paper could not be read here: no number of it is compared; the report states ours.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_bool
from ..bounds.search import svm_comparators
from ..datasets import make_separable, normalize_rows
from ..datasets.real import FASHION_MNIST_CLASSES
from ..experiments._cells import as_xy, check_n_jobs
from ..experiments.selective import selective_curve
from ..kernels import Kernel
from ..plots import plot_selective_sampling
from ..plots.style import add_caption
from .common import (
    LOADERS,
    Reproduction,
    load_real,
    markdown_table,
    mean_of,
    percent,
    provenance,
    provenance_line,
    seed_range,
    size_line,
    subsample,
)

#: The synthetic task: unit-norm instances, margin 0.05, 5% of the labels flipped; a
#: held-out part of the same draw is the test set.
SYNTHETIC = {"n_samples": 3000, "n_test": 1000, "n_features": 20, "margin": 0.05,
             "label_noise": 0.05}
SYNTHETIC_QUICK = dict(SYNTHETIC, n_samples=600, n_test=300)
B_VALUES = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
B_QUICK = (0.03, 0.3, 3.0)

#: The binary task of each real data set: (positive class, negative class). A data set
#: whose loader :data:`~perceptron_bounds.papers.common.LOADERS` lacks is left out.
TASKS = {"mnist": (3, 5), "fashion-mnist": (6, 0)}  # fashion: shirt against T-shirt/top
REAL_SEEDS = 3
REAL_QUICK = {"n_train": 1000, "n_test": 500, "seeds": 2}


def selective_sampling_records(*, seeds=None, quick=False, n_jobs=None, progress=False,
                               data=None, name="given data") -> list[dict]:
    """The records of ``selective-sampling`` on the synthetic task, or on given data.

    Synthetic: ``make_separable(3000 + 1000, 20, margin=0.05, label_noise=0.05,
    seed=0)``, the last 1000 rows held out; u = the generating separator. ``data`` (an
    ``(X, y)`` pair with two labels, called ``name``) replaces it: its rows scaled to
    unit norm, the last fifth held out, u the normalised linear SVM directions (the
    smallest bound over them). Each seed s (default 3; quick: 2) is a run with
    ``shuffle=True, seed=s`` of every algorithm, for b in :data:`B_VALUES`
    (quick: :data:`B_QUICK`).
    """
    check_n_jobs(n_jobs)
    quick = check_bool("quick", quick)
    seed_list = list(seed_range(seeds, 2 if quick else 3))
    b_values = B_QUICK if quick else B_VALUES
    if data is None:
        config = SYNTHETIC_QUICK if quick else SYNTHETIC
        n, n_test = config["n_samples"], config["n_test"]
        X, y, u = make_separable(n + n_test, config["n_features"], margin=config["margin"],
                                 label_noise=config["label_noise"], seed=0)
        meta = provenance("selective-sampling", quick=quick, n_seeds=len(seed_list), **config,
                          data_seed=0)
        name = (f"make_separable: T = {n} (+ {n_test} held out), n = {config['n_features']}, "
                f"margin {config['margin']:g}, label noise {config['label_noise']:g}")
        comparators = [u]
    else:
        X, y = as_xy(data, "data")
        X = normalize_rows(X)
        n = X.shape[0] - X.shape[0] // 5
        meta = provenance("selective-sampling", quick=quick, n_seeds=len(seed_list),
                          data=name, n_samples=n, n_features=X.shape[1])
        comparators = [c.u for c in svm_comparators(X[:n], y[:n], Kernel())]
    rows = selective_curve(b_values, (X[:n], y[:n]), test=(X[n:], y[n:]), u=comparators,
                           seeds=seed_list, n_jobs=n_jobs, progress=progress)
    return [{**meta, "dataset": name, **row} for row in rows]


def _caption(fig, meta, data_line):
    add_caption(
        fig,
        f"Data: {data_line}. Each point: one b, mean over seeds (± 1 std) of one pass in a "
        "random order; the selective algorithms ask for a label with probability "
        "b / (b + |margin|) and update only on queried mistakes, but every mistake counts. "
        "Dashed: the bound on the expected mistakes (theory §4.13), the smallest over the "
        "comparators and gamma, averaged over the seeds. Stars: the fully supervised "
        "algorithms.",
        provenance_line(meta),
    )
    return fig


def draw_selective_sampling(records, **options):
    """The figure of :func:`selective_sampling_records`."""
    return _caption(plot_selective_sampling(records), records[0], records[0]["dataset"])


def selective_sampling_real_records(name: str = "mnist", *, seeds=None, quick=False,
                                    n_jobs=None, progress=False, cache=None, data_home=None,
                                    download=False) -> list[dict]:
    """``selective-sampling`` on the binary task :data:`TASKS` of a real data set.

    Raw pixels scaled to unit-norm rows; the training and test images of the two
    classes (quick: 1000 training and 500 test rows drawn from them, 2 seeds; else
    all of them, 3 seeds); u the normalised linear SVM directions. ``cache`` is not
    kept: a ``ValueError`` when given.
    """
    check_n_jobs(n_jobs)
    quick = check_bool("quick", quick)
    if name not in real_data_sets():
        raise ValueError(f"name must be one of {', '.join(real_data_sets())}, got {name!r}")
    if cache is not None:
        raise ValueError("selective-sampling keeps no cache: run it without --cache")
    seed_list = list(seed_range(seeds, REAL_QUICK["seeds"] if quick else REAL_SEEDS))
    positive, negative = TASKS[name]
    train, test = load_real(name, data_home, download)
    parts = []
    for part, size in ((train, "n_train"), (test, "n_test")):
        keep = np.isin(part.y, (positive, negative))
        X, y = subsample(part.X[keep], part.y[keep], REAL_QUICK[size] if quick else None)
        parts.append((normalize_rows(X), np.where(y == positive, 1.0, -1.0)))
    (X, y), held_out = parts
    meta = provenance("selective-sampling", quick=quick, n_seeds=len(seed_list), data=name,
                      positive=positive, negative=negative, n_samples=X.shape[0],
                      n_test=held_out[0].shape[0], n_features=X.shape[1])
    comparators = [c.u for c in svm_comparators(X, y, Kernel())]
    rows = selective_curve(B_QUICK if quick else B_VALUES, (X, y), test=held_out,
                           u=comparators, seeds=seed_list, n_jobs=n_jobs, progress=progress)
    label = f"{_title(name)} {_class_name(name, positive)} against {_class_name(name, negative)}"
    return [{**meta, "dataset": label, **row} for row in rows]


def _title(name: str) -> str:
    return {"mnist": "MNIST", "fashion-mnist": "Fashion-MNIST"}.get(name, name.upper())


def _class_name(name: str, label: int) -> str:
    """A class as a reader knows it: Fashion-MNIST's by its garment ("Shirt (6)"), a digit
    as itself."""
    return f"{FASHION_MNIST_CLASSES[label]} ({label})" if name == "fashion-mnist" else str(label)


def real_data_sets() -> tuple[str, ...]:
    """The data sets of :data:`TASKS` that the data home can load."""
    return tuple(name for name in TASKS if name in LOADERS)


def draw_selective_sampling_real(records, *args, **options):
    """The figure of :func:`selective_sampling_real_records`."""
    meta = records[0]
    line = (f"{meta['dataset']} (+1 / -1), T = {meta['n_samples']} training images "
            f"({meta['n_test']} held out), raw pixels scaled to unit-norm rows, u: linear SVM "
            "directions")
    return _caption(plot_selective_sampling(records), meta, line)


def selective_markdown(records) -> str:
    """The report: per algorithm and b, labels queried, mistakes/T, test error, bound/T."""
    meta = records[0]
    keys = []
    for row in records:
        if (row["algorithm"], row["b"]) not in keys:
            keys.append((row["algorithm"], row["b"]))
    table = []
    for algorithm, b in keys:
        where = {"algorithm": algorithm, "b": b}
        bound = mean_of(records, "bound_rate", **where)
        table.append([algorithm, "every label" if b is None else f"{b:g}",
                      percent(mean_of(records, "query_rate", **where)),
                      percent(mean_of(records, "mistake_rate", **where)),
                      percent(mean_of(records, "test_error", **where)),
                      "-" if bound is None else f"{bound:.3g}"])
    return "\n".join([
        f"# Selective sampling on {meta['dataset']}",
        "",
        size_line(meta) + f" T = {meta['n_samples']} rounds, {meta['n_seeds']} seed(s), "
        "means over seeds.",
        "",
        markdown_table(["algorithm", "b", "labels queried", "mistakes / T", "test error",
                        "bound on E[mistakes] / T"], table),
        "",
        "The paper (Cesa-Bianchi, Gentile, Zaniboni, JMLR 2006) could not be read here, so "
        "none of its numbers is compared; the bounds are those proved in theory §4.13.",
        "",
        f"_{provenance_line(meta)}_",
    ])


#: The declarations; calling one returns ``(records, figure)`` (the real-data one: and the
#: Markdown report).
selective_sampling = Reproduction(
    "selective-sampling", "figure", "CGZ06 selective sampling: labels against mistakes",
    selective_sampling_records, draw_selective_sampling, options=("data",),
    quick=SYNTHETIC_QUICK)
selective_sampling_real = Reproduction(
    "selective-sampling", "figure", "CGZ06 selective sampling on a real binary task",
    selective_sampling_real_records, draw_selective_sampling_real, selective_markdown,
    options=("data",), real=True, quick=REAL_QUICK, data=real_data_sets())
