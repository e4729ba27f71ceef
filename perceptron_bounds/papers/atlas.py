"""The bound atlas's files: ``atlas.csv``, ``atlas.md`` and a figure per view (issue 25).

:func:`save_atlas` writes what ``perceptron-bounds atlas`` makes from the records of
:func:`~perceptron_bounds.experiments.bound_atlas` (or from a CSV written before): the
CSV, the Markdown report (the data sets, the tightest ratio of every algorithm on every
data set, every bound's row, the bounds that do not apply and why, and any violated
bound) and the five views of :mod:`perceptron_bounds.plots.atlas`, as PNG and PDF.
"""

from __future__ import annotations

import os
import re
from collections import Counter

from .._files import replacing
from .._tables import run_label
from .._version import __version__
from ..bounds.report import EXPECTATION_SIGMAS, HOLDS_RTOL
from ..datasets.catalog import CATALOG
from ..experiments import tightest, write_atlas_csv
from ..experiments._cells import check_n_jobs, workers_replaced_quietly
from ..plots.atlas import (
    plot_atlas_drift,
    plot_atlas_heatmap,
    plot_atlas_noise,
    plot_atlas_ratios,
    plot_atlas_winners,
)
from ..plots.style import add_caption
from .common import markdown_table
from .writer import save_markdown

#: The synthetic family drawn against label noise, and the prefix of its tasks' names.
NOISE_FAMILY, NOISE_PREFIX = "label-noise", "eta="
#: The drifting family drawn against its number of shifts, and the prefix of its tasks' names.
DRIFT_FAMILY, DRIFT_PREFIX = "drifting", "shifts="
#: The line of the report after which its tables start (the docs page includes them).
TABLES_MARK = "<!-- tables -->"
#: The files of the views, after ``atlas.csv`` and ``atlas.md``.
VIEWS = ("atlas", "atlas-winners", "atlas-ratios", "atlas-noise", "atlas-drift")


def primary(records) -> list[dict]:
    """The records of the first kernel and the first epochs the atlas ran: the figures'."""
    kernel, epochs = records[0]["kernel"], records[0]["epochs"]
    return [row for row in records if row["kernel"] == kernel and row["epochs"] == epochs]


def describe(meta: dict) -> str:
    """The caption line: version, sizes, what was run and how long it took.

    Where cells may have been read back (``meta["summed"]``: a cache, or a CSV written
    before), it states the runs' own seconds summed (:func:`run_seconds`), not the wall
    time of the invocation that wrote the files.
    """
    size = "quick (reduced sizes)" if meta.get("quick") else "full size"
    if meta.get("summed"):
        took = f" · runs {meta['run_seconds']:.0f} s summed (cells kept in a cache or CSV)"
    elif meta.get("seconds") is not None:
        took = f" · {meta['seconds']:.0f} s"
    else:
        took = ""
    return f"perceptron_bounds {meta.get('version', __version__)} · bound atlas · {size}{took}"


def run_seconds(records) -> float:
    """The seconds of the atlas's runs summed: each run's (with its bounds) counted once,
    although every one of its rows carries it."""
    runs = {(row["dataset"], row["task"], row["algorithm"], row["setting"], row["params"],
             row["kernel"], row["epochs"]): row["seconds"] for row in records}
    return float(sum(runs.values()))


def views_left_out(records) -> dict:
    """The views that the records give nothing to draw, by file stem, with the reason:
    ``atlas-ratios`` when no bound applies to any run of the first kernel and epochs
    (the heat map and the winners are still drawn, every cell marked "none applies")."""
    rows = primary(records)
    if any(row["value"] is not None for row in rows):
        return {}
    kernel, epochs = rows[0]["kernel"], rows[0]["epochs"]
    return {"atlas-ratios": f"no bound applies to any run of kernel {kernel}, {epochs} "
            "pass(es), so there is no ratio mistakes / bound to plot (atlas.md gives each "
            "reason)"}


def atlas_views(records) -> list[str]:
    """The views the records give something to draw, by file stem, in :data:`VIEWS` order:
    the heat map and the winners always; ``atlas-ratios`` when a bound applies
    (:func:`views_left_out`); ``atlas-noise`` and ``atlas-drift`` when the label-noise
    (drifting) family is among the records at more than one rate (number of shifts)."""
    rows = primary(records)
    names = ["atlas", "atlas-winners"]
    if "atlas-ratios" not in views_left_out(records):
        names.append("atlas-ratios")
    for name, family, prefix in (("atlas-noise", NOISE_FAMILY, NOISE_PREFIX),
                                 ("atlas-drift", DRIFT_FAMILY, DRIFT_PREFIX)):
        if len({row["task"] for row in _family(rows, family, prefix)}) > 1:
            names.append(name)
    return names


def _family(rows, family: str, prefix: str) -> list[dict]:
    return [row for row in rows if row["dataset"] == family and row["task"].startswith(prefix)]


def draw_view(name: str, records, meta: dict):
    """The figure of one view (a name of :func:`atlas_views`), captioned: the heat map and
    the winners of every kernel and epochs, the ratios, the noise and the drift of the first
    (:func:`primary`)."""
    rows = primary(records)
    if name in ("atlas", "atlas-winners"):
        best = tightest(records)
        fig = (plot_atlas_heatmap if name == "atlas" else plot_atlas_winners)(best)
    elif name == "atlas-ratios":
        fig = plot_atlas_ratios(rows)
    elif name == "atlas-noise":
        fig = plot_atlas_noise([
            {**row, "noise": float(row["task"].removeprefix(NOISE_PREFIX))}
            for row in _family(rows, NOISE_FAMILY, NOISE_PREFIX)])
    elif name == "atlas-drift":
        fig = plot_atlas_drift([
            {**row, "shifts": int(row["task"].removeprefix(DRIFT_PREFIX))}
            for row in _family(rows, DRIFT_FAMILY, DRIFT_PREFIX)])
    else:
        raise ValueError(f"unknown atlas view {name!r} (choose from {', '.join(VIEWS)})")
    kernel, epochs = rows[0]["kernel"], rows[0]["epochs"]
    combos = ", ".join(dict.fromkeys(f"{r['kernel']} x {r['epochs']}" for r in records))
    what = f"Kernels x passes: {combos}" if name in ("atlas", "atlas-winners") else \
        f"Kernel {kernel}, {epochs} pass(es)"
    add_caption(fig, f"{what}, in the order given; rows of unit norm; each bound with the "
                "comparator and margin that make it smallest (theory §4.3).", describe(meta))
    return fig


def draw_atlas(records, meta: dict) -> dict:
    """The figures of the views, by file stem (:func:`atlas_views`, :func:`draw_view`)."""
    return {name: draw_view(name, records, meta) for name in atlas_views(records)}


def _number(value, digits: int = 3) -> str:
    return "" if value is None else f"{value:.{digits}g}"


def _reason(text: str) -> str:
    """A reason with its numbers (and the class of a one-vs-rest run) replaced by ``#``."""
    if text.startswith("class "):
        text = text.split(": ", 1)[-1]
    return re.sub(r"-?\d+(\.\d+)?(e[-+]?\d+)?", "#", text)


def atlas_markdown(records, meta: dict) -> str:
    """The atlas's report: data sets, tightest ratios, every bound, the reasons, violations."""
    combos = list(dict.fromkeys((row["kernel"], row["epochs"]) for row in records))
    sets = list(dict.fromkeys((row["dataset"], row["task"], row["n_samples"],
                               row["n_features"]) for row in records))
    algorithms = list(dict.fromkeys(run_label(row) for row in records))
    violated = [row for row in records if row["holds"] is False]
    drawn = [row for row in records if row["holds"] and row["expectation"]
             and row["mistakes"] > row["value"] * (1.0 + HOLDS_RTOL)]
    lines = ["# Bound atlas", ""]
    if meta.get("quick"):
        lines += ["**Quick run** (reduced sizes): the numbers are a smoke test, not the atlas.",
                  ""]
    lines += [f"{len(records)} rows: {len(algorithms)} algorithms, {len(sets)} tasks of "
              f"{len({s[0] for s in sets})} data sets, kernels and passes "
              + ", ".join(f"{k} x {e}" for k, e in combos) + f". {describe(meta)}.", ""]
    if meta.get("skipped"):
        lines += ["Left out, not in the data home: "
                  + ", ".join(line.split(":")[0] for line in meta["skipped"]) + ".", ""]
    lines += [TABLES_MARK, "", "## Data sets", "", markdown_table(
        ["data set", "task", "samples", "features", "what"],
        [[d, t, n, f, CATALOG[d].description if d in CATALOG else "data file"]
         for d, t, n, f in sets]), ""]
    lines += [f"## Violated bounds: {len(violated)}", ""]
    lines += [markdown_table(["data set", "task", "algorithm", "kernel", "epochs", "bound",
                              "variant", "mistakes", "value"],
                             [[r["dataset"], r["task"], run_label(r), r["kernel"],
                               r["epochs"], r["bound"], r["variant"], r["mistakes"],
                               _number(r["value"], 6)] for r in violated])
              if violated else "None: every bound that applies holds.", ""]
    if drawn:
        lines += [f"{len(drawn)} rows of bounds in expectation over a randomized algorithm's "
                  "draws have a mean over the draws above the bound by at most "
                  f"{EXPECTATION_SIGMAS:g} standard errors: within sampling error, not a "
                  "violation.", ""]
    for kernel, epochs in combos:
        rows = [r for r in records if r["kernel"] == kernel and r["epochs"] == epochs]
        best = {(run_label(r), r["dataset"], r["task"]): r for r in tightest(rows)}
        columns = [s for s in sets if any((a, s[0], s[1]) in best for a in algorithms)]
        lines += [f"## Tightest ratio mistakes / bound: kernel {kernel}, {epochs} pass(es)",
                  "", "Each cell: the largest ratio over the bounds that apply, and that "
                  "bound (s: stated, t: tightened); - when none applies.", ""]
        table = []
        for a in algorithms:
            cells = []
            for d, t, _, _ in columns:
                r = best.get((a, d, t))
                cells.append("" if r is None else "-" if r["value"] is None else
                             f"{r['ratio']:.3f} {r['bound']} ({r['variant'][0]})")
            table.append([a, *cells])
        lines += [markdown_table(["algorithm", *(f"{d} {t}" for d, t, _, _ in columns)], table),
                  ""]
    reasons = Counter((run_label(r), r["bound"], _reason(r["reason"])) for r in records
                      if r["value"] is None)
    lines += ["## Bounds that do not apply", "", "Each reason once per algorithm and bound "
              "(# stands for the numbers, which differ from row to row; the CSV has them).",
              "", markdown_table(
        ["algorithm", "bound", "rows", "reason"],
        [[a, b, n, reason] for (a, b, reason), n in sorted(reasons.items(),
                                                           key=lambda item: item[0][:2])]), ""]
    lines += ["## Every bound", "", markdown_table(
        ["data set", "task", "algorithm", "kernel", "epochs", "mistakes", "bound", "variant",
         "value", "ratio", "gamma", "comparator", "s"],
        [[r["dataset"], r["task"], run_label(r), r["kernel"], r["epochs"], r["mistakes"],
          r["bound"], r["variant"], _number(r["value"], 5), _number(r["ratio"]),
          _number(r["gamma"]), r["comparator"] or "", _number(r["seconds"], 2)]
         for r in records if r["value"] is not None])]
    return "\n".join(lines)


def save_atlas(records, out, meta: dict, *, csv: bool = True,
               n_jobs: int | None = None) -> list[str]:
    """Write ``out/atlas.csv`` (unless ``csv`` is False), ``atlas.md`` and the views' PNG
    (150 dpi) and PDF; return the paths. A quick atlas (``meta["quick"]``) has PNGs of 100
    dpi only: drawing is most of its time, and a PDF takes as long as a PNG.

    The views are drawn and written by ``n_jobs`` joblib workers (as for the cells: None
    takes ``joblib.parallel_config``'s count, 1 when none is set), the longest first; each
    view is a figure of its own, so the files are the same whatever ``n_jobs``."""
    from joblib import Parallel, delayed

    if not records:
        raise ValueError("the atlas has no rows: no algorithm ran on any data set")
    n_jobs = check_n_jobs(n_jobs)
    os.makedirs(out, exist_ok=True)
    base = os.fspath(out)
    paths = [write_atlas_csv(records, os.path.join(base, "atlas.csv"))] if csv else []
    paths.append(save_markdown(atlas_markdown(records, meta), os.path.join(base, "atlas.md")))
    names = atlas_views(records)
    longest = sorted(names, key=lambda name: -_DRAWING_COST.get(name, 0))
    with workers_replaced_quietly():
        written = dict(zip(longest, Parallel(n_jobs=n_jobs)(
            delayed(_save_view)(name, records, meta, base) for name in longest), strict=True))
    return paths + [path for name in names for path in written[name]]


#: The views' relative drawing times (a quick atlas's, CPU): the order they are handed to
#: the workers, so that the longest does not start last.
_DRAWING_COST = {"atlas-ratios": 7, "atlas-drift": 3, "atlas-noise": 3, "atlas": 1,
                 "atlas-winners": 1}


def _save_view(name: str, records, meta: dict, base: str) -> list[str]:
    """Draw the view ``name`` and write its PNG (and PDF unless quick); the paths."""
    fig = draw_view(name, records, meta)
    formats = (((".png", {"dpi": 100}),) if meta.get("quick") else
               ((".png", {"dpi": 150}), (".pdf", {})))
    paths = []
    for suffix, options in formats:
        path = os.path.join(base, name + suffix)
        with replacing(path) as temp:
            fig.savefig(temp, **options)
        paths.append(path)
    return paths
