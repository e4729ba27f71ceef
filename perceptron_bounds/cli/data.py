"""``perceptron-bounds data list [--data-home DIR]``: the papers' data sets found locally.

For each of MNIST, Fashion-MNIST, USPS and RCV1: whether ``--data
mnist|fashion-mnist|usps|rcv1:TASK`` can read it from the data home without downloading,
and the files found there with their sizes (see :mod:`perceptron_bounds.datasets.real`
for the layout). The IDX files are
decompressed and counted (about 0.3 s for the four): a truncated or corrupt file is
named as such, not "available". Then the cache of parsed files
(:mod:`perceptron_bounds.datasets.parsed_cache`): where it is, its entries and their
sizes; ``data clear-cache`` deletes them.
"""

from __future__ import annotations

import argparse
import os

from ..datasets import get_data_home, parsed_cache
from ..datasets import real
from ._commands import HELP
from ..datasets.real import DATA_HOME_ENV, USPS_FILES, idx_folder, idx_problem, usps_path

#: The pickles scikit-learn's ``fetch_rcv1`` decodes RCV1 into, in ``DATA_HOME/RCV1``.
RCV1_CACHE = ("samples_py3.pkl", "sample_id_py3.pkl", "sample_topics_py3.pkl",
              "topics_names_py3.pkl")


def add_parser(subparsers, name: str) -> argparse.ArgumentParser:
    """Register the command ``name`` on the main parser's subparsers."""
    parser = subparsers.add_parser(
        name, help=HELP[name],
        description="The real data sets that --data mnist, fashion-mnist, usps and rcv1:TASK "
        "read from the "
        f"data home (--data-home, else ${DATA_HOME_ENV}, else scikit-learn's data home).",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    listing = actions.add_parser(
        "list", help="which data sets are available locally, with their files and sizes",
        description="Show, for MNIST, Fashion-MNIST, USPS and RCV1, the files found in the data home, their "
        "sizes, and whether the data set loads without downloading.",
    )
    listing.add_argument("--data-home", metavar="DIR", default=None,
                         help=f"the data home (default: ${DATA_HOME_ENV}, else scikit-learn's "
                         "data home)")
    listing.set_defaults(handler=list_command)
    clearing = actions.add_parser(
        "clear-cache", help="delete the cache of parsed svmlight and CSV files",
        description="Delete every entry of the cache of parsed files (what --data FILE "
        "parsed into, kept so that the next read of the same content is fast).",
    )
    clearing.add_argument("--data-home", metavar="DIR", default=None,
                          help="the data home whose parsed/ folder is the cache")
    clearing.set_defaults(handler=clear_command)
    for action in (listing, clearing):
        action.add_argument("--cache", metavar="DIR", default=None,
                            help=f"the cache of parsed files (default: "
                            f"${parsed_cache.CACHE_ENV}, else parsed/ in the data home)")
    return parser


def clear_command(args) -> int:
    """``data clear-cache``: delete the entries of the cache of parsed files."""
    where = parsed_cache.folder(args.cache, args.data_home)
    if where is None:
        print(f"the cache of parsed files is off (${parsed_cache.CACHE_ENV}=off)")
        return 0
    count, freed = parsed_cache.clear(where)
    print(f"deleted {count} parsed file(s), {size_text(freed)}, from {where}")
    return 0


def cache_lines(where: str | None) -> list[str]:
    """The lines of ``data list`` on the cache of parsed files at ``where``."""
    if where is None:
        return [f"\nparsed files: no cache (${parsed_cache.CACHE_ENV}=off)"]
    found = parsed_cache.entries(where)
    total = sum(entry["bytes"] for entry in found)
    lines = [f"\nparsed files: {where} ({len(found)} file(s), {size_text(total)}; "
             "data clear-cache deletes them)"]
    for entry in found:
        stale = ("" if _unchanged(entry) else
                 "  (the file changed since: read again on its next use)")
        lines.append(f"  {size_text(entry['bytes']):>9}  {entry['source']}{stale}")
    return lines


def _unchanged(entry: dict) -> bool:
    """Whether the file of a cache entry still has the size and time it had when parsed."""
    try:
        status = os.stat(entry["source"])
    except OSError:
        return False
    return (status.st_size, status.st_mtime_ns) == (entry["size"], entry["mtime_ns"])


def size_text(n_bytes: int) -> str:
    """``"9.6 MB"``, ``"28.9 kB"``, ``"370 B"``."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:.1f} {unit}"
    return f"{n_bytes} B"


def file_line(path: str, label: str) -> tuple[bool, str]:
    """Whether ``path`` is a file, and a line with its name and size (or "missing")."""
    found = os.path.isfile(path)
    return found, f"  {label:<28} {size_text(os.path.getsize(path)) if found else 'missing'}"


def idx_line(path: str, entry, label: str) -> tuple[bool, str]:
    """:func:`file_line` of an IDX file (MNIST's, Fashion-MNIST's), whose content is checked:
    usable or not, and its line ending in ``truncated (...)`` or ``corrupt (...)`` when it is
    not. ``label`` names it relative to the data home."""
    found, line = file_line(path, label)
    problem = idx_problem(path, entry.shape) if found else None
    if problem is None:
        return found, line
    return False, f"{line}  {problem[0]} ({problem[1]}): delete it to fetch it again"


def idx_lines(home: str, folder: str, entries, *, top_level: bool = False) -> list:
    """:func:`idx_line` of each file of an IDX data set, in the folder its loader reads."""
    where = idx_folder(home, folder, entries, top_level=top_level)
    return [idx_line(os.path.join(where, entry.name), entry,
                     os.path.relpath(os.path.join(where, entry.name), home))
            for entry in entries]


def list_command(args) -> int:
    """``data list``: the data home, then each data set, its status and files."""
    home = get_data_home(args.data_home)
    origin = ("--data-home" if args.data_home is not None else
              f"${DATA_HOME_ENV}" if os.environ.get(DATA_HOME_ENV) else
              "scikit-learn's data home")
    print(f"data home: {home} (from {origin})" + ("" if os.path.isdir(home) else ", not there"))
    sections = [(
        "mnist", "four IDX files; loading decodes them (no other cache), about 1 s",
        "fetches OpenML's mnist_784 and writes the IDX files",
        idx_lines(home, "mnist", real.MNIST_FILES, top_level=True),
    ), (
        "fashion-mnist", "four IDX files in fashion-mnist/; loading decodes them, about 1 s",
        "fetches OpenML's Fashion-MNIST and writes the IDX files",
        idx_lines(home, "fashion-mnist", real.FASHION_MNIST_FILES),
    ), (
        "usps", "LIBSVM's files, plain or .bz2",
        "fetches OpenML's data_id 41082 and writes usps, usps.t",
        [usps_line(usps_path(home, name), name) for name in USPS_FILES],
    ), (
        "rcv1:TASK", "scikit-learn's fetch_rcv1 cache: RCV1 decoded into pickles",
        "downloads RCV1 with fetch_rcv1, about 650 MB",
        [file_line(os.path.join(home, "RCV1", name), f"RCV1/{name}") for name in RCV1_CACHE],
    )]
    for name, what, fetch, lines in sections:
        available = all(found for found, _ in lines)
        damaged = [line.split()[0] for _, line in lines if line.endswith("to fetch it again")]
        status = ("available" if available else
                  f"not usable: {', '.join(damaged)} damaged (see below)" if damaged else
                  f"not available (--data {name} {fetch})")
        print(f"\n--data {name}: {status}\n  {what}")
        for _, line in lines:
            print(line)
    openml = os.path.join(home, "openml")
    if os.path.isdir(openml):
        sizes = [os.path.getsize(os.path.join(folder, file))
                 for folder, _, files in os.walk(openml) for file in files]
        print(f"\nopenml/: scikit-learn's fetch_openml downloads, {len(sizes)} file(s), "
              f"{size_text(sum(sizes))}")
    for line in cache_lines(parsed_cache.folder(args.cache, args.data_home)):
        print(line)
    return 0


def usps_line(path: str | None, name: str) -> tuple[bool, str]:
    """The line of LIBSVM's file ``name``, found at ``path`` (plain or .bz2) or not."""
    return (False, f"  {name:<28} missing") if path is None else file_line(
        path, os.path.basename(path))
