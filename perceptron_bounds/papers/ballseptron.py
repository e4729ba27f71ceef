"""Paper 004 (Shalev-Shwartz, Singer, the Ballseptron), sec. 5, Fig. 3.

- ``ballseptron-noise``: Fig. 3 bottom, the Perceptron's mistakes and the D2- and
  D1-bounds against label and instance noise;
- ``ballseptron-radius``: Fig. 3 top, mistakes/T and margin errors/T against the
  radius r, on synthetic data or on given data; ``ballseptron-radius --data
  mnist|usps`` on the paper's data sets, with a report.
"""

from __future__ import annotations

from .._linalg import row_norms
from .._validation import check_bool
from ..datasets import center_and_scale, make_separable
from ..experiments import radius_curve
from ..experiments._cache import data_key, run_cached_cells
from ..experiments._cells import as_xy, check_levels, check_n_jobs
from ..experiments.noise import INSTANCE_LEVELS, LABEL_LEVELS, noise_curve
from ..plots import plot_noise_curve, plot_radius_curve, plot_radius_panels
from ..plots.style import add_caption
from .common import (
    Reproduction,
    load_real,
    markdown_table,
    mean_of,
    provenance,
    provenance_line,
    seed_range,
    size_line,
    subsample,
)

#: Paper 004, sec. 5: T points on the unit circle, margin 0.15; the bounds' gamma.
NOISE_DATA = {"n": 10000, "margin": 0.15, "gamma": 0.15}
NOISE_QUICK = dict(NOISE_DATA, n=1000)

#: The synthetic stand-in for MNIST/USPS in the radius figure (the CLI's built-in data, larger).
RADIUS_DATA = {"n_samples": 10000, "n_features": 20, "margin": 0.05, "label_noise": 0.05}
RADIUS_QUICK = dict(RADIUS_DATA, n_samples=1000)
RADII = (0.0, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5)

#: Paper 004 sec. 5: degree-5 polynomial kernel with bias 1/2, centred and scaled instances.
RADIUS_KERNEL = {"kernel": "poly", "degree": 5, "gamma": 1.0, "coef0": 0.5}
#: The radii, this toolkit's choice (only the paper's claim is compared). Useful radii < 0.3
#: (at r = 0.5 a quarter of 10,000 MNIST rounds are mistakes and the runs grow costly).
RADIUS_RADII = (0.0, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3)
RADIUS_SEEDS = {"mnist": 3, "usps": 3}
RADIUS_REAL_QUICK = {"n_train": 2000, "seeds": 2}


def ballseptron_noise_records(*, seeds=None, quick=False, n_jobs=None,
                              progress=False) -> list[dict]:
    """Ballseptron Fig. 3 bottom: Perceptron mistakes, D2- and D1-bounds over T vs eta and sigma.

    Data: ``make_unit_circle(10000, margin=0.15, ...)`` with label noise eta in
    0..0.1 and instance noise sigma in 0..0.5; u = the generating separator
    and gamma = 0.15, plus the bounds minimised over gamma. Each seed s
    (default 5) draws the data with ``seed=s``.
    """
    quick = check_bool("quick", quick)
    data = NOISE_QUICK if quick else NOISE_DATA
    seed_list = seed_range(seeds, 2 if quick else 5)
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
    return records


def draw_ballseptron_noise(records, **options):
    """The figure of :func:`ballseptron_noise_records`: label noise left, instance noise right."""
    meta = records[0]
    data = NOISE_QUICK if meta["quick"] else NOISE_DATA
    fig = plot_noise_curve(records)
    add_caption(
        fig,
        f"Data (Ballseptron paper, sec. 5): T = {data['n']} points on the unit circle, separable "
        f"by u with margin {data['margin']:g}, then labels flipped with probability η (left) or "
        "Gaussian noise N(0, σ²I) added to the instances (right). The Perceptron makes one pass; "
        "lines: mean over data draws (seeds), error bars ± 1 std.",
        provenance_line(meta),
    )
    return fig


def ballseptron_radius_records(*, seeds=None, quick=False, n_jobs=None, progress=False,
                               data=None, name="given data", radii=None) -> list[dict]:
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
    seed_list = seed_range(seeds, 2 if quick else 5)
    rows = radius_curve(radii, data, seeds=seed_list, n_jobs=n_jobs, progress=progress)
    meta = provenance(
        "ballseptron-radius", quick=quick, n_seeds=len(seed_list), **config, data_seed=0
    )
    name = (
        f"make_separable: T = {config['n_samples']}, n = {config['n_features']}, "
        f"margin {config['margin']:g}, label noise {config['label_noise']:g}"
    )
    return [{**meta, "dataset": name, **row} for row in rows]


def _default_radii(X, quick: bool) -> tuple[list[float], float]:
    """The synthetic figure's radii times the mean instance norm of ``X``, and that norm."""
    scale = float(row_norms(X, 2.0).mean())
    return [r * scale for r in (RADII[::3] if quick else RADII)], scale


def _radius_on_data(data, name, seeds, quick, n_jobs, progress, radii):
    """:func:`ballseptron_radius_records` on given data: native multiclass for more than two
    labels."""
    X, y = as_xy(data, "data", multiclass=True)
    n_classes = int(y.max()) + 1
    multiclass = "native" if n_classes > 2 else None
    if radii is None:
        radii, _ = _default_radii(X, quick)
    seed_list = seed_range(seeds, 2 if quick else 5)
    rows = radius_curve(radii, (X, y), seeds=seed_list, n_jobs=n_jobs, progress=progress,
                        multiclass=multiclass)
    meta = provenance("ballseptron-radius", quick=quick, n_seeds=len(seed_list), data=name,
                      n_samples=X.shape[0], n_features=X.shape[1], n_classes=n_classes)
    return [{**meta, "dataset": name, **row} for row in rows]


def draw_ballseptron_radius(records, *, data=None, radii=None, **options):
    """The figure of :func:`ballseptron_radius_records`; on given ``data`` its caption states
    the data and, when ``radii`` were not given, the mean instance norm that scaled them."""
    meta = records[0]
    fig = plot_radius_curve(records)
    if data is None:
        config = RADIUS_QUICK if meta["quick"] else RADIUS_DATA
        add_caption(
            fig,
            "Synthetic stand-in for the paper's MNIST/USPS runs: unit-norm instances in "
            f"n = {config['n_features']} dimensions, separable with margin {config['margin']:g}, "
            f"a fraction {config['label_noise']:g} of the labels flipped; T = "
            f"{config['n_samples']} trials, one pass in a random order per seed. "
            "Lines: mean over seeds, error bars ± 1 std.",
            provenance_line(meta),
        )
        return fig
    scale = None if radii is not None else _default_radii(as_xy(data, "data", multiclass=True)[0],
                                                          meta["quick"])[1]
    kind = ("the native multiclass Ballseptron (paper 004 sec. 4): a mistake when the true "
            "class's score is not above every other, a margin error when it is by at most r "
            "||w^y - w^y~||" if meta["n_classes"] > 2 else "the binary Ballseptron")
    add_caption(
        fig,
        f"Data: {meta['data']}, T = {meta['n_samples']} instances in n = {meta['n_features']} "
        f"dimensions, {meta['n_classes']} classes; {kind}. "
        + ("" if scale is None else f"Radii: the synthetic figure's times the mean instance "
           f"norm {scale:.3g}. ")
        + "One pass in a random order per seed. "
        "Lines: mean over seeds, error bars ± 1 std.",
        provenance_line(meta),
    )
    return fig


def ballseptron_radius_real_records(name: str = "mnist", *, seeds=None, quick=False,
                                    n_jobs=None, progress=False, cache=None, data_home=None,
                                    download=False, radii=RADIUS_RADII) -> list[dict]:
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
    default = RADIUS_REAL_QUICK["seeds"] if quick else RADIUS_SEEDS[name]
    seed_list = list(seed_range(seeds, default))
    train, _ = load_real(name, data_home, download)
    X, y = subsample(train.X, train.y, RADIUS_REAL_QUICK["n_train"] if quick else None)
    X, _ = center_and_scale(X)
    meta = provenance("ballseptron-radius", quick=quick, n_seeds=len(seed_list), data=name,
                      n_samples=X.shape[0], n_features=X.shape[1], **RADIUS_KERNEL)
    key = data_key(X, y)
    cells = [{"X": X, "y": y, "data_key": key, "r": r, "seed": seed, "version": meta[
        "perceptron_bounds_version"]} for r in radii for seed in seed_list]
    rows = run_cached_cells(_native_radius_cell, cells, cache=cache, n_jobs=n_jobs,
                            progress=progress, desc="ballseptron-radius")
    return [{**meta, "dataset": name.upper(), **row} for row in rows]


def draw_ballseptron_radius_real(records, *args, **options):
    """The figure of :func:`ballseptron_radius_real_records`: mistakes/T and margin errors/T."""
    meta = records[0]
    fig = plot_radius_panels(records)
    add_caption(
        fig,
        f"Data: {meta['data'].upper()} training set, T = {meta['n_samples']} instances centred "
        "and scaled to "
        "average norm 1 (paper 004 sec. 5); the native multiclass Ballseptron (paper 004 "
        "sec. 4) with the kernel (x·z + 1/2)^5; one pass in a random order per seed. A margin "
        "error: the right class wins by at most r ||w^y - w^y~||. Lines: mean over seeds.",
        provenance_line(meta),
    )
    return fig


def _native_radius_cell(X, y, data_key, r, seed, version) -> list[dict]:
    return radius_curve([r], (X, y), seeds=[seed], multiclass="native", **RADIUS_KERNEL)


def radius_markdown(records) -> str:
    """The report of :func:`ballseptron_radius_real_records`: mistakes/T per r, the claim."""
    meta = records[0]
    radii = sorted({row["r"] for row in records})
    rates = {r: mean_of(records, "mistake_rate", r=r) for r in radii}
    margins = {r: mean_of(records, "margin_error_rate", r=r) for r in radii}
    rows = [[f"{r:g}", f"{rates[r]:.4f}", f"{margins[r]:.4f}",
             "-" if r == 0 or 0.0 not in rates else f"{rates[r] - rates[0.0]:+.4f}"]
            for r in radii]
    parts = [
        f"# Ballseptron (paper 004, Fig. 3 top) on {meta['data'].upper()}",
        "",
        size_line(meta) + f" T = {meta['n_samples']} rounds, {meta['n_seeds']} seed(s), "
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


#: The declarations; calling one returns ``(records, figure)`` (the real-data one: and the
#: Markdown report).
ballseptron_noise = Reproduction("ballseptron-noise", "figure", "paper 004, Fig. 3 bottom",
                                 ballseptron_noise_records, draw_ballseptron_noise,
                                 quick=NOISE_QUICK)
ballseptron_radius = Reproduction("ballseptron-radius", "figure", "paper 004, Fig. 3 top",
                                  ballseptron_radius_records, draw_ballseptron_radius,
                                  options=("data", "radii"), quick=RADIUS_QUICK)
ballseptron_radius_real = Reproduction(
    "ballseptron-radius", "figure", "paper 004, Fig. 3 top, on MNIST or USPS",
    ballseptron_radius_real_records, draw_ballseptron_radius_real, radius_markdown,
    options=("data", "radii"), real=True, quick=RADIUS_REAL_QUICK, data=tuple(RADIUS_SEEDS))
