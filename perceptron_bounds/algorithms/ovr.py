"""One-vs-rest for the Perceptron family in one pass over the trials (theory §2.6).

With K classes, binary problem k is "class k (+1) against the rest (-1)":
y^k_t = +1 if y_t = k, else -1. The loops here run the K binary Perceptrons
(theory §2.1) or Ballseptrons (theory §2.3) side by side on the same presented
sequence, each trial read once for all K of them, and hand back K results that
are, bit for bit (dual form: see Exactness), what the binary ``fit`` gives on
problem k alone: the same mistake (and margin-error) trials, the same
margins, the same weights or support vectors and dual coefficients, the same
||w||^2. They are the ``fit_ovr`` hooks of ``"perceptron"``, ``"ballseptron"``
and, through the Perceptron's, ``"voted_perceptron"``.

Forms
-----
* ``primal``: a K x n weight matrix W, row k the binary run's w (each row
  starting a cache line); a trial reads x_t once and computes the K scores
  w^k . x_t, each summed exactly as the binary loop sums it (dense rows, or
  CSR rows where the Ballseptron keeps w^k = scale_k v^k), then updates the
  classes that update.
* ``dual``: one support list shared by the K problems, held by the
  kernel-row engine (:mod:`perceptron_bounds.kernel_engine`). A trial on
  which any class updates (a mistake, or a Ballseptron margin error) appends
  x_t to it once. Class k keeps its own supports as indices into the shared
  list, with their coefficients y^k_t / scale_k (scale_k: the Ballseptron's
  global scale factor of class k, theory §2.3; 1 for the Perceptron), in the
  order of its updates: row k of an index table and of a coefficient table.
  One engine row of kernel values K(s_j, x_t) over the whole list (the union
  of the classes' supports) serves all K scores, so the block products of the
  engine are shared by the K classes. Dense or CSR X, every kernel.

Exactness
---------
The primal loops compute each class's w . x_t with the sum the binary loops
write out (:func:`perceptron_bounds._linalg.row_dot` is that loop). In the dual loop,
score k gathers class k's kernel values, in the order of its supports, into
one contiguous vector and sums it against its coefficients with
:func:`perceptron_bounds._linalg.dot`, the sum of the binary dual loops, on
the same numbers in the same positions. The kernel values come from the same
engine as the binary run's, from a block product or an in-block correction
at the same trials; what differs is the width of the block products (the
union of the supports here, class k's own there) and, once the kernel cache
reaches its cap, which values it keeps. A BLAS may sum a product of another
shape in another order and so move the last bit of a kernel value of
real-valued data (integer data such as raw pixels give exact dot products);
the tests find the same bits with the BLAS they run on. The Ballseptron's
scale factors, foldings (into row k only) and ||w||^2 recurrences follow the
binary arithmetic step by step. So with the same kernel values every margin,
case and coefficient is the binary one, bit for bit. A trial costs the kernel
values of x_t against the union of the classes' supports, where K binary
runs cost them against each class's own: the saving is the supports the
classes have in common.

Warm start
----------
``previous`` is a one-vs-rest run; class k continues from its binary run
``previous.class_runs[k]`` as the binary ``fit`` would. In the dual form the
K support lists (ndarrays or CSR matrices) are merged into one shared list
that keeps each class's supports in its order (a row shared by several lists,
bit for bit, is merged once where the order allows: :func:`merged_supports`).

References
----------
Y. Freund and R. E. Schapire, "Large margin classification using the
Perceptron algorithm", Machine Learning 37 (1999), sec. 5 (paper 001);
S. Shalev-Shwartz and Y. Singer, "A new perspective on an old Perceptron
algorithm", COLT 2005, Fig. 2 (paper 004).

Examples
--------
>>> import numpy as np
>>> from perceptron_bounds._validation import Data
>>> from perceptron_bounds.algorithms.ovr import fit_ovr_perceptron
>>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
>>> data = Data(X, np.array([0, 1, 2]), np.array(["a", "b", "c"]))
>>> order = np.array([0, 1, 2, 0, 1, 2])
>>> results = fit_ovr_perceptron(data, order, {"form": "primal"}, np.empty((6, 3)), None)
>>> [r.mistake_trials.tolist() for r in results]
[[0, 1, 2, 4], [0, 1, 2, 3], [0, 1]]
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._interrupt import EVERY, stop_requested
from .._jit import jit, row_kind, rule
from .._linalg import (
    LINE,
    capacity,
    dot,
    grow_vector,
    line_zeros,
    prefetch,
    row_axpy,
    row_copy,
    row_dot,
    row_sq_norm,
    rows,
)
from .._validation import Data
from ..hypothesis import KernelHypothesis, LinearHypothesis
from ..kernel_engine import (
    engine_append,
    engine_diag,
    engine_order,
    engine_row,
    engine_supports,
    kernel_engine,
)
from ..kernels import kernel_of
from ..registry import LoopResult
from ._cases import MARGIN_ERROR, MISTAKE, NO_UPDATE, ball_case, scale_in_range
from ._common import scaled_start, scaled_state


def class_labels(y_index: np.ndarray, k: int) -> np.ndarray:
    """Labels of binary problem k, "class k against the rest": +1.0 where y = k, -1.0 elsewhere."""
    return np.where(y_index == k, 1.0, -1.0)


def class_data(data: Data, k: int) -> Data:
    """The binary data of problem k (classes [-1, 1]) from ``data`` with class indices."""
    return Data(data.X, class_labels(data.y, k), np.array([-1, 1]), data.draws)


@jit
def _case(signed_margin, norm_sq, r, ball):
    """Paper 004, Fig. 2's case and factor a (:func:`._cases.ball_case`); the Perceptron
    (``ball`` False) has no margin errors."""
    if ball and not signed_margin <= 0.0:  # (NaN too, as ball_case takes it)
        return ball_case(signed_margin, norm_sq, r)
    # a select, not a branch, for the Perceptron (its loop over the K classes: 10% faster)
    return MISTAKE if signed_margin <= 0.0 else NO_UPDATE, 1.0


# Rows are fetched this many trials ahead (the fastest of 1, 2 and 4 on shuffled 100-feature
# rows; 2 to 8 alike in the loop as it is now), one cache line at a time.
_AHEAD = 2


def _prefetch_row(X, i):
    """Ask for row i's entries (values, and columns for CSR), one cache line at a time."""
    (_csr_prefetch if isinstance(X, tuple) else _dense_prefetch)(X, i)


def _dense_prefetch(X, i):
    row = X[i]
    for j in range(0, row.shape[0], LINE):
        prefetch(row, j)


def _csr_prefetch(X, i):
    data, indices, indptr = X
    for p in range(indptr[i], indptr[i + 1], LINE):
        prefetch(data, p)
        prefetch(indices, p)


row_kind(_prefetch_row, _dense_prefetch, _csr_prefetch)


def _trial_rows(X, x):
    """The rows through which the trials read X: for dense X, ``x``, a (1, n) array that
    starts a cache line, into which :func:`_trial_row` copies each trial's row (X's rows
    start where NumPy placed X; read in vectors straddling lines by the K dot products
    and the updates, the loop took 1.08x as long, the Ballseptron's 1.12x); CSR X itself.
    The same values, summed by the same helpers."""
    return (_csr_trial_rows if isinstance(X, tuple) else _dense_trial_rows)(X, x)


def _dense_trial_rows(X, x):
    return x


def _csr_trial_rows(X, x):
    return X


def _trial_row(X, i, x_row):
    """The index of row i in :func:`_trial_rows`, after copying it to ``x_row`` (dense X)."""
    return (_csr_trial_row if isinstance(X, tuple) else _dense_trial_row)(X, i, x_row)


def _dense_trial_row(X, i, x_row):
    row_copy(X, i, x_row)
    return 0


def _csr_trial_row(X, i, x_row):
    return i


row_kind(_trial_rows, _dense_trial_rows, _csr_trial_rows)
row_kind(_trial_row, _dense_trial_row, _csr_trial_row)


@jit
def _ovr_primal_loop(X, y, order, r, ball, V, n_features, scale, norm_sq, margins, cases, x):
    """K binary Perceptrons (Ballseptrons with ``ball``) over dense or CSR rows,
    w^k = scale[k] V[k, :n_features], as the binary rule keeps them.

    ``V``, ``scale`` and ``norm_sq`` (the classes' ||w||^2, updated by the binary
    rule's recurrence) are updated in place. ``cases[t, k]`` receives the case of
    class k on trial t; ``x`` is the trial row's buffer (:func:`_trial_rows`).
    Arrays are indexed, not viewed, trial by trial: a view costs atomic reference counts
    (the loop took 1.05x as long).
    """
    R = _trial_rows(X, x)
    x_row = x[0]
    n_trials = order.shape[0]
    n_classes = V.shape[0]
    updating = np.empty(n_classes, dtype=np.int64)
    factors = np.empty(n_classes)
    for t in range(n_trials):
        if t % EVERY == 0 and stop_requested(t):  # Ctrl-C: return trials 0..t-1
            break
        i = order[t]
        if t + _AHEAD < n_trials:
            _prefetch_row(X, order[t + _AHEAD])
        row = _trial_row(X, i, x_row)
        # All K scores first: the dot products run back to back, free of the updates' branches.
        for k in range(n_classes):
            margins[t, k] = row_dot(R, row, V[k, :n_features]) * scale[k]
        # Then all K cases, listing the classes that update without a branch: on hard data
        # each class updates on about half the trials, and a branch per class, mispredicted
        # half the time, made the loop 1.4x as long.
        label = y[i]
        n_updating = 0
        for k in range(n_classes):
            yk = 1.0 if label == k else -1.0
            case, factors[k] = _case(yk * margins[t, k], norm_sq[k], r, ball)
            cases[t, k] = case
            updating[n_updating] = k
            n_updating += case != NO_UPDATE
        _updates(R, row, label, margins, t, factors, updating, n_updating, ball, V, n_features,
                 scale, norm_sq)


@rule(inline=True)
def _updates(X, i, label, margins, t, factors, updating, n_updating, ball, V, n_features,
             scale, norm_sq):
    """The updates of the classes k = updating[:n_updating] on row i (trial t, scores
    margins[t]), each as its binary rule makes it: w^k = scale[k] V[k] <- a w^k + y^k x_i
    (a = factors[k]; 1 for the Perceptron), the Ballseptron's scale folded into V[k]
    when out of range and its ||w^k||^2 recurrence.

    A rule, inlined into the loop and compiled without reference counts: in the loop,
    the view V[k] cost three atomic counts an update (the loop took 10% longer).
    """
    for u in range(n_updating):
        k = updating[u]
        yk = 1.0 if label == k else -1.0
        v = V[k, :n_features]
        if ball:
            a = factors[k]
            product = scale[k] * a
            if scale_in_range(product):
                scale[k] = product
            else:
                v *= product
                scale[k] = 1.0
            norm_sq[k] = max(a * a * norm_sq[k] + 2.0 * a * yk * margins[t, k]
                             + row_sq_norm(X, i), 0.0)
        row_axpy(X, i, yk / scale[k], v)


@jit
def _deeper(index, coef, depth):
    """(index, coef) with room for column ``depth``, their first ``depth`` columns kept."""
    if depth < index.shape[1]:
        return index, coef
    width = capacity(depth + 1)
    grown_index = np.zeros((index.shape[0], width), dtype=np.int64)
    grown_coef = np.zeros((coef.shape[0], width))
    for k in range(index.shape[0]):
        for j in range(depth):
            grown_index[k, j] = index[k, j]
            grown_coef[k, j] = coef[k, j]
    return grown_index, grown_coef


@jit
def _ovr_dual_loop(src, st, m, y, r, ball, index, coef, lengths, scale, norm_sq, margins, cases):
    """K binary kernel Perceptrons (Ballseptrons with ``ball``) over one shared support list.

    The shared list is the engine's supports s_0, ..., s_{m-1} (``src``,
    ``st``: :mod:`perceptron_bounds.kernel_engine`). Class k's supports are
    s_{index[k, q]} with the coefficients coef[k, q], q < lengths[k], in the
    order of its updates, and w^k = scale[k] sum_q coef[k, q] K(s_{index[k, q]}, .).
    A trial on which any class updates appends x_t to the list once, and
    y^k / scale[k] to the row of each class that updated. ``cases[t, k]``
    receives the case of class k on trial t and ``margins[t, k]`` its margin;
    ``lengths``, ``scale`` and ``norm_sq`` are updated in place. Returns
    (engine state, m, index, coef) with the buffers possibly regrown.
    """
    order = engine_order(src)
    n_trials = order.shape[0]
    n_classes = coef.shape[0]
    row = np.empty(capacity(m))
    gathered = np.empty(coef.shape[1])
    for t in range(n_trials):
        if t % EVERY == 0 and stop_requested(t):  # Ctrl-C: return trials 0..t-1
            break
        i = order[t]
        st = engine_row(src, st, t, m, row)
        appended = False
        kxx = 0.0
        for k in range(n_classes):
            # Class k's kernel values in the order of its supports, summed as the binary loop
            # sums its own row: the same numbers in the same positions, the same dot.
            n_k = lengths[k]
            supports = index[k]
            for q in range(n_k):
                gathered[q] = row[supports[q]]
            s = dot(coef[k], gathered, n_k) * scale[k]
            margins[t, k] = s
            yk = 1.0 if y[i] == k else -1.0
            case, a = _case(yk * s, norm_sq[k], r, ball)
            cases[t, k] = case
            if case == NO_UPDATE:
                continue
            if not appended:
                st = engine_append(src, st, t, m)
                row = grow_vector(row, m)
                m += 1
                appended = True
                if ball:
                    kxx = engine_diag(src, i)
            if ball:
                product = scale[k] * a
                if scale_in_range(product):
                    scale[k] = product
                else:
                    for q in range(n_k):
                        coef[k, q] *= product
                    scale[k] = 1.0
                norm_sq[k] = max(a * a * norm_sq[k] + 2.0 * a * yk * s + kxx, 0.0)
            if n_k == coef.shape[1]:
                index, coef = _deeper(index, coef, n_k)
                gathered = np.empty(coef.shape[1])
            index[k, n_k] = m - 1
            coef[k, n_k] = yk / scale[k]
            lengths[k] = n_k + 1
    return st, m, index, coef


def _row_keys(S) -> list:
    """One key per row of S (ndarray or sparse); rows equal bit for bit share it."""
    if not sp.issparse(S):
        return [row.tobytes() for row in S]
    S = sp.csr_matrix(S, dtype=np.float64, copy=True)
    S.sum_duplicates()  # sorted column indices: equal rows store equal arrays
    indices = S.indices.astype(np.int64)
    return [(indices[a:b].tobytes(), S.data[a:b].tobytes())
            for a, b in zip(S.indptr[:-1], S.indptr[1:], strict=True)]


def merged_supports(runs) -> tuple[np.ndarray | sp.csr_matrix, list[np.ndarray]]:
    """One support list for the K dual runs ``runs``, keeping each run's supports in order.

    Returns (S, positions): the shared rows (an ndarray, or a CSR matrix when
    any run keeps CSR supports), and for each run k the indices in S of its
    supports, in its order and with multiplicity (S[positions[k]] is run k's
    support list). The merge is greedy: each step takes the first remaining
    support of the runs whose first remaining row is the same, bit for bit,
    choosing the row that heads the most runs (the lowest run on ties), so
    that a row the runs share is stored, and its kernel values computed, once.
    """
    supports = [run.support_vectors for run in runs]
    if any(sp.issparse(S) for S in supports):
        stacked = sp.vstack([sp.csr_matrix(S, dtype=np.float64) for S in supports], format="csr")
    else:
        stacked = np.vstack([np.asarray(S, dtype=np.float64) for S in supports])
    keys = _row_keys(stacked)
    starts = np.cumsum([0] + [S.shape[0] for S in supports])
    heads = [0] * len(runs)
    positions: list[list[int]] = [[] for _ in runs]
    rows = []
    while True:
        waiting: dict = {}
        for k, head in enumerate(heads):
            if starts[k] + head < starts[k + 1]:
                waiting.setdefault(keys[starts[k] + head], []).append(k)
        if not waiting:
            break
        chosen = max(waiting.values(), key=len)
        rows.append(starts[chosen[0]] + heads[chosen[0]])
        for k in chosen:
            positions[k].append(len(rows) - 1)
            heads[k] += 1
    return stacked[np.array(rows, dtype=np.int64)], [np.array(p, dtype=np.int64)
                                                     for p in positions]


@jit
def _multiclass_mistakes(scores, y_index, out):
    """Fills ``out`` with the trials t where scores[t, y_t] <= max_{r != y_t} scores[t, r],
    as NumPy's max finds it (NaN if any other score is NaN, so no mistake); returns their
    count."""
    m = 0
    for t in range(scores.shape[0]):
        row = scores[t]
        y = y_index[t]
        own = row[y]
        reached = nan = False  # own <= max_{r != y} s_r iff some other s_r >= own
        for r in range(row.shape[0]):  # without branches: K compares, vectorised
            other = r != y
            reached |= other & (row[r] >= own)
            nan |= other & (row[r] != row[r])
        out[m] = t
        if reached and not nan:
            m += 1
    return m


def multiclass_mistake_trials(scores: np.ndarray, y_index: np.ndarray) -> np.ndarray:
    """The trials t with s_{t, y_t} <= max_{r != y_t} s_{t, r} (theory §2.6), sorted, in one
    read of the (T, K) ``scores``; :func:`perceptron_bounds.online.multiclass_mistakes`."""
    # writeable: Numba types read-only arrays (a run's frozen margins) apart
    scores = np.require(scores, np.float64, ["C_CONTIGUOUS", "WRITEABLE"])
    y_index = np.require(y_index, np.int64, ["C_CONTIGUOUS", "WRITEABLE"])
    out = np.empty(scores.shape[0], dtype=np.int64)
    return out[:_multiclass_mistakes(scores, y_index, out)].copy()


def _class_runs(previous, n_classes: int):
    """The K binary runs to continue (None for a fresh run)."""
    if previous is None:
        return None
    runs = tuple(previous.class_runs)
    if len(runs) != n_classes:
        raise ValueError(f"the warm start has {len(runs)} class runs, the data {n_classes} classes")
    return runs


def _fit_primal(data, order, r, ball, margins, cases, runs):
    """Primal loops; returns (hypotheses, ||w||^2 per class, the state each class keeps).

    As the binary rules: a warm start continues each class's w = scale * v and (the
    Ballseptron's) ||w||^2 as its loop kept them (:func:`scaled_start`)."""
    n_classes = data.classes.shape[0]
    starts = [scaled_start(None if runs is None else runs[k], data.n_features)
              for k in range(n_classes)]
    n = data.n_features
    V = line_zeros(n_classes, -(-n // LINE) * LINE)  # each row starting a cache line
    if runs is not None:
        for k, (v, _) in enumerate(starts):
            V[k, :n] = v
    scale = np.array([c for _, c in starts], dtype=np.float64)
    norm_sq = np.zeros(n_classes) if runs is None else np.array(
        [float(run.state.get("norm_sq", run.weights @ run.weights)) for run in runs])
    _ovr_primal_loop(rows(data.X), data.y, order, r, ball, V, n, scale, norm_sq, margins, cases,
                     line_zeros(1, 0 if data.sparse else n))
    hypotheses = [LinearHypothesis(V[k, :n] * scale[k]) for k in range(n_classes)]
    return hypotheses, norm_sq, [scaled_state(V[k, :n].copy(), scale[k])
                                 for k in range(n_classes)]


def _fit_dual(data, order, params, r, ball, margins, cases, runs):
    """Dual loop over one shared support list; returns (hypotheses, ||w||^2 per class)."""
    n_classes = data.classes.shape[0]
    kernel = kernel_of(params)
    if runs is None:
        held = None
        lengths = np.zeros(n_classes, dtype=np.int64)
        norm_sq = np.zeros(n_classes)
    else:
        held, positions = merged_supports(runs)
        lengths = np.array([p.shape[0] for p in positions], dtype=np.int64)
        norm_sq = np.array([float(run.state.get("norm_sq", 0.0)) for run in runs])
    width = capacity(int(lengths.max()))
    index = np.zeros((n_classes, width), dtype=np.int64)
    coef = np.zeros((n_classes, width))
    if runs is not None:
        for k, (run, p) in enumerate(zip(runs, positions, strict=True)):
            index[k, : p.shape[0]] = p
            coef[k, : p.shape[0]] = run.dual_coef
    scale = np.ones(n_classes)
    src, st, m = kernel_engine(data.X, order, kernel, held)
    st, m, index, coef = _ovr_dual_loop(src, st, m, data.y, r, ball, index, coef, lengths, scale,
                                        norm_sq, margins, cases)
    S = engine_supports(st, m)
    hypotheses = [
        KernelHypothesis(S[index[k, : lengths[k]]], coef[k, : lengths[k]] * scale[k], kernel)
        for k in range(n_classes)
    ]
    return hypotheses, norm_sq


def _fit_ovr(data, order, params, r, ball, margins, previous) -> list[LoopResult]:
    n_classes = data.classes.shape[0]
    if margins.shape != (order.shape[0], n_classes):  # the loops write every entry
        raise ValueError(f"margins must have shape (T, K) = {(order.shape[0], n_classes)}, got "
                         f"{margins.shape}")
    runs = _class_runs(previous, n_classes)
    # a trial's K cases in one line: class k's cases contiguous instead (a faster search for
    # its trials) made the loop write K lines a trial, 1.03x as long in order, 1.08x shuffled
    cases = np.empty(margins.shape, dtype=np.int8)
    if params["form"] == "primal":
        hypotheses, norm_sq, kept = _fit_primal(data, order, r, ball, margins, cases, runs)
    else:
        hypotheses, norm_sq = _fit_dual(data, order, params, r, ball, margins, cases, runs)
        kept = [{}] * n_classes
    results = []
    for k in range(n_classes):
        mistakes = np.flatnonzero(cases[:, k] == MISTAKE)
        if ball:
            results.append(LoopResult(mistakes, hypotheses[k],
                                      margin_error_trials=np.flatnonzero(
                                          cases[:, k] == MARGIN_ERROR),
                                      state={"norm_sq": float(norm_sq[k]), **kept[k]}))
        else:
            results.append(LoopResult(mistakes, hypotheses[k]))
    return results


def fit_ovr_perceptron(data, order, params, margins, previous) -> list[LoopResult]:
    """One-vs-rest Perceptron (theory §2.1, §2.6): the K binary runs in one pass.

    The ``fit_ovr`` hook of ``"perceptron"``; ``"voted_perceptron"`` trains with it.

    Parameters
    ----------
    data : Data
        Validated data whose ``y`` holds int64 class indices 0..K-1 and
        ``classes`` the K labels.
    order : ndarray of int64, shape (T,)
        The presented sequence (rows of X).
    params : dict
        The resolved parameters of ``"perceptron"`` (``form``, and the kernel's).
    margins : ndarray of shape (T, K)
        Filled with every class's margin w^k . x_t, before the trial's update.
    previous : OnlineRun or None
        A one-vs-rest run to continue; class k continues ``previous.class_runs[k]``.

    Returns
    -------
    list of LoopResult
        K results; result k is, bit for bit (dual form: see the module's
        Exactness), the binary ``fit`` of ``"perceptron"`` on "class k (+1)
        against the rest (-1)" with the same ``order`` and
        ``previous.class_runs[k]``: its mistake trials and a
        ``LinearHypothesis`` (primal) or ``KernelHypothesis`` over its own
        supports, in order (dual; CSR rows for CSR X).
    """
    return _fit_ovr(data, order, params, 0.0, False, margins, previous)


def fit_ovr_ballseptron(data, order, params, margins, previous) -> list[LoopResult]:
    """One-vs-rest Ballseptron (theory §2.3, §2.6): the K binary runs in one pass.

    As :func:`fit_ovr_perceptron`, for ``"ballseptron"`` with its radius
    ``params["r"]``: result k also holds the margin-error trials of class k
    and ``state["norm_sq"]``, its final ||w||^2, each exactly as the binary
    ``fit`` gives them. The ``fit_ovr`` hook of ``"ballseptron"``.
    """
    return _fit_ovr(data, order, params, params["r"], True, margins, previous)
