"""Paper 003 (Cesa-Bianchi, Conconi, Gentile, the Second-Order Perceptron), sec. 5.

- ``sop-toy``: FO and SO(1), SO(10), SO(50) test mistakes on the two toy data sets.
"""

from __future__ import annotations

from .._validation import check_bool
from ..experiments import sop_toy
from ..plots import plot_sop_toy
from ..plots.style import add_caption
from .common import Reproduction, provenance, provenance_line, seed_range

#: Paper 003, sec. 5: the two toy data sets (``make_dominant_eigen``), and quick sizes.
SOP_DATA = {"n_train": 3000, "n_test": 3000, "n_features": 100, "ratio": 8.0, "margin": 0.25}
SOP_QUICK = dict(SOP_DATA, n_train=300, n_test=300, n_features=20)


def sop_toy_records(*, seeds=None, quick=False, n_jobs=None, progress=False) -> list[dict]:
    """SO paper sec. 5 table: FO and SO(1), SO(10), SO(50) test mistakes on the two toy sets.

    Paper-size defaults of :func:`~perceptron_bounds.experiments.sop_toy` (100
    features, 3000 + 3000 examples, 20 permutations; ``seeds`` sets the number of
    permutations), each record led by its provenance.
    """
    quick = check_bool("quick", quick)
    data = SOP_QUICK if quick else SOP_DATA
    n_permutations = len(seed_range(seeds, 3 if quick else 20))
    rows = sop_toy(**data, n_permutations=n_permutations, n_jobs=n_jobs, progress=progress)
    meta = provenance(
        "sop-toy",
        quick=quick,
        n_seeds=n_permutations,
        n_features=data["n_features"],
        ratio=data["ratio"],
        margin=data["margin"],
    )
    return [{**meta, **row} for row in rows]


def draw_sop_toy(records, **options):
    """The figure of :func:`sop_toy_records`, its caption stating the data."""
    meta = records[0]
    data = SOP_QUICK if meta["quick"] else SOP_DATA
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
    return fig


#: The declaration; calling it returns ``(records, figure)``.
sop_toy_figure = Reproduction("sop-toy", "figure", "paper 003, sec. 5", sop_toy_records,
                              draw_sop_toy, quick=SOP_QUICK)
