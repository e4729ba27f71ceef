"""The cache of parsed files: what a text data file parsed into, kept as arrays on disk.

The second read of an svmlight or CSV file is then a read of NumPy arrays (``.npy``, no
pickle) instead of a parse. An entry is keyed by the file's *content*: its size, its
modification time (ns) and the SHA-1 of its bytes (compressed files: of the compressed
bytes), and by the reader's options that change the result (a CSV file's delimiter and
label column). The hash is computed on every read, so a file rewritten with the same size
and modification time is never read stale; it costs one pass over the file's bytes with
:mod:`hashlib` (SHA-1: hardware-accelerated on x86-64 and arm64, about 1.8 GB/s here, the
fastest digest the standard library offers; a cache key needs no collision resistance
against an adversary).

Where it lives: ``$PERCEPTRON_BOUNDS_CACHE`` when set (``off`` turns it off), else the
folder ``parsed/`` of the data home (:func:`~perceptron_bounds.datasets.get_data_home`),
else a folder passed as ``cache=``. How big it gets: one entry per file and reader
options, the size of the arrays (dense: 8 bytes per cell; CSR: 12 bytes per stored value
and 8 per row), often less than the text; an entry replaces the one of an earlier content
of the same file (same path and options), so a file edited ten times keeps one entry.
``perceptron-bounds data list`` shows the entries and their sizes, ``perceptron-bounds
data clear-cache`` (:func:`clear`) deletes them.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import secrets
import shutil
from collections.abc import Callable
from contextlib import suppress

import numpy as np
import scipy.sparse as sp

from ._parse import csr
from .real import get_data_home

#: The environment variable naming the cache folder (``off``: no cache).
CACHE_ENV = "PERCEPTRON_BOUNDS_CACHE"
#: Bytes hashed per call of the digest (a buffer that stays in the CPU's caches).
_BLOCK = 1 << 22


def folder(cache=None, data_home=None) -> str | None:
    """The cache folder ``cache`` names (see :func:`~perceptron_bounds.datasets.load_data`),
    None when the cache is off; ``TypeError`` for another type. ``data_home``: the data home
    whose ``parsed/`` is the default (see :func:`~perceptron_bounds.datasets.get_data_home`).
    """
    if cache is None:
        cache = os.environ.get(CACHE_ENV) or True
        if isinstance(cache, str) and cache.lower() == "off":
            return None
    if cache is True:
        return os.path.join(get_data_home(data_home), "parsed")
    if cache is False:
        return None
    if not isinstance(cache, (str, os.PathLike)):
        raise TypeError(f"cache must be True, False or a folder, got {type(cache).__name__}")
    return os.path.abspath(os.path.expanduser(os.fspath(cache)))


def parsed(path: str, where: str | None, options: tuple, parse: Callable) -> tuple:
    """``parse(raw)`` of the bytes ``raw`` of the file ``path`` (a uint8 array), from the cache
    ``where`` when an entry has the file's content and ``options``; else parsed and stored.

    ``parse`` returns a tuple of ndarrays, CSR matrices and strings.
    """
    raw = mapped(path)
    if where is None:
        return parse(raw)
    status = os.stat(path)
    digest = hashlib.sha1(usedforsecurity=False)
    view = memoryview(raw)  # of the page cache's pages: nothing copied
    for start in range(0, raw.shape[0], _BLOCK):
        digest.update(view[start:start + _BLOCK])
    source = os.path.abspath(path)
    tag = hashlib.sha1(repr(options).encode()).hexdigest()[:8]
    name = f"{digest.hexdigest()}-{status.st_size}-{status.st_mtime_ns}-{tag}"
    entry = os.path.join(where, name)
    found = _read(entry)
    if found is not None:
        return found
    del view
    result = parse(raw)
    del raw
    _write(where, entry, result, {"source": source, "options": repr(options),
                                  "size": status.st_size, "mtime_ns": status.st_mtime_ns})
    return result


def mapped(path: str) -> np.ndarray:
    """The bytes of the file ``path`` as a read-only uint8 array mapped on the file (the
    operating system's page cache: no copy, no allocation)."""
    with open(path, "rb") as handle:
        if os.fstat(handle.fileno()).st_size == 0:
            empty = np.empty(0, dtype=np.uint8)
            empty.flags.writeable = False
            return empty
        return np.frombuffer(mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ),
                             dtype=np.uint8)


def _read(entry: str) -> tuple | None:
    """The parsed result stored in the folder ``entry``; None when there is none whole."""
    try:
        with open(os.path.join(entry, "meta.json")) as handle:
            items = json.load(handle)["items"]
        result = []
        for k, item in enumerate(items):
            if item["kind"] == "str":
                result.append(item["value"])
                continue
            # copy-on-write maps: the arrays are read from the page cache as they are used,
            # writeable without touching the files
            load = [np.load(os.path.join(entry, f"{k}.{part}.npy"), mmap_mode="c",
                            allow_pickle=False).view(np.ndarray)
                    for part in (("data", "indices", "indptr") if item["kind"] == "csr" else
                                 ("array",))]
            result.append(csr(*load, tuple(item["shape"])) if item["kind"] == "csr" else load[0])
        return tuple(result)
    except (OSError, ValueError, KeyError, TypeError):
        return None  # absent, or damaged: parsed again and replaced


def _write(where: str, entry: str, result: tuple, meta: dict) -> None:
    """Store ``result`` as the folder ``entry`` (written under a temporary name, renamed
    whole), and delete the entries of earlier contents of the same file and options."""
    temp = os.path.join(where, f".{secrets.token_hex(6)}.tmp")
    try:
        os.makedirs(temp)
        items = []
        for k, value in enumerate(result):
            if isinstance(value, str):
                items.append({"kind": "str", "value": value})
            elif sp.issparse(value):
                items.append({"kind": "csr", "shape": list(value.shape)})
                for part in ("data", "indices", "indptr"):
                    np.save(os.path.join(temp, f"{k}.{part}.npy"), getattr(value, part))
            else:
                items.append({"kind": "array"})
                np.save(os.path.join(temp, f"{k}.array.npy"), value)
        with open(os.path.join(temp, "meta.json"), "w") as handle:
            json.dump({**meta, "items": items}, handle)
        for old in entries(where):
            if (old["source"], old["options"]) == (meta["source"], meta["options"]):
                shutil.rmtree(old["path"], ignore_errors=True)
        os.replace(temp, entry)
    except OSError:  # a full disk or a read-only folder: the read goes on without the cache
        pass
    finally:
        with suppress(OSError):
            shutil.rmtree(temp)


def entries(where: str | None) -> list[dict]:
    """The cache's entries: dicts with ``path``, ``source`` (the file parsed), ``options``,
    ``bytes`` (on disk) and the file's ``size`` and ``mtime_ns`` when it was parsed."""
    if where is None or not os.path.isdir(where):
        return []
    found = []
    for name in sorted(os.listdir(where)):
        if name.startswith("."):  # an entry being written
            continue
        path = os.path.join(where, name)
        try:
            with open(os.path.join(path, "meta.json")) as handle:
                meta = json.load(handle)
            size = sum(os.path.getsize(os.path.join(path, file)) for file in os.listdir(path))
        except (OSError, ValueError):
            continue
        found.append({"path": path, "source": meta.get("source", "?"),
                      "options": meta.get("options", ""), "bytes": size,
                      "size": meta.get("size"), "mtime_ns": meta.get("mtime_ns")})
    return found


def clear(where: str | None) -> tuple[int, int]:
    """Delete every entry of the cache ``where``: ``(entries deleted, bytes freed)``."""
    found = entries(where)
    for entry in found:
        shutil.rmtree(entry["path"], ignore_errors=True)
    return len(found), sum(entry["bytes"] for entry in found)
