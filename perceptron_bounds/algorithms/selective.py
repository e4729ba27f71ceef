"""Selective sampling: the label-efficient Perceptron and Second-Order Perceptron (theory §2.14).

On trial t the algorithm computes its margin p_t, predicts sign(p_t) and then
flips a coin Z_t with P(Z_t = 1) = b / (b + abs(p_t)), b > 0: only when Z_t = 1
does it ask for the label y_t, and only then may it update, on a mistake
(y_t p_t <= 0, theory §1.1). Every trial's mistake is counted, queried or not;
the state changes on the queried mistakes only (``run.update_trials``).

* ``selective_perceptron``: p_t = w . x_t and, on a queried mistake,
  w <- w + y_t x_t (the Perceptron's rule, theory §2.1); the kernel form keeps
  w = sum_i y_i K(x_i, .) over the updated instances.
* ``selective_second_order``: p_t = v^T (a I + S S^T + x_t x_t^T)^{-1} x_t, S the
  updated instances, v = sum of their y_i x_i; on a queried mistake x_t joins S
  and v <- v + y_t x_t (the Second-Order Perceptron's rule with fixed a, theory
  §2.4). The primal form keeps (a I + S S^T)^{-1} with Sherman-Morrison, so a
  trial costs one n x n matrix-vector product (p_t is needed on every trial, for
  the coin); the dual form keeps (a I_k + G_k)^{-1} over the k updated instances.

The coin is the run's own draw: Z_t = 1 iff ``data.draws[t] < b / (b + abs(p_t))``, the
t-th uniform in [0, 1) of the run's seed (``Algorithm.randomized``, theory §1.2), so a
run replays exactly from its record. The record adds ``run.queried_trials`` (and
``run.queried``); with b so large that b / (b + abs(p_t)) rounds to 1, every label is
queried and the run is the fully supervised algorithm's, bit for bit.

References
----------
N. Cesa-Bianchi, C. Gentile and L. Zaniboni, "Worst-case analysis of selective
sampling for linear classification", Journal of Machine Learning Research 7
(2006) 1205-1230 (not readable here; the rule follows the description in the
issue and DOGMA's ``sel_perc_train.m``; the bounds are proved in theory §4.13).
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, rule
from .._linalg import (
    capacity,
    dot,
    grow_vector,
    row_axpy,
    row_copy,
    row_dot,
    rows,
    square_buffer,
)
from .._validation import check_real
from ..hypothesis import KernelHypothesis, LinearHypothesis
from ..kernel_engine import (
    engine_append,
    engine_diag,
    engine_order,
    engine_row,
    engine_supports,
    kernel_engine,
)
from ..kernels import KERNEL_DEFAULTS, kernel_of
from ..registry import Algorithm, LoopResult, attach, register
from ._common import (
    MEMORY_BUDGET,
    check_dual_stop,
    check_form,
    check_memory_budget,
    dense_matrices_fit,
    dual_buffer,
    max_supports,
    over_budget,
    resolve_kernel_form,
    support_set,
)
from ._frame import STOP, online_loop
from .second_order import SecondOrderHypothesis, SecondOrderKernelHypothesis
from .second_order_rules import (
    apply_pending,
    border_inverse,
    dual_margin,
    dual_score,
    inverse_margin,
    inverse_update,
)

# ---------------------------------------------------------------- first order


# A trial's case in the frame's log (algorithms/_frame.py): bits, both set on a queried mistake.
WRONG, QUERIED = 1, 4


@jit
def query_case(signed_margin, s, draw, b):
    """The trial's bits: WRONG when y p_t <= 0, QUERIED when the coin with
    P(Z_t = 1) = b / (b + |p_t|) (the uniform ``draw`` below it) asks for the label."""
    return (WRONG if signed_margin <= 0.0 else 0) | (QUERIED if draw < b / (b + abs(s)) else 0)


@rule
def _selective_primal_step(X, y, i, t, u, arrays, state):
    """Selective Perceptron on trial t over a dense or CSR row: a queried mistake adds
    y_i x_i to w."""
    w, draws = arrays
    (b,) = state
    s = row_dot(X, i, w)
    case = query_case(y[i] * s, s, draws[t], b)
    if case == WRONG | QUERIED:
        row_axpy(X, i, y[i], w)
    return s, case, state


_selective_primal_loop = online_loop(_selective_primal_step)


@rule(returns_arrays=True)
def _selective_dual_step(src, y, i, t, u, arrays, state):
    """Kernel selective Perceptron: f(x) = sum_{j<k} coef[j] K(s_j, x); a queried
    mistake appends (x_t, y_t). ``state`` is (b, engine state, coef, kernel-row buffer, k)."""
    (draws,) = arrays
    b, st, coef, row, k = state
    st = engine_row(src, st, t, k, row)
    s = dot(coef, row, k)
    case = query_case(y[i] * s, s, draws[t], b)
    if case == WRONG | QUERIED:
        st = engine_append(src, st, t, k)
        coef = grow_vector(coef, k)
        row = grow_vector(row, k)
        coef[k] = y[i]
        k += 1
    return s, case, (b, st, coef, row, k)


_selective_dual_loop = online_loop(_selective_dual_step)


def _split(updates, cases):
    """(mistake trials, queried trials) from the frame's log."""
    return updates[(cases & WRONG) != 0], updates[(cases & QUERIED) != 0]


def _fit_first(data, order, params, margins, previous) -> LoopResult:
    b = params["b"]
    if params["form"] == "primal":
        w = (np.zeros(data.n_features) if previous is None
             else np.array(previous.weights, dtype=np.float64))
        updates, cases, _, _ = _selective_primal_loop(rows(data.X), data.y, order,
                                                      (w, data.draws), (b,), margins)
        trials, queried = _split(updates, cases)
        return LoopResult(trials, LinearHypothesis(w), queried_trials=queried)
    kernel = kernel_of(params)
    src, st, k = kernel_engine(data.X, order, kernel, support_set(previous))
    coef = dual_buffer(previous)
    updates, cases, (_, st, coef, _, k), _ = _selective_dual_loop(
        src, data.y, engine_order(src), (data.draws,), (b, st, coef, np.empty(coef.shape[0]), k),
        margins)
    trials, queried = _split(updates, cases)
    hypothesis = KernelHypothesis(engine_supports(st, k), coef[:k].copy(), kernel)
    return LoopResult(trials, hypothesis, queried_trials=queried)


# ---------------------------------------------------------------- second order


@rule
def _selective_so_primal_step(X, y, i, t, u, arrays, state):
    """Selective Second-Order Perceptron, primal, fixed a, over a dense or CSR row.

    With z = A^{-1} x_t and d = 1 + x_t . z the margin is p_t = (w . x_t) / d
    (Sherman-Morrison, as the Second-Order primal rule), needed on every trial
    for the coin. ``arrays`` is (A^{-1}, w, the draws, the row buffer, z,
    the pending change); ``state`` is (b,).
    """
    a_inv, w, draws, scratch, z, pending = arrays
    (b,) = state
    n = w.shape[0]
    row_copy(X, i, scratch)
    x = scratch
    s = dot(w, x, n)
    d = inverse_margin(a_inv, pending, x, n, z)
    p_t = s / d
    case = query_case(y[i] * s, p_t, draws[t], b)
    if case == WRONG | QUERIED:
        inverse_update(w, z, pending, y[i], s, d, n)
    return p_t, case, state


@rule(returns_arrays=True)
def _selective_so_dual_step(src, y, i, t, u, arrays, state):
    """Selective Second-Order Perceptron, dual, fixed a, over the engine's k supports.

    Keeps m_inv = (a I_k + G_k)^{-1} and alpha = m_inv y_k; with g the kernel row
    and u = m_inv g, the margin is p_t = a (alpha . g) / (a + K(x_t, x_t) - g . u).
    ``state`` is (b, a, max_k, engine state, alpha, m_inv, the buffers g, u and
    the pending change, k); a queried mistake that would make more than
    ``max_k`` supports stops the run.
    """
    (draws,) = arrays
    b, a, max_k, st, alpha, m_inv, g, v, pending, k = state
    st, s, g, v, pending = dual_score(src, st, t, k, alpha, g, v, pending)
    schur = dual_margin(m_inv, pending, g, k, v, a, engine_diag(src, i))
    p_t = a * s / schur
    case = query_case(y[i] * s, p_t, draws[t], b)
    if case == WRONG | QUERIED:
        if k >= max_k:
            return p_t, STOP, (b, a, max_k, st, alpha, m_inv, g, v, pending, k)
        m_inv, alpha = border_inverse(m_inv, alpha, pending, v, schur, y[i], s, k, max_k)
        st = engine_append(src, st, t, k)
        k += 1
    return p_t, case, (b, a, max_k, st, alpha, m_inv, g, v, pending, k)


_selective_so_primal_loop = online_loop(_selective_so_primal_step, every=1)
_selective_so_dual_loop = online_loop(_selective_so_dual_step, every=1)


def _fit_second(data, order, params, margins, previous) -> LoopResult:
    a, b = params["a"], params["b"]
    if params["form"] == "primal":
        n = data.n_features
        if previous is None:
            a_inv, w = np.eye(n) / a, np.zeros(n)
        else:
            a_inv = np.array(previous.hypothesis.a_inv)
            w = np.array(previous.hypothesis.weights)
        pending = np.zeros(n)  # the last update's z / sqrt(d), not yet subtracted from a_inv
        updates, cases, _, _ = _selective_so_primal_loop(
            rows(data.X), data.y, order, (a_inv, w, data.draws, np.zeros(n), np.empty(n), pending),
            (b,), margins)
        apply_pending(a_inv, pending, 1.0, n)
        trials, queried = _split(updates, cases)
        return LoopResult(trials, SecondOrderHypothesis(w, a_inv), queried_trials=queried)
    kernel = kernel_of(params)
    src, st, k = kernel_engine(data.X, order, kernel, support_set(previous))
    m_inv = np.zeros((16, 16)) if previous is None else square_buffer(previous.hypothesis.m_inv)
    budget = params["memory_budget"]
    g, u, pending = (np.zeros(capacity(k + 1)) for _ in range(3))
    updates, cases, (_, _, _, st, alpha, m_inv, _, _, pending, k), stop = _selective_so_dual_loop(
        src, data.y, engine_order(src), (data.draws,),
        (b, a, max_supports(1, budget), st, dual_buffer(previous), m_inv, g, u, pending, k),
        margins)
    check_dual_stop(stop, k, 1, budget)
    apply_pending(m_inv, pending, -1.0, k)
    trials, queried = _split(updates, cases)
    hypothesis = SecondOrderKernelHypothesis(engine_supports(st, k), alpha[:k].copy(), kernel,
                                             m_inv[:k, :k].copy(), a)
    return LoopResult(trials, hypothesis, queried_trials=queried)


def _matrix(result, params, rows) -> np.ndarray | None:
    """A_k = a I + X_k X_k^T of the primal form, X_k the k updated ``rows`` (theory §2.14)."""
    if params["form"] != "primal":
        return None
    X_k = rows.toarray() if hasattr(rows, "toarray") else rows
    return params["a"] * np.eye(X_k.shape[1]) + X_k.T @ X_k


# ---------------------------------------------------------------- parameters


def check_b(value) -> float:
    """``b`` checked: the query parameter, a finite real > 0 (theory §2.14)."""
    return check_real("b", value, low=0.0, include_low=False)


def _resolve_first(params: dict, data) -> dict:
    """Validate b, the kernel and the form (``"auto"``: primal for the linear kernel)."""
    b = check_b(params["b"])
    return {"b": b, **resolve_kernel_form(params, data)}


def _resolve_second(params: dict, data) -> dict:
    """Validate a, b, memory_budget, the kernel and the form.

    ``"auto"`` is the primal form for the linear kernel when n_features <=
    n_samples and its n x n inverse fits ``memory_budget``, else the dual form,
    as for the Second-Order Perceptron (theory §2.4).
    """
    a = check_real("a", params["a"], low=0.0, include_low=False)
    b = check_b(params["b"])
    budget = check_memory_budget(params["memory_budget"])
    form = check_form(params["form"], ("primal", "dual"))
    fits = dense_matrices_fit(data.n_features, 1, budget)
    if form == "auto" and params["kernel"] == "linear":
        form = "primal" if fits and data.n_features <= data.n_samples else "dual"
    if form == "primal" and not fits:
        raise ValueError(over_budget("primal", data.n_features, 1, budget, "form='dual'"))
    return {"a": a, "b": b, "memory_budget": budget,
            **resolve_kernel_form({**params, "form": form}, data)}


SELECTIVE_PERCEPTRON = register(
    Algorithm(
        name="selective_perceptron",
        estimator="SelectivePerceptron",
        defaults={"b": 1.0, **KERNEL_DEFAULTS, "form": "auto"},
        resolve=_resolve_first,
        fit=_fit_first,
        summary="Selective-sampling Perceptron (Cesa-Bianchi, Gentile, Zaniboni): asks for a "
                "label with probability b / (b + abs(p_t)); primal or kernel form",
        bounds=("selective_perceptron",),
        randomized=True,
    )
)
attach(SELECTIVE_PERCEPTRON.name, "presentation",
       display_name="Selective Perceptron",
       label_params=("b",),
       legend=lambda params: f"Selective Perceptron, b = {params['b']:g}")
# the second b linear only: a selective cell is 20 draws, a kernel one the costliest
attach(SELECTIVE_PERCEPTRON.name, "atlas", variants=(dict(b=0.1, kernels=("linear",)),))

SELECTIVE_SECOND_ORDER = register(
    Algorithm(
        name="selective_second_order",
        estimator="SelectiveSecondOrderPerceptron",
        defaults={"a": 1.0, "b": 1.0, **KERNEL_DEFAULTS, "form": "auto",
                  "memory_budget": MEMORY_BUDGET},
        resolve=_resolve_second,
        fit=_fit_second,
        matrix=_matrix,
        summary="Selective-sampling Second-Order Perceptron (Cesa-Bianchi, Gentile, Zaniboni): "
                "fixed a, asks for a label with probability b / (b + abs(p_t)); primal or kernel "
                "form",
        bounds=("selective_second_order",),
        randomized=True,
    )
)
attach(SELECTIVE_SECOND_ORDER.name, "presentation",
       display_name="Selective Second-Order Perceptron",
       label_params=("a", "b"),
       legend=lambda params: (
           f"Selective Second-Order Perceptron, a = {params['a']:g}, b = {params['b']:g}"),
       teaching=dict(matrix=lambda params: "$A_k = a I + X_k X_k^T$"))
attach(SELECTIVE_SECOND_ORDER.name, "atlas", variants=(dict(b=0.1, kernels=("linear",)),))
