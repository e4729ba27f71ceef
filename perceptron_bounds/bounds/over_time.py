"""The mistake bounds on every prefix of a run: trials 1..t for t = 1, ..., T (theory §4).

A run's first t trials are themselves a run of the same algorithm on the
first t examples of the sequence, from the zero state (theory §1.4): every
bound of theory §4.1 and §4.2 holds for them, with R, D1, D2, the margin
errors and the spectrum of the mistakes taken over those t trials. So each
bound gives a curve over t that stays above the count of mistakes made so
far. :func:`bounds_over_time` evaluates those curves for one fixed comparator
u and margin gamma, through the bounds' own closed forms
(:mod:`.first_order`, :mod:`.ballseptron`, :mod:`.pnorm`, :mod:`.second_order`,
:mod:`.higher_order`) fed with prefix quantities: cumulative sums of hinge
losses, running maxima of the norms, and the spectrum of the mistakes made
so far.
"""

from __future__ import annotations

import numpy as np

from .._interrupt import interruptible
from .._validation import check_choice, check_real
from ..run import OnlineRun
from .ballseptron import ballseptron_corrected, ballseptron_d1
from .evaluate import SQRT2_MINUS_1, UNIT_NORM_ATOL, VARIANTS, binary_report
from .first_order import freund_schapire, novikoff
from .higher_order import higher_order_bound, hop_alpha
from .pnorm import pnorm_d1, pnorm_d2, pnorm_separable
from .quantities import (
    RunData,
    hinge_losses,
    hop_step_terms,
    mistake_spectrum,
    span_spectrum,
)
from .search import svm_comparators, unit_comparator
from .second_order import (
    second_order_adaptive_bound,
    second_order_bound,
    second_order_pinv_bound,
)

# The tolerance of evaluate's check of the stated Higher-Order step condition.
_SLACK_ATOL = 1e-12


class BoundCurves(dict):
    """The bound curves of :func:`bounds_over_time`: name -> ndarray of shape (T,).

    Entry ``t - 1`` of a curve is the bound on the mistakes of trials 1..t;
    ``inf`` where the bound does not apply to that prefix.

    Attributes
    ----------
    gamma : float or None
        The margin gamma every curve uses (None when no bound applies to the run).
    comparator : Comparator or None
        The unit comparator u (or kernel function f) every curve uses.
    variant : str
        ``"stated"`` (theory §4.1) or ``"tightened"`` (theory §4.2).
    mistakes : ndarray of int64, shape (T,)
        Mistakes among trials 1..t, for every t.
    notes : tuple of str
        How u and gamma were chosen, or why no bound applies.
    """

    def __init__(self, curves, *, gamma, comparator, variant, mistakes, notes):
        super().__init__(curves)
        self.gamma = gamma
        self.comparator = comparator
        self.variant = variant
        self.mistakes = mistakes
        self.notes = tuple(notes)


@interruptible()
def bounds_over_time(run, X, y, names=None, *, u=None, gamma=None,
                     variant="stated") -> BoundCurves:
    """Each bound of the run's algorithm evaluated on the prefix of trials 1..t, for every t.

    Parameters
    ----------
    run : OnlineRun
        A run of a registered algorithm.
    X, y : array-like
        The training data of the run (the rows its ``sample_index`` points to),
        checked by :meth:`~perceptron_bounds.run.OnlineRun.check_data`.
    names : sequence of str, optional
        Report names of the bounds (as in :func:`evaluate`: ``novikoff``,
        ``freund_schapire``, ``ballseptron_d1``, ...). Default: every bound of the
        run's algorithm that is finite on some prefix.
    u : ndarray of shape (n_features,), optional
        The comparator, scaled to unit norm (linear-kernel runs; unit q-norm,
        q = p / (p - 1), for the p-norm algorithms with p > 2). Default: the
        comparator of the smallest applicable bound of ``evaluate(run, X, y)``
        (a normalised SVM direction, or a kernel SVM function of unit norm).
    gamma : float, optional
        The margin gamma > 0. Default: the margin of that same bound, searched by
        :func:`evaluate` on the whole run (theory §4.3).
    variant : {"stated", "tightened"}, default="stated"
        ``"stated"``: sums and radius over all trials 1..t (theory §4.1);
        ``"tightened"``: over the update trials among them, with the exact roots
        (theory §4.2).

    Returns
    -------
    BoundCurves
        A dict name -> ndarray of shape (T,), with the ``gamma``, ``comparator``,
        ``mistakes`` (per prefix) and ``notes`` used.

    Raises
    ------
    ValueError
        A name that is not a bound of the run's algorithm, a bad u or gamma, X and y
        that are not the run's data, or a multiclass run (theory §2.6; its prefix
        curves are not drawn yet).
    KeyboardInterrupt
        On Ctrl-C (SIGINT) in the main thread: a jitted loop stops at its next
        check and no curves are returned.

    Notes
    -----
    With u and gamma fixed, the prefix t has hinge losses
    l_s = max(0, gamma - y_s u.x_s), s <= t, so D1(t) and D2(t)^2 are
    cumulative sums, R(t) a running maximum of ||x_s||, eps~(t) the margin
    errors so far, and for the Second-Order bounds X_{m(t)} holds the m(t)
    mistakes made so far (its spectrum and u^T X X^T u change only at a
    mistake). The Higher-Order bound sums the hinge losses of the transformed
    mistakes so far (paper 000, eq. 1). Each value is the bound's own closed
    form at these quantities.

    A value is ``inf`` where the bound does not apply to the prefix: its
    condition fails there (Novikoff once u meets a trial with y u.x < gamma;
    the Ballseptron's 0 < gamma <= R(t) while R(t) is still small; the Higher-Order
    step condition from the first mistake that breaks it), or on every prefix
    when no bound applies to the run (a warm start). Where a value is
    finite it is at least the mistakes of the prefix: each is a theorem for
    every prefix (theory §4.4). At t = T it equals ``evaluate(run, X, y, u=u,
    gamma=gamma)``'s value for the same u and gamma.

    The Second-Order curves take one eigendecomposition per mistake: O(m n^3)
    for linear runs, O(m^4) for kernel runs (the m x m Gram of the mistakes).

    Examples
    --------
    >>> from perceptron_bounds import run_online
    >>> from perceptron_bounds.datasets import make_separable
    >>> X, y, target = make_separable(100, 2, margin=0.2, seed=0)
    >>> run = run_online("perceptron", X, y)
    >>> curves = bounds_over_time(run, X, y, u=target, gamma=0.2)
    >>> list(curves), round(float(curves["novikoff"][-1]), 9)
    (['novikoff', 'freund_schapire', 'ballseptron_d1'], 25.0)
    >>> bool(np.all(curves["novikoff"] >= curves.mistakes))
    True
    """
    if getattr(run, "multiclass", None) is not None:
        raise ValueError(
            f"bounds_over_time takes a binary run; this run is multiclass={run.multiclass!r}: "
            "evaluate(run, X, y) reports its bounds on the whole run")
    variant = check_choice("variant", variant, VARIANTS)
    if gamma is not None:
        gamma = check_real("gamma", gamma, low=0.0, include_low=False)
    if isinstance(run, OnlineRun):  # else RunData says what run must be
        X = run.check_data(X, y)  # the run's own data, by its fingerprint
    ctx = RunData(run, X, y)
    report = binary_report(ctx, u=u, gamma=gamma)
    known = list(dict.fromkeys(row.name for row in report.rows))
    if names is not None:
        if isinstance(names, str):
            names = [names]
        names = [check_choice("names", name, known) for name in names]
    mistakes = np.cumsum(_is_trial(run, run.mistake_trials))
    comp = None if u is None else unit_comparator(u, run.n_features, "given", ctx.kernel,
                                                  q=ctx.q)
    scaled = "unit norm" if ctx.q == 2.0 else f"unit q-norm, q = {ctx.q:.6g}"
    notes = [] if u is None else [f"u: given (scaled to {scaled})"]
    if gamma is not None:
        notes.append(f"gamma = {gamma:.6g} (given)")
    if comp is None or gamma is None:
        best = _best_row(report, names, variant)
        if best is None:
            curves = {name: np.full(run.n_trials, np.inf) for name in names or ()}
            return BoundCurves(curves, gamma=gamma, comparator=comp, variant=variant,
                               mistakes=mistakes, notes=[*notes, _no_bound(report)])
        if comp is None:
            comp = _svm_comparator(ctx, best.comparator)
            notes.insert(0, f"u: {comp.label}")
        if gamma is None:
            gamma = best.gamma
            notes.append(f"gamma = {gamma:.6g}, the best for {best.name} ({best.variant}) on "
                         "the whole run")
    values = CURVES[run.algorithm](ctx, comp, gamma, variant == "tightened")
    if names is None:
        names = [name for name in known if np.isfinite(values[name]).any()]
        if not names:
            notes.append(_no_bound(report))
    return BoundCurves({name: values[name] for name in names}, gamma=gamma, comparator=comp,
                       variant=variant, mistakes=mistakes, notes=notes)


def _best_row(report, names, variant):
    """The smallest applicable row of the requested bounds in ``variant``, else of any bound.

    Falling back to any bound lets a bound that fails on the whole run (Novikoff on noisy
    data) still show the prefixes where it holds. None when no row applies.
    """
    applicable = [row for row in report.rows if row.applies]
    requested = [row for row in applicable
                 if row.variant == variant and (names is None or row.name in names)]
    return min(requested, key=lambda row: row.value,
               default=min(applicable, key=lambda row: (row.variant != variant, row.value),
                           default=None))


def _no_bound(report) -> str:
    """Why no bound applies, from evaluate's reasons."""
    reasons = sorted({row.reason for row in report.rows if row.reason is not None})
    return "no bound applies: " + ("; ".join(reasons) or "no bound of the papers")


def _svm_comparator(ctx, label):
    """The SVM comparator called ``label``, as evaluate fitted it (same data, same seed)."""
    for comp in svm_comparators(ctx.X, ctx.y, ctx.kernel, q=ctx.q):
        if comp.label == label:
            return comp
    raise AssertionError(f"evaluate's comparator {label!r} is not among the SVM comparators")


def _is_trial(run, trials) -> np.ndarray:
    """Boolean mask over the run's T trials, True at ``trials``."""
    mask = np.zeros(run.n_trials, dtype=bool)
    mask[trials] = True
    return mask


def _hinge(margins, gamma) -> np.ndarray:
    """l = max(0, gamma - margin) of each margin y u.x (``hinge_losses`` of the margins)."""
    return hinge_losses(margins[:, None], np.ones(margins.shape[0]), np.ones(1), gamma)


def _cumulative_d2(hinge) -> np.ndarray:
    """sqrt of the cumulative sums of hinge^2, the losses divided by the largest one first so
    that no square underflows or overflows (D2 of every prefix, theory §4)."""
    top = float(np.max(hinge, initial=0.0))
    if top == 0.0:
        return np.zeros_like(hinge)
    return top * np.sqrt(np.cumsum((hinge / top) ** 2))


def _applies(values, ok) -> np.ndarray:
    """``values`` where the condition ``ok`` holds, inf elsewhere (not applicable)."""
    return np.where(ok, np.asarray(values, dtype=np.float64), np.inf)


def _by_mistakes(run, per_mistake) -> np.ndarray:
    """At each trial t, the entry of ``per_mistake`` (indexed by k = 0..m) for k = m(t)."""
    return np.asarray(per_mistake)[np.cumsum(_is_trial(run, run.mistake_trials))]


# --- first order: Perceptron, voted Perceptron, Ballseptron (and the p-norm Perceptron at p = 2)


def _first_order_curves(ctx, comp, gamma, tight) -> dict:
    """Novikoff, Freund-Schapire, the D1 bound and the Ballseptron's corrected forms per prefix.

    Conditions (theory §4.1) on each prefix: Novikoff needs y u.x >= gamma on
    every trial used so far; on a Ballseptron run every stated bound needs
    r < (sqrt 2 - 1) gamma and gamma <= R(t) (the tightened ones only when the
    prefix has a margin error, the corrected exact roots never); the stated D1
    bound of the Perceptron needs gamma <= R(t).
    """
    run = ctx.run
    ball = run.algorithm == "ballseptron"
    r = float(run.params["r"]) if ball else 0.0
    rows = ctx.rows_all
    used = _is_trial(run, run.update_trials) if tight else np.ones(run.n_trials, dtype=bool)
    margins = (ctx.y * comp.values(ctx.X))[rows]
    hinge = np.where(used, _hinge(margins, gamma), 0.0)
    D1 = np.cumsum(hinge)
    D2 = _cumulative_d2(hinge)
    R = np.maximum.accumulate(np.where(used, ctx.norms[rows], 0.0))
    eps = np.cumsum(_is_trial(run, run.margin_error_trials))
    min_margin = np.minimum.accumulate(np.where(used, margins, np.inf))
    valid = not run.warm_started
    ball_ok = np.full(run.n_trials, valid)
    if ball:
        needed = np.full(run.n_trials, not tight) | (eps > 0)
        ball_ok &= ~needed | ((r / SQRT2_MINUS_1 < gamma) & (gamma <= R))
    with np.errstate(divide="ignore", invalid="ignore"):
        curves = {
            "novikoff": _applies(novikoff(R, gamma), ball_ok & (gamma <= min_margin)),
            "freund_schapire": _applies(freund_schapire(R, gamma, D2), ball_ok),
            "ballseptron_d1": _applies(ballseptron_d1(R, gamma, D1, exact=tight),
                                       ball_ok & ((gamma <= R) | ball | tight)),
        }
        if ball:
            corrected_ok = np.full(run.n_trials, valid) if tight else ball_ok
            for loss, D in (("d2", D2), ("d1", D1)):
                curves[f"ballseptron_corrected_{loss}"] = _applies(
                    ballseptron_corrected(R, gamma, D, r, eps, loss, exact=tight), corrected_ok)
    return curves


# --- p-norm Perceptron -------------------------------------------------------------------------


def _pnorm_curves(ctx, comp, gamma, tight) -> dict:
    """The p-norm Perceptron's bounds per prefix (and at p = 2 the Perceptron's).

    R_p(t) is the running maximum of ||x_s||_p, D1(t) and D2(t) cumulative sums of the
    hinge losses of u (||u||_q = 1), over every trial or, tightened, the mistaken ones;
    ``pnorm_separable`` needs y u.x >= gamma on each of them so far.
    """
    run, p = ctx.run, ctx.p
    curves = _first_order_curves(ctx, comp, gamma, tight) if p == 2.0 else {}
    rows = ctx.rows_all
    used = _is_trial(run, run.mistake_trials) if tight else np.ones(run.n_trials, dtype=bool)
    margins = (ctx.y * comp.values(ctx.X))[rows]
    hinge = np.where(used, _hinge(margins, gamma), 0.0)
    D1 = np.cumsum(hinge)
    D2 = _cumulative_d2(hinge)
    R_p = np.maximum.accumulate(np.where(used, ctx.p_norms[rows], 0.0))
    min_margin = np.minimum.accumulate(np.where(used, margins, np.inf))
    valid = np.full(run.n_trials, not run.warm_started)
    with np.errstate(divide="ignore", invalid="ignore"):
        curves["pnorm_separable"] = _applies(pnorm_separable(R_p, p, gamma),
                                             valid & (gamma <= min_margin))
        curves["pnorm_d2"] = _applies(pnorm_d2(R_p, p, gamma, D2), valid)
        curves["pnorm_d1"] = _applies(pnorm_d1(R_p, p, gamma, D1), valid)
    return curves


# --- second order -------------------------------------------------------------------------------


def _second_order_curves(ctx, comp, gamma, tight) -> dict:
    """The Second-Order bound of the run's variant, with X_{m(t)} the mistakes made so far."""
    run = ctx.run
    params = run.params
    rows_m = ctx.rows_mistakes
    is_mistake = _is_trial(run, run.mistake_trials)
    used = is_mistake if tight else np.ones(run.n_trials, dtype=bool)
    scores = comp.values(ctx.X)
    # the pseudoinverse bound takes the instances as the run used them (theory §4.1)
    scores = ctx.projected_scores(scores) if params["variant"] == "pinv" else scores[ctx.rows_all]
    margins = ctx.y[ctx.rows_all] * scores
    D = np.cumsum(np.where(used, _hinge(margins, gamma), 0.0))
    energy = np.concatenate(([0.0], np.cumsum(scores[run.mistake_trials] ** 2)))
    k_of_t = np.cumsum(is_mistake)
    out = np.full(run.n_trials, np.inf)
    name = {"pinv": "second_order_pinv", "adaptive": "second_order_adaptive"}.get(
        params["variant"], "second_order")
    if run.warm_started:
        return {name: out}
    growth = np.asarray(run.state.get("rank_growth", ()), dtype=np.int64)
    for k in range(ctx.m + 1):
        at = k_of_t == k
        if not at.any():
            continue
        Xk = ctx.X[rows_m[:k]]
        if params["variant"] == "pinv":
            eig, lambda_star = span_spectrum(Xk, ctx.kernel, rtol=params["span_tol"],
                                             rank_growth=growth[growth < k])
            out[at] = second_order_pinv_bound(eig, lambda_star, energy[k], D[at], gamma)
        elif params["variant"] == "adaptive":
            out[at] = second_order_adaptive_bound(
                mistake_spectrum(Xk, ctx.kernel), float(params["c"]), float(run.state["R"]),
                max(k, 1), energy[k], D[at], gamma)
        else:
            out[at] = second_order_bound(mistake_spectrum(Xk, ctx.kernel), float(params["a"]),
                                         energy[k], D[at], gamma)
    return {name: out}


# --- higher order -------------------------------------------------------------------------------


def _higher_order_curves(ctx, comp, gamma, tight) -> dict:
    """The Higher-Order bound (paper 000, Thm 1; p > 2 derived) on the transformed mistakes so far.

    The constant c of each prefix is the one :func:`evaluate` takes over the
    prefix's mistakes: stated, 1 - c for the schedule rho_k = c/k (applicable until
    a mistake breaks rho_k <= c/(1 + |v.x|), |g(x).v| for p > 2) or
    min_k 1 - rho_k (1 + |v.x|) for given steps; tightened,
    c_run = min_k min(r_k, 2 - r_k) (theory §4.2). For p > 2 the radius is the
    running maximum of the transformed instances' p-norms (theory §4.1).
    """
    run = ctx.run
    params, state, p = run.params, run.state, ctx.p
    out = np.full(run.n_trials, np.inf)
    if run.warm_started:
        return {"higher_order": out}
    ok = np.ones(ctx.m + 1, dtype=bool)  # per number of mistakes k = 0..m
    if not params["normalize"]:
        off = np.abs(ctx.p_norms[ctx.rows_mistakes] - 1.0)
        ok[1:] &= np.maximum.accumulate(off) <= UNIT_NORM_ATOL
    margins = np.zeros(0)
    radius = np.ones(ctx.m + 1)
    if ctx.m:
        margins = ctx.transformed_margins(comp.u if comp.u is not None else comp.values)
        if p != 2.0:
            radius = np.maximum.accumulate(np.concatenate(([0.0], ctx.transformed_norms)))
    D = np.concatenate(([0.0], np.cumsum(_hinge(margins, gamma))))
    step = hop_step_terms(run)
    if tight:
        r_k = np.asarray(state["r"], dtype=np.float64)
        c = np.minimum.accumulate(np.concatenate(([1.0], np.minimum(r_k, 2.0 - r_k))))
    elif params["rho"] is None:
        c = np.full(ctx.m + 1, 1.0 - params["c"])
        slack = step - (1.0 - c[0])
        ok[1:] &= np.maximum.accumulate(slack) <= _SLACK_ATOL
    else:
        c = np.minimum.accumulate(np.concatenate(([1.0], 1.0 - step)))
    ok &= c > 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = hop_alpha(np.where(ok, c, 1.0))
        values = _applies(higher_order_bound(alpha, D, gamma, p=p, radius=radius), ok)
    return {"higher_order": _by_mistakes(run, values)}


# The curves of each registered algorithm: (RunData, Comparator, gamma, tightened) -> dict
# name -> values over the trials; the names are those of evaluate's BOUNDS for the algorithm.
CURVES = {
    "perceptron": _first_order_curves,
    "voted_perceptron": _first_order_curves,
    "ballseptron": _first_order_curves,
    "pnorm": _pnorm_curves,
    "second_order": _second_order_curves,
    "higher_order": _higher_order_curves,
}
