"""Native multiclass Perceptron and Ballseptron: one prototype per class (theory §2.6).

Paper 004, sec. 4, with K classes, radius r >= 0 and prototypes
w^0 = ... = w^{K-1} = 0. On a trial with instance x and true class y, the
scores are s_q = w^q . x (before the trial's update) and the runner-up is
y~ = argmax_{q != y} s_q, the smallest index on ties. Then, with
d = ||w^y - w^{y~}||:

* if s_y <= s_{y~}: a multiclass **mistake** (a tie is one, theory §2.6),
  w^y <- w^y + x and w^{y~} <- w^{y~} - x (paper 004, eq. (18), with the
  runner-up in place of the predicted class);
* elif s_y - s_{y~} <= r d: a **margin error**, the same update with the
  pseudo-instance x_hat = x + r (w^{y~} - w^y) / d, the point of the ball of
  radius r around x that minimises (w^y - w^{y~}) . x (eq. (19) and the text
  after it);
* else nothing changes.

The native Perceptron is the case r = 0 (0 < s_y - s_{y~} <= 0 cannot hold),
so both algorithms run the same loops; with r = 0 they are the Perceptron's
rule exactly. The sum of the prototypes stays 0.

**d = 0.** w^y = w^{y~} gives s_y = s_{y~}, a tie and so a mistake: every
fresh run makes a mistake on its first trial, as the binary Ballseptron does
with w = 0. The margin-error test s_y - s_{y~} <= r d is only reached when
s_y > s_{y~}; there a d that rounds to 0 (which exact arithmetic rules out)
fails it, as the binary test y w.x / ||w|| > r passes with +inf, so x_hat never
divides by 0.

**The prototypes' Gram matrix** G[a, b] = w^a . w^b (K x K) is kept up to date,
so d^2 = G[y, y] + G[y~, y~] - 2 G[y, y~] costs O(1). An update by v (x or
x_hat), w^y += v and w^{y~} -= v, changes G through p_q = w^q . v and
||v||^2, which come from the scores: p_q = s_q and ||v||^2 = K(x, x) for a
mistake; with c = r / d, p_q = s_q + c (G[q, y~] - G[q, y]) and
||v||^2 = K(x, x) + 2 c (s_{y~} - s_y) + r^2 for a margin error. An update
thus costs O(K) and the one kernel value K(x, x).

Forms
-----
* ``primal``: the prototypes as the rows of W (K, n), dense or CSR rows
  (the 4-array convention of :mod:`perceptron_bounds._linalg`). A margin
  error mixes two prototypes, w^y <- (1 - c) w^y + c w^{y~} + x and
  w^{y~} <- c w^y + (1 - c) w^{y~} - x, in O(n) even for CSR rows.
* ``dual``: a support list shared by the K prototypes, w^q = sum_j A[q, j]
  phi(s_j), with the coefficient matrix A (K x S, one row per class, so that
  a score is one contiguous dot product). Every update appends x once, with
  +1 for class y and -1 for y~ as its column of A; a margin error first
  applies the row operation above to rows y and y~ of A. The supports and
  the kernel values of x against them come from the kernel-row engine
  (:mod:`perceptron_bounds.kernel_engine`): one row of K(s_j, x) serves the
  K scores, and K(x, x) comes from the norms the engine keeps. Dense or CSR X,
  every kernel.

State
-----
``LoopResult.state`` (``OnlineRun.state``) holds, one entry per update trial
(``run.update_trials``: mistakes and margin errors, in trial order):

* ``"true_class"``: y, the class index (int64);
* ``"runner_up"``: y~ (int64);
* ``"margin_error"``: True for a margin error, False for a mistake (bool);
* ``"gap_norm"``: d = ||w^y - w^{y~}|| before the update (float64);

and ``"gram"``: the final prototypes' Gram matrix G (K x K), which a warm
start continues (so that a warm start is the run over the concatenated
sequence, bit for bit).

References
----------
S. Shalev-Shwartz and Y. Singer, "A new perspective on an old Perceptron
algorithm", COLT 2005, sec. 4, eqs. (18)-(19) (paper 004).

Examples
--------
>>> import numpy as np
>>> from perceptron_bounds import run_online
>>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
>>> run = run_online("perceptron", X, ["a", "b", "c"], epochs=2, multiclass="native")
>>> run.mistake_trials.tolist(), run.state["runner_up"].tolist()
([0, 1, 2], [1, 0, 0])
>>> run.weights.tolist(), run.predict(X).tolist()
([[2.0, 0.0], [-1.0, 1.0], [-1.0, -1.0]], ['a', 'b', 'c'])

With r = 0.5, trial 4 (x = (0, 1), class b) is correct, s = (0, 1, -1), but its
gap 1 is within r ||w^b - w^a|| = 0.5 sqrt(10): a margin error.

>>> run_online("ballseptron", X, ["a", "b", "c"], epochs=2, r=0.5,
...            multiclass="native").margin_error_trials.tolist()
[4]
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, rule
from .._linalg import (
    capacity,
    dot,
    grow_columns,
    grow_vector,
    row_axpy,
    row_dot,
    row_sq_norm,
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
from ._cases import MARGIN_ERROR, MISTAKE, NO_UPDATE
from ._common import support_set
from ._frame import online_loop


@jit
def _case(s, y, G, r):
    """The trial's case, runner-up y~, d = ||w^y - w^{y~}|| and c = r/d (0 unless a margin error).

    y~ = argmax_{q != y} s_q, the smallest index on ties.
    """
    runner_up = -1
    for q in range(s.shape[0]):
        if q != y and (runner_up < 0 or s[q] > s[runner_up]):
            runner_up = q
    d = np.sqrt(max(G[y, y] + G[runner_up, runner_up] - 2.0 * G[y, runner_up], 0.0))
    gap = s[y] - s[runner_up]
    if gap <= 0.0:
        return MISTAKE, runner_up, d, 0.0
    if gap <= r * d:
        return MARGIN_ERROR, runner_up, d, r / d
    return NO_UPDATE, runner_up, d, 0.0


@jit
def _update_gram(G, s, a, b, c, vv, p):
    """G after w^a += v, w^b -= v, where v = x + c (w^b - w^a), s_q = w^q . x, vv = ||v||^2.

    ``p`` is scratch of length K, filled with p_q = w^q . v.
    """
    n_classes = s.shape[0]
    for q in range(n_classes):
        p[q] = s[q] + c * (G[q, b] - G[q, a])
    gab = G[a, b] - p[a] + p[b] - vv
    G[a, a] += 2.0 * p[a] + vv
    G[b, b] += vv - 2.0 * p[b]
    G[a, b] = gab
    G[b, a] = gab
    for q in range(n_classes):
        if q != a and q != b:
            G[q, a] += p[q]
            G[a, q] = G[q, a]
            G[q, b] -= p[q]
            G[b, q] = G[q, b]


@rule(returns_arrays=True)
def _native_primal_step(X, y, i, t, u, arrays, state):
    """Native Ballseptron (r = 0: Perceptron) on trial t over a dense or CSR row.

    ``arrays`` is (W, G, the scores s, scratch p, and per update the gap norm d,
    the true class and the runner-up), W and G updated in place; ``state`` is
    (r,). The trial's score is the vector s.
    """
    W, G, s, p, gaps, true_class, runner_up = arrays
    (r,) = state
    for q in range(s.shape[0]):
        s[q] = row_dot(X, i, W[q])
    a = y[i]
    case, b, d, c = _case(s, a, G, r)
    if case == NO_UPDATE:
        return s, case, state
    true_class[u], runner_up[u], gaps[u] = a, b, d
    vv = row_sq_norm(X, i)
    if case == MARGIN_ERROR:
        vv += 2.0 * c * (s[b] - s[a]) + r * r
        for j in range(W.shape[1]):
            delta = c * (W[b, j] - W[a, j])
            W[a, j] += delta
            W[b, j] -= delta
    _update_gram(G, s, a, b, c, vv, p)
    row_axpy(X, i, 1.0, W[a])
    row_axpy(X, i, -1.0, W[b])
    return s, case, state


_native_primal_loop = online_loop(_native_primal_step)


@rule(returns_arrays=True)
def _native_dual_step(src, y, i, t, u, arrays, state):
    """Kernel native Ballseptron (r = 0: Perceptron): w^q = sum_{j<k} A[q, j] K(s_j, .).

    The supports s_j are the engine's (``src``:
    :mod:`perceptron_bounds.kernel_engine`). Every update appends x_t to them
    with the column e_y - e_{y~} of A. ``arrays`` is (G, the scores s, scratch
    p, and per update the gap norm d, the true class and the runner-up), G
    updated in place; ``state`` is (r, engine state, A, kernel-row buffer, k),
    A and the buffer regrown as needed.
    """
    G, s, p, gaps, true_class, runner_up = arrays
    r, st, A, row, k = state
    n_classes = G.shape[0]
    st = engine_row(src, st, t, k, row)
    for q in range(n_classes):
        s[q] = dot(A[q], row, k)
    a = y[i]
    case, b, d, c = _case(s, a, G, r)
    if case == NO_UPDATE:
        return s, case, (r, st, A, row, k)
    true_class[u], runner_up[u], gaps[u] = a, b, d
    vv = engine_diag(src, i)
    if case == MARGIN_ERROR:
        vv += 2.0 * c * (s[b] - s[a]) + r * r
        A_a, A_b = A[a], A[b]
        for j in range(k):
            delta = c * (A_b[j] - A_a[j])
            A_a[j] += delta
            A_b[j] -= delta
    _update_gram(G, s, a, b, c, vv, p)
    st = engine_append(src, st, t, k)
    A = grow_columns(A, k)
    row = grow_vector(row, k)
    A[:, k] = 0.0
    A[a, k] = 1.0
    A[b, k] = -1.0
    return s, case, (r, st, A, row, k + 1)


_native_dual_loop = online_loop(_native_dual_step)


def _fit(data, order, params, r, margins, previous) -> LoopResult:
    """Run the native loops of the resolved ``params``'s form with radius ``r`` (0: Perceptron)."""
    n_classes = data.classes.shape[0]
    if margins.size == 0:
        margins = np.empty((0, n_classes))
    G = np.zeros((n_classes, n_classes)) if previous is None else np.array(previous.state["gram"])
    n_trials = order.shape[0]
    records = (np.empty(n_classes), np.empty(n_classes), np.empty(n_trials),
               np.empty(n_trials, dtype=np.int64), np.empty(n_trials, dtype=np.int64))
    if params["form"] == "primal":
        W = (np.zeros((n_classes, data.n_features)) if previous is None
             else np.array(previous.weights))
        updates, cases, _, _ = _native_primal_loop(rows(data.X), data.y, order,
                                                   (W, G, *records), (r,), margins)
        hypothesis = PrototypeHypothesis(W)
    else:
        kernel = kernel_of(params)
        src, st, k = kernel_engine(data.X, order, kernel, support_set(previous))
        A = np.empty((n_classes, capacity(k)))
        if previous is not None:
            A[:, :k] = previous.dual_coef
        updates, cases, (_, st, A, _, k), _ = _native_dual_loop(
            src, data.y, engine_order(src), (G, *records), (r, st, A, np.empty(A.shape[1]), k),
            margins)
        hypothesis = PrototypeKernelHypothesis(engine_supports(st, k), A[:, :k].copy(), kernel)
    gaps, true_class, runner_up = (a[:updates.shape[0]].copy() for a in records[2:])
    margin_error = cases == MARGIN_ERROR
    return LoopResult(
        updates[~margin_error],
        hypothesis,
        margin_error_trials=updates[margin_error],
        state={"true_class": true_class, "runner_up": runner_up, "margin_error": margin_error,
               "gap_norm": gaps, "gram": G},
    )


def fit_native_perceptron(data, order, params, margins, previous) -> LoopResult:
    """The native multiclass Perceptron (paper 004 sec. 4, eq. (18); theory §2.6).

    Prototypes w^q = 0; on a multiclass mistake (s_y <= max_{q != y} s_q)
    w^y += x and w^{y~} -= x, y~ the runner-up. The ``fit_native`` hook of
    ``"perceptron"``.

    Parameters
    ----------
    data : Data
        Validated data whose ``y`` holds int64 class indices 0..K-1 and
        ``classes`` the K labels.
    order : ndarray of int64, shape (T,)
        The presented sequence (rows of X).
    params : dict
        The resolved parameters of ``"perceptron"`` (``form``, and the kernel's
        for the dual form).
    margins : ndarray of shape (T, K) or empty
        Filled with the scores s_q of every trial when not empty.
    previous : OnlineRun or None
        A native run of the same algorithm and parameters to continue (warm start).

    Returns
    -------
    LoopResult
        Multiclass mistake trials, a :class:`~perceptron_bounds.hypothesis.PrototypeHypothesis`
        (primal) or :class:`~perceptron_bounds.hypothesis.PrototypeKernelHypothesis`
        (dual), and the state of the module docstring.
    """
    return _fit(data, order, params, 0.0, margins, previous)


def fit_native_ballseptron(data, order, params, margins, previous) -> LoopResult:
    """The native multiclass Ballseptron (paper 004 sec. 4, eqs. (18)-(19); theory §2.6).

    As :func:`fit_native_perceptron`, and on a trial that is no mistake but has
    s_y - s_{y~} <= r ||w^y - w^{y~}|| (a margin error), the same update with
    x_hat = x + r (w^{y~} - w^y) / ||w^{y~} - w^y||. The ``fit_native`` hook of
    ``"ballseptron"``; ``params`` holds its radius ``r``. The LoopResult
    also holds the margin-error trials.
    """
    return _fit(data, order, params, params["r"], margins, previous)
