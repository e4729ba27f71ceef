"""The Randomized Budget Perceptron of Cavallanti, Cesa-Bianchi & Gentile (theory §2.12).

From f_1 = 0, on a mistake (y_t f_t(x_t) <= 0, theory §1.1) the kernel
Perceptron adds y_t K(x_t, .); with B supports held it first removes one
drawn uniformly: the support of slot floor(B u_t), u_t the trial's uniform
draw from the run's seed (``data.draws``, theory §1.2), whose slot x_t then
takes. So a run never holds more than B supports, replays exactly from its
seed, and with B above its number of mistakes is the kernel Perceptron.

Registered as ``"randomized_budget_perceptron"`` (randomized) with ``budget``
(default 100, >= 1) and the kernel parameters ``kernel`` (default ``"poly"``),
``degree``, ``gamma``, ``coef0`` (theory §1.7); ``form`` is ``"dual"`` only. Every kernel,
dense and CSR data, runs through the kernel engine; ``OnlineRun.state``
records what the budget did (``removed_trials``, ``born``:
:mod:`perceptron_bounds.algorithms._budget`). Its bound holds in expectation
over the draws (theory §4.11).

The paper is not readable here; the rule is the one the paper's title and
abstract describe, cross-checked with the budget option of DOGMA's
``k_perceptron_train.m``.

References
----------
G. Cavallanti, N. Cesa-Bianchi and C. Gentile, "Tracking the best hyperplane
with a simple budget Perceptron", Machine Learning 69 (2007).

Examples
--------
>>> import numpy as np
>>> from perceptron_bounds import run_online
>>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.2], [0.3, -1.0], [0.9, 0.1], [-0.2, 0.8]])
>>> run = run_online("randomized_budget_perceptron", X, [1, -1, -1, 1, -1, 1], budget=2,
...                  kernel="rbf", gamma=1.0, epochs=2, seed=0)
>>> run.mistakes, run.support_vectors.shape[0]
(7, 2)
>>> run.state["removed_trials"].tolist()  # the trial that added each removed support
[-1, -1, 1, 4, 5, 7, 10]
"""

from __future__ import annotations

from ..kernels import KERNEL_DEFAULTS
from ..registry import Algorithm, attach, register
from ._budget import fit_budget, resolve_budget


def _fit(data, order, params, margins, previous):
    return fit_budget(data, order, params, margins, previous, forgetron=False)


RANDOMIZED_BUDGET_PERCEPTRON = register(
    Algorithm(
        name="randomized_budget_perceptron",
        estimator="RandomizedBudgetPerceptron",
        defaults={**KERNEL_DEFAULTS, "kernel": "poly", "form": "dual", "budget": 100},
        resolve=resolve_budget,
        fit=_fit,
        summary="Cavallanti, Cesa-Bianchi & Gentile's Randomized Budget Perceptron (budget B)",
        bounds=("rbp_expectation",),
        tracking=("rbp_tracking",),
        randomized=True,
    )
)
attach(RANDOMIZED_BUDGET_PERCEPTRON.name, "presentation",
       display_name="Randomized Budget Perceptron",
       label_params=("budget",),
       teaching=dict(supports=True))
