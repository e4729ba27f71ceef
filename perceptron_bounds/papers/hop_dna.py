"""Paper 000 (Brotto, Gentile, Vitale), Table 1: the DNA microarray tasks, on the user's files.

``hop-dna``: FO, HO2, HO4, HO7(0), HO7, HO10 and SO cycled 5 times over random
training sets of the Breast (Gruvberger et al. 2001: 58 profiles, splits 47/11)
and Lymphoma (Alizadeh et al. 2000: 96 profiles, splits 60/36) expression
matrices, which the user provides (they are not downloadable from here); the
training updates and test error averaged over the splits, the best setting of
each algorithm beside the paper's.
"""

from __future__ import annotations

import os

import numpy as np
import scipy.sparse as sp

from .._validation import check_bool
from .._version import __version__
from ..datasets import load_data, normalize_rows
from ..experiments import AlgorithmSpec
from ..experiments._cache import data_key, run_cached_cells
from ..experiments._cells import as_xy, check_n_jobs, plain
from ..online import run_online
from ..plots import plot_corrections
from ..plots.style import add_caption
from .common import (
    Reproduction,
    check_names,
    markdown_table,
    percent,
    provenance,
    provenance_line,
    seed_range,
    size_line,
)

#: Paper 000 sec. 4: c of rho_k = c/k over 0.2, 0.4, 0.6, 0.8 for every HO_p(c) with c > 0.
DNA_C = (0.2, 0.4, 0.6, 0.8)

#: SO's a: the paper tried "a generous range of values" it does not list; decades and
#: Figure 2's 0.2.
DNA_A = (0.01, 0.1, 0.2, 1.0, 10.0, 100.0)

#: Paper 002 Table 1's columns: (algorithm, fixed parameters, the grid of the free ones).
#: HO7(0) = the p-norm Perceptron with p = 7; FO = HO2(0).
DNA_ALGORITHMS = {
    "FO": ("perceptron", {}, {}),
    "HO2": ("higher_order", {"p": 2.0}, {"c": DNA_C}),
    "HO4": ("higher_order", {"p": 4.0}, {"c": DNA_C}),
    "HO7(0)": ("pnorm", {"p": 7.0}, {}),
    "HO7": ("higher_order", {"p": 7.0}, {"c": DNA_C}),
    "HO10": ("higher_order", {"p": 10.0}, {"c": DNA_C}),
    "SO": ("second_order", {}, {"a": DNA_A}),
}

#: The two data sets by their number of profiles: (name, training-set size), paper 000 sec. 4.
DNA_SETS = {58: ("Breast", 47), 96: ("Lymphoma", 60)}

#: Passes over each training set (paper 000 sec. 4: "cycling 5 times").
DNA_EPOCHS = 5

#: Random splits per data set (the paper: 1000), and in quick mode.
DNA_SPLITS = 1000

DNA_QUICK = {"n_splits": 10}

#: Splits per cell of the sweep: the unit that ``cache`` keeps and a worker runs.
DNA_BLOCK = 100

#: Paper 002, Table 1: (training updates over 5 epochs, test error), averages over the splits.
DNA_PAPER = {
    "Breast": {"FO": (45.2, 0.234), "HO2": (21.7, 0.164), "HO4": (24.5, 0.133),
               "HO7(0)": (47.4, 0.157), "HO7": (24.5, 0.120), "HO10": (32.4, 0.135),
               "SO": (29.6, 0.150)},
    "Lymphoma": {"FO": (22.1, 0.118), "HO2": (19.6, 0.100), "HO4": (18.9, 0.100),
                 "HO7(0)": (23.0, 0.115), "HO7": (20.0, 0.115), "HO10": (23.1, 0.119),
                 "SO": (19.3, 0.096)},
}


def read_expression(path, *, label_column=None, delimiter=None):
    """The expression matrix of ``path``: ``(name, X, y)``, rows of unit Euclidean norm.

    Parameters
    ----------
    path : str or os.PathLike
        A CSV file (commas, semicolons, tabs or spaces; one row per profile, one column
        per gene and a label column) or an svmlight file, read by
        :func:`~perceptron_bounds.datasets.load_data`.
    label_column : {"first", "last"} or int, optional
        CSV: the label column (default the last).
    delimiter : str, optional
        CSV: the separator (default detected).

    Returns
    -------
    name : str
        ``"Breast"`` (58 rows) or ``"Lymphoma"`` (96 rows), :data:`DNA_SETS`.
    X : ndarray of shape (n_profiles, n_genes)
        The profiles scaled to unit norm (paper 000 sec. 1, ||x_t|| = 1); the p-norm
        algorithms rescale them in their p-norm themselves.
    y : ndarray
        The labels, -1/+1.

    Raises
    ------
    ValueError
        When the file has neither 58 nor 96 rows: the paper's split sizes are stated
        for those two data sets only.
    """
    data = load_data(path, label_column=label_column, delimiter=delimiter)
    X, y = as_xy((data.X, data.y), os.fspath(path))
    if X.shape[0] not in DNA_SETS:
        known = "; ".join(f"{name}: {n} profiles, {train}/{n - train} splits"
                          for n, (name, train) in DNA_SETS.items())
        raise ValueError(f"{os.fspath(path)} has {X.shape[0]} rows; paper 000's Table 1 "
                         f"states its splits for {known}")
    X = X.toarray() if sp.issparse(X) else X
    return DNA_SETS[X.shape[0]][0], normalize_rows(X), y


def _dna_cell(X, y, data_key, n_train, spec, seeds, version) -> list[dict]:
    """The runs of ``spec`` on the splits ``seeds``: split s trains on the first
    ``n_train`` rows of ``default_rng(s).permutation(n)`` (a random training set in
    random order) for 5 epochs and tests on the others."""
    records = []
    for seed in seeds:
        order = np.random.default_rng(seed).permutation(X.shape[0])
        train, test = order[:n_train], order[n_train:]
        run = run_online(spec.algorithm, X[train], y[train], epochs=DNA_EPOCHS, **spec.params)
        records.append({"label": spec.label, "algorithm": spec.algorithm,
                        "params": plain(spec.params), "seed": seed, "updates": run.mistakes,
                        "test_error": float(np.mean(run.predict(X[test]) != y[test]))})
    return records


def dna_specs(algorithm: str) -> list[AlgorithmSpec]:
    """The spec of every point of ``algorithm``'s grid (:data:`DNA_ALGORITHMS`)."""
    name, fixed, grid = DNA_ALGORITHMS[algorithm]
    points = [{}]
    for key, values in grid.items():
        points = [{**point, key: value} for point in points for value in values]
    return [AlgorithmSpec(f"{algorithm}({', '.join(f'{k}={v:g}' for k, v in point.items())})"
                          if point else algorithm, name, {**fixed, **point})
            for point in points]


def hop_dna_records(files, *, algorithms=tuple(DNA_ALGORITHMS), label_column=None,
                    delimiter=None, seeds=None, quick=False, n_jobs=None, progress=False,
                    cache=None) -> list[dict]:
    """Paper 002 Table 1: training updates and test error on the DNA microarray data.

    Each file (:func:`read_expression`: 58 rows are Breast, 96 Lymphoma) is split
    ``seeds`` times (default 1000, as the paper; quick: 10) at random into the paper's
    training and test sizes (47/11, 60/36); every algorithm of :data:`DNA_ALGORITHMS`
    at every point of its grid cycles 5 times over each training set, no kernel.

    Parameters
    ----------
    files : sequence of str or os.PathLike
        The expression matrices, at most one per data set.
    algorithms : sequence of str, default=all
        Among the keys of :data:`DNA_ALGORITHMS`.
    label_column, delimiter
        CSV options of :func:`read_expression`.
    seeds : int or None, default=None
        The number of random splits; split s is ``default_rng(s)``'s permutation.
    quick : bool, default=False
        10 splits, for a smoke test.
    n_jobs, progress, cache
        joblib workers over the cells (a grid point and 100 splits), a progress bar,
        and the folder keeping finished cells (a killed run resumes).

    Returns
    -------
    list of dict
        One record per (data set, algorithm, grid point): provenance, ``data``,
        ``file``, ``n_profiles``, ``n_genes``, ``n_train``, ``n_test``, ``label``,
        ``algorithm_name``, ``algorithm``, ``params``, ``corrections`` (training updates
        summed over the 5 epochs; the paper's "Train"), ``test_error`` and their
        standard deviations over the splits, ``best`` (the point of smallest mean test
        error of its algorithm, fewer updates breaking ties: the paper shows "only the
        best setting", its best training and best test settings coinciding), and the
        paper's ``paper_corrections`` and ``paper_test_error``.
    """
    check_n_jobs(n_jobs)
    quick = check_bool("quick", quick)
    algorithms = check_names("algorithms", algorithms, DNA_ALGORITHMS)
    if isinstance(files, (str, os.PathLike)):
        files = [files]
    seed_list = list(seed_range(seeds, DNA_QUICK["n_splits"] if quick else DNA_SPLITS))
    sets = [(os.fspath(path), *read_expression(path, label_column=label_column,
                                               delimiter=delimiter)) for path in files]
    names = [name for _, name, _, _ in sets]
    if not sets or len(set(names)) != len(names):
        raise ValueError(f"files must hold one matrix per data set (Breast, Lymphoma), got "
                         f"{', '.join(names) or 'none'}")
    cells, where = [], []
    for path, name, X, y in sets:
        n_train = DNA_SETS[X.shape[0]][1]
        meta = provenance("hop-dna", quick=quick, n_seeds=len(seed_list), data=name,
                          file=os.path.basename(path), n_profiles=X.shape[0],
                          n_genes=X.shape[1], n_train=n_train, n_test=X.shape[0] - n_train)
        key = data_key(X, y)
        for algorithm in algorithms:
            for spec in dna_specs(algorithm):
                where.append((meta, algorithm, spec.label))
                cells += [{"X": X, "y": y, "data_key": key, "n_train": n_train, "spec": spec,
                           "seeds": seed_list[start:start + DNA_BLOCK], "version": __version__}
                          for start in range(0, len(seed_list), DNA_BLOCK)]
    rows = run_cached_cells(_dna_cell, cells, cache=cache, n_jobs=n_jobs, progress=progress,
                            desc="hop-dna")
    records = []
    for i, (meta, algorithm, label) in enumerate(where):
        part = rows[i * len(seed_list):(i + 1) * len(seed_list)]  # the cells' rows, in order
        updates = np.array([row["updates"] for row in part], dtype=np.float64)
        errors = np.array([row["test_error"] for row in part])
        paper = DNA_PAPER[meta["data"]][algorithm]
        records.append({**meta, "label": label, "algorithm_name": algorithm,
                        "algorithm": part[0]["algorithm"], "params": part[0]["params"],
                        "corrections": float(updates.mean()), "corrections_std":
                        float(updates.std()), "test_error": float(errors.mean()),
                        "test_error_std": float(errors.std()), "best": False,
                        "paper_corrections": paper[0], "paper_test_error": paper[1]})
    for meta, algorithm, _ in where:
        group = [row for row in records
                 if row["data"] == meta["data"] and row["algorithm_name"] == algorithm]
        min(group, key=lambda row: (row["test_error"], row["corrections"]))["best"] = True
    return records


def draw_hop_dna(records, *args, **options):
    """The figure of :func:`hop_dna_records`: each algorithm's best setting, the paper's marked."""
    meta = records[0]
    best = [row for row in records if row["best"]]
    fig = plot_corrections(best, group="data", bar="algorithm_name",
                           paper=None if meta["quick"] else "paper 000, Table 1")
    add_caption(
        fig,
        "Data: " + "; ".join(f"{row['data']} ({row['file']}, {row['n_profiles']} profiles x "
                             f"{row['n_genes']} genes, {row['n_train']}/{row['n_test']} splits)"
                             for row in records if row["label"] == records[0]["label"])
        + f". Rows of unit norm, {DNA_EPOCHS} epochs, no kernel; bars: mean over "
        f"{meta['n_seeds']} random splits of the best setting of each algorithm (smallest "
        "test error); left, training updates summed over the epochs.",
        provenance_line(meta),
    )
    return fig


def dna_markdown(records) -> str:
    """The report of :func:`hop_dna_records`: the best settings beside paper 000's Table 1."""
    meta = records[0]
    data = list(dict.fromkeys(row["data"] for row in records))
    rows = []
    for algorithm in dict.fromkeys(row["algorithm_name"] for row in records):
        line = [algorithm]
        for name in data:
            row = next(r for r in records if r["data"] == name and r["best"]
                       and r["algorithm_name"] == algorithm)
            setting = row["label"][len(algorithm):].strip("()") or "-"
            line += [setting, f"{row['corrections']:.1f} ({row['paper_corrections']:.1f})",
                     f"{percent(row['test_error'])} ({percent(row['paper_test_error'])})"]
        rows.append(line)
    header = ["algorithm"]
    for name in data:
        header += [f"{name}: best setting", f"{name}: train updates (paper)",
                   f"{name}: test error (paper)"]
    sizes = "; ".join(f"{row['data']}: {row['file']}, {row['n_profiles']} x {row['n_genes']}, "
                      f"{row['n_train']}/{row['n_test']}" for row in records
                      if row["label"] == records[0]["label"])
    grids = "; ".join(f"{name} {', '.join(f'{k} in {v}' for k, v in grid.items())}"
                      for name, (_, _, grid) in DNA_ALGORITHMS.items() if grid)
    return "\n".join([
        "# Higher-Order paper, Table 1 (paper 000): DNA microarrays",
        "",
        size_line(meta) + f" {sizes}; {meta['n_seeds']} random splits (the paper: 1000), "
        f"{DNA_EPOCHS} epochs, rows of unit norm.",
        "",
        markdown_table(header, rows),
        "",
        f"Grids: {grids}. The best setting of each algorithm is the one of smallest mean "
        "test error (the paper: \"best training and best test setting coincided\"); every "
        "setting is in the CSV.",
        "",
        f"_{provenance_line(meta)}_",
    ])


#: The declaration; calling it returns ``(records, figure, markdown)``.
hop_dna = Reproduction("hop-dna", "table", "paper 000, Table 1", hop_dna_records, draw_hop_dna,
                       dna_markdown, options=("data", "algorithms", "label_column",
                                                      "delimiter"), real=True,
                       quick=DNA_QUICK, choices={"algorithms": tuple(DNA_ALGORITHMS)})
