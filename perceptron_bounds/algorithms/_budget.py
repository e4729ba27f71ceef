"""The kernel Perceptron on a budget of B supports: the loop the Forgetron and the Randomized
Budget Perceptron share (theory §2.11, §2.12).

Both keep f(x) = sum_j coef[j] K(s_j, x) over at most B supports and, on a
mistake (y_t f(x_t) <= 0, theory §1.1), add x_t with the coefficient y_t.
With B supports held a mistake first makes room:

* the Forgetron (``forgetron=True``) adds x_t, multiplies every coefficient by
  its self-tuned factor phi_t in (0, 1] and removes the oldest support
  (theory §2.11);
* the Randomized Budget Perceptron removes the support of slot
  floor(B u_t), u_t the trial's uniform draw (``data.draws``, theory §1.2),
  and adds x_t (theory §2.12).

A support lives in a slot of the kernel engine
(:mod:`perceptron_bounds.kernel_engine`): a new support takes the slot of the
one removed (:func:`~perceptron_bounds.kernel_engine.engine_replace`), so the
engine holds at most B rows and a block product is never wider than B. The
Forgetron also keeps the B x B Gram matrix of its supports, whose rows are
the kernel rows the engine gives on the supports' trials: the margin
f(s_r) of the support it removes costs O(B).

The run records, for each mistake, the trial that added the support
removed (:data:`NONE` when none was; a support held from a warm start has a
trial below -1) and the shrink factor (1 when none), in
``state["removed_trials"]`` and ``state["shrink"]``; ``state["born"]`` holds
the trial that added each final support (the supports are listed by slot,
the order the RBP's draws index and a warm start continues),
``state["Q"]`` and ``state["M"]`` the Forgetron's accumulated
damage and mistakes (theory §2.11), which a warm start continues.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, rule
from .._linalg import dot
from .._validation import check_int
from ..hypothesis import KernelHypothesis
from ..kernel_engine import (
    engine_append,
    engine_diag,
    engine_order,
    engine_replace,
    engine_row,
    engine_supports,
    kernel_engine,
)
from ..kernels import kernel_of
from ..registry import LoopResult
from ._cases import MISTAKE, NO_UPDATE
from ._common import check_form, resolve_kernel
from ._frame import online_loop

#: ``state["removed_trials"]`` of a mistake that removed no support.
NONE = -1

#: The self-tuned Forgetron keeps its accumulated damage Q within this fraction of its
#: mistakes (theory §2.11).
DAMAGE_FRACTION = 15.0 / 32.0


@jit
def forgetron_phi(sigma, margin, Q, M):
    """The self-tuned shrink factor: the largest phi in (0, 1] with Q + Psi <= (15/32) M.

    Psi = (sigma phi)^2 + 2 sigma phi - 2 sigma phi^2 ``margin`` is the damage of
    removing the oldest support, coefficient sigma > 0 before the shrink, of
    margin y_r f'(x_r) = ``margin`` under the hypothesis with x_t added;
    Q < (15/32) M (theory §2.11). When phi = 1 fails, phi is the smallest
    positive root of a phi^2 + b phi + c, a = sigma^2 - 2 sigma ``margin``,
    b = 2 sigma, c = Q - (15/32) M < 0, written -2c / (b + sqrt(b^2 - 4ac)).
    """
    a = sigma * sigma - 2.0 * sigma * margin
    b = 2.0 * sigma
    c = Q - DAMAGE_FRACTION * M
    if a + b + c <= 0.0:
        return 1.0
    return -2.0 * c / (b + np.sqrt(max(b * b - 4.0 * a * c, 0.0)))


@jit
def _place(gram, row, k, j, kxx):
    """Row and column j of the supports' Gram matrix from the new support's kernel row."""
    for q in range(k):
        gram[j, q] = row[q]
        gram[q, j] = row[q]
    gram[j, j] = kxx


@rule(returns_arrays=True)
def _budget_step(src, y, i, t, u, arrays, state):
    """Kernel Perceptron on a budget: f(x) = sum_{j<k} coef[j] K(s_j, x), k <= budget.

    A mistake appends x_t while k < budget, else replaces the oldest support
    after the self-tuned shrink (``forgetron``) or the support of slot
    floor(budget u_t) (theory §2.11, §2.12). ``arrays`` is (draws, coef, born,
    gram, removed, shrink, kernel-row buffer): ``born[j]`` is the trial that
    added slot j's support, ``gram`` (Forgetron only, budget x budget) its
    Gram matrix, ``removed[u]`` and ``shrink[u]`` update u's removed trial and
    factor. ``state`` is (budget, forgetron, engine state, k, Q, M).
    """
    draws, coef, born, gram, removed, shrink, row = arrays
    budget, forgetron, st, k, Q, M = state
    st = engine_row(src, st, t, k, row)
    s = dot(coef, row, k)
    yi = y[i]
    if yi * s > 0.0:
        return s, NO_UPDATE, (budget, forgetron, st, k, Q, M)
    M += 1.0
    phi = 1.0
    if k < budget:
        j = k
        removed[u] = NONE
        st = engine_append(src, st, t, k)
        k += 1
    elif forgetron:
        j = np.argmin(born[:k])  # the oldest support
        sigma = abs(coef[j])
        y_r = 1.0 if coef[j] > 0.0 else -1.0
        f_r = dot(coef, gram[j], k) + yi * row[j]  # f'(x_r): x_t added, nothing shrunk
        phi = forgetron_phi(sigma, y_r * f_r, Q, M)
        lam = sigma * phi
        Q += lam * lam + 2.0 * lam - 2.0 * lam * y_r * (phi * f_r)
        for q in range(k):
            coef[q] *= phi
        removed[u] = born[j]
        st = engine_replace(src, st, t, j)
    else:
        j = min(int(draws[t] * budget), budget - 1)
        removed[u] = born[j]
        st = engine_replace(src, st, t, j)
    if forgetron:
        _place(gram, row, k, j, engine_diag(src, i))
    coef[j] = yi * phi
    born[j] = t
    shrink[u] = phi
    return s, MISTAKE, (budget, forgetron, st, k, Q, M)


_budget_loop = online_loop(_budget_step)


def resolve_budget(params: dict, data) -> dict:
    """The budget algorithms' parameters: the kernel resolved, ``budget`` an int >= 1.

    ``form`` may only be ``"dual"`` (or ``"auto"``): a budget counts supports.
    A budget above the run's mistakes is legal: the run is then the kernel
    Perceptron.
    """
    budget = check_int("budget", params["budget"], low=1)
    check_form(params["form"], ("dual",))
    kernel = resolve_kernel(params, data)
    return {**kernel.params(), "form": "dual", "budget": budget}


def fit_budget(data, order, params, margins, previous, *, forgetron: bool) -> LoopResult:
    """Run the budget loop (see the module docstring), continuing ``previous`` if given."""
    budget = params["budget"]
    kernel = kernel_of(params)
    held = None if previous is None else previous.support_vectors
    src, st, k = kernel_engine(data.X, order, kernel, held, cache=False)
    coef = np.zeros(budget)
    born = np.zeros(budget, dtype=np.int64)
    gram = np.zeros((budget, budget) if forgetron else (0, 0))
    Q, M = 0.0, 0.0
    if previous is not None:
        coef[:k] = previous.dual_coef
        # the earlier run's trials come before this run's: every earlier trial is below -1
        born[:k] = previous.state["born"] - previous.n_trials - 1
        Q, M = previous.state["Q"], previous.state["M"]
        if forgetron and k:
            gram[:k, :k] = kernel.gram(held, held)
    draws = data.draws if data.draws is not None else np.empty(0)
    removed, shrink = np.empty(order.shape[0], dtype=np.int64), np.empty(order.shape[0])
    mistakes, _, (_, _, st, k, Q, M), _ = _budget_loop(
        src, data.y, engine_order(src), (draws, coef, born, gram, removed, shrink,
                                         np.empty(budget + 1)),
        (budget, forgetron, st, k, float(Q), float(M)), margins)
    removed, shrink = removed[:mistakes.shape[0]].copy(), shrink[:mistakes.shape[0]].copy()
    hypothesis = KernelHypothesis(engine_supports(st, k), coef[:k].copy(), kernel)
    return LoopResult(mistakes, hypothesis,
                      state={"removed_trials": removed, "shrink": shrink,
                             "born": born[:k].copy(), "Q": Q, "M": M})
