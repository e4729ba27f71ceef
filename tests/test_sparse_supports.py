"""Dual runs on CSR X keep CSR support vectors: everything downstream of the run takes them.

A kernel (dual) run on CSR X holds its support vectors as a CSR matrix (the
kernel engine's ``engine_supports``). These tests check what reads a run:
scoring (dense or CSR supports against dense or CSR test rows, equal to
1e-12), the primal ``weights`` of a linear kernel, a one-vs-rest hypothesis
scoring every class from one kernel product against the union of the classes'
supports (issue 13) equal to the class runs' own scores for every voted
method, save/load, replay, the scikit-learn estimators and the bounds.
"""

import dataclasses
import os
import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.datasets import load_digits

from perceptron_bounds import (
    Ballseptron,
    HigherOrderPerceptron,
    KernelPerceptron,
    SecondOrderPerceptron,
    VotedPerceptron,
    load_run,
    run_online,
)
from perceptron_bounds.bounds import bounds_over_time, evaluate
from perceptron_bounds.algorithms.second_order_pinv import PseudoinverseHypothesis
from perceptron_bounds.algorithms.voted import VotedHypothesis
from perceptron_bounds.hypothesis import OneVsRestHypothesis, product_operand
from perceptron_bounds.kernels import Kernel


def sparse_rows(n_samples, n_features, density, seed):
    """Non-negative rows with about ``density`` of their entries nonzero, and 3 labels."""
    rng = np.random.default_rng(seed)
    X = rng.random((n_samples, n_features)) * (rng.random((n_samples, n_features)) < density)
    y = np.argmax(X @ rng.standard_normal((n_features, 3)), axis=1)
    return X, y


# Half the entries nonzero: CSR operands of a product go dense (product_operand).
X, Y3 = sparse_rows(60, 12, 0.5, seed=0)
Y2 = np.where(Y3 == 0, 1, -1)
XS = sp.csr_matrix(X)
TEST = sparse_rows(25, 12, 0.5, seed=1)[0]
# 3% nonzero: CSR operands stay sparse (scipy's products).
X_THIN, Y3_THIN = sparse_rows(80, 200, 0.03, seed=2)
TEST_THIN = sparse_rows(30, 200, 0.03, seed=3)[0]

# Every dual form on the kernel engine, with its parameters (binary, one-vs-rest and, where it
# has one, native).
DUAL = {
    "perceptron-poly": ("perceptron", {"kernel": "poly", "degree": 2}),
    "perceptron-linear": ("perceptron", {"kernel": "linear", "form": "dual"}),
    "voted-rbf": ("voted_perceptron", {"kernel": "rbf"}),
    "voted-linear": ("voted_perceptron", {"kernel": "linear", "form": "dual"}),
    "ballseptron-poly": ("ballseptron", {"kernel": "poly", "degree": 2, "r": 0.05}),
    "so-rbf": ("second_order", {"kernel": "rbf", "form": "dual"}),
    "so-adaptive": ("second_order", {"variant": "adaptive", "form": "dual"}),
    "so-pinv-linear": ("second_order", {"variant": "pinv", "form": "dual"}),
    "ho-poly": ("higher_order", {"kernel": "poly", "degree": 2, "form": "dual"}),
    "ho-sparse-rbf": ("higher_order", {"kernel": "rbf", "form": "dual", "sparse": True}),
}
NATIVE = {"perceptron-poly", "perceptron-linear", "ballseptron-poly"}
RUNS = [(case, mode) for case in DUAL for mode in ("binary", "ovr", "native")
        if mode != "native" or case in NATIVE]


def dual_run(case, mode, data=XS, labels=None, epochs=2):
    algorithm, params = DUAL[case]
    if labels is None:
        labels = Y2 if mode == "binary" else Y3
    multiclass = None if mode == "binary" else mode
    return run_online(algorithm, data, labels, epochs=epochs, multiclass=multiclass, **params)


def close(actual, expected, rtol=1e-12):
    """Equal to rtol, relative to the largest |value| (a score may cancel to about 0)."""
    expected = np.asarray(expected)
    np.testing.assert_allclose(actual, expected, rtol=rtol,
                               atol=rtol * max(np.abs(expected).max(initial=0.0), 1e-300))


def densified(hypothesis):
    """The same hypothesis with every CSR field (support vectors, basis) made dense."""
    if isinstance(hypothesis, OneVsRestHypothesis):
        return OneVsRestHypothesis(tuple(densified(h) for h in hypothesis.hypotheses))
    changes = {f.name: getattr(hypothesis, f.name).toarray()
               for f in dataclasses.fields(hypothesis) if sp.issparse(getattr(hypothesis, f.name))}
    return dataclasses.replace(hypothesis, **changes)


def class_hypotheses(run):
    return [run.hypothesis] if run.class_runs is None else [c.hypothesis for c in run.class_runs]


# ------------------------------------------------------------------ scoring


@pytest.mark.parametrize("case, mode", RUNS)
def test_a_dual_run_on_csr_X_keeps_csr_supports_and_scores_as_the_dense_run(case, mode):
    sparse, dense = dual_run(case, mode), dual_run(case, mode, data=X)
    assert sp.isspmatrix_csr(sparse.support_vectors)
    assert not sp.issparse(dense.support_vectors)
    np.testing.assert_array_equal(sparse.mistake_trials, dense.mistake_trials)
    np.testing.assert_array_equal(sparse.support_vectors.toarray(), dense.support_vectors)
    for test in (TEST, sp.csr_matrix(TEST)):
        close(sparse.decision_function(test), dense.decision_function(TEST), rtol=1e-10)


@pytest.mark.parametrize("case, mode", RUNS)
@pytest.mark.parametrize("thin", [False, True], ids=["half-full", "thin"])
def test_csr_and_dense_supports_score_alike_on_csr_and_dense_rows(case, mode, thin):
    if thin:
        data, test = sp.csr_matrix(X_THIN), TEST_THIN
        labels = np.where(Y3_THIN == 0, 1, -1) if mode == "binary" else Y3_THIN
    else:
        data, test, labels = XS, TEST, None
    run = dual_run(case, mode, data=data, labels=labels)
    dense = densified(run.hypothesis)
    expected = dense.decision_function(test)
    for hypothesis in (run.hypothesis, dense):
        for rows in (test, sp.csr_matrix(test)):
            close(hypothesis.decision_function(rows), expected)


def test_product_operand_densifies_a_csr_matrix_only_when_a_tenth_is_nonzero():
    half = sp.csr_matrix(X)
    assert isinstance(product_operand(half), np.ndarray)
    np.testing.assert_array_equal(product_operand(half), X)
    thin = sp.csr_matrix(X_THIN)
    assert product_operand(thin) is thin
    assert product_operand(X) is X


@pytest.mark.parametrize("case, mode", [
    (case, mode) for case, mode in RUNS
    if case in ("perceptron-linear", "voted-linear", "so-pinv-linear")])
def test_weights_of_csr_supports_are_a_dense_array(case, mode):
    sparse, dense = dual_run(case, mode), dual_run(case, mode, data=X)
    weights = sparse.weights
    assert type(weights) is np.ndarray
    assert weights.shape == ((X.shape[1],) if mode == "binary" else (3, X.shape[1]))
    close(weights, dense.weights)
    if mode != "native":
        for hypothesis in class_hypotheses(sparse):
            assert type(hypothesis.weights) is np.ndarray and hypothesis.weights.ndim == 1


def test_the_pseudoinverse_hypothesis_keeps_its_csr_basis():
    hypothesis = dual_run("so-pinv-linear", "binary").hypothesis
    assert isinstance(hypothesis, PseudoinverseHypothesis) and sp.issparse(hypothesis.basis)
    close(hypothesis.decision_function(sp.csr_matrix(TEST)),
          densified(hypothesis).decision_function(TEST))


# ------------------------------------------------------------------ one-vs-rest


def per_class(run, test, **options):
    return np.column_stack([h.decision_function(test, **options) for h in class_hypotheses(run)])


VOTED_OPTIONS = [{"method": method, "normalize": normalize, "seed": 7}
                 for method in ("vote", "average", "last", "random") for normalize in (False, True)]


@pytest.mark.parametrize("kernel", [{"kernel": "poly", "degree": 3}, {"kernel": "rbf"},
                                    {"kernel": "linear"}, {"kernel": "linear", "form": "dual"}],
                         ids=["poly", "rbf", "linear-primal", "linear-dual"])
@pytest.mark.parametrize("data", [X, XS], ids=["dense", "csr"])
def test_one_vs_rest_voted_scores_are_the_class_runs_for_every_method(kernel, data):
    run = run_online("voted_perceptron", data, Y3, epochs=3, **kernel)
    for options in VOTED_OPTIONS:
        for test in (TEST, sp.csr_matrix(TEST)):
            scores = run.decision_function(test, **options)
            close(scores, per_class(run, test, **options))
            np.testing.assert_array_equal(run.predict(test, **options),
                                          run.classes[scores.argmax(axis=1)])


@pytest.mark.parametrize("case", list(DUAL))
@pytest.mark.parametrize("data", [X, XS], ids=["dense", "csr"])
def test_one_vs_rest_scores_are_the_class_runs(case, data):
    run = dual_run(case, "ovr", data=data, epochs=3)
    for test in (TEST, sp.csr_matrix(TEST)):
        close(run.decision_function(test), per_class(run, test))


@pytest.fixture
def gram_calls(monkeypatch):
    """Count the kernel products (Kernel.gram) made."""
    calls = []
    gram = Kernel.gram

    def counted(self, A, B):
        calls.append(B.shape[0])
        return gram(self, A, B)

    monkeypatch.setattr(Kernel, "gram", counted)
    return calls


@pytest.mark.parametrize("algorithm", ["perceptron", "voted_perceptron", "second_order",
                                       "higher_order"])
def test_one_vs_rest_makes_one_kernel_product_against_the_union(algorithm, gram_calls):
    run = run_online(algorithm, XS, Y3, epochs=3, kernel="poly", degree=2, form="dual")
    union = run.support_vectors
    total = sum(h.support_vectors.shape[0] for h in class_hypotheses(run))
    assert union.shape[0] < total  # the classes share supports
    run.decision_function(TEST)
    assert gram_calls == [union.shape[0]]


def test_one_vs_rest_scores_block_by_block(monkeypatch):
    from perceptron_bounds import hypothesis as module

    run = run_online("voted_perceptron", XS, Y3, epochs=2, kernel="poly", degree=2)
    expected = {m: run.decision_function(TEST, method=m, seed=1) for m in ("vote", "random")}
    monkeypatch.setattr(module, "_BLOCK_ENTRIES", 50)  # several rows blocks
    for method, scores in expected.items():
        close(run.decision_function(TEST, method=method, seed=1), scores)


@pytest.mark.parametrize("data", [X, XS], ids=["dense", "csr"])
def test_the_union_holds_each_support_row_once(data):
    run = dual_run("perceptron-poly", "ovr", data=data, epochs=3)
    union = run.support_vectors
    assert sp.issparse(union) == sp.issparse(data)
    rows = union.toarray() if sp.issparse(union) else union
    assert np.unique(rows, axis=0).shape[0] == rows.shape[0]
    for h in class_hypotheses(run):
        own = h.support_vectors.toarray() if sp.issparse(h.support_vectors) else h.support_vectors
        assert all((rows == row).all(axis=1).any() for row in own)
    mistaken = np.concatenate([r.sample_index[r.mistake_trials] for r in run.class_runs])
    assert rows.shape[0] == np.unique(X[mistaken], axis=0).shape[0]


def test_a_pickled_one_vs_rest_hypothesis_leaves_the_union_out():
    hypothesis = dual_run("perceptron-poly", "ovr").hypothesis
    before = len(pickle.dumps(hypothesis))
    scores = hypothesis.decision_function(TEST)
    assert len(pickle.dumps(hypothesis)) == before
    copy = pickle.loads(pickle.dumps(hypothesis))
    np.testing.assert_array_equal(copy.decision_function(TEST), scores)


def test_one_vs_rest_on_digits_equals_the_class_runs():
    digits = load_digits()  # integer pixels: every dot product is exact
    X_d, y_d = digits.data[:600], digits.target[:600]
    run = run_online("perceptron", X_d, y_d, kernel="poly", degree=3, gamma=1.0, coef0=1.0)
    test = digits.data[600:900]
    scores = run.decision_function(test)
    close(scores, per_class(run, test))
    close(run.decision_function(sp.csr_matrix(test)), scores)
    voted = run_online("voted_perceptron", sp.csr_matrix(X_d), y_d, kernel="poly", degree=3,
                       gamma=1.0, coef0=1.0)
    for options in VOTED_OPTIONS:
        close(voted.decision_function(test, **options), per_class(voted, test, **options))


# ------------------------------------------------------------------ save, load, replay


@pytest.mark.parametrize("case, mode", RUNS)
def test_save_and_load_keep_csr_supports_bit_for_bit(case, mode, tmp_path):
    run = dual_run(case, mode)
    loaded = load_run(run.save(os.path.join(tmp_path, "run")))
    with np.load(os.path.join(tmp_path, "run.npz"), allow_pickle=False) as archive:
        assert any(key.endswith("/indptr") for key in archive.files)
    for saved, back in zip(class_hypotheses(run), class_hypotheses(loaded), strict=True):
        a, b = saved.support_vectors, back.support_vectors
        assert type(b) is type(a) and b.shape == a.shape
        for part in ("data", "indices", "indptr"):
            np.testing.assert_array_equal(getattr(b, part), getattr(a, part), strict=True)
    for test in (TEST, sp.csr_matrix(TEST)):
        np.testing.assert_array_equal(loaded.decision_function(test), run.decision_function(test))
    union = loaded.support_vectors
    assert (union != run.support_vectors).nnz == 0


@pytest.mark.parametrize("case", list(DUAL))
def test_a_dual_run_on_csr_X_replays(case):
    run = dual_run(case, "binary")
    snapshots = list(run.snapshots(XS, Y2, steps=[1, run.n_updates]))
    assert sp.issparse(snapshots[0].support_vectors)
    last = snapshots[-1]
    np.testing.assert_array_equal(last.decision_function(TEST), run.decision_function(TEST))
    dense = run.hypothesis_at(1, X, Y2)
    close(snapshots[0].decision_function(TEST), dense.decision_function(TEST), rtol=1e-10)


# ------------------------------------------------------------------ estimators

ESTIMATORS = [
    KernelPerceptron(protocol="paper", degree=2, gamma=1.0),
    KernelPerceptron(protocol="paper", kernel="rbf", multiclass="native"),
    VotedPerceptron(protocol="paper", kernel="poly", degree=2, method="average", normalize=True),
    VotedPerceptron(protocol="paper", kernel="rbf", method="vote"),
    Ballseptron(protocol="paper", kernel="rbf", r=0.05),
    SecondOrderPerceptron(protocol="paper", kernel="rbf", gamma=0.5),
    HigherOrderPerceptron(protocol="paper", kernel="poly", degree=2),
]


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: repr(e)[:50])
@pytest.mark.parametrize("labels", [Y2, Y3], ids=["binary", "three-classes"])
def test_estimators_fit_and_predict_csr_X_as_dense_X(estimator, labels):
    sparse = clone(estimator).set_params(epochs=2).fit(XS, labels)
    dense = clone(estimator).set_params(epochs=2).fit(X, labels)
    assert sp.issparse(sparse.run_.support_vectors)
    assert sparse.mistakes_ == dense.mistakes_
    np.testing.assert_array_equal(sparse.run_.mistake_trials, dense.run_.mistake_trials)
    for test in (TEST, sp.csr_matrix(TEST), sp.csc_matrix(TEST)):
        close(sparse.decision_function(test), dense.decision_function(TEST), rtol=1e-10)
        np.testing.assert_array_equal(sparse.predict(test), dense.predict(TEST))


@pytest.mark.parametrize("estimator", ESTIMATORS[:5], ids=lambda e: repr(e)[:50])
def test_partial_fit_on_csr_batches_is_one_pass_over_them(estimator):
    estimator = clone(estimator).set_params(gamma=0.5)  # "scale" would see the first batch only
    batches = clone(estimator)
    for rows in (slice(0, 25), slice(25, 60)):
        batches.partial_fit(XS[rows], Y3[rows], classes=[0, 1, 2])
    whole = clone(estimator).fit(X, Y3)
    assert sp.issparse(batches.run_.support_vectors)
    assert batches.mistakes_ == whole.mistakes_
    close(batches.decision_function(TEST), whole.decision_function(TEST), rtol=1e-10)


# ------------------------------------------------------------------ bounds


def bound_values(report):
    rows = [*report.rows, *(row for r in getattr(report, "class_reports", ()) for row in r.rows)]
    return [(row.name, row.variant, row.applies, row.value) for row in rows]


@pytest.mark.parametrize("case, mode", [(case, mode) for case, mode in RUNS
                                        if case in ("perceptron-poly", "voted-rbf",
                                                    "ballseptron-poly", "so-rbf", "ho-poly")])
def test_bounds_of_a_csr_dual_run_are_those_of_the_dense_run(case, mode):
    labels = Y2 if mode == "binary" else Y3
    sparse, dense = dual_run(case, mode), dual_run(case, mode, data=X)
    expected = bound_values(evaluate(dense, X, labels))
    # The run's CSR supports change nothing; on CSR X the kernel SVM comparators come from
    # libsvm's sparse solver, which stops at its own point within its tolerance.
    for data, rtol in ((X, 1e-9), (XS, 1e-2)):
        values = bound_values(evaluate(sparse, data, labels))
        assert [row[:3] for row in values] == [row[:3] for row in expected]
        for (*_, a), (*_, b) in zip(values, expected, strict=True):
            assert (a is None) == (b is None)
            if a is not None:
                np.testing.assert_allclose(a, b, rtol=rtol)
    if mode == "binary":
        curves = bounds_over_time(sparse, XS, labels)
        reference = bounds_over_time(dense, XS, labels)  # the same comparators
        assert curves.keys() == reference.keys()
        for name in curves:
            np.testing.assert_allclose(curves[name], reference[name], rtol=1e-9)


def test_voted_hypothesis_of_no_mistakes_scores_zero_on_csr_rows():
    empty = VotedHypothesis(XS[:0], np.empty(0), np.array([5]), np.zeros(1), Kernel("rbf"))
    np.testing.assert_array_equal(empty.decision_function(XS, method="average"),
                                  np.zeros(X.shape[0]))


def wide_csr(n_samples, n_features=50_000, seed=0):
    X = sp.random(n_samples, n_features, density=20 / n_features, format="csr",
                  random_state=seed)
    y = np.where(X @ np.random.default_rng(seed).standard_normal(n_features) > 0, 1, -1)
    return X, y


@pytest.mark.parametrize("params", [
    {"algorithm": "higher_order", "memory_budget": 1e7},  # the dual form, sparse supports
    {"algorithm": "higher_order", "form": "implicit"},
    {"algorithm": "second_order", "variant": "pinv"},
], ids=["ho-dual", "ho-implicit", "so-pinv"])
def test_evaluate_keeps_wide_csr_data_sparse(params):
    """evaluate densified the mistaken rows of wide CSR data (m x n: 1.5 GB at 3,000 x 100,000
    for a 0.4 MB matrix; the pinv variant's evaluate took 13 s after a 0.2 s run). The memory
    is checked here; the speed is benchmarks/bench_evaluate_sparse.py's (no test asserts a
    wall time)."""
    import tracemalloc

    X, y = wide_csr(300)
    params = dict(params)
    run = run_online(params.pop("algorithm"), X, y, **params)
    dense_rows = 8 * run.mistakes * X.shape[1]
    evaluate(run, X, y)  # imports and compiles outside the traced call
    tracemalloc.start()
    try:
        report = evaluate(run, X, y)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < dense_rows / 4, (peak, dense_rows)
    assert all(row.holds is not False for row in report.rows)


def test_evaluate_stops_before_its_matrices_pass_memory_budget():
    X, y = wide_csr(300, 2_000)
    run = run_online("second_order", X, y, kernel="rbf", gamma=0.5)
    m = run.mistakes
    with pytest.raises(ValueError, match=rf"^evaluate would hold 2 dense {m} x {m} float64 "
                                         r"matrices \(the Gram matrix of the mistakes.*over "
                                         r"memory_budget=.*evaluate\(\.\.\., "
                                         r"memory_budget=\.\.\.\) to raise it$"):
        evaluate(run, X, y, memory_budget=16.0 * m * m - 1)
    assert evaluate(run, X, y, memory_budget=16.0 * m * m).rows
    budget = 8.0 * m * m + 8  # the run's m x m matrix fits, the bounds' two do not
    small = run_online("second_order", X, y, kernel="rbf", gamma=0.5, memory_budget=budget)
    with pytest.raises(ValueError, match=f"memory_budget={budget / 1024**3:.3g} GiB"):
        evaluate(small, X, y)  # the run's budget by default
    with pytest.raises(ValueError, match="memory_budget must be"):
        evaluate(run, X, y, memory_budget=0)
