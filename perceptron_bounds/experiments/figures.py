"""The papers' figures at paper size: configurations behind ``perceptron-bounds figure``.

Each function runs its experiment and returns ``(records, figure)``;
``quick=True`` shrinks the sizes (for tests), ``seeds`` sets how many seeds
(permutations or data draws) are averaged.

Every record starts with the columns that say what made it (see
:func:`provenance`): the figure's name, ``perceptron_bounds_version``,
``quick``, ``n_seeds`` and the data's configuration; the CSV written by
:func:`save_figure` therefore reads with a plain ``csv.DictReader`` or
``pandas.read_csv``. The figure repeats them in a small caption under its
panels, with a sentence on the data.
"""

from __future__ import annotations

import os

from .._interrupt import replacing
from .._linalg import row_norms
from .._validation import check_bool, check_int
from .._version import __version__
from ..datasets import make_hop_artificial, make_separable
from ..plots import plot_epochs_curve, plot_noise_curve, plot_radius_curve, plot_sop_toy
from ..plots.style import add_caption
from ._cells import AlgorithmSpec, as_specs, as_xy, check_levels, check_n_jobs, write_csv
from .epochs import PAPER_EPOCHS, epochs_cells, run_epochs_cells
from .noise import INSTANCE_LEVELS, LABEL_LEVELS, noise_curve
from .radius import radius_curve
from .sop import sop_toy

#: Paper 000, Figure 2: FO = HO_2(0.0), SO (a = 0.2), HO_2(0.4), HO_4(0.4), HO_7(0.0), HO_7(0.4).
HOP_SPECS = (
    AlgorithmSpec("FO", "perceptron", {}),
    AlgorithmSpec("SO(0.2)", "second_order", {"a": 0.2}),
    AlgorithmSpec("HO_2(0.4)", "higher_order", {"p": 2.0, "c": 0.4}),
    AlgorithmSpec("HO_4(0.4)", "higher_order", {"p": 4.0, "c": 0.4}),
    AlgorithmSpec("HO_7(0.0)", "pnorm", {"p": 7.0}),
    AlgorithmSpec("HO_7(0.4)", "higher_order", {"p": 7.0, "c": 0.4}),
)

#: The curves of Figure 2 whose mistake bounds hop_fig2 reports beside their updates (theory §4.1:
#: the Perceptron's, HO_2's, and for p = 4 and 7 the p-norm Perceptron's and HO_p's). SO's are
#: left out: its bound on every prefix takes an eigendecomposition per mistake (n = 500).
HOP_BOUNDS = ("FO", "HO_2(0.4)", "HO_4(0.4)", "HO_7(0.0)", "HO_7(0.4)")

#: Paper 000, sec. 4, Task 1: the Artificial eta data (``make_hop_artificial``), and quick sizes.
HOP_DATA = {"n_train": 1000, "n_test": 1000, "n_features": 500, "n_relevant": 50, "gamma": 0.005}
HOP_QUICK = dict(HOP_DATA, n_train=200, n_test=200, n_features=100, n_relevant=10)

#: Paper 004, sec. 5: T points on the unit circle, margin 0.15; the bounds' gamma.
NOISE_DATA = {"n": 10000, "margin": 0.15, "gamma": 0.15}
NOISE_QUICK = dict(NOISE_DATA, n=1000)

#: The synthetic stand-in for MNIST/USPS in the radius figure (the CLI's built-in data, larger).
RADIUS_DATA = {"n_samples": 10000, "n_features": 20, "margin": 0.05, "label_noise": 0.05}
RADIUS_QUICK = dict(RADIUS_DATA, n_samples=1000)
RADII = (0.0, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5)

#: Paper 003, sec. 5: the two toy data sets (``make_dominant_eigen``), and quick sizes.
SOP_DATA = {"n_train": 3000, "n_test": 3000, "n_features": 100, "ratio": 8.0, "margin": 0.25}
SOP_QUICK = dict(SOP_DATA, n_train=300, n_test=300, n_features=20)


def _seeds(seeds: int | None, default: int) -> range:
    """Seeds 0..N-1, N = ``seeds`` (an integer >= 1) or the figure's default."""
    return range(default if seeds is None else check_int("seeds", seeds, low=1))


def provenance(figure: str, *, quick: bool, n_seeds: int, **config) -> dict:
    """The leading columns of a figure's records: what made them.

    Parameters
    ----------
    figure : str
        The figure's name (a key of :data:`FIGURES`).
    quick : bool
        Whether the reduced sizes of ``--quick`` were used.
    n_seeds : int
        Seeds (permutations or data draws) averaged per point.
    **config
        The data's configuration not already in every record (e.g. ``n_features``).

    Returns
    -------
    dict
        ``figure``, ``perceptron_bounds_version`` (the package's
        ``__version__``), ``quick``, ``n_seeds``, then ``config``.

    Examples
    --------
    >>> row = provenance("sop-toy", quick=True, n_seeds=3, ratio=8.0)
    >>> row["figure"], row["quick"], row["n_seeds"], row["ratio"]
    ('sop-toy', True, 3, 8.0)
    >>> row["perceptron_bounds_version"] == __version__
    True
    """
    return {
        "figure": figure,
        "perceptron_bounds_version": __version__,
        "quick": quick,
        "n_seeds": n_seeds,
        **config,
    }


def provenance_line(meta: dict) -> str:
    """The caption's last line: ``"perceptron_bounds 0.1.0 · hop-fig2 · seeds=5 · quick ..."``."""
    size = "quick (reduced sizes, not the paper's)" if meta["quick"] else "full size"
    return (
        f"perceptron_bounds {meta['perceptron_bounds_version']} · {meta['figure']} · "
        f"seeds={meta['n_seeds']} · {size}"
    )


def hop_fig2(*, seeds=None, quick=False, n_jobs=None, progress=False, specs=HOP_SPECS,
             bounds=None):
    """HO paper Figure 2: training updates and test error vs epochs on Artificial 0.0 and 0.1.

    Data: ``make_hop_artificial(eta, seed=0, **HOP_DATA)`` for eta = 0.0 and
    0.1 (the same instances and target; eta = 0.1 flips labels), 1000 + 1000
    examples in 500 dimensions. Each seed s (default 5; the whole figure
    takes about 80 s on one core without bounds) presents the training set in
    the permutation ``default_rng(s)``, cycled for 1..20 epochs.

    ``bounds`` (labels of ``specs``; default: those of ``HOP_BOUNDS`` among
    them) get their smallest stated mistake bound beside the updates at every
    checkpoint, with the data's target as the comparator (``epochs_curve``'s
    ``bounds``): the records' ``bound``, ``bound_name`` and ``bound_gamma``.
    """
    check_n_jobs(n_jobs)
    quick = check_bool("quick", quick)
    data = HOP_QUICK if quick else HOP_DATA
    epochs = (1, 2, 3, 5) if quick else PAPER_EPOCHS
    seed_list = _seeds(seeds, 2 if quick else 5)
    meta = provenance(
        "hop-fig2",
        quick=quick,
        n_seeds=len(seed_list),
        n_features=data["n_features"],
        n_relevant=data["n_relevant"],
        margin=data["gamma"],
    )
    if bounds is None:
        labels = {spec.label for spec in as_specs(specs)}
        bounds = [label for label in HOP_BOUNDS if label in labels]
    cells = []
    # One sweep over both data sets, the noisy one first: its HO_p(0.4) runs are the
    # longest, so the short cells of Artificial 0.0 fill the workers' tail.
    for eta in (0.1, 0.0):
        train, test = make_hop_artificial(eta, seed=0, **data)
        tag = {**meta, "eta": eta, "data_seed": 0}
        cells += epochs_cells(specs, train, test, epochs, seed_list, tag=tag, bounds=bounds)
    records = run_epochs_cells(cells, n_jobs=n_jobs, progress=progress, desc="hop-fig2")
    records.sort(key=lambda row: row["eta"])
    fig = plot_epochs_curve(records, panel="eta")
    add_caption(
        fig,
        f"Data: Artificial η (HO paper, sec. 4): {data['n_train']} training + {data['n_test']} "
        f"test examples in n = {data['n_features']} dimensions, target with "
        f"{data['n_relevant']} relevant features, margin {data['gamma']:g}; label noise rate η "
        "= fraction of labels flipped. Lines: mean over the training-set permutations (seeds), "
        "error bars ± 1 std.",
        provenance_line(meta),
    )
    return records, fig


def ballseptron_noise(*, seeds=None, quick=False, n_jobs=None, progress=False):
    """Ballseptron Fig. 3 bottom: Perceptron mistakes, D2- and D1-bounds over T vs eta and sigma.

    Data: ``make_unit_circle(10000, margin=0.15, ...)`` with label noise eta in
    0..0.1 and instance noise sigma in 0..0.5; u = the generating separator
    and gamma = 0.15, plus the bounds minimised over gamma. Each seed s
    (default 5) draws the data with ``seed=s``.
    """
    quick = check_bool("quick", quick)
    data = NOISE_QUICK if quick else NOISE_DATA
    seed_list = _seeds(seeds, 2 if quick else 5)
    meta = provenance("ballseptron-noise", quick=quick, n_seeds=len(seed_list))
    records = []
    for kind, levels in (("label", LABEL_LEVELS), ("instance", INSTANCE_LEVELS)):
        rows = noise_curve(
            kind,
            levels[::3] if quick else levels,
            **data,
            seeds=seed_list,
            n_jobs=n_jobs,
            progress=progress,
        )
        records.extend({**meta, **row} for row in rows)
    fig = plot_noise_curve(records)
    add_caption(
        fig,
        f"Data (Ballseptron paper, sec. 5): T = {data['n']} points on the unit circle, separable "
        f"by u with margin {data['margin']:g}, then labels flipped with probability η (left) or "
        "Gaussian noise N(0, σ²I) added to the instances (right). The Perceptron makes one pass; "
        "lines: mean over data draws (seeds), error bars ± 1 std.",
        provenance_line(meta),
    )
    return records, fig


def ballseptron_radius(*, seeds=None, quick=False, n_jobs=None, progress=False, data=None,
                       name="given data", radii=None):
    """Ballseptron Fig. 3 top on synthetic data: mistakes/T and margin errors/T vs r.

    Data: ``make_separable(10000, 20, margin=0.05, label_noise=0.05, seed=0)``
    (unit-norm instances, so r is on the scale of the margin); each seed s
    (default 5) is a run with ``shuffle=True, seed=s``.

    ``data`` (an ``(X, y)`` pair, e.g. a data file's; called ``name``) replaces
    the synthetic data, as the paper's MNIST and USPS: with more than two
    labels the runs are the native multiclass Ballseptron of paper 004 sec. 4
    (theory §2.6), whose multiclass mistakes and margin errors the paper plots.
    ``radii`` (a list of r >= 0) replaces the default radii: ``RADII`` (every
    third when ``quick``) on the synthetic data, whose instances have norm 1, and
    on given data the same times its mean instance norm, since r is on the scale
    of the margins y w . x / ||w|| <= ||x|| (theory §2.3).
    """
    check_n_jobs(n_jobs)
    quick = check_bool("quick", quick)
    if radii is not None:
        radii = check_levels("radii", radii)
    if data is not None:
        return _radius_on_data(data, name, seeds, quick, n_jobs, progress, radii)
    config = RADIUS_QUICK if quick else RADIUS_DATA
    data = make_separable(**config, seed=0)
    if radii is None:
        radii = RADII[::3] if quick else RADII
    seed_list = _seeds(seeds, 2 if quick else 5)
    rows = radius_curve(radii, data, seeds=seed_list, n_jobs=n_jobs, progress=progress)
    meta = provenance(
        "ballseptron-radius", quick=quick, n_seeds=len(seed_list), **config, data_seed=0
    )
    name = (
        f"make_separable: T = {config['n_samples']}, n = {config['n_features']}, "
        f"margin {config['margin']:g}, label noise {config['label_noise']:g}"
    )
    records = [{**meta, "dataset": name, **row} for row in rows]
    fig = plot_radius_curve(records)
    add_caption(
        fig,
        "Synthetic stand-in for the paper's MNIST/USPS runs: unit-norm instances in "
        f"n = {config['n_features']} dimensions, separable with margin {config['margin']:g}, "
        f"a fraction {config['label_noise']:g} of the labels flipped; T = {config['n_samples']} "
        "trials, one pass in a random order per seed. "
        "Lines: mean over seeds, error bars ± 1 std.",
        provenance_line(meta),
    )
    return records, fig


def _radius_on_data(data, name, seeds, quick, n_jobs, progress, radii):
    """:func:`ballseptron_radius` on given data: native multiclass for more than two labels."""
    X, y = as_xy(data, "data", multiclass=True)
    n_classes = int(y.max()) + 1
    multiclass = "native" if n_classes > 2 else None
    scale = None
    if radii is None:
        scale = float(row_norms(X, 2.0).mean())
        radii = [r * scale for r in (RADII[::3] if quick else RADII)]
    seed_list = _seeds(seeds, 2 if quick else 5)
    rows = radius_curve(radii, (X, y), seeds=seed_list, n_jobs=n_jobs, progress=progress,
                        multiclass=multiclass)
    meta = provenance("ballseptron-radius", quick=quick, n_seeds=len(seed_list), data=name,
                      n_samples=X.shape[0], n_features=X.shape[1], n_classes=n_classes)
    records = [{**meta, "dataset": name, **row} for row in rows]
    fig = plot_radius_curve(records)
    kind = ("the native multiclass Ballseptron (paper 004 sec. 4): a mistake when the true "
            "class's score is not above every other, a margin error when it is by at most r "
            "||w^y - w^y~||" if multiclass else "the binary Ballseptron")
    add_caption(
        fig,
        f"Data: {name}, T = {X.shape[0]} instances in n = {X.shape[1]} dimensions, "
        f"{n_classes} classes; {kind}. "
        + ("" if scale is None else f"Radii: the synthetic figure's times the mean instance "
           f"norm {scale:.3g}. ")
        + "One pass in a random order per seed. "
        "Lines: mean over seeds, error bars ± 1 std.",
        provenance_line(meta),
    )
    return records, fig


def sop_toy_figure(*, seeds=None, quick=False, n_jobs=None, progress=False):
    """SO paper sec. 5 table: FO and SO(1), SO(10), SO(50) test mistakes on the two toy sets.

    Paper-size defaults of :func:`sop_toy` (100 features, 3000 + 3000
    examples, 20 permutations; ``seeds`` sets the number of permutations).
    """
    quick = check_bool("quick", quick)
    data = SOP_QUICK if quick else SOP_DATA
    n_permutations = len(_seeds(seeds, 3 if quick else 20))
    rows = sop_toy(**data, n_permutations=n_permutations, n_jobs=n_jobs, progress=progress)
    meta = provenance(
        "sop-toy",
        quick=quick,
        n_seeds=n_permutations,
        n_features=data["n_features"],
        ratio=data["ratio"],
        margin=data["margin"],
    )
    records = [{**meta, **row} for row in rows]
    fig = plot_sop_toy(records)
    add_caption(
        fig,
        f"Data (SO paper, sec. 5): Gaussian instances in n = {data['n_features']} dimensions "
        f"whose correlation matrix has one eigenvalue {data['ratio']:g} times the others, "
        f"labelled with margin {data['margin']:g} by the dominant (set 1) or a non-dominant "
        f"(set 2) eigenvector; {data['n_train']} training + {data['n_test']} test examples. "
        "One epoch per training-set permutation (seed).",
        provenance_line(meta),
    )
    return records, fig


FIGURES = {
    "hop-fig2": hop_fig2,
    "ballseptron-noise": ballseptron_noise,
    "ballseptron-radius": ballseptron_radius,
    "sop-toy": sop_toy_figure,
}


def save_figure(name: str, records, fig, out) -> list[str]:
    """Write ``out/name.png`` (150 dpi), ``.pdf`` and ``.csv`` (the records); return the paths.

    Each file is written under a temporary name and renamed when complete, so an
    interrupted save leaves no partial file.
    """
    os.makedirs(out, exist_ok=True)
    base = os.path.join(os.fspath(out), name)
    with replacing(base + ".png") as temp:
        fig.savefig(temp, dpi=150)
    with replacing(base + ".pdf") as temp:
        fig.savefig(temp)
    write_csv(records, base + ".csv")
    return [base + ".png", base + ".pdf", base + ".csv"]
