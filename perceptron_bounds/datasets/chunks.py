"""A text data file read in chunks of rows, for runs over files larger than memory.

:class:`FileChunks` reads an svmlight/LIBSVM or CSV/TSV file (numeric features; labels of
numbers or unquoted text, one kind in the whole file; plain, ``.gz`` or ``.bz2``) in blocks
of whole lines and parses each with the compiled parsers of :mod:`._parse` into ``(X, y)``
chunks in file order: X CSR (svmlight) or dense (CSV), every chunk with the file's number
of features, y float64 (str for text labels). A first pass over the whole
file (:meth:`FileChunks.scan`) finds what the first chunk needs to know and checks every
line before any work: the labels, the number of rows, the largest feature index (and so
the index base, decided as :func:`~perceptron_bounds.datasets.load_data` decides it), and
on request the largest squared norm of a row (``max_norm_sq``, summed as the linear
kernel's K(x, x) sums it, for the adaptive Second-Order Perceptron's R).

Memory: one buffer of ``memory_budget / 16`` bytes holds the text (whole lines), and a
block is parsed in pieces whose arrays (16 bytes per value and per line, svmlight; 8 per
cell, CSV) stay within ``memory_budget / 4``; with the copies a run makes of a chunk
(its index arrays, its checks), a chunk's working set stays within about half the budget,
whatever the file's size (measured: ``benchmarks/bench_readers.py``).
"""

from __future__ import annotations

import io
import os
import warnings

import numpy as np

from .._validation import check_X, first_nonfinite
from ..kernels import rowwise_dot
from . import _parse
from ._parse import csr
from .loaders import (
    COMPRESSIONS,
    CSV_SUFFIXES,
    detect_delimiter,
    file_kind,
    first_line,
    index_base,
    is_header,
    label_index,
    parse_csv,
    sample_lines,
    split_cells,
    stated_base,
    with_fallback,
)

#: The smallest block read, whatever the budget: one line longer than it is read whole.
_MIN_BLOCK = 1 << 10


class FileChunks:
    """The rows of a text data file, chunk by chunk, within ``memory_budget`` bytes.

    Parameters
    ----------
    path : str or os.PathLike
        An svmlight/LIBSVM file (``.svm .svmlight .libsvm .txt``) or a CSV/TSV file of
        numbers (``.csv .tsv``), optionally ``.gz`` or ``.bz2``.
    memory_budget : float
        Bytes for one chunk's text and arrays (see the module docstring).
    label_column, delimiter, zero_based, n_features
        As :func:`~perceptron_bounds.datasets.load_data` takes them.

    Raises
    ------
    ValueError
        (from :meth:`scan`) One line naming the file, the line and the problem: a line the
        parsers do not read (a string label, a quote, a bad token, a short row), NaN or
        infinity, an index base contradicted, an index beyond ``n_features``.
    """

    def __init__(self, path, memory_budget: float, *, label_column=None, delimiter=None,
                 zero_based="auto", n_features=None):
        self.path = os.fspath(path)
        self.suffix, compression = file_kind(self.path)
        if self.suffix == ".npz":
            raise ValueError(f"{self.path}: an .npz file is read whole; streaming reads "
                             "svmlight and CSV files")
        self.block = max(_MIN_BLOCK, int(memory_budget / 16))
        self.budget = memory_budget
        self.opener = COMPRESSIONS.get(compression, open)
        self.csv = self.suffix in CSV_SUFFIXES
        self.label_column, self.delimiter = label_column, delimiter
        self.zero_based, self.requested_features = zero_based, n_features
        self.n_rows = self.n_features = self.labels = self.max_norm_sq = None
        self.shift = 0

    def _blocks(self):
        """Yield ``(text, first line number)``: blocks of whole lines (uint8 arrays), read
        into one buffer (a line longer than the buffer grows it)."""
        line = 1
        buffer = bytearray(self.block)
        filled = 0
        with self.opener(self.path, "rb") as handle:
            while True:
                if filled == len(buffer):  # one line fills the buffer: a larger one (the
                    buffer = buffer + bytes(len(buffer))  # reader may still view the old)
                read = handle.readinto(memoryview(buffer)[filled:])
                end = filled + read
                if end == 0:
                    return
                cut = buffer.rfind(b"\n", 0, end) + 1 if read else end
                if cut == 0:
                    filled = end
                    continue
                text = np.frombuffer(buffer, dtype=np.uint8, count=cut)
                text.flags.writeable = False  # as a file's mapped bytes: one parser signature
                yield from self._within_budget(text, line)
                del text  # no view of the buffer left: it may move its tail, or grow
                line += buffer.count(b"\n", 0, cut)
                buffer[:end - cut] = buffer[cut:end]
                filled = end - cut

    def _within_budget(self, text: np.ndarray, line: int):
        """``text`` in pieces of whole lines whose parsed arrays fit half the budget."""
        lines, values = _parse._counts(text)
        size = 8 * (lines + 1) * self.n_columns if self.csv else 16 * (lines + 1 + values)
        pieces = max(1, int(np.ceil(size / (self.budget / 4))))
        if pieces == 1:
            yield text, line
            return
        newlines = np.flatnonzero(text == 10)
        start = 0
        for k in range(1, pieces + 1):
            stop = text.shape[0] if k == pieces else int(newlines[min(
                int(np.searchsorted(newlines, k * text.shape[0] // pieces)),
                newlines.shape[0] - 1)]) + 1
            if stop > start:
                yield text[start:stop], line
                line += int(np.count_nonzero(text[start:stop] == 10))
                start = stop

    def _parse(self, text: np.ndarray, line: int, first: bool):
        """``(X, y)`` of one block: X CSR with the file's raw indices (svmlight) or dense.

        A block the compiled parser declines is read by the library reader (what it reads,
        e.g. ``nan``, is then named by the check for NaN); else the error names the line.
        """
        if self.csv:
            X, y, at = parse_csv(text, self.skip if first else 0, self.delimiter_byte,
                                 self.n_columns, self.label)
            if X is not None:
                return X, y
            try:
                table = np.loadtxt(io.BytesIO(text.tobytes()), dtype=np.float64, ndmin=2,
                                   delimiter=None if self.delimiter_byte == 0 else
                                   chr(self.delimiter_byte), skiprows=self.skip if first else 0)
            except ValueError:
                table = None
            if table is None or table.shape[1] != self.n_columns:
                shown = ("whitespace" if self.delimiter_byte == 0 else
                         repr(chr(self.delimiter_byte)))
                raise ValueError(
                    f"{self.path}: line {line + at - 1} is not {self.n_columns} numbers "
                    f"separated by {shown} (a streamed CSV file holds numbers, and a label "
                    "column of numbers or unquoted text; read it whole with load_data for "
                    "quotes)")
            features = [j for j in range(self.n_columns) if j != self.label]
            return np.ascontiguousarray(table[:, features]), table[:, self.label].copy()
        ok, labels, indptr, indices, bits, fallback, at = _parse.svmlight(
            text, _parse.powers_of_five())
        if ok:
            values = with_fallback(text, np.concatenate((bits, labels)), fallback)
            n_values = bits.shape[0]
            return (csr(values[:n_values], indices, indptr,
                        (labels.shape[0], int(indices.max(initial=-1)) + 1)), values[n_values:])
        from sklearn.datasets import load_svmlight_file

        try:
            X, y = load_svmlight_file(io.BytesIO(text.tobytes()), dtype=np.float64,
                                      zero_based=True)
        except ValueError as exc:
            raise ValueError(f"{self.path}: line {line + at - 1} is not valid svmlight/LIBSVM "
                             f"({first_line(exc)})") from None
        return X.tocsr(), y

    def _layout(self, text: np.ndarray) -> None:
        """The CSV layout from the first block: delimiter, header, columns, label column."""
        lines = sample_lines(text)
        if not lines:
            raise ValueError(f"{self.path}: no data rows")
        delimiter = self.delimiter or detect_delimiter(self.path, lines)
        first_index, first = lines[0]
        cells = split_cells(first, delimiter)
        self.n_columns = len(cells)
        if self.n_columns < 2:
            raise ValueError(f"{self.path}: needs at least 2 columns (features and a label)")
        self.label = label_index(self.path, self.label_column, self.n_columns)
        features = [j for j in range(self.n_columns) if j != self.label]
        header = is_header(cells, [split_cells(t, delimiter) for _, t in lines[1:2]], features)
        self.skip = first_index + 1 if header else 0
        if delimiter != "whitespace" and ord(delimiter) >= 128:
            raise ValueError(f"{self.path}: streaming reads one-byte delimiters only, got "
                             f"{delimiter!r}")
        self.delimiter_byte = 0 if delimiter == "whitespace" else ord(delimiter)

    def scan(self, norms: bool = False) -> FileChunks:
        """Read the whole file once: check every line and find the rows, the labels and the
        number of features (see the class docstring), and with ``norms`` the largest
        squared norm of a row, ``max_norm_sq`` (measured on 20,000 x 100 rows: 6% more time
        for CSV, 24% for svmlight). Returns self."""
        labels, n_rows, largest, has_zero, stated, kinds = [], 0, -1, False, "", set()
        largest_sq = 0.0
        self.n_columns = 2
        for k, (text, line) in enumerate(self._blocks()):
            if k == 0:
                if self.csv:
                    self._layout(text)
                else:
                    stated = stated_base(text)
            X, y = self._parse(text, line, k == 0)
            _check_finite(self.path, X, y, n_rows, self.csv, self.label if self.csv else 0)
            kinds.add(y.dtype.kind)
            if len(kinds) > 1:  # read whole, every label would be text ("1" among "spam")
                raise ValueError(f"{self.path}: labels of numbers in some lines and of text "
                                 f"in others (the block from line {line}): streaming reads "
                                 "one kind; read the file with load_data")
            labels.append(np.unique(y))
            n_rows += X.shape[0]
            if norms and X.shape[0] and X.shape[1]:
                rows = check_X(X)  # as run_online reads a chunk: duplicate entries summed
                largest_sq = max(largest_sq, float(rowwise_dot(rows, rows).max()))
            if not self.csv and X.nnz:
                largest = max(largest, int(X.indices.max()))
                has_zero = has_zero or bool(np.any(X.indices == 0))
        if n_rows == 0:
            raise ValueError(f"{self.path}: no samples")
        self.n_rows = n_rows
        self.labels = np.unique(np.concatenate(labels))
        if norms:
            self.max_norm_sq = largest_sq
        if self.csv:
            self.n_features = self.n_columns - 1
            return self
        zero_based = self.zero_based
        if zero_based == "auto":
            with warnings.catch_warnings():
                warnings.filterwarnings("default", category=UserWarning)
                zero_based = index_base(self.path, has_zero, stated, largest,
                                         self.requested_features)
        if not zero_based and has_zero:
            raise ValueError(f"{self.path}: feature index 0 in a file read one-based "
                             "(zero_based=False); its indices start at 0: read it zero-based")
        self.shift = 0 if zero_based else 1
        self.n_features = largest + 1 - self.shift
        if self.requested_features is not None:
            if self.n_features > self.requested_features:
                raise ValueError(f"{self.path}: feature index {largest} needs "
                                 f"{self.n_features} features, more than "
                                 f"n_features={self.requested_features}")
            self.n_features = self.requested_features
        return self

    def __iter__(self):
        """Yield ``(X, y, first row)`` chunks in file order (after :meth:`scan`)."""
        if self.n_rows is None:
            self.scan()
        row = 0
        for k, (text, line) in enumerate(self._blocks()):
            X, y = self._parse(text, line, k == 0)
            if not self.csv:
                X = csr(X.data, X.indices - self.shift, X.indptr,
                        (X.shape[0], self.n_features))
            if X.shape[0]:
                yield X, y, row
                row += X.shape[0]


def _check_finite(path: str, X, y, first_row: int, csv: bool, base: int) -> None:
    """No NaN or infinity in a chunk; else the one-line error of ``load_data``, its data row
    counted from the file's first."""
    found = first_nonfinite(X)
    if found is not None:
        value, (i, j) = found
        where = (f"column {j + 1 + (j >= base)}" if csv else f"feature index {j}")
        raise ValueError(f"{path}: X contains NaN or infinity ({value!r} at data row "
                         f"{first_row + i + 1}, {where})")
    found = first_nonfinite(y) if y.dtype.kind == "f" else None  # (text labels)
    if found is not None:
        raise ValueError(f"{path}: y contains NaN or infinity ({found[0]!r} as the label of "
                         f"data row {first_row + found[1][0] + 1})")
