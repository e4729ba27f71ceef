"""Save and load an :class:`~perceptron_bounds.run.OnlineRun` without pickle.

``OnlineRun.save`` and ``perceptron_bounds.load_run`` (both in
:mod:`perceptron_bounds.run`) call :func:`save_run` and :func:`read_run`. The
record declares what is saved, once: its class is decorated with
:func:`saved_record`, and its dataclass fields, their annotated types and the
format version that added each (the field's ``metadata["format_version"]``,
1 when absent) are the schema; the record's module imports this one, not the
reverse.

A saved run is one ``.npz`` archive written by :func:`numpy.savez_compressed`
and read by :func:`numpy.load` with ``allow_pickle=False``:

* every array of the record is an entry of its own, named after where it sits:
  ``classes``, ``sample_index``, ``mistake_trials``, ``margin_error_trials``,
  ``margins`` (absent when None), ``state/<name>``, ``hypothesis/<field>``
  (``hypothesis/<field>/data``, ``/indices``, ``/indptr`` for a CSR matrix,
  such as the support vectors of a dual run on CSR X, its shape in the
  header), ``params/<name>``;
* the entry ``header.json`` is a 0-d unicode array holding one JSON document:
  ``format`` (``"perceptron_bounds.OnlineRun"``), ``format_version``,
  ``package_version`` and ``run``, every field of the record with its scalars
  written out and each array replaced by the name of its entry.

The fields a format version added are written together, when one of them is not
None, and the file carries the newest version written; a file that lacks them
(an older version, or a record that did not need them) loads them as None.
Format version 2 adds the multiclass record (theory §2.6): its fields
``multiclass`` and ``class_runs``, the K binary records of a one-vs-rest run
nested in the header (their arrays under ``class_runs/<k>/...``). A binary
record leaves both out and is written as version 1, which older versions of
the package read; version 1 files load with both None.

Format version 3 adds ``data_fingerprint`` (a tuple of strings, the hash of the data of
each run of a warm-start chain, see ``OnlineRun.check_data``); a record that has one is
written as version 3, which earlier versions of the package refuse with "upgrade it".
Files of versions 1 and 2 (runs saved before the fingerprint) load with it None: their
data cannot be checked.

Format version 4 adds ``queried_trials`` (an int64 array, the trials whose label a
selective-sampling run asked for, theory §2.14); only such a record is written as
version 4, and files of versions 1 to 3 load with it None.

In ``run``, None, bools, ints, finite floats and strings are JSON values; every
other value is a JSON object with one tag naming its kind:

============================================  ======================================
value                                         JSON
============================================  ======================================
ndarray                                       ``{"array": entry}``, plus
                                              ``"writeable": false`` when read-only and
                                              ``"object": true`` for an object array
                                              (stored as the array NumPy makes of its
                                              elements, loaded back as dtype object)
NumPy scalar (e.g. ``np.float64``)            ``{"scalar": entry}`` (a 0-d array)
inf, -inf, nan                                ``{"float": "inf"}`` (strict JSON)
tuple, list                                   ``{"tuple": [...]}``, ``{"list": [...]}``
dict (string keys)                            ``{"dict": {...}}``
``scipy.sparse`` CSR matrix or array          ``{"sparse": class name, "shape": [r, c],
                                              "data": ..., "indices": ..., "indptr": ...}``
hypothesis, ``Kernel``                        ``{"dataclass": class name, "fields": {...}}``
a nested record (a class run)                 ``{"record": {field: ..., ...}}``
============================================  ======================================

A class is named by a file, never imported from it: loading accepts only the
hypothesis classes registered with
:func:`~perceptron_bounds.algorithms.register_hypothesis` (those of
:mod:`perceptron_bounds.hypothesis` and any an algorithm adds) and ``Kernel``,
and rebuilds them from their dataclass fields. A record field annotated ``Any``
holds such a hypothesis; the others hold exactly the types of their annotation
(a bool is not an int). An array held twice by the record
(e.g. the voted Perceptron's ``counts``, in ``state`` and in the hypothesis) is
stored once and loaded as one array, shared as before.
"""

from __future__ import annotations

import json
import math
import os
import re
import types
import zipfile
import zlib
from dataclasses import fields
from typing import Any, get_args, get_type_hints

import numpy as np
import scipy.sparse as sp

from ._files import replacing
from ._version import __version__
from .hypothesis import OneVsRestHypothesis
from .kernels import Kernel
from .registry import hypothesis_classes

FORMAT = "perceptron_bounds.OnlineRun"
FORMAT_VERSION = 4
HEADER = "header.json"

_SPARSE = {cls.__name__: cls for cls in (sp.csr_matrix, sp.csr_array)}
_SPARSE_PARTS = ("data", "indices", "indptr")
# The keys of each tag's JSON object, the tag first; the flags of an array are optional.
_TAG_KEYS = {
    "array": ("array", "writeable", "object"), "scalar": ("scalar",), "float": ("float",),
    "tuple": ("tuple",), "list": ("list",), "dict": ("dict",),
    "sparse": ("sparse", "shape", *_SPARSE_PARTS), "dataclass": ("dataclass", "fields"),
    "record": ("record",),
}
_OPTIONAL_KEYS = ("writeable", "object")
_MULTICLASS = ("ovr", "native")
_FINGERPRINT = re.compile(r"[0-9]+x[0-9]+:[0-9a-f]{16}:[0-9a-f]{16}")
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
_NPY_MAGIC = b"\x93NUMPY"
_PICKLE_PROTOCOL = 0x80


class _NotARun(Exception):
    """What makes a file not a saved run (becomes a ValueError naming the file)."""


class _Schema:
    """The saved fields of the record class: in order, with their types and format versions."""

    def __init__(self, cls: type):
        hints = get_type_hints(cls)
        self.cls = cls
        self.kinds = {f.name: _kinds(hints[f.name]) for f in fields(cls)}
        self.since = {f.name: f.metadata.get("format_version", 1) for f in fields(cls)}
        self.optional = [name for name, version in self.since.items() if version > 1]

    def allowed(self, name: str) -> tuple:
        """The exact types the field ``name`` may hold when loaded (a bool is not an int)."""
        return hypothesis_classes() if self.kinds[name] is None else self.kinds[name]

    def written(self, run) -> list[str]:
        """The fields written for ``run``: those of version 1, and those of each later
        version when one of them is not None."""
        needed = {self.since[name] for name in self.optional if getattr(run, name) is not None}
        return [name for name, version in self.since.items() if version == 1 or version in needed]


def _kinds(hint) -> tuple | None:
    """The types an annotation names (``X | None``: both); None for ``Any``, a hypothesis,
    whose registered classes are read when a value is checked (so that a class registered
    after the record counts)."""
    if hint is Any:
        return None
    return get_args(hint) if isinstance(hint, types.UnionType) else (hint,)


_SCHEMAS: dict[str, _Schema] = {}


def saved_record(cls: type) -> type:
    """Class decorator: ``cls`` is the record the format saves (``OnlineRun``).

    The schema is read from the dataclass ``cls``: its fields in order, the types
    their annotations name (``X | None`` allows either; ``Any`` a registered
    hypothesis class) and the format version that added each,
    ``metadata["format_version"]`` (1 when absent).

    Parameters
    ----------
    cls : type
        A dataclass; one class only.

    Returns
    -------
    type
        ``cls`` itself.
    """
    if FORMAT in _SCHEMAS and _SCHEMAS[FORMAT].cls is not cls:
        raise ValueError(f"{FORMAT} is already declared by {_SCHEMAS[FORMAT].cls.__name__}")
    _SCHEMAS[FORMAT] = _Schema(cls)
    return cls


def _schema() -> _Schema:
    return _SCHEMAS[FORMAT]


def _dataclasses() -> dict:
    """The only classes a file may name, by name."""
    return {cls.__name__: cls for cls in (*hypothesis_classes(), Kernel)}


def save_run(run, path) -> str:
    """Write ``run`` to one ``.npz`` file, without pickle.

    Parameters
    ----------
    run : OnlineRun
        The record to save.
    path : str or os.PathLike
        File to write; ``.npz`` is appended when missing, as :func:`numpy.savez`
        does. The archive is written to a temporary file in the same folder and
        renamed over ``path`` (:func:`os.replace`), so an interrupted save
        leaves no partial file under that name (an existing file stays whole).

    Returns
    -------
    str
        The path written.

    Raises
    ------
    TypeError
        If ``run`` is not an OnlineRun, ``path`` is not a path, or the record
        holds a value the format cannot store (named by where it sits, e.g.
        ``state/x``); nothing is written then.
    FileNotFoundError
        If the folder of ``path`` does not exist.

    See Also
    --------
    OnlineRun.save : the same, as a method.
    read_run : read the file back.

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> from perceptron_bounds import run_online
    >>> from perceptron_bounds.persistence import save_run
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
    >>> run = run_online("perceptron", X, [1, 1, -1, -1])
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = save_run(run, os.path.join(folder, "run"))
    ...     with np.load(path, allow_pickle=False) as archive:
    ...         entries = sorted(archive.files)
    >>> os.path.basename(path)
    'run.npz'
    >>> entries  # doctest: +NORMALIZE_WHITESPACE
    ['classes', 'header.json', 'hypothesis/weights', 'margin_error_trials',
     'mistake_trials', 'sample_index']
    """
    if not _is_record(run):
        raise TypeError(f"run must be an OnlineRun, got {type(run).__name__}")
    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    target = os.fsdecode(path)
    if not target.endswith(".npz"):
        target += ".npz"
    encoder = _Encoder()
    record = encoder.record(run, ())
    header = {"format": FORMAT, "format_version": encoder.version,
              "package_version": __version__, "run": record}
    text = json.dumps(header, allow_nan=False, ensure_ascii=False)
    _write_atomically(target, {HEADER: np.array(text), **encoder.arrays})
    return target


def read_run(path, make=dict):
    """The fields of the run saved at ``path``, read without unpickling anything.

    ``read_run(path, OnlineRun)`` is the saved record (what
    ``perceptron_bounds.load_run`` returns).

    Parameters
    ----------
    path : str or os.PathLike
        The ``.npz`` file, as returned by ``save``.
    make : callable, default=dict
        Called with every field of a record by name to build it: the saved
        record and each of its ``class_runs``.

    Returns
    -------
    dict or what ``make`` returns
        Every field of the record by name: its arrays equal bit for bit with
        the same dtypes (and read-only where the original's were), the
        hypothesis of the same class, so that predictions and bound reports
        are the same; a one-vs-rest run's ``class_runs`` as a tuple of records
        built by ``make``.

    Raises
    ------
    FileNotFoundError
        If there is no file at ``path``.
    ValueError
        If the file is not a saved run: not an ``.npz`` archive (e.g. a
        pickle), damaged or truncated, an entry holding Python objects (which
        would need pickle), missing or unexpected entries, a header that does
        not describe a record, or a format version newer than this package
        reads. One line, naming the file and the problem.
    TypeError
        If ``path`` is not a path.

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> from perceptron_bounds import run_online
    >>> from perceptron_bounds.persistence import read_run
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
    >>> run = run_online("perceptron", X, ["spam", "spam", "ham", "ham"])
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     saved = read_run(run.save(os.path.join(folder, "run.npz")))
    >>> saved["algorithm"], saved["classes"], saved["hypothesis"]
    ('perceptron', array(['ham', 'spam'], dtype='<U4'), LinearHypothesis(weights=array([1., 1.])))
    """
    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    name = os.fsdecode(path)
    try:
        file = open(name, "rb")
    except FileNotFoundError:
        hint = (f" (did you mean {name + '.npz'!r}?)"
                if not name.endswith(".npz") and os.path.isfile(name + ".npz") else "")
        raise FileNotFoundError(f"no saved run at {name!r}: no such file{hint}") from None
    with file:
        try:
            return _read(file, make)
        except _NotARun as err:
            raise ValueError(f"{name!r} is not a saved run: {err}") from None
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, KeyError) as err:
            detail = " ".join(str(err).split())
            raise ValueError(
                f"{name!r} is not a saved run: damaged or truncated archive "
                f"({type(err).__name__}: {detail})"
            ) from err


def _is_record(value) -> bool:
    """True for an instance of the record class (:func:`saved_record`)."""
    return isinstance(value, _schema().cls)


class _Encoder:
    """Turns values into JSON, moving their arrays into ``arrays`` under keys named by path."""

    def __init__(self):
        self.arrays: dict[str, np.ndarray] = {}
        self.version = 1  # the newest format version of a field written
        # id -> (array, tag); the array is kept so that its id stays its own.
        self._seen: dict[int, tuple[np.ndarray, dict]] = {}

    def record(self, run, path: tuple) -> dict:
        """The JSON of a record's fields (those :meth:`_Schema.written` names)."""
        schema = _schema()
        names = schema.written(run)
        self.version = max(self.version, *(schema.since[name] for name in names))
        return {name: self.encode(getattr(run, name), (*path, name)) for name in names}

    def encode(self, value, path: tuple):
        kind = type(value)
        if value is None or kind in (bool, int, str):
            return value
        if kind is float:
            return value if math.isfinite(value) else {"float": repr(value)}
        if isinstance(value, np.ndarray):
            return self._array(value, path)
        if isinstance(value, np.generic):
            return {"scalar": self._store(np.asarray(value), path)}
        if kind in (tuple, list):
            items = [self.encode(item, (*path, str(i))) for i, item in enumerate(value)]
            return {kind.__name__: items}
        if kind is dict:
            for key in value:
                if type(key) is not str:
                    raise TypeError(f"cannot save {_where(path)}: its keys must be strings, "
                                    f"got {key!r}")
            return {"dict": {key: self.encode(item, (*path, key)) for key, item in value.items()}}
        if _SPARSE.get(kind.__name__) is kind:
            parts = {part: self._array(getattr(value, part), (*path, part))
                     for part in _SPARSE_PARTS}
            return {"sparse": kind.__name__, "shape": [int(n) for n in value.shape], **parts}
        if _dataclasses().get(kind.__name__) is kind:
            values = {f.name: self.encode(getattr(value, f.name), (*path, f.name))
                      for f in fields(value) if f.init}
            return {"dataclass": kind.__name__, "fields": values}
        if _is_record(value):
            return {"record": self.record(value, path)}
        raise TypeError(
            f"cannot save {_where(path)}: a {kind.__module__}.{kind.__qualname__} is none of "
            "None, bool, int, float, str, tuple, list, dict, ndarray, NumPy scalar, CSR matrix, "
            f"{', '.join(_dataclasses())}, {_schema().cls.__name__}"
        )

    def _array(self, array: np.ndarray, path: tuple) -> dict:
        seen = self._seen.get(id(array))
        if seen is not None:
            return seen[1]
        plain = _without_objects(array, path) if array.dtype.hasobject else array
        tag = {"array": self._store(plain, path)}
        if not array.flags.writeable:
            tag["writeable"] = False
        if plain is not array:
            tag["object"] = True
        self._seen[id(array)] = (array, tag)
        return tag

    def _store(self, array: np.ndarray, path: tuple) -> str:
        key = candidate = "/".join(path)
        while candidate in self.arrays or candidate == HEADER:
            candidate = f"{key}#{len(self.arrays)}"
        self.arrays[candidate] = array
        return candidate


def _without_objects(array: np.ndarray, path: tuple) -> np.ndarray:
    """The array NumPy makes of the elements of an object array, when it holds them all."""
    plain = np.array(array.tolist()) if array.size else np.empty(array.shape)
    if plain.dtype.hasobject or plain.shape != array.shape or plain.tolist() != array.tolist():
        raise TypeError(
            f"cannot save {_where(path)}: an object array whose elements make no plain NumPy "
            f"array (got {plain.dtype} of shape {plain.shape} from {array.shape}); saving it "
            "would need pickle"
        )
    return plain


def _where(path: tuple) -> str:
    return "/".join(path)


def _write_atomically(target: str, arrays: dict) -> None:
    """Write the archive to a temporary file beside ``target``, then rename it over ``target``."""
    folder = os.path.dirname(target) or "."
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"cannot save to {target!r}: no folder {folder!r}")
    with replacing(target) as temp, open(temp, "wb") as file:
        np.savez_compressed(file, allow_pickle=False, **arrays)
        file.flush()
        os.fsync(file.fileno())


def _read(file, make):
    magic = file.read(6)
    if not magic.startswith(_ZIP_MAGIC):
        raise _NotARun(_what_it_is(magic))
    file.seek(0)
    with np.load(file, allow_pickle=False) as archive:
        if HEADER not in archive.files:
            shown = ", ".join(repr(key) for key in sorted(archive.files)[:5])
            raise _NotARun(f"no {HEADER!r} entry (entries: {shown or 'none'})")
        entries = {key: _entry(archive, key) for key in archive.files}
    header = _header(entries.pop(HEADER))
    decoder = _Decoder(entries, make)
    run = decoder.record(header["run"])
    unused = sorted(set(entries) - decoder.used)
    if unused:
        raise _NotARun(f"unexpected entries {', '.join(map(repr, unused))}")
    return run


def _what_it_is(magic: bytes) -> str:
    if not magic:
        return "an empty file, not an .npz archive"
    if magic.startswith(_NPY_MAGIC):
        return "a single .npy array, not an .npz archive"
    if magic[0] == _PICKLE_PROTOCOL:
        return "a pickle, not an .npz archive (load_run never unpickles)"
    return "not an .npz archive"


def _entry(archive, key: str) -> np.ndarray:
    try:
        value = archive[key]
    except ValueError as err:
        if "allow_pickle" not in str(err):
            raise
        raise _NotARun(f"entry {key!r} holds Python objects, which would need pickle "
                       "(load_run never unpickles)") from None
    if not isinstance(value, np.ndarray):
        raise _NotARun(f"entry {key!r} is not a NumPy array")
    return value


def _header(raw: np.ndarray) -> dict:
    if raw.shape != () or raw.dtype.kind not in "US":
        raise _NotARun(f"{HEADER!r} is not a string but {raw.dtype} of shape {raw.shape}")
    text = raw.item()
    try:
        header = json.loads(text.decode() if isinstance(text, bytes) else text)
    except (ValueError, RecursionError) as err:
        raise _NotARun(f"{HEADER!r} is not JSON ({' '.join(str(err).split())})") from None
    if type(header) is not dict or header.get("format") != FORMAT:
        raise _NotARun(f"{HEADER!r} does not describe a {FORMAT}")
    version = header.get("format_version")
    if type(version) is not int or version < 1:
        raise _NotARun(f"format_version must be a positive int, got {version!r}")
    if version > FORMAT_VERSION:
        raise _NotARun(
            f"it was written in format version {version} (perceptron_bounds "
            f"{header.get('package_version')}); this perceptron_bounds reads versions up to "
            f"{FORMAT_VERSION}: upgrade it"
        )
    _check_keys(repr(HEADER), header, ("format", "format_version", "package_version", "run"))
    return header


def _check_keys(what: str, node, names, optional=()) -> None:
    """``node`` must be a JSON object with the keys ``names`` (those in ``optional`` may lack)."""
    if type(node) is not dict:
        raise _NotARun(f"{what} is a JSON {type(node).__name__}, not an object")
    missing = [name for name in names if name not in node and name not in optional]
    extra = [name for name in node if name not in names]
    if missing or extra:
        problems = ([f"no {', '.join(missing)}"] if missing else []) + (
            [f"unexpected {', '.join(extra)}"] if extra else [])
        raise _NotARun(f"{what} has {'; '.join(problems)}")


class _Decoder:
    """Rebuilds values from their JSON, taking arrays from the archive's entries."""

    def __init__(self, entries: dict, make):
        self.entries = entries
        self.make = make
        self.used: set[str] = set()
        self._arrays: dict[str, np.ndarray] = {}
        self._records: set[int] = set()  # ids of the nested records built
        self._decoders = {
            "array": self._array, "scalar": self._scalar, "float": self._float,
            "tuple": self._tuple, "list": self._list, "dict": self._dict,
            "sparse": self._sparse, "dataclass": self._dataclass, "record": self._record,
        }

    def record(self, node, where: str = ""):
        """A record from its JSON object, its fields checked; built by ``make``.

        ``where`` is empty for the saved record and names a nested one (a class
        run, which is binary), e.g. ``class_runs/0``. The multiclass fields may
        be left out (a binary record, or format version 1), and so may the fingerprint
        (format versions 1 and 2): every field added after version 1.
        """
        schema = _schema()
        nested = bool(where)
        what = f"the record {where}" if nested else "the record"
        _check_keys(what, node, list(schema.since), optional=schema.optional)
        prefix = f"{where}/" if nested else ""
        values = {name: self.decode(node[name], f"{prefix}{name}") if name in node else None
                  for name in schema.since}
        its = f"{where}'s" if nested else "its"
        for name, value in values.items():
            if type(value) not in schema.allowed(name):
                allowed = " or ".join(kind.__name__ for kind in schema.allowed(name))
                raise _NotARun(f"{its} {name} must be {allowed}, got {type(value).__name__}")
        chain = values["data_fingerprint"]
        if chain is not None and (not chain or not all(
                type(entry) is str and _FINGERPRINT.fullmatch(entry) for entry in chain)):
            raise _NotARun(f"{its} data_fingerprint must be a non-empty tuple of strings "
                           "'ROWSxFEATURES:HEX16:HEX16'")
        multiclass, class_runs = values["multiclass"], values["class_runs"]
        if multiclass is not None and (nested or multiclass not in _MULTICLASS):
            allowed = "None (a class run is binary)" if nested else "None, 'ovr' or 'native'"
            raise _NotARun(f"{its} multiclass must be {allowed}, got {multiclass!r}")
        if (class_runs is not None) != (multiclass == "ovr"):
            raise _NotARun(f"{its} class_runs must be given for multiclass='ovr' and only then")
        if class_runs is not None and (
                len(class_runs) != values["classes"].shape[0]
                or any(id(run) not in self._records for run in class_runs)):
            raise _NotARun(f"{its} class_runs must be one record per class")
        hypothesis = values["hypothesis"]
        binary = hypothesis_classes(binary=True)
        if isinstance(hypothesis, OneVsRestHypothesis) and (
                type(hypothesis.hypotheses) is not tuple
                or not all(type(h) in binary for h in hypothesis.hypotheses)):
            raise _NotARun(f"{its} hypothesis must hold a tuple of binary hypotheses")
        return self.make(**values)

    def decode(self, node, where: str):
        kind = type(node)
        if node is None or kind in (bool, int, float, str):
            return node
        tags = [key for key in node if key in _TAG_KEYS] if kind is dict else []
        if len(tags) != 1:
            raise _NotARun(f"{where} is {json.dumps(node)[:60]}, which encodes no value")
        tag = tags[0]
        _check_keys(where, node, _TAG_KEYS[tag], optional=_OPTIONAL_KEYS)
        try:
            return self._decoders[tag](node[tag], node, where)
        except (TypeError, ValueError) as err:
            raise _NotARun(f"{where}: {' '.join(str(err).split())}") from None

    def _array(self, key, node, where) -> np.ndarray:
        if key in self._arrays:
            return self._arrays[key]
        is_object, writeable = node.get("object", False), node.get("writeable", True)
        if type(is_object) is not bool or type(writeable) is not bool:
            raise ValueError(f"the flags of an array are true or false, got {json.dumps(node)}")
        array = self._entry(key, where)
        if is_object:
            array = array.astype(object)
        if not writeable:
            array.flags.writeable = False
        self._arrays[key] = array
        return array

    def _scalar(self, key, node, where):
        array = self._entry(key, where)
        if array.shape != ():
            raise ValueError(f"a scalar needs a 0-d entry, {key!r} has shape {array.shape}")
        return array[()]

    def _float(self, text, node, where) -> float:
        if text not in ("inf", "-inf", "nan"):
            raise ValueError(f"a non-finite float is 'inf', '-inf' or 'nan', got {text!r}")
        return float(text)

    def _tuple(self, items, node, where) -> tuple:
        return tuple(self._list(items, node, where))

    def _list(self, items, node, where) -> list:
        if type(items) is not list:
            raise ValueError(f"items must be a JSON array, got {type(items).__name__}")
        return [self.decode(item, f"{where}/{i}") for i, item in enumerate(items)]

    def _dict(self, items, node, where) -> dict:
        if type(items) is not dict:
            raise ValueError(f"items must be a JSON object, got {type(items).__name__}")
        return {key: self.decode(item, f"{where}/{key}") for key, item in items.items()}

    def _sparse(self, name, node, where):
        cls = _SPARSE.get(name) if type(name) is str else None
        if cls is None:
            raise ValueError(f"sparse class must be one of {', '.join(_SPARSE)}, got {name!r}")
        shape = node["shape"]
        if (type(shape) is not list or len(shape) != 2
                or any(type(n) is not int or n < 0 for n in shape)):
            raise ValueError(f"shape must be two non-negative ints, got {shape!r}")
        parts = [self.decode(node[part], f"{where}/{part}") for part in _SPARSE_PARTS]
        if any(type(part) is not np.ndarray for part in parts):
            raise ValueError("data, indices and indptr must be arrays")
        matrix = cls(tuple(parts), shape=tuple(shape))  # checks the structure
        # The constructor may narrow the index dtype; keep the arrays as saved.
        matrix.data, matrix.indices, matrix.indptr = parts
        return matrix

    def _dataclass(self, name, node, where):
        known = _dataclasses()
        cls = known.get(name) if type(name) is str else None
        if cls is None:
            raise ValueError(f"class must be one of {', '.join(known)}, got {name!r}")
        names = [f.name for f in fields(cls) if f.init]
        _check_keys(f"{where} ({name})", node["fields"], names)
        return cls(**{n: self.decode(node["fields"][n], f"{where}/{n}") for n in names})

    def _record(self, node, outer, where):
        run = self.record(node, where)
        self._records.add(id(run))
        return run

    def _entry(self, key, where) -> np.ndarray:
        if type(key) is not str or key not in self.entries:
            raise _NotARun(f"{where} names entry {key!r}, which the archive lacks")
        self.used.add(key)
        return self.entries[key]
