"""``evaluate``: every mistake bound that applies to a run, held against its mistakes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from .._interrupt import interruptible
from .._validation import check_choice, check_class_labels, check_real, check_X
from ..algorithms._common import MEMORY_BUDGET, check_memory_budget
from ..run import OnlineRun
from .ballseptron import ballseptron_beta, ballseptron_corrected, ballseptron_d1
from .first_order import freund_schapire, novikoff
from .higher_order import higher_order_bound, hop_alpha
from .multiclass import KESLER_FACTOR, MulticlassRunData, multiclass_margins, sum_over_classes
from .pnorm import pnorm_d1, pnorm_d2, pnorm_separable
from .quantities import HingeProfile, RunData, hop_c_run, hop_step_terms
from .report import BoundReport, BoundRow, MulticlassBoundReport
from .search import (
    Comparator,
    crammer_singer_comparators,
    gamma_candidates,
    minimise_over_gamma,
    svm_comparators,
    unit_comparator,
    unit_prototypes,
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


@interruptible()
def evaluate(run, X, y, *, u=None, gamma=None, comparator="auto",
             target=None, memory_budget=None) -> BoundReport | MulticlassBoundReport:
    """Evaluate every mistake bound of the papers that applies to ``run``.

    Parameters
    ----------
    run : OnlineRun
        A run of a registered algorithm, binary or multiclass. The theorems
        count mistakes from the zero state, so every bound of a warm-started
        run (``run.warm_started``, e.g. after ``partial_fit``) is reported as
        not applicable.
    X, y : array-like
        The training data of the run (the rows its ``sample_index`` points to),
        with the labels as given to the run; other data are a one-line ``ValueError``
        (:meth:`~perceptron_bounds.run.OnlineRun.check_data`).
    u : ndarray, optional
        The comparator, linear-kernel runs only: shape (n_features,), scaled to
        unit norm (unit q-norm, q = p / (p - 1), for the p-norm Perceptron and
        the Higher-Order Perceptron with p > 2; theory §4.1), for a binary run;
        shape (K, n_features), one prototype per
        class in the order of ``run.classes``, for a multiclass run: scaled to
        unit Frobenius norm for a native run, row k to unit norm for class k of
        a one-vs-rest run.
    gamma : float, optional
        The margin; searched per bound when None (theory §4.3). A one-vs-rest
        run uses it for every class.
    comparator : {"auto", "target", "svm"}, default="auto"
        How u is chosen when not given: ``"target"`` the data's known target,
        ``"svm"`` SVMs over C in ``search.SVM_C`` (the best for each bound):
        normalised linear SVM directions (in the q-norm for p > 2; a kernel SVM
        of unit RKHS norm for
        kernel runs), Crammer-Singer prototypes for a native run (stacked
        one-vs-rest kernel SVMs for kernel runs); ``"auto"`` the target when
        known, else the SVM. A one-vs-rest run uses the SVM of each class
        against the rest under ``"auto"``: a row of a multiclass target does
        not separate its class from the rest.
    target : ndarray, optional
        The data's known target: shape (n_features,) (e.g.
        ``make_separable(...).u``), or (K, n_features) prototypes for a
        multiclass run.
    memory_budget : float, optional
        The most bytes the dense matrices of the bounds may take (the
        Second-Order bounds' Gram matrix of the mistakes, the Higher-Order
        bound's kernel values of its factors against the mistakes, ...); over
        it, a ``ValueError`` before any work. Default: the run's
        ``memory_budget``, else 2 GiB. Sparse X stays sparse throughout.

    Returns
    -------
    BoundReport or MulticlassBoundReport
        A binary or native multiclass run: one row per bound and variant
        (``"stated"``, theory §4.1; ``"tightened"``, theory §4.2); a bound
        whose conditions fail is reported with its reason. A one-vs-rest run:
        a :class:`MulticlassBoundReport` with each class's report and every
        bound summed over the classes, a bound on ``run.corrections``
        (theory §4.5).

    Raises
    ------
    KeyboardInterrupt
        On Ctrl-C (SIGINT) in the main thread: a jitted loop stops at its next
        check (between mistakes) and no report is returned.

    Notes
    -----
    Bounds per algorithm: the Perceptron, voted Perceptron and p-norm
    Perceptron with p = 2: ``novikoff`` (001 Thm 1), ``freund_schapire``
    (001 Thm 2), ``ballseptron_d1`` (004 Thm 2 with r = 0); the p-norm
    Perceptron, any p >= 2, with R_p = max ||x_t||_p and ||u||_q = 1:
    ``pnorm_separable`` ((p - 1) R_p^2 / gamma^2, GLS01), ``pnorm_d1`` (the
    exact root of m gamma - D1 <= sqrt((p - 1) m) R_p, Gen03) and ``pnorm_d2``
    (((sqrt(p - 1) R_p + D2) / gamma)^2, derived); the Ballseptron:
    the same under 0 < gamma <= R and r < (sqrt(2) - 1) gamma (004 Thm 1-2),
    and ``ballseptron_corrected_d2`` (Cor. 1), ``ballseptron_corrected_d1``
    (eq. 17); the Second-Order Perceptron: ``second_order`` (003 Thm 1, Cor. 1
    for kernels), ``second_order_adaptive`` (Thm 3) or ``second_order_pinv``
    (Thm 4) by its variant; the Higher-Order Perceptron: ``higher_order``
    (000 Thm 1 for p = 2; for p > 2 the derived form with ||u||_q = 1 and the
    p-norm radius of the transformed mistakes, theory §4.1).

    Multiclass (theory §4.5): one-vs-rest, every binary bound per class and
    their sums; the native Perceptron and Ballseptron, the same first-order
    bounds through Kesler's construction (derived), with
    R = sqrt(2) max ||x_t||, r replaced by sqrt(2) r, prototypes with
    sum_q ||u^q||^2 = 1 and the hinge loss
    max(0, gamma - min_{q != y_t} (u^{y_t} - u^q).x_t).

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

    Three classes, natively and one-vs-rest:

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X3 = rng.standard_normal((60, 3))
    >>> y3 = np.argmax(X3 @ rng.standard_normal((3, 3)).T, axis=1)
    >>> native = run_online("perceptron", X3, y3, multiclass="native", epochs=2)
    >>> row = evaluate(native, X3, y3).row("freund_schapire", "tightened")
    >>> row.holds, row.source
    (True, '004 sec. 4 + Kesler (derived; 001 Thm 2) + theory §4.2')
    >>> ovr = run_online("perceptron", X3, y3, multiclass="ovr")
    >>> report = evaluate(ovr, X3, y3)
    >>> report.corrections == ovr.corrections >= ovr.mistakes, report.holds
    (True, True)
    """
    if not isinstance(run, OnlineRun):
        raise TypeError(f"run must be an OnlineRun, got {type(run).__name__}")
    X = run.check_data(X, y)  # the run's own data, by its fingerprint
    comparator = check_choice("comparator", comparator, COMPARATORS)
    if gamma is not None:
        gamma = check_real("gamma", gamma, low=0.0, include_low=False)
    budget = run.params.get("memory_budget", MEMORY_BUDGET) if memory_budget is None else (
        check_memory_budget(memory_budget))
    for binary in run.class_runs if run.multiclass == "ovr" else (run,):
        _check_memory(binary, sp.issparse(X), budget)
    return MODES[run.multiclass](run, X, y, u, gamma, comparator, target)


def _check_memory(run, sparse: bool, budget: float) -> None:
    """``ValueError`` naming ``memory_budget`` if the bounds' dense matrices would pass it.

    The largest of them, by algorithm: the Second-Order bounds' Gram matrix of
    the m mistakes (or X_m^T X_m, n x n, for a linear run with n < m) and its
    eigendecomposition, with the m x r coordinates of the pseudoinverse variant;
    the Higher-Order bound's kernel values of its a factors against the
    mistakes, or the p-norm link of its a dense factors (p > 2), or the dense
    mistaken rows.
    """
    m, n, params = run.mistakes, run.n_features, run.params
    linear = params.get("kernel", "linear") == "linear"
    shapes = []
    if run.algorithm == "second_order":
        width = min(m, n) if linear else m
        shapes.append((2, m if params["variant"] == "pinv" else width, width,
                       "the Gram matrix of the mistakes and its eigendecomposition"))
    elif run.algorithm == "higher_order":
        a = run.state["factor_rho"].shape[0] if "factor_rho" in run.state else m
        if not linear:
            shapes.append((4, a, m, "the kernel values of the factors against the mistakes"))
        elif params["form"] == "implicit" and params["p"] != 2.0:
            shapes.append((1, a, n, "the p-norm link of the factors"))
    if run.algorithm in ("second_order", "higher_order") and not sparse:
        shapes.append((1, m, n, "the mistaken rows"))
    for count, rows, cols, what in shapes:
        size = 8.0 * count * rows * cols
        if size > budget:
            raise ValueError(
                f"evaluate would hold {count} dense {rows} x {cols} float64 "
                f"matri{'x' if count == 1 else 'ces'} ({what}; {size / 1024**3:.3g} GiB), over "
                f"memory_budget={budget / 1024**3:.3g} GiB; pass evaluate(..., memory_budget=...) "
                "to raise it")


def _evaluate_binary(run, X, y, u, gamma, comparator, target) -> BoundReport:
    return binary_report(RunData(run, X, y), u=u, gamma=gamma, comparator=comparator,
                         target=target)


def binary_report(ctx, *, u=None, gamma=None, comparator="auto", target=None) -> BoundReport:
    """:func:`evaluate` of a binary run given as its :class:`~.quantities.RunData`.

    For callers that hold one already (``bounds_over_time``), so that what it
    caches, the spectrum of the mistakes or the p-norms of a Higher-Order
    run's transformed sequence, is computed once. ``gamma`` (None or > 0) and
    ``comparator`` are taken as checked.
    """
    run = ctx.run
    n = run.n_features
    comparators, notes = _comparators(
        ctx, u, target, comparator,
        unit=lambda v, label: unit_comparator(v, n, label, ctx.kernel, q=ctx.q),
        fitted=lambda: svm_comparators(ctx.X, ctx.y, ctx.kernel, q=ctx.q), what="u")
    rows = _rows(ctx, comparators, gamma, BOUNDS[run.algorithm])
    if not rows:
        notes.append(f"no bound of the papers applies to {run.algorithm!r}")
    return BoundReport(run.algorithm, dict(run.params), run.n_trials, run.mistakes,
                       run.margin_errors, tuple(rows), tuple(notes))


def _evaluate_native(run, X, y, u, gamma, comparator, target) -> BoundReport:
    """A native multiclass run: the first-order bounds through Kesler (theory §4.5)."""
    ctx = MulticlassRunData(run, X, y)
    K, n = ctx.n_classes, run.n_features
    comparators, notes = _comparators(
        ctx, u, target, comparator,
        unit=lambda U, label: unit_prototypes(U, K, n, label, ctx.kernel),
        fitted=lambda: crammer_singer_comparators(ctx.X, ctx.y, K, ctx.kernel),
        what="prototypes")
    specs_of = NATIVE_BOUNDS.get(run.algorithm)
    rows = [] if specs_of is None else _rows(ctx, comparators, gamma, specs_of)
    if not rows:
        notes.append(f"no bound is proved for the native multiclass {run.algorithm!r}")
    return BoundReport(run.algorithm, dict(run.params), run.n_trials, run.mistakes,
                       run.margin_errors, tuple(rows), tuple(notes), "native")


def _evaluate_ovr(run, X, y, u, gamma, comparator, target) -> MulticlassBoundReport:
    """One-vs-rest: each class run's binary report, and the bounds summed (theory §4.5)."""
    X = check_X(X, n_features=run.n_features)
    y_index, classes = check_class_labels(y, X.shape[0], run.classes)
    K, n = classes.shape[0], run.n_features
    U = _class_rows("u", u, K, n)
    targets = _class_rows("target", target, K, n) if comparator == "target" else None
    reports = []
    notes = ["one-vs-rest: class k's bounds are those of its binary run, class k (+1) against "
             "the rest (-1), each at its own comparator and gamma (report.class_reports[k])"]
    for k, class_run in enumerate(run.class_runs):
        y_k = np.where(y_index == k, 1.0, -1.0)
        if U is None and targets is None and np.all(y_k == y_k[0]):
            raise ValueError(f"class {classes.tolist()[k]!r} against the rest shows one label "
                             "only in y, so no SVM comparator can be fitted for it: pass u, one "
                             f"row per class, shape ({K}, {n})")
        report = _evaluate_binary(class_run, X, y_k, None if U is None else U[k], gamma,
                                  "svm" if comparator == "auto" else comparator,
                                  None if targets is None else targets[k])
        reports.append(report)
        notes.extend(note for note in report.notes if note not in notes)
    return sum_over_classes(run, reports, notes)


def _class_rows(name, value, K, n):
    """A given (K, n) matrix of per-class comparators (u or target), checked; None if absent."""
    if value is None:
        return None
    value = np.asarray(value, dtype=np.float64)
    if value.shape != (K, n):
        raise ValueError(f"{name} must have shape ({K}, {n}) for a one-vs-rest run (row k the "
                         f"comparator of class k against the rest), got {value.shape}")
    return value


def _comparators(ctx, u, target, comparator, *, unit, fitted,
                 what) -> tuple[list[Comparator], list[str]]:
    """The comparators of a run: ``unit(v, label)`` scales a given u or target, ``fitted()``
    fits the SVMs; ``what`` names u in the notes ("u" or "prototypes")."""
    q = getattr(ctx, "q", 2.0)
    scaled = "unit norm" if what == "u" else "unit Frobenius norm"
    if q != 2.0:
        scaled = f"unit q-norm, q = p/(p - 1) = {q:.6g}"
    if u is not None:
        return [unit(u, "given")], [f"{what}: given (scaled to {scaled})"]
    if comparator == "target" and target is None:
        raise ValueError("comparator='target' needs the data's known target: pass target=u")
    if comparator == "target" and not ctx.kernel.is_linear:
        raise ValueError(f"comparator='target' needs a linear-kernel run; this run uses the "
                         f"{ctx.kernel.name!r} kernel: use comparator='svm'")
    if target is not None and comparator in ("auto", "target") and ctx.kernel.is_linear:
        return [unit(target, "target")], [f"{what}: the data's target (scaled to {scaled})"]
    comps = fitted()
    if not comps:
        raise ValueError("no SVM comparator could be fitted (one class in y, or a zero solution)")
    if what == "u" and ctx.kernel.is_linear:
        note = "u: normalised linear SVM direction, the best over C for each bound"
        if q != 2.0:
            note = f"u: linear SVM direction scaled to {scaled}, the best over C for each bound"
    elif what == "u":
        note = (f"f: kernel SVM ({ctx.kernel.name} kernel) scaled to unit norm in the kernel's "
                "feature space, intercept dropped, the best over C for each bound")
    elif ctx.kernel.is_linear:
        note = ("prototypes: Crammer-Singer multiclass linear SVM (LinearSVC(multi_class="
                "'crammer_singer')) scaled to unit Frobenius norm, the best over C for each bound")
    else:
        note = (f"prototypes: one-vs-rest kernel SVMs ({ctx.kernel.name} kernel), intercepts "
                "dropped, scaled together to sum_q ||f^q||^2 = 1 in the kernel's feature space, "
                "the best over C for each bound")
    return comps, [note, *dict.fromkeys(comp.note for comp in comps if comp.note)]


def _rows(ctx, comparators, gamma, specs_of) -> list[BoundRow]:
    """Each bound's row at the best of the comparators (the specs of ``specs_of(ctx, comp)``)."""
    return [_best_row(ctx, specs, comparators, gamma)
            for specs in zip(*(specs_of(ctx, comp) for comp in comparators), strict=True)]


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


# --- first order: Perceptron, voted Perceptron, Ballseptron (and the p-norm Perceptron at p = 2)


@dataclass(frozen=True)
class _Reduction:
    """How the trials of a run enter the first-order bounds.

    The binary run itself, or a native multiclass run through Kesler's
    construction (theory §4.5): the update vectors have norm ``factor`` ||x||,
    the Ballseptron's ball radius ``factor`` r, the margins are multiclass.
    """

    factor: float
    R_text: str
    r_text: str
    margin_text: str
    source: Callable[[str], str]


_BINARY = _Reduction(1.0, "R", "r", "min y u.x", lambda source: source)
_KESLER = _Reduction(KESLER_FACTOR, "R = sqrt2 max ||x||", "r' = sqrt2 r",
                     "min over trials of min_{q != y} (u^y - u^q).x",
                     lambda source: f"004 sec. 4 + Kesler (derived; {source})")


def _first_order_specs(ctx, comp) -> list[_Spec]:
    return _perceptron_family(ctx, ctx.y * comp.values(ctx.X), _BINARY)


def _kesler_specs(ctx, comp) -> list[_Spec]:
    return _perceptron_family(ctx, multiclass_margins(comp.values(ctx.X), ctx.y), _KESLER)


def _perceptron_family(ctx, margins, reduction) -> list[_Spec]:
    """The first-order bounds of a run whose row i has margin ``margins[i]`` under the
    comparator, in both variants."""
    run = ctx.run
    ball = run.algorithm == "ballseptron"
    r = reduction.factor * float(run.params["r"]) if ball else 0.0
    eps = run.margin_errors
    names = ["novikoff", "freund_schapire", "ballseptron_d1"]
    if ball:
        names += ["ballseptron_corrected_d2", "ballseptron_corrected_d1"]
    not_applicable = _WARM if run.warm_started else None
    specs = []
    for variant in VARIANTS:
        rows = ctx.rows_all if variant == "stated" else ctx.rows_updates
        profile = HingeProfile(margins[rows])
        R = reduction.factor * ctx.radius(rows)
        scope = "all" if variant == "stated" else "updates"
        ball_conditions = []
        if ball and (variant == "stated" or eps > 0):
            ball_conditions = [
                _Condition(r / SQRT2_MINUS_1, np.inf, f"{reduction.r_text} < (sqrt2 - 1) gamma, "
                           f"i.e. gamma > {r / SQRT2_MINUS_1:.6g}"),
                _Condition(0.0, R, f"gamma <= {reduction.R_text} = {R:.6g}"),
            ]
        scale = max(R, float(profile.margins[-1]) if profile.size else 0.0)
        common = {"R": R, "trials": scope, "n_trials_used": profile.size}
        if reduction is _KESLER:
            common["max_norm"] = ctx.radius(rows)
        if ball:
            common.update(r=float(run.params["r"]), margin_errors=eps)
            if reduction is _KESLER:
                common["r_kesler"] = r
        tight = variant == "tightened"
        suffix = " + theory §4.2" if tight else ""
        for name in names:
            spec = _first_order_spec(name, profile, R, r, eps, tight, ball, ball_conditions,
                                     common, reduction)
            spec.variant, spec.scale, spec.reason = variant, scale, not_applicable
            spec.source = reduction.source(spec.source) + suffix
            specs.append(spec)
    return specs


def _first_order_spec(name, profile, R, r, eps, tight, ball, ball_conditions, common,
                      reduction) -> _Spec:
    if name == "novikoff":
        mm = profile.min_margin
        which = "every trial" if common["trials"] == "all" else "every update trial"
        separation = _Condition(0.0, mm, f"u separates {which} with margin gamma: "
                                f"gamma <= {reduction.margin_text} = {mm:.6g}")
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
            conditions.append(_Condition(0.0, R, f"gamma <= {reduction.R_text} = {R:.6g}"))
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
    scores = comp.values(ctx.X)
    # f(x_t) on each trial; for the pseudoinverse, on the instances as the run used them
    # (projected where it found them inside the span, theory §4.1).
    scores = ctx.projected_scores(scores) if variant == "pinv" else scores[ctx.rows_all]
    margins = ctx.y[ctx.rows_all] * scores
    energy = float(np.sum(scores[run.mistake_trials] ** 2))
    reason = _WARM if run.warm_started else None
    try:  # LAPACK's symmetric eigensolver can stop ("Internal Error.") on ill-conditioned input
        spectrum = ctx.span if variant == "pinv" else (ctx.spectrum, None)
    except np.linalg.LinAlgError as exc:
        reason = f"the eigenvalues of the mistakes' Gram matrix could not be computed ({exc})"
        spectrum = (np.zeros(0), np.inf)
    if variant == "pinv":
        name, source = "second_order_pinv", "003 Thm 4 (derived)"
        eig, lambda_star = spectrum
        extra = {"rank": int(eig.shape[0]), "lambda_star": lambda_star}

        def bound(D, g):
            return second_order_pinv_bound(eig, lambda_star, energy, D, g)
    else:
        eig = spectrum[0]
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
        trials = slice(None) if variant_name == "stated" else run.mistake_trials
        profile = HingeProfile(margins[trials])
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


# --- p-norm Perceptron -------------------------------------------------------------------------


def _pnorm_specs(ctx, comp) -> list[_Spec]:
    """The p-norm Perceptron's bounds (theory §4.1); at p = 2 the Perceptron's as well."""
    margins = ctx.y * comp.values(ctx.X)
    first = _perceptron_family(ctx, margins, _BINARY) if ctx.p == 2.0 else []
    return first + _pnorm_family(ctx, margins)


def _pnorm_family(ctx, margins) -> list[_Spec]:
    """``pnorm_separable``, ``pnorm_d2``, ``pnorm_d1`` in both variants: R_p, the hinge losses
    and the separation over all trials (stated) or the mistaken ones (tightened)."""
    run, p = ctx.run, ctx.p
    reason = _WARM if run.warm_started else None
    specs = []
    for variant in VARIANTS:
        rows = ctx.rows_all if variant == "stated" else ctx.rows_mistakes
        profile = HingeProfile(margins[rows])
        R_p = ctx.radius_p(rows)
        scale = max(R_p, float(profile.margins[-1]) if profile.size else 0.0)
        common = {"R_p": R_p, "p": p, "q": ctx.q,
                  "trials": "all" if variant == "stated" else "mistakes",
                  "n_trials_used": profile.size}
        suffix = " + theory §4.2" if variant == "tightened" else ""
        for name in ("pnorm_separable", "pnorm_d2", "pnorm_d1"):
            spec = _pnorm_spec(name, profile, R_p, p, common)
            spec.variant, spec.scale, spec.reason = variant, scale, reason
            spec.source += suffix
            specs.append(spec)
    return specs


def _pnorm_spec(name, profile, R_p, p, common) -> _Spec:
    if name == "pnorm_separable":
        mm = profile.min_margin
        which = "every trial" if common["trials"] == "all" else "every mistaken trial"
        separation = _Condition(0.0, mm, f"u separates {which} with margin gamma: "
                                f"gamma <= min y u.x = {mm:.6g}")
        return _Spec(name, "", "GLS01; Gen03", lambda g: pnorm_separable(R_p, p, g), profile,
                     conditions=[separation], quantities=lambda g: {**common, "min_margin": mm})
    if name == "pnorm_d2":
        return _Spec(name, "", "Gen03 + Cauchy-Schwarz (derived)",
                     lambda g: pnorm_d2(R_p, p, g, profile.d2(g)), profile,
                     quantities=lambda g: {**common, "D2": float(profile.d2(g))})
    return _Spec(name, "", "Gen03", lambda g: pnorm_d1(R_p, p, g, profile.d1(g)), profile,
                 quantities=lambda g: {**common, "D1": float(profile.d1(g))})


# --- higher order -------------------------------------------------------------------------------


def _higher_order_specs(ctx, comp) -> list[_Spec]:
    """Paper 000's Theorem 1 (p = 2) and its p > 2 form (derived, theory §4.1), both variants.

    For p > 2 the transformed instances are measured in ||.||_p: the bound takes their
    largest p-norm over the mistakes as its radius, and u has ||u||_q = 1.
    """
    run = ctx.run
    params, p = run.params, ctx.p
    norm = "||x||" if p == 2.0 else "||x||_p"
    reason = None
    if run.warm_started:
        reason = _WARM
    elif not params["normalize"]:
        norms = ctx.p_norms[ctx.rows_mistakes]
        if norms.size and np.max(np.abs(norms - 1.0)) > UNIT_NORM_ATOL:
            reason = (f"instances without unit {'norm' if p == 2.0 else 'p-norm'} "
                      f"(normalize=False; {norm} of the mistakes in "
                      f"[{norms.min():.6g}, {norms.max():.6g}])")
    margins = np.zeros(0)
    radius = 1.0
    if reason is None and ctx.m:
        margins = ctx.transformed_margins(comp.u if comp.u is not None else comp.values)
        if p != 2.0:
            radius = float(ctx.transformed_norms.max())
    profile = HingeProfile(margins)
    step = hop_step_terms(run)
    gv = "|v.x|" if p == 2.0 else "|g(x).v|"
    derived = "" if p == 2.0 else ", p > 2 (derived)"
    specs = []
    for variant in VARIANTS:
        spec_reason = reason
        if variant == "stated":
            if params["rho"] is None:
                c = 1.0 - params["c"]
                what = f"c' = 1 - c = {c:.6g} (schedule rho_k = c/k, theory §4.2)"
                slack = step - (1.0 - c)
                if spec_reason is None and slack.size and slack.max() > 1e-12:
                    spec_reason = (f"rho_k <= (1 - c')/(1 + {gv}) fails at mistake "
                                   f"{int(np.argmax(slack))}")
            else:
                c = float(np.min(1.0 - step, initial=1.0))
                what = f"c = min_k 1 - rho_k (1 + {gv}) = {c:.6g}"
            source = "000 Thm 1" + derived
        else:
            c = hop_c_run(run)
            what = f"c_run = min_k min(r_k, 2 - r_k) = {c:.6g}"
            source = "000 Thm 1" + derived + " + theory §4.2"
        if spec_reason is None and not c > 0.0:
            spec_reason = f"{what} <= 0"
        alpha = float(hop_alpha(c)) if c > 0 else np.inf
        scale = max(radius, float(profile.margins[-1]) if profile.size else 0.0)
        specs.append(_Spec(
            "higher_order", variant, source, _ho_value(alpha, profile, p, radius), profile,
            scale, [], _ho_quantities(profile, alpha, c, p, radius), spec_reason,
        ))
    return specs


def _ho_value(alpha, profile, p, radius):
    return lambda g: higher_order_bound(alpha, profile.d1(g), g, p=p, radius=radius)


def _ho_quantities(profile, alpha, c, p, radius):
    extra = {} if p == 2.0 else {"p": p, "transformed_R_p": radius}
    return lambda g: {"D": float(profile.d1(g)), "trials": "transformed mistakes",
                      "alpha": alpha, "c": c, **extra}


# The bounds of each registered algorithm: a function (RunData, Comparator) -> its bound specs
# in both variants. A new algorithm adds its entry here (an empty list: no bound applies).
BOUNDS = {
    "perceptron": _first_order_specs,
    "voted_perceptron": _first_order_specs,
    "ballseptron": _first_order_specs,
    "pnorm": _pnorm_specs,
    "second_order": _second_order_specs,
    "higher_order": _higher_order_specs,
}

# The bounds of each algorithm's native multiclass form (theory §4.5), as BOUNDS: a function
# (MulticlassRunData, Comparator of K prototypes) -> specs. An algorithm with a native form and
# no entry here is reported with no bound.
NATIVE_BOUNDS = {
    "perceptron": _kesler_specs,
    "ballseptron": _kesler_specs,
}

# How each kind of run is evaluated, by ``run.multiclass``: binary (None), one-vs-rest (every
# class run by BOUNDS, then summed) or native (NATIVE_BOUNDS).
MODES = {
    None: _evaluate_binary,
    "ovr": _evaluate_ovr,
    "native": _evaluate_native,
}
