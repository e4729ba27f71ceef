"""The papers' experiments as functions returning tidy tables (lists of records).

Every experiment runs independent (algorithm, parameter, seed) cells through
joblib: ``n_jobs`` sets the workers, and the table is the same whatever it
is. To spread a sweep over a cluster, wrap the call in
``joblib.parallel_config(backend="dask")`` inside a ``dask.distributed``
``Client`` (install the ``dask`` extra). The real-data experiments take
``cache=DIR``: every finished cell is kept on disk, so a sweep killed half way
and started again recomputes nothing that finished. Nothing here draws or
writes a figure: the papers' configurations, figures and reports are in
``perceptron_bounds.papers``.
"""

from .._tables import summarize
from ._cells import AlgorithmSpec, write_csv
from .bound_atlas import ATLAS_COLUMNS, bound_atlas, read_atlas_csv, tightest, write_atlas_csv
from .bound_ratios import bound_ratios
from .budget import budget_curve
from .corrections import best_params, corrections_table, cross_validate
from .epochs import epochs_curve
from .noise import noise_curve
from .radius import radius_curve
from .selective import selective_curve
from .sop import sop_toy
from .voted_epochs import voted_epochs_curve

__all__ = [
    "ATLAS_COLUMNS",
    "AlgorithmSpec",
    "best_params",
    "bound_atlas",
    "bound_ratios",
    "budget_curve",
    "corrections_table",
    "cross_validate",
    "epochs_curve",
    "noise_curve",
    "radius_curve",
    "read_atlas_csv",
    "selective_curve",
    "sop_toy",
    "summarize",
    "tightest",
    "voted_epochs_curve",
    "write_atlas_csv",
    "write_csv",
]
