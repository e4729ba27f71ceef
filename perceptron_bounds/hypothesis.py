"""Final hypotheses of online runs: what ``OnlineRun.decision_function`` evaluates.

The hypotheses every family shares live here (linear, kernel, prototypes, one-vs-rest);
the hypothesis of one particular algorithm lives in its module, beside its registration
(the voted Perceptron's in :mod:`~perceptron_bounds.algorithms.voted`, the Higher-Order and
p-norm ones in :mod:`~perceptron_bounds.algorithms.pnorm`, the Second-Order ones in
:mod:`~perceptron_bounds.algorithms.second_order` and
:mod:`~perceptron_bounds.algorithms.second_order_pinv`).

A hypothesis is a small picklable object holding the final state needed for
prediction. ``decision_function`` takes validated input (see
:func:`perceptron_bounds._validation.check_X`) and returns real scores; the
sign is the prediction (a zero score predicts the negative class, as in
scikit-learn). A multiclass hypothesis (theory §2.6) returns one score per
class, shape (n, K), and predicts the class of the largest (the smallest index
on ties).

Kernel (dual) hypotheses score a test set a block of rows at a time: the
kernel values of the block against all the support vectors come from one
matrix product (:func:`kernel_blocks` caps the block's size), dense or CSR on
either side. A one-vs-rest hypothesis evaluates its test rows once against
the union of its classes' support vectors, not once per class.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import scipy.sparse as sp

from ._sequence import draw_seed
from ._validation import check_X
from .kernels import Kernel
from .registry import register_hypothesis

# Rows of a test block are scored in chunks so that a (chunk x support) kernel
# block stays near this many entries.
_BLOCK_ENTRIES = 1 << 22

# A sparse operand of a kernel product with at least this share of its entries nonzero is
# multiplied as a dense array, when that array has at most _DENSE_ENTRIES entries: the BLAS
# then beats scipy's sparse product (MNIST images, 19% nonzero, against 6,100 supports:
# 1.3 s dense, 2.4 s CSR against dense, 4.3 s CSR against CSR for 2,500 rows).
_DENSE_SHARE = 0.1
_DENSE_ENTRIES = 1 << 24


def kernel_blocks(X, n_support: int):
    """Yield row slices of X such that each (slice x n_support) block stays small."""
    step = max(1, _BLOCK_ENTRIES // max(n_support, 1))
    for start in range(0, X.shape[0], step):
        yield slice(start, min(start + step, X.shape[0]))


def product_operand(M):
    """M as it enters a kernel product: a sparse M dense enough to gain from the BLAS as an ndarray.

    A CSR matrix with at least a tenth of its entries nonzero and at most
    2^24 entries in all is returned dense; anything else unchanged. The
    kernel values are the same either way, up to the order in which the
    products of a dot product are added.
    """
    if not sp.issparse(M):
        return M
    size = M.shape[0] * M.shape[1]
    return M.toarray() if size <= _DENSE_ENTRIES and M.nnz >= _DENSE_SHARE * size else M


def kernel_scores(X, S, kernel: Kernel, score, out: np.ndarray) -> np.ndarray:
    """out[rows] = score(K(X[rows], S), rows) over the row blocks of X; returns out.

    Parameters
    ----------
    X : ndarray or csr_matrix of shape (n, n_features)
        Validated test rows.
    S : ndarray or csr_matrix of shape (m, n_features)
        The support vectors.
    kernel : Kernel
    score : callable (G, rows) -> ndarray
        The scores of the rows ``rows`` (a slice of X) from their kernel
        values G = K(X[rows], S), shape (len, m).
    out : ndarray with n rows
    """
    S = product_operand(S)
    for rows in kernel_blocks(X, S.shape[0]):
        out[rows] = score(kernel.gram(product_operand(X[rows]), S), rows)
    return out


def primal_vectors(coef: np.ndarray, S) -> np.ndarray:
    """coef @ S, the primal vector(s) sum_i coef[..., i] S[i]: an ndarray for dense or CSR S."""
    return np.asarray(coef @ S)


class ScoredRecord:
    """Scores and labels of a record's ``hypothesis``: what a run and its snapshots share.

    A base class of :class:`~perceptron_bounds.OnlineRun` and
    :class:`~perceptron_bounds.replay.Snapshot`, which hold ``hypothesis``,
    ``n_features`` and ``classes``.
    """

    @property
    def weights(self) -> np.ndarray | None:
        """Primal weight vector of the hypothesis, or None for a non-linear kernel.

        Multiclass: one row per class, shape (K, n_features) (the prototypes of
        a native run, the class runs' vectors for one-vs-rest).
        """
        return getattr(self.hypothesis, "weights", None)

    @property
    def support_vectors(self):
        """Support vectors of the hypothesis, one row each; None when it keeps none.

        An ndarray, or a ``scipy.sparse.csr_matrix`` for a dual (kernel) run
        on CSR X. One-vs-rest: the union of the class runs' support vectors
        (equal rows once, see :class:`OneVsRestHypothesis`).
        """
        return getattr(self.hypothesis, "support_vectors", None)

    @property
    def dual_coef(self) -> np.ndarray | None:
        """Coefficients of the support vectors in the hypothesis; None when it keeps none."""
        return getattr(self.hypothesis, "dual_coef", None)

    def decision_function(self, X, **options) -> np.ndarray:
        """Real-valued scores of the hypothesis on the rows of X: (n,), or (n, K) multiclass.

        ``options`` are passed to the hypothesis (e.g. ``method="vote"`` for the
        voted Perceptron).
        """
        X = check_X(X, n_features=self.n_features, accept_sparse=True)
        return self.hypothesis.decision_function(X, **options)

    def predict(self, X, **options) -> np.ndarray:
        """Labels (original values) predicted by the hypothesis.

        Binary: ``classes[1]`` for a positive score, ``classes[0]`` otherwise
        (score 0 included). Multiclass (scores (n, K), theory §2.6):
        ``classes[argmax_k score_k]``, the smallest index on ties.
        """
        scores = self.decision_function(X, **options)
        if scores.ndim == 2:
            return self.classes[scores.argmax(axis=1)]
        return self.classes[(scores > 0).astype(np.intp)]


@register_hypothesis
@dataclass(frozen=True, eq=False)
class LinearHypothesis:
    """f(x) = w . x."""

    weights: np.ndarray

    def decision_function(self, X) -> np.ndarray:
        return np.asarray(X @ self.weights, dtype=np.float64).ravel()


@register_hypothesis
@dataclass(frozen=True, eq=False)
class KernelHypothesis:
    """f(x) = sum_i dual_coef[i] K(support_vectors[i], x).

    ``support_vectors`` is an ndarray, or a CSR matrix for a run on CSR X;
    either scores dense or CSR X.
    """

    support_vectors: Any
    dual_coef: np.ndarray
    kernel: Kernel

    @property
    def weights(self) -> np.ndarray | None:
        """The primal vector sum_i dual_coef[i] x_i, an ndarray (linear kernel only)."""
        if not self.kernel.is_linear:
            return None
        return primal_vectors(self.dual_coef, self.support_vectors)

    def decision_function(self, X) -> np.ndarray:
        out = np.zeros(X.shape[0])
        if self.dual_coef.shape[0] == 0:
            return out
        return kernel_scores(X, self.support_vectors, self.kernel, self._gram_scorer(X), out)

    def _gram_scorer(self, X):
        """The scores of X from its kernel values: a callable (G, rows) -> scores of X[rows].

        G = K(X[rows], support_vectors), shape (len(rows), n_support), for a
        slice ``rows`` of X; :func:`kernel_scores` feeds it block by block, and
        the callable may overwrite G. Every kernel hypothesis has one, taking
        the options of its ``decision_function``, so that a one-vs-rest
        hypothesis can score its classes from one product against the union
        of their supports. Here: G @ dual_coef.
        """
        return lambda G, rows: G @ self.dual_coef


@register_hypothesis(multiclass=True)
@dataclass(frozen=True, eq=False)
class PrototypeHypothesis:
    """One prototype per class (theory §2.6): f_r(x) = w^r . x, r = 0, ..., K - 1.

    ``weights`` has shape (K, n_features), row r the prototype w^r of class
    ``classes[r]`` (paper 004 sec. 4). ``decision_function`` returns the (n, K)
    scores; the prediction is the class of the largest, the smallest index on ties.
    """

    weights: np.ndarray

    def decision_function(self, X) -> np.ndarray:
        return np.asarray(X @ self.weights.T, dtype=np.float64)


@register_hypothesis(multiclass=True)
@dataclass(frozen=True, eq=False)
class PrototypeKernelHypothesis(KernelHypothesis):
    """Prototypes in a kernel's feature space: f_r(x) = sum_j a_rj K(s_j, x).

    The K prototypes share one support list s_j = ``support_vectors[j]``
    (theory §2.6, kernel form); a_rj = ``dual_coef[r, j]``, shape (K, n_support).
    ``decision_function`` returns the (n, K) scores; ``weights`` (linear
    kernel) are the (K, n_features) primal prototypes.
    """

    def decision_function(self, X) -> np.ndarray:
        out = np.zeros((X.shape[0], self.dual_coef.shape[0]))
        if self.dual_coef.shape[1] == 0:
            return out
        return kernel_scores(X, self.support_vectors, self.kernel, self._gram_scorer(X), out)

    def _gram_scorer(self, X):
        """(G, rows) -> G @ dual_coef.T, the (len(rows), K) scores (see KernelHypothesis)."""
        return lambda G, rows: G @ self.dual_coef.T


@register_hypothesis(multiclass=True)
@dataclass(frozen=True, eq=False)
class OneVsRestHypothesis:
    """K binary hypotheses, class k against the rest (theory §2.6): f_k(x), k = 0, ..., K - 1.

    ``hypotheses[k]`` is the final hypothesis of the binary run "class
    ``classes[k]`` (+1) against the rest (-1)". ``decision_function`` returns
    the (n, K) scores, column k the score of ``hypotheses[k]``; the prediction
    is the class of the largest, the smallest index on ties.

    Attributes
    ----------
    hypotheses : tuple
        The K binary hypotheses, in the order of the classes.
    """

    hypotheses: tuple

    @property
    def weights(self) -> np.ndarray | None:
        """The K primal weight vectors as rows, (K, n_features); None unless every class has one."""
        rows = [getattr(h, "weights", None) for h in self.hypotheses]
        return None if any(w is None for w in rows) else np.vstack(rows)

    @property
    def support_vectors(self):
        """The union of the class hypotheses' support vectors, one row each; None if none keeps any.

        Rows equal bit for bit count once (the instances on which any class
        updated, paper 001 sec. 5's "SupVec"), in the order of first
        appearance (those of class 0 first). An ndarray, or a CSR matrix when
        the class hypotheses keep CSR rows.
        """
        union = self._union
        return None if union is None else union[0]

    @cached_property
    def _union(self):
        """(union of the support rows, positions): class k's support i is union row positions[k][i].

        None when no class keeps support vectors. Kept once computed (a
        hypothesis does not change); pickles leave it out.
        """
        blocks = [getattr(h, "support_vectors", None) for h in self.hypotheses]
        if all(block is None for block in blocks):
            return None
        blocks = [block for block in blocks if block is not None]
        if any(sp.issparse(block) for block in blocks):
            stacked = sp.vstack([sp.csr_matrix(block) for block in blocks], format="csr")
            # Canonical rows (sorted column indices, no stored zeros): equal rows store equal
            # arrays.
            stacked.sum_duplicates()
            stacked.eliminate_zeros()
            keys = (
                (stacked.indices[a:b].tobytes(), stacked.data[a:b].tobytes())
                for a, b in zip(stacked.indptr[:-1], stacked.indptr[1:], strict=True)
            )
        else:
            stacked = np.vstack(blocks)
            keys = (row.tobytes() for row in stacked)
        first: dict = {}
        position = np.fromiter((first.setdefault(key, len(first)) for key in keys),
                               dtype=np.int64, count=stacked.shape[0])
        ends = np.cumsum([block.shape[0] for block in blocks])
        positions = iter(np.split(position, ends[:-1]))
        return stacked[np.unique(position, return_index=True)[1]], tuple(
            None if getattr(h, "support_vectors", None) is None else next(positions)
            for h in self.hypotheses
        )

    def __getstate__(self):
        return {key: value for key, value in self.__dict__.items() if key != "_union"}

    def decision_function(self, X, **options) -> np.ndarray:
        """Scores (n, K): column k is ``hypotheses[k].decision_function(X, **options)``.

        ``options`` (e.g. the voted Perceptron's ``method``, ``normalize`` and
        ``seed``) go to every class's hypothesis; the voted ``method="random"``
        draws one time slice r per test point for all classes (paper 001
        sec. 5: each class's vector in force after r rounds), from ``seed``,
        or from one seed drawn here when ``seed`` is None.

        Notes
        -----
        When every class keeps support vectors with one kernel (a dual run),
        the kernel values of a block of test rows come from one product
        against the union of the classes' supports (``support_vectors``;
        one-vs-rest runs share most of their supports), and each class reads
        its own columns of it: the per-class scores up to the order in which
        the BLAS adds the products of a dot product. The classes whose score
        is sum_i a_i K(s_i, x) take it from one product of those kernel values
        with an (n_union, K) matrix of their coefficients (the coefficients of
        a support a class holds twice added together).
        """
        if options.get("method") == "random" and options.get("seed") is None:
            options = {**options, "seed": draw_seed()}
        out = np.empty((X.shape[0], len(self.hypotheses)))
        scorers = self._shared_scorers(X, options)
        if scorers is None:
            for k, hypothesis in enumerate(self.hypotheses):
                out[:, k] = hypothesis.decision_function(X, **options)
            return out
        union, positions = self._union
        expansions = [k for k, h in enumerate(self.hypotheses) if type(h) is KernelHypothesis]
        coef = np.zeros((union.shape[0], len(expansions)))
        for column, k in enumerate(expansions):
            coef[:, column] = np.bincount(positions[k], weights=self.hypotheses[k].dual_coef,
                                          minlength=union.shape[0])
        others = sorted(set(range(len(self.hypotheses))) - set(expansions))

        def score(G, rows):
            block = np.empty((G.shape[0], out.shape[1]))
            block[:, expansions] = G @ coef
            for k in others:
                block[:, k] = scorers[k](G[:, positions[k]], rows)
            return block

        return kernel_scores(X, union, self.hypotheses[0].kernel, score, out)

    def _shared_scorers(self, X, options):
        """The classes' ``_gram_scorer``s, or None when they do not share one kernel's Gram.

        None unless every class hypothesis keeps support vectors and has a
        ``_gram_scorer`` for these options, all with one kernel.
        """
        kernels = {getattr(h, "kernel", None) for h in self.hypotheses}
        if (len(kernels) != 1 or None in kernels
                or not all(hasattr(h, "_gram_scorer") for h in self.hypotheses)
                or any(h.support_vectors is None for h in self.hypotheses)):
            return None
        scorers = [h._gram_scorer(X, **options) for h in self.hypotheses]
        return None if any(scorer is None for scorer in scorers) else scorers
