"""``evaluate``: every mistake bound that applies to a run, held against its mistakes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .._validation import check_choice, check_real
from .ballseptron import ballseptron_beta, ballseptron_corrected, ballseptron_d1
from .first_order import freund_schapire, novikoff
from .higher_order import higher_order_bound, hop_alpha
from .quantities import HingeProfile, RunData, hop_c_run
from .report import BoundReport, BoundRow
from .search import (
    Comparator,
    gamma_candidates,
    minimise_over_gamma,
    svm_comparators,
    unit_comparator,
)
from .second_order import (
    second_order_adaptive_bound,
    second_order_bound,
    second_order_pinv_bound,
)

COMPARATORS = ("auto", "target", "svm")
SQRT2_MINUS_1 = np.sqrt(2.0) - 1.0
VARIANTS = ("stated", "tightened")
_WARM = "a warm-started run: the theorem counts mistakes from the zero state"
# |1 - ||x||| above this means "not a unit instance" for the Higher-Order bound.
UNIT_NORM_ATOL = 1e-9


@dataclass(frozen=True)
class _Condition:
    """gamma must lie in (low, high]; ``text`` says so in words for a reason."""

    low: float
    high: float
    text: str


@dataclass
class _Spec:
    """One bound in one variant, for one comparator, ready for the gamma search."""

    name: str
    variant: str
    source: str
    value: Callable
    profile: HingeProfile | None = None
    scale: float = 1.0
    conditions: list = field(default_factory=list)
    quantities: Callable = dict
    reason: str | None = None


def evaluate(run, X, y, *, u=None, gamma=None, comparator="auto", target=None) -> BoundReport:
    """Evaluate every mistake bound of the papers that applies to ``run``.

    Parameters
    ----------
    run : OnlineRun
        A run of a registered algorithm. The theorems count mistakes from the
        zero state, so every bound of a warm-started run
        (``run.warm_started``, e.g. after ``partial_fit``) is reported as not
        applicable.
    X, y : array-like
        The training data of the run (the rows its ``sample_index`` points to).
    u : ndarray of shape (n_features,), optional
        The comparator; scaled to unit norm. Linear-kernel runs only.
    gamma : float, optional
        The margin; searched per bound when None (theory §4.3).
    comparator : {"auto", "target", "svm"}, default="auto"
        How u is chosen when not given: ``"target"`` the data's known target,
        ``"svm"`` normalised SVM directions over C in ``search.SVM_C`` (the best
        for each bound; a kernel SVM of unit RKHS norm for kernel runs),
        ``"auto"`` the target when known, else the SVM.
    target : ndarray of shape (n_features,), optional
        The data's known target (e.g. ``make_separable(...).u``).

    Returns
    -------
    BoundReport
        One row per bound and variant (``"stated"``, theory §4.1; ``"tightened"``,
        theory §4.2); a bound whose conditions fail is reported with its reason.

    Notes
    -----
    Bounds per algorithm: the Perceptron, voted Perceptron and p-norm
    Perceptron with p = 2: ``novikoff`` (001 Thm 1), ``freund_schapire``
    (001 Thm 2), ``ballseptron_d1`` (004 Thm 2 with r = 0); the Ballseptron:
    the same under 0 < gamma <= R and r < (sqrt(2) - 1) gamma (004 Thm 1-2),
    and ``ballseptron_corrected_d2`` (Cor. 1), ``ballseptron_corrected_d1``
    (eq. 17); the Second-Order Perceptron: ``second_order`` (003 Thm 1, Cor. 1
    for kernels), ``second_order_adaptive`` (Thm 3) or ``second_order_pinv``
    (Thm 4) by its variant; the Higher-Order Perceptron: ``higher_order``
    (000 Thm 1, p = 2).

    The gamma search scans (0, max(R, largest margin)]. Beyond it the
    tightened variants, whose hinge losses run over the mistaken (or update)
    trials only, approach m itself as gamma grows (D_m(gamma)/gamma -> m): a
    valid but empty statement, so the scan stops there.

    Examples
    --------
    >>> from perceptron_bounds import run_online
    >>> from perceptron_bounds.datasets import make_separable
    >>> X, y, u = make_separable(200, 5, margin=0.2, seed=0)
    >>> run = run_online("perceptron", X, y, epochs=3)
    >>> report = evaluate(run, X, y, target=u)
    >>> row = report.row("novikoff")
    >>> row.holds, round(row.gamma, 6) == round(float((y * (X @ u)).min()), 6)
    (True, True)
    """
    comparator = check_choice("comparator", comparator, COMPARATORS)
    if gamma is not None:
        gamma = check_real("gamma", gamma, low=0.0, include_low=False)
    ctx = RunData(run, X, y)
    comparators, notes = _comparators(ctx, u, target, comparator)
    rows = []
    for specs in zip(*(_specs(ctx, comp) for comp in comparators), strict=True):
        rows.append(_best_row(ctx, specs, comparators, gamma))
    if not rows:
        notes.append(f"no bound of the papers applies to {run.algorithm!r}")
    return BoundReport(run.algorithm, dict(run.params), run.n_trials, run.mistakes,
                       run.margin_errors, tuple(rows), tuple(notes))


def _comparators(ctx, u, target, comparator) -> tuple[list[Comparator], list[str]]:
    n = ctx.run.n_features
    if u is not None:
        return [unit_comparator(u, n, "given", ctx.kernel)], ["u: given (scaled to unit norm)"]
    if comparator == "target" and target is None:
        raise ValueError("comparator='target' needs the data's known target: pass target=u")
    if comparator == "target" and not ctx.kernel.is_linear:
        raise ValueError(f"comparator='target' needs a linear-kernel run; this run uses the "
                         f"{ctx.kernel.name!r} kernel: use comparator='svm'")
    if target is not None and comparator in ("auto", "target") and ctx.kernel.is_linear:
        return [unit_comparator(target, n, "target", ctx.kernel)], ["u: the data's target"]
    comps = svm_comparators(ctx.X, ctx.y, ctx.kernel)
    if not comps:
        raise ValueError("no SVM comparator could be fitted (one class in y, or a zero solution)")
    if ctx.kernel.is_linear:
        note = "u: normalised linear SVM direction, the best over C for each bound"
    else:
        note = (f"f: kernel SVM ({ctx.kernel.name} kernel) scaled to unit norm in the kernel's "
                "feature space, intercept dropped, the best over C for each bound")
    return comps, [note]


def _best_row(ctx, specs, comparators, gamma) -> BoundRow:
    """Solve the spec of each comparator and keep the smallest applicable value."""
    best = None
    for spec, comp in zip(specs, comparators, strict=True):
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # inf: not a bound
            row = _solve(ctx, spec, comp, gamma)
        if best is None or (row.applies and (not best.applies or row.value < best.value)):
            best = row
    return best


def _solve(ctx, spec, comp, gamma) -> BoundRow:
    def row(value=None, g=None, reason=None):
        quantities = spec.quantities(g) if reason is None else {}
        return BoundRow(spec.name, spec.variant, spec.source, reason is None, reason,
                        None if value is None else float(value),
                        None if g is None else float(g), ctx.m, comp.label, quantities)

    if spec.reason is not None:
        return row(reason=spec.reason)
    low = max([0.0, *(c.low for c in spec.conditions)])
    high = min([np.inf, *(c.high for c in spec.conditions)])
    if gamma is not None:
        failed = [c.text for c in spec.conditions if not c.low < gamma <= c.high]
        if failed:
            return row(reason=f"at gamma = {gamma:.6g}: needs " + "; ".join(failed))
        value = float(np.asarray(spec.value(np.array([gamma])))[0])
        if not np.isfinite(value):
            return row(reason=f"the bound is infinite at gamma = {gamma:.6g}")
        return row(value, gamma)
    if not low < high:
        empty = [c.text for c in spec.conditions if not max(c.low, 0.0) < c.high]
        return row(reason="no gamma > 0 meets "
                   + "; ".join(empty or [c.text for c in spec.conditions]))
    margins = spec.profile.margins if spec.profile is not None else np.zeros(0)
    cands = gamma_candidates(margins, low, high, spec.scale)
    g, value = minimise_over_gamma(_restricted(spec.value, low, high), cands)
    if not np.isfinite(value):
        return row(reason="the bound is infinite for every gamma tried")
    return row(value, g)


def _restricted(value, low, high):
    def restricted(gammas):
        out = np.asarray(value(gammas), dtype=np.float64)
        return np.where((gammas > low) & (gammas <= high), out, np.inf)

    return restricted


def _specs(ctx, comp) -> list[_Spec]:
    return BOUNDS[ctx.run.algorithm](ctx, comp)


# --- first order: Perceptron, voted Perceptron, p-norm (p = 2), Ballseptron --------------------


def _first_order_specs(ctx, comp) -> list[_Spec]:
    run = ctx.run
    ball = run.algorithm == "ballseptron"
    r = float(run.params["r"]) if ball else 0.0
    eps = run.margin_errors
    margins = ctx.y * comp.values(ctx.X)
    names = ["novikoff", "freund_schapire", "ballseptron_d1"]
    if ball:
        names += ["ballseptron_corrected_d2", "ballseptron_corrected_d1"]
    not_applicable = _WARM if run.warm_started else None
    if run.algorithm == "pnorm_perceptron" and run.params["p"] != 2.0:
        not_applicable = ("the papers bound the p-norm Perceptron only for p = 2 "
                          f"(the Perceptron); this run has p = {run.params['p']:g}")
    specs = []
    for variant in VARIANTS:
        rows = ctx.rows_all if variant == "stated" else ctx.rows_updates
        profile = HingeProfile(margins[rows])
        R = ctx.radius(rows)
        scope = "all" if variant == "stated" else "updates"
        ball_conditions = []
        if ball and (variant == "stated" or eps > 0):
            ball_conditions = [
                _Condition(r / SQRT2_MINUS_1, np.inf,
                           f"r < (sqrt2 - 1) gamma, i.e. gamma > {r / SQRT2_MINUS_1:.6g}"),
                _Condition(0.0, R, f"gamma <= R = {R:.6g}"),
            ]
        scale = max(R, float(profile.margins[-1]) if profile.size else 0.0)
        common = {"R": R, "trials": scope, "n_trials_used": profile.size}
        if ball:
            common.update(r=r, margin_errors=eps)
        tight = variant == "tightened"
        suffix = " + theory §4.2" if tight else ""
        for name in names:
            spec = _first_order_spec(name, profile, R, r, eps, tight, ball, ball_conditions,
                                     common)
            spec.variant, spec.scale, spec.reason = variant, scale, not_applicable
            spec.source += suffix
            specs.append(spec)
    return specs


def _first_order_spec(name, profile, R, r, eps, tight, ball, ball_conditions, common) -> _Spec:
    if name == "novikoff":
        mm = profile.min_margin
        which = "every trial" if common["trials"] == "all" else "every update trial"
        separation = _Condition(0.0, mm, f"u separates {which} with margin gamma: "
                                f"gamma <= min y u.x = {mm:.6g}")
        return _Spec(name, "", "004 Thm 1 (D2 = 0)" if ball else "001 Thm 1",
                     lambda g: novikoff(R, g), profile, conditions=[*ball_conditions, separation],
                     quantities=lambda g: {**common, "min_margin": mm})
    if name == "freund_schapire":
        return _Spec(name, "", "004 Thm 1" if ball else "001 Thm 2",
                     lambda g: freund_schapire(R, g, profile.d2(g)), profile,
                     conditions=list(ball_conditions),
                     quantities=lambda g: {**common, "D2": float(profile.d2(g))})
    if name == "ballseptron_d1":
        conditions = list(ball_conditions)
        if not ball and not tight:
            conditions.append(_Condition(0.0, R, f"gamma <= R = {R:.6g}"))
        return _Spec(name, "", "004 Thm 2" if ball else "004 Thm 2 (r = 0)",
                     lambda g: ballseptron_d1(R, g, profile.d1(g), exact=tight), profile,
                     conditions=conditions,
                     quantities=lambda g: {**common, "D1": float(profile.d1(g))})
    loss = name[-2:]
    D = profile.d2 if loss == "d2" else profile.d1
    return _Spec(name, "", "004 Cor. 1" if loss == "d2" else "004 eq. 17",
                 lambda g: ballseptron_corrected(R, g, D(g), r, eps, loss, exact=tight), profile,
                 conditions=[] if tight else list(ball_conditions),
                 quantities=lambda g: {**common, loss.upper(): float(D(g)),
                                       "beta": float(ballseptron_beta(r, g))})


# --- second order -------------------------------------------------------------------------------


def _second_order_specs(ctx, comp) -> list[_Spec]:
    run = ctx.run
    params = run.params
    variant = params["variant"]
    rows_m = ctx.rows_mistakes
    scores = comp.values(ctx.X)
    margins = ctx.y * scores
    energy = float(np.sum(scores[rows_m] ** 2))
    reason = _WARM if run.warm_started else None
    if variant == "pinv":
        name, source = "second_order_pinv", "003 Thm 4 (derived)"
        eig, lambda_star = ctx.span
        extra = {"rank": int(eig.shape[0]), "lambda_star": lambda_star}

        def bound(D, g):
            return second_order_pinv_bound(eig, lambda_star, energy, D, g)
    else:
        eig = ctx.spectrum
        if variant == "adaptive":
            name, source = "second_order_adaptive", "003 Thm 3 (derived)"
            c, R_alg = float(params["c"]), float(run.state["R"])
            extra = {"c": c, "a_m": c * R_alg**2 * ctx.m, "R": R_alg}

            def bound(D, g):
                return second_order_adaptive_bound(eig, c, R_alg, max(ctx.m, 1), energy, D, g)
        else:
            name, source = "second_order", "003 Thm 1" + ("" if ctx.kernel.is_linear else
                                                           " / Cor. 1 (kernel)")
            a = float(params["a"])
            extra = {"a": a}

            def bound(D, g):
                return second_order_bound(eig, a, energy, D, g)
    specs = []
    for variant_name in VARIANTS:
        rows = ctx.rows_all if variant_name == "stated" else rows_m
        profile = HingeProfile(margins[rows])
        scope = "all" if variant_name == "stated" else "mistakes"
        scale = max(ctx.radius(ctx.rows_all), float(profile.margins[-1]) if profile.size else 0.0)
        quantities = _so_quantities(profile, scope, energy, extra)
        specs.append(_Spec(name, variant_name,
                           source + (" + theory §4.2" if variant_name == "tightened" else ""),
                           _so_value(bound, profile), profile, scale, [], quantities, reason))
    return specs


def _so_value(bound, profile):
    return lambda g: bound(profile.d1(g), g)


def _so_quantities(profile, scope, energy, extra):
    return lambda g: {"D": float(profile.d1(g)), "trials": scope, "u_energy": energy, **extra}


# --- higher order -------------------------------------------------------------------------------


def _higher_order_specs(ctx, comp) -> list[_Spec]:
    run = ctx.run
    params, state = run.params, run.state
    reason = None
    if params["p"] != 2.0:
        reason = f"Theorem 1 is stated for p = 2; this run has p = {params['p']:g}"
    elif ctx.run.warm_started:
        reason = _WARM
    elif not params["normalize"]:
        norms = ctx.norms[ctx.rows_mistakes]
        if norms.size and np.max(np.abs(norms - 1.0)) > UNIT_NORM_ATOL:
            reason = (f"instances without unit norm (normalize=False; ||x|| of the mistakes in "
                      f"[{norms.min():.6g}, {norms.max():.6g}])")
    margins = np.zeros(0)
    if reason is None and ctx.m:
        margins = ctx.transformed_margins(comp.u if comp.u is not None else comp.values)
    profile = HingeProfile(margins)
    rho, yvx = state["rho"], state["y_v_x"]
    specs = []
    for variant in VARIANTS:
        spec_reason = reason
        if variant == "stated":
            if params["rho"] is None:
                c = 1.0 - params["c"]
                what = f"c' = 1 - c = {c:.6g} (schedule rho_k = c/k, theory §4.2)"
                slack = rho * (1.0 + np.abs(yvx)) - (1.0 - c)
                if spec_reason is None and slack.size and slack.max() > 1e-12:
                    spec_reason = (f"rho_k <= (1 - c')/(1 + |v.x|) fails at mistake "
                                   f"{int(np.argmax(slack))}")
            else:
                c = float(np.min(1.0 - rho * (1.0 + np.abs(yvx)), initial=1.0))
                what = f"c = min_k 1 - rho_k (1 + |v.x|) = {c:.6g}"
            source = "000 Thm 1"
        else:
            c = hop_c_run(run)
            what = f"c_run = min_k min(r_k, 2 - r_k) = {c:.6g}"
            source = "000 Thm 1 + theory §4.2"
        if spec_reason is None and not c > 0.0:
            spec_reason = f"{what} <= 0"
        alpha = float(hop_alpha(c)) if c > 0 else np.inf
        scale = max(1.0, float(profile.margins[-1]) if profile.size else 0.0)
        specs.append(_Spec(
            "higher_order", variant, source, _ho_value(alpha, profile), profile, scale, [],
            _ho_quantities(profile, alpha, c), spec_reason,
        ))
    return specs


def _ho_value(alpha, profile):
    return lambda g: higher_order_bound(alpha, profile.d1(g), g)


def _ho_quantities(profile, alpha, c):
    return lambda g: {"D": float(profile.d1(g)), "trials": "transformed mistakes",
                      "alpha": alpha, "c": c}


# The bounds of each registered algorithm: a function (RunData, Comparator) -> its bound specs
# in both variants. A new algorithm adds its entry here (an empty list: no bound applies).
BOUNDS = {
    "perceptron": _first_order_specs,
    "voted_perceptron": _first_order_specs,
    "ballseptron": _first_order_specs,
    "pnorm_perceptron": _first_order_specs,
    "second_order": _second_order_specs,
    "higher_order": _higher_order_specs,
}
