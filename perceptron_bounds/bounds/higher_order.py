"""Mistake bound of the Higher-Order Perceptron HO_p(c) (paper 000, Theorem 1; p > 2 derived).

Its quantities (:class:`TransformedQuantities`, the provider
``"transformed_mistakes"``) are the hinge losses of u on the transformed mistaken
instances, the constant c and the radius of the transformed sequence; on the
prefixes of a run they are arrays over the number of mistakes k.

References
----------
C. Brotto, C. Gentile and F. Vitale, "On higher-order Perceptron algorithms",
NIPS 2007 (paper 000), sec. 3.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_real
from ..registry import get as get_algorithm
from ..run import OnlineRun
from .declaration import Bound, Quantities, Requirement, register_bound, register_provider
from .pnorm import smooth_radius
from .providers import at_gamma, hinge, is_trial, top_margin
from .quantities import HingeProfile, RunData
from .search import unit_comparator
from .transformed import transformed_margins, transformed_norms

# |1 - ||x||| above this means "not a unit instance" for the Higher-Order bound.
UNIT_NORM_ATOL = 1e-9
# The tolerance of the stated step condition rho_k <= (1 - c')/(1 + |v.x|).
SLACK_ATOL = 1e-12


def hop_alpha(c):
    """alpha(c) = (2 - c) / c, for c in (0, 1] (paper 000, Theorem 1).

    Examples
    --------
    >>> float(hop_alpha(1.0))
    1.0
    """
    c = np.asarray(c, dtype=np.float64)
    return (2.0 - c) / c


def higher_order_bound(alpha, D, gamma, *, p=2.0, radius=1.0):
    """Higher-Order Perceptron bound of paper 000, Theorem 1 (eq. 2), and its p > 2 form.

    Parameters
    ----------
    alpha : float
        alpha(c) = (2 - c)/c, see :func:`hop_alpha`.
    D : float or ndarray
        Hinge loss of u on the transformed sequence:
        sum_k max(0, gamma - y_{t(k)} u^T B_{k-1} x_{t(k)}) over the mistakes.
    gamma : float or ndarray
        Margin gamma > 0.
    p : float, default=2.0
        The norm parameter p >= 2 of HO_p(c); u then has ||u||_q = 1, q = p/(p - 1).
    radius : float, default=1.0
        An upper bound on the p-norms ||B_{k-1} x_{t(k)}||_p of the transformed
        mistaken instances (1 for p = 2 and unit instances, as Theorem 1 uses).

    Returns
    -------
    ndarray or float
        With b = alpha sqrt(p - 1) radius (b = alpha for p = 2, radius = 1):
        alpha D/gamma + b^2/(2 gamma^2) + (b/gamma) sqrt(alpha D/gamma + b^2/(4 gamma^2)).

    Notes
    -----
    Conditions (Theorem 1, stated for p = 2): ||x_t|| = 1 and
    0 <= rho_k <= (1 - c)/(1 + |v_{k-1}.x_t|) with c in (0, 1]. The proof
    only needs c <= r_k <= 2 - c with r_k = 1 - rho_k (1 + y_t v_{k-1}.x_t)
    (theory §4.2), and the value is the exact root of its quadratic in sqrt(m):
    gamma m - alpha sqrt(m) - alpha D <= 0. With c = 1 (alpha = 1, rho = 0) it
    is the Perceptron's bound on D1 in exact form.

    For p > 2 (derived, theory §4.1): B_k v_k = B_{k-1} v_{k-1} + r_k y_t z_k with
    z_k = B_{k-1} x_{t(k)}, and the (p - 1)-smoothness of ||.||_p^2 / 2 gives
    ||B_m v_m||_p^2 <= (p - 1) sum_k r_k^2 ||z_k||_p^2; Hölder's inequality with
    ||u||_q = 1 then leads to gamma m - b sqrt(m) - alpha D <= 0. The factors
    I - rho x g(x)^T are not contractions in the p-norm, so ``radius`` is the
    run's own max_k ||z_k||_p rather than 1.

    Examples
    --------
    >>> float(higher_order_bound(1.0, 0.0, 1.0))
    1.0
    """
    alpha = np.asarray(alpha, dtype=np.float64)
    D = np.asarray(D, dtype=np.float64)
    gamma = np.asarray(gamma, dtype=np.float64)
    b = alpha * smooth_radius(radius, p)
    first = alpha * D / gamma
    quarter = b**2 / (4.0 * gamma**2)
    return first + 2.0 * quarter + (b / gamma) * np.sqrt(first + quarter)


def hop_transformed_hinge(run, X, y, u, gamma) -> float:
    """D of paper 000, Thm 1: the hinge loss of u on the transformed mistaken instances.

    D = sum_k max(0, gamma - y_{t(k)} u^T B_{k-1} x_{t(k)}) over the mistakes of a
    Higher-Order run (the transformed sequence S~_c of paper 000, eq. 1).

    Parameters
    ----------
    run : OnlineRun
        A ``"higher_order"`` run with a linear kernel.
    X, y : array-like
        The training data of the run.
    u : ndarray of shape (n_features,)
        The comparator, scaled to unit norm here (to unit q-norm, q = p / (p - 1),
        when p > 2; theory §4.1).
    gamma : float
        Margin gamma > 0.

    Returns
    -------
    float
        D (0 for a run without mistakes).

    Examples
    --------
    >>> from perceptron_bounds import run_online
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> run = run_online("higher_order", X, [1, -1], c=0.5)
    >>> round(hop_transformed_hinge(run, X, [1, -1], np.array([1.0, -1.0]), 1.0), 6)
    0.585786
    """
    if not isinstance(run, OnlineRun) or not get_algorithm(run.algorithm).transformed_sequence:
        raise ValueError("hop_transformed_hinge needs a 'higher_order' run")
    data = RunData(run, X, y)
    gamma = check_real("gamma", gamma, low=0.0, include_low=False)
    u = unit_comparator(u, run.n_features, "given", data.kernel, q=data.q).u
    if not data.m:
        return 0.0
    return float(HingeProfile(transformed_margins(run, data.X_raw, data.y_raw, u)).d1(gamma))


def hop_c_run(run) -> float:
    """c_run = min_k min(r_k, 2 - r_k) of a Higher-Order run (theory §4.2).

    r_k = 1 - rho_k (1 + y_t v_{k-1}.x_t) is recorded by the run
    (``run.state["r"]``). The proof of paper 000, Thm 1 needs only
    c <= r_k <= 2 - c, so the bound holds with c = c_run when c_run > 0; 1
    for a run without mistakes.
    """
    r_k = np.asarray(run.state["r"], dtype=np.float64)
    return float(np.min(np.minimum(r_k, 2.0 - r_k), initial=1.0))


def hop_step_terms(run) -> np.ndarray:
    """rho_k (1 + |g(x_t).v_{k-1}|) at each mistake of a Higher-Order run (theory §4.1).

    Theorem 1 of paper 000 asks rho_k (1 + |v_{k-1}.x_t|) <= 1 - c (p = 2;
    g(x_t).v_{k-1} for p > 2, derived). For p = 2 the run records
    y_t v_{k-1}.x_t (``state["y_v_x"]``); for p > 2 the term is read off the
    recorded r_k = 1 - rho_k (y_t g(x_t).v_{k-1} + g(x_t).x_t) with
    g(x_t).x_t = ||x_t||_p^2 = 1 (unit instances, which the theorem assumes):
    rho_k |g(x_t).v_{k-1}| = |1 - rho_k - r_k|, with no division by rho_k.
    """
    rho = np.asarray(run.state["rho"], dtype=np.float64)
    if run.params["p"] == 2.0:
        return rho * (1.0 + np.abs(run.state["y_v_x"]))
    return rho + np.abs(1.0 - rho - np.asarray(run.state["r"], dtype=np.float64))


class TransformedQuantities(Quantities):
    """D (a function of gamma) over the transformed mistakes, c, alpha = (2 - c)/c, p, the
    radius, and what the conditions of Theorem 1 read: ``unit_off`` (max | ||x|| - 1 | over
    the mistakes, 0 with ``normalize=True``) and ``slack`` (max_k rho_k (1 + |v.x|) - (1 - c'),
    the stated schedule rho_k = c/k only; -inf otherwise)."""

    leading = ("D",)

    @classmethod
    def norm_exponent(cls, run) -> float:
        return float(run.params.get("p", 2.0))

    @classmethod
    def margins(cls, ctx, comp) -> np.ndarray:
        """y_t u^T B_{k-1} x_{t(k)} over the mistakes
        (:func:`~.transformed.transformed_margins`)."""
        return transformed_margins(ctx.run, ctx.X_raw, ctx.y_raw,
                                   comp.u if comp.u is not None else comp.values)

    @classmethod
    def transformed_norms(cls, ctx) -> np.ndarray:
        """||B_{k-1} x_{t(k)}||_p over the mistakes (:func:`~.transformed.transformed_norms`),
        computed once per :class:`~.quantities.RunData`."""
        return ctx.cached("transformed_norms",
                          lambda: transformed_norms(ctx.run, ctx.X_raw, ctx.y_raw))

    @classmethod
    def _texts(cls, ctx) -> dict:
        p = cls.norm_exponent(ctx.run)
        return {"p": p, "gv": "|v.x|" if p == 2.0 else "|g(x).v|",
                "norm_name": "norm" if p == 2.0 else "p-norm",
                "norm": "||x||" if p == 2.0 else "||x||_p"}

    @classmethod
    def whole(cls, ctx, comp, tightened):
        run = ctx.run
        params, texts = run.params, cls._texts(ctx)
        unit_off, norm_range = 0.0, (1.0, 1.0)
        p = cls.norm_exponent(run)
        norms = ctx.p_norms(p)[ctx.rows_mistakes]
        if not params["normalize"] and norms.size:
            unit_off, norm_range = float(np.max(np.abs(norms - 1.0))), (norms.min(), norms.max())
        margins, radius = np.zeros(0), 1.0
        if not run.warm_started and unit_off <= UNIT_NORM_ATOL and ctx.m:
            margins = cls.margins(ctx, comp)
            if p != 2.0:
                radius = float(cls.transformed_norms(ctx).max())
        profile = HingeProfile(margins)
        step = hop_step_terms(run)
        slack, slack_at = -np.inf, None
        if tightened:
            c = hop_c_run(run)
            what = f"c_run = min_k min(r_k, 2 - r_k) = {c:.6g}"
        elif params["rho"] is None:
            c = 1.0 - params["c"]
            what = f"c' = 1 - c = {c:.6g} (schedule rho_k = c/k, theory §4.2)"
            if step.size:
                slack, slack_at = float(np.max(step - (1.0 - c))), int(np.argmax(step - (1.0 - c)))
        else:
            c = float(np.min(1.0 - step, initial=1.0))
            what = f"c = min_k 1 - rho_k (1 + {texts['gv']}) = {c:.6g}"
        alpha = float(hop_alpha(c)) if c > 0 else np.inf
        extra = {} if p == 2.0 else {"p": p, "transformed_R_p": radius}
        return cls(tightened=tightened, D=profile.d1, c=c, alpha=alpha, radius=radius,
                   unit_off=unit_off, norm_range=norm_range, slack=slack, slack_at=slack_at,
                   c_text=what, margins=profile.margins, scale=max(radius, top_margin(profile)),
                   common={"trials": "transformed mistakes", "alpha": alpha, "c": c, **extra},
                   **texts)

    @classmethod
    def prefixes(cls, ctx, comp, gamma, tightened):
        run = ctx.run
        params, m, p = run.params, ctx.m, cls.norm_exponent(run)
        unit_off = np.zeros(m + 1)  # per number of mistakes k = 0..m
        if not params["normalize"]:
            unit_off[1:] = np.maximum.accumulate(np.abs(ctx.p_norms(p)[ctx.rows_mistakes] - 1.0))
        margins, radius = np.zeros(0), np.ones(m + 1)
        if m:
            margins = cls.margins(ctx, comp)
            if p != 2.0:
                radius = np.maximum.accumulate(np.concatenate(([0.0],
                                                               cls.transformed_norms(ctx))))
        step = hop_step_terms(run)
        slack = np.full(m + 1, -np.inf)
        if tightened:
            r_k = np.asarray(run.state["r"], dtype=np.float64)
            c = np.minimum.accumulate(np.concatenate(([1.0], np.minimum(r_k, 2.0 - r_k))))
        elif params["rho"] is None:
            c = np.full(m + 1, 1.0 - params["c"])
            slack[1:] = np.maximum.accumulate(step - (1.0 - c[0]))
        else:
            c = np.minimum.accumulate(np.concatenate(([1.0], 1.0 - step)))
        q = cls(tightened=tightened, c=c, alpha=hop_alpha(np.where(c > 0.0, c, 1.0)),
                radius=radius, unit_off=unit_off, slack=slack,
                D=at_gamma(np.concatenate(([0.0], np.cumsum(hinge(margins, gamma))))),
                **cls._texts(ctx))
        return [(q, slice(None), np.cumsum(is_trial(run, run.mistake_trials)))]

    @classmethod
    def memory(cls, run, sparse) -> list:
        m, n, params = run.mistakes, run.n_features, run.params
        a = run.state["factor_rho"].shape[0] if "factor_rho" in run.state else m
        shapes = []
        if params.get("kernel", "linear") != "linear":
            shapes.append((4, a, m, "the kernel values of the factors against the mistakes"))
        elif params["form"] == "implicit" and params["p"] != 2.0:
            shapes.append((1, a, n, "the p-norm link of the factors"))
        return shapes + ([] if sparse else [(1, m, n, "the mistaken rows")])


register_provider("transformed_mistakes", TransformedQuantities)

HIGHER_ORDER = register_bound(Bound(
    name="higher_order", label="higher_order (HO, Thm 1)", provider="transformed_mistakes",
    source=lambda q: "000 Thm 1" + ("" if q.p == 2.0 else ", p > 2 (derived)"),
    value=lambda q, gamma: higher_order_bound(q.alpha, q.D(gamma), gamma, p=q.p,
                                              radius=q.radius),
    quantities=("D", "alpha", "c"),
    conditions=(
        Requirement(lambda q: q.unit_off <= UNIT_NORM_ATOL,
                    lambda q: f"instances without unit {q.norm_name} (normalize=False; {q.norm} "
                              f"of the mistakes in [{q.norm_range[0]:.6g}, "
                              f"{q.norm_range[1]:.6g}])"),
        Requirement(lambda q: q.slack <= SLACK_ATOL,
                    lambda q: f"rho_k <= (1 - c')/(1 + {q.gv}) fails at mistake {q.slack_at}"),
        Requirement(lambda q: q.c > 0.0, lambda q: f"{q.c_text} <= 0"),
    )))
