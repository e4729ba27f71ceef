"""Mistake bounds of the Projectron and Projectron++ (derived, theory §4.12).

The paper (Orabona, Keshet, Caputo, JMLR 2009) could not be read here; the
bounds below are proved on the theory page (§4.12) for the rule the toolkit
runs (theory §2.13). For a unit comparator u of the kernel's space and a
margin gamma > 0, with hinge losses l_t = max(0, gamma - y_t u(x_t)), every
mistake's update vector v_t (phi_t, or its projection P phi_t) has
y_t <u, v_t> >= gamma - l_t - delta_t (delta_t = 0 when the instance is added)
and ||v_t|| <= ||phi_t|| <= R. So the mistakes m satisfy

* m gamma - D1 - Delta <= R sqrt(m) and m gamma - Delta <= (R + D2) sqrt(m),

Delta = sum of delta_t over the projected mistakes. Tightened (theory §4.2):
Delta as the run recorded it, D1, D2 and R over the update trials (R over the
mistakes). Stated: every projected delta_t is at most eta_hat = max(eta, the
largest projected delta_t) (eta itself but for an instance in the span up to
rounding), so Delta <= eta_hat m and gamma becomes gamma - eta_hat, with D1 and
D2 over all trials; it needs gamma > eta_hat. The Projectron++'s margin-error
updates add nothing to the D1 bound when the scale lambda of its comparator
lambda u lies in [1/gamma, 1/eta] (theory §4.12): the bound is then
min over that range of (lambda^2 + 2 lambda (D1 + Delta)) / (2 lambda gamma - R^2),
which needs gamma > eta max(1, R^2 / 2) (tightened) or
gamma > eta_hat + eta R^2 / 2 (stated). No D2 bound is proved for the ++.
"""

from __future__ import annotations

import numpy as np

from .declaration import Bound, GammaInterval, register_bound, register_provider
from .providers import FirstOrderQuantities


def _root(a, b, c):
    """((b + sqrt(b^2 + 4 a c)) / (2 a))^2: the largest m with a m - b sqrt(m) - c <= 0 (a > 0).

    Computed as (h + sqrt(h^2 + c / a))^2 with h = b / (2 a), so that no square of a large
    b (or product a c) overflows before the bound itself does.
    """
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        h = b / (2.0 * a)
        return (h + np.sqrt(h * h + c / a)) ** 2


def projectron_bound(R, gamma, D, Delta=0.0, low=0.0, high=np.inf):
    """The Projectron's mistake bound from a D1-type loss (derived, theory §4.12).

    Parameters
    ----------
    R : float or ndarray
        max sqrt(K(x_t, x_t)) over the trials (the mistakes, tightened).
    gamma : float or ndarray
        The margin, gamma - eta_hat for the stated form (> 0 where it applies).
    D : float or ndarray
        sum of the hinge losses max(0, gamma - y_t u(x_t)) of a unit comparator.
    Delta : float or ndarray, default=0.0
        sum of the projection errors delta_t of the projected mistakes (0 stated).
    low, high : float or ndarray, default 0 and inf
        The range [1/gamma, 1/eta] of the comparator's scale lambda for the
        Projectron++ (the plain Projectron: any lambda > 0).

    Returns
    -------
    ndarray or float
        min over lambda in [low, high] with 2 lambda gamma > R^2 of
        (lambda^2 + 2 lambda (D + Delta)) / (2 lambda gamma - R^2); inf where no
        lambda qualifies. Its unconstrained minimum is
        ((R + sqrt(R^2 + 4 gamma (D + Delta))) / (2 gamma))^2.

    Notes
    -----
    Theory §4.12: sum_t (||f_t - lambda u||^2 - ||f_{t+1} - lambda u||^2) <= lambda^2,
    and a mistake adds at least 2 lambda (gamma - l_t - delta_t) - R^2 to that sum;
    a Projectron++ margin-error update adds at least -2 lambda l_t when
    1/gamma <= lambda <= 1/eta.

    Examples
    --------
    >>> float(projectron_bound(1.0, 0.5, 0.0))
    4.0
    >>> float(projectron_bound(1.0, 0.5, 0.0, low=1.0, high=1.5))  # lambda* = 2, clipped
    4.5
    >>> float(projectron_bound(1.0, 0.5, 0.0, low=0.5, high=0.9))  # no 2 lambda gamma > R^2
    inf
    """
    R, gamma, D, Delta, low, high = np.broadcast_arrays(*(
        np.asarray(v, dtype=np.float64) for v in (R, gamma, D, Delta, low, high)))
    c = D + Delta
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        # in units of S = max(R, gamma) (lambda = S mu, ...), so that no R^2 overflows
        S = np.maximum(R, gamma)
        r, g, c_s = R / S, gamma / S, c / S
        best = (r * r + np.sqrt(r**4 + 4.0 * g * r * r * c_s)) / (2.0 * g)
        mu = np.clip(best, low / S, high / S)
        denominator = 2.0 * mu * g - r * r
        clipped = np.where(denominator > 0.0, (mu * mu + 2.0 * mu * c_s) / denominator, np.inf)
        free = (best >= low / S) & (best <= high / S)
        value = np.where(free, _root(gamma, R, c), clipped)
        # R = 0: (lambda^2 + 2 lambda c) / (2 lambda gamma) is least at lambda = low
        flat = low / (2.0 * gamma) + c / gamma
        out = np.where(R > 0.0, value, flat)
    return np.where(gamma > 0.0, out, np.inf)[()]


def projectron_d2(R, gamma, D2, Delta=0.0):
    """The Projectron's mistake bound from D2 (derived, theory §4.12), the plain Projectron only.

    Parameters
    ----------
    R : float or ndarray
        max sqrt(K(x_t, x_t)) over the trials (the mistakes, tightened).
    gamma : float or ndarray
        The margin, gamma - eta_hat for the stated form (> 0 where it applies).
    D2 : float or ndarray
        sqrt of the sum of the squared hinge losses of a unit comparator.
    Delta : float or ndarray, default=0.0
        sum of the projected mistakes' delta_t (0 stated).

    Returns
    -------
    ndarray or float
        ((R + D2 + sqrt((R + D2)^2 + 4 gamma Delta)) / (2 gamma))^2, the
        Freund-Schapire bound ((R + D2) / gamma)^2 for Delta = 0.

    Examples
    --------
    >>> float(projectron_d2(1.0, 0.5, 0.5))
    9.0
    """
    R, gamma, D2, Delta = (np.asarray(v, dtype=np.float64) for v in (R, gamma, D2, Delta))
    return np.where(gamma > 0.0, _root(gamma, R + D2, Delta), np.inf)[()]


class ProjectronQuantities(FirstOrderQuantities):
    """The first-order quantities with those of the Projectron's bounds (theory §4.12).

    R is taken over the mistakes (tightened), D1 and D2 over the update trials;
    besides them: ``eta``, ``plus``, ``Delta`` (sum of the projected mistakes'
    delta_t) and ``eta_hat`` (max of eta and those delta_t).
    """

    @classmethod
    def radius_trials(cls, run):
        """The mistakes: R enters the proof through the mistakes' update vectors only."""
        return run.mistake_trials

    @classmethod
    def _projected(cls, run):
        """(trials, delta_t) of the projected mistakes."""
        state = run.state
        updates = run.update_trials
        projected = ~state["added"] & ~np.isin(updates, run.margin_error_trials)
        return updates[projected], state["delta"][projected]

    @classmethod
    def _extras(cls, q, run):
        q.eta = float(run.params["eta"])
        q.plus = bool(run.params["plus"])
        return q

    @classmethod
    def whole(cls, ctx, comp, tightened):
        q = cls._extras(super().whole(ctx, comp, tightened), ctx.run)
        _, deltas = cls._projected(ctx.run)
        q.Delta = float(deltas.sum())
        q.eta_hat = max(q.eta, float(deltas.max(initial=0.0)))
        q.common.update(eta=q.eta, eta_hat=q.eta_hat, Delta=q.Delta)
        return q

    @classmethod
    def prefixes(cls, ctx, comp, gamma, tightened):
        pieces = super().prefixes(ctx, comp, gamma, tightened)
        run = ctx.run
        trials, deltas = cls._projected(run)
        per_trial = np.zeros(run.n_trials)
        per_trial[trials] = deltas
        for q, _, _ in pieces:
            cls._extras(q, run)
            q.Delta = np.cumsum(per_trial)
            q.eta_hat = np.maximum.accumulate(np.maximum(per_trial, q.eta))
        return pieces


register_provider("projection", ProjectronQuantities)


def _scale_range(q, gamma):
    """[1/gamma, 1/eta] for the Projectron++ (theory §4.12), (0, inf) for the Projectron."""
    if not q.plus:
        return 0.0, np.inf
    with np.errstate(divide="ignore"):
        return 1.0 / np.asarray(gamma, dtype=np.float64), np.divide(1.0, q.eta)


def _d1_value(q, gamma):
    low, high = _scale_range(q, gamma)
    if q.tightened:
        return projectron_bound(q.R, gamma, q.D1(gamma), q.Delta, low, high)
    return projectron_bound(q.R, np.asarray(gamma) - q.eta_hat, q.D1(gamma), 0.0, low, high)


def _d1_low(q):
    """The least gamma (excluded) of the D1 bound: eta_hat (+ eta R^2/2 for the ++) stated;
    0, or eta max(1, R^2/2) for the ++, tightened (inf where eta R^2 overflows)."""
    with np.errstate(over="ignore"):
        spread = q.eta * np.maximum(1.0, q.R * q.R / 2.0) if q.plus else 0.0
        if q.tightened:
            return spread + 0.0 * q.eta_hat
        return q.eta_hat + (q.eta * q.R * q.R / 2.0 if q.plus else 0.0)


def _d1_text(q) -> str:
    if q.tightened and not q.plus:
        return "gamma > 0"
    if q.tightened:
        return (f"gamma > eta max(1, R^2/2) = {float(np.max(_d1_low(q))):.4g} (the ++'s scale "
                "range [1/gamma, 1/eta] must allow 2 lambda gamma > R^2)")
    extra = " + eta R^2/2" if q.plus else ""
    return (f"gamma > eta_hat{extra} = {float(np.max(_d1_low(q))):.4g} (eta_hat = max(eta, the "
            "projected delta_t))")


PROJECTRON_D1 = register_bound(Bound(
    name="projectron_d1", label=r"projectron_d1 $((R + \sqrt{R^2 + 4 \gamma' D_1'})/2\gamma')^2$",
    provider="projection", theory="§4.12",
    source=lambda q: f"Projectron{'++' if q.plus else ''} (derived, theory §4.12)",
    value=_d1_value, quantities=("R", "D1", "eta", "eta_hat", "Delta"),
    conditions=(GammaInterval(_d1_text, low=_d1_low),)))

PROJECTRON_D2 = register_bound(Bound(
    name="projectron_d2", label=r"projectron_d2 $((R + D_2)/(\gamma - \hat\eta))^2$",
    provider="projection", theory="§4.12", source="Projectron (derived, theory §4.12)",
    value=lambda q, gamma: (projectron_d2(q.R, gamma, q.D2(gamma), q.Delta) if q.tightened
                            else projectron_d2(q.R, np.asarray(gamma) - q.eta_hat, q.D2(gamma))),
    quantities=("R", "D2", "eta", "eta_hat", "Delta"),
    conditions=(GammaInterval(lambda q: "gamma > 0" if q.tightened else
                              f"gamma > eta_hat = {float(np.max(q.eta_hat)):.4g} (eta_hat = "
                              "max(eta, the projected delta_t))",
                              low=lambda q: 0.0 * q.eta_hat if q.tightened else q.eta_hat),),
    applies=lambda params: not params.get("plus", False)))
