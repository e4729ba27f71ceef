"""Shifting (tracking) bounds: mistakes against a sequence of comparators (theory §4.14, §4.15).

A sequence U of shape (T, n), one comparator per presented trial, is taken at
every scale ``z_t = alpha U_t`` (alpha plays 1/gamma, theory §4.14), and each
bound is minimised over alpha (and over its own free parameter). Its
quantities: the hinge losses at margin 1, ``L = sum_t max(0, 1 - y_t z_t.x_t)``,
the total shift ``S = sum_t ||z_{t+1} - z_t||``, the largest norm
``max_t ||z_t||`` and the last norm ``||z_T||``, all at the minimising scale.

Without a sequence, :func:`search_sequences` builds piecewise-constant ones
(k = 1..K pieces, greedy splits, a linear SVM direction per piece) and the
report keeps, per bound, the smallest value over k (theory §4.15).

Every bound is **derived** (proved on the theory page, §4.15):

* ``perceptron_shifting`` (Perceptron, voted Perceptron):
  ``m <= L + B^2/2 + B sqrt(L + B^2/4)``, ``B = (||z_T|| + S) R``;
* ``perceptron_shifting_reached``: ``m <= L + (||z_T|| + S) W``, W the largest
  norm the run's weights reached (linear runs);
* ``shifting_perceptron_tracking``: the largest m with
  ``m <= L + R/sqrt(1 + 2 lam) [(U + S) sqrt(m + 2 lam) + 2 sqrt(2) lam U (sqrt(m + lam) - sqrt(lam))]``;
* ``projected_perceptron_tracking``: ``min over gamma > R^2/2`` of
  ``(2 sum_t max(0, gamma - y_t z_t.x_t) + ||z_T||^2 + 2 D S) / (2 gamma - R^2)``
  for ``||z_t|| <= D``;
* ``rbp_tracking`` (in expectation): ``min over a`` of
  ``(a^2 ||g_T||^2 + 2 a L + 2 a B S) / (2a - 2 - a^2 U^2 / (2B))`` on K / R^2.

Every other algorithm gets a ``tracking`` row, not applicable, with the reason.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, replace

import numpy as np
import scipy.sparse as sp

from ..registry import get as get_algorithm
from .report import BoundRow

SOURCE = "theory §4.15 (derived)"
#: Scales alpha searched: a logarithmic grid around 1/(smallest useful margin), refined.
_GRID = 48
_REFINE = 2
#: The greedy split tries this many cut points inside each piece.
CUTS = 8
#: A piece never gets fewer presented trials than this.
MIN_PIECE = 8
#: The default largest number of pieces of the comparator-sequence search.
MAX_PIECES = 12


@dataclass(frozen=True)
class Sequence:
    """A comparator sequence on a run's presented trials, reduced to what the bounds read.

    Attributes
    ----------
    margins : ndarray (T,)
        y_t U_t . x_t of every presented trial.
    shift : float
        sum_t ||U_{t+1} - U_t||.
    largest : float
        max_t ||U_t||.
    last : float
        ||U_T||.
    label : str
        How it was obtained ("given", "k pieces ...").
    """

    margins: np.ndarray
    shift: float
    largest: float
    last: float
    label: str
    pieces: int | None = None
    cuts: tuple = ()


def sequence_of(U, Xp, yp, label="given") -> Sequence:
    """The :class:`Sequence` of U (T, n) on the presented rows Xp (T, n, dense or CSR)."""
    if sp.issparse(Xp):
        margins = np.asarray(Xp.multiply(U).sum(axis=1)).ravel() * yp
    else:
        margins = np.einsum("ij,ij->i", Xp, U) * yp
    steps = np.linalg.norm(np.diff(U, axis=0), axis=1) if U.shape[0] > 1 else np.zeros(0)
    norms = np.linalg.norm(U, axis=1)
    return Sequence(margins, float(steps.sum()), float(norms.max()), float(norms[-1]), label)


def _hinge_sums(margins):
    """A function alpha -> sum_t max(0, 1 - alpha p_t) over the margins p, vectorised."""
    p = np.sort(margins)
    prefix = np.concatenate([[0.0], np.cumsum(p)])

    def total(alpha):
        alpha = np.atleast_1d(np.asarray(alpha, dtype=np.float64))
        with np.errstate(divide="ignore"):
            thresholds = np.where(alpha > 0, 1.0 / alpha, np.inf)
        count = np.searchsorted(p, thresholds, side="left")  # p_t < 1/alpha
        return np.maximum(count - alpha * prefix[count], 0.0)

    return total


def _alpha_grid(seq: Sequence, R: float, high: float = math.inf):
    """Scales to try: 1/|p_t| for the positive margins and a log grid, below ``high``."""
    positive = seq.margins[seq.margins > 0]
    scale = 1.0 / R if R > 0 else 1.0
    if seq.largest > 0:
        scale = 1.0 / (R * seq.largest) if R > 0 else 1.0 / seq.largest
    grid = scale * np.logspace(-3, 6, _GRID)
    if positive.size:
        picks = np.quantile(positive, np.linspace(0, 1, 25))
        grid = np.concatenate([grid, 1.0 / picks[picks > 0]])
    # gamma = 1/alpha up to max(R ||U||, largest margin) only, as for one comparator (theory
    # §4.3): beyond, the sums over the mistakes give L -> m, a true but empty statement
    top = max(R * seq.largest, float(positive.max()) if positive.size else 0.0)
    low = 1.0 / top if top > 0 else 0.0
    grid = grid[np.isfinite(grid) & (grid > 0) & (grid >= low)]
    if low > 0:
        grid = np.concatenate([grid, [low]])
    if math.isfinite(high):
        grid = np.concatenate([grid[grid < high], [high]])
    return np.unique(grid)


def _minimise(value, grid):
    """(best value, best alpha) of ``value(alphas)`` (vectorised over an array of scales) over
    ``grid``, refined between neighbours. A scale whose value overflows gives inf, never a
    warning: rows of norms up to 1e150 meet scales up to 1/(smallest margin)."""
    with np.errstate(over="ignore"):
        values = np.asarray(value(grid), dtype=np.float64)
        for _ in range(_REFINE):
            i = int(np.nanargmin(values))
            low = grid[max(i - 1, 0)]
            high = grid[min(i + 1, grid.shape[0] - 1)]
            extra = np.geomspace(low, high, 9) if low > 0 else np.linspace(low, high, 9)
            grid = np.concatenate([grid, extra])
            values = np.concatenate([values, value(extra)])
    i = int(np.nanargmin(values))
    return float(values[i]), float(grid[i])


def perceptron_closed(L, last, shift, R):
    """m <= L + B^2/2 + B sqrt(L + B^2/4), B = (||z_T|| + S) R (theory §4.15); elementwise."""
    B = (last + shift) * R
    return L + B * B / 2.0 + B * np.sqrt(L + B * B / 4.0)


def shifting_root(L, largest, shift, R, decay):
    """The largest m >= 0 with m <= L + F(m), F the shifting Perceptron's bracket (theory §4.15).

    The right side is concave in m and m - L - F(m) is convex, so the m that satisfy it
    form an interval [0, m*]; m* is found by bisection (:func:`shifting_root_array`).
    """
    return float(shifting_root_array(L, largest, shift, R, decay))


def projected_values(alphas, seq, R, radius, chunk=1 << 21):
    """(value, gamma) minimising, per scale alpha in ``alphas``, over gamma > R^2/2,
    (2 sum_t max(0, gamma - alpha p_t) + ||z_T||^2 + 2 D S) / (2 gamma - R^2).

    The minimum over gamma lies at a kink gamma = alpha q, q a margin with alpha q > R^2/2
    (or tends to the end); there sum_t max(0, gamma - alpha p_t) = alpha H(q),
    H(q) = sum_{p_t < q} (q - p_t), read off the sorted margins' prefix sums.
    """
    alphas = np.asarray(alphas, dtype=np.float64)
    p = np.sort(seq.margins)
    prefix = np.concatenate([[0.0], np.cumsum(p)])
    q = np.unique(p[p > 0])
    count = np.searchsorted(p, q, side="left")
    H = q * count - prefix[count]
    best = np.full(alphas.shape, np.inf)
    gamma = np.full(alphas.shape, np.nan)
    step = max(1, chunk // max(q.size, 1))
    for start in range(0, alphas.size, step):
        a = alphas[start:start + step, None]
        kinks = a * q
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            values = (2.0 * a * H + (a * seq.last) ** 2 + 2.0 * radius * a * seq.shift) / (
                2.0 * kinks - R * R)
        values = np.where(kinks > R * R / 2.0, values, np.inf)
        if q.size:
            i = np.argmin(values, axis=1)
            rows = np.arange(values.shape[0])
            best[start:start + step] = values[rows, i]
            gamma[start:start + step] = np.where(np.isfinite(values[rows, i]), kinks[rows, i],
                                                 np.nan)
    return best, gamma


def rbp_values(L, last, largest, shift, budget, points=400):
    """Elementwise (value, a): min over a of (a^2 ||g_T||^2 + 2aL + 2aBS)/c(a),
    c(a) = 2a - 2 - a^2 U^2/(2B) > 0, over ``points`` values of a inside c > 0."""
    L, last, largest, shift = np.broadcast_arrays(*(np.atleast_1d(np.asarray(v, np.float64))
                                                    for v in (L, last, largest, shift)))
    V = largest * largest / (2.0 * budget)
    disc = 1.0 - 2.0 * V
    open_ = V <= 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.sqrt(np.maximum(disc, 0.0))
        low = np.where(open_, 1.0, (1.0 - root) / V)
        high = np.where(open_, 1.0, (1.0 + root) / V)
    u = np.linspace(0.0, 1.0, points + 2)[1:-1]
    a = low[:, None] + (high - low)[:, None] * u
    a = np.where(open_[:, None], np.geomspace(1.0 + 1e-9, 1e6, points), a)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # nan: c > 0 fails
        c = 2 * a - 2 - a * a * V[:, None]
        values = (a * a * (last * last)[:, None] + 2 * a * L[:, None]
                  + 2 * a * budget * shift[:, None]) / c
    values = np.where((c > 0) & (open_ | (disc > 0))[:, None], values, np.inf)
    i = np.argmin(values, axis=1)
    rows = np.arange(values.shape[0])
    return values[rows, i], a[rows, i]


def reached_norm(run, Xp_mistakes, chunk: int = 1024) -> float:
    """W = max_k ||w_k||, the largest norm of a linear Perceptron run's weights (theory §4.15):
    w_k = sum_{j <= k} y_j x_j over the mistaken rows, in order."""
    rows, labels = Xp_mistakes
    w = np.zeros(rows.shape[1])
    best = 0.0
    for start in range(0, rows.shape[0], chunk):
        block = rows[start:start + chunk]
        block = block.toarray() if sp.issparse(block) else np.asarray(block)
        partial = w + np.cumsum(block * labels[start:start + chunk, None], axis=0)
        best = max(best, float(np.linalg.norm(partial, axis=1).max()))
        w = partial[-1]
    return best


def _row(name, mistakes, value, alpha, quantities, comparator, expectation=False):
    gamma = 1.0 / alpha if alpha and math.isfinite(alpha) and alpha > 0 else None
    if not math.isfinite(value):
        return BoundRow(name, "stated", SOURCE, False, "the bound is infinite at every scale of "
                        "the sequence", None, None, mistakes, comparator, quantities, expectation)
    return BoundRow(name, "stated", SOURCE, True, None, value, gamma, mistakes, comparator,
                    quantities, expectation)


def _na(name, mistakes, reason, expectation=False):
    return BoundRow(name, "stated", SOURCE, False, reason, None, None, mistakes,
                    expectation=expectation)


def _quantities(seq, alpha, L, R, **extra):
    quantities = {"R": float(R), "hinge_loss": float(L), "total_shift": float(alpha * seq.shift),
                  "largest_norm": float(alpha * seq.largest),
                  "last_norm": float(alpha * seq.last), "scale": float(alpha)}
    if seq.pieces is not None:
        quantities["pieces"] = seq.pieces
        quantities["cuts"] = list(seq.cuts)
    quantities.update(extra)
    return quantities


def _perceptron_rows(run, seq, hinge, R, W):
    grid = _alpha_grid(seq, R)

    def closed(alpha):
        return perceptron_closed(hinge(alpha), alpha * seq.last, alpha * seq.shift, R)

    value, alpha = _minimise(closed, grid)
    L = float(hinge(alpha)[0])
    return _row("perceptron_shifting", run.mistakes, value, alpha,
                _quantities(seq, alpha, L, R), seq.label)


def _reached_rows(run, seq, hinge, R, W):
    if W is None:
        return _na("perceptron_shifting_reached", run.mistakes, "the reached norm W is "
                   "measured for linear runs only")

    def reached(alpha):
        return hinge(alpha) + alpha * (seq.last + seq.shift) * W

    value, alpha = _minimise(reached, _alpha_grid(seq, R))
    L = float(hinge(alpha)[0])
    return _row("perceptron_shifting_reached", run.mistakes, value, alpha,
                _quantities(seq, alpha, L, R, reached_norm=W), seq.label)


def _shifting_rows(run, seq, hinge, R, W):
    decay = run.params["decay"]

    def shifting(alpha):
        return shifting_root_array(hinge(alpha), alpha * seq.largest, alpha * seq.shift, R,
                                   decay)

    value, alpha = _minimise(shifting, _alpha_grid(seq, R))
    L = float(hinge(alpha)[0])
    return _row("shifting_perceptron_tracking", run.mistakes, value, alpha,
                _quantities(seq, alpha, L, R, decay=decay), seq.label)


def _projected_rows(run, seq, hinge, R, W):
    radius = run.params["radius"]
    high = radius / seq.largest if seq.largest > 0 else math.inf
    grid = _alpha_grid(seq, R, high)
    values, gammas = projected_values(grid, seq, R, radius)
    i = int(np.argmin(values)) if values.size else 0
    value, alpha, gamma = ((float(values[i]), float(grid[i]), float(gammas[i])) if values.size
                           else (math.inf, math.nan, math.nan))
    if not math.isfinite(value):
        return _na("projected_perceptron_tracking", run.mistakes,
                   f"radius D = {radius:g} too small for the data: no comparator inside the "
                   f"ball reaches a margin above R^2/2 = {R * R / 2:.4g}")
    L = float(hinge(alpha)[0])
    return _row("projected_perceptron_tracking", run.mistakes, value, alpha,
                _quantities(seq, alpha, L, R, radius=radius, margin_gamma=gamma), seq.label)


def _rbp_rows(run, seq, hinge, R, W):
    budget = run.params["budget"]

    def rbp(alpha):
        return rbp_values(hinge(alpha), R * alpha * seq.last, R * alpha * seq.largest,
                          R * alpha * seq.shift, budget)[0]

    value, alpha = _minimise(rbp, _alpha_grid(seq, R))
    if not math.isfinite(value):
        return _na("rbp_tracking", run.mistakes, f"no scale of the sequence has R^2 U^2 < B = "
                   f"{budget} with a finite bound", expectation=True)
    L = float(hinge(alpha)[0])
    return _row("rbp_tracking", run.mistakes, value, alpha,
                _quantities(seq, alpha, L, R, budget=budget), seq.label, expectation=True)


#: Each shifting bound's row at a sequence (theory §4.15), by the name registrations use
#: (``Algorithm.tracking``); ``expectation``: it bounds the expected mistakes.
TRACKING_BOUNDS = {
    "perceptron_shifting": (_perceptron_rows, False),
    "perceptron_shifting_reached": (_reached_rows, False),
    "shifting_perceptron_tracking": (_shifting_rows, False),
    "projected_perceptron_tracking": (_projected_rows, False),
    "rbp_tracking": (_rbp_rows, True),
}


def rows_for_sequence(run, seq: Sequence, R: float, W: float | None) -> list[BoundRow]:
    """Each shifting bound of ``run``'s algorithm at the best scale of ``seq``; ``W`` the
    largest norm its weights reached (None: not measured)."""
    hinge = _hinge_sums(seq.margins)
    return [TRACKING_BOUNDS[name][0](run, seq, hinge, R, W)
            for name in get_algorithm(run.algorithm).tracking]


def presented(run, X, y):
    """(rows of X presented on each trial, their labels in {-1, +1})."""
    idx = run.sample_index
    Xp = X[idx]
    return Xp, y[idx]


def tracking_rows(ctx, U=None, pieces=None) -> tuple[list[BoundRow], list[str]]:
    """The shifting rows of a binary run given as its RunData ``ctx``: at the sequence U
    (T, n), or at the best piecewise-constant sequence of 1..``pieces`` pieces."""
    run = ctx.run
    m = run.mistakes
    spec = get_algorithm(run.algorithm)
    names = spec.tracking
    if not names:
        return [_na("tracking", m, spec.no_tracking or f"no shifting bound is proved for "
                    f"{run.algorithm!r} (theory §4.15)")], []

    def refused(reason):
        return [_na(name, m, reason, TRACKING_BOUNDS[name][1]) for name in names], []

    if run.warm_started:
        return refused("a warm-started run: the theorem counts mistakes from the zero state")
    if not ctx.kernel.is_linear:
        return refused(f"the comparator sequence lives in the input space; this run uses the "
                       f"{ctx.kernel.name!r} kernel, whose bound (theory §4.15) needs a "
                       "sequence of its feature space, neither taken nor searched")
    Xp, yp = presented(run, ctx.X, ctx.y)
    norms = np.sqrt(np.asarray(Xp.multiply(Xp).sum(axis=1)).ravel()) if sp.issparse(Xp) \
        else np.linalg.norm(Xp, axis=1)
    R = float(norms.max()) if norms.size else 0.0
    W = None
    if "perceptron_shifting_reached" in names:
        mk = run.mistake_trials
        W = reached_norm(run, (Xp[mk], yp[mk]))
    if U is not None:
        seqs = [sequence_of(U, Xp, yp)]
        notes = ["comparator sequence: given, one per presented trial, at its best scale"]
    else:
        seqs = search_sequences(Xp, yp, pieces)
        notes = [f"comparator sequence: the best piecewise-constant one of 1..{pieces} pieces "
                 "(greedy splits, a linear SVM direction per piece), per bound"]
    mk = run.mistake_trials
    R_m = float(norms[mk].max()) if mk.size else 0.0
    best: dict[tuple, BoundRow] = {}
    for seq in seqs:
        # tightened (theory §4.2): the proofs sum the hinge losses and read ||x_t|| over the
        # mistakes only; not for a bound in expectation, whose mistakes are random
        restricted = Sequence(seq.margins[mk], seq.shift, seq.largest, seq.last, seq.label,
                              seq.pieces, seq.cuts)
        rows = rows_for_sequence(run, seq, R, W) + [
            replace(row, variant="tightened", source=SOURCE + " + theory §4.2")
            for row in rows_for_sequence(run, restricted, R_m, W) if not row.expectation]
        for row in rows:
            key = (row.name, row.variant)
            old = best.get(key)
            if old is None or (row.applies and (not old.applies or row.value < old.value)):
                best[key] = row
    return [best[key] for name in names for key in ((name, "stated"), (name, "tightened"))
            if key in best], notes


def svm_direction(Xp, yp, start, end):
    """The unit direction of a linear SVM on presented trials [start, end), and its
    objective (0.5 ||w||^2 + C sum hinge, C = 1, on rows scaled to max norm 1)."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.svm import LinearSVC

    rows, labels = Xp[start:end], yp[start:end]
    dense = rows.toarray() if sp.issparse(rows) else np.asarray(rows)
    scale = float(np.abs(dense).max()) if dense.size else 0.0
    if scale == 0.0:
        return np.zeros(dense.shape[1]), float(end - start)
    dense = dense / scale
    norms = np.linalg.norm(dense, axis=1)
    dense = dense / max(float(norms.max()), np.finfo(float).tiny)
    if np.unique(labels).size < 2:
        w = (labels[:, None] * dense).sum(axis=0)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            svm = LinearSVC(C=1.0, fit_intercept=False, dual="auto", max_iter=2000,
                            random_state=0).fit(dense, labels)
        w = np.asarray(svm.coef_, dtype=np.float64).ravel()
    objective = 0.5 * float(w @ w) + float(np.maximum(0.0, 1.0 - labels * (dense @ w)).sum())
    norm = float(np.linalg.norm(w))
    return (w / norm if norm > 0 else w), objective


def search_sequences(Xp, yp, pieces) -> list[Sequence]:
    """Piecewise-constant sequences with 1..``pieces`` pieces, grown by greedy splits
    (theory §4.15): each step splits the piece, at one of :data:`CUTS` cut points, that
    most lowers the summed SVM objective; every piece carries its unit SVM direction."""
    T = Xp.shape[0]
    cache: dict[tuple, tuple] = {}

    def fit(a, b):
        if (a, b) not in cache:
            cache[(a, b)] = svm_direction(Xp, yp, a, b)
        return cache[(a, b)]

    bounds = [0, T]
    out = []
    for k in range(1, pieces + 1):
        if k > 1:
            best = None
            for j in range(len(bounds) - 1):
                a, b = bounds[j], bounds[j + 1]
                if b - a < 2 * MIN_PIECE:
                    continue
                here = fit(a, b)[1]
                for cut in np.unique(np.linspace(a + MIN_PIECE, b - MIN_PIECE, CUTS).astype(int)):
                    gain = here - fit(a, int(cut))[1] - fit(int(cut), b)[1]
                    if best is None or gain > best[0]:
                        best = (gain, int(cut))
            if best is None:
                break
            bounds = sorted([*bounds, best[1]])
        U = np.empty((T, Xp.shape[1]))
        for a, b in zip(bounds[:-1], bounds[1:], strict=True):
            U[a:b] = fit(a, b)[0]
        seq = sequence_of(U, Xp, yp, label=f"{k} piece(s), SVM directions")
        out.append(Sequence(seq.margins, seq.shift, seq.largest, seq.last, seq.label, k,
                            tuple(bounds[1:-1])))
    return out


def shifting_root_array(L, largest, shift, R, decay, iterations=200):
    """:func:`shifting_root` elementwise over arrays: bisection on every entry at once, until
    every bracket is within a relative 1e-12; returns the bracket's upper end."""
    L, largest, shift, R = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64)
                                                 for v in (L, largest, shift, R)))
    lam = decay
    c = R / math.sqrt(1.0 + 2.0 * lam)
    B = c * (largest + shift + 2 * math.sqrt(2.0) * lam * largest)
    with np.errstate(over="ignore", invalid="ignore"):
        high = ((B + np.sqrt(B * B + 4 * (L + 2 * lam))) / 2.0) ** 2
    low = np.zeros_like(high)

    def gap(m):
        F = c * ((largest + shift) * np.sqrt(m + 2 * lam)
                 + 2 * math.sqrt(2.0) * lam * largest * (np.sqrt(m + lam) - math.sqrt(lam)))
        return m - L - F

    finite = np.isfinite(high)
    high = np.where(finite, high, 0.0)
    for _ in range(iterations):
        mid = 0.5 * (low + high)
        with np.errstate(over="ignore", invalid="ignore"):  # entries not finite: inf at the end
            inside = gap(mid) <= 0
        low = np.where(inside, mid, low)
        high = np.where(inside, high, mid)
        if np.all(high - low <= 1e-12 * np.maximum(high, 1.0)):
            break
    return np.where(finite, high, np.inf)


def _fixed_shifting(q, gamma):
    """theory §4.15 with S = 0: z = u/gamma, L = D1/gamma, ||z|| = 1/gamma."""
    gamma = np.asarray(gamma, dtype=np.float64)
    return shifting_root_array(q.D1(gamma) / gamma, 1.0 / gamma, 0.0, q.R, q.params["decay"])


def _fixed_projected(q, gamma):
    """theory §4.15 with S = 0 and z = D u: (2 D D1 + D^2) / (2 D gamma - R^2)."""
    D = q.params["radius"]
    gamma = np.asarray(gamma, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = (2.0 * D * q.D1(gamma) + D * D) / (2.0 * D * gamma - q.R * q.R)
    return np.where(2.0 * D * gamma > q.R * q.R, value, np.inf)


def _declare():
    from .declaration import Bound, GammaInterval, register_bound

    register_bound(Bound(
        name="decay_fixed_comparator", label=r"shifting Perceptron, one comparator",
        source="theory §4.15, S = 0 (derived)", value=_fixed_shifting,
        quantities=("R", "D1"), theory="§4.15"))
    register_bound(Bound(
        name="ball_fixed_comparator", label=r"projected Perceptron, one comparator",
        source="theory §4.15, S = 0, z = D u (derived)", value=_fixed_projected,
        quantities=("R", "D1"), theory="§4.15",
        conditions=(GammaInterval(
            lambda q: f"gamma > R^2 / (2 D) = {q.R ** 2 / (2 * q.params['radius']):.6g}",
            low=lambda q: q.R * q.R / (2.0 * q.params["radius"])),)))


_declare()
