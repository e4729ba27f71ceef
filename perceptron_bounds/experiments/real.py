"""The papers' real-data experiments: configurations behind ``figure`` and ``table``.

Each function reads its data set from the data home
(:func:`~perceptron_bounds.datasets.get_data_home`; never downloading unless
``download=True``), prepares it as its paper did, runs its experiment and
returns ``(records, figure, markdown)``: the tidy table (every record led by
:func:`~perceptron_bounds.experiments.figures.provenance`), the figure, and a
Markdown report that puts the paper's numbers (or its claims, where the
comparison is with claims only) beside ours with the differences stated.

``quick=True`` subsamples (marked in the records, the caption and the report);
``cache=DIR`` keeps every finished cell on disk, so a killed run started again
recomputes nothing that finished (:mod:`._cache`).

- :func:`fs_mnist`: paper 001 sec. 5, Table 1 and Figure 2;
- :func:`ballseptron_radius_real`: paper 004 sec. 5, Fig. 3 top, on MNIST or USPS;
- :func:`hop_ocr` (and :func:`hop_ocr_search`): paper 000 Table 3;
- :func:`hop_rcv1`: paper 000 Table 2;
- :func:`bounds_mnist`: every algorithm's mistakes against every bound, MNIST "d
  against the rest".

Paper 002 is the Higher-Order paper (Brotto, Gentile, Vitale, NIPS 2007, paper
000) cited for its Tables 1-3.
"""

from __future__ import annotations

import os

import numpy as np

from .._interrupt import replacing
from .._validation import check_bool, check_int
from ..algorithms import available
from ..datasets import (
    center_and_scale,
    load_mnist,
    load_rcv1_tasks,
    load_usps,
    normalize_rows,
)
from ..datasets.real import RCV1_TASKS
from ..plots.real import (
    plot_bound_ratios,
    plot_corrections,
    plot_radius_panels,
    plot_voted_epochs,
)
from ..plots.style import add_caption
from ._cache import data_key, run_cached_cells
from ._cells import AlgorithmSpec, check_levels, check_n_jobs
from .bound_ratios import bound_ratios
from .corrections import best_params, corrections_table, cross_validate
from .figures import provenance, provenance_line, save_figure
from .radius import radius_curve
from .voted_epochs import VOTE_PREDICTIONS, prediction_label, voted_epochs_curve

#: The loaders of the data sets the commands name.
LOADERS = {"mnist": load_mnist, "usps": load_usps, "rcv1": load_rcv1_tasks}

#: Paper 001 sec. 5 at the size the machine allows (the paper: 10 permutations, T up to
#: 30), and the quick sizes.
FS_FULL = {"n_train": None, "n_test": None, "degrees": (1, 2, 3, 4, 5, 6),
           "epochs": (0.1, 1, 2), "seeds": 1}
FS_QUICK = {"n_train": 2000, "n_test": 1000, "degrees": (1, 2, 3, 4, 5, 6),
            "epochs": (0.1, 1, 2), "seeds": 1}

#: Paper 004 sec. 5: degree-5 polynomial kernel with bias 1/2, centred and scaled instances.
RADIUS_KERNEL = {"kernel": "poly", "degree": 5, "gamma": 1.0, "coef0": 0.5}
#: The radii, this toolkit's choice (only the paper's claim is compared). Useful radii < 0.3
#: (at r = 0.5 a quarter of 10,000 MNIST rounds are mistakes and the runs grow costly).
RADIUS_RADII = (0.0, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3)
RADIUS_SEEDS = {"mnist": 3, "usps": 3}
RADIUS_QUICK = {"n_train": 2000, "seeds": 2}

#: Paper 002 Table 3: the algorithms (FO = HO_2(0)), the kernels and the paper's numbers.
OCR_ALGORITHMS = {
    "FO": ("perceptron", {}),
    "HO2": ("higher_order", {"p": 2.0}),
    "sparse-HO2": ("higher_order", {"p": 2.0, "sparse": True}),
    "SO": ("second_order", {}),
}
OCR_KERNELS = {"gauss": {"kernel": "rbf"}, "poly": {"kernel": "poly", "gamma": 1.0, "coef0": 1.0}}
#: The 5-fold search: kernel parameter x algorithm parameter (instances of unit norm).
OCR_GRID = {
    "gauss": {"gamma": (1.0, 2.0, 4.0, 8.0)},
    "poly": {"degree": (2, 3, 4, 5, 6)},
    "FO": {},
    "HO2": {"c": (0.2, 0.5, 0.8)},
    "sparse-HO2": {"c": (0.2, 0.5, 0.8)},
    "SO": {"a": (0.1, 1.0, 10.0)},
}
#: Rows of the training set the search runs on (a subsample: the full search does not fit
#: the machine's budget), and in quick mode.
OCR_SEARCH_ROWS = {"mnist": 3000, "usps": 3000}
OCR_SEARCH_QUICK_ROWS = 600
#: The parameters the table uses without ``--cv``: the choice of :func:`hop_ocr_search` on
#: MNIST (3000 rows, 5 folds; mean validation errors 7.8-9.7%). The polynomial degree
#: chosen, 6, is the largest of the grid.
OCR_DEFAULTS = {
    ("mnist", "gauss", "FO"): {"gamma": 4.0},
    ("mnist", "gauss", "HO2"): {"gamma": 4.0, "c": 0.5},
    ("mnist", "gauss", "sparse-HO2"): {"gamma": 4.0, "c": 0.8},
    ("mnist", "gauss", "SO"): {"gamma": 4.0, "a": 0.1},
    ("mnist", "poly", "FO"): {"degree": 6},
    ("mnist", "poly", "HO2"): {"degree": 6, "c": 0.5},
    ("mnist", "poly", "sparse-HO2"): {"degree": 6, "c": 0.2},
    ("mnist", "poly", "SO"): {"degree": 6, "a": 1.0},
}
#: USPS was not in the data home to search: its defaults are MNIST's choice.
OCR_DEFAULTS.update({("usps", kernel, algorithm): params
                     for (_, kernel, algorithm), params in list(OCR_DEFAULTS.items())})
#: Where each data set's default parameters come from, for the report.
OCR_DEFAULTS_SOURCE = {
    "mnist": "the 5-fold search (hop_ocr_search) on 3000 MNIST training rows",
    "usps": "MNIST's choice: USPS was not available to search",
}
OCR_QUICK = {"n_train": 2000, "n_test": 1000}
#: Paper 002, Table 3: (training corrections, test error[, matrix updates of sparse HO2]).
OCR_PAPER = {
    ("usps", "gauss"): {"FO": (1385, 0.0653), "HO2": (945, 0.0476),
                        "sparse-HO2": (965, 0.0513, 440), "SO": (1003, 0.0505)},
    ("usps", "poly"): {"FO": (1609, 0.0737), "HO2": (1090, 0.0571),
                       "sparse-HO2": (1081, 0.0552, 551), "SO": (1054, 0.0553)},
    ("mnist", "gauss"): {"FO": (5834, 0.0210), "HO2": (5351, 0.0179),
                         "sparse-HO2": (5363, 0.0181, 2596), "SO": (5684, 0.0182)},
    ("mnist", "poly"): {"FO": (8148, 0.0304), "HO2": (6404, 0.0227),
                        "sparse-HO2": (6476, 0.0228, 3311), "SO": (6440, 0.0203)},
}

#: Paper 002 Table 2: linear FO, HO2 and SO, one epoch over the stories in order.
RCV1_ALGORITHMS = {
    "FO": ("perceptron", {}),
    # The dual form: on 47,236 sparse features the implicit form (auto's choice) recomputes a
    # dense w per mistake, about 60 times slower here (the same margins, theory §2.5).
    "HO2": ("higher_order", {"p": 2.0, "c": 0.4, "form": "dual"}),
    "SO": ("second_order", {"a": 1.0}),
}
RCV1_QUICK = {"n_train": 2000, "n_test": 2000}
RCV1_PAPER = {
    70: {"FO": (993, 0.0720), "HO2": (941, 0.0683), "SO": (880, 0.0695)},
    101: {"FO": (673, 0.0639), "HO2": (665, 0.0581), "SO": (677, 0.0548)},
    4: {"FO": (803, 0.0614), "HO2": (783, 0.0594), "SO": (819, 0.0605)},
    59: {"FO": (767, 0.0645), "HO2": (762, 0.0604), "SO": (760, 0.0684)},
}

#: The bounds figure: "d against the rest" on MNIST (paper 001's Table 3 takes 9).
BOUNDS_DIGIT = 9
BOUNDS_QUICK = {"n_train": 2000}


# ----------------------------------------------------------------------------- data

def load_real(name: str, data_home=None, download: bool = False):
    """The data set ``name`` ("mnist", "usps" or "rcv1") from the data home.

    Raises
    ------
    FileNotFoundError
        One line naming the loader, the missing files and the data home, when they
        are missing and ``download`` is False.
    """
    loader = LOADERS[name]
    try:
        return loader(data_home, download=check_bool("download", download))
    except FileNotFoundError as error:
        raise FileNotFoundError(f"{loader.__name__}: {error}") from None


def subsample(X, y, n: int | None, seed: int = 0):
    """``n`` rows of (X, y) drawn without replacement by ``default_rng(seed)``, in their
    original order; all of them when ``n`` is None or at least their number."""
    if n is None or n >= X.shape[0]:
        return X, y
    rows = np.sort(np.random.default_rng(seed).choice(X.shape[0], n, replace=False))
    return X[rows], y[rows]


def _seed_list(seeds, default: int) -> list[int]:
    """Seeds 0..N-1, N = ``seeds`` (an integer >= 1) or the default."""
    return list(range(default if seeds is None else check_int("seeds", seeds, low=1)))


def _percent(value) -> str:
    return "-" if value is None else f"{100 * value:.2f}%"


def markdown_table(header, rows) -> str:
    """A GitHub Markdown table.

    Examples
    --------
    >>> print(markdown_table(["a", "b"], [[1, "x"]]))
    | a | b |
    |---|---|
    | 1 | x |
    """
    lines = ["| " + " | ".join(map(str, header)) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(map(str, row)) + " |" for row in rows]
    return "\n".join(lines)


def _mean(records, key, **where) -> float | None:
    values = [row[key] for row in records
              if all(row.get(k) == v for k, v in where.items()) and row[key] is not None]
    return float(np.mean(values)) if values else None


def save_outputs(name: str, records, fig, markdown: str, out) -> list[str]:
    """Write ``out/name.png`` (150 dpi), ``.pdf``, ``.csv`` and ``.md``; return the paths.

    As :func:`~perceptron_bounds.experiments.figures.save_figure`, plus the report;
    each file is complete or absent.
    """
    paths = save_figure(name, records, fig, out)
    md = os.path.join(os.fspath(out), name + ".md")
    with replacing(md) as temp, open(temp, "w", encoding="utf-8") as handle:
        handle.write(markdown + "\n")
    return [*paths, md]


def _size_line(meta: dict) -> str:
    return ("**Quick run** (subsampled, not the paper's size): numbers are not comparable with "
            "the paper's." if meta["quick"] else "Full size.")


# ----------------------------------------------------------------------------- 001

def fs_mnist(*, seeds=None, quick=False, n_jobs=None, progress=False, cache=None,
             data_home=None, download=False, degrees=None, epochs=None):
    """Paper 001 sec. 5 on MNIST: voted Perceptron, polynomial kernels, test error vs epochs.

    Raw pixels 0..255 and the kernel (1 + x . z)^d, as paper 001 (see
    :func:`~perceptron_bounds.datasets.load_mnist`); one-vs-rest over the 10 digits;
    the seven predictions of :data:`~.voted_epochs.VOTE_PREDICTIONS`; SupVec and
    Mistake. Sizes: :data:`FS_FULL` (60,000 + 10,000 examples, d = 1..6, T = 0.1, 1, 2,
    one permutation) or :data:`FS_QUICK`; ``seeds`` sets the number of permutations,
    ``degrees`` and ``epochs`` override the sizes' own.
    """
    check_n_jobs(n_jobs)
    quick = check_bool("quick", quick)
    size = FS_QUICK if quick else FS_FULL
    degrees = size["degrees"] if degrees is None else tuple(degrees)
    epochs = size["epochs"] if epochs is None else tuple(epochs)
    seed_list = _seed_list(seeds, size["seeds"])
    train, test = load_real("mnist", data_home, download)
    X, y = subsample(train.X, train.y, size["n_train"])
    X_test, y_test = subsample(test.X, test.y, size["n_test"])
    meta = provenance("fs-mnist", quick=quick, n_seeds=len(seed_list), data="mnist",
                      n_train=X.shape[0], n_test=X_test.shape[0])
    rows = voted_epochs_curve((X, y), (X_test, y_test), degrees=degrees, epochs=epochs,
                              seeds=seed_list, n_jobs=n_jobs, progress=progress, cache=cache)
    records = [{**meta, **row} for row in rows]
    fig = plot_voted_epochs(records)
    add_caption(
        fig,
        f"Data: MNIST, {X.shape[0]} training and {X_test.shape[0]} test images, raw pixels "
        "0..255; kernel (1 + x·z)^d; one voted Perceptron per digit (one-vs-rest), the "
        "training set in a random permutation per seed, cycled. SupVec: training instances "
        "on which any digit's run erred; Mistake: the ten runs' mistakes summed. Lines: mean "
        "over permutations.",
        provenance_line(meta),
    )
    return records, fig, fs_markdown(records)


def fs_claims(records) -> list[str]:
    """Paper 001's qualitative claims (sec. 5), each checked on our numbers, one line each."""
    cells = sorted({(row["degree"], row["epochs"]) for row in records})
    error = {(d, e, p): _mean(records, "test_error", degree=d, epochs=e, prediction=p)
             for d, e in cells for p in {row["prediction"] for row in records}}
    lines = []
    for name in ("vote", "average (unnorm)"):
        wins = [(d, e) for d, e in cells if error[d, e, name] < error[d, e, "last (unnorm)"]]
        early = [(d, e) for d, e in cells if e <= 1]
        early_wins = [cell for cell in wins if cell in early]
        lines.append(
            f"- *{name} beats last (unnorm)*, \"especially prior to convergence\": in "
            f"{len(wins)} of {len(cells)} (d, T) cells; with T <= 1 in {len(early_wins)} of "
            f"{len(early)}."
        )
    worst = [(d, e) for d, e in cells
             if max(error[d, e, p] for p in ("vote", "average (unnorm)", "last (unnorm)",
                                             "random (unnorm)")) == error[d, e, "random (unnorm)"]]
    lines.append(f"- *random performs the worst*: random (unnorm) has the largest error of the "
                 f"four plotted predictions in {len(worst)} of {len(cells)} cells.")
    last = max(e for _, e in cells)
    by_degree = {d: error[d, last, "vote"] for d, e in cells if e == last}
    if 1 in by_degree and 2 in by_degree:
        degrees = sorted(by_degree)
        steps = [f"d = {d}: {100 * by_degree[d]:.2f}%" + (
            "" if i == 0 else f" ({100 * (by_degree[d] - by_degree[degrees[i - 1]]):+.2f})")
            for i, d in enumerate(degrees)]
        drops = {d: by_degree[d] - by_degree[d + 1] for d in degrees if d + 1 in by_degree}
        biggest = max(drops, key=drops.get)
        lines.append(f"- *the big step is d = 1 -> 2*: vote's test error at T = {last:g}: "
                     f"{', '.join(steps)} points; the largest drop is d = {biggest} -> "
                     f"{biggest + 1}.")
    return lines


def fs_markdown(records) -> str:
    """The report of :func:`fs_mnist`: Table 1 with our numbers, and the paper's claims."""
    meta = records[0]
    degrees = sorted({row["degree"] for row in records})
    epochs = sorted({row["epochs"] for row in records})
    parts = [
        "# Freund & Schapire (paper 001, sec. 5): voted Perceptron on MNIST",
        "",
        _size_line(meta) + f" {meta['n_train']} training and {meta['n_test']} test images, "
        f"{meta['n_seeds']} permutation(s); test error in percent, mean over permutations.",
        "",
        "Paper 001's Table 1 is compared by its claims: they are set beside "
        "ours (below).",
    ]
    for degree in degrees:
        rows = []
        for method, normalize in VOTE_PREDICTIONS:
            name = prediction_label(method, normalize)
            rows.append([name] + [_percent(_mean(records, "test_error", degree=degree, epochs=e,
                                                 prediction=name)) for e in epochs])
        for key, name in (("supvec", "SupVec"), ("mistakes", "Mistake")):
            rows.append([name] + [f"{_mean(records, key, degree=degree, epochs=e):,.0f}"
                                  for e in epochs])
        parts += ["", f"## d = {degree}", "",
                  markdown_table(["T"] + [f"{e:g}" for e in epochs], rows)]
    parts += ["", "## The paper's claims, on our numbers", "", *fs_claims(records),
              "", f"_{provenance_line(meta)}_"]
    return "\n".join(parts)


# ----------------------------------------------------------------------------- 004

def ballseptron_radius_real(name: str = "mnist", *, seeds=None, quick=False, n_jobs=None,
                            progress=False, cache=None, data_home=None, download=False,
                            radii=RADIUS_RADII):
    """Paper 004 Fig. 3 top on MNIST or USPS: multiclass Ballseptron, mistakes/T against r.

    The training set centred and scaled to average norm 1
    (:func:`~perceptron_bounds.datasets.center_and_scale`), the native multiclass
    Ballseptron (paper 004 sec. 4) with the kernel (x . z + 1/2)^5, one pass in a
    random order per seed (default 3; quick: 2000 rows, 2 seeds).
    """
    check_n_jobs(n_jobs)
    quick = check_bool("quick", quick)
    if name not in RADIUS_SEEDS:
        raise ValueError(f"name must be one of {', '.join(RADIUS_SEEDS)}, got {name!r}")
    radii = check_levels("radii", radii)
    seed_list = _seed_list(seeds, RADIUS_QUICK["seeds"] if quick else RADIUS_SEEDS[name])
    train, _ = load_real(name, data_home, download)
    X, y = subsample(train.X, train.y, RADIUS_QUICK["n_train"] if quick else None)
    X, _ = center_and_scale(X)
    meta = provenance("ballseptron-radius", quick=quick, n_seeds=len(seed_list), data=name,
                      n_samples=X.shape[0], n_features=X.shape[1], **RADIUS_KERNEL)
    key = data_key(X, y)
    cells = [{"X": X, "y": y, "data_key": key, "r": r, "seed": seed, "version": meta[
        "perceptron_bounds_version"]} for r in radii for seed in seed_list]
    rows = run_cached_cells(_native_radius_cell, cells, cache=cache, n_jobs=n_jobs,
                            progress=progress, desc="ballseptron-radius")
    records = [{**meta, "dataset": name.upper(), **row} for row in rows]
    fig = plot_radius_panels(records)
    add_caption(
        fig,
        f"Data: {name.upper()} training set, T = {X.shape[0]} instances centred and scaled to "
        "average norm 1 (paper 004 sec. 5); the native multiclass Ballseptron (paper 004 "
        "sec. 4) with the kernel (x·z + 1/2)^5; one pass in a random order per seed. A margin "
        "error: the right class wins by at most r ||w^y - w^y~||. Lines: mean over seeds.",
        provenance_line(meta),
    )
    return records, fig, radius_markdown(records)


def _native_radius_cell(X, y, data_key, r, seed, version) -> list[dict]:
    return radius_curve([r], (X, y), seeds=[seed], multiclass="native", **RADIUS_KERNEL)


def radius_markdown(records) -> str:
    """The report of :func:`ballseptron_radius_real`: mistakes/T per r and the paper's claim."""
    meta = records[0]
    radii = sorted({row["r"] for row in records})
    rates = {r: _mean(records, "mistake_rate", r=r) for r in radii}
    margins = {r: _mean(records, "margin_error_rate", r=r) for r in radii}
    rows = [[f"{r:g}", f"{rates[r]:.4f}", f"{margins[r]:.4f}",
             "-" if r == 0 or 0.0 not in rates else f"{rates[r] - rates[0.0]:+.4f}"]
            for r in radii]
    parts = [
        f"# Ballseptron (paper 004, Fig. 3 top) on {meta['data'].upper()}",
        "",
        _size_line(meta) + f" T = {meta['n_samples']} rounds, {meta['n_seeds']} seed(s), "
        "mean over seeds.",
        "",
        markdown_table(["r", "mistakes / T", "margin errors / T", "vs r = 0"], rows),
    ]
    if 0.0 in rates:
        better = [r for r in radii if r > 0 and rates[r] < rates[0.0]]
        best = min(radii, key=lambda r: rates[r])
        parts += [
            "",
            "The paper's claim (compared here instead of its plotted values): \"many choices "
            "of r result in a significant reduction in the number of online prediction "
            "mistakes\", and an excessively large r deteriorates.",
            f"Ours: {len(better)} of the {len([r for r in radii if r > 0])} radii r > 0 make "
            f"fewer mistakes than the Perceptron (r = 0, {rates[0.0]:.4f}); the fewest at "
            f"r = {best:g} ({rates[best]:.4f}, {100 * (rates[best] / rates[0.0] - 1):+.1f}%); "
            f"at the largest r = {radii[-1]:g}: {rates[radii[-1]]:.4f}.",
        ]
    parts += ["", f"_{provenance_line(meta)}_"]
    return "\n".join(parts)


# ----------------------------------------------------------------------------- 002

def _check_names(kind: str, names, known) -> list[str]:
    names = list(names)
    unknown = [name for name in names if name not in known]
    if not names or unknown or len(set(names)) != len(names):
        raise ValueError(f"{kind} must be distinct names among {', '.join(known)}, got {names}")
    return names


def _ocr_data(data: str, quick: bool, data_home, download):
    """Training and test set of ``data`` with rows of unit norm (paper 000 sec. 1)."""
    if data not in ("mnist", "usps"):
        raise ValueError(f"data must be 'mnist' or 'usps', got {data!r}")
    train, test = load_real(data, data_home, download)
    size = OCR_QUICK if quick else {"n_train": None, "n_test": None}
    X, y = subsample(train.X, train.y, size["n_train"])
    X_test, y_test = subsample(test.X, test.y, size["n_test"])
    return normalize_rows(X), y, normalize_rows(X_test), y_test


def ocr_spec(algorithm: str, kernel: str, params: dict) -> AlgorithmSpec:
    """The spec of ``algorithm`` (a key of :data:`OCR_ALGORITHMS`) under ``kernel`` (a key
    of :data:`OCR_KERNELS`) with the kernel's and algorithm's chosen ``params``."""
    name, fixed = OCR_ALGORITHMS[algorithm]
    shown = ", ".join(f"{key}={value:g}" for key, value in params.items())
    return AlgorithmSpec(f"{algorithm} {kernel} ({shown})", name,
                         {**fixed, **OCR_KERNELS[kernel], **params})


def hop_ocr_search(data: str = "mnist", *, algorithms=tuple(OCR_ALGORITHMS),
                   kernels=tuple(OCR_KERNELS), folds: int = 5, quick=False, n_jobs=None,
                   progress=False, cache=None, data_home=None, download=False):
    """The 5-fold search of paper 000 Task 3 over :data:`OCR_GRID`, on a training subsample.

    Rows: :data:`OCR_SEARCH_ROWS` of the training set (``OCR_SEARCH_QUICK_ROWS`` when
    quick), unit norm, one epoch per fit.

    Returns
    -------
    records : list of dict
        :func:`~.corrections.cross_validate`'s records with ``data``, ``kernel`` and
        ``algorithm_name`` (FO, HO2, ...).
    chosen : dict
        ``(data, kernel, algorithm) -> params`` of smallest mean validation error, in
        the form of :data:`OCR_DEFAULTS`.
    markdown : str
        The grid, the mean validation error of every candidate, and the choice.
    """
    quick = check_bool("quick", quick)
    algorithms = _check_names("algorithms", algorithms, OCR_ALGORITHMS)
    kernels = _check_names("kernels", kernels, OCR_KERNELS)
    X, y, _, _ = _ocr_data(data, quick, data_home, download)
    X, y = subsample(X, y, OCR_SEARCH_QUICK_ROWS if quick else OCR_SEARCH_ROWS[data])
    groups, free, specs = {}, {}, []
    for kernel in kernels:
        for algorithm in algorithms:
            grid = [{}]
            for key, values in (*OCR_GRID[kernel].items(), *OCR_GRID[algorithm].items()):
                grid = [{**point, key: value} for point in grid for value in values]
            for point in grid:
                spec = ocr_spec(algorithm, kernel, point)
                groups[spec.label], free[spec.label] = (kernel, algorithm), point
                specs.append(spec)
    meta = provenance("hop-ocr-search", quick=quick, n_seeds=1, data=data, n_rows=X.shape[0])
    rows = cross_validate(specs, (X, y), folds=folds, n_jobs=n_jobs, progress=progress,
                          cache=cache)
    records = [{**meta, "kernel": groups[row["label"]][0], "algorithm_name":
                groups[row["label"]][1], **row} for row in rows]
    best = best_params(records, by=("kernel", "algorithm_name"))
    chosen, table = {}, []
    for label, (kernel, algorithm) in groups.items():
        params = next(spec.params for spec in specs if spec.label == label)
        is_best = best[kernel, algorithm][0] == params
        if is_best:
            chosen[data, kernel, algorithm] = free[label]
        error = _mean(records, "validation_error", label=label)
        table.append([kernel, algorithm, ", ".join(f"{k}={v:g}" for k, v in free[label].items()),
                      _percent(error) + (" **chosen**" if is_best else "")])
    grid_text = "; ".join(f"{key}: {', '.join(f'{k} in {v}' for k, v in OCR_GRID[key].items())}"
                          for key in (*kernels, *algorithms) if OCR_GRID[key])
    markdown = "\n".join([
        f"# 5-fold search for paper 000 Table 3 on {data.upper()}",
        "",
        f"{'**Quick run.** ' if quick else ''}{X.shape[0]} rows of the training set (a "
        f"subsample: the search at full size does not fit this machine), unit norm, "
        f"{folds} folds, one epoch per fit. Grid: {grid_text}.",
        "",
        markdown_table(["kernel", "algorithm", "parameters", "mean validation error"], table),
        "",
        f"_{provenance_line(meta)}_",
    ])
    return records, chosen, markdown


def hop_ocr(data: str = "mnist", *, algorithms=tuple(OCR_ALGORITHMS), kernels=tuple(OCR_KERNELS),
            params=None, seeds=None, quick=False, n_jobs=None, progress=False, cache=None,
            data_home=None, download=False):
    """Paper 002 Table 3: one epoch, one-vs-rest, Gaussian and polynomial kernels.

    Instances of unit norm (paper 000 sec. 1); FO, HO2 (p = 2), sparse HO2 and SO with the
    parameters ``params`` (``(data, kernel, algorithm) -> dict``, default
    :data:`OCR_DEFAULTS`, as :func:`hop_ocr_search` returns them); the training set in
    its own order (``seeds``: that many random permutations). Quick: 2000 training and
    1000 test rows.
    """
    check_n_jobs(n_jobs)
    quick = check_bool("quick", quick)
    algorithms = _check_names("algorithms", algorithms, OCR_ALGORITHMS)
    kernels = _check_names("kernels", kernels, OCR_KERNELS)
    source = OCR_DEFAULTS_SOURCE[data] if params is None else "given (e.g. a search run now)"
    params = OCR_DEFAULTS if params is None else params
    missing = [(data, k, a) for k in kernels for a in algorithms if (data, k, a) not in params]
    if missing:
        raise ValueError(f"no parameters for {', '.join('/'.join(m) for m in missing)}: run "
                         "the search (hop_ocr_search, the command's --cv) first")
    seed_list = [None] if seeds is None else _seed_list(seeds, 1)
    X, y, X_test, y_test = _ocr_data(data, quick, data_home, download)
    specs, where = [], {}
    for kernel in kernels:
        for algorithm in algorithms:
            spec = ocr_spec(algorithm, kernel, params[data, kernel, algorithm])
            specs.append(spec)
            where[spec.label] = (kernel, algorithm)
    meta = provenance("hop-ocr", quick=quick, n_seeds=len(seed_list), data=data,
                      n_train=X.shape[0], n_test=X_test.shape[0], params_source=source)
    rows = corrections_table(specs, (X, y), (X_test, y_test), seeds=seed_list, n_jobs=n_jobs,
                             progress=progress, cache=cache)
    records = []
    for row in rows:
        kernel, algorithm = where[row["label"]]
        paper = OCR_PAPER[data, kernel][algorithm]
        records.append({**meta, "kernel": kernel, "algorithm_name": algorithm, **row,
                        "paper_corrections": paper[0], "paper_test_error": paper[1],
                        "paper_matrix_updates": paper[2] if len(paper) > 2 else None})
    fig = plot_corrections(records, group="kernel", bar="algorithm_name",
                           paper=None if quick else "paper 000, Table 3")
    add_caption(
        fig,
        f"Data: {data.upper()}, {X.shape[0]} training and {X_test.shape[0]} test images, rows "
        "of unit norm; one epoch, one-vs-rest over the 10 digits. Corrections: the ten binary "
        "runs' mistakes summed; test error: multiclass (argmax of the ten scores). "
        f"{'' if quick else 'Black ticks: the paper values. '}Kernels: gauss "
        "exp(-gamma ||x - z||^2), poly (x·z + 1)^d; FO = Perceptron, HO2 = Higher-Order "
        "p = 2, rho_k = c/k, sparse HO2 updates B only when y v·x >= 0, SO = Second-Order "
        "with parameter a.",
        provenance_line(meta),
    )
    return records, fig, ocr_markdown(records)


def _difference(ours, paper, percent=False) -> str:
    if ours is None or paper is None:
        return "-"
    if percent:
        return f"{100 * (ours - paper):+.2f} points"
    return f"{ours - paper:+,.0f} ({100 * (ours / paper - 1):+.0f}%)"


def ocr_markdown(records) -> str:
    """The report of :func:`hop_ocr`: ours beside paper 000's Table 3, differences stated."""
    meta = records[0]
    rows = []
    for label in dict.fromkeys(row["label"] for row in records):
        part = [row for row in records if row["label"] == label]
        first = part[0]
        corrections = _mean(part, "corrections")
        updates = _mean(part, "matrix_updates")
        error = _mean(part, "test_error")
        rows.append([
            first["kernel"], first["algorithm_name"], label.split("(", 1)[1].rstrip(")"),
            f"{corrections:,.0f}", f"{first['paper_corrections']:,}",
            _difference(corrections, first["paper_corrections"]),
            "-" if first["paper_matrix_updates"] is None and first["algorithm"] != "higher_order"
            else f"{updates:,.0f} / {first['paper_matrix_updates'] or '-'}",
            _percent(error), _percent(first["paper_test_error"]),
            _difference(error, first["paper_test_error"], percent=True),
        ])
    return "\n".join([
        f"# Higher-Order paper, Table 3 (paper 000): {meta['data'].upper()}",
        "",
        _size_line(meta) + f" {meta['n_train']} training and {meta['n_test']} test images, "
        f"{meta['n_seeds']} order(s) of the training set, one epoch, one-vs-rest.",
        "",
        markdown_table(["kernel", "algorithm", "parameters", "corrections", "paper",
                        "difference", "matrix updates (ours / paper)", "test error", "paper",
                        "difference"], rows),
        "",
        "The paper chose its kernel parameters by 5-fold cross-validation over \"standard "
        "ranges\" it does not list, and reports \"only the results corresponding to the best "
        f"test set accuracy\". Our parameters: {meta['params_source']}; grid: "
        + "; ".join(f"{key} {', '.join(f'{k} in {v}' for k, v in grid.items())}"
                    for key, grid in OCR_GRID.items() if grid) + ".",
        "",
        f"_{provenance_line(meta)}_",
    ])


def hop_rcv1(*, tasks=RCV1_TASKS, algorithms=tuple(RCV1_ALGORITHMS), seeds=None, quick=False,
             n_jobs=None, progress=False, cache=None, data_home=None, download=False):
    """Paper 002 Table 2: linear FO, HO2 and SO, one epoch, on the four RCV1 tasks.

    The tasks of :func:`~perceptron_bounds.datasets.load_rcv1_tasks` (10,000 training and
    10,000 test stories in order, unit-norm TF-IDF rows); the stories in their order
    (``seeds``: that many random permutations). HO2's c = 0.4 and SO's a = 1 are not
    tuned (:data:`RCV1_ALGORITHMS`); the paper shows its best test results. Quick: the
    first 2000 training and test stories.
    """
    check_n_jobs(n_jobs)
    quick = check_bool("quick", quick)
    algorithms = _check_names("algorithms", algorithms, RCV1_ALGORITHMS)
    tasks = [check_int("task", task) for task in tasks]
    unknown = [task for task in tasks if task not in RCV1_TASKS]
    if not tasks or unknown:
        raise ValueError(f"tasks must be among {RCV1_TASKS}, got {tasks}")
    seed_list = [None] if seeds is None else _seed_list(seeds, 1)
    data = load_real("rcv1", data_home, download)
    specs = [AlgorithmSpec(name, *RCV1_ALGORITHMS[name]) for name in algorithms]
    records = []
    meta = None
    for task in tasks:
        train, test = data[task]
        X, y, X_test, y_test = train.X, train.y, test.X, test.y
        if quick:
            X, y = X[:RCV1_QUICK["n_train"]], y[:RCV1_QUICK["n_train"]]
            X_test, y_test = X_test[:RCV1_QUICK["n_test"]], y_test[:RCV1_QUICK["n_test"]]
        meta = provenance("hop-rcv1", quick=quick, n_seeds=len(seed_list), data="rcv1",
                          n_train=X.shape[0], n_test=X_test.shape[0])
        rows = corrections_table(specs, (X, y), (X_test, y_test), seeds=seed_list,
                                 n_jobs=n_jobs, progress=progress, cache=cache)
        for row in rows:
            paper = RCV1_PAPER[task][row["label"]]
            records.append({**meta, "task": f"RCV1_{task}",
                            "category": data[task].target_names[1], **row,
                            "paper_corrections": paper[0], "paper_test_error": paper[1]})
    fig = plot_corrections(records, group="task", paper=None if quick else "paper 000, Table 2")
    add_caption(
        fig,
        "Data: the first 20,000 RCV1 stories (unit-norm TF-IDF), split 10,000 / 10,000 in "
        "order, each task a category against the rest (load_rcv1_tasks); one epoch, no "
        f"kernel. FO = Perceptron, HO2 = Higher-Order p = 2 (c = "
        f"{RCV1_ALGORITHMS['HO2'][1]['c']:g}), SO = Second-Order (a = "
        f"{RCV1_ALGORITHMS['SO'][1]['a']:g}). {'' if quick else 'Black ticks: the paper values.'}",
        provenance_line(meta),
    )
    return records, fig, rcv1_markdown(records)


def rcv1_markdown(records) -> str:
    """The report of :func:`hop_rcv1`: ours beside paper 000's Table 2."""
    meta = records[0]
    rows = []
    for task in dict.fromkeys(row["task"] for row in records):
        for label in dict.fromkeys(row["label"] for row in records):
            part = [row for row in records if row["task"] == task and row["label"] == label]
            corrections, error = _mean(part, "corrections"), _mean(part, "test_error")
            first = part[0]
            rows.append([task, first["category"], label, f"{corrections:,.0f}",
                         f"{first['paper_corrections']:,}",
                         _difference(corrections, first["paper_corrections"]),
                         _percent(error), _percent(first["paper_test_error"]),
                         _difference(error, first["paper_test_error"], percent=True)])
    return "\n".join([
        "# Higher-Order paper, Table 2 (paper 000): RCV1",
        "",
        _size_line(meta) + f" {meta['n_train']} training and {meta['n_test']} test stories "
        "per task, one epoch, in order.",
        "",
        markdown_table(["task", "category", "algorithm", "corrections", "paper", "difference",
                        "test error", "paper", "difference"], rows),
        "",
        "HO2's c and SO's a are fixed here, not tuned; the paper shows \"only the results "
        "corresponding to the best test set accuracy\".",
        "",
        f"_{provenance_line(meta)}_",
    ])


# ----------------------------------------------------------------------------- bounds

def bounds_mnist(*, digit: int = BOUNDS_DIGIT, algorithms=None, seeds=None, quick=False,
                 n_jobs=None, progress=False, cache=None, data_home=None, download=False):
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
    algorithms = available() if algorithms is None else _check_names(
        "algorithms", algorithms, available())
    seed_list = None if seeds is None else _seed_list(seeds, 1)
    train, _ = load_real("mnist", data_home, download)
    X, y = subsample(train.X, train.y, BOUNDS_QUICK["n_train"] if quick else None)
    X = normalize_rows(X)
    y = np.where(y == digit, 1, -1)
    meta = provenance("bounds-mnist", quick=quick, n_seeds=1 if seed_list is None else
                      len(seed_list), data="mnist", digit=digit, n_train=X.shape[0])
    rows = bound_ratios([(name, name, {}) for name in algorithms], (X, y), seeds=seed_list,
                        n_jobs=n_jobs, progress=progress, cache=cache)
    records = [{**meta, **row} for row in rows]
    fig = plot_bound_ratios(records)
    add_caption(
        fig,
        f"Data: MNIST training set, {X.shape[0]} images of unit norm, digit {digit} (+1) "
        "against the rest (-1); one pass per algorithm with its default parameters (linear). "
        "Each bound with the SVM comparator and margin gamma that make it smallest (theory "
        "§4.3); a ratio above 1 would be a violated bound.",
        provenance_line(meta),
    )
    return records, fig, bounds_markdown(records)


def bounds_markdown(records) -> str:
    """The report of :func:`bounds_mnist`: mistakes, bound and ratio per algorithm and bound."""
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
        _size_line(meta) + f" {meta['n_train']} training images of unit norm, one pass.",
        "",
        markdown_table(["algorithm", "mistakes", "bound", "variant", "value",
                        "mistakes / bound", "holds"], rows),
        "",
        "Not applicable:" if skipped else "",
        *[f"- {line}" for line in skipped],
        "",
        f"_{provenance_line(meta)}_",
    ])


#: The real-data figures and tables by command name.
REAL_FIGURES = {"fs-mnist": fs_mnist, "bounds-mnist": bounds_mnist}
TABLES = {"hop-ocr": hop_ocr, "hop-rcv1": hop_rcv1}

