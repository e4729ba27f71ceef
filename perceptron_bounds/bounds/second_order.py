"""Mistake bounds of the Second-Order Perceptron (paper 003, Thms 1, 3, 4 and Cor. 1).

The bounds are implicit in m: X_m holds the run's own m mistaken instances,
so each right-hand side is evaluated on the run and compared with m.
Closed forms, vectorised over arrays of ``gamma`` (and of D, which depends
on gamma). Their quantities (:class:`SpectrumQuantities`, the provider
``"mistake_spectrum"``; :class:`SpanQuantities`, ``"span_spectrum"``, for the
pseudoinverse) change only at a mistake, so on the prefixes of a run they are
evaluated once per number of mistakes k, with X_k the first k mistakes.

Notation: for a unit u and gamma > 0, D = sum of the hinge losses
max(0, gamma - y_t u.x_t) (over all trials as printed, over the mistaken
trials in the proofs, theory §4.2); lambda_i the eigenvalues of X_m X_m^T
(equal to the nonzero eigenvalues of the m x m Gram of the mistakes);
u_energy = u^T X_m X_m^T u = sum over mistakes of (u.x_t)^2 (in a kernel
space: sum of f(x_t)^2 for f of unit norm, paper 003 Cor. 1).

References
----------
N. Cesa-Bianchi, A. Conconi and C. Gentile, "A second-order Perceptron
algorithm", SIAM J. Computing 34 (2005) (paper 003).
"""

from __future__ import annotations

import numpy as np

from .declaration import Bound, Quantities, Requirement, register_bound, register_provider
from .providers import at_gamma, hinge, is_trial, top_margin
from .quantities import HingeProfile
from .spectra import (
    coordinate_spectrum,
    mistake_spectrum,
    projected_values,
    span_coordinates,
    span_spectrum,
)


def a_log_term(eigenvalues, a):
    """a sum_i ln(1 + lambda_i / a), as sum_i lambda_i h(lambda_i / a) with h(x) = ln(1 + x) / x.

    h(0) = 1 is its limit, so an eigenvalue far below a (lambda_i / a underflows to 0)
    still adds lambda_i instead of nothing; zero eigenvalues add nothing.
    """
    lam = np.maximum(np.asarray(eigenvalues, dtype=np.float64).ravel(), 0.0)
    x = lam / a
    h = np.ones_like(x)
    np.divide(np.log1p(x), x, out=h, where=x > 0.0)
    return float(np.sum(lam * h))


def combine_root(D, gamma, energy_times_log):
    """D/gamma + sqrt(energy_times_log)/gamma: the shape of the second-order bounds (and AROW's)."""
    D = np.asarray(D, dtype=np.float64)
    gamma = np.asarray(gamma, dtype=np.float64)
    return D / gamma + np.sqrt(energy_times_log) / gamma


def second_order_bound(eigenvalues, a, u_energy, D, gamma):
    """Second-order Perceptron bound with a fixed parameter a > 0.

    Parameters
    ----------
    eigenvalues : array-like
        Eigenvalues lambda_i of X_m X_m^T (or of the kernel Gram of the mistakes).
    a : float
        The algorithm's parameter a > 0.
    u_energy : float
        u^T X_m X_m^T u = sum over the mistaken trials of (u.x_t)^2.
    D : float or ndarray
        Sum of the hinge losses (over all trials as stated; over the mistaken
        trials in the tightened variant).
    gamma : float or ndarray
        Margin gamma > 0.

    Returns
    -------
    ndarray or float
        D/gamma + (1/gamma) sqrt((a + u_energy) sum_i ln(1 + lambda_i/a)).

    Notes
    -----
    Paper 003, Theorem 1 (and Cor. 1 for the kernel version, with the
    eigenvalues of the kernel Gram and u_energy = sum f(x_t)^2, ||f||_K = 1):
    m <= inf_gamma min_u [D/gamma + (1/gamma) sqrt((a + u^T X_m X_m^T u)
    sum_i ln(1 + lambda_i/a))]. The proof only sums over mistaken trials.

    Examples
    --------
    >>> float(second_order_bound([np.e - 1.0], 1.0, 3.0, 0.0, 1.0))
    2.0
    """
    # (a + E) sum ln(1 + lambda/a) = (1 + E/a) a sum ln(1 + lambda/a): no underflow of lambda/a
    return combine_root(D, gamma, (1.0 + u_energy / a) * a_log_term(eigenvalues, a))


def second_order_adaptive_bound(eigenvalues, c, R, m, u_energy, D, gamma):
    """Second-order bound with the adaptive parameter a_k = c R^2 k (derived form).

    Parameters
    ----------
    eigenvalues : array-like
        Eigenvalues of X_m X_m^T.
    c : float
        The algorithm's constant c > 0.
    R : float
        The radius R of a_k = c R^2 k, as the algorithm used it.
    m : int
        Number of mistakes (a_m = c R^2 m).
    u_energy : float
        u^T X_m X_m^T u.
    D : float or ndarray
        Sum of the hinge losses.
    gamma : float or ndarray
        Margin gamma > 0.

    Returns
    -------
    ndarray or float
        D/gamma + (1/gamma) sqrt((a_m + u_energy)
        (sum_i ln(1 + lambda_i/a_m) + (1 + ln m)/c)).

    Notes
    -----
    Paper 003, Theorem 3 (algorithm of Fig. 4). The additive term of this
    form is not the printed statement's: it follows the paper's proof outline
    (the extra terms of the increasing a_k sum to at most
    sum_{k<=m} 1/(c k) <= (1 + ln m)/c) and is checked numerically by the
    package's property tests: it is a **derived** form (theory §4.1).

    Examples
    --------
    >>> round(float(second_order_adaptive_bound([1.0], 1.0, 1.0, 1, 0.0, 0.0, 1.0)), 6)
    1.30121
    """
    a_m = c * R * R * m
    extra = (1.0 + np.log(m)) / c
    return combine_root(D, gamma,
                    (1.0 + u_energy / a_m) * (a_log_term(eigenvalues, a_m) + a_m * extra))


def second_order_pinv_bound(eigenvalues, lambda_star, u_energy, D, gamma):
    """Second-order bound of the pseudoinverse variant (derived form).

    Parameters
    ----------
    eigenvalues : array-like
        The r positive eigenvalues of X_m X_m^T (r = its rank).
    lambda_star : float
        Smallest positive eigenvalue over every X_k X_k^T, k = 1..m, of the run.
    u_energy : float
        u^T X_m X_m^T u.
    D : float or ndarray
        Sum of the hinge losses.
    gamma : float or ndarray
        Margin gamma > 0.

    Returns
    -------
    ndarray or float
        D/gamma + (1/gamma) sqrt(u_energy (r + sum_{i<=r} ln(lambda_i/lambda*))).

    Notes
    -----
    Paper 003, Theorem 4 (algorithm of Fig. 5); not the printed statement but
    a **derived** form, proved on the theory page (theory §4.1). It
    follows from the potential v_k^T (X_k X_k^T)^+ v_k: a mistake whose
    instance leaves the span of the past ones adds at most 1, one inside it
    adds at most ln(det+ ratio), and a rank increase multiplies det+ (the
    product of the positive eigenvalues) by at least lambda*. With
    u^T v_m >= gamma m - D and Cauchy-Schwarz in the range of X_m X_m^T this
    gives the bound.

    Examples
    --------
    >>> float(second_order_pinv_bound([2.0, 2.0], 2.0, 2.0, 0.0, 1.0))
    2.0
    """
    lam = np.asarray(eigenvalues, dtype=np.float64).ravel()
    spectral = lam.shape[0] + float(np.sum(np.log(lam / lambda_star)))
    return combine_root(D, gamma, u_energy * spectral)


#: log10 of the ends of float64's normal range, where the run's scores must stay (theory §4.4).
LOG_NORMAL = (float(np.log10(np.finfo(np.float64).tiny)),
              float(np.log10(np.finfo(np.float64).max)))


def score_scales(norms, updated, a):
    """(lowest, highest) log10 of the scales of the numbers a Second-Order run with a
    parameter computes (theory §4.4), or (0, 0) when it computes none but zeros.

    On trial t its score sums terms of size up to ||x_t|| max_p ||x_p|| / a_t, p over the
    updates before t (the rows its matrix A holds), and an update's A^{-1} x has entries of
    size up to ||x|| / a and adds ||x||^2 / a to 1: the lowest is the least of the first
    two, the highest the largest of the first and the third, in logs (they may leave
    float64's range).

    Parameters
    ----------
    norms : ndarray
        ||x_t|| of each trial's instance (feature space).
    updated : ndarray of bool
        Whether each trial was an update (a mistake of the Second-Order Perceptron, a
        queried mistake of the selective one).
    a : ndarray
        The parameter a_t each trial used.
    """
    with np.errstate(divide="ignore"):
        log_n, log_a = np.log10(norms), np.log10(a)
    largest = np.maximum.accumulate(np.where(updated, log_n, -np.inf))
    before = np.concatenate(([-np.inf], largest[:-1]))  # over the updates before t
    score = (log_n + before - log_a)[np.isfinite(log_n) & np.isfinite(before)]
    update = (log_n - log_a)[updated & np.isfinite(log_n)]
    if not score.size + update.size:
        return 0.0, 0.0
    low = min(np.min(score, initial=np.inf), np.min(update, initial=np.inf))
    high = max(np.max(score, initial=-np.inf), np.max(log_n[updated] + update, initial=-np.inf))
    return float(low), float(high)


def _in_range(q) -> bool:
    low, high = q.score_scales
    return bool(LOG_NORMAL[0] <= low and high <= LOG_NORMAL[1])


def _range_reason(q) -> str:
    low, high = q.score_scales
    return (f"the run's scores and updates reach 1e{low if low < LOG_NORMAL[0] else high:.0f}, "
            "outside float64's normal range [2.2e-308, 1.8e308]: they underflow or overflow "
            "there (a score that underflows to 0 counts as a mistake), so the run is not the "
            "exact-arithmetic one the theorem is about (theory §4.4); rescale X or "
            f"{q.range_parameter}")


#: SO with a (fixed or a_k) is the exact-arithmetic algorithm only while its numbers stay
#: normal float64 numbers (theory §4.4).
IN_RANGE = Requirement(_in_range, _range_reason)


class SpectrumQuantities(Quantities):
    """D (a function of gamma), the eigenvalues of X_m X_m^T, u_energy, a, c, R, a_m, m.

    X_m holds the instances of the trials that built the algorithm's matrix
    (``trials``: the mistakes here; AROW's provider, a subclass, takes its
    update trials, theory §4.9). D runs over all trials (stated) or those
    (tightened, theory §4.2); ``failure`` is set when LAPACK cannot decompose
    their Gram matrix.
    """

    leading = ("D",)
    scopes = {False: "all", True: "mistakes"}

    @classmethod
    def trials(cls, run) -> np.ndarray:
        """The trials whose instances make X_m, in order: the mistakes."""
        return run.mistake_trials

    @classmethod
    def scores(cls, ctx, comp) -> np.ndarray:
        """f(x_t) on each trial."""
        return comp.values(ctx.X)[ctx.rows_all]

    @classmethod
    def spectrum(cls, ctx) -> dict:
        """The spectral quantities of the whole run: the eigenvalues of X_m X_m^T (computed once
        per :class:`~.quantities.RunData`)."""
        return {"eigenvalues": ctx.cached("mistake_spectrum", lambda: mistake_spectrum(
            ctx.X[ctx.rows_mistakes], ctx.kernel))}

    @classmethod
    def spectrum_at(cls, ctx, Xk, k) -> dict:
        """The spectral quantities of the first k of ``trials``, the rows ``Xk``."""
        return {"eigenvalues": mistake_spectrum(Xk, ctx.kernel)}

    @classmethod
    def parameters(cls, run) -> dict:
        params = run.params
        c, R = float(params["c"]), float(run.state.get("R", np.nan))
        return {"a": float(params["a"]), "c": c, "R": R, "a_m": c * R**2 * run.mistakes}

    @classmethod
    def parameters_at(cls, run, k) -> dict:
        """The run's parameters on the prefixes with k of ``trials`` (as on the whole run)."""
        return cls.parameters(run)

    @classmethod
    def a_of_trials(cls, run, updates_before) -> np.ndarray | None:
        """The a of a Second-Order run with a parameter on each trial, given the number of
        updates (mistakes) before it (a, or the run's a_k = c R^2 k, k = updates + 1); None
        for the other runs (no ``variant`` of these two: the pseudoinverse, AROW's)."""
        variant = run.params.get("variant")
        if variant == "inverse":
            return np.full(updates_before.shape, float(run.params["a"]))
        if variant == "adaptive":
            return np.asarray(run.state["a_k"], dtype=np.float64)[updates_before]
        return None

    @classmethod
    def arithmetic(cls, ctx) -> dict:
        """``score_scales`` of the whole run (:func:`score_scales`; (0, 0) where there is no
        parameter a), computed once per :class:`~.quantities.RunData`."""
        def compute():
            run = ctx.run
            updated = is_trial(run, cls.trials(run))  # the rows the matrix A is made of
            before = np.cumsum(updated) - updated
            a = cls.a_of_trials(run, before)
            if a is None:
                return 0.0, 0.0
            return score_scales(ctx.norms[ctx.rows_all], updated, a)

        adaptive = ctx.run.params.get("variant") == "adaptive"
        return {"score_scales": ctx.cached("score_scales", compute),
                "range_parameter": "c" if adaptive else "a"}

    @classmethod
    def whole(cls, ctx, comp, tightened):
        run = ctx.run
        used = cls.trials(run)
        failure = None
        try:
            scores = cls.scores(ctx, comp)
        except np.linalg.LinAlgError as exc:
            failure = f"f on the instances as the run used them could not be computed: {exc}"
            scores = comp.values(ctx.X)[ctx.rows_all]
        margins = ctx.y[ctx.rows_all] * scores
        energy = float(np.sum(scores[used] ** 2))
        try:  # LAPACK's symmetric eigensolver can stop ("Internal Error.") on ill-conditioned input
            spectral = cls.spectrum(ctx)
        except np.linalg.LinAlgError as exc:
            failure = failure or (
                f"the eigenvalues of the mistakes' Gram matrix could not be computed ({exc})")
            spectral = {"eigenvalues": np.zeros(0), "lambda_star": np.inf, "rank": 0}
        profile = HingeProfile(margins[used if tightened else slice(None)])
        return cls(tightened=tightened, failure=failure, D=profile.d1, u_energy=energy,
                   m=ctx.m, kernel_linear=ctx.kernel.is_linear, margins=profile.margins,
                   scale=max(ctx.radius(ctx.rows_all), top_margin(profile)),
                   common={"trials": cls.scopes[tightened], "u_energy": energy},
                   **spectral, **cls.parameters(run), **cls.arithmetic(ctx))

    @classmethod
    def prefixes(cls, ctx, comp, gamma, tightened):
        run = ctx.run
        trials = cls.trials(run)
        is_used = is_trial(run, trials)
        summed = is_used if tightened else np.ones(run.n_trials, dtype=bool)
        scores = cls.scores(ctx, comp)
        D = np.cumsum(np.where(summed, hinge(ctx.y[ctx.rows_all] * scores, gamma), 0.0))
        energy = np.concatenate(([0.0], np.cumsum(scores[trials] ** 2)))
        k_of_t = np.cumsum(is_used)
        m_of_t = np.cumsum(is_trial(run, run.mistake_trials))
        rows = run.sample_index[trials]
        arithmetic = cls.arithmetic(ctx)  # the whole run's, at every prefix
        pieces = []
        for k in range(trials.shape[0] + 1):
            at = k_of_t == k
            if at.any():
                spectral = cls.spectrum_at(ctx, ctx.X[rows[:k]], k)
                pieces.append((cls(tightened=tightened, D=at_gamma(D[at]), u_energy=energy[k],
                                   m=int(m_of_t[at][0]), **spectral, **cls.parameters_at(run, k),
                                   **arithmetic),
                               at, None))
        return pieces

    @classmethod
    def memory(cls, run, sparse) -> list:
        m, n = cls.trials(run).shape[0], run.n_features
        width = min(m, n) if run.params.get("kernel", "linear") == "linear" else m
        shapes = [(2, cls.gram_rows(m, width), width,
                   "the Gram matrix of the mistakes and its eigendecomposition")]
        return shapes + ([] if sparse else [(1, m, n, "the mistaken rows")])

    @classmethod
    def gram_rows(cls, m, width) -> int:
        return width


class SpanQuantities(SpectrumQuantities):
    """The pseudoinverse bound's quantities: f on the instances as the run used them
    (projected where it found them inside the span, theory §4.1), the r positive
    eigenvalues, ``rank`` and ``lambda_star``; the rank follows the run's own decisions
    (its ``span_tol`` and ``state["rank_growth"]``)."""

    @classmethod
    def coordinates(cls, ctx):
        """(L, pivots, rises) of the run's mistakes (:func:`~.spectra.span_coordinates`),
        computed once per :class:`~.quantities.RunData`."""
        return ctx.cached("span_coordinates", lambda: span_coordinates(
            ctx.X[ctx.rows_mistakes], ctx.kernel, rtol=ctx.run.params["span_tol"],
            rank_growth=ctx.run.state["rank_growth"], primal=cls.primal(ctx)))

    @classmethod
    def primal(cls, ctx) -> bool:
        """Whether the run kept its basis explicitly (the primal form): the coordinates are
        then computed in its arithmetic, Gram-Schmidt on the instances (a Cholesky factor of
        the mistakes' Gram misplaces distances below about 1e-5 once the Gram is as
        ill-conditioned as span_tol allows, :func:`~.spectra.span_coordinates`)."""
        return ctx.run.params["form"] == "primal"

    @classmethod
    def undefined(cls, ctx) -> str | None:
        """Why the projections cannot be computed, or None: a rank rise the run recorded at a
        mistake whose instance the bound's arithmetic finds inside the span (pivot <= 0)."""
        L, pivots, _ = cls.coordinates(ctx)
        flat = np.flatnonzero(np.diagonal(L[pivots]) <= 0.0)
        if not flat.size:
            return None
        return (f"the run raised its rank at mistake {int(pivots[flat[0]]) + 1}, whose instance "
                "is inside the span of the earlier ones in the bound's arithmetic (squared "
                "distance <= 0), so its projections are undefined")

    @classmethod
    def prefixes(cls, ctx, comp, gamma, tightened):
        """As for the other spectral bounds; none (the bound infinite, not applicable) where
        ``undefined``."""
        if cls.undefined(ctx) is not None:
            return []
        return super().prefixes(ctx, comp, gamma, tightened)

    @classmethod
    def scores(cls, ctx, comp) -> np.ndarray:
        """f(x~_t) on every trial, x~_t the instance as the run used it: on a trial where the
        run found x_t inside the span of the earlier mistakes, its projection on that span;
        where the rank rose, x_t itself (theory §4.1)."""
        L, pivots, rises = cls.coordinates(ctx)
        undefined = cls.undefined(ctx)
        if undefined is not None:
            raise np.linalg.LinAlgError(undefined)
        basis = ctx.rows_mistakes[pivots]
        grew = ctx.run.mistake_trials[rises == 1]
        trials = np.arange(ctx.run.n_trials)
        ranks = np.searchsorted(grew, trials, side="left") + np.isin(trials, grew)
        return projected_values(comp.values(ctx.X)[basis], L[pivots], ctx.X[basis], ctx.X,
                                ctx.rows_all, ranks, ctx.kernel)

    @classmethod
    def spectrum(cls, ctx) -> dict:
        L, _, rises = cls.coordinates(ctx)
        undefined = cls.undefined(ctx)
        if undefined is not None:  # a zero pivot: the rows after it hold inf and NaN
            raise np.linalg.LinAlgError(undefined)
        eigenvalues, lambda_star = ctx.cached("span_spectrum",
                                              lambda: coordinate_spectrum(L, rises))
        return {"eigenvalues": eigenvalues, "lambda_star": lambda_star,
                "rank": int(eigenvalues.shape[0])}

    @classmethod
    def spectrum_at(cls, ctx, Xk, k) -> dict:
        growth = np.asarray(ctx.run.state.get("rank_growth", ()), dtype=np.int64)
        eigenvalues, lambda_star = span_spectrum(Xk, ctx.kernel, rtol=ctx.run.params["span_tol"],
                                                 rank_growth=growth[growth < k],
                                                 primal=cls.primal(ctx))
        return {"eigenvalues": eigenvalues, "lambda_star": lambda_star}

    @classmethod
    def gram_rows(cls, m, width) -> int:
        return m


register_provider("mistake_spectrum", SpectrumQuantities)
register_provider("span_spectrum", SpanQuantities)


def _variant(name):
    return lambda params: params["variant"] == name


SECOND_ORDER = register_bound(Bound(
    name="second_order", label="second_order (SO, Thm 1)", provider="mistake_spectrum",
    source=lambda q: "003 Thm 1" + ("" if q.kernel_linear else " / Cor. 1 (kernel)"),
    value=lambda q, gamma: second_order_bound(q.eigenvalues, q.a, q.u_energy, q.D(gamma),
                                              gamma),
    quantities=("D", "u_energy", "a"), conditions=(IN_RANGE,),
    applies=_variant("inverse")))

SECOND_ORDER_ADAPTIVE = register_bound(Bound(
    name="second_order_adaptive", label="second_order_adaptive (SO, Thm 3)",
    provider="mistake_spectrum", source="003 Thm 3 (derived)",
    value=lambda q, gamma: second_order_adaptive_bound(
        q.eigenvalues, q.c, q.R, max(q.m, 1), q.u_energy, q.D(gamma), gamma),
    quantities=("D", "u_energy", "c", "a_m", "R"), conditions=(IN_RANGE,),
    applies=_variant("adaptive")))

SECOND_ORDER_PINV = register_bound(Bound(
    name="second_order_pinv", label="second_order_pinv (SO, Thm 4)", provider="span_spectrum",
    source="003 Thm 4 (derived)",
    value=lambda q, gamma: second_order_pinv_bound(q.eigenvalues, q.lambda_star, q.u_energy,
                                                   q.D(gamma), gamma),
    quantities=("D", "u_energy", "rank", "lambda_star"), applies=_variant("pinv")))
