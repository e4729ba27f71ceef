"""Perceptron against the Second-Order Perceptron on the two toy data sets (paper 003, sec. 5)."""

from __future__ import annotations

import numpy as np

from .._sequence import check_seed
from .._validation import check_int, check_real
from ..datasets import make_dominant_eigen
from ..online import run_online
from ._cells import AlgorithmSpec, check_levels, plain, run_cells

TARGETS = ("dominant", "nondominant")


def sop_specs(a_values) -> list[AlgorithmSpec]:
    """FO (the Perceptron) and SO(a) for each a, labelled in the papers' notation."""
    a_values = check_levels("a_values", a_values)
    if min(a_values) <= 0:
        raise ValueError(f"a_values must be > 0, got {min(a_values)!r}")
    return [AlgorithmSpec("FO", "perceptron", {})] + [
        AlgorithmSpec(f"SO({a:g})", "second_order", {"a": a}) for a in a_values
    ]


def sop_toy(
    *,
    a_values=(1.0, 10.0, 50.0),
    n_train: int = 3000,
    n_test: int = 3000,
    n_features: int = 100,
    ratio: float = 8.0,
    margin: float = 0.25,
    n_permutations: int = 20,
    seed: int = 0,
    n_jobs: int | None = None,
    progress: bool = False,
) -> list[dict]:
    """Test mistakes of FO and SO(a) trained one epoch on each toy data set.

    Parameters
    ----------
    a_values : sequence of float, default=(1, 10, 50)
        The Second-Order Perceptron's parameters a > 0.
    n_train, n_test : int, default=3000
        Sizes of the training and test parts of each data set.
    n_features : int, default=100
        Dimension (the paper's "100 attributes").
    ratio : float, default=8.0
        Dominant eigenvalue over the others (see ``make_dominant_eigen``).
    margin : float, default=0.25
        Margin of the generating hyperplane, the same on both data sets.
    n_permutations : int, default=20
        Training-set permutations per algorithm; permutation i presents the
        training rows in the order ``numpy.random.default_rng(i).permutation``.
    seed : int, default=0
        Seed of the two data sets (``make_dominant_eigen(..., seed=seed)``).
    n_jobs : int or None, default=None
        joblib workers over the (data set, algorithm, permutation) cells;
        None uses the count set by ``joblib.parallel_config`` (1 when unset).
    progress : bool, default=False
        Show a tqdm progress bar over the cells.

    Returns
    -------
    list of dict
        One record per cell: ``experiment``, ``target`` ("dominant" or
        "nondominant"), ``label`` ("FO", "SO(a)"), ``algorithm``, ``params``,
        ``data_seed``, ``permutation``, ``n_train``, ``n_test``,
        ``train_mistakes`` (online mistakes over the epoch), ``test_mistakes``
        and ``test_error`` of the final classifier.

    Notes
    -----
    Paper 003, sec. 5 ("simulations on a toy problem"): linearly separable
    Gaussian data in 100 dimensions whose correlation matrix has one dominant
    eigenvalue; data set 1 labelled by the dominant eigenvector, data set 2 by
    a non-dominant one. Radius and margin are the same on both, so the
    Perceptron should behave alike on both, while the Second-Order Perceptron,
    whose bound shrinks with u^T X X^T u, should do clearly better on data set
    2. The table reports the final classifier's test mistakes, mean and
    standard deviation over random permutations of the training set. The
    sizes, ratio and margin are this toolkit's choices; the comparison with
    the paper is with its claims (docs/reproducing.md).
    """
    specs = sop_specs(a_values)
    n_train = check_int("n_train", n_train, low=1)
    n_test = check_int("n_test", n_test, low=1)
    n_permutations = check_int("n_permutations", n_permutations, low=1)
    ratio = check_real("ratio", ratio, low=0.0, include_low=False)
    seed = check_seed(seed)
    cells = []
    for target in TARGETS:
        X, y, _ = make_dominant_eigen(
            n_train + n_test, n_features, ratio, target=target, margin=margin, seed=seed
        )
        train = (np.ascontiguousarray(X[:n_train]), y[:n_train])
        test = (np.ascontiguousarray(X[n_train:]), y[n_train:])
        cells.extend(
            {
                "target": target,
                "spec": spec,
                "train": train,
                "test": test,
                "data_seed": seed,
                "permutation": permutation,
            }
            for spec in specs
            for permutation in range(n_permutations)
        )
    return run_cells(_sop_cell, cells, n_jobs=n_jobs, progress=progress, desc="sop_toy")


def _sop_cell(target, spec: AlgorithmSpec, train, test, data_seed, permutation) -> list[dict]:
    X, y = train
    order = np.random.default_rng(permutation).permutation(X.shape[0])
    run = run_online(spec.algorithm, np.ascontiguousarray(X[order]), y[order], **spec.params)
    wrong = int(np.sum(run.predict(test[0]) != test[1]))
    return [
        {
            "experiment": "sop_toy",
            "target": target,
            "label": spec.label,
            "algorithm": spec.algorithm,
            "params": plain(run.params),
            "data_seed": data_seed,
            "permutation": permutation,
            "n_train": int(X.shape[0]),
            "n_test": int(test[0].shape[0]),
            "train_mistakes": run.mistakes,
            "test_mistakes": wrong,
            "test_error": wrong / test[0].shape[0],
        }
    ]
