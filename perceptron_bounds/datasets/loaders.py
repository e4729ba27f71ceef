"""Read a data file into ``(X, y, u)`` by its extension.

Formats: svmlight/LIBSVM (``.svm``, ``.svmlight``, ``.libsvm``, ``.txt``,
read with :func:`sklearn.datasets.load_svmlight_file`, X as CSR), NumPy
``.npz`` (arrays ``X`` and ``y``, optionally the target ``u``) and ``.csv``
(numbers only, comma separated, the last column the label; a first line
that is not numeric is taken as a header).
"""

from __future__ import annotations

import os
import warnings
import zipfile

import numpy as np

from .synthetic import Dataset

SVMLIGHT_SUFFIXES = (".svm", ".svmlight", ".libsvm", ".txt")
SUFFIXES = (*SVMLIGHT_SUFFIXES, ".npz", ".csv")


def load_data(path) -> Dataset:
    """Load instances, labels and (when the file has one) the target u.

    Parameters
    ----------
    path : str or os.PathLike
        A file ending in one of ``.svm .svmlight .libsvm .txt`` (svmlight /
        LIBSVM), ``.npz`` or ``.csv``.

    Returns
    -------
    Dataset
        ``(X, y, u)``: X float64 (dense, or CSR for svmlight files), y the
        labels as stored (any two values; the algorithms map them to -1/+1),
        u the ``u`` array of an ``.npz`` file, else None.

    Raises
    ------
    ValueError
        One line naming the file and the problem: missing file, unknown
        extension, unreadable content, missing arrays, wrong shapes, NaN.

    Examples
    --------
    >>> import numpy as np, tempfile, os
    >>> from perceptron_bounds.datasets import load_data
    >>> path = os.path.join(tempfile.mkdtemp(), "d.npz")
    >>> np.savez(path, X=np.eye(2), y=np.array([1, -1]))
    >>> X, y, u = load_data(path)
    >>> X.shape, y.tolist(), u is None
    ((2, 2), [1, -1], True)
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise ValueError(f"{path}: " + ("not a file" if os.path.exists(path) else "no such file"))
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in SUFFIXES:
        raise ValueError(
            f"{path}: unknown extension {suffix!r}; expected one of {', '.join(SUFFIXES)}"
        )
    if suffix == ".npz":
        X, y, u = _load_npz(path)
    elif suffix == ".csv":
        X, y, u = _load_csv(path)
    else:
        X, y, u = _load_svmlight(path)
    _check_loaded(path, X, y, u)
    return Dataset(X, y, u)


def _load_svmlight(path: str):
    from sklearn.datasets import load_svmlight_file

    try:
        X, y = load_svmlight_file(path, dtype=np.float64)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: not a valid svmlight/LIBSVM file ({_first_line(exc)})") from None
    return X.tocsr(), y, None


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


def _load_csv(path: str):
    with open(path, encoding="utf-8", errors="replace") as handle:
        first = handle.readline()
    skip = 0 if _is_numeric_row(first) else 1
    try:
        with warnings.catch_warnings():  # an empty table is reported below, in one line
            warnings.filterwarnings("ignore", "loadtxt: input contained no data", UserWarning)
            table = np.loadtxt(path, delimiter=",", skiprows=skip, dtype=np.float64, ndmin=2)
    except ValueError as exc:
        raise ValueError(f"{path}: not a numeric CSV table ({_first_line(exc)})") from None
    if table.shape[0] == 0:
        raise ValueError(f"{path}: no data rows")
    if table.shape[1] < 2:
        raise ValueError(
            f"{path}: needs at least 2 columns (features, then the label), got {table.shape[1]}"
        )
    return np.ascontiguousarray(table[:, :-1]), table[:, -1].copy(), None


def _is_numeric_row(line: str) -> bool:
    try:
        [float(cell) for cell in line.strip().split(",")]
    except ValueError:
        return False
    return True


def _check_loaded(path: str, X, y, u) -> None:
    if X.ndim != 2:
        raise ValueError(f"{path}: X must be 2-D, got shape {X.shape}")
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(
            f"{path}: y must be 1-D with one label per row of X ({X.shape[0]}), got shape {y.shape}"
        )
    if X.shape[0] == 0:
        raise ValueError(f"{path}: no samples")
    values = X.data if hasattr(X, "tocsr") else X
    if not np.isfinite(values).all():
        raise ValueError(f"{path}: X contains NaN or infinity")
    if y.dtype.kind == "f" and not np.isfinite(y).all():
        raise ValueError(f"{path}: y contains NaN or infinity")
    if u is not None and u.shape != (X.shape[1],):
        raise ValueError(f"{path}: u must have shape ({X.shape[1]},), got {u.shape}")


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
