"""Ballseptron mistakes and margin errors against the radius r (paper 004, Fig. 3 top)."""

from __future__ import annotations

from .._validation import check_int
from ..online import run_online
from ._cells import AlgorithmSpec, as_specs, as_xy, check_levels, check_seeds, plain, run_cells


def radius_curve(
    radii,
    data,
    *,
    epochs: int = 1,
    seeds=None,
    n_jobs: int | None = None,
    progress: bool = False,
    multiclass: str | None = None,
    **params,
) -> list[dict]:
    """Ballseptron prediction mistakes/T and margin errors/T for each radius r.

    Parameters
    ----------
    radii : sequence of float
        Radii r >= 0 (r = 0 is the Perceptron).
    data : Dataset or (X, y) tuple
        The sequence to learn; two labels, or more (see ``multiclass``).
    epochs : int, default=1
        Passes over the data.
    seeds : sequence of int or None, default=None
        None presents the rows in the order given; each seed s gives a run
        with ``shuffle=True, seed=s`` (a fresh permutation per epoch).
    n_jobs : int or None, default=None
        joblib workers over the (r, seed) cells; None uses the count set by
        ``joblib.parallel_config`` (1 when unset). The table does not depend on it.
    progress : bool, default=False
        Show a tqdm progress bar over the cells.
    multiclass : {None, "ovr", "native"}, default=None
        Passed to ``run_online``: multiclass data (theory §2.6) make a one-vs-rest
        run by default; ``"native"`` is the multiclass Ballseptron of paper 004
        sec. 4, whose prediction mistakes and margin errors Fig. 3 plots.
    **params
        Other Ballseptron parameters (``kernel``, ``degree``, ``gamma``,
        ``coef0``, ``form``), the same for every radius.

    Returns
    -------
    list of dict
        One record per (r, seed): ``experiment``, ``r``, ``seed``, ``params``
        (as resolved), ``multiclass`` (the run's), ``n_trials`` (T), ``mistakes``
        (multiclass mistakes for a multiclass run), ``margin_errors`` (summed
        over the class runs for one-vs-rest),
        ``mistake_rate`` (mistakes/T) and ``margin_error_rate`` (margin errors/T).

    Notes
    -----
    Paper 004, sec. 5, Fig. 3 top plots epsilon/T, the prediction mistakes
    over the number of online rounds, against r for the multiclass Ballseptron
    on MNIST and USPS (polynomial kernel of degree 5, bias 1/2). The
    Ballseptron (paper 004, Fig. 2) updates on a mistake, y w.x <= 0, and on
    a margin error, y w.x / ||w|| <= r, with x_hat = x - y r w/||w||.

    Examples
    --------
    >>> from perceptron_bounds.datasets import make_separable
    >>> data = make_separable(300, 5, margin=0.02, label_noise=0.05, seed=0)
    >>> table = radius_curve([0.0, 0.1], data)
    >>> [(row["r"], row["margin_errors"] > 0) for row in table]
    [(0.0, False), (0.1, True)]
    """
    radii = check_levels("radii", radii)
    X, y = as_xy(data, "data", multiclass=True)
    if "r" in params:
        raise TypeError("pass the radii through radii, not r")
    as_specs([AlgorithmSpec("Ballseptron", "ballseptron", params)])  # unknown names, up front
    epochs = check_int("epochs", epochs, low=1)
    cells = [
        {"X": X, "y": y, "r": r, "seed": seed, "epochs": epochs, "multiclass": multiclass,
         "params": params}
        for r in radii
        for seed in check_seeds(seeds)
    ]
    return run_cells(_radius_cell, cells, n_jobs=n_jobs, progress=progress, desc="radius_curve")


def _radius_cell(X, y, r, seed, epochs, multiclass, params) -> list[dict]:
    run = run_online("ballseptron", X, y, epochs=epochs, shuffle=seed is not None, seed=seed,
                     r=r, multiclass=multiclass, **params)
    runs = run.class_runs if run.class_runs is not None else (run,)
    margin_errors = sum(part.margin_errors for part in runs)
    return [
        {
            "experiment": "radius_curve",
            "r": r,
            "seed": seed,
            "params": plain(run.params),
            "multiclass": run.multiclass,
            "n_trials": run.n_trials,
            "mistakes": run.mistakes,
            "margin_errors": margin_errors,
            "mistake_rate": run.mistakes / run.n_trials,
            "margin_error_rate": margin_errors / run.n_trials,
        }
    ]
