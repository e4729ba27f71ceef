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

from .._interrupt import EVERY, stop_requested
from .._jit import jit
from .._linalg import dot, grow_vector
from ..hypothesis import KernelHypothesis, LinearHypothesis
from ..kernel_engine import engine_append, engine_order, engine_row, engine_supports, kernel_engine
from ..kernels import KERNEL_DEFAULTS, kernel_of
from ..registry import Algorithm, LegendEntry, LoopResult, register
from ._common import dual_buffer, resolve_kernel_form, support_set
from .native import fit_native_perceptron
from .ovr import fit_ovr_perceptron


@jit
def _perceptron_primal_loop(X, y, order, w, margins):
    """Primal Perceptron over dense rows; updates w in place, returns the mistake trials."""
    n_trials = order.shape[0]
    n = X.shape[1]
    record = margins.shape[0] > 0
    mistakes = np.empty(n_trials, dtype=np.int64)
    m = 0
    for t in range(n_trials):
        if t % EVERY == 0 and stop_requested(t):  # Ctrl-C: return trials 0..t-1
            break
        i = order[t]
        s = 0.0
        for j in range(n):
            s += w[j] * X[i, j]
        if record:
            margins[t] = s
        if y[i] * s <= 0.0:
            yi = y[i]
            for j in range(n):
                w[j] += yi * X[i, j]
            mistakes[m] = t
            m += 1
    return mistakes[:m].copy()


@jit
def _perceptron_primal_csr_loop(data, indices, indptr, y, order, w, margins):
    """Primal Perceptron over CSR rows; updates w in place, returns the mistake trials."""
    n_trials = order.shape[0]
    record = margins.shape[0] > 0
    mistakes = np.empty(n_trials, dtype=np.int64)
    m = 0
    for t in range(n_trials):
        if t % EVERY == 0 and stop_requested(t):  # Ctrl-C: return trials 0..t-1
            break
        i = order[t]
        start, end = indptr[i], indptr[i + 1]
        s = 0.0
        for p in range(start, end):
            s += w[indices[p]] * data[p]
        if record:
            margins[t] = s
        if y[i] * s <= 0.0:
            yi = y[i]
            for p in range(start, end):
                w[indices[p]] += yi * data[p]
            mistakes[m] = t
            m += 1
    return mistakes[:m].copy()


@jit
def _perceptron_dual_loop(src, st, k, y, coef, margins):
    """Kernel Perceptron: f(x) = sum_{j<k} coef[j] K(s_j, x); a mistake appends (x_t, y_t).

    Kernel values come from the kernel-row engine (``src``, ``st``).
    Returns (mistake trials, engine state, coef, k) with the buffers possibly regrown.
    """
    order = engine_order(src)
    n_trials = order.shape[0]
    record = margins.shape[0] > 0
    mistakes = np.empty(n_trials, dtype=np.int64)
    row = np.empty(coef.shape[0])
    m = 0
    for t in range(n_trials):
        if t % EVERY == 0 and stop_requested(t):  # Ctrl-C: return trials 0..t-1
            break
        i = order[t]
        st = engine_row(src, st, t, k, row)
        s = dot(coef, row, k)
        if record:
            margins[t] = s
        if y[i] * s <= 0.0:
            st = engine_append(src, st, t, k)
            coef = grow_vector(coef, k)
            row = grow_vector(row, k)
            coef[k] = y[i]
            k += 1
            mistakes[m] = t
            m += 1
    return mistakes[:m].copy(), st, coef, k


def fit_primal(data, order, margins, w0) -> tuple[np.ndarray, np.ndarray]:
    """Run the primal Perceptron from weights ``w0`` (copied); return (mistake trials, w)."""
    w = np.array(w0, dtype=np.float64)
    if data.sparse:
        X = data.X
        trials = _perceptron_primal_csr_loop(X.data, X.indices, X.indptr, data.y, order, w,
                                             margins)
    else:
        trials = _perceptron_primal_loop(data.X, data.y, order, w, margins)
    return trials, w


def fit_dual(data, order, params, margins, previous) -> tuple[np.ndarray, KernelHypothesis]:
    """Run the kernel Perceptron, continuing the support set of ``previous`` if given."""
    kernel = kernel_of(params)
    src, st, k = kernel_engine(data.X, order, kernel, support_set(previous))
    coef = dual_buffer(previous)
    trials, st, coef, k = _perceptron_dual_loop(src, st, k, data.y, coef, margins)
    return trials, KernelHypothesis(engine_supports(st, k), coef[:k].copy(), kernel)


def _fit(data, order, params, margins, previous) -> LoopResult:
    if params["form"] == "primal":
        w0 = np.zeros(data.n_features) if previous is None else previous.weights
        trials, w = fit_primal(data, order, margins, w0)
        return LoopResult(trials, LinearHypothesis(w))
    trials, hypothesis = fit_dual(data, order, params, margins, previous)
    return LoopResult(trials, hypothesis)


PERCEPTRON = register(
    Algorithm(
        name="perceptron",
        estimator="Perceptron",
        defaults={**KERNEL_DEFAULTS, "form": "auto"},
        resolve=resolve_kernel_form,
        fit=_fit,
        fit_ovr=fit_ovr_perceptron,
        fit_native=fit_native_perceptron,
        summary="Rosenblatt's Perceptron (FO), primal or kernel form",
        bounds=("novikoff", "freund_schapire", "ballseptron_d1"),
        native_bounds=("novikoff", "freund_schapire", "ballseptron_d1"),
        tracking=("perceptron_shifting", "perceptron_shifting_reached"),
        display_name="Perceptron",
        legend=lambda params: LegendEntry("Perceptron (first order)"),
    )
)
