"""The online loop's frame, written once for every update rule, primal or dual.

A trial of any algorithm here has the same frame: read the trial's row, let the
rule score it and perhaps update, record the score, log the update. The frame
:func:`_online` holds that, with the Ctrl-C and progress check
(:mod:`perceptron_bounds._interrupt`); :func:`online_loop` compiles it once per
rule, so an update rule is a small function (:func:`perceptron_bounds._jit.rule`)::

    step(X, y, i, t, u, arrays, state) -> (score, case, state)

``X`` is the rows (dense or CSR, :func:`perceptron_bounds._linalg.rows`; a
dual form's kernel-row engine source), ``i`` the row of trial ``t``, ``u`` the
number of updates so far (where a rule writes its per-update records),
``arrays`` a tuple of the arrays the rule updates in place, and ``state`` a
tuple of what it returns anew: scalars, and a dual rule's buffers that it
regrows (a primal loop carries no array from trial to trial, which would cost
reference counts on every trial). ``case`` is :data:`~._cases.NO_UPDATE`,
:data:`~._cases.MISTAKE`, :data:`~._cases.MARGIN_ERROR` (or another positive
code of the rule's own, logged alike: the Projectron's added and projected
updates), or :data:`STOP` to end the run at this trial (a score that
overflowed, or a dual form's matrices that would pass its memory budget: the
wrapper raises).
"""

from __future__ import annotations

import numpy as np

from .._interrupt import EVERY, stop_requested
from .._jit import specialise
from ._cases import NO_UPDATE

#: A rule's case that ends the run at its trial (not logged).
STOP = -1


def _online(X, y, order, arrays, state, margins):
    """Run the rule ``step`` over the trials ``order``; returns (update trials, their cases,
    state, the trial that stopped the run or -1).

    ``margins[t]`` receives trial t's score when ``margins`` is not empty. The
    Ctrl-C check runs every ``EVERY`` trials (every trial for a rule whose trial
    costs O(n^2)): on Ctrl-C the loop returns trials 0..t-1.
    """
    n_trials = order.shape[0]
    record = margins.shape[0] > 0
    updates = np.empty(n_trials, dtype=np.int64)
    cases = np.empty(n_trials, dtype=np.int8)  # a code per update: an eighth of the memory
    u = np.int64(0)  # not the literal 0, for which Numba would compile ``step`` once more
    stop = -1
    for t in range(n_trials):
        if t % EVERY == 0 and stop_requested(t):  # Ctrl-C: return trials 0..t-1
            break
        i = order[t]
        s, case, state = step(X, y, i, t, u, arrays, state)  # noqa: F821 (bound by online_loop)
        if record:
            margins[t] = s
        if case == NO_UPDATE:
            continue
        if case == STOP:
            stop = t
            break
        updates[u] = t
        cases[u] = case
        u += 1
    return updates[:u].copy(), cases[:u].copy(), state, stop


def online_loop(step, *, every: int = EVERY):
    """The loop of the update rule ``step`` (a :func:`~perceptron_bounds._jit.jit` function):
    :func:`_online` compiled for it, checking for Ctrl-C every ``every`` trials.

    Call it as ``loop(X, y, order, arrays, state, margins)``; it returns
    ``(update trials, their cases, state, stop)``.
    """
    rule = getattr(step, "py_func", step)  # a plain function with the JIT off
    return specialise(_online, f"{rule.__name__}_loop", rule.__module__, step=step, EVERY=every)
