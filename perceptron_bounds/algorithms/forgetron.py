"""The self-tuned Forgetron of Dekel, Shalev-Shwartz & Singer (theory §2.11), a kernel
Perceptron on a budget of B supports.

From f_1 = 0, on a mistake (y_t f_t(x_t) <= 0, theory §1.1) with fewer than B
supports, f_{t+1} = f_t + y_t K(x_t, .). With B supports held:

* f'_t = f_t + y_t K(x_t, .) (B + 1 supports);
* f''_t = phi_t f'_t, phi_t in (0, 1] the self-tuned factor, the largest
  keeping Q_t = Q_{t-1} + Psi_t <= (15/32) M_t, M_t the mistakes so far and
  Psi_t = lambda^2 + 2 lambda - 2 lambda y_r f''_t(x_r) the damage of
  removing the oldest support x_r, whose coefficient in f''_t is y_r lambda;
* f_{t+1} = f''_t - y_r lambda K(x_r, .): the oldest support leaves.

So a run never holds more than B supports; with B above its number of
mistakes it is the kernel Perceptron exactly. Coefficients fade by the
product of the factors since their support was added.

Registered as ``"forgetron"`` with ``budget`` (default 100, >= 1) and the
kernel parameters ``kernel`` (default ``"rbf"``), ``degree``, ``gamma``, ``coef0``
(theory §1.7). The default is the Gaussian kernel because it is normalised,
K(x, x) = 1 for every x: the Forgetron's mistake bound (theory §4.10) assumes
K(x, x) <= 1, which the polynomial kernel (gamma x.x + coef0)^degree breaks for
any coef0 >= 1, so that under a poly default the bound could never apply;
``form`` is ``"dual"`` only. Every kernel, dense and CSR data, runs through
the kernel engine; ``OnlineRun.state`` records what the budget did
(``removed_trials``, ``shrink``, ``born``, ``Q``, ``M``:
:mod:`perceptron_bounds.algorithms._budget`).

The paper is not readable here; the rule follows DOGMA's
``k_forgetron_st_train.m`` (F. Orabona), read to cross-check, and its bound is
proved on the theory page (§4.10) from this rule.

References
----------
O. Dekel, S. Shalev-Shwartz and Y. Singer, "The Forgetron: a kernel-based
Perceptron on a budget", SIAM J. Comput. 37 (2008); NIPS 18 (2005).

Examples
--------
>>> import numpy as np
>>> from perceptron_bounds import run_online
>>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.2], [0.3, -1.0], [0.9, 0.1], [-0.2, 0.8]])
>>> run = run_online("forgetron", X, [1, -1, -1, 1, -1, 1], budget=2, kernel="rbf", gamma=1.0,
...                  epochs=2)
>>> run.mistakes, run.support_vectors.shape[0]
(8, 2)
>>> run.state["removed_trials"].tolist()  # the oldest support leaves (-1: none yet)
[-1, -1, 0, 1, 4, 5, 6, 7]
>>> run.state["shrink"].round(3).tolist()
[1.0, 1.0, 0.53, 0.367, 0.716, 0.62, 0.396, 0.65]
"""

from __future__ import annotations

from ..kernels import KERNEL_DEFAULTS
from ..registry import Algorithm, attach, register
from ._budget import fit_budget, resolve_budget


def _fit(data, order, params, margins, previous):
    return fit_budget(data, order, params, margins, previous, forgetron=True)


FORGETRON = register(
    Algorithm(
        name="forgetron",
        estimator="Forgetron",
        defaults={**KERNEL_DEFAULTS, "kernel": "rbf", "form": "dual", "budget": 100},
        resolve=resolve_budget,
        fit=_fit,
        summary="Dekel, Shalev-Shwartz & Singer's self-tuned Forgetron (kernel, budget B)",
        bounds=("forgetron",),
        no_tracking="the Forgetron's proof (theory §4.10) pairs each removal with its "
        "addition under one comparator; no shifting form is proved (theory §4.15)",
    )
)
attach(FORGETRON.name, "presentation",
       display_name="Forgetron",
       label_params=("budget",),
       teaching=dict(supports=True))
