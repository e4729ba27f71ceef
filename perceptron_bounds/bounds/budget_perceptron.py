"""The Randomized Budget Perceptron's mistake bound in expectation (theory §4.11, derived).

For a comparator g of the kernel's feature space with hinge losses at margin
1 over every trial, L = sum_t max(0, 1 - y_t g(x_t)), every K(x_t, x_t) <= 1
and a budget B, the mistakes' expectation over the run's draws satisfies,
for every a > 0 with c(a) = 2a - 2 - a^2 ||g||^2 / (2B) > 0,

    E[M] <= (a^2 ||g||^2 + 2 a L) / c(a),

and :func:`rbp_expected_mistakes` takes the a that minimises it. Some a
qualifies exactly when ||g||^2 < B. With the toolkit's unit u and margin
gamma, g = u/gamma: ||g||^2 = 1/gamma^2, L = D1/gamma, and the condition is
gamma > 1/sqrt(B). Any kernel: with R^2 = max K(x_t, x_t), the run on K makes
the same mistakes (and draws the same slots) as the run on K / R^2, whose instances
meet K <= 1 and on which u has margin gamma/R and losses D1/R: the bound is the
above at gamma/R and D1/R, under gamma > R/sqrt(B). The bound is on the EXPECTATION
of the mistakes: one run may exceed it; the mean over many seeds may not (beyond its statistical
error). L runs over every trial in both variants: the proof's sum over the
mistakes is itself random, so a bound on E[M] cannot use the run's own.

The shifting form, against a sequence of comparators g_1, ..., g_T, is
``rbp_tracking`` of :mod:`.tracking` (theory §4.15), which ``evaluate`` reports
when given the sequence.

References
----------
G. Cavallanti, N. Cesa-Bianchi and C. Gentile, "Tracking the best hyperplane
with a simple budget Perceptron", Machine Learning 69 (2007) (not readable
here: the bound is proved on the theory page, §4.11, from the rule of §2.12).
"""

from __future__ import annotations

import numpy as np

from .declaration import Bound, GammaInterval, register_bound, register_provider
from .providers import FirstOrderQuantities


def rbp_expected_mistakes(gamma, D1, budget):
    """min over a of (a^2/gamma^2 + 2 a D1/gamma) / (2a - 2 - a^2/(2 B gamma^2)), inf for
    gamma <= 1/sqrt(B) (theory §4.11).

    The minimum is at a* = (U^2 + sqrt(U^4 + 2 L (U^2 + L V))) / (U^2 + L V),
    U^2 = 1/gamma^2, L = D1/gamma, V = U^2/(2B), the positive root of the
    derivative's numerator a^2 (U^2 + L V) - 2 a U^2 - 2 L.

    Parameters
    ----------
    gamma : float or ndarray
        Margin gamma > 0 of a unit comparator u (g = u/gamma).
    D1 : float or ndarray
        sum_t max(0, gamma - y_t u.x_t) over every trial.
    budget : int
        B >= 1.

    Returns
    -------
    ndarray or float

    Examples
    --------
    >>> round(float(rbp_expected_mistakes(0.5, 0.0, 100)), 4)
    8.3333
    """
    gamma = np.asarray(gamma, dtype=np.float64)
    D1 = np.asarray(D1, dtype=np.float64)
    U2 = 1.0 / (gamma * gamma)
    L = D1 / gamma
    V = U2 / (2.0 * budget)
    a = (U2 + np.sqrt(U2 * U2 + 2.0 * L * (U2 + L * V))) / (U2 + L * V)
    c = 2.0 * a - 2.0 - a * a * V
    value = (a * a * U2 + 2.0 * a * L) / np.where(c > 0.0, c, 1.0)
    return np.where((c > 0.0) & (gamma * gamma * budget > 1.0), value, np.inf)


class EveryTrialQuantities(FirstOrderQuantities):
    """The first-order quantities over every trial in both variants: a bound on the
    expectation of the mistakes reads no sum over the run's own (random) mistakes."""

    @classmethod
    def used_trials(cls, run):
        return np.arange(run.n_trials, dtype=np.int64)


register_provider("every_trial", EveryTrialQuantities)

def _scale(q):
    """R = sqrt(max K(x_t, x_t)) (1 when every instance is zero): the run on K is the run on
    K / R^2, whose instances have K <= 1 (theory §4.11, "Any kernel")."""
    return np.where(q.R > 0.0, q.R, 1.0)


RBP_EXPECTATION = register_bound(Bound(
    name="rbp_expectation", theory="§4.11", provider="every_trial", expectation=True,
    label=r"rbp_expectation $E[M] \leq \min_a \frac{a^2 R^2/\gamma^2 + 2 a D_1/\gamma}"
          r"{2a - 2 - a^2 R^2/(2B\gamma^2)}$",
    source="CCG07 (derived, theory §4.11)",
    value=lambda q, gamma: rbp_expected_mistakes(gamma / _scale(q), q.D1(gamma) / _scale(q),
                                                  q.params["budget"]),
    quantities=("R", "D1"),
    conditions=(
        GammaInterval(
            lambda q: (f"gamma > R/sqrt(B) = {_scale(q) / np.sqrt(q.params['budget']):.4g}: the "
                       f"norm condition ||g||^2 = R^2/gamma^2 < B = {q.params['budget']}"),
            low=lambda q: _scale(q) / np.sqrt(q.params["budget"])),
    ),
))
