"""The papers' figures at paper size: configurations behind ``perceptron-bounds figure``.

Each function runs its experiment and returns ``(records, figure)``;
``quick=True`` shrinks the sizes (for tests), ``seeds`` sets how many seeds
(permutations or data draws) are averaged.
"""

from __future__ import annotations

import os

from .._validation import check_int
from ..datasets import make_hop_artificial, make_separable
from ._cells import AlgorithmSpec, check_n_jobs, write_csv
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
    AlgorithmSpec("HO_7(0.0)", "pnorm_perceptron", {"p": 7.0}),
    AlgorithmSpec("HO_7(0.4)", "higher_order", {"p": 7.0, "c": 0.4}),
)

#: The synthetic stand-in for MNIST/USPS in the radius figure (the CLI's built-in data, larger).
RADIUS_DATA = {"n_samples": 10000, "n_features": 20, "margin": 0.05, "label_noise": 0.05}
RADII = (0.0, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5)


def _seeds(seeds: int | None, default: int) -> range:
    """Seeds 0..N-1, N = ``seeds`` (an integer >= 1) or the figure's default."""
    return range(default if seeds is None else check_int("seeds", seeds, low=1))


def hop_fig2(*, seeds=None, quick=False, n_jobs=None, progress=False, specs=HOP_SPECS):
    """HO paper Figure 2: training updates and test error vs epochs on Artificial 0.0 and 0.1.

    Data: ``make_hop_artificial(eta, seed=0)`` for eta = 0.0 and 0.1 (the
    same instances and target; eta = 0.1 flips labels), 1000 + 1000 examples
    in 500 dimensions. Each seed s (default 5; the whole figure takes about
    80 s on one core) presents the training set in the permutation
    ``default_rng(s)``, cycled for 1..20 epochs.
    """
    from ..plots import plot_epochs_curve

    check_n_jobs(n_jobs)
    size = {"n_train": 200, "n_test": 200, "n_features": 100, "n_relevant": 10} if quick else {}
    epochs = (1, 2, 3, 5) if quick else PAPER_EPOCHS
    seed_list = _seeds(seeds, 2 if quick else 5)
    cells = []
    # One sweep over both data sets, the noisy one first: its HO_p(0.4) runs are the
    # longest, so the short cells of Artificial 0.0 fill the workers' tail.
    for eta in (0.1, 0.0):
        train, test = make_hop_artificial(eta, seed=0, **size)
        tag = {"figure": "hop-fig2", "eta": eta, "data_seed": 0}
        cells += epochs_cells(specs, train, test, epochs, seed_list, tag=tag)
    records = run_epochs_cells(cells, n_jobs=n_jobs, progress=progress, desc="hop-fig2")
    records.sort(key=lambda row: row["eta"])
    return records, plot_epochs_curve(records, panel="eta")


def ballseptron_noise(*, seeds=None, quick=False, n_jobs=None, progress=False):
    """Ballseptron Fig. 3 bottom: Perceptron mistakes, D2- and D1-bounds over T vs eta and sigma.

    Data: ``make_unit_circle(10000, margin=0.15, ...)`` with label noise eta in
    0..0.1 and instance noise sigma in 0..0.5; u = the generating separator
    and gamma = 0.15, plus the bounds minimised over gamma. Each seed s
    (default 5) draws the data with ``seed=s``.
    """
    from ..plots import plot_noise_curve

    n = 1000 if quick else 10000
    seed_list = _seeds(seeds, 2 if quick else 5)
    records = []
    for kind, levels in (("label", LABEL_LEVELS), ("instance", INSTANCE_LEVELS)):
        rows = noise_curve(
            kind,
            levels[::3] if quick else levels,
            n=n,
            seeds=seed_list,
            n_jobs=n_jobs,
            progress=progress,
        )
        records.extend({"figure": "ballseptron-noise", **row} for row in rows)
    return records, plot_noise_curve(records)


def ballseptron_radius(*, seeds=None, quick=False, n_jobs=None, progress=False):
    """Ballseptron Fig. 3 top on synthetic data: mistakes/T and margin errors/T vs r.

    Data: ``make_separable(10000, 20, margin=0.05, label_noise=0.05, seed=0)``
    (unit-norm instances, so r is on the scale of the margin); each seed s
    (default 5) is a run with ``shuffle=True, seed=s``.
    """
    from ..plots import plot_radius_curve

    check_n_jobs(n_jobs)
    config = dict(RADIUS_DATA, n_samples=1000) if quick else RADIUS_DATA
    data = make_separable(**config, seed=0)
    radii = RADII[::3] if quick else RADII
    rows = radius_curve(
        radii, data, seeds=_seeds(seeds, 2 if quick else 5), n_jobs=n_jobs, progress=progress
    )
    name = (
        f"make_separable: T = {config['n_samples']}, n = {config['n_features']}, "
        f"margin {config['margin']:g}, label noise {config['label_noise']:g}"
    )
    records = [{"figure": "ballseptron-radius", "dataset": name, **row} for row in rows]
    return records, plot_radius_curve(records)


def sop_toy_figure(*, seeds=None, quick=False, n_jobs=None, progress=False):
    """SO paper sec. 5 table: FO and SO(1), SO(10), SO(50) test mistakes on the two toy sets.

    Paper-size defaults of :func:`sop_toy` (100 features, 3000 + 3000
    examples, 20 permutations; ``seeds`` sets the number of permutations).
    """
    from ..plots import plot_sop_toy

    size = {"n_train": 300, "n_test": 300, "n_features": 20} if quick else {}
    rows = sop_toy(
        **size,
        n_permutations=len(_seeds(seeds, 3 if quick else 20)),
        n_jobs=n_jobs,
        progress=progress,
    )
    records = [{"figure": "sop-toy", **row} for row in rows]
    return records, plot_sop_toy(records)


FIGURES = {
    "hop-fig2": hop_fig2,
    "ballseptron-noise": ballseptron_noise,
    "ballseptron-radius": ballseptron_radius,
    "sop-toy": sop_toy_figure,
}


def save_figure(name: str, records, fig, out) -> list[str]:
    """Write ``out/name.png`` (150 dpi), ``.pdf`` and ``.csv`` (the records); return the paths."""
    os.makedirs(out, exist_ok=True)
    base = os.path.join(os.fspath(out), name)
    fig.savefig(base + ".png", dpi=150)
    fig.savefig(base + ".pdf")
    write_csv(records, base + ".csv")
    return [base + ".png", base + ".pdf", base + ".csv"]
