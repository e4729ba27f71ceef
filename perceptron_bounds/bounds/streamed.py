"""The quantities of a run's bounds, accumulated over its data read chunk by chunk (issue 34).

:func:`streamed_run_data` reads the run's rows once, in chunks of ``(X, y, first row)``,
and keeps per row only what the providers of the bounds read of a given comparator u
(:mod:`.providers`, :mod:`.second_order`, ...): the label, ||x||, ||x||_p for a run measured
in a p-norm, u.x; and of the rows of the update trials (mistakes and margin errors), what
the Second-Order family's spectra need (:mod:`.spectra`): the rows themselves when they are
fewer than the features (the m x m Gram of the mistakes, as in memory), else X_A^T X_A
(n x n), summed chunk by chunk, with a row counted as often as the run updated on it.

Every per-row value is the in-memory one, bit for bit (the same row-wise computations on
the same rows); X_A^T X_A summed over chunks equals the in-memory product to rounding.
What a bound would read beyond that (the SVM comparator search, the pieces of the tracking
bounds, the pseudoinverse bound's projection of every row on the mistakes' span) needs the
rows at once: :class:`StreamedRows` refuses it in one line.

Memory: 8 bytes per row for each kept value (three or four), the kept rows or one n x n
matrix, and the arrays over the trials that the report (``evaluate``) builds as it
does in memory (about 60 bytes per trial: the sorted margins and the hinge profiles).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._linalg import dual_exponent, row_norms
from .._validation import check_labels
from ..kernels import Kernel, check_feature_norms
from ..registry import get as get_algorithm
from .declaration import bounds_of, by_provider, norm_exponent, provider_of
from .quantities import RunData
from .search import unit_comparator
from .spectra import gram_spectrum

#: The one line of a bound that needs the rows at once.
NEEDS_ROWS = ("needs the data's rows at once, which a streamed file does not keep: read the "
              "file with load_data and call evaluate")

class StreamedRows:
    """Stands for a streamed run's X where the providers read it: ``X @ u`` for the given u
    (its values kept per row), and ``X[rows]`` for kept rows only; anything else is a
    ``ValueError`` (:data:`NEEDS_ROWS`)."""

    def __init__(self, shape, u, values, kept, matrix):
        self.shape, self._u, self._values = shape, u, values
        self._kept, self._matrix = kept, matrix

    def __matmul__(self, v):
        if v is self._u or np.array_equal(v, self._u):
            return self._values
        raise ValueError(f"a comparator other than the given u: it {NEEDS_ROWS}")

    def __getitem__(self, rows):
        rows = np.asarray(rows, dtype=np.int64)
        at = np.searchsorted(self._kept, rows)
        if self._matrix is None or np.any(at >= self._kept.shape[0]) or np.any(
                self._kept[np.minimum(at, self._kept.shape[0] - 1)] != rows):
            raise ValueError(f"rows other than those of the update trials: a bound that reads "
                             f"them {NEEDS_ROWS}")
        return self._matrix[at]


def streamed_run_data(run, chunks, n_rows: int, u) -> RunData:
    """A :class:`~.quantities.RunData` of ``run`` and the comparator ``u``, read from ``chunks``.

    Parameters
    ----------
    run : OnlineRun
        A binary linear-kernel run over the rows of ``chunks`` (checked by the caller).
    chunks : iterable of (X, y, first)
        The run's rows in order, X dense or CSR with ``run.n_features`` columns, y its labels,
        ``first`` the index of its first row.
    n_rows : int
        The number of rows.
    u : ndarray of shape (n_features,)
        The comparator (scaled here to unit norm, or unit q-norm, as ``evaluate`` scales it).

    Returns
    -------
    RunData
        Its ``X`` a :class:`StreamedRows`; ``y``, ``norms``, the p-norms and the spectra of
        the update rows those of the run's data. The spectra summed over chunks are cached
        under the keys their providers ask for (:meth:`RunData.cached`): the mistakes'
        (``"mistake_spectrum"``, :mod:`.second_order`) and the update trials'
        (``"update_spectrum"``, :func:`.spectra.update_spectrum`).
    """
    kernel = Kernel()
    p = norm_exponent(run)
    u = unit_comparator(u, run.n_features, "given", kernel, q=dual_exponent(p)).u
    instance_map = get_algorithm(run.algorithm).instance_map
    sets = {"mistake_spectrum": run.mistake_rows,
            "update_spectrum": run.sample_index[run.update_trials]}
    spectra = list(sets) if _reads_spectra(run) else []
    updates = sets["update_spectrum"]
    kept = np.unique(updates) if spectra else np.zeros(0, dtype=np.int64)
    counts = np.bincount(updates, minlength=n_rows) if spectra else None
    summed = spectra and kept.shape[0] > run.n_features  # X_A^T X_A, else the rows themselves
    weights = {key: np.bincount(sets[key], minlength=n_rows) for key in spectra} if summed else {}
    grams = {key: np.zeros((run.n_features, run.n_features)) for key in weights}
    y_pm, norms, values = np.empty(n_rows), np.empty(n_rows), np.empty(n_rows)
    p_norms = np.empty(n_rows) if p != 2.0 else None
    parts = []
    for X, y, first in chunks:
        stop = first + X.shape[0]
        X = X if instance_map is None else instance_map(X, run.params)
        y_pm[first:stop] = check_labels(y, X.shape[0], run.classes)[0]
        norms[first:stop] = check_feature_norms(X, kernel)
        values[first:stop] = np.asarray(X @ u, dtype=np.float64).ravel()
        if p_norms is not None:
            p_norms[first:stop] = row_norms(X, p)
        if not spectra:
            continue
        local = np.flatnonzero(counts[first:stop])
        if not summed:
            parts.append(X[local])
        for key, gram in grams.items():
            rows = X[local]
            weighted = rows.multiply(weights[key][first + local][:, None]) if sp.issparse(
                rows) else rows * weights[key][first + local][:, None]
            product = rows.T @ weighted
            gram += product.toarray() if sp.issparse(product) else product
    matrix = None
    if parts:
        matrix = sp.vstack(parts, format="csr") if sp.issparse(parts[0]) else np.vstack(parts)
    cached = {key: gram_spectrum(gram) for key, gram in grams.items()}
    if p_norms is not None:
        cached[("p_norms", p)] = p_norms
    return RunData.of_parts(run, StreamedRows((n_rows, run.n_features), u, values, kept, matrix),
                            y_pm, norms, cached)


def _reads_spectra(run) -> bool:
    """Whether the providers of ``run``'s bounds hold dense matrices of its update rows
    (``Quantities.memory``: the spectra of the Second-Order family)."""
    return any(provider_of(group[0]).memory(run, True) for group in by_provider(bounds_of(run)))
