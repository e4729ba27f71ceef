"""Input checks shared by every public wrapper.

The wrappers validate, the jitted loops trust: everything that reaches a loop
is a float64 C-contiguous array (or a CSR matrix with float64 data and index
arrays of one of :data:`INDEX_KINDS`), an int64 array, or a Python scalar of the
right kind. Errors name the argument, the allowed range and the value received.
"""

from __future__ import annotations

import difflib
import numbers
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ._jit import jit

#: The index arrays a CSR matrix keeps (both arrays of one kind): scipy's int32, for
#: the matrices whose entries and columns it can count, and int64. A loop compiles for
#: each kind it is given, when it is first given it; any other index arrays are made int64.
INDEX_KINDS = (np.dtype(np.int32), np.dtype(np.int64))


@dataclass(frozen=True)
class Data:
    """Validated training data handed to an algorithm.

    Attributes
    ----------
    X : ndarray of shape (n_samples, n_features) or scipy.sparse.csr_matrix
        float64, C-contiguous when dense; CSR with ``indices``/``indptr`` both
        int32 or both int64 (:data:`INDEX_KINDS`).
    y : ndarray of shape (n_samples,)
        Binary: labels mapped to -1.0 / +1.0 (theory §1.6). Multiclass (the
        ``fit_ovr`` and ``fit_native`` hooks): int64 class indices 0..K-1
        (theory §2.6).
    classes : ndarray of shape (2,) or (K,)
        The original label values, sorted; binary: ``classes[1]`` maps to +1;
        multiclass: index k is ``classes[k]``.
    draws : ndarray of shape (n_trials,) or None
        A randomized algorithm's uniform draws in [0, 1), entry t for trial t
        (``Algorithm.randomized``; theory §1.2); None for the others.
    """

    X: np.ndarray | sp.csr_matrix
    y: np.ndarray
    classes: np.ndarray
    draws: np.ndarray | None = None

    @property
    def n_samples(self) -> int:
        return self.X.shape[0]

    @property
    def n_features(self) -> int:
        return self.X.shape[1]

    @property
    def sparse(self) -> bool:
        return sp.issparse(self.X)


def check_X(X, *, name: str = "X", accept_sparse: bool = True, n_features: int | None = None,
            return_sq_norms: bool = False):
    """Return ``X`` as a writeable float64 C-contiguous ndarray or CSR matrix.

    A CSR result has float64 data, ``indices``/``indptr`` of one of
    :data:`INDEX_KINDS` (scipy's int32 kept as given: no copy) and no duplicate
    entries (they are summed, on a copy, as ``X.toarray()`` would); its entries,
    index ranges and row order are checked in one compiled read (:func:`scan_csr`).
    Raises ``TypeError`` for non-numeric or (when not accepted) sparse input and
    ``ValueError`` for a wrong number of dimensions, rows of different lengths,
    empty data, a feature count different from ``n_features``, NaN or infinite
    values, values so large that the sum of their squares overflows, or (CSR) a
    column index outside [0, n_features) or an index pointer that does not rise
    from 0 to at most the number of entries.

    With ``return_sq_norms``, returns ``(X, sq)``: ``sq[i]`` = x_i . x_i as
    :func:`~perceptron_bounds._linalg.row_sq_norms` gives it, from the same read of X
    (:func:`scan_dense`, :func:`scan_csr`).
    """
    if sp.issparse(X):
        if not accept_sparse:
            raise TypeError(
                f"{name} is a sparse matrix, but this form needs dense data; "
                f"pass {name}.toarray() or use a linear kernel"
            )
        if X.ndim != 2:
            raise ValueError(f"{name} must be 2-D, got {X.ndim}-D")
        _check_numeric_dtype(X.dtype, name)
        X, sq = _canonical_csr(X, name)
    else:
        sq = None  # dense: computed below, after the shape checks
        if isinstance(X, (str, bytes)) or X is None:
            raise TypeError(f"{name} must be an array-like of numbers, got {type(X).__name__}")
        try:
            X = np.asarray(X)
        except ValueError as error:  # e.g. rows of different lengths
            raise ValueError(f"{name} must be a 2-D array of numbers: {error}") from None
        _check_numeric_dtype(X.dtype, name)
        if X.ndim != 2:
            raise ValueError(
                f"{name} must be 2-D (n_samples, n_features), got an array of shape {X.shape}"
            )
        X = np.require(X, np.float64, ["C_CONTIGUOUS", "WRITEABLE"])  # writeable: as above
    if X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"{name} is empty: shape {X.shape}; at least one sample and one feature")
    if n_features is not None and X.shape[1] != n_features:
        raise ValueError(f"{name} has {X.shape[1]} features, but {n_features} were expected")
    # An overflow is the signal (unjitted, NumPy would warn on it); the rows' sums add up
    # to the entries' sum of squares, with its NaN or inf.
    with np.errstate(over="ignore", invalid="ignore"):
        if sq is None:
            sq = np.empty(X.shape[0])
            scan_dense(X, sq)
        total = sq.sum()
    _check_magnitude(X, name, total)
    return (X, sq) if return_sq_norms else X


@jit
def scan_dense(X, sq):
    """sq[i] = the sum of the squares of row i of dense X (vectorised, ``reassoc``): one read
    of X for check_X's overflow/NaN check and run_online's row-norm check."""
    for i in range(X.shape[0]):
        row = X[i]
        s = 0.0
        for j in range(row.shape[0]):
            s += row[j] * row[j]
        sq[i] = s


def _check_magnitude(X, name: str, total: float) -> None:
    """Raise ``ValueError`` for NaN, infinity, or values whose squares overflow float64,
    given ``total``, the sum of the squares of X's entries.

    The loops square and multiply entries of X, and an overflow there would turn margins
    into inf or NaN and silently change the mistakes.
    """
    if not np.isfinite(total):
        check_finite(X, name)
        values = X.data if sp.issparse(X) else X
        raise ValueError(
            f"{name} holds values too large for float64 arithmetic: the sum of its squared "
            f"entries overflows (largest |value| {np.abs(values).max():g}); scale {name} down"
        )


#: :func:`_duplicates` cannot tell without a marker per column, more columns than entries.
UNKNOWN = -1


@jit
def _duplicates(indices, indptr, n_features, markers_allowed):
    """1 if a row of the CSR structure (indices, indptr) names a column twice, else 0.

    A row whose indices are strictly increasing (sorted) or strictly decreasing (as
    SciPy's products write them) has no duplicate: one sequential read. Any other row is
    checked with a mark per column, set and then cleared; without ``markers_allowed``
    such a row gives :data:`UNKNOWN`.
    """
    seen = np.zeros(0, dtype=np.bool_)  # the marks, made at the first row that needs them
    for i in range(indptr.shape[0] - 1):
        start, end = indptr[i], indptr[i + 1]
        p = start + 1
        while p < end and indices[p] > indices[p - 1]:
            p += 1
        if p >= end:  # increasing
            continue
        p = start + 1
        while p < end and indices[p] < indices[p - 1]:
            p += 1
        if p >= end:  # decreasing
            continue
        if not markers_allowed:
            return UNKNOWN
        if seen.shape[0] == 0:
            seen = np.zeros(n_features, dtype=np.bool_)
        twice = False
        for p in range(start, end):
            twice = twice or seen[indices[p]]
            seen[indices[p]] = True
        for p in range(start, end):
            seen[indices[p]] = False
        if twice:
            return 1
    return 0


#: :func:`scan_csr`'s findings: nothing wrong, an index pointer that falls or leaves
#: [0, nnz], a column index outside [0, n_features), a row neither strictly increasing
#: nor strictly decreasing (it may name a column twice).
SCANNED, BAD_POINTER, BAD_COLUMN, UNORDERED = 0, 1, 2, 3


@jit
def scan_csr(data, indices, indptr, n_features, sq):
    """One read of the CSR arrays: sq[i] = the sum of the squares of row i's values, and
    ``(finding, row)``: :data:`SCANNED` (row -1) or the first row with another finding.

    ``BAD_POINTER`` and ``BAD_COLUMN`` end the scan; ``UNORDERED`` rows are only
    recorded (the first), the sums go on. A row's columns are checked by its order
    (neighbours compared in the loop that sums the squares, vectorised) and then its
    first and last; a row in neither order by its smallest and largest. The sums are
    vectorised (``reassoc``): in another order than a plain loop's, within a few units
    in the last place.
    """
    nnz = indices.shape[0]
    unordered = -1
    if indptr[0] != 0:
        return BAD_POINTER, 0
    for i in range(indptr.shape[0] - 1):
        start, end = indptr[i], indptr[i + 1]
        if end < start or end > nnz:
            return BAD_POINTER, i
        a, b = np.uint64(start), np.uint64(end)
        if b == a:
            sq[i] = 0.0
            continue
        s = data[a] * data[a]
        rising = falling = 1
        for p in range(a + np.uint64(1), b):
            s += data[p] * data[p]
            rising &= indices[p] > indices[p - np.uint64(1)]
            falling &= indices[p] < indices[p - np.uint64(1)]
        sq[i] = s
        if rising:
            low, high = indices[a], indices[b - np.uint64(1)]
        elif falling:
            low, high = indices[b - np.uint64(1)], indices[a]
        else:
            low = high = indices[a]
            for p in range(a, b):
                low = min(low, indices[p])
                high = max(high, indices[p])
            if unordered < 0:
                unordered = i
        if low < 0 or high >= n_features:
            return BAD_COLUMN, i
    return (SCANNED, -1) if unordered < 0 else (UNORDERED, unordered)


def index_arrays(X):
    """X's (indices, indptr) as the loops take them: kept when both are of one of
    :data:`INDEX_KINDS`, else both int64; read-only ones copied (Numba types them
    apart, and the loops compile for writeable arrays only)."""
    kind = X.indices.dtype if X.indices.dtype == X.indptr.dtype in INDEX_KINDS else np.int64
    return tuple(np.require(a, kind, "W") for a in (X.indices, X.indptr))


def _canonical_csr(X, name: str = "X"):
    """(X, sq): X as a CSR matrix with float64 data, writeable index arrays of one of
    :data:`INDEX_KINDS`, checked index ranges and no duplicates; sq its rows' sums of
    squares (:func:`scan_csr`)."""
    X = sp.csr_matrix(X, dtype=np.float64)
    # Set on the matrix directly: scipy's constructors choose index kinds of their own.
    X.data = np.require(X.data, requirements="W")
    X.indices, X.indptr = index_arrays(X)
    sq = np.empty(X.shape[0])
    with np.errstate(over="ignore", invalid="ignore"):  # as in check_X
        found, row = scan_csr(X.data, X.indices, X.indptr, X.shape[1], sq)
    if found == BAD_POINTER:
        raise ValueError(
            f"{name} is a corrupt CSR matrix: its index pointer (indptr) must rise from 0 to "
            f"at most its {X.indices.shape[0]} entries, but does not at row {row}")
    if found == BAD_COLUMN:
        columns = X.indices[X.indptr[row]:X.indptr[row + 1]]
        bad = columns[(columns < 0) | (columns >= X.shape[1])][0]
        raise ValueError(
            f"{name} row {row} stores column {bad}, outside [0, {X.shape[1]}) for its "
            f"{X.shape[1]} columns: a corrupt CSR matrix")
    # Sorted rows (or rows in falling order, as SciPy's products write them) name no
    # column twice; others are checked with marks (one per column), not made when there
    # are more columns than entries: then a sort.
    if found == UNORDERED and _duplicates(
            X.indices, X.indptr, X.shape[1], X.shape[1] <= X.indices.shape[0]) != 0:
        # Duplicate entries of a row add up, as in X.toarray(), before a loop that writes
        # a row into a dense vector or squares its entries sees them. On a copy: the
        # caller's arrays may be shared.
        X = X.copy()
        X.sum_duplicates()
        return _canonical_csr(X, name)
    return X, sq


def _check_numeric_dtype(dtype, name: str) -> None:
    if not (np.issubdtype(dtype, np.number) or np.issubdtype(dtype, np.bool_)):
        raise TypeError(f"{name} must hold numbers, got dtype {dtype}")
    if np.issubdtype(dtype, np.complexfloating):
        raise TypeError(f"{name} must hold real numbers, got dtype {dtype}")


def check_finite(values, name: str) -> None:
    """Raise ``ValueError`` naming the first NaN or infinite entry of ``values``.

    ``values`` is an ndarray (1-D: the entry's index; 2-D: its row and column, 0-based)
    or a CSR matrix (the row and column of the stored entry). One line, e.g.
    ``X contains NaN at row 3, column 0 (0-based)``.
    """
    found = first_nonfinite(values)
    if found is not None:
        value, index = found
        where = (f"index {index[0]}" if len(index) == 1
                 else f"row {index[0]}, column {index[1]} (0-based)")
        raise ValueError(f"{name} contains {_nonfinite_name(value)} at {where}")


def first_nonfinite(values) -> tuple[float, tuple[int, ...]] | None:
    """``(value, index)`` of the first NaN or infinite entry of ``values`` in row-major
    order (an ndarray of any dimension, or a CSR matrix: its (row, column)); None if
    every entry is finite."""
    data = values.data if sp.issparse(values) else np.asarray(values)
    if not data.size:
        return None
    with np.errstate(over="ignore", invalid="ignore"):
        total = data.sum()
    if np.isfinite(total):  # the quick check; it also fires on an overflow of the sum
        return None
    bad = ~np.isfinite(data.reshape(-1))
    if not bad.any():
        return None
    if not sp.issparse(values):
        first = int(np.argmax(bad))
        return float(data.reshape(-1)[first]), tuple(
            int(i) for i in np.unravel_index(first, data.shape))
    row = int(np.searchsorted(values.indptr, np.argmax(bad), side="right")) - 1
    span = slice(values.indptr[row], values.indptr[row + 1])
    columns = values.indices[span][bad[span]]
    column = int(columns.min())  # the row's stored entries need not be sorted by column
    return float(values.data[span][bad[span]][columns.argmin()]), (row, column)


def _nonfinite_name(value: float) -> str:
    return "NaN" if np.isnan(value) else "infinity" if value > 0 else "infinity (-inf)"


def _check_y(y, n_samples: int) -> np.ndarray:
    """``y`` as a 1-D array of ``n_samples`` labels without NaN or None (``ValueError`` else)."""
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be 1-D, got an array of shape {y.shape}")
    if y.shape[0] != n_samples:
        raise ValueError(
            f"X and y have different lengths: {n_samples} rows in X, {y.shape[0]} in y"
        )
    if y.dtype.kind == "f":
        check_finite(y, "y")
    if y.dtype.kind == "O":
        for i, v in enumerate(y):
            if v is None:
                raise ValueError(f"y contains None at index {i}")
            if isinstance(v, numbers.Real) and v != v:
                raise ValueError(f"y contains NaN at index {i}")
    return y


def check_label_values(classes: np.ndarray, name: str = "y") -> None:
    """``ValueError`` when the distinct labels ``classes`` hold a non-integer number: a
    continuous target (a regression column, a feature read as the labels), not class
    labels, which scikit-learn's classifiers refuse alike ("Unknown label type:
    continuous")."""
    if classes.dtype.kind != "f":
        return
    fractional = classes[classes != np.round(classes)]
    if fractional.size:
        raise ValueError(
            f"{name} holds non-integer numbers ({fractional.size} distinct, e.g. "
            f"{fractional[0]:.6g}) among its {classes.shape[0]} distinct values: class labels "
            "are needed, not a continuous target; threshold or round it")


#: At least this many rows, each with a label of its own, are a warning
#: (:func:`distinct_labels_warning`); a shorter sequence may well be a toy example.
DISTINCT_LABELS_ROWS = 10


def distinct_labels_warning(n_classes: int, n_samples: int, name: str = "y") -> str | None:
    """The warning for as many classes as rows (at least :data:`DISTINCT_LABELS_ROWS`):
    every trial is then a mistake, a sign that ``name`` is not a label (an identifier, a
    feature); None otherwise."""
    if n_classes < n_samples or n_samples < DISTINCT_LABELS_ROWS:
        return None
    return (f"{name} gives each of the {n_samples} rows a label of its own ({n_classes} "
            "classes): no label is seen twice, so every trial is a mistake; is it a label?")


def _check_known(y: np.ndarray, classes: np.ndarray) -> None:
    """``ValueError`` naming the labels of ``y`` that are not in ``classes``."""
    unknown = np.setdiff1d(_distinct(y), classes)
    if unknown.size:
        raise ValueError(f"y has labels {unknown.tolist()} not in classes {classes.tolist()}")


def check_labels(y, n_samples: int, classes=None) -> tuple[np.ndarray, np.ndarray]:
    """Map labels to -1/+1 (theory §1.6) and return ``(y_pm, classes)``.

    ``classes``, when given, names the two label values (useful when a batch
    of a stream shows only one of them); otherwise they are the sorted
    distinct values of ``y`` and there must be exactly two.
    """
    y = _check_y(y, n_samples)
    if classes is None:
        classes = _distinct(y)
        if classes.shape[0] < 2:
            raise ValueError(
                f"y has a single class ({classes.tolist()[0]!r}); two classes are needed for a "
                "binary algorithm"
            )
    else:
        classes = np.unique(np.asarray(classes))
        if classes.shape[0] != 2:
            raise ValueError(f"classes must hold two distinct labels, got {classes.tolist()}")
        _check_known(y, classes)
    check_label_values(classes)
    if classes.shape[0] != 2:
        shown = ", ".join(repr(c) for c in classes[:5].tolist())
        raise ValueError(
            f"y has {classes.shape[0]} classes ({shown}{', ...' if classes.shape[0] > 5 else ''}); "
            "this algorithm is binary: exactly two classes are needed"
        )
    if (classes.tolist() == [-1.0, 1.0] and y.dtype == np.float64 and y.flags.c_contiguous
            and y.flags.writeable):
        return y, classes  # already the -1/+1 float64 labels the loops take: no copy
    # Arithmetic instead of np.where, which branches on a random mask (5x slower).
    y_pm = 2.0 * (y == classes[1]) - 1.0
    return y_pm, classes


def check_class_labels(y, n_samples: int, classes=None) -> tuple[np.ndarray, np.ndarray]:
    """Map K >= 2 labels to class indices (theory §2.6) and return ``(y_index, classes)``.

    ``classes`` are the sorted distinct labels and ``y_index[i]`` (int64, 0..K-1)
    is the k with ``classes[k] == y[i]``. ``classes``, when given, names every
    label of the stream, including labels that ``y`` does not show (a batch of
    a stream); otherwise they are the distinct values of ``y``. Raises a
    one-line ``ValueError`` for fewer than two classes or a label of ``y`` not
    in ``classes`` (and the errors of :func:`check_labels` on ``y`` itself).

    Examples
    --------
    >>> y_index, classes = check_class_labels(["b", "c", "a", "c"], 4)
    >>> y_index.tolist(), classes.tolist()
    ([1, 2, 0, 2], ['a', 'b', 'c'])
    >>> check_class_labels([3, 3], 2, classes=[1, 2, 3])[0].tolist()
    [2, 2]
    """
    y = _check_y(y, n_samples)
    if classes is None:
        classes = _distinct(y)
        if classes.shape[0] < 2:
            raise ValueError(
                f"y has a single class ({classes.tolist()[0]!r}); at least two classes are "
                "needed (pass classes= when a batch shows only one of them)"
            )
    else:
        classes = np.unique(np.asarray(classes))
        if classes.shape[0] < 2:
            raise ValueError(
                f"classes must hold two distinct labels, got {classes.tolist()}; at least two "
                "classes are needed"
            )
        _check_known(y, classes)
    check_label_values(classes)
    if classes.shape[0] == 2:  # one comparison instead of a search (the binary case)
        return (y == classes[1]).astype(np.int64), classes
    if _counted(y, y.size) and _counted(classes, y.size):  # a look-up table, not a search
        low = int(classes[0])
        table = np.zeros(int(classes[-1]) - low + 1, dtype=np.int64)
        table[(classes - low).astype(np.intp)] = np.arange(classes.shape[0])
        return table[(y - low).astype(np.intp)], classes
    return np.searchsorted(classes, y).astype(np.int64, copy=False), classes


def _counted(values: np.ndarray, n_labels: int) -> bool:
    """True for integers spanning fewer than 4 n_labels + 1,024 values: distinct labels
    found by a count, class indices by a look-up table, each of that size."""
    if values.dtype.kind not in "iu" or not values.size:
        return False
    return int(values.max()) - int(values.min()) < 4 * n_labels + 1024


def _distinct(y: np.ndarray) -> np.ndarray:
    """Sorted distinct values of ``y``, as ``np.unique`` gives them.

    Numeric labels with at most two values (the usual case) take a few O(n)
    passes instead of a sort, integer labels of a small range a count.
    """
    if y.dtype.kind in "biuf" and y.size:
        low, high = y.min(), y.max()
        if low == high:
            return y[:1].copy()
        if np.count_nonzero(y == low) + np.count_nonzero(y == high) == y.size:
            return np.array([low, high], dtype=y.dtype)
        if _counted(y, y.size):
            counts = np.bincount((y - low).astype(np.intp))
            return (np.flatnonzero(counts) + low).astype(y.dtype)
    try:
        return np.unique(y)
    except TypeError:  # e.g. numbers and strings in one object array
        kinds = sorted({type(v).__name__ for v in y})
        raise TypeError(
            f"y must hold labels of one kind that sort, got a mix of {', '.join(kinds)}"
        ) from None


def check_int(name: str, value, *, low: int | None = None, high: int | None = None) -> int:
    """Return ``value`` as int after checking its type and range [low, high]."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r} ({type(value).__name__})")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{name} must be in {_range(low, high, True, True)}, got {value}")
    return value


def check_real(
    name: str,
    value,
    *,
    low: float | None = None,
    high: float | None = None,
    include_low: bool = True,
    include_high: bool = True,
) -> float:
    """Return ``value`` as float after checking that it is a finite real in range."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r} ({type(value).__name__})")
    value = float(value)
    ok = np.isfinite(value)
    if low is not None:
        ok = ok and (value >= low if include_low else value > low)
    if high is not None:
        ok = ok and (value <= high if include_high else value < high)
    if not ok:
        raise ValueError(
            f"{name} must be in {_range(low, high, include_low, include_high)}, got {value!r}"
        )
    return value


def did_you_mean(value, choices) -> str:
    """``"; did you mean 'rbf'?"`` for the choice closest to ``value``, or ``""`` if none is close.

    Closeness is :func:`difflib.get_close_matches` (ratio >= 0.6) on lower-cased strings,
    else a choice that is a prefix of the value or has it as a prefix (``"polynomial"`` ->
    ``"poly"``); a value that is not a string gets no suggestion.

    Examples
    --------
    >>> did_you_mean("rbg", ["linear", "poly", "rbf"])
    "; did you mean 'rbf'?"
    >>> did_you_mean("sigmoid", ["linear", "poly", "rbf"])
    ''
    """
    if not isinstance(value, str):
        return ""
    by_lower = {}  # lower-cased choice -> the first choice spelled so
    for choice in choices:
        by_lower.setdefault(str(choice).lower(), choice)
    lowered = value.lower()
    prefixed = [key for key in by_lower
                if lowered and (key.startswith(lowered) or lowered.startswith(key))]
    close = difflib.get_close_matches(lowered, list(by_lower), n=1) or prefixed[:1]
    return f"; did you mean {by_lower[close[0]]!r}?" if close else ""


def check_choice(name: str, value, choices) -> str:
    """Check that ``value`` is one of ``choices`` (strings); the error suggests the closest."""
    if not isinstance(value, str) or value not in choices:
        options = ", ".join(repr(c) for c in choices)
        raise ValueError(
            f"{name} must be one of {options}, got {value!r}{did_you_mean(value, choices)}"
        )
    return value


def check_bool(name: str, value) -> bool:
    """Check that ``value`` is a bool (NumPy bools accepted)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _range(low, high, include_low, include_high) -> str:
    left = "[" if include_low and low is not None else "("
    right = "]" if include_high and high is not None else ")"
    lo = "-inf" if low is None else f"{low:g}"
    hi = "inf" if high is None else f"{high:g}"
    return f"{left}{lo}, {hi}{right}"
