"""The Perceptron's D2- and D1-bounds against label and instance noise (paper 004, Fig. 3)."""

from __future__ import annotations

import math

from .._validation import check_choice, check_int, check_real
from ..bounds import evaluate
from ..datasets import make_unit_circle
from ..online import run_online
from ._cells import check_levels, check_seeds, run_cells

LABEL_LEVELS = (0.0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1)
INSTANCE_LEVELS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)


def noise_curve(
    kind: str = "label",
    levels=None,
    *,
    n: int = 10000,
    margin: float = 0.15,
    gamma: float = 0.15,
    seeds=(0,),
    n_jobs: int | None = None,
    progress: bool = False,
) -> list[dict]:
    """Perceptron mistakes/T, D2-bound/T and D1-bound/T at each noise level.

    Parameters
    ----------
    kind : {"label", "instance"}, default="label"
        Flip labels with probability eta, or add ``N(0, sigma^2 I)`` to the instances.
    levels : sequence of float, optional
        The etas (in [0, 1]) or sigmas (>= 0); default ``LABEL_LEVELS``
        (0 to 0.1 by 0.01) or ``INSTANCE_LEVELS`` (0 to 0.5 by 0.05).
    n : int, default=10000
        Number of instances, T (one pass).
    margin : float, default=0.15
        Margin of the clean data (``make_unit_circle``).
    gamma : float, default=0.15
        The bounds' gamma (with u = the generating separator).
    seeds : sequence of int, default=(0,)
        Data seeds; the same seed gives the same clean points at every level.
    n_jobs : int or None, default=None
        joblib workers over the (level, seed) cells; None uses the count set
        by ``joblib.parallel_config`` (1 when unset). The table does not depend on it.
    progress : bool, default=False
        Show a tqdm progress bar over the cells.

    Returns
    -------
    list of dict
        One record per (level, seed): ``experiment``, ``kind``, ``level``,
        ``seed``, ``margin``, ``gamma``, ``n_trials`` (T), ``mistakes``, ``R``,
        ``D1``, ``D2``, ``d2_bound`` and ``d1_bound`` (numbers of mistakes, at
        the given gamma), ``d2_best`` and ``d1_best`` (each bound minimised over
        gamma with the same u) with their ``d2_best_gamma`` and
        ``d1_best_gamma``, and the rates ``mistake_rate``, ``d2_bound_rate``,
        ``d1_bound_rate``, ``d2_best_rate``, ``d1_best_rate`` (divided by T).

    Notes
    -----
    Paper 004, sec. 5: 10,000 instances on the unit circle separable with
    margin 0.15, then label noise eta or instance noise sigma; the Perceptron
    (r = 0) is run and two bounds on its mistakes are computed with the
    generating u and gamma = 0.15, over all T trials:

    * D2-bound, Freund and Schapire (paper 001 Thm 2; paper 004 eq. 3):
      ``((R + D2)/gamma)^2``;
    * D1-bound, paper 004 Thm 2: ``((R + sqrt(gamma D1))/gamma)^2``;

    with R = max_t ||x_t||, l_t = max(0, gamma - y_t u.x_t), D1 = sum l_t,
    D2 = sqrt(sum l_t^2). The paper reports the D2-bound above T (meaningless)
    once eta > 0.03, the D1-bound tighter under label noise and slightly
    tighter under instance noise. The bounds are computed by
    :func:`perceptron_bounds.bounds.evaluate` on the run's own record, once
    at the given gamma and once with gamma searched (theory §4.3).

    Examples
    --------
    >>> table = noise_curve("label", [0.0, 0.05], n=2000)
    >>> [(row["level"], row["d1_bound"] <= row["d2_bound"]) for row in table]
    [(0.0, True), (0.05, True)]
    """
    check_choice("kind", kind, ("label", "instance"))
    if levels is None:
        levels = LABEL_LEVELS if kind == "label" else INSTANCE_LEVELS
    levels = check_levels(
        "eta" if kind == "label" else "sigma", levels, high=1.0 if kind == "label" else None
    )
    n = check_int("n", n, low=1)
    margin = check_real("margin", margin, low=0.0, high=1.0, include_high=False)
    gamma = check_real("gamma", gamma, low=0.0, include_low=False)
    cells = [
        {"kind": kind, "level": level, "seed": seed, "n": n, "margin": margin, "gamma": gamma}
        for level in levels
        for seed in check_seeds(seeds, allow_none=False)
    ]
    return run_cells(_noise_cell, cells, n_jobs=n_jobs, progress=progress, desc="noise_curve")


def _noise_cell(kind, level, seed, n, margin, gamma) -> list[dict]:
    noise = {"label_noise": level} if kind == "label" else {"instance_noise": level}
    X, y, u = make_unit_circle(n, margin, seed=seed, **noise)
    run = run_online("perceptron", X, y)
    fixed = evaluate(run, X, y, u=u, gamma=gamma)
    searched = evaluate(run, X, y, u=u)
    d2, d1 = fixed.row("freund_schapire"), fixed.row("ballseptron_d1")
    d2_best, d1_best = searched.row("freund_schapire"), searched.row("ballseptron_d1")
    T = run.n_trials
    return [
        {
            "experiment": "noise_curve",
            "kind": kind,
            "level": level,
            "seed": seed,
            "margin": margin,
            "gamma": gamma,
            "n_trials": T,
            "mistakes": run.mistakes,
            "R": d2.quantities["R"],
            "D1": d1.quantities["D1"],
            "D2": d2.quantities["D2"],
            "d2_bound": _value(d2),
            "d1_bound": _value(d1),
            "d2_best": _value(d2_best),
            "d1_best": _value(d1_best),
            "d2_best_gamma": d2_best.gamma,
            "d1_best_gamma": d1_best.gamma,
            "mistake_rate": run.mistakes / T,
            "d2_bound_rate": _value(d2) / T,
            "d1_bound_rate": _value(d1) / T,
            "d2_best_rate": _value(d2_best) / T,
            "d1_best_rate": _value(d1_best) / T,
        }
    ]


def _value(row) -> float:
    """The bound's value, NaN when its conditions fail (they hold here: gamma <= R)."""
    return float(row.value) if row.applies else math.nan
