"""The Projectron and Projectron++ of Orabona, Keshet and Caputo (theory §2.13), kernel form.

Bounded kernel-based online learning (JMLR 10, 2009). The paper could not be
read here: the rule follows F. Orabona's DOGMA (``k_projectron_train.m``,
``k_projectron2_train.m``, read to cross-check, not copied) in the form the
bounds of theory §4.12 are proved for. The hypothesis is
f_t = sum_j beta_j K(s_j, .) over the supports s_1..s_k; f_1 = 0. On trial t,
with phi_t = K(x_t, .), P phi_t its projection onto the span of the supports
and the projection error delta_t = ||phi_t - P phi_t||:

* a mistake (y_t f_t(x_t) <= 0): if delta_t > eta, x_t becomes a support with
  coefficient y_t (an *added* update, the kernel Perceptron's); else
  f_{t+1} = f_t + y_t P phi_t, a *projected* update that changes only the
  coefficients (beta <- beta + y_t c, c = K_S^{-1} k_t, K_S the supports' Gram matrix);
* ``plus=True`` (Projectron++), a margin error (0 < y_t f_t(x_t) < 1) with
  l_t = 1 - y_t f_t(x_t) > delta_t / eta: f_{t+1} = f_t + tau_t y_t P phi_t with
  tau_t = min(l_t / ||P phi_t||^2, 1, 2 (l_t - delta_t / eta) / ||P phi_t||^2)
  (for eta = 0, delta_t / eta is read as 0 on an instance in the span, see
  :data:`DEPENDENT`, and as inf otherwise); otherwise nothing changes.

With k_t = (K(s_j, x_t))_j and the supports' Gram matrix K_S = L L^T (L its
Cholesky factor), P phi_t = sum_j c_j phi(s_j) with c = K_S^{-1} k_t = L^{-T} z,
z = L^{-1} k_t, and delta_t^2 = K(x_t, x_t) - z . z (clipped at 0), the pivot
that Cholesky would give x_t next (``project``). L is kept incrementally: an
added support is the row (z, delta_t), so the supports are the pivots of a
greedy pivoted Cholesky. The state is O(B^2), B the number of supports. DOGMA
compares the squared error delta_t^2 with eta (and uses delta_t^2 / eta in the
Projectron++ step); here eta bounds the error itself, the quantity the mistake
bounds read (theory §4.12). An instance whose delta_t^2 is at most
:data:`DEPENDENT` K(x_t, x_t), or at most twice the bound on its own rounding
error (which grows with the conditioning of the supports), is in the span up to
rounding and is always projected, never added: with the inverse Gram matrix
kept instead (before issue 31), near-parallel rows added more supports than the
feature space has dimensions, with a recorded delta_t of 2.18 for a true 0. The
bounds read every recorded delta_t, so they hold for such an instance too.

Registered as ``"projectron"`` with ``eta`` (default 0.1, eta >= 0), ``plus``
(default False), the kernel parameters (theory §1.7) and ``memory_budget`` (the
loop stops with a one-line error before L would pass it); the form is
``"dual"`` for every kernel (dense or CSR X). Mistakes are ``mistake_trials``,
the Projectron++'s margin-error updates ``margin_error_trials``.
``OnlineRun.state`` records, for each update trial in order (``update_trials``):
``"added"`` (True: the instance became a support), ``"delta"`` (delta_t) and
``"tau"`` (1 on a mistake); ``"chol"`` is the final factor L (K_S = L L^T) a warm
start continues from. ``run.support_vectors`` are the added instances.

References
----------
F. Orabona, J. Keshet and B. Caputo, "Bounded kernel-based online learning",
JMLR 10 (2009) 2643-2666. F. Orabona, DOGMA, ``k_projectron_train.m``,
``k_projectron2_train.m``.

Examples
--------
>>> import numpy as np
>>> from perceptron_bounds import run_online
>>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [-1.0, 0.2]])
>>> run = run_online("projectron", X, [1, -1, 1, -1], eta=0.5, epochs=2)
>>> run.mistake_trials.tolist(), run.state["added"].tolist()
([0, 1, 2, 5], [True, True, False, False])
>>> run.support_vectors.shape[0]
2
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, rule
from .._linalg import dot, grow_square_within, grow_vector, square_buffer
from .._validation import check_bool, check_real
from ..hypothesis import KernelHypothesis
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
from ._cases import NO_UPDATE
from ._common import (
    MEMORY_BUDGET,
    check_dual_stop,
    check_form,
    check_memory_budget,
    dual_buffer,
    max_supports,
    resolve_kernel,
    support_set,
)
from ._frame import STOP, online_loop

#: An instance with delta_t^2 <= DEPENDENT K(x_t, x_t), or with delta_t^2 at most twice the bound
#: on its rounding error (``project``), is in the span of the supports up to rounding: it is
#: projected, never added (theory §2.13).
DEPENDENT = 1e-12

# What the loop did on an update trial: the rule's cases (NO_UPDATE is 0).
ADDED, PROJECTED, MARGIN_UPDATE = 1, 2, 3

# The dense k x k matrices the loop keeps: the Cholesky factor L of K_S.
_MATRICES = 1

_EPS = float(np.finfo(np.float64).eps)


@jit
def margin_step(loss, delta, in_span, norm_sq, eta):
    """Projectron++'s step tau on a margin error, or 0 for no update (theory §2.13).

    tau = min(l / ||P phi||^2, 1, 2 (l - delta / eta) / ||P phi||^2) when
    l > delta / eta and ||P phi||^2 > 0; for eta = 0, delta / eta is read as 0 on an
    instance ``in_span`` (see ``project``) and as inf otherwise.
    """
    if eta > 0.0:
        slack = loss - delta / eta
    elif in_span:
        slack = loss
    else:
        return 0.0
    if slack <= 0.0 or norm_sq <= 0.0:
        return 0.0
    return min(loss / norm_sq, 1.0, 2.0 * slack / norm_sq)


@jit
def project(L, g, k, kxx, units, z, c):
    """The projection of phi = K(x, .) onto the span of the k supports, by K_S = L L^T.

    z = L^{-1} g (g the kernel values K(s_j, x)), c = L^{-T} z = K_S^{-1} g,
    ||P phi||^2 = z . z and delta^2 = max(K(x, x) - z . z, 0): the last pivot of the
    Cholesky factorisation of the supports' Gram matrix bordered by x (theory §2.13).
    Cholesky is backward stable, so the computed delta^2 is within
    error = (k + 2 + units) eps (sqrt(K(x, x)) + sum_j |c_j| sqrt(K(s_j, s_j)))^2
    of the exact one, ``units`` covering the rounding of the kernel values
    (:meth:`~perceptron_bounds.kernels.Kernel.rounding_units`); sqrt(K(s_j, s_j))
    is the norm of row j of L. Returns (||P phi||^2, delta^2, error, in_span), in_span
    when delta^2 <= max(DEPENDENT K(x, x), 2 error).
    """
    for i in range(k):
        z[i] = (g[i] - dot(L[i], z, i)) / L[i, i]
    projected_sq = dot(z, z, k)
    for i in range(k):
        c[i] = z[i]
    reach = np.sqrt(max(kxx, 0.0))
    for j in range(k - 1, -1, -1):
        cj = c[j] / L[j, j]
        c[j] = cj
        row = L[j]
        for p in range(j):
            c[p] -= row[p] * cj
        reach += abs(cj) * np.sqrt(dot(row, row, j + 1))
    delta_sq = max(kxx - projected_sq, 0.0)
    error = (k + 2.0 + units) * _EPS * reach * reach
    return projected_sq, delta_sq, error, delta_sq <= max(DEPENDENT * kxx, 2.0 * error)


@rule(returns_arrays=True)
def _projectron_step(src, y, i, t, u, arrays, state):
    """Projectron (++ with ``plus``) on trial t over the engine's k supports, K_S = L L^T.

    ``arrays`` is (delta_t, tau_t), written at the update's index u; ``state``
    (eta, plus, units, max_k, engine state, beta, L, g, c, z, k), the buffers
    regrown as needed. The case is ADDED, PROJECTED or MARGIN_UPDATE, or
    :data:`~._frame.STOP` at an added support that would make more than ``max_k``.
    """
    deltas, taus = arrays
    eta, plus, units, max_k, st, beta, chol, g, c, z, k = state
    g = grow_vector(g, k)
    c = grow_vector(c, k)
    z = grow_vector(z, k)
    st = engine_row(src, st, t, k, g)
    s = dot(beta, g, k)
    yi = y[i]
    ys = yi * s
    if ys >= 1.0 or (ys > 0.0 and not plus):
        return s, NO_UPDATE, (eta, plus, units, max_k, st, beta, chol, g, c, z, k)
    projected_sq, delta_sq, _, in_span = project(chol, g, k, engine_diag(src, i), units, z, c)
    delta = np.sqrt(delta_sq)
    if ys <= 0.0:
        tau = 1.0
        if delta > eta and not in_span:
            if k >= max_k:
                return s, STOP, (eta, plus, units, max_k, st, beta, chol, g, c, z, k)
            # The bordered Gram's factor: row k of L is (z, delta).
            chol = grow_square_within(chol, k, max_k)
            for p in range(k):
                chol[k, p] = z[p]
            chol[k, k] = delta
            st = engine_append(src, st, t, k)
            beta = grow_vector(beta, k)
            beta[k] = yi
            k += 1
            case = ADDED
        else:
            for p in range(k):
                beta[p] += yi * c[p]
            case = PROJECTED
    else:
        tau = margin_step(1.0 - ys, delta, in_span, max(projected_sq, 0.0), eta)
        if tau <= 0.0:
            return s, NO_UPDATE, (eta, plus, units, max_k, st, beta, chol, g, c, z, k)
        for p in range(k):
            beta[p] += tau * yi * c[p]
        case = MARGIN_UPDATE
    deltas[u] = delta
    taus[u] = tau
    return s, case, (eta, plus, units, max_k, st, beta, chol, g, c, z, k)


# A trial costs O(k^2): the Ctrl-C check runs on every trial.
_projectron_loop = online_loop(_projectron_step, every=1)


def _fit(data, order, params, margins, previous) -> LoopResult:
    kernel = kernel_of(params)
    src, st, k = kernel_engine(data.X, order, kernel, support_set(previous))
    chol = np.zeros((16, 16)) if previous is None else square_buffer(_factor_of(previous))
    budget = params["memory_budget"]
    n_trials = order.shape[0]
    deltas, taus = np.empty(n_trials), np.empty(n_trials)
    beta, empty = dual_buffer(previous), np.empty(0)
    updates, kinds, state, stop = _projectron_loop(
        src, data.y, engine_order(src), (deltas, taus),
        (params["eta"], params["plus"], kernel.rounding_units(data.X),
         max_supports(_MATRICES, budget), st, beta, chol, empty, empty, empty, k), margins)
    st, beta, chol, k = state[4], state[5], state[6], state[10]
    deltas, taus = deltas[:updates.shape[0]].copy(), taus[:updates.shape[0]].copy()
    check_dual_stop(stop, k, _MATRICES, budget)
    hypothesis = KernelHypothesis(engine_supports(st, k), beta[:k].copy(), kernel)
    margin = kinds == MARGIN_UPDATE
    return LoopResult(
        updates[~margin],
        hypothesis,
        margin_error_trials=updates[margin],
        state={"added": kinds == ADDED, "delta": deltas, "tau": taus,
               "chol": chol[:k, :k].copy()},
    )


def _factor_of(run) -> np.ndarray:
    """The Cholesky factor L of a run's supports' Gram matrix, K_S = L L^T, to continue from;
    from K_S^{-1} for a run saved before the state held L (``"k_inv"``)."""
    if "chol" in run.state:
        return run.state["chol"]
    k_inv = run.state["k_inv"]
    if k_inv.shape[0] == 0:
        return k_inv
    return np.linalg.cholesky(np.linalg.inv(k_inv))


def _update_note(run, trial) -> str:
    """The teaching panel's note on the update at ``trial``: added, or projected."""
    added = run.state["added"][np.searchsorted(run.update_trials, trial)]
    return "added as a support" if added else "projected onto the supports' span"


def _resolve(params: dict, data) -> dict:
    """Validate eta, plus, memory_budget, the kernel and ``form`` (``"dual"`` only)."""
    eta = check_real("eta", params["eta"], low=0.0)
    plus = check_bool("plus", params["plus"])
    budget = check_memory_budget(params["memory_budget"])
    check_form(params["form"], ("dual",))
    kernel = resolve_kernel(params, data)
    return {"eta": eta, "plus": plus, "memory_budget": budget, **kernel.params(), "form": "dual"}


PROJECTRON = register(
    Algorithm(
        name="projectron",
        estimator="Projectron",
        defaults={"eta": 0.1, "plus": False, **KERNEL_DEFAULTS, "form": "auto",
                  "memory_budget": MEMORY_BUDGET},
        resolve=_resolve,
        fit=_fit,
        summary="Projectron and Projectron++ (Orabona, Keshet, Caputo): a mistaken instance "
                "within eta of the supports' span is projected onto it, not added",
        bounds=("projectron_d1", "projectron_d2"),
    )
)
attach(PROJECTRON.name, "presentation",
       display_name="Projectron",
       label_params=lambda params: ("eta", "plus") if params["plus"] else ("eta",),
       legend=lambda params: (
           f"Projectron{'++' if params['plus'] else ''}, eta = {params['eta']:g}"),
       # Projectron++ only: a right prediction with margin below 1 that passes the step's test
       teaching=dict(update_note=_update_note),
       margin_error=(r"right sign, $y\,f(x) < 1$, $1 - y\,f(x) > \delta / \eta$",
                     r"right sign, $y\,f(x) < 1$"))
attach(PROJECTRON.name, "atlas", variants=(dict(plus=True),))
