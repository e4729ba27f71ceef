"""The mistake bound of AROW with the log-determinant term (derived, theory §4.9).

The AROW paper (Crammer, Kulesza, Dredze, NIPS 2009) could not be read here;
the bound below is proved on the theory page (§4.9) in our own words. Let A be
the run's update trials (mistakes and margin errors), X_A their instances,
lambda_i the eigenvalues of X_A X_A^T (the nonzero ones of their Gram matrix;
the kernel Gram for a kernel run), U the number of margin errors and, for a
unit u and gamma > 0, D = sum of max(0, gamma - y_t u.x_t) and
u_energy = sum over A of (u.x_t)^2. Then the number of mistakes is

    m <= D/gamma + (1/gamma) sqrt((r + u_energy) (sum_i ln(1 + lambda_i/r) + Q)) - U,

with Q = sum over the margin errors of r m_t (2 - m_t) / (chi_t + r) <= U,
m_t = y_t mu_t.x_t and chi_t = x_t^T Sigma_t x_t as the run recorded them
(``run.state["m"]``, ``run.state["chi"]``). Stated (theory §4.1): D over all
trials and Q replaced by U; tightened (theory §4.2): D over the update trials and
the run's own Q. The quantities are the Second-Order bound's
(``SpectrumQuantities`` of the ``second_order`` module, with a = r) over the update trials
instead of the mistakes. No bound is proved for the diagonal variant: it is
reported not applicable.
"""

from __future__ import annotations

import numpy as np

from .declaration import Bound, Requirement, register_bound, register_provider
from .spectra import mistake_spectrum
from .second_order import SpectrumQuantities, a_log_term, combine_root


def arow_q(m, chi, r) -> float:
    """Q = sum over the margin errors (0 < m_t < 1) of r m_t (2 - m_t) / (chi_t + r).

    Parameters
    ----------
    m, chi : array-like
        y_t mu_t . x_t and x_t^T Sigma_t x_t on each update trial (mistakes,
        m_t <= 0, add nothing).
    r : float
        AROW's parameter r > 0.

    Returns
    -------
    float
        Q, at most the number of margin errors (theory §4.9).

    Examples
    --------
    >>> arow_q([-0.5, 0.5], [1.0, 1.0], 1.0)
    0.375
    """
    m = np.asarray(m, dtype=np.float64)
    chi = np.asarray(chi, dtype=np.float64)
    errors = m > 0.0
    m, chi = m[errors], chi[errors]
    return float(np.sum(r * m * (2.0 - m) / (chi + r)))


def arow_bound(eigenvalues, r, u_energy, Q, U, D, gamma):
    """AROW mistake bound with the log-determinant term (derived, theory §4.9).

    Parameters
    ----------
    eigenvalues : array-like
        Eigenvalues lambda_i of X_A X_A^T (or of the kernel Gram of the updates).
    r : float
        AROW's parameter r > 0.
    u_energy : float
        sum over the update trials of (u.x_t)^2 (in a kernel space f(x_t)^2).
    Q : float
        sum over the margin errors of r m_t (2 - m_t) / (chi_t + r) (tightened),
        or U (stated).
    U : float
        Number of margin errors.
    D : float or ndarray
        Sum of the hinge losses max(0, gamma - y_t u.x_t) (over all trials as
        stated; over the update trials tightened).
    gamma : float or ndarray
        Margin gamma > 0.

    Returns
    -------
    ndarray or float
        D/gamma + (1/gamma) sqrt((r + u_energy)(sum_i ln(1 + lambda_i/r) + Q)) - U.

    Notes
    -----
    Proved on the theory page (§4.9): with Sigma_t^{-1} = I + X X^T / r and
    v_t = Sigma_t^{-1} mu_t = (1/r) sum of y x over the past updates, the potential
    v^T Sigma v grows on an update by (2 m_t - m_t^2)/(chi_t + r) +
    chi_t/(r (chi_t + r)), where the first term is <= 0 on a mistake and
    chi/(chi + r) <= ln(det Sigma_{t+1}^{-1} / det Sigma_t^{-1}); Cauchy-Schwarz
    against the comparator u/gamma bounds the number of updates, m + U.

    Examples
    --------
    >>> float(arow_bound([np.e - 1.0], 1.0, 3.0, 0.0, 0, 0.0, 1.0))
    2.0
    """
    # (r + E)(L + Q) = (1 + E/r)(r L + r Q): no underflow of lambda/r
    log_term = a_log_term(eigenvalues, r) + r * Q
    return combine_root(D, gamma, (1.0 + u_energy / r) * log_term) - U


class UpdateSpectrumQuantities(SpectrumQuantities):
    """The AROW bound's quantities: D, the eigenvalues of X_A X_A^T, u_energy over the
    update trials A, and r, Q, U, diagonal (theory §4.9)."""

    scopes = {False: "all", True: "updates"}

    @classmethod
    def trials(cls, run) -> np.ndarray:
        """The update trials: mistakes and margin errors."""
        return run.update_trials

    @classmethod
    def spectrum(cls, ctx) -> dict:
        if ctx.run.params["diagonal"]:  # not applicable: no spectrum needed
            return {"eigenvalues": np.zeros(0)}
        return {"eigenvalues": mistake_spectrum(ctx.X[ctx.rows_updates], ctx.kernel)}

    @classmethod
    def parameters(cls, run) -> dict:
        return cls.parameters_at(run, run.n_updates)

    @classmethod
    def parameters_at(cls, run, k) -> dict:
        params = run.params
        r = float(params["r"])
        m = np.asarray(run.state["m"][:k], dtype=np.float64)
        return {"r": r, "diagonal": bool(params["diagonal"]), "U": int(np.sum(m > 0.0)),
                "Q": arow_q(m, run.state["chi"][:k], r)}


register_provider("update_spectrum", UpdateSpectrumQuantities)


AROW = register_bound(Bound(
    name="arow", label="arow (AROW, log-det)", provider="update_spectrum", theory="§4.9",
    source="AROW (derived, theory §4.9)",
    value=lambda q, gamma: arow_bound(q.eigenvalues, q.r, q.u_energy,
                                      q.Q if q.tightened else q.U, q.U, q.D(gamma), gamma),
    quantities=("D", "u_energy", "r", "Q", "U"),
    conditions=(Requirement(
        holds=lambda q: not q.diagonal,
        reason="no mistake bound is proved for diagonal AROW (theory §4.9)"),)))
