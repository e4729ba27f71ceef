"""Cells cached on disk: a sweep killed half way and started again loses nothing.

The real-data experiments run cells that take seconds to minutes each (one
kernel run over MNIST). With ``cache=DIR`` every finished cell's records are
stored by :class:`joblib.Memory` in ``DIR``, keyed by the cell's arguments; a
second call with the same arguments reads them back instead of running the
cell. The data arrays themselves are not hashed at every call (a 60,000 x 784
matrix takes about a second): the caller hashes them once (:func:`data_key`)
and passes the digest as the cell's ``data_key``, while the arrays are in
the ``ignore`` list. The package version is a cell argument too, so that a
new version recomputes rather than reuses. joblib also drops a function's
entries when its source changes.

Workers of a cluster (``joblib.parallel_config(backend="dask")``) must see
``DIR`` on a shared file system.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable, Sequence

from ._cells import run_cells

#: The cell arguments that hold data arrays: never hashed per call, see :func:`data_key`.
DATA_ARGUMENTS = ("X", "y", "X_test", "y_test")


def check_cache(cache) -> str | None:
    """None, or the folder ``cache`` (a str or os.PathLike) made if missing, as an absolute path.

    Raises
    ------
    TypeError
        For another kind of value.
    ValueError
        When ``cache`` exists and is not a folder.
    """
    if cache is None:
        return None
    if not isinstance(cache, (str, os.PathLike)):
        raise TypeError(f"cache must be None or a folder path, got {type(cache).__name__}")
    path = os.path.abspath(os.fspath(cache))
    if os.path.exists(path) and not os.path.isdir(path):
        raise ValueError(f"cache must be a folder, got the file {path}")
    os.makedirs(path, exist_ok=True)
    return path


def data_key(*arrays) -> str:
    """A digest of the data arrays (dense or sparse), for the cells' ``data_key`` argument.

    Examples
    --------
    >>> import numpy as np
    >>> data_key(np.zeros(3)) == data_key(np.zeros(3)) != data_key(np.ones(3))
    True
    """
    from joblib import hash as joblib_hash

    return joblib_hash(arrays)


def run_cached_cells(
    function: Callable[..., list[dict]],
    cells: Sequence[dict],
    *,
    cache,
    n_jobs: int | None,
    progress: bool,
    desc: str,
) -> list[dict]:
    """:func:`~perceptron_bounds.experiments._cells.run_cells` with each cell's records on disk.

    Parameters
    ----------
    function : callable
        The cell, a module-level function of keyword arguments returning a list of
        records; its arguments named in :data:`DATA_ARGUMENTS` are not part of the
        cache key, so the cells must also carry a ``data_key`` (:func:`data_key`).
    cells : sequence of dict
        The cells' keyword arguments.
    cache : str, os.PathLike or None
        The folder of the cache (made if missing); None runs every cell.
    n_jobs, progress, desc
        As for ``run_cells``.

    Returns
    -------
    list of dict
        The records of the cells in cell order, whether computed now or read back.
    """
    folder = check_cache(cache)
    if folder is not None:
        from joblib import Memory

        names = inspect.signature(function).parameters
        ignore = [name for name in DATA_ARGUMENTS if name in names]
        function = Memory(folder, verbose=0).cache(function, ignore=ignore)
    return run_cells(function, cells, n_jobs=n_jobs, progress=progress, desc=desc)
