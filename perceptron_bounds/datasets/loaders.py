"""Read a data file into ``(X, y, u)`` by its extension.

Formats: svmlight/LIBSVM (``.svm``, ``.svmlight``, ``.libsvm``, ``.txt``, X as CSR;
the index base is decided as :func:`load_data` documents, never guessed silently), NumPy
``.npz`` (arrays ``X`` and ``y``, optionally the target ``u``) and ``.csv``/``.tsv``
(numeric features and one label column, numbers or strings; the delimiter is
detected or given; a first row with words where the second row has numbers is
taken as a header). Text files may be compressed (``.gz``, ``.bz2``: ``d.svm.gz``).

Text is parsed by the compiled parsers of :mod:`._parse` (a CSV label column of text
too, :func:`parse_csv`); a file they decline (a NaN, a
short row, a bad token, a quote) is read by the library readers of before
(:func:`sklearn.datasets.load_svmlight_file`, :func:`numpy.loadtxt`), so that its errors
name the row and the column as they always did. What a text file parses into is kept in
the cache of parsed files (:mod:`.parsed_cache`), keyed by the file's content.
"""

from __future__ import annotations

import bz2
import csv
import gzip
import io
import numbers
import os
import re
import warnings
import zipfile

import numpy as np

from .._validation import check_int, did_you_mean, first_nonfinite
from . import _parse, parsed_cache
from ._parse import csr
from .synthetic import Dataset

SVMLIGHT_SUFFIXES = (".svm", ".svmlight", ".libsvm", ".txt")
CSV_SUFFIXES = (".csv", ".tsv")
SUFFIXES = (*SVMLIGHT_SUFFIXES, ".npz", *CSV_SUFFIXES)
#: Compressed text files, read as they are: ``d.svm.gz``, ``d.csv.bz2``.
COMPRESSIONS = {".gz": gzip.open, ".bz2": bz2.open}
#: Delimiters tried, in this order, when a CSV file's delimiter is not given.
CSV_DELIMITERS = (",", ";", "\t", "whitespace")
#: Names accepted for ``delimiter`` besides a single character.
DELIMITER_NAMES = {"comma": ",", "semicolon": ";", "tab": "\t", "\\t": "\t", " ": "whitespace",
                   "space": "whitespace", "whitespace": "whitespace"}
#: Characters besides letters and digits that cannot separate numbers: they occur inside
#: them, quote a cell, start a comment or end a line.
_NOT_DELIMITERS = ".+-\"'#\r\n"
#: Lines read to detect the delimiter and the header.
_SAMPLE_LINES = 100
#: The line scikit-learn's ``dump_svmlight_file`` writes into its header comment.
_BASE_COMMENT = re.compile(r"#\s*Column indices are (zero|one)-based")


def load_data(path, *, label_column=None, delimiter=None, zero_based="auto",
              n_features=None, cache=None) -> Dataset:
    """Load instances, labels and (when the file has one) the target u.

    Parameters
    ----------
    path : str or os.PathLike
        A file ending in one of ``.svm .svmlight .libsvm .txt`` (svmlight /
        LIBSVM), ``.npz``, ``.csv`` or ``.tsv``; a text file may be compressed
        (``.gz`` or ``.bz2`` after its extension).
    label_column : {"first", "last"} or int, optional
        CSV only: the column holding the labels, by name or 0-based index
        (negative counts from the end). Default (None): the last column.
        Every other column is a feature, in file order.
    delimiter : str, optional
        CSV only: one character (not a digit, sign, point, quote or ``#``),
        or ``"comma"``, ``"semicolon"``, ``"tab"``, or ``"whitespace"`` (also
        ``"space"`` or ``" "``: any run of spaces and tabs). Default (None):
        detected, the first of ``,`` ``;`` tab and whitespace that splits the
        first 100 rows into the same number (at least 2) of cells.
    zero_based : {"auto", True, False}, default="auto"
        svmlight only: whether feature index 0 is the first column (True; scikit-learn's
        :func:`~sklearn.datasets.dump_svmlight_file` writes so by default) or index 1 is
        (False; LIBSVM's own convention). ``"auto"`` decides from the file, in this
        order: an index 0 makes it zero-based; else the header comment
        ``# Column indices are zero-based`` (or ``one-based``) that scikit-learn writes
        with a comment; else, with ``n_features`` given, a largest index equal to
        ``n_features`` makes it one-based; else it is read one-based *with a
        UserWarning*: a zero-based file whose first column is all zero (scikit-learn's
        digits) looks exactly like a one-based one, and read so its features would be
        shifted by one column. Pass the base to silence the warning.
    n_features : int, optional
        svmlight only: the number of features (columns of X); the file's largest index
        must fit in it. Default: as many as the largest index needs.
    cache : bool, str or os.PathLike, optional
        Text files: where to keep what the file parses into, so that the next read of
        the same content is a read of arrays (:mod:`perceptron_bounds.datasets.parsed_cache`).
        Default (None): ``$PERCEPTRON_BOUNDS_CACHE`` when set (``off`` disables), else the
        folder ``parsed/`` of the data home; False: no cache; a folder: that one.

    Returns
    -------
    Dataset
        ``(X, y, u)``: X float64 (dense, or CSR for svmlight files), y the
        labels as stored (any two values; the algorithms map them to -1/+1):
        float64 for a CSV label column of numbers, else its stripped strings;
        u the ``u`` array of an ``.npz`` file, else None.

    Raises
    ------
    TypeError
        ``label_column``, ``delimiter``, ``zero_based`` or ``n_features`` of the wrong type.
    ValueError
        One line naming the file and the problem: missing file, unknown
        extension, unreadable content, missing arrays, wrong shapes, NaN, a
        label column out of range, a delimiter that is not one or cannot be
        detected (or a row with another number of fields), ``label_column``/``delimiter``
        given for a file that is not CSV, ``zero_based``/``n_features`` given for one that
        is not svmlight, an index 0 in a file read one-based, an index beyond
        ``n_features``.

    Warns
    -----
    UserWarning
        An svmlight file whose index base is ambiguous, read one-based (see ``zero_based``).

    Examples
    --------
    >>> import numpy as np, tempfile, os
    >>> from perceptron_bounds.datasets import load_data
    >>> path = os.path.join(tempfile.mkdtemp(), "d.npz")
    >>> np.savez(path, X=np.eye(2), y=np.array([1, -1]))
    >>> X, y, u = load_data(path)
    >>> X.shape, y.tolist(), u is None
    ((2, 2), [1, -1], True)
    >>> path = os.path.join(tempfile.mkdtemp(), "d.csv")
    >>> with open(path, "w") as handle:
    ...     _ = handle.write("label;x1;x2\\nspam;1;2\\nham;3;4\\n")
    >>> X, y, u = load_data(path, label_column="first")
    >>> X.tolist(), y.tolist()
    ([[1.0, 2.0], [3.0, 4.0]], ['spam', 'ham'])
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    _check_label_column(label_column)
    delimiter = _check_delimiter(delimiter)
    if isinstance(zero_based, (bool, np.bool_)):
        zero_based = bool(zero_based)
    elif not isinstance(zero_based, str):
        raise TypeError(f"zero_based must be 'auto', True or False, got {zero_based!r}")
    elif zero_based != "auto":
        raise ValueError(f"zero_based must be 'auto', True or False, got {zero_based!r}"
                         + did_you_mean(zero_based, ("auto",)))
    if n_features is not None:
        n_features = check_int("n_features", n_features, low=1)
    cache = parsed_cache.folder(cache)
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise ValueError(f"{path}: " + ("not a file" if os.path.exists(path) else "no such file"))
    suffix, compression = file_kind(path)
    if suffix == ".npz" and compression:
        raise ValueError(f"{path}: a compressed .npz file: an .npz archive is compressed "
                         "already (numpy.savez_compressed); decompress it")
    for kind, suffixes, options in ((".csv", CSV_SUFFIXES, (("label_column", label_column),
                                                            ("delimiter", delimiter))),
                                    ("svmlight", SVMLIGHT_SUFFIXES,
                                     (("zero_based", None if zero_based == "auto" else 0),
                                      ("n_features", n_features)))):
        given = [name for name, value in options if value is not None]
        if given and suffix not in suffixes:
            verb = "apply" if len(given) == 2 else "applies"
            raise ValueError(f"{path}: {' and '.join(given)} {verb} to {kind} files only")
    if suffix == ".npz":
        X, y, u = _load_npz(path)
        base = None
    elif suffix in CSV_SUFFIXES:
        X, y = parsed_cache.parsed(
            path, cache, ("csv", label_column, delimiter),
            lambda raw: _load_csv(path, decompressed(path, raw), label_column, delimiter))
        u = None
        base = label_index(path, label_column, X.shape[1] + 1)  # the label's file column
        suffix = ".csv"
    else:
        X, y, stated = parsed_cache.parsed(
            path, cache, ("svmlight",), lambda raw: _parse_svmlight(path, decompressed(path, raw)))
        X, y, u, base = _svmlight_base(path, X, y, stated, zero_based, n_features)
    _check_loaded(path, X, y, u, suffix, base)
    return Dataset(X, y, u)


def file_kind(path: str) -> tuple[str, str | None]:
    """``(suffix, compression)`` of a data file's name: ``("".svm", ".gz")`` for ``d.svm.gz``;
    ``ValueError`` for a suffix :func:`load_data` does not read."""
    stem, suffix = os.path.splitext(path)
    compression = suffix.lower() if suffix.lower() in COMPRESSIONS else None
    if compression:
        suffix = os.path.splitext(stem)[1]
    suffix = suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(
            f"{path}: unknown extension {suffix!r}; expected one of {', '.join(SUFFIXES)} "
            f"(text files also compressed: {', '.join(COMPRESSIONS)})"
        )
    return suffix, compression


def decompressed(path: str, raw: np.ndarray) -> np.ndarray:
    """The bytes ``raw`` of the text data file ``path`` (uint8), decompressed when its name
    ends in ``.gz`` or ``.bz2``."""
    opener = COMPRESSIONS.get(os.path.splitext(path)[1].lower())
    if opener is None:
        return raw
    try:
        with opener(io.BytesIO(raw.data), "rb") as handle:
            return np.frombuffer(handle.read(), dtype=np.uint8)
    except (OSError, EOFError, ValueError) as exc:
        raise ValueError(f"{path}: not a valid {opener.__module__} file ({first_line(exc)})"
                         ) from None


def with_fallback(text: np.ndarray, bits: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    """Values parsed as IEEE bits, with the tokens the parser left (``fallback`` rows of
    position, start, end) converted by ``float()``; as float64."""
    for position, start, end in fallback.tolist():
        bits[position] = np.float64(float(text[start:end].tobytes())).view(np.uint64)
    return bits.view(np.float64)


def _parse_svmlight(path: str, text: np.ndarray):
    """``(X, y, stated)`` of svmlight bytes: X the CSR matrix read zero-based (column j holds
    index j, so the base is decided after, not guessed), y the labels, ``stated`` the base a
    header comment names ("zero", "one" or "")."""
    ok, labels, indptr, indices, bits, fallback, _ = _parse.svmlight(
        text, _parse.powers_of_five())
    if ok:
        values = with_fallback(text, np.concatenate((bits, labels)), fallback)
        n_values = bits.shape[0]
        width = int(indices.max(initial=-1)) + 1
        X = csr(values[:n_values], indices, indptr, (labels.shape[0], width))
        y = values[n_values:]
    else:  # the library reader names the problem (or reads what the parser declines)
        from sklearn.datasets import load_svmlight_file

        try:
            X, y = load_svmlight_file(path, dtype=np.float64, zero_based=True)
        except (ValueError, UnicodeDecodeError, OSError, EOFError) as exc:
            raise ValueError(f"{path}: not a valid svmlight/LIBSVM file ({first_line(exc)})"
                             ) from None
        X = X.tocsr()
    return X, y, stated_base(text)


def stated_base(text: np.ndarray) -> str:
    """The index base the header comment of svmlight bytes states, as scikit-learn's
    ``dump_svmlight_file`` writes it: "zero", "one", or "" when the header says nothing."""
    head = io.StringIO(text[:1 << 16].tobytes().decode("utf-8", errors="replace"), newline=None)
    for line in head:
        if not line.startswith("#"):
            break
        stated = _BASE_COMMENT.match(line)
        if stated:
            return stated.group(1)
    return ""


def _svmlight_base(path: str, X, y, stated: str, zero_based, n_features):
    """X (CSR) and y of an svmlight file read zero-based, its index base decided (see
    :func:`load_data`)."""
    has_zero = bool(np.any(X.indices == 0))
    largest = X.shape[1] - 1  # the largest index in the file
    if zero_based == "auto":
        zero_based = index_base(path, has_zero, stated, largest, n_features)
    if not zero_based:
        if has_zero:
            raise ValueError(f"{path}: feature index 0 in a file read one-based "
                             "(zero_based=False); its indices start at 0: read it zero-based")
        X = csr(X.data, X.indices - 1, X.indptr, (X.shape[0], max(X.shape[1] - 1, 0)))
    if n_features is not None:
        if X.shape[1] > n_features:
            raise ValueError(f"{path}: feature index {largest} needs {X.shape[1]} features "
                             f"({'zero' if zero_based else 'one'}-based), more than "
                             f"n_features={n_features}")
        X = csr(X.data, X.indices, X.indptr, (X.shape[0], n_features))
    return X, y, None, 0 if zero_based else 1


def index_base(path: str, has_zero: bool, stated: str, largest: int, n_features) -> bool:
    """Whether the svmlight file ``path`` is zero-based, by the rules of :func:`load_data`."""
    if has_zero:
        return True
    if stated:
        return stated == "zero"
    if n_features is not None and largest == n_features:
        return False
    warnings.warn(
        f"{path}: no feature index 0 and no header comment stating the index base: read "
        "one-based (LIBSVM's convention, index 1 is column 0); if it was written zero-based "
        "(scikit-learn's dump_svmlight_file default) with an all-zero first column, every "
        "feature is shifted by one: pass zero_based=True (CLI --zero-based), or "
        "zero_based=False (--one-based) to silence this", UserWarning, stacklevel=4)
    return False


def _load_npz(path: str):
    if not zipfile.is_zipfile(path):
        raise ValueError(f"{path}: not a valid .npz archive")
    with np.load(path, allow_pickle=False) as archive:
        missing = [name for name in ("X", "y") if name not in archive.files]
        if missing:
            found = ", ".join(archive.files) or "none"
            raise ValueError(f"{path}: missing array(s) {', '.join(missing)}; found {found}")
        try:
            X = archive["X"]
            y = archive["y"]
            u = archive["u"] if "u" in archive.files else None
        except (ValueError, OSError, zipfile.BadZipFile):
            raise ValueError(f"{path}: arrays X, y, u must be numeric, non-object arrays") from None
    for name, value in (("X", X), ("y", y), ("u", u)):
        if value is not None and value.dtype.kind not in "biuf":
            raise ValueError(f"{path}: array {name} must be numeric, got dtype {value.dtype}")
    X = np.ascontiguousarray(X, dtype=np.float64)
    return X, y, None if u is None else np.asarray(u, dtype=np.float64)


def _check_label_column(label_column) -> None:
    if label_column is None or label_column in ("first", "last"):
        return
    if isinstance(label_column, str):
        raise ValueError(
            f"label_column must be 'first', 'last' or a column index, got {label_column!r}"
            + did_you_mean(label_column, ("first", "last"))
        )
    if isinstance(label_column, bool) or not isinstance(label_column, numbers.Integral):
        raise TypeError(
            f"label_column must be 'first', 'last' or an integer, got {label_column!r} "
            f"({type(label_column).__name__})"
        )


def _check_delimiter(delimiter) -> str | None:
    """The delimiter as one character or ``"whitespace"`` (None: detect)."""
    if delimiter is None:
        return None
    if not isinstance(delimiter, str):
        raise TypeError(f"delimiter must be a string, got {type(delimiter).__name__}")
    delimiter = DELIMITER_NAMES.get(delimiter, delimiter)
    if delimiter != "whitespace" and (
        len(delimiter) != 1 or delimiter.isalnum() or delimiter in _NOT_DELIMITERS
    ):
        raise ValueError(
            "delimiter must be one character that cannot occur in a number (not a letter, "
            "digit, sign, point, quote or #), or one of "
            f"{', '.join(repr(name) for name in DELIMITER_NAMES if len(name) > 2)}; "
            f"got {delimiter!r}" + did_you_mean(delimiter, DELIMITER_NAMES)
        )
    return delimiter


def split_cells(line: str, delimiter: str) -> list[str]:
    """The cells of one CSV line, as ``numpy.loadtxt`` reads them (``"`` quotes cells)."""
    if delimiter == "whitespace":
        return line.split()
    return next(csv.reader([line], delimiter=delimiter, quotechar='"'))


def sample_lines(text: np.ndarray) -> list[tuple[int, str]]:
    """Up to ``_SAMPLE_LINES`` (line index, text) pairs of the lines that hold data."""
    lines = []
    size = 1 << 16
    while True:  # enough bytes for the sample lines (or all of them)
        head = text[:size].tobytes()
        if size >= text.shape[0] or head.count(b"\n") > 2 * _SAMPLE_LINES:
            break
        size *= 4
    if size < text.shape[0]:
        head = head[:head.rindex(b"\n") + 1]  # whole lines only
    with io.StringIO(head.decode("utf-8", errors="replace"), newline=None) as handle:
        for index, line in enumerate(handle):
            text = line.split("#", 1)[0].strip()  # numpy.loadtxt's comments="#"
            if text:
                lines.append((index, text))
                if len(lines) == _SAMPLE_LINES:
                    break
    return lines


def detect_delimiter(path: str, lines: list[tuple[int, str]]) -> str:
    """The first of ``CSV_DELIMITERS`` that splits every line into the same >= 2 cells.

    When none does, but one splits most lines into the same >= 2 cells, the error names
    the first line that differs: a short or long row, not an unknown delimiter.
    """
    counts = {}
    for delimiter in CSV_DELIMITERS:
        counts[delimiter] = [len(split_cells(text, delimiter)) for _, text in lines]
        if len(set(counts[delimiter])) == 1 and counts[delimiter][0] >= 2:
            return delimiter
    if all(set(found) == {1} for found in counts.values()):
        raise ValueError(
            f"{path}: needs at least 2 columns (features and a label), got 1 with every "
            "delimiter tried (',', ';', tab, whitespace)"
        )
    usual = {}  # delimiter -> (lines split into its most common count >= 2, that count)
    for delimiter, found in counts.items():
        values, times = np.unique(found, return_counts=True)
        times[values < 2] = 0
        usual[delimiter] = (int(times.max()), int(values[times.argmax()]))
    delimiter = max(CSV_DELIMITERS, key=lambda d: usual[d][0])  # the first of the best
    agree, expected = usual[delimiter]
    if 2 * agree > len(lines):
        row = next(i for i, n in enumerate(counts[delimiter]) if n != expected)
        shown = "whitespace" if delimiter == "whitespace" else repr(delimiter)
        raise ValueError(
            f"{path}: line {lines[row][0] + 1} has {counts[delimiter][row]} fields, expected "
            f"{expected} (as {agree} of the first {len(lines)} rows have with delimiter "
            f"{shown})"
        )
    raise ValueError(
        f"{path}: cannot detect the delimiter: none of ',', ';', tab, whitespace splits the "
        "first rows into the same number of columns; give the delimiter"
    )


def label_index(path: str, label_column, n_columns: int) -> int:
    """The 0-based index of the label column among ``n_columns``."""
    if label_column in (None, "last"):
        return n_columns - 1
    if label_column == "first":
        return 0
    if not -n_columns <= label_column < n_columns:
        raise ValueError(
            f"{path}: label column {label_column} is out of range for {n_columns} columns "
            f"(0..{n_columns - 1}, or -{n_columns}..-1 from the end)"
        )
    return label_column % n_columns


def is_header(first: list[str], second: list[list[str]], features: list[int]) -> bool:
    """Whether the first row is a header: a feature cell that is not a number, in a column
    whose cell in the second row (``second``, empty for a one-row file) is one."""
    words = [j for j in features if not _is_number(first[j])]
    if not second:
        return bool(words)
    return any(j < len(second[0]) and _is_number(second[0][j]) for j in words)


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def _load_csv(path: str, text: np.ndarray, label_column, delimiter):
    """X (dense) and y of a CSV/TSV file's bytes ``text`` (see :func:`load_data`)."""
    lines = sample_lines(text)
    if not lines:
        raise ValueError(f"{path}: no data rows")
    if delimiter is None:
        delimiter = detect_delimiter(path, lines)
    first_index, first = lines[0]
    cells = split_cells(first, delimiter)
    shown = "whitespace" if delimiter == "whitespace" else repr(delimiter)
    if len(cells) < 2:
        raise ValueError(f"{path}: needs at least 2 columns (features and a label), got "
                         f"{len(cells)} with delimiter {shown}")
    label = label_index(path, label_column, len(cells))
    features = [j for j in range(len(cells)) if j != label]
    header = is_header(cells, [split_cells(text, delimiter) for _, text in lines[1:2]], features)
    if header and len(lines) == 1:
        raise ValueError(f"{path}: no data rows")
    skip = first_index + 1 if header else 0
    if delimiter == "whitespace" or ord(delimiter) < 128:
        X, y, _ = parse_csv(text, skip, 0 if delimiter == "whitespace" else ord(delimiter),
                            len(cells), label)
        if X is not None and X.shape[0]:
            return X, y
    options = {
        "delimiter": None if delimiter == "whitespace" else delimiter,
        "skiprows": skip,
        "quotechar": '"',
        "encoding": "utf-8",
        "ndmin": 2,
    }
    try:
        table = np.loadtxt(path, dtype=np.float64, **options)
    except ValueError:  # not all numbers: string labels, or a problem named below
        try:
            table = np.loadtxt(path, dtype=str, **options)
        except ValueError as exc:  # "the number of columns changed from 3 to 4 at row 2; ..."
            detail = first_line(exc).split(";")[0]
            raise ValueError(f"{path}: not a CSV table with delimiter {shown} ({detail})") from None
    if table.shape[1] != len(cells):
        raise ValueError(f"{path}: the first row has {len(cells)} columns, the data "
                         f"{table.shape[1]} (delimiter {shown})")
    if table.dtype == np.float64:
        return np.ascontiguousarray(table[:, features]), table[:, label].copy()
    try:
        X = table[:, features].astype(np.float64)
    except ValueError:
        row, column = next((i, j) for i in range(table.shape[0]) for j in features
                           if not _is_number(table[i, j]))
        raise ValueError(
            f"{path}: not a numeric CSV table ({str(table[row, column])!r} in data row "
            f"{row + 1}, column {column + 1} is not a number; only the label column may hold "
            "strings)"
        ) from None
    y = np.char.strip(table[:, label])
    empty = np.flatnonzero(y == "")
    if empty.size:
        raise ValueError(f"{path}: empty label in data row {empty[0] + 1}")
    return np.ascontiguousarray(X), y


def parse_csv(text: np.ndarray, skip: int, delimiter: int, n_columns: int, label: int):
    """``(X, y, line)`` of CSV bytes by the compiled parser (:func:`._parse.csv`): numeric
    labels float64, else, when the label column holds text, its stripped strings (as the
    library reader reads them). X and y None where that parser declines, at ``line``
    (counted from the first of ``text``): the library reader then reads the text, and names
    what is wrong."""
    powers = _parse.powers_of_five()
    ok, X, labels, _, fallback, line = _parse.csv(text, skip, delimiter, n_columns, label,
                                                  powers, False)
    if ok:
        values = with_fallback(text, np.concatenate((X.reshape(-1), labels)), fallback)
        return values[:X.size].reshape(X.shape), values[X.size:], line
    ok, X, _, spans, fallback, _ = _parse.csv(text, skip, delimiter, n_columns, label, powers,
                                              True)
    y = _parse.span_texts(text, spans) if ok else None
    # labels all numbers (e.g. nan, which the numeric parse declines): the library reader's
    if y is None or all(_is_number(name) for name in np.unique(y).tolist()):
        return None, None, line
    return with_fallback(text, X.reshape(-1), fallback).reshape(X.shape), y, line


def _check_loaded(path: str, X, y, u, suffix: str, base) -> None:
    """The shapes of what a loader read, and no NaN or infinity (named by where it sits in
    the file: ``base`` is a CSV file's label column, an svmlight file's index base)."""
    if X.ndim != 2:
        raise ValueError(f"{path}: X must be 2-D, got shape {X.shape}")
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(
            f"{path}: y must be 1-D with one label per row of X ({X.shape[0]}), got shape {y.shape}"
        )
    if X.shape[0] == 0:
        raise ValueError(f"{path}: no samples")
    found = first_nonfinite(X)
    if found is not None:
        (value, (i, j)), row = found, f"data row {found[1][0] + 1}"
        where = (f"X[{i}, {j}]" if suffix == ".npz" else
                 f"{row}, column {j + 1 + (j >= base)}" if suffix == ".csv" else
                 f"{row}, feature index {j + base}")
        raise ValueError(f"{path}: X contains NaN or infinity ({value!r} at {where})")
    found = first_nonfinite(y) if y.dtype.kind == "f" else None
    if found is not None:
        raise ValueError(f"{path}: y contains NaN or infinity ({found[0]!r} as the label of "
                         f"data row {found[1][0] + 1})")
    if u is not None and u.shape != (X.shape[1],):
        raise ValueError(f"{path}: u must have shape ({X.shape[1]},), got {u.shape}")


def first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
