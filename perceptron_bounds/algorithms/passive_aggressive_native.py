"""Native multiclass Passive-Aggressive: one prototype per class (theory §2.7).

Crammer et al. (JMLR 2006), sec. 7, the multi-prototype reduction of the
single-label case (Y_t = {y_t}): prototypes w^0 = ... = w^{K-1} = 0, scores
s_q = w^q . x (before the trial's update), the runner-up
y~ = argmax_{q != y} s_q (the smallest index on ties, theory §2.6; the paper's
s_t of eq. (36), the highest-ranked irrelevant label) and the multiclass
loss l = max(0, 1 - (s_y - s_{y~})) (eq. (33)). On l > 0 the update of
eq. (38) along the virtual instance Phi(x, y) - Phi(x, y~), whose squared
norm is 2 K(x, x):

    w^y <- w^y + tau x,    w^{y~} <- w^{y~} - tau x,

with tau = l / (2 K(x, x)) (PA), min(C, l / (2 K(x, x))) (PA-I) or
l / (2 K(x, x) + 1/(2C)) (PA-II). A trial with an update is a multiclass
**mistake** when s_y <= s_{y~} (a tie is one, theory §2.6) and a **margin
error** otherwise (0 < s_y - s_{y~} < 1). A zero instance changes nothing, as
in the binary form (:mod:`.passive_aggressive`), and the same rescaled step
keeps a row of extreme norm from overflowing.

Forms: ``primal`` keeps the prototypes as the rows of W (K, n), dense or CSR
rows (:func:`perceptron_bounds._linalg.rows`); ``dual``
keeps a support list shared by the K prototypes, w^q = sum_j A[q, j] phi(s_j),
each update appending x with tau in row y and -tau in row y~ of A.

``LoopResult.state`` holds, one entry per update trial: ``"true_class"``,
``"runner_up"`` (int64), ``"margin_error"`` (bool) of this run, and ``"loss"`` and
``"tau"``, after those of the runs a warm start continues.

References
----------
K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz and Y. Singer, "Online
Passive-Aggressive Algorithms", JMLR 7 (2006), sec. 7, eqs. (33)-(38).

Examples
--------
>>> import numpy as np
>>> from perceptron_bounds import run_online
>>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
>>> run = run_online("passive_aggressive", X, ["a", "b", "c"], variant="pa",
...                  multiclass="native")
>>> run.mistake_trials.tolist(), run.state["tau"].tolist()
([0, 1, 2], [0.5, 0.5, 0.25])
>>> run.predict(X).tolist()
['a', 'b', 'c']
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, rule
from .._linalg import (
    capacity,
    dot,
    grow_columns,
    grow_vector,
    row_axpy_over,
    row_dot,
    row_sq_norm,
    row_stable_norm,
    rows,
)
from ..hypothesis import PrototypeHypothesis, PrototypeKernelHypothesis
from ..kernel_engine import (
    engine_append,
    engine_diag,
    engine_order,
    engine_row,
    engine_supports,
    kernel_engine,
)
from ..kernels import kernel_of
from ..registry import LoopResult
from ._cases import MARGIN_ERROR, NO_UPDATE
from ._common import support_set
from ._frame import STOP, online_loop
from .passive_aggressive_rules import (
    NORMAL_LOW,
    SQRT2,
    VARIANTS,
    case_of,
    check_overflow,
    pa_step,
    pa_step_times_norm,
    update_records,
)


@jit
def _runner_up(s, y):
    """argmax_{q != y} s_q, the smallest index on ties."""
    best = -1
    for q in range(s.shape[0]):
        if q != y and (best < 0 or s[q] > s[best]):
            best = q
    return best


@rule(returns_arrays=True)  # the scores
def _native_pa_primal_step(X, y, i, t, u, arrays, state):
    """Native PA on trial t over dense or CSR rows: W updated in place, per update the true
    class and runner-up in ``pair``, the loss and tau."""
    W, s, pair, losses, taus = arrays
    variant, C = state
    for q in range(W.shape[0]):
        s[q] = row_dot(X, i, W[q])
    a = y[i]
    b = _runner_up(s, a)
    gap = s[a] - s[b]
    if not np.isfinite(gap):  # overflowed: stop, the wrapper raises (check_overflow)
        return s, STOP, state
    loss = 1.0 - gap
    if loss <= 0.0:
        return s, NO_UPDATE, state
    pair[u, 0], pair[u, 1] = a, b
    losses[u] = loss
    vv = 2.0 * row_sq_norm(X, i)
    if vv >= NORMAL_LOW:
        tau = pa_step(loss, vv, variant, C)
        c, norm = tau, 1.0
    else:  # ||x||^2 underflows (or x = 0)
        norm = SQRT2 * row_stable_norm(X, i)
        tau, c = 0.0, 0.0
        if norm > 0.0:
            c = pa_step_times_norm(loss, norm, variant, C)
            tau = c / norm
    row_axpy_over(X, i, c, norm, W[a])
    row_axpy_over(X, i, -c, norm, W[b])
    taus[u] = tau
    return s, case_of(gap), state


_native_pa_primal_loop = online_loop(_native_pa_primal_step)


@rule(returns_arrays=True)
def _native_pa_dual_step(src, y, i, t, u, arrays, state):
    """Kernel native PA on trial t: w^q = sum_{j<k} A[q, j] K(s_j, .) over the engine's supports.

    Every update with K(x, x) at least the smallest normal float64 appends x_t
    with tau in row y and -tau in row y~ of A (regrown as needed).
    """
    s, pair, losses, taus = arrays
    variant, C, st, A, k, row = state
    st = engine_row(src, st, t, k, row)
    for q in range(A.shape[0]):
        s[q] = dot(A[q], row, k)
    a = y[i]
    b = _runner_up(s, a)
    gap = s[a] - s[b]
    if not np.isfinite(gap):  # overflowed: stop, the wrapper raises (check_overflow)
        return s, STOP, (variant, C, st, A, k, row)
    loss = 1.0 - gap
    if loss <= 0.0:
        return s, NO_UPDATE, (variant, C, st, A, k, row)
    pair[u, 0], pair[u, 1] = a, b
    losses[u] = loss
    xx = engine_diag(src, i)
    tau = 0.0
    if xx >= NORMAL_LOW:
        tau = pa_step(loss, 2.0 * xx, variant, C)
        st = engine_append(src, st, t, k)
        A = grow_columns(A, k)
        row = grow_vector(row, k)
        A[:, k] = 0.0
        A[a, k] = tau
        A[b, k] = -tau
        k += 1
    taus[u] = tau
    return s, case_of(gap), (variant, C, st, A, k, row)


_native_pa_dual_loop = online_loop(_native_pa_dual_step)


def fit_native_passive_aggressive(data, order, params, margins, previous) -> LoopResult:
    """The native multiclass PA, PA-I or PA-II (Crammer et al. 2006, sec. 7; theory §2.7).

    The ``fit_native`` hook of ``"passive_aggressive"``: prototypes w^q = 0; on a
    multiclass loss l = max(0, 1 - (s_y - s_{y~})) > 0, w^y += tau x and
    w^{y~} -= tau x with the variant's tau for the squared norm 2 K(x, x).

    Parameters
    ----------
    data : Data
        Validated data whose ``y`` holds int64 class indices 0..K-1 and
        ``classes`` the K labels.
    order : ndarray of int64, shape (T,)
        The presented sequence (rows of X).
    params : dict
        The resolved parameters (``variant``, ``C``, ``form`` and the kernel's).
    margins : ndarray of shape (T, K) or empty
        Filled with the scores s_q of every trial when not empty.
    previous : OnlineRun or None
        A native run of the same algorithm and parameters to continue (warm start).

    Returns
    -------
    LoopResult
        Multiclass mistake and margin-error trials, a
        :class:`~perceptron_bounds.hypothesis.PrototypeHypothesis` (primal) or
        :class:`~perceptron_bounds.hypothesis.PrototypeKernelHypothesis` (dual),
        and the state of the module docstring.
    """
    n_classes = data.classes.shape[0]
    variant, C = VARIANTS.index(params["variant"]), params["C"]
    if margins.size == 0:
        margins = np.empty((0, n_classes))
    records = (np.empty(n_classes), np.empty((order.shape[0], 2), dtype=np.int64),
               np.empty(order.shape[0]), np.empty(order.shape[0]))
    if params["form"] == "primal":
        W = (np.zeros((n_classes, data.n_features)) if previous is None
             else np.array(previous.weights))
        updates, cases, _, stop = _native_pa_primal_loop(rows(data.X), data.y, order,
                                                         (W, *records), (variant, C), margins)
        hypothesis = PrototypeHypothesis(W)
    else:
        kernel = kernel_of(params)
        src, st, k = kernel_engine(data.X, order, kernel, support_set(previous))
        A = np.empty((n_classes, capacity(k)))
        if previous is not None:
            A[:, :k] = previous.dual_coef
        updates, cases, (_, _, st, A, k, _), stop = _native_pa_dual_loop(
            src, data.y, engine_order(src), records, (variant, C, st, A, k, np.empty(A.shape[1])),
            margins)
        hypothesis = PrototypeKernelHypothesis(engine_supports(st, k), A[:, :k].copy(), kernel)
    check_overflow(stop)
    _, pair, losses, taus = records
    u = updates.shape[0]
    true_class, runner_up = np.ascontiguousarray(pair[:u, 0]), np.ascontiguousarray(pair[:u, 1])
    losses = losses[:u].copy()
    margin_error = cases == MARGIN_ERROR
    return LoopResult(
        updates[~margin_error],
        hypothesis,
        margin_error_trials=updates[margin_error],
        state={"true_class": true_class, "runner_up": runner_up, "margin_error": margin_error,
               **update_records(previous, losses, taus[:u])},
    )
