"""The Passive-Aggressive step sizes and records (theory §2.7), shared by the binary loops
(:mod:`.passive_aggressive`) and the native multiclass loops (:mod:`.passive_aggressive_native`).

References
----------
K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz and Y. Singer, "Online
Passive-Aggressive Algorithms", JMLR 7 (2006), 551-585, Fig. 1, eqs. (3), (8), (38).
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from ._cases import MARGIN_ERROR, MISTAKE

VARIANTS = ("pa", "pa1", "pa2")
# The loops' codes of the variants, VARIANTS[code].
PA, PA1, PA2 = 0, 1, 2

# Squared norms below NORMAL_LOW (underflowed, or 0) take the rescaled step
# (tau ||x||) (x / ||x||), in the binary and native loops.
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
def case_of(signed_score):
    """MISTAKE for y f <= 0 (binary; the gap s_y - s_y~ <= 0 native), else MARGIN_ERROR (a
    trial with l > 0)."""
    return MISTAKE if signed_score <= 0.0 else MARGIN_ERROR
