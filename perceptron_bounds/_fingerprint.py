"""A cheap fingerprint of a run's data, so that a bound is never evaluated on other data.

The fingerprint of (X, y) is the text ``"n_rows x n_features:HX:HY"``
(:func:`x_part` + :func:`y_part`): HX hashes every nonzero entry of X with its
(row, column) in every row of a sample (all rows up to :data:`SAMPLED_ROWS`, else every
k-th row, k = ceil(rows / SAMPLED_ROWS)), HY every label's class index with its row,
each a sum modulo 2^64 over
the entries of a 64-bit mix of the entry's bits xor its position times the
golden-ratio constant G (for X one multiply and a shift, h = (bits ^ position G) M1,
h ^ (h >> 29); for y splitmix64's finaliser). The sums do not depend on how X is
stored: dense or CSR, in any order of a row's stored entries, with or without explicit
zeros (and -0.0 counts as 0), so the run's X passed dense to ``evaluate`` matches a run
made on CSR X. The sample keeps the cost of a run's fingerprint independent of its size
(reading all of X cost as much as one epoch of the Perceptron's loop, and doubled a
one-pass ``run_online``); it detects accidental mismatches (another data set, other or
reordered rows, flipped or permuted labels), not an edit confined to rows outside the
sample, nor forgeries.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ._jit import jit
from ._validation import index_arrays

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
#: At most this many rows of X enter the fingerprint (evenly spaced; the labels all do).
SAMPLED_ROWS = 4096


@jit
def _mix(z):
    """splitmix64's finaliser of the uint64 z."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@jit
def _entries_hash(bits, indices, indptr, n_columns, start, stop, step):
    """Sum of h ^ (h >> 29), h = (bits ^ position G) M1, over the nonzero entries of rows
    start, start + step, ... below stop (modulo 2^64).

    ``bits`` are the float64 values as int64 (dense X flattened, or CSR data); an empty
    ``indptr`` means dense. The position is (row - start) * n_columns + column.
    """
    total = np.uint64(0)
    dense = indptr.shape[0] == 0
    for i in range(start, stop, step):
        low = np.uint64(i * n_columns if dense else indptr[i])
        high = np.uint64((i + 1) * n_columns if dense else indptr[i + 1])
        row = np.uint64((i - start) * n_columns)
        for p in range(low, high):  # unsigned: no wrap-around test per read (4x faster)
            value = np.uint64(bits[p])
            if (value << np.uint64(1)) == np.uint64(0):  # 0.0 and -0.0
                continue
            position = row + (p - low if dense else np.uint64(indices[p]))
            mixed = (value ^ (position * _GOLDEN)) * _M1  # one multiply: X is long
            total += mixed ^ (mixed >> np.uint64(29))
    return total


@jit
def _labels_hash(labels, start, stop):
    """Sum of mix(label ^ (row - start) * G) over rows start..stop - 1 (int64 class indices)."""
    total = np.uint64(0)
    for i in range(start, stop):
        total += _mix(np.uint64(labels[i]) ^ (np.uint64(i - start) * _GOLDEN))
    return total


def x_part(X, start: int = 0, stop: int | None = None) -> str:
    """``"n_rows x n_features:HX"`` of rows ``start:stop`` of validated X (default: all),
    HX over the sampled rows (see the module docstring).

    X is as :func:`~perceptron_bounds._validation.check_X` returns it: a float64
    C-contiguous ndarray or a CSR matrix with float64 data and int32 or int64 index
    arrays (the same fingerprint for both).
    """
    stop = X.shape[0] if stop is None else stop
    if sp.issparse(X):
        bits, (indices, indptr) = X.data.view(np.int64), index_arrays(X)
    else:
        bits, indices, indptr = X.reshape(-1).view(np.int64), _EMPTY, _EMPTY
    step = max(1, -(-(stop - start) // SAMPLED_ROWS))
    total = _entries_hash(bits, indices, indptr, X.shape[1], start, stop, step)
    return f"{stop - start}x{X.shape[1]}:{int(total):016x}"


def y_part(labels, start: int = 0, stop: int | None = None) -> str:
    """``":HY"`` of the class indices ``labels[start:stop]`` (int64; 0 or 1 when binary)."""
    labels = np.ascontiguousarray(labels, dtype=np.int64)
    stop = labels.shape[0] if stop is None else stop
    return f":{int(_labels_hash(labels, start, stop)):016x}"


@jit
def _class_hashes(labels, n_classes):
    """:func:`_labels_hash` of ``labels == k`` for every class k, in one read.

    Row i adds mix(0 ^ i G) to every class's sum and mix(1 ^ i G) to its own class's
    instead: a sum common to all classes, and per class the differences of its rows
    (modulo 2^64, so the same sums).
    """
    common = np.uint64(0)
    totals = np.zeros(n_classes, dtype=np.uint64)
    for i in range(labels.shape[0]):
        position = np.uint64(i) * _GOLDEN
        zero = _mix(position)
        common += zero
        totals[labels[i]] += _mix(np.uint64(1) ^ position) - zero
    for k in range(n_classes):
        totals[k] += common
    return totals


def class_parts(labels, n_classes: int) -> list[str]:
    """``y_part(labels == k)`` for k = 0..n_classes - 1 (the one-vs-rest class runs'), from
    one read of the class indices ``labels`` (int64, each below ``n_classes``)."""
    labels = np.ascontiguousarray(labels, dtype=np.int64)
    return [f":{int(total):016x}" for total in _class_hashes(labels, n_classes)]


def n_rows(fingerprint: str) -> int:
    """The number of rows a fingerprint covers."""
    return int(fingerprint.split("x", 1)[0])


def mismatch(fingerprint: str, X, labels, start: int = 0) -> str | None:
    """What differs between rows ``start:`` of (X, labels) and ``fingerprint`` ("X", "y" or
    "X and y"); None when nothing does. The caller checks that the rows exist."""
    stop = start + n_rows(fingerprint)
    wanted = fingerprint.split(":")
    found = (x_part(X, start, stop) + y_part(labels, start, stop)).split(":")
    differ = [name for name, a, b in (("X", found[1], wanted[1]), ("y", found[2], wanted[2]))
              if a != b]
    return " and ".join(differ) or None


_EMPTY = np.empty(0, dtype=np.int64)
