"""The named data sets of the bound atlas: the papers' synthetic families, scikit-learn's
bundled sets, the real sets of the data home, and any data file.

Each name gives one or more *tasks* (:class:`Task`): a binary problem (labels -1/+1) or
a multiclass one (labels 0..K-1, run one-vs-rest, theory §2.6), with the rows scaled to
unit Euclidean norm (R = 1, theory §4.1) so that every bound, and a kernel's parameters,
mean the same on every set. Tabular sets (breast cancer, wine, iris) are standardised
first (each feature to mean 0 and variance 1), image sets are not (their pixels share a
scale). A synthetic set keeps its generating target u: scaling a row by a positive number
keeps the side of u it lies on.

:func:`atlas_tasks` resolves names (or group names: ``synthetic``, ``scikit-learn``,
``real``) and file paths before anything runs; an unknown name is a one-line error with
the closest known one suggested.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .._validation import check_bool, did_you_mean
from .loaders import load_data
from .preprocessing import normalize_rows
from .real import load_fashion_mnist, load_mnist, load_rcv1_tasks, load_usps
from .synthetic import (
    Dataset,
    make_dominant_eigen,
    make_drifting,
    make_hop_artificial,
    make_separable,
    make_unit_circle,
)

#: Rows of the synthetic sets (quick: ``QUICK_ROWS``); the real training sets are
#: subsampled to ``QUICK_ROWS`` in quick mode only (RCV1 to four times that).
SYNTHETIC_ROWS = 2000
QUICK_ROWS = 300
#: Rows of the image sets' binary kernel tasks and of their 10-class tasks (seeded
#: subsamples of the training set): a kernel form's trial costs a kernel row against its
#: supports, and a 10-class run is ten binary runs, so on all 60,000 rows these cells alone
#: would take hours (``benchmarks/run_atlas.py`` times the full atlas).
KERNEL_ROWS = 2000
MULTICLASS_ROWS = 1000
#: The label-noise levels eta of the ``label-noise`` family (one task each).
NOISE_LEVELS = (0.0, 0.05, 0.1, 0.2, 0.3)
#: The numbers of abrupt shifts of the ``drifting`` family (one task each; quick: three).
SHIFT_COUNTS = (0, 1, 3, 10, 30)
SHIFT_COUNTS_QUICK = (0, 3, 30)


@dataclass(frozen=True)
class Task:
    """One problem of the atlas.

    Attributes
    ----------
    dataset : str
        The data set's name (``"digits"``) or a file's base name.
    task : str
        Which problem of it (``"9-vs-rest"``, ``"10-class"``, ``"eta=0.1"``).
    data : Dataset or DriftingDataset
        ``(X, y, u)``: rows of unit norm; y -1/+1 (binary) or the labels of a multiclass
        task; u the generating target of a synthetic set (None otherwise), for drifting
        data the sequence U, one target per row (theory §4.14).
    kernels : tuple of str or None, default=None
        The atlas kernels the task runs under (None: every one asked for).
    """

    dataset: str
    task: str
    data: Dataset
    kernels: tuple | None = None


@dataclass(frozen=True)
class Entry:
    """A named data set: its group, one line on it, and how its tasks are made.

    ``tasks(quick, data_home, download)`` returns the list of ``(task, Dataset)`` or
    ``(task, Dataset, kernels)`` (the kernels the task runs under, :attr:`Task.kernels`).
    """

    name: str
    group: str
    description: str
    tasks: Callable


def _unit(X, y, u=None) -> Dataset:
    """Rows scaled to unit Euclidean norm (dense or CSR), labels as an array."""
    return Dataset(normalize_rows(X), np.asarray(y), u)


def _standardised(X) -> np.ndarray:
    """Each feature to mean 0 and variance 1 (a constant feature to 0)."""
    X = np.asarray(X, dtype=np.float64)
    scale = X.std(axis=0)
    return (X - X.mean(axis=0)) / np.where(scale > 0, scale, 1.0)


def _rows(quick: bool) -> int:
    return QUICK_ROWS if quick else SYNTHETIC_ROWS


def _one_against_rest(X, y, positive, name: str, classes: int, multiclass: bool = True):
    """The tasks "``name``-vs-rest" (+1 against -1) and, with ``multiclass``, "K-class"."""
    tasks = [(f"{name}-vs-rest", _unit(X, np.where(y == positive, 1, -1)))]
    if multiclass:
        tasks.append((f"{classes}-class", _unit(X, y)))
    return tasks


def subsample(X, y, n: int | None, seed: int = 0):
    """``n`` rows of (X, y) drawn without replacement by ``default_rng(seed)``, in their
    original order; all of them when ``n`` is None or at least their number."""
    if n is None or n >= X.shape[0]:
        return X, y
    rows = np.sort(np.random.default_rng(seed).choice(X.shape[0], n, replace=False))
    return X[rows], y[rows]


def _sklearn(loader: str, positive, name: str, tabular: bool, quick_multiclass: bool = True):
    """The binary task and, with more than two classes, the multiclass one (not in quick
    mode unless ``quick_multiclass``: iris and wine keep the quick atlas's one-vs-rest runs,
    digits' ten classes would be a third of its time)."""
    def tasks(quick, data_home, download):
        import sklearn.datasets

        X, y = getattr(sklearn.datasets, loader)(return_X_y=True)
        X, y = subsample(X, y, QUICK_ROWS if quick else None)
        X = _standardised(X) if tabular else np.asarray(X, dtype=np.float64)
        classes = np.unique(y).size
        multiclass = classes > 2 and (quick_multiclass or not quick)
        return _one_against_rest(X, y, positive, name, classes, multiclass=multiclass)
    return tasks


def _image_set(loader, positive: int, name: str):
    """Quick: the binary task on ``QUICK_ROWS`` rows. Full: the binary task on the whole
    training set, linear only, and on ``KERNEL_ROWS`` rows under the other kernels; the
    10-class task on ``MULTICLASS_ROWS`` rows under every kernel."""
    def tasks(quick, data_home, download):
        train = loader(data_home, download=download).train
        if quick:
            X, y = subsample(train.X, train.y, QUICK_ROWS)
            return _one_against_rest(X, y, positive, name, 10, multiclass=False)
        (binary, full), = _one_against_rest(train.X, train.y, positive, name, 10, False)
        X, y = subsample(train.X, train.y, KERNEL_ROWS)
        (_, small), = _one_against_rest(X, y, positive, name, 10, multiclass=False)
        X, y = subsample(train.X, train.y, MULTICLASS_ROWS)
        classes, multi = _one_against_rest(X, y, positive, name, 10)[1]
        others = ("poly", "rbf")
        return [(binary, full, ("linear",)), (binary, small, others),
                (classes, multi, ("linear", *others))]
    return tasks


def _rcv1(quick, data_home, download):
    out = []
    for data in load_rcv1_tasks(data_home, download=download).values():
        X, y = subsample(data.train.X, data.train.y, QUICK_ROWS * 4 if quick else None)
        out.append((f"{data.target_names[1]}-vs-rest", _unit(X, y)))
    return out


def _separable(quick, data_home, download):
    return [("margin=0.05", _unit(*make_separable(_rows(quick), 100, margin=0.05, seed=0)))]


def _label_noise(quick, data_home, download):
    return [(f"eta={eta:g}", _unit(*make_separable(_rows(quick), 20, margin=0.1,
                                                   label_noise=eta, seed=0)))
            for eta in NOISE_LEVELS]


def _drifting(quick, data_home, download):
    """Linear only: the shifting bounds compare with targets in the input space."""
    return [(f"shifts={shifts}", make_drifting(_rows(quick), 10, n_shifts=shifts, margin=0.2,
                                                seed=0), ("linear",))
            for shifts in (SHIFT_COUNTS_QUICK if quick else SHIFT_COUNTS)]


def _circle(quick, data_home, download):
    return [("margin=0.15", _unit(*make_unit_circle(_rows(quick), margin=0.15, seed=0)))]


def _instance_noise(quick, data_home, download):
    return [("sigma=0.1", _unit(*make_unit_circle(_rows(quick), margin=0.15,
                                                  instance_noise=0.1, seed=0)))]


def _hop_sparse(quick, data_home, download):
    train = make_hop_artificial(0.1, n_train=_rows(quick) // 2, n_test=1, seed=0).train
    return [("eta=0.1", _unit(*train))]


def _sop_toy(quick, data_home, download):
    return [("ratio=8", _unit(*make_dominant_eigen(_rows(quick), 20, 8.0, seed=0,
                                                   margin=0.25)))]


#: Every named data set, by group: the papers' synthetic families, scikit-learn's
#: bundled sets, the real sets of the data home.
CATALOG = {entry.name: entry for entry in (
    Entry("separable", "synthetic", "make_separable: 100 features, margin 0.05 (the "
          "label-noise family at eta = 0 has 20 features, margin 0.1)",
          _separable),
    Entry("label-noise", "synthetic", "make_separable with labels flipped with probability "
          "eta = " + ", ".join(f"{eta:g}" for eta in NOISE_LEVELS), _label_noise),
    Entry("drifting", "synthetic", "make_drifting: 10 features, margin 0.2, abrupt switches "
          "of the target, " + ", ".join(map(str, SHIFT_COUNTS)) + " of them (quick: "
          + ", ".join(map(str, SHIFT_COUNTS_QUICK)) + "); u the target sequence (theory "
          "§4.14)", _drifting),
    Entry("circle", "synthetic", "make_unit_circle: the Ballseptron's circle, margin 0.15 "
          "(paper 004 sec. 5)", _circle),
    Entry("instance-noise", "synthetic", "the Ballseptron's circle with N(0, 0.1^2 I) noise "
          "on the instances (paper 004 sec. 5)", _instance_noise),
    Entry("hop-sparse", "synthetic", "make_hop_artificial: 500 features, 50 relevant, label "
          "noise 0.1 (paper 000 sec. 4, Artificial 0.1)", _hop_sparse),
    Entry("sop-toy", "synthetic", "make_dominant_eigen: one correlation eigenvalue 8 times "
          "the others, 20 features (paper 003 sec. 5)", _sop_toy),
    Entry("breast-cancer", "scikit-learn", "Wisconsin breast cancer, 569 x 30, standardised",
          _sklearn("load_breast_cancer", 0, "malignant", tabular=True)),
    Entry("digits", "scikit-learn", "handwritten digits, 1797 x 64 pixels",
          _sklearn("load_digits", 9, "9", tabular=False, quick_multiclass=False)),
    Entry("wine", "scikit-learn", "wine cultivars, 178 x 13, standardised",
          _sklearn("load_wine", 0, "class_0", tabular=True)),
    Entry("iris", "scikit-learn", "iris, 150 x 4, standardised",
          _sklearn("load_iris", 0, "setosa", tabular=True)),
    Entry("mnist", "real", "MNIST training set, raw pixels (data home)",
          _image_set(load_mnist, 9, "9")),
    Entry("fashion-mnist", "real", "Fashion-MNIST training set, raw pixels (data home)",
          _image_set(load_fashion_mnist, 6, "shirt")),
    Entry("usps", "real", "USPS training set (data home)", _image_set(load_usps, 9, "9")),
    Entry("rcv1", "real", "RCV1's first 10,000 stories, paper 000's four tasks (data home)",
          _rcv1),
)}
#: The group names :func:`atlas_tasks` takes for all of a group's sets.
GROUPS = tuple(dict.fromkeys(entry.group for entry in CATALOG.values()))


def is_file_name(name: str) -> bool:
    """Whether ``name`` is read as a file: it has an extension or exists."""
    return bool(os.path.splitext(name)[1]) or os.path.exists(name)


def check_data_names(names) -> list[str]:
    """``names`` (a list of data set names, group names and file paths) with each group
    expanded, checked before anything loads.

    Raises
    ------
    ValueError
        One line for a name that is neither a data set, a group nor a file, suggesting the
        closest known name; for a file name that does not exist.
    """
    if isinstance(names, str):
        names = [names]
    out = []
    known = [*CATALOG, *GROUPS]
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"data must be names or file paths, got {name!r}")
        if name in GROUPS:
            out.extend(entry.name for entry in CATALOG.values() if entry.group == name)
        elif name in CATALOG:
            out.append(name)
        elif is_file_name(name):
            if not os.path.isfile(name):
                raise ValueError(f"data: no such file {name!r}")
            out.append(name)
        else:
            raise ValueError(f"data: unknown data set {name!r}{did_you_mean(name, known)} "
                             f"(choose from {', '.join(known)}, or a data file)")
    if not out:
        raise ValueError("data is empty: name at least one data set")
    return list(dict.fromkeys(out))


def atlas_tasks(names=None, *, quick: bool = False, data_home=None,
                download: bool = False) -> tuple[list[Task], list[str]]:
    """The tasks of the named data sets, loaded.

    Parameters
    ----------
    names : list of str or None, default=None
        Data set names (:data:`CATALOG`), group names (:data:`GROUPS`) and data files
        (svmlight, ``.npz``, ``.csv``, as :func:`~perceptron_bounds.datasets.load_data`
        reads them; a file with more than two labels is one multiclass task). None: every
        synthetic and scikit-learn set, and the real sets the data home holds.
    quick : bool, default=False
        Reduced sizes (:data:`QUICK_ROWS` rows; RCV1 four times that).
    data_home, download
        Where the real sets are (:func:`~perceptron_bounds.datasets.get_data_home`), and
        whether a missing one is fetched.

    Returns
    -------
    tasks : list of Task
    skipped : list of str
        Under ``names=None``, one line per real set left out because the data home lacks it.

    Examples
    --------
    >>> tasks, _ = atlas_tasks(["iris"], quick=True)
    >>> [(t.dataset, t.task, t.data.X.shape) for t in tasks]
    [('iris', 'setosa-vs-rest', (150, 4)), ('iris', '3-class', (150, 4))]
    """
    quick = check_bool("quick", quick)
    download = check_bool("download", download)
    default = names is None
    names = [name for name in CATALOG] if default else check_data_names(names)
    tasks, skipped = [], []
    for name in names:
        entry = CATALOG.get(name)
        if entry is None:
            tasks.append(_file_task(name))
            continue
        try:
            made = entry.tasks(quick, data_home, download)
        except FileNotFoundError as error:
            if not default:
                raise
            skipped.append(f"{name}: {str(error).splitlines()[0]}")
            continue
        tasks.extend(Task(name, *task) for task in made)
    return tasks, skipped


def _file_task(path: str) -> Task:
    X, y, u = load_data(path)
    classes = np.unique(y).size
    task = "binary" if classes == 2 else f"{classes}-class"
    if classes == 2:
        y = np.where(y == np.unique(y)[1], 1, -1)
    return Task(os.path.basename(path), task, _unit(X, y, u if classes == 2 else None))
