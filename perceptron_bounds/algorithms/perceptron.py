"""The Perceptron (first order, FO), primal and kernel forms (theory §2.1).

Rosenblatt's rule: w_1 = 0 and, on a mistake (y_t w . x_t <= 0, theory §1.1),
w <- w + y_t x_t. The kernel (dual) form keeps w = sum_i y_i K(x_i, .) over the
mistaken instances, with multiplicity.

References
----------
F. Rosenblatt (1958); A. B. J. Novikoff (1962); Y. Freund and R. E. Schapire,
"Large margin classification using the Perceptron algorithm", Machine
Learning 37 (1999), sec. 2 (paper 001).
"""

from __future__ import annotations

import numpy as np

from .._jit import rule
from .._linalg import dot, grow_vector, row_axpy, row_dot, rows
from ..hypothesis import KernelHypothesis, LinearHypothesis
from ..kernel_engine import engine_append, engine_order, engine_row, engine_supports, kernel_engine
from ..kernels import KERNEL_DEFAULTS, kernel_of
from ..registry import Algorithm, LoopResult, attach, register
from ._cases import MISTAKE, NO_UPDATE
from ._common import dual_buffer, resolve_kernel_form, support_set
from ._frame import online_loop
from .native import fit_native_perceptron
from .ovr import fit_ovr_perceptron


@rule(inline=True)
def _perceptron_step(X, y, i, t, u, arrays, state):
    """Rosenblatt's rule on trial t (row i of dense or CSR X): a mistake adds y_i x_i to w."""
    (w,) = arrays
    s = row_dot(X, i, w)
    if y[i] * s <= 0.0:
        row_axpy(X, i, y[i], w)
        return s, MISTAKE, state
    return s, NO_UPDATE, state


_perceptron_primal_loop = online_loop(_perceptron_step)


@rule(returns_arrays=True)
def _perceptron_dual_step(src, y, i, t, u, arrays, state):
    """Kernel Perceptron: f(x) = sum_{j<k} coef[j] K(s_j, x); a mistake appends (x_t, y_t).

    ``state`` is (engine state, coef, kernel-row buffer, k); kernel values come
    from the kernel-row engine (``src``), the buffers are regrown as needed.
    """
    st, coef, row, k = state
    st = engine_row(src, st, t, k, row)
    s = dot(coef, row, k)
    if y[i] * s <= 0.0:
        st = engine_append(src, st, t, k)
        coef = grow_vector(coef, k)
        row = grow_vector(row, k)
        coef[k] = y[i]
        return s, MISTAKE, (st, coef, row, k + 1)
    return s, NO_UPDATE, (st, coef, row, k)


_perceptron_dual_loop = online_loop(_perceptron_dual_step)


def fit_primal(data, order, margins, w0=None) -> tuple[np.ndarray, np.ndarray]:
    """Run the primal Perceptron from weights ``w0`` (copied; None: w_1 = 0); return
    (mistake trials, w).

    From zero, w is a fresh ``np.zeros``, not a copy: copying writes every page of a
    long w before the loop does (2 ms of page faults for 262,144 features).
    """
    w = np.zeros(data.n_features) if w0 is None else np.array(w0, dtype=np.float64)
    trials = _perceptron_primal_loop(rows(data.X), data.y, order, (w,), (), margins)[0]
    return trials, w


def fit_dual(data, order, params, margins, previous) -> tuple[np.ndarray, KernelHypothesis]:
    """Run the kernel Perceptron, continuing the support set of ``previous`` if given."""
    kernel = kernel_of(params)
    src, st, k = kernel_engine(data.X, order, kernel, support_set(previous))
    coef = dual_buffer(previous)
    trials, _, (st, coef, _, k), _ = _perceptron_dual_loop(
        src, data.y, engine_order(src), (), (st, coef, np.empty(coef.shape[0]), k), margins)
    return trials, KernelHypothesis(engine_supports(st, k), coef[:k].copy(), kernel)


def _fit(data, order, params, margins, previous) -> LoopResult:
    if params["form"] == "primal":
        w0 = None if previous is None else previous.weights
        trials, w = fit_primal(data, order, margins, w0)
        return LoopResult(trials, LinearHypothesis(w))
    trials, hypothesis = fit_dual(data, order, params, margins, previous)
    return LoopResult(trials, hypothesis)


PERCEPTRON = register(
    Algorithm(
        name="perceptron",
        estimator=("Perceptron", "KernelPerceptron"),
        defaults={**KERNEL_DEFAULTS, "form": "auto"},
        resolve=resolve_kernel_form,
        fit=_fit,
        fit_ovr=fit_ovr_perceptron,
        fit_native=fit_native_perceptron,
        summary="Rosenblatt's Perceptron (FO), primal or kernel form",
        bounds=("novikoff", "freund_schapire", "ballseptron_d1"),
        native_bounds=("novikoff", "freund_schapire", "ballseptron_d1"),
        tracking=("perceptron_shifting", "perceptron_shifting_reached"),
    )
)
attach(PERCEPTRON.name, "presentation",
       display_name="Perceptron",
       legend=lambda params: "Perceptron (first order)")
