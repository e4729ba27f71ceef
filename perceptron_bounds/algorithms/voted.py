"""The voted (and averaged) Perceptron of Freund & Schapire (theory §2.2), primal and kernel forms.

Training is exactly the Perceptron (theory §2.1): the same loops run, and the
prediction vectors v_1 = 0, v_2, ..., v_{k+1} with their survival counts
c_1, ..., c_{k+1} follow from the mistake trials. A correct trial adds one to
the count of the current vector; a mistake at trial t creates
v_{j+1} = v_j + y_t x_t with count 1 (paper 001, Fig. 1). The final hypothesis
is a ``VotedHypothesis`` (at the end of this module), whose
``decision_function(X, method=...)`` offers the prediction methods of paper
001 sec. 5: ``vote``, ``average``, ``last``, ``random`` (and ``normalize``).

Registered as ``"voted_perceptron"`` with the parameters of ``"perceptron"``:
``kernel``, ``degree``, ``gamma``, ``coef0`` (theory §1.7) and ``form``
(``"primal"``, ``"dual"`` or ``"auto"``). ``OnlineRun.state`` holds
``counts`` (c_1..c_{k+1}, int64, summing to the number of trials),
``norms_sq`` (||v_1||^2..||v_{k+1}||^2) and, when it ended below 0 (rounding, v_{k+1}
about 0), ``norm_sq_sum``, the running sum of the recurrence of
``VotedHypothesis.norms_sq`` before its clamp at 0 (else it is ``norms_sq[-1]``). A warm
start continues the count of the last vector and that running sum: a chain of warm
starts on consecutive batches is one run, bit for bit, as a file streamed in chunks
(:mod:`perceptron_bounds.streaming`). Its memory grows with the mistakes, not with the
trials: the vectors v_j are kept as the mistaken instances (a chunk's run stacks its
mistaken rows under the earlier ones). ``run.weights`` is v_{k+1} (the Perceptron's
final vector).

Multiclass (paper 001, sec. 5)
------------------------------
With K classes the voted Perceptron is trained once per class l on "l
against the rest" (one-vs-rest, theory §2.6; the one-pass loops of
:mod:`perceptron_bounds.algorithms.ovr`), giving the vectors and counts
(v^l_1, c^l_1), ..., (v^l_{k_l+1}, c^l_{k_l+1}) of class l. A new x gets one
score s_l per class and the prediction argmax_l s_l (``run.decision_function``
gives the (n, K) scores, ``run.predict`` the labels):

* ``last``: s_l = v^l_{k_l+1} . x; normalised: v^l_{k_l+1} . x / ||v^l_{k_l+1}||;
* ``vote``: s_l = sum_j c^l_j sign(v^l_j . x), the votes of class l's vectors
  for "l" against "not l" (normalising changes no sign);
* ``average``: s_l = sum_j c^l_j v^l_j . x; normalised:
  sum_j c^l_j v^l_j . x / ||v^l_j||;
* ``random``: one time slice r, uniform in {0, ..., T}, for all the classes of
  a test point, and s_l = v^l_{r_l} . x with v^l_{r_l} the last vector of class
  l that existed after r rounds; normalised: divided by ||v^l_{r_l}||.

A zero vector contributes 0 to a normalised score. The tables of paper 001
also count "SupVec", the number of instances on which a mistake occurred
for any label (:func:`supvec_count`, of the rows :func:`support_rows`), and
"Mistake", the total number of mistakes made for the K labels
(:func:`mistake_count`).

References
----------
Y. Freund and R. E. Schapire, "Large margin classification using the
Perceptron algorithm", Machine Learning 37 (1999), Fig. 1, sec. 4 and 5
(paper 001).

Examples
--------
>>> import numpy as np
>>> from perceptron_bounds import run_online
>>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
>>> run = run_online("voted_perceptron", X, [1, 1, -1, -1], epochs=2)
>>> run.mistake_trials.tolist(), run.state["counts"].tolist()
([0, 1], [0, 1, 7])
>>> run.decision_function(X, method="vote").tolist()
[8.0, 7.0, -8.0, -7.0]
>>> run.predict(X, method="average").tolist()
[1, 1, -1, -1]

Three classes, one-vs-rest:

>>> X3 = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
>>> run = run_online("voted_perceptron", X3, ["a", "b", "c"], epochs=3)
>>> [c.mistake_trials.tolist() for c in run.class_runs]
[[0, 1, 2, 4], [0, 1, 2, 3], [0, 1]]
>>> supvec_count(run), mistake_count(run)
(3, 10)
>>> run.decision_function(X3, method="vote").tolist()
[[9.0, -8.0, -9.0], [-6.0, 8.0, -8.0], [-8.0, -6.0, 9.0]]
>>> run.predict(X3, method="average", normalize=True).tolist()
['a', 'b', 'c']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from .._sequence import check_seed
from .._validation import check_bool, check_choice
from ..hypothesis import LinearHypothesis, kernel_scores
from ..kernels import KERNEL_DEFAULTS, Kernel, kernel_of
from ..registry import Algorithm, LoopResult, attach, register, register_hypothesis
from ._common import resolve_kernel_form
from .ovr import class_data, fit_ovr_perceptron
from .perceptron import fit_dual, fit_primal


def survival_counts(mistake_trials, n_trials: int, previous_counts) -> np.ndarray:
    """Counts c_j of paper 001, Fig. 1, continued over ``n_trials`` new trials.

    Parameters
    ----------
    mistake_trials : ndarray of int64
        Sorted 0-based mistake trials t_1 < ... < t_k of the new trials.
    n_trials : int
        Number T of new trials.
    previous_counts : ndarray of int64
        Counts before the new trials; ``[0]`` (v_1 = 0, not yet used) for a fresh run.

    Returns
    -------
    ndarray of int64
        ``previous_counts`` with its last entry increased by t_1 (the correct
        trials before the first mistake; T if there is none), followed by
        t_{j+1} - t_j for each new vector (T - t_k for the last): a vector's
        count includes its birth trial.

    Examples
    --------
    >>> survival_counts(np.array([0, 3, 4]), 6, np.array([0])).tolist()
    [0, 3, 1, 2]
    """
    gaps = np.diff(np.concatenate(([0], mistake_trials, [n_trials])))
    counts = np.concatenate((previous_counts, gaps[1:])).astype(np.int64)
    counts[previous_counts.shape[0] - 1] += gaps[0]
    return counts


def _stack(previous, new):
    """Rows of ``previous`` then rows of ``new`` (CSR if either is sparse)."""
    if previous is None:
        return new
    if sp.issparse(previous) or sp.issparse(new):
        return sp.vstack([sp.csr_matrix(previous), sp.csr_matrix(new)], format="csr")
    return np.vstack([previous, new])


def _fit(data, order, params, margins, previous) -> LoopResult:
    # The margins at the mistakes give ||v_j|| by recurrence: record them always.
    scores = margins if margins.shape[0] else np.empty(order.shape[0])
    if params["form"] == "primal":
        w0 = None if previous is None else previous.weights
        trials, weights = fit_primal(data, order, scores, w0)
    else:
        trials, final = fit_dual(data, order, params, scores, previous)
        weights = final.weights
    return _voted(data, order, kernel_of(params), trials, scores, weights, previous)


def _fit_ovr(data, order, params, margins, previous) -> list[LoopResult]:
    """One-vs-rest: the Perceptron's one-pass loops, then each class's vectors and counts."""
    results = fit_ovr_perceptron(data, order, params, margins, previous)
    kernel = kernel_of(params)
    return [
        _voted(class_data(data, k), order, kernel, result.mistake_trials, margins[:, k],
               result.hypothesis.weights, None if previous is None else previous.class_runs[k])
        for k, result in enumerate(results)
    ]


def _voted(data, order, kernel, trials, scores, weights, previous) -> LoopResult:
    """The voted Perceptron's result from the Perceptron's mistake trials and margins."""
    rows = order[trials]
    labels = data.y[rows]
    X_m = data.X[rows]
    # Before the first trial: only v_1 = 0, with count 0 and norm 0.
    old = previous.hypothesis if previous is not None else VotedHypothesis(
        None, np.empty(0), np.zeros(1, dtype=np.int64), np.zeros(1), kernel
    )
    counts = survival_counts(trials, order.shape[0], old.counts)
    steps = 2.0 * labels * scores[trials] + kernel.diagonal(X_m)
    # One running sum over the warm starts (its association is the run's), continued from
    # the last norm unless the clamp at 0 changed that (then kept as norm_sq_sum)
    start = 0.0 if previous is None else previous.state.get("norm_sq_sum", old.norms_sq[-1])
    running = np.cumsum(np.concatenate(([start], steps)))
    norms_sq = np.concatenate((old.norms_sq, np.maximum(running[1:], 0.0)))
    state = {"counts": counts, "norms_sq": norms_sq}
    if running[-1] < 0.0:
        state["norm_sq_sum"] = float(running[-1])
    hypothesis = VotedHypothesis(
        support_vectors=_stack(old.support_vectors, X_m),
        labels=np.concatenate((old.labels, labels)),
        counts=counts,
        norms_sq=norms_sq,
        kernel=kernel,
        weights=weights,
    )
    return LoopResult(trials, hypothesis, state=state)



def _binary_runs(run) -> tuple:
    """The binary runs behind ``run``: its class runs (one-vs-rest), or the run itself (binary)."""
    if getattr(run, "multiclass", None) == "native":
        raise ValueError("SupVec and Mistake count the binary runs of a one-vs-rest run; "
                         "got a native multiclass run")
    class_runs = getattr(run, "class_runs", None)
    return (run,) if class_runs is None else tuple(class_runs)


def support_rows(run) -> np.ndarray:
    """The rows of X on which any binary run behind ``run`` made a mistake: SupVec's instances.

    The distinct rows (int64 indices into the run's own X, sorted) presented on a
    mistake trial of any of the K binary runs ``run.class_runs`` of a one-vs-rest run
    (of ``run`` itself for a binary run), paper 001 sec. 5. A warm-started run
    gives the rows of its own trials; over a chain of warm starts on consecutive
    batches, the union of each run's rows (offset by its batch's first row) is the
    chain's SupVec.

    Parameters
    ----------
    run : OnlineRun
        A one-vs-rest or binary run.

    Returns
    -------
    ndarray of int64

    Raises
    ------
    ValueError
        For a native multiclass run (it has no binary runs).
    """
    return np.unique(np.concatenate([r.mistake_rows for r in _binary_runs(run)]))


def supvec_count(run) -> int:
    """Paper 001's "SupVec": the number of instances on which any class made a mistake.

    "The number of 'support vectors,' that is, the total number of instances
    that actually are used in computing scores [...], the size of the union
    of all instances on which a mistake occurred during training" (paper 001,
    sec. 5, Tables 1-3): the distinct rows of X (by index) presented on a
    mistake trial of any of the K binary runs ``run.class_runs`` of a
    one-vs-rest run (of ``run`` itself for a binary run). When no two rows
    of X are equal it is the number of rows of ``run.support_vectors`` of a
    one-vs-rest voted run (which merges equal rows). The rows are
    :func:`support_rows`.

    Parameters
    ----------
    run : OnlineRun
        A one-vs-rest or binary run from the zero state (typically of
        ``"voted_perceptron"``; any Perceptron-family run is counted alike).

    Returns
    -------
    int

    Raises
    ------
    ValueError
        For a warm-started run (the rows of the earlier batches are not in its
        record) or a native multiclass run (it has no binary runs).

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import run_online
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
    >>> run = run_online("voted_perceptron", X, [1, 1, -1, -1], epochs=2)
    >>> supvec_count(run), mistake_count(run)
    (2, 2)
    """
    rows = support_rows(run)
    if run.warm_started:
        raise ValueError("supvec_count needs a run from the zero state: a warm-started run's "
                         "record does not hold the rows of the earlier batches")
    return int(rows.shape[0])


def mistake_count(run) -> int:
    """Paper 001's "Mistake": the total number of training mistakes over the K binary runs.

    "The total number of mistakes made during training for the 10 different
    labels" (paper 001, sec. 5): sum_k m_k over the binary runs
    ``run.class_runs`` of a one-vs-rest run (the papers' training corrections,
    theory §2.6), ``run.mistakes`` for a binary run: ``run.corrections``. A
    warm-started run counts its own trials only, as ``run.mistakes`` does.

    Raises
    ------
    ValueError
        For a native multiclass run (it has no binary runs; its ``corrections``
        are its multiclass mistakes).
    """
    _binary_runs(run)  # raises for a native run
    return run.corrections

VOTED_PERCEPTRON = register(
    Algorithm(
        name="voted_perceptron",
        estimator="VotedPerceptron",
        defaults={**KERNEL_DEFAULTS, "form": "auto"},
        resolve=resolve_kernel_form,
        fit=_fit,
        fit_ovr=_fit_ovr,
        summary="Freund & Schapire's voted/averaged Perceptron, primal or kernel form",
        bounds=("novikoff", "freund_schapire", "ballseptron_d1"),
        # training is the Perceptron's (theory §2.2): its mistakes, its shifting bounds
        tracking=("perceptron_shifting", "perceptron_shifting_reached"),
    )
)
attach(VOTED_PERCEPTRON.name, "presentation",
       display_name="Voted Perceptron")


VOTE_METHODS = ("vote", "average", "last", "random")


@register_hypothesis
@dataclass(frozen=True, eq=False)
class VotedHypothesis:
    """The weighted prediction vectors (v_1, c_1), ..., (v_{k+1}, c_{k+1}) of the voted Perceptron.

    v_1 = 0 and v_{j+1} = v_j + y_{i_j} x_{i_j}, where x_{i_j} is the j-th
    mistaken instance; c_j is the number of trials v_j survived, its birth
    trial included (paper 001, Fig. 1; theory §2.2). The vectors are kept
    implicitly, as the mistaken instances in order.

    Attributes
    ----------
    support_vectors : ndarray or scipy.sparse.csr_matrix of shape (k, n_features)
        The mistaken instances x_{i_1}, ..., x_{i_k} in the order of the mistakes.
    labels : ndarray of shape (k,)
        Their labels y_{i_j} in {-1, +1}: the dual coefficients of v_{k+1}.
    counts : ndarray of int64, shape (k + 1,)
        Survival counts c_1, ..., c_{k+1}; they sum to the number of trials T.
    norms_sq : ndarray of shape (k + 1,)
        ||v_j||^2 by the recurrence ||v_{j+1}||^2 = ||v_j||^2 + 2 y_{i_j} v_j.x_{i_j}
        + K(x_{i_j}, x_{i_j}), with v_j.x_{i_j} the margin of the j-th mistake.
    kernel : Kernel
        The kernel K of the run (``linear`` for the primal form).
    weights : ndarray of shape (n_features,) or None
        v_{k+1} as a primal vector; None for a non-linear kernel.
    """

    support_vectors: Any
    labels: np.ndarray
    counts: np.ndarray
    norms_sq: np.ndarray
    kernel: Kernel
    weights: np.ndarray | None = None

    @property
    def dual_coef(self) -> np.ndarray:
        """Coefficients of the last vector v_{k+1} on ``support_vectors``: the labels."""
        return self.labels

    def decision_function(self, X, method="vote", normalize=False, seed=None) -> np.ndarray:
        """Scores of the prediction methods of paper 001, sec. 5, on the rows of X.

        Parameters
        ----------
        X : ndarray or csr_matrix of shape (n_samples, n_features)
            Validated test instances.
        method : {"vote", "average", "last", "random"}, default="vote"
            ``vote``: sum_j c_j sign(v_j . x) (paper 001, Fig. 1);
            ``average``: sum_j c_j v_j . x; ``last``: v_{k+1} . x;
            ``random``: v_{r'} . x, where v_{r'} is the last vector that existed
            after r rounds and r is drawn uniformly from {0, ..., T}, one draw
            per test point (the randomized leave-one-out conversion, paper 001
            sec. 3 and 5).
        normalize : bool, default=False
            Use v_j / ||v_j|| in place of v_j (the "normalized" variants of
            paper 001 sec. 5); a zero vector contributes 0. It leaves ``vote``
            unchanged.
        seed : int or None, default=None
            Seed of ``numpy.random.default_rng`` for ``method="random"``.

        Returns
        -------
        ndarray of shape (n_samples,)

        Notes
        -----
        Every score v_j . x of a test point comes from the recurrence
        v_{j+1} . x = v_j . x + y_{i_j} K(x_{i_j}, x) (paper 001 sec. 4): one
        kernel row per test point and a cumulative sum, k kernel values, not
        k^2. Test rows are processed in chunks (:func:`kernel_blocks`).
        """
        score = self._gram_scorer(X, method, normalize, seed)
        if self.labels.shape[0] == 0:  # v_1 = 0 alone, the zero state: every method scores 0
            return np.zeros(X.shape[0])
        if score is None:  # the last vector, kept in primal form
            return LinearHypothesis(self.weights).decision_function(X) * self._scale(normalize)[-1]
        return kernel_scores(X, self.support_vectors, self.kernel, score, np.empty(X.shape[0]))

    def _gram_scorer(self, X, method="vote", normalize=False, seed=None):
        """(G, rows) -> scores of X[rows] from G = K(X[rows], support_vectors) (KernelHypothesis).

        None for ``method="last"`` when v_{k+1} is kept as a primal vector
        (``weights``): it scores as a linear hypothesis.
        """
        method = check_choice("method", method, VOTE_METHODS)
        normalize = check_bool("normalize", normalize)
        seed = check_seed(seed)
        scale = self._scale(normalize)
        if self.labels.shape[0] == 0:
            return lambda G, rows: np.zeros(G.shape[0])
        if method == "last" and self.weights is not None:
            return None
        if method == "last":
            return lambda G, rows: (G @ self.labels) * scale[-1]
        if method == "random":
            alive = self._alive(np.random.default_rng(seed), X.shape[0])
        weights = self.counts[1:] * scale[1:]

        def score(G, rows):
            # V[:, j - 1] = v_{j+1} . x; v_1 = 0 scores 0 under every method.
            V = G
            V *= self.labels
            np.cumsum(V, axis=1, out=V)
            if method == "vote":
                return np.sign(V) @ self.counts[1:]
            if method == "average":
                return V @ weights
            j = alive[rows]
            picked = V[np.arange(V.shape[0]), np.maximum(j - 1, 0)] * scale[j]
            return np.where(j > 0, picked, 0.0)

        return score

    def _scale(self, normalize: bool) -> np.ndarray:
        """1 for every vector, or 1/||v_j|| (0 for a zero vector) when normalizing."""
        if not normalize:
            return np.ones(self.counts.shape[0])
        norms = np.sqrt(self.norms_sq)
        return np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)

    def _alive(self, rng, n_points: int) -> np.ndarray:
        """Index j - 1 of the vector v_j alive after r rounds, r uniform in {0, ..., T}.

        v_1 exists from round 0; v_j (j > 1), born at the trial c_1 + ... + c_{j-1}
        (0-based), exists after 1 + c_1 + ... + c_{j-1} rounds.
        """
        n_trials = int(self.counts.sum())
        slices = rng.integers(0, n_trials + 1, size=n_points)
        births = np.concatenate(([0], 1 + np.cumsum(self.counts)[:-1]))
        return np.searchsorted(births, slices, side="right") - 1
