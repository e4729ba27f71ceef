"""``perceptron-bounds atlas``: every algorithm, every bound, every data set (issue 25).

``atlas [--data NAMES|FILES] [--algorithms A,B] [--kernels K,...] [--epochs E,...]
[--quick] [--cache DIR] [--n-jobs J] [--scheduler ADDRESS] [--out DIR] [--download]
[--from-csv FILE]`` writes ``DIR/atlas.csv``, ``atlas.md`` and the figures of the five
views (``atlas.png`` the heat map, ``atlas-winners``, ``atlas-ratios``, ``atlas-noise``,
``atlas-drift``, each ``.png`` and ``.pdf``; PNG only with ``--quick``), and prints the paths
and the time. Every name, file and option
is checked before any cell runs; ``--cache`` keeps every finished cell, so a run started
again recomputes nothing that finished. ``--scheduler`` runs the cells on a Dask cluster
(the ``dask`` extra); ``--from-csv`` redraws the report and figures from atlas CSVs,
joining several into one.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import time

from ..algorithms import available
from ..datasets.catalog import CATALOG, GROUPS, atlas_tasks, check_data_names
from ..experiments import bound_atlas, read_atlas_csv
from ..experiments.bound_atlas import KERNELS, check_atlas_options
from ..papers.atlas import run_seconds, save_atlas, views_left_out
from ._commands import HELP
from ._common import UsageError


def add_parser(subparsers, name: str) -> argparse.ArgumentParser:
    """Register the command ``name`` on the main parser's subparsers."""
    parser = subparsers.add_parser(
        name, help=HELP[name],
        description="Run every registered algorithm on every data set, evaluate every bound "
        "that applies, and write DIR/atlas.csv, atlas.md and the figures (atlas.png: the "
        "tightest ratio per algorithm and data set; atlas-winners, atlas-ratios, "
        "atlas-noise, atlas-drift). A progress bar is shown on a terminal, a line every 10 s "
        "otherwise.",
    )
    parser.add_argument(
        "--data", metavar="NAMES|FILES", default=None,
        help="comma-separated data set names (" + ", ".join(CATALOG) + "), groups ("
        + ", ".join(GROUPS) + ") or data files (svmlight, .npz, .csv with the labels last). "
        "Default: every synthetic and scikit-learn set, and the real sets the data home holds")
    parser.add_argument("--algorithms", metavar="A,B,...", default=None,
                        help="comma-separated registered names (default: every one: "
                        + ", ".join(available()) + ")")
    parser.add_argument("--kernels", metavar="K,...", default="linear",
                        help="comma-separated among " + ", ".join(KERNELS) + " (default "
                        "linear; poly is (x.z + 1)^3, rbf exp(-||x - z||^2) on rows of unit "
                        "norm); an algorithm without a kernel form runs linear only")
    parser.add_argument("--epochs", metavar="E,...", default="1",
                        help="comma-separated passes over the data (default 1)")
    parser.add_argument("--quick", action="store_true",
                        help="reduced sizes (300 rows per set), the registered defaults only (no "
                        "declared variants), PNG figures only, all cores; marked as quick in "
                        "the report "
                        "and figures")
    parser.add_argument("--cache", metavar="DIR", default=None,
                        help="keep every finished cell in DIR and read it back when run again "
                        "(a killed run resumes)")
    parser.add_argument("--n-jobs", type=int, default=None, metavar="J",
                        help="parallel workers of the runs and the figures (joblib; -1 = all "
                        "cores; default 1, with --quick all cores)")
    parser.add_argument("--scheduler", metavar="ADDRESS", default=None,
                        help="run the cells on the Dask cluster at ADDRESS (e.g. "
                        "tcp://host:8786; needs the dask extra); --cache must then be on a "
                        "shared file system")
    parser.add_argument("--out", metavar="DIR", default="atlas",
                        help="output directory (default: ./atlas)")
    parser.add_argument("--download", action="store_true",
                        help="fetch a real data set named in --data that the data home lacks")
    parser.add_argument("--from-csv", metavar="FILE,...", default=None,
                        help="run nothing: redraw atlas.md and the figures from atlas CSVs "
                        "(several are joined into one atlas.csv, e.g. a run with kernels on "
                        "the small sets and one on MNIST)")
    parser.set_defaults(handler=atlas_command)
    return parser


def _split(text: str | None) -> list[str] | None:
    if text is None:
        return None
    return [part.strip() for part in text.split(",") if part.strip()]


def _epochs(text: str) -> list[int]:
    try:
        return [int(part) for part in _split(text)]
    except ValueError:
        raise UsageError(f"--epochs must be comma-separated integers >= 1, got {text!r}") from None


def atlas_command(args) -> int:
    """Check everything, load the data, run the cells, write the files, print the paths."""
    start = time.perf_counter()
    if args.from_csv is not None:
        sources = _split(args.from_csv)
        records = [row for path in sources for row in _read_csv(path)]
        target = os.path.abspath(os.path.join(args.out, "atlas.csv"))
        paths = save_atlas(records, args.out, {"quick": args.quick, "summed": True,
                                               "run_seconds": run_seconds(records)},
                           csv=target not in map(os.path.abspath, sources), n_jobs=_n_jobs(args))
        print(f"atlas: {', '.join(paths)} (from {args.from_csv}, {len(records)} rows)")
        _say_left_out(records)
        return 0
    try:
        algorithms = _split(args.algorithms)  # None: every registered one, kernels where taken
        _, kernels, epochs = check_atlas_options(algorithms, _split(args.kernels),
                                                 _epochs(args.epochs))
    except ValueError as error:
        raise UsageError(f"--{str(error)}") from None
    if args.n_jobs == 0:
        raise UsageError("--n-jobs must be a nonzero integer, got 0")
    names = _split(args.data)
    if names is not None:
        try:
            names = check_data_names(names)
        except ValueError as error:
            raise UsageError(f"--{error}") from None
    os.makedirs(args.out, exist_ok=True)  # a bad --out fails now, not after the cells
    try:
        tasks, skipped = atlas_tasks(names, quick=args.quick, download=args.download)
    except FileNotFoundError as error:
        raise UsageError(f"{error} (on the command line: --download)") from None
    loaded = time.perf_counter()
    n_jobs = None if args.scheduler else _n_jobs(args)
    with _scheduler(args.scheduler):
        records = bound_atlas(tasks, algorithms=algorithms, kernels=kernels, epochs=epochs,
                              variants=not args.quick, n_jobs=n_jobs, progress=True,
                              cache=args.cache)
    ran = time.perf_counter()
    paths = save_atlas(records, args.out, {
        "quick": args.quick, "seconds": ran - start, "skipped": skipped,
        "summed": args.cache is not None, "run_seconds": run_seconds(records)},
        n_jobs=n_jobs)
    violated = sum(row["holds"] is False for row in records)
    print(f"atlas: {', '.join(paths)} ({len(records)} rows, {violated} violated, "
          f"{time.perf_counter() - start:.1f} s: data {loaded - start:.1f} s, runs "
          f"{ran - loaded:.1f} s, files {time.perf_counter() - ran:.1f} s)")
    _say_left_out(records)
    return 0


def _n_jobs(args) -> int:
    """``--n-jobs``, or its default: every core for a quick atlas (seconds of work per core,
    which the workers' start-up does not outweigh), one otherwise; the cells' and the
    figures' workers alike."""
    if args.n_jobs is not None:
        return args.n_jobs
    return -1 if args.quick else 1


def _read_csv(path: str) -> list[dict]:
    """The records of the atlas CSV at ``path``; a missing or unreadable file is a one-line
    usage error."""
    try:
        return read_atlas_csv(path)
    except FileNotFoundError:
        raise UsageError(f"--from-csv {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"--from-csv {path}: cannot read it ({error})") from None
    except ValueError as error:
        raise UsageError(f"--from-csv {error}") from None


def _say_left_out(records) -> None:
    """One line per view that was not drawn, and why."""
    for name, reason in views_left_out(records).items():
        print(f"atlas: no {name}.png: {reason}")


@contextlib.contextmanager
def _scheduler(address: str | None):
    """Run joblib's cells on the Dask cluster at ``address`` (nothing when None)."""
    if address is None:
        yield
        return
    try:
        from dask.distributed import Client
    except ImportError:
        raise UsageError("--scheduler needs Dask: pip install \"perceptron_bounds[dask]\"") from None
    from joblib import parallel_config

    try:
        client = Client(address, timeout=10)
    except OSError as error:
        raise UsageError(f"--scheduler {address}: cannot reach it ({error})") from None
    with client, parallel_config(backend="dask"):
        yield
