"""Tracking a moving target (Cavallanti, Cesa-Bianchi, Gentile 2007; Herbster, Warmuth 2001).

- ``tracking``: on abrupt drift (``make_drifting``) with 0..50 shifts, the mistakes of
  the Perceptron, the shifting Perceptron and the projected Perceptron beside their best
  fixed-comparator bound and their best shifting bound against the true target sequence
  (theory §4.14, §4.15).
- ``tracking-mnist``: the same on MNIST made to drift: a stream of training images in
  file order whose positive class (one digit against the rest) switches every S images,
  against the number of switches; the comparator sequence is piecewise constant at the
  switch times, a linear SVM direction per piece.

Neither paper could be read here: no number of theirs is compared; the figure states ours.
"""

from __future__ import annotations

import math

import numpy as np

from .._validation import check_bool
from ..bounds import evaluate
from ..bounds.tracking import svm_direction
from ..datasets import make_drifting, normalize_rows
from ..experiments._cells import check_n_jobs
from ..online import run_online
from ..plots.style import add_caption
from ..plots.tracking import plot_tracking
from .common import (
    Reproduction,
    bound_text,
    load_real,
    markdown_table,
    provenance,
    provenance_line,
    seed_range,
    size_line,
)

SYNTHETIC = {"n_samples": 20000, "n_features": 10, "margin": 0.2, "label_noise": 0.0}
SYNTHETIC_QUICK = dict(SYNTHETIC, n_samples=4000)
SHIFTS = (0, 1, 2, 5, 10, 20, 50)
SHIFTS_QUICK = (0, 2, 10)
#: The algorithms and their parameters (the decay and the radius fixed, not tuned per point).
ALGORITHMS = (("perceptron", {}, "Perceptron"),
              ("shifting_perceptron", {"decay": 5.0}, "shifting Perceptron (decay 5)"),
              ("projected_perceptron", {"radius": 20.0}, "projected Perceptron (D = 20)"))


def _best(rows, shifting, variant):
    values = [row.value for row in rows if row.applies and row.variant == variant and
              (("shifting" in row.name or "tracking" in row.name) == shifting)]
    return min(values) if values else math.nan


def tracking_records(*, seeds=None, quick=False, n_jobs=None, progress=False) -> list[dict]:
    """The records of ``tracking``: per number of shifts, seed and algorithm, the mistakes,
    the best fixed-comparator bound (SVM directions) and the best shifting bound at the
    true sequence, each stated (hinge losses over every trial, as theory §4.15 states the
    bounds) and tightened (over the mistakes, theory §4.2).

    The data: ``make_drifting(20000, 10, n_shifts=s, drift="abrupt", margin=0.2,
    seed=seed)`` (quick: 4000 samples and shifts 0, 2, 10), one pass in order.
    """
    quick = check_bool("quick", quick)
    config = SYNTHETIC_QUICK if quick else SYNTHETIC
    seed_list = list(seed_range(seeds, 1 if quick else 2))
    meta = provenance("tracking", quick=quick, n_seeds=len(seed_list), **config)
    records = []
    for n_shifts in SHIFTS_QUICK if quick else SHIFTS:
        for seed in seed_list:
            X, y, U = make_drifting(config["n_samples"], config["n_features"],
                                    n_shifts=n_shifts, margin=config["margin"],
                                    label_noise=config["label_noise"], seed=seed)
            records += _runs(meta, X, y, U, n_shifts=n_shifts, seed=seed)
    return records


def _runs(meta, X, y, U, algorithms=ALGORITHMS, **columns) -> list[dict]:
    """One record per algorithm of ``algorithms``: one pass over (X, y) in order, its
    mistakes and its best fixed and shifting bounds (against U), stated and tightened."""
    records = []
    for name, params, label in algorithms:
        run = run_online(name, X, y, **params)
        report = evaluate(run, X, y, u=U)
        records.append({**meta, **columns, "algorithm": name, "label": label,
                        "mistakes": run.mistakes,
                        "best_fixed": _best(report.rows, False, "stated"),
                        "best_shifting": _best(report.rows, True, "stated"),
                        "best_fixed_tightened": _best(report.rows, False, "tightened"),
                        "best_shifting_tightened": _best(report.rows, True, "tightened")})
    return records


def draw_tracking(records, **options):
    """The figure of :func:`tracking_records`, with its caption."""
    fig = plot_tracking(records, target_algorithm="shifting_perceptron")
    first = records[0]
    add_caption(
        fig,
        f"Data: make_drifting, T = {first['n_samples']}, n = {first['n_features']}, abrupt "
        f"switches to fresh random unit targets, margin {first['margin']:g}, label noise "
        f"{first['label_noise']:g}; one pass in order, mean over seeds. Dotted: the smallest "
        "fixed-comparator bound of the run (its registered bounds at linear SVM directions); "
        "dashed: the smallest shifting bound against the true target sequence (theory "
        "§4.15, derived); both stated, hinge losses over every trial. The tightened "
        "variants (over the mistakes, in the CSV) sit near the mistakes for both kinds.",
        provenance_line(first),
    )
    return fig


#: tracking-mnist: training images streamed, and the numbers of switches of the positive class.
MNIST = {"n_images": 10000, "switches": (0, 1, 2, 5, 10, 20)}
MNIST_QUICK = {"n_images": 2000, "switches": (0, 2, 5)}
#: On MNIST the ball is smaller: the Perceptron's weights on unit rows stay near norm 10 over
#: a few hundred mistakes, and a radius of 20 would never project.
MNIST_ALGORITHMS = (ALGORITHMS[0], ALGORITHMS[1],
                    ("projected_perceptron", {"radius": 3.0}, "projected Perceptron (D = 3)"))


def drifting_digits(labels, n_switches: int, seed: int):
    """The labels of a stream whose positive digit switches ``n_switches`` times, at equal
    intervals: segment j's positive digit is ``order[j % 10]``, ``order`` a permutation of
    0..9 drawn with ``seed`` (consecutive segments never share their digit).

    Returns
    -------
    y : ndarray of {-1, +1}
    segment : ndarray of int, the segment of every image
    positive : ndarray of int, segment j's positive digit
    """
    T = labels.shape[0]
    order = np.random.default_rng(seed).permutation(10)
    segment = np.arange(T) * (n_switches + 1) // T
    positive = order[np.arange(n_switches + 1) % 10]
    return np.where(labels == positive[segment], 1, -1), segment, positive


def tracking_mnist_records(*, seeds=None, quick=False, n_jobs=None, progress=False,
                           cache=None, data_home=None, download=False) -> list[dict]:
    """The records of ``tracking-mnist``: per number of switches S and seed, each algorithm
    of :data:`ALGORITHMS` on the first ``n_images`` MNIST training images of unit norm in
    file order, labelled +1 when the image shows the segment's positive digit
    (:func:`drifting_digits`, the seed draws the digits' order). The comparator sequence:
    on each segment the unit direction of a linear SVM trained on it (C = 1), so its hinge
    losses and its S jumps are those of a learner told the switch times; the fixed bounds
    use the run's own SVM directions over the whole stream. ``n_jobs`` and ``cache`` are
    the real-data figures' options; the runs are made one after the other and not cached.
    """
    check_n_jobs(n_jobs)
    quick = check_bool("quick", quick)
    config = MNIST_QUICK if quick else MNIST
    train, _ = load_real("mnist", data_home, download)
    n = min(config["n_images"], train.X.shape[0])
    X = normalize_rows(np.asarray(train.X[:n], dtype=np.float64))
    labels = np.asarray(train.y[:n])
    seed_list = list(seed_range(seeds, 1))
    meta = provenance("tracking-mnist", quick=quick, n_seeds=len(seed_list), data="mnist",
                      n_images=n)
    records = []
    for n_switches in config["switches"]:
        for seed in seed_list:
            y, segment, positive = drifting_digits(labels, n_switches, seed)
            U = np.empty_like(X)
            for j in range(n_switches + 1):
                rows = np.flatnonzero(segment == j)
                U[rows] = svm_direction(X, y, rows[0], rows[-1] + 1)[0]
            records += _runs(meta, X, y, U, MNIST_ALGORITHMS, n_shifts=n_switches, seed=seed,
                             digits=" ".join(str(d) for d in positive))
    return records


def draw_tracking_mnist(records, **options):
    """The figure of :func:`tracking_mnist_records`, with its caption."""
    first = records[0]
    fig = plot_tracking(records, target_algorithm="shifting_perceptron",
                        xlabel="number of switches of the positive digit",
                        title=f"MNIST made to drift ({first['n_images']} images): mistakes "
                        "and bounds against the number of switches")
    add_caption(
        fig,
        f"Data: the first {first['n_images']} MNIST training images in file order, unit "
        "norm; +1 for the segment's positive digit, -1 for the rest; the positive digit "
        "switches S times at equal intervals (digit order drawn per seed). One pass, mean "
        "over seeds. Dotted: the smallest fixed-comparator bound (registered bounds at linear "
        "SVM directions over the whole stream); dashed: the smallest shifting bound (theory "
        "§4.15) against the sequence of per-segment linear SVM directions; both stated.",
        provenance_line(first),
    )
    return fig


def tracking_mnist_markdown(records) -> str:
    """The report of :func:`tracking_mnist_records`: one row per switches, seed, algorithm."""
    meta = records[0]
    rows = [[row["n_shifts"], row["seed"], row["digits"], row["label"], row["mistakes"],
             *(bound_text(row[key]) for key in ("best_fixed", "best_shifting",
                                                "best_fixed_tightened",
                                                "best_shifting_tightened"))]
            for row in records]
    return "\n".join([
        "# MNIST made to drift: mistakes, fixed and shifting bounds",
        "",
        size_line(meta) + f" The first {meta['n_images']} training images, one pass; no paper "
        "number to compare (neither tracking paper is readable here).",
        "",
        markdown_table(["switches", "seed", "positive digits", "algorithm", "mistakes",
                        "best fixed", "best shifting", "fixed, tightened",
                        "shifting, tightened"], rows),
        "",
        f"_{provenance_line(meta)}_",
    ])


tracking_mnist = Reproduction("tracking-mnist", "figure", "CCG07 / HW01 tracking on MNIST "
                              "(bounds derived here)", tracking_mnist_records,
                              draw_tracking_mnist, tracking_mnist_markdown, real=True,
                              quick=MNIST_QUICK)


tracking = Reproduction("tracking", "figure", "CCG07 / HW01 tracking (bounds derived here)",
                        tracking_records, draw_tracking, quick=SYNTHETIC_QUICK)
