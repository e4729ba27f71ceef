"""The papers' experiments as functions returning tidy tables (lists of records).

Every experiment runs independent (algorithm, parameter, seed) cells through
joblib: ``n_jobs`` sets the workers, and the table is the same whatever it
is. To spread a sweep over a cluster, wrap the call in
``joblib.parallel_config(backend="dask")`` inside a ``dask.distributed``
``Client`` (install the ``dask`` extra).
"""

from .._tables import summarize
from ._cells import AlgorithmSpec, write_csv
from .epochs import epochs_curve
from .noise import noise_curve
from .radius import radius_curve
from .sop import sop_toy

__all__ = [
    "AlgorithmSpec",
    "epochs_curve",
    "noise_curve",
    "radius_curve",
    "sop_toy",
    "summarize",
    "write_csv",
]
