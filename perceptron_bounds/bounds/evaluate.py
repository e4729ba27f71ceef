"""``evaluate``: every mistake bound that applies to a run, held against its mistakes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from numbers import Real
from types import SimpleNamespace

import numpy as np
import scipy.sparse as sp

from .._interrupt import interruptible
from .._validation import check_choice, check_class_labels, check_int, check_real, check_X
from ..algorithms._common import MEMORY_BUDGET, check_memory_budget
from ..run import OnlineRun
from .declaration import Requirement, bounds_of, by_provider, provider_of
from .multiclass import MulticlassRunData, sum_over_classes
from .quantities import RunData
from .report import EXPECTATION_SIGMAS, BoundReport, BoundRow, MulticlassBoundReport
from .search import (
    Comparator,
    crammer_singer_comparators,
    gamma_candidates,
    minimise_over_gamma,
    svm_comparators,
    unit_comparator,
    unit_prototypes,
)
from .tracking import tracking_rows

COMPARATORS = ("auto", "target", "svm")
VARIANTS = ("stated", "tightened")
_WARM = "a warm-started run: the theorem counts mistakes from the zero state"


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
    margins: np.ndarray = field(default_factory=lambda: np.zeros(0))
    scale: float = 1.0
    conditions: list = field(default_factory=list)
    quantities: Callable = dict
    reason: str | None = None
    expectation: bool = False
    parts: tuple = ()  # the specs of the runs a mean over several runs is made of


@interruptible()
def evaluate(run, X, y, *, u=None, gamma=None, comparator="auto",
             target=None, memory_budget=None,
             pieces=None) -> BoundReport | MulticlassBoundReport:
    """Evaluate every mistake bound of the papers that applies to ``run``.

    Parameters
    ----------
    run : OnlineRun, or list or tuple of OnlineRun
        A run of a registered algorithm, binary or multiclass. The theorems
        count mistakes from the zero state, so every bound of a warm-started
        run (``run.warm_started``, e.g. after ``partial_fit``) is reported as
        not applicable. Several binary or one-vs-rest runs that differ by their
        seed only (the same algorithm, parameters, epochs, shuffle and data): the
        report of their mean, for the bounds in expectation over the draws of a
        randomized algorithm (``Bound.expectation``, theory §4.13). Its
        ``mistakes`` are the mean mistakes and each bound's value is the mean of
        its value over the runs at one comparator and one gamma (searched for the
        smallest mean), an estimate of the expectation the theorem bounds; each
        row carries the draws' excesses (mistakes minus bound), whose standard
        error judges it: a bound in expectation is exceeded only beyond
        ``report.EXPECTATION_SIGMAS`` (3) standard errors, "within sampling error"
        below (records: ``mean_mistakes``, ``stderr``, ``n_draws``). One-vs-rest
        runs are averaged class by class, then summed (theory §4.5).
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
        a one-vs-rest run. For a binary run also a **comparator sequence**, shape
        (n_trials, n_features): row t the comparator of presented trial t (as
        ``datasets.make_drifting`` returns for a run of one epoch in order; pass
        ``U[run.sample_index]`` for rows given per sample). The report then adds the
        shifting bounds of theory §4.15 (names with ``shifting`` or ``tracking``),
        each at the best scale of the sequence, with the sequence's hinge loss,
        total shift and largest norm among its quantities; the fixed-comparator
        rows are chosen as without ``u``.
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
    pieces : int, optional
        Without a sequence: add the shifting bounds at the best piecewise-constant
        comparator sequence of 1..``pieces`` pieces (theory §4.15), searched by
        greedy splits with a linear SVM direction per piece; ``pieces=1`` is a
        fixed comparator. Binary runs only.

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
    Bounds per algorithm, as each algorithm's registration lists them
    (``Algorithm.bounds``; the declarations: :mod:`.declaration`): the Perceptron, voted Perceptron and p-norm
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
    p-norm radius of the transformed mistakes, theory §4.1); the selective-sampling
    Perceptron and Second-Order Perceptron: ``selective_perceptron`` and
    ``selective_second_order`` (derived, on the expected mistakes over the draws,
    theory §4.13).

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
    runs = _runs_of(run)
    run = runs[0]
    X = run.check_data(X, y)  # the run's own data, by its fingerprint (the others': the same)
    comparator = check_choice("comparator", comparator, COMPARATORS)
    if gamma is not None:
        gamma = check_real("gamma", gamma, low=0.0, include_low=False)
    budget = run.params.get("memory_budget", MEMORY_BUDGET) if memory_budget is None else (
        check_memory_budget(memory_budget))
    for binary in run.class_runs if run.multiclass == "ovr" else runs:
        check_memory(binary, sp.issparse(X), budget)
    U = None
    if u is not None and run.multiclass is None and np.ndim(u) == 2:
        U, u = check_sequence(u, run), None
    if pieces is not None:
        pieces = check_int("pieces", pieces, low=1)
        if U is not None:
            raise ValueError("pieces searches a comparator sequence; a sequence u was given")
    tracking = U is not None or pieces is not None
    if tracking and (len(runs) > 1 or run.multiclass is not None):
        raise ValueError("shifting bounds (a sequence u, or pieces) are evaluated for one "
                         "binary run")
    report = MODES[run.multiclass](runs, X, y, u, gamma, comparator, target)
    if not tracking:
        return report
    rows, notes = tracking_rows(RunData(run, X, y), U, pieces)
    return replace(report, rows=report.rows + tuple(rows), notes=report.notes + tuple(notes))


def check_sequence(U, run) -> np.ndarray:
    """A comparator sequence for ``run``: float64 (n_trials, n_features), finite."""
    U = np.asarray(U, dtype=np.float64)
    shape = (run.n_trials, run.n_features)
    if U.shape != shape:
        raise ValueError(f"a comparator sequence u must have shape {shape} (one row per "
                         f"presented trial: pass U[run.sample_index] for rows given per "
                         f"sample), got {U.shape}")
    if not np.isfinite(U).all():
        raise ValueError("the comparator sequence u has NaN or infinite entries")
    return np.ascontiguousarray(U)


def _runs_of(run) -> tuple:
    """``(run,)``, or the runs of several seeds to average, checked to differ by the seed only."""
    if isinstance(run, OnlineRun):
        return (run,)
    if not isinstance(run, list | tuple) or not run:
        empty = " (empty)" if isinstance(run, list | tuple) else ""
        raise TypeError(f"run must be an OnlineRun or a non-empty list of them, got "
                        f"{type(run).__name__}{empty}")
    for each in run:
        if not isinstance(each, OnlineRun):
            raise TypeError(f"run must hold OnlineRun only, got {type(each).__name__}")
    first = run[0]
    if first.multiclass == "native" and len(run) > 1:
        raise ValueError("evaluate averages binary and one-vs-rest runs; these are multiclass="
                         "'native', whose bounds are not in expectation over draws")
    for each in run[1:]:
        for name in ("algorithm", "params", "epochs", "shuffle", "warm_started", "multiclass",
                     "data_fingerprint"):
            if getattr(each, name) != getattr(first, name):
                raise ValueError(f"the runs to average must differ by their seed only; their "
                                 f"{name} differs: {getattr(first, name)!r} and "
                                 f"{getattr(each, name)!r}")
    seeds = [each.seed for each in run]
    if len(set(seeds)) < len(seeds):
        raise ValueError(f"the runs to average must have distinct seeds, got {seeds}")
    return tuple(run)


def check_memory(run, sparse: bool, budget: float) -> None:
    """``ValueError`` naming ``memory_budget`` if the bounds' dense matrices would pass it.

    The largest of them, as the providers of the run's bounds declare them
    (``Quantities.memory``): the Second-Order bounds' Gram matrix of
    the m mistakes (or X_m^T X_m, n x n, for a linear run with n < m) and its
    eigendecomposition, with the m x r coordinates of the pseudoinverse variant;
    the Higher-Order bound's kernel values of its a factors against the
    mistakes, or the p-norm link of its a dense factors (p > 2), or the dense
    mistaken rows.
    """
    shapes = []
    for group in by_provider(bounds_of(run)):
        for shape in provider_of(group[0], run.multiclass == "native").memory(run, sparse):
            if shape not in shapes:
                shapes.append(shape)
    for count, rows, cols, what in shapes:
        size = 8.0 * count * rows * cols
        if size > budget:
            raise ValueError(
                f"evaluate would hold {count} dense {rows} x {cols} float64 "
                f"matri{'x' if count == 1 else 'ces'} ({what}; {size / 1024**3:.3g} GiB), over "
                f"memory_budget={budget / 1024**3:.3g} GiB; pass evaluate(..., memory_budget=...) "
                "to raise it")


def _evaluate_binary(runs, X, y, u, gamma, comparator, target) -> BoundReport:
    """Binary runs: one, or several of different seeds (the report of their mean)."""
    ctxs = [RunData(run, X, y) for run in runs]
    return binary_report(ctxs if len(ctxs) > 1 else ctxs[0], u=u, gamma=gamma,
                         comparator=comparator, target=target)


def binary_report(ctx, *, u=None, gamma=None, comparator="auto", target=None) -> BoundReport:
    """:func:`evaluate` of a binary run given as its :class:`~.quantities.RunData`.

    For callers that hold one already (``bounds_over_time``), so that what it
    caches, the spectrum of the mistakes or the p-norms of a Higher-Order
    run's transformed sequence, is computed once. ``gamma`` (None or > 0) and
    ``comparator`` are taken as checked. A list of them (runs that differ by their
    seed only): the report of their mean, as :func:`evaluate` of a list of runs.
    """
    ctxs = ctx if isinstance(ctx, list) else [ctx]
    ctx, run = ctxs[0], ctxs[0].run
    n = run.n_features
    comparators, notes = _comparators(
        ctx, u, target, comparator,
        unit=lambda v, label: unit_comparator(v, n, label, ctx.kernel, q=ctx.q),
        fitted=lambda: svm_comparators(ctx.X, ctx.y, ctx.kernel, q=ctx.q), what="u")
    rows = _rows(ctxs, comparators, gamma, bounds_of(run), native=False)
    if not rows:
        notes.append(f"no bound of the papers applies to {run.algorithm!r}")
    if any(row.expectation for row in rows):
        notes.append(_MEAN_NOTE.format(len(ctxs)) if len(ctxs) > 1 else _ONE_RUN_NOTE)
    if len(ctxs) == 1:
        return BoundReport(run.algorithm, dict(run.params), run.n_trials, run.mistakes,
                           run.margin_errors, tuple(rows), tuple(notes))
    mean = [float(np.mean([each.run.mistakes for each in ctxs])),
            float(np.mean([each.run.margin_errors for each in ctxs]))]
    return BoundReport(run.algorithm, dict(run.params), run.n_trials, *mean, tuple(rows),
                       tuple(notes), n_runs=len(ctxs))


_ONE_RUN_NOTE = ("bounds in expectation over the draws bound the mean mistakes of runs of many "
                 "seeds, which one run may exceed ('above, one draw', not a violation): "
                 "evaluate([run, ...], X, y) averages them")
_MEAN_NOTE = ("means over {} draws (runs of different seeds): an estimate of the expectation "
              "over the draws that the bounds in expectation hold for; such a bound is "
              "exceeded only when the mean passes it by more than "
              f"{EXPECTATION_SIGMAS:g} standard errors of the mean excess (mistakes - bound "
              "over the draws), 'within sampling error' otherwise")


def _evaluate_native(runs, X, y, u, gamma, comparator, target) -> BoundReport:
    """A native multiclass run: the first-order bounds through Kesler (theory §4.5)."""
    run = runs[0]
    ctx = MulticlassRunData(run, X, y)
    K, n = ctx.n_classes, run.n_features
    comparators, notes = _comparators(
        ctx, u, target, comparator,
        unit=lambda U, label: unit_prototypes(U, K, n, label, ctx.kernel),
        fitted=lambda: crammer_singer_comparators(ctx.X, ctx.y, K, ctx.kernel),
        what="prototypes")
    rows = _rows([ctx], comparators, gamma, bounds_of(run), native=True)
    if not rows:
        notes.append(f"no bound is proved for the native multiclass {run.algorithm!r}")
    return BoundReport(run.algorithm, dict(run.params), run.n_trials, run.mistakes,
                       run.margin_errors, tuple(rows), tuple(notes), "native")


def _evaluate_ovr(runs, X, y, u, gamma, comparator, target) -> MulticlassBoundReport:
    """One-vs-rest: each class run's binary report, and the bounds summed (theory §4.5);
    over several runs of different seeds, class k's report is that of the mean of their
    class runs k, and the sums are of the means."""
    run = runs[0]
    X = check_X(X, n_features=run.n_features)
    y_index, classes = check_class_labels(y, X.shape[0], run.classes)
    K, n = classes.shape[0], run.n_features
    U = _class_rows("u", u, K, n)
    targets = _class_rows("target", target, K, n) if comparator == "target" else None
    reports = []
    notes = ["one-vs-rest: class k's bounds are those of its binary run, class k (+1) against "
             "the rest (-1), each at its own comparator and gamma (report.class_reports[k])"]
    for k in range(K):
        y_k = np.where(y_index == k, 1.0, -1.0)
        if U is None and targets is None and np.all(y_k == y_k[0]):
            raise ValueError(f"class {classes.tolist()[k]!r} against the rest shows one label "
                             "only in y, so no SVM comparator can be fitted for it: pass u, one "
                             f"row per class, shape ({K}, {n})")
        report = _evaluate_binary([each.class_runs[k] for each in runs], X, y_k,
                                  None if U is None else U[k], gamma,
                                  "svm" if comparator == "auto" else comparator,
                                  None if targets is None else targets[k])
        reports.append(report)
        notes.extend(note for note in report.notes if note not in notes)
    return sum_over_classes(runs if len(runs) > 1 else run, reports, notes)


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


def _rows(ctxs, comparators, gamma, bounds, native) -> list[BoundRow]:
    """Each bound's row, in each variant, at the best of the comparators; over several runs
    (``ctxs``), the row of the mean of their mistakes and of the bound's values."""
    mean = ctxs[0] if len(ctxs) == 1 else SimpleNamespace(
        m=float(np.mean([ctx.m for ctx in ctxs])), draws=[ctx.m for ctx in ctxs])
    per_comparator = [[_mean_spec(group) for group in
                       zip(*(_specs(ctx, comp, bounds, native) for ctx in ctxs), strict=True)]
                      for comp in comparators]
    return [_best_row(mean, specs, comparators, gamma)
            for specs in zip(*per_comparator, strict=True)]


def _mean_spec(specs) -> _Spec:
    """The spec of one bound over several runs: its mean value at each gamma, the conditions
    of every run, the first reason any run gives; one run's spec as it is."""
    if len(specs) == 1:
        return specs[0]
    first = specs[0]

    def value(gammas):
        return np.mean([spec.value(gammas) for spec in specs], axis=0)

    def quantities(g):
        reports = [spec.quantities(g) for spec in specs]
        return {key: float(np.mean([each[key] for each in reports]))
                if isinstance(item, Real) and not isinstance(item, bool) else item
                for key, item in reports[0].items()}

    return _Spec(first.name, first.variant, first.source, value,
                 np.unique(np.concatenate([spec.margins for spec in specs])),
                 max(spec.scale for spec in specs),
                 [condition for spec in specs for condition in spec.conditions], quantities,
                 next((spec.reason for spec in specs if spec.reason is not None), None),
                 first.expectation, tuple(specs))


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
        draws = () if reason is not None or not spec.parts else tuple(
            float(m - np.asarray(part.value(np.array([g])))[0])
            for m, part in zip(ctx.draws, spec.parts, strict=True))
        return BoundRow(spec.name, spec.variant, spec.source, reason is None, reason,
                        None if value is None else float(value),
                        None if g is None else float(g), ctx.m, comp.label, quantities,
                        spec.expectation, draws)

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
    cands = gamma_candidates(spec.margins, low, high, spec.scale)
    g, value = minimise_over_gamma(_restricted(spec.value, low, high), cands)
    if not np.isfinite(value):
        return row(reason="the bound is infinite for every gamma tried")
    return row(value, g)


def _restricted(value, low, high):
    def restricted(gammas):
        out = np.asarray(value(gammas), dtype=np.float64)
        return np.where((gammas > low) & (gammas <= high), out, np.inf)

    return restricted


def _specs(ctx, comp, bounds, native) -> list[_Spec]:
    """The specs of ``bounds`` for one comparator: by provider, each variant, each bound."""
    specs = []
    for group in by_provider(bounds):
        provider = provider_of(group[0], native)
        for variant in VARIANTS:
            q = provider.whole(ctx, comp, variant == "tightened")
            specs.extend(_spec(ctx.run, bound, q, variant) for bound in group)
    return specs


def _spec(run, bound, q, variant) -> _Spec:
    """``bound`` on the whole run's quantities ``q``: its reason, or its gamma conditions."""
    source = q.source(bound.cites(q)) + (" + theory §4.2" if variant == "tightened" else "")
    reason = q.failure or (_WARM if run.warm_started else None)
    conditions = []
    for condition in bound.conditions:
        if isinstance(condition, Requirement):
            if reason is None and not condition.holds(q):
                reason = condition.describe(q)
        elif condition.active(q):
            low, high = condition.ends(q)
            conditions.append(_Condition(float(low), float(high), condition.describe(q)))
    return _Spec(bound.name, variant, source, lambda gammas: bound.value(q, gammas), q.margins,
                 q.scale, conditions, lambda g: q.report(bound, g), reason, bound.expectation)


# How each kind of run is evaluated, by ``run.multiclass``: binary (None), one-vs-rest (every
# class run by its binary bounds, then summed) or native (the algorithm's native bounds).
MODES = {
    None: _evaluate_binary,
    "ovr": _evaluate_ovr,
    "native": _evaluate_native,
}
