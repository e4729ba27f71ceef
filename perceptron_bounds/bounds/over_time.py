"""The mistake bounds on every prefix of a run: trials 1..t for t = 1, ..., T (theory §4).

A run's first t trials are themselves a run of the same algorithm on the
first t examples of the sequence, from the zero state (theory §1.4): every
bound of theory §4.1 and §4.2 holds for them, with R, D1, D2, the margin
errors and the spectrum of the mistakes taken over those t trials. So each
bound gives a curve over t that stays above the count of mistakes made so
far. :func:`bounds_over_time` evaluates those curves for one fixed comparator
u and margin gamma, through the bounds' declarations (:mod:`.declaration`:
the same closed forms and conditions :func:`evaluate` reads) fed with prefix
quantities by their providers: cumulative sums of hinge losses, running
maxima of the norms, and the spectrum of the mistakes made so far.
"""

from __future__ import annotations

import numpy as np

from .._interrupt import interruptible
from .._validation import check_choice, check_real
from ..run import OnlineRun
from .declaration import Requirement, by_provider, declared, provider_of
from .evaluate import VARIANTS, binary_report
from .providers import is_trial
from .quantities import RunData
from .search import svm_comparators, unit_comparator


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
    mistakes = np.cumsum(is_trial(run, run.mistake_trials))
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
    values = _curves(ctx, comp, gamma, variant == "tightened",
                     [declared(name) for name in (known if names is None else names)])
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


def _curves(ctx, comp, gamma, tightened, bounds) -> dict:
    """name -> the value of each bound on every prefix (inf where a condition fails).

    Each bound's provider gives its quantities on the prefixes at this gamma (arrays
    over the trials, or per number of mistakes); the bound's own closed form and
    conditions, as :func:`evaluate` reads them on the whole run, give the values.
    """
    run = ctx.run
    out = {bound.name: np.full(run.n_trials, np.inf) for bound in bounds}
    if run.warm_started:  # the theorems count mistakes from the zero state
        return out
    for group in by_provider(bounds):
        pieces = provider_of(group[0]).prefixes(ctx, comp, gamma, tightened)
        for bound in group:
            for q, at, take in pieces:
                with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                    ok = True
                    for condition in bound.conditions:
                        ok = ok & (condition.holds(q) if isinstance(condition, Requirement)
                                   else condition.holds(q, gamma))
                    values = np.where(ok, np.asarray(bound.value(q, gamma), dtype=np.float64),
                                      np.inf)
                out[bound.name][at] = values if take is None else values[take]
    return out
