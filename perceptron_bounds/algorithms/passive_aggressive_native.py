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
rows (the 4-array convention of :mod:`perceptron_bounds._linalg`); ``dual``
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

from .._interrupt import EVERY, stop_requested
from .._jit import jit
from .._linalg import capacity, csr_dot, dense_dot, dot, grow_vector
from .._validation import loop_arrays
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
from ._cases import MARGIN_ERROR, MISTAKE
from ._common import support_set

VARIANTS = ("pa", "pa1", "pa2")
# The loops' codes of the variants, VARIANTS[code].
PA, PA1, PA2 = 0, 1, 2

# Squared norms below NORMAL_LOW (underflowed, or 0) take the rescaled step
# (tau ||x||) (x / ||x||), as in the binary loops (:mod:`.passive_aggressive`).
NORMAL_LOW = float(np.finfo(np.float64).tiny)
SQRT2 = float(np.sqrt(2.0))


@jit
def pa_step(loss, xx, variant, C):
    """tau = l/xx (PA), min(C, l/xx) (PA-I) or l/(xx + 1/(2C)) (PA-II), for l > 0 and xx > 0.

    ``xx`` is the squared norm of the instance the step moves along (K(x, x)
    binary, 2 K(x, x) for the virtual instance of the native form).
    """
    if variant == PA:
        return loss / xx
    if variant == PA1:
        return min(C, loss / xx)
    return loss / (xx + 0.5 / C)


@jit
def pa_step_times_norm(loss, norm, variant, C):
    """tau ||x|| for the norm ``norm`` > 0 of x, without forming ||x||^2 (no under/overflow)."""
    if variant == PA:
        return loss / norm
    if variant == PA1:
        return min(C * norm, loss / norm)
    return loss / (norm + 0.5 / (C * norm))


@jit
def rescaled_norm(values):
    """||v|| as max_j |v_j| times the norm of v / max_j |v_j| (0 for v = 0)."""
    top = 0.0
    for v in values:
        top = max(top, abs(v))
    if top == 0.0:
        return 0.0
    s = 0.0
    for v in values:
        z = v / top
        s += z * z
    return top * np.sqrt(s)


def update_records(previous, losses, taus) -> dict:
    """``{"loss": ..., "tau": ...}`` per update trial, after those of ``previous`` (a warm
    start's run, or None): a warm start's records are those of one run over the whole stream."""
    if previous is None:
        return {"loss": losses, "tau": taus.copy()}
    return {"loss": np.concatenate((previous.state["loss"], losses)),
            "tau": np.concatenate((previous.state["tau"], taus))}


def check_overflow(stop: int) -> None:
    """The one-line ``ValueError`` of a loop stopped at trial ``stop`` (-1: it did not) because
    a score left float64: PA's steps l/||x||^2 on rows of very different norms (below about
    1.5e-154 beside large ones) can drive the exact scores beyond 1.8e308."""
    if stop >= 0:
        raise ValueError(f"the score of trial {stop} overflows float64: the Passive-Aggressive "
                         "steps l/||x||^2 on rows of very different norms drove it beyond "
                         "1.8e308; scale the rows of X to closer norms")


@jit
def _runner_up(s, y):
    """argmax_{q != y} s_q, the smallest index on ties."""
    best = -1
    for q in range(s.shape[0]):
        if q != y and (best < 0 or s[q] > s[best]):
            best = q
    return best


@jit
def _native_pa_primal_loop(X, data, indices, indptr, y, order, variant, C, W, margins, taus):
    """Native PA over dense or CSR rows; W updated in place, ``taus`` filled per update.

    Returns the update log, rows (trial, case, true class, runner-up), the losses and the
    trial whose scores overflowed (-1: none).
    """
    n_trials = order.shape[0]
    n_classes, n = W.shape
    record = margins.shape[0] > 0
    csr = indptr.shape[0] > 0
    log = np.empty((n_trials, 4), dtype=np.int64)
    losses = np.empty(n_trials)
    s = np.empty(n_classes)
    u = 0
    stop = -1
    for t in range(n_trials):
        if t % EVERY == 0 and stop_requested(t):  # Ctrl-C: return trials 0..t-1
            break
        i = order[t]
        for q in range(n_classes):
            s[q] = csr_dot(W[q], data, indices, indptr, i) if csr else dense_dot(W[q], X, i)
        if record:
            margins[t] = s
        a = y[i]
        b = _runner_up(s, a)
        gap = s[a] - s[b]
        if not np.isfinite(gap):  # overflowed: stop, the wrapper raises (check_overflow)
            stop = t
            break
        loss = 1.0 - gap
        if loss <= 0.0:
            continue
        log[u, 0], log[u, 2], log[u, 3] = t, a, b
        log[u, 1] = MISTAKE if gap <= 0.0 else MARGIN_ERROR
        losses[u] = loss
        start, end = (indptr[i], indptr[i + 1]) if csr else (0, n)
        row = data[start:end] if csr else X[i]
        xx = 0.0
        for v in row:
            xx += v * v
        vv = 2.0 * xx
        if vv >= NORMAL_LOW:
            tau = pa_step(loss, vv, variant, C)
            c, norm = tau, 1.0
        else:  # ||x||^2 underflows (or x = 0)
            norm = SQRT2 * rescaled_norm(row)
            tau, c = 0.0, 0.0
            if norm > 0.0:
                c = pa_step_times_norm(loss, norm, variant, C)
                tau = c / norm
        for p in range(end - start):
            j = indices[start + p] if csr else p
            step = c * (row[p] / norm)
            W[a, j] += step
            W[b, j] -= step
        taus[u] = tau
        u += 1
    return log[:u].copy(), losses[:u].copy(), stop


@jit
def _native_pa_dual_loop(src, st, k, y, variant, C, A, margins, taus):
    """Kernel native PA: w^q = sum_{j<k} A[q, j] K(s_j, .) over the engine's supports.

    Every update with K(x, x) at least the smallest normal float64 appends x_t
    with tau in row y and -tau in row y~ of A. Returns the update log (rows:
    trial, case, true class, runner-up), the losses, the trial whose scores
    overflowed (-1: none), the engine state, A (possibly regrown) and k.
    """
    order = engine_order(src)
    n_trials = order.shape[0]
    n_classes = A.shape[0]
    record = margins.shape[0] > 0
    log = np.empty((n_trials, 4), dtype=np.int64)
    losses = np.empty(n_trials)
    s = np.empty(n_classes)
    row = np.empty(A.shape[1])
    u = 0
    stop = -1
    for t in range(n_trials):
        if t % EVERY == 0 and stop_requested(t):  # Ctrl-C: return trials 0..t-1
            break
        i = order[t]
        st = engine_row(src, st, t, k, row)
        for q in range(n_classes):
            s[q] = dot(A[q], row, k)
        if record:
            margins[t] = s
        a = y[i]
        b = _runner_up(s, a)
        gap = s[a] - s[b]
        if not np.isfinite(gap):  # overflowed: stop, the wrapper raises (check_overflow)
            stop = t
            break
        loss = 1.0 - gap
        if loss <= 0.0:
            continue
        log[u, 0], log[u, 2], log[u, 3] = t, a, b
        log[u, 1] = MISTAKE if gap <= 0.0 else MARGIN_ERROR
        losses[u] = loss
        xx = engine_diag(src, i)
        tau = 0.0
        if xx >= NORMAL_LOW:
            tau = pa_step(loss, 2.0 * xx, variant, C)
            st = engine_append(src, st, t, k)
            if k == A.shape[1]:
                grown = np.empty((n_classes, capacity(k + 1)))
                grown[:, :k] = A[:, :k]
                A = grown
            row = grow_vector(row, k)
            A[:, k] = 0.0
            A[a, k] = tau
            A[b, k] = -tau
            k += 1
        taus[u] = tau
        u += 1
    return log[:u].copy(), losses[:u].copy(), stop, st, A, k


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
    taus = np.empty(order.shape[0])
    if params["form"] == "primal":
        W = (np.zeros((n_classes, data.n_features)) if previous is None
             else np.array(previous.weights))
        log, losses, stop = _native_pa_primal_loop(*loop_arrays(data.X), data.y, order, variant, C,
                                             W, margins, taus)
        hypothesis = PrototypeHypothesis(W)
    else:
        kernel = kernel_of(params)
        src, st, k = kernel_engine(data.X, order, kernel, support_set(previous))
        A = np.empty((n_classes, capacity(k)))
        if previous is not None:
            A[:, :k] = previous.dual_coef
        log, losses, stop, st, A, k = _native_pa_dual_loop(src, st, k, data.y, variant, C, A,
                                                     margins, taus)
        hypothesis = PrototypeKernelHypothesis(engine_supports(st, k), A[:, :k].copy(), kernel)
    check_overflow(stop)
    updates, cases, true_class, runner_up = (np.ascontiguousarray(col) for col in log.T)
    margin_error = cases == MARGIN_ERROR
    return LoopResult(
        updates[~margin_error],
        hypothesis,
        margin_error_trials=updates[margin_error],
        state={"true_class": true_class, "runner_up": runner_up, "margin_error": margin_error,
               **update_records(previous, losses, taus[:updates.shape[0]])},
    )
