"""Expected-mistake bounds of the selective-sampling algorithms (theory §4.13).

The algorithms draw (theory §2.14), so their mistakes are random: each bound
holds for their *expectation* over the draws (``Bound.expectation``), for any
unit u and any gamma > 0 fixed in advance. Notation: b > 0 the query parameter,
D1 = sum of the hinge losses max(0, gamma - y_t u.x_t), R = max ||x_t|| over
every trial, U the update trials (the queried mistakes), lambda_i the
eigenvalues of sum over U of x_t x_t^T (of the kernel Gram of the updated
instances for a kernel run), u_energy = sum over U of (u.x_t)^2.

* ``selective_perceptron``: E[m] <= (1 + R^2/(2b)) E[D1]/gamma + (2b + R^2)^2/(8 b gamma^2).
* ``selective_second_order`` (fixed a): E[m] <= E[D1]/gamma
  + (b/(2 gamma^2)) (a + E[u_energy]) + (1/(2b)) E[sum_i ln(1 + lambda_i/a)].

Stated: D1 over every trial (for the first-order bound: a number, since R is
too); tightened: D1 over U (theory §4.2), a random quantity whose expectation the
bound takes. The second-order bound's u_energy and eigenvalues run over U in both
variants. Both are proved on the theory page (§4.13) in our own words: the paper
could not be read here.

References
----------
N. Cesa-Bianchi, C. Gentile and L. Zaniboni, "Worst-case analysis of selective
sampling for linear classification", JMLR 7 (2006) 1205-1230.
"""

from __future__ import annotations

import numpy as np

from .declaration import Bound, register_bound, register_provider
from .providers import FirstOrderQuantities
from .spectra import update_spectrum
from .second_order import IN_RANGE, SpectrumQuantities, a_log_term


def selective_perceptron_bound(R, b, D1, gamma):
    """The selective-sampling Perceptron's bound on the expected mistakes (theory §4.13).

    Parameters
    ----------
    R : float
        max ||x_t|| over every trial (in the kernel's feature space: max sqrt K(x_t, x_t)).
    b : float
        The query parameter b > 0.
    D1 : float or ndarray
        Sum of the hinge losses max(0, gamma - y_t u.x_t), ||u|| = 1: over every trial
        (stated) or the expectation of the sum over the updated trials (tightened).
    gamma : float or ndarray
        Margin gamma > 0.

    Returns
    -------
    ndarray or float
        (1 + R^2/(2b)) D1/gamma + (2b + R^2)^2 / (8 b gamma^2).

    Notes
    -----
    Proved on the theory page (§4.13): the Perceptron's potential ||alpha u - w||^2
    drops on an update by at least 2 alpha (gamma - l_t) + 2 abs(p_t) - R^2; with
    alpha = (2b + R^2)/(2 gamma) the expected drop, weighted by the query probability
    b/(b + abs(p_t)), is 2b on every mistake, queried or not.

    Examples
    --------
    >>> float(selective_perceptron_bound(1.0, 0.5, 0.0, 1.0))
    1.0
    """
    D1 = np.asarray(D1, dtype=np.float64)
    gamma = np.asarray(gamma, dtype=np.float64)
    # ((2b + R^2) / gamma)^2, not (2b + R^2)^2 / gamma^2: R^4 overflows for R about 1e77 and up
    ratio = (2.0 * b + R * R) / gamma
    return (1.0 + R * R / (2.0 * b)) * D1 / gamma + ratio * ratio / (8.0 * b)


def selective_second_order_bound(eigenvalues, a, b, u_energy, D, gamma):
    """The selective-sampling Second-Order Perceptron's bound on the expected mistakes.

    Parameters
    ----------
    eigenvalues : array-like
        Eigenvalues lambda_i of sum over the updated trials of x_t x_t^T (the nonzero ones
        of their kernel Gram matrix).
    a : float
        The algorithm's parameter a > 0.
    b : float
        The query parameter b > 0.
    u_energy : float
        Sum over the updated trials of (u.x_t)^2, ||u|| = 1.
    D : float or ndarray
        Sum of the hinge losses (every trial: stated; the updated trials: tightened).
    gamma : float or ndarray
        Margin gamma > 0.

    Returns
    -------
    ndarray or float
        D/gamma + (b / (2 gamma^2)) (a + u_energy) + (1/(2b)) sum_i ln(1 + lambda_i/a);
        its expectation over the draws bounds the expected mistakes (theory §4.13).

    Notes
    -----
    Proved on the theory page (§4.13) from the Second-Order potential v^T A^{-1} v and
    z.v <= z^T A z / 2 + v^T A^{-1} v / 2 at z = (b/gamma) u. Minimised over b it is at
    least the Second-Order Perceptron's bound D/gamma + sqrt((a + u_energy)
    sum_i ln(1 + lambda_i/a))/gamma (theory §4.1).

    Examples
    --------
    >>> float(selective_second_order_bound([np.e - 1.0], 1.0, 0.5, 3.0, 0.0, 1.0))
    2.0
    """
    D = np.asarray(D, dtype=np.float64)
    gamma = np.asarray(gamma, dtype=np.float64)
    log_sum = a_log_term(eigenvalues, a) / a
    return D / gamma + b * (a + u_energy) / (2.0 * gamma**2) + log_sum / (2.0 * b)


class SelectiveQuantities(FirstOrderQuantities):
    """The first-order quantities with R over every trial in both variants: the proof fixes
    R before the draws (theory §4.13); D1 over every trial or the update trials."""

    which = {False: "every trial", True: "every update trial (a queried mistake)"}

    @classmethod
    def radius_trials(cls, run):
        return np.arange(run.n_trials)


class SelectiveSpectrumQuantities(SpectrumQuantities):
    """D, the eigenvalues of X_U X_U^T and u_energy over the update trials U (the queried
    mistakes), a and b (theory §4.13)."""

    scopes = {False: "all", True: "updates"}

    @classmethod
    def trials(cls, run) -> np.ndarray:
        """The update trials: the queried mistakes."""
        return run.update_trials

    @classmethod
    def spectrum(cls, ctx) -> dict:
        return {"eigenvalues": update_spectrum(ctx)}

    @classmethod
    def parameters(cls, run) -> dict:
        return {"a": float(run.params["a"]), "b": float(run.params["b"])}

    @classmethod
    def a_of_trials(cls, run, updates_before) -> np.ndarray:
        """The fixed a on every trial (the range check of theory §4.4, as the Second-Order's)."""
        return np.full(updates_before.shape, float(run.params["a"]))


register_provider("selective_first_order", SelectiveQuantities)
register_provider("selective_spectrum", SelectiveSpectrumQuantities)

SELECTIVE_PERCEPTRON = register_bound(Bound(
    name="selective_perceptron", label="selective_perceptron (E[m], sel. sampling)",
    provider="selective_first_order", theory="§4.13", expectation=True,
    source="CGZ06 selective Perceptron (derived, theory §4.13)",
    value=lambda q, gamma: selective_perceptron_bound(q.R, float(q.params["b"]), q.D1(gamma),
                                                      gamma),
    quantities=("R", "D1")))

SELECTIVE_SECOND_ORDER = register_bound(Bound(
    name="selective_second_order", label="selective_second_order (E[m], sel. sampling)",
    provider="selective_spectrum", theory="§4.13", expectation=True,
    source="CGZ06 selective Second-Order (derived, theory §4.13)",
    value=lambda q, gamma: selective_second_order_bound(q.eigenvalues, q.a, q.b, q.u_energy,
                                                        q.D(gamma), gamma),
    quantities=("D", "u_energy", "a", "b"), conditions=(IN_RANGE,)))
