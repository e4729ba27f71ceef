"""Checks every registered algorithm must pass (README, "Development"): the same seed gives
the same run bit for bit, every input kind the same run, the inputs are not modified, the
run keeps its invariants and pickles, and no input kind compiles a new loop signature.

New algorithms are picked up automatically through ``available()``.
"""

import dataclasses
import doctest
import importlib
import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import noisy_separable

from perceptron_bounds import run_online
from perceptron_bounds.algorithms import available, get

ALGORITHMS = available()
X, Y = noisy_separable(n_samples=60, n_features=4, noise=0.1, seed=21)


def same_run(a, b):
    np.testing.assert_array_equal(a.sample_index, b.sample_index)
    np.testing.assert_array_equal(a.mistake_trials, b.mistake_trials)
    np.testing.assert_array_equal(a.margin_error_trials, b.margin_error_trials)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_same_seed_same_run_bit_for_bit(algorithm):
    a = run_online(algorithm, X, Y, epochs=3, shuffle=True, seed=5, record_margins=True)
    b = run_online(algorithm, X, Y, epochs=3, shuffle=True, seed=5, record_margins=True)
    same_run(a, b)
    np.testing.assert_array_equal(a.margins, b.margins)
    c = run_online(algorithm, X, Y, epochs=3, shuffle=True, seed=6)
    assert not np.array_equal(a.sample_index, c.sample_index)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_shuffle_without_seed_records_a_replayable_seed(algorithm):
    a = run_online(algorithm, X, Y, epochs=2, shuffle=True)
    assert isinstance(a.seed, int)
    same_run(a, run_online(algorithm, X, Y, epochs=2, shuffle=True, seed=a.seed))


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize(
    "convert",
    [lambda A: A.tolist(), lambda A: A.astype(np.float32).astype(np.float64),
     lambda A: np.asfortranarray(A), lambda A: A[:, ::-1][:, ::-1]],
    ids=["list", "float32-exact", "fortran", "strided"],
)
def test_input_kinds_give_the_same_run(algorithm, convert):
    X32 = X.astype(np.float32).astype(np.float64)
    reference = run_online(algorithm, X32, Y, epochs=2, seed=0)
    same_run(run_online(algorithm, convert(X32), list(Y), epochs=2, seed=0), reference)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_inputs_are_not_modified(algorithm):
    X_copy, Y_copy = X.copy(), Y.copy()
    run_online(algorithm, X_copy, Y_copy, epochs=2, shuffle=True, seed=1)
    np.testing.assert_array_equal(X_copy, X)
    np.testing.assert_array_equal(Y_copy, Y)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_record_invariants(algorithm):
    run = run_online(algorithm, X, Y, epochs=3, record_margins=True, seed=0)
    assert run.n_trials == 3 * len(Y)
    for trials in (run.mistake_trials, run.margin_error_trials):
        assert trials.dtype == np.int64
        assert np.all(np.diff(trials) > 0)
        assert trials.size == 0 or (trials[0] >= 0 and trials[-1] < run.n_trials)
    assert np.intersect1d(run.mistake_trials, run.margin_error_trials).size == 0
    # theory §1.1: a trial is a mistake iff y_t * margin_t <= 0.
    y_shown = Y[run.sample_index]
    np.testing.assert_array_equal(np.flatnonzero(y_shown * run.margins <= 0), run.mistake_trials)
    assert run.mistake_trials[0] == 0
    assert run_online(algorithm, X, Y, seed=0).margins is None


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_run_is_immutable_and_picklable(algorithm):
    run = run_online(algorithm, X, Y, epochs=2, seed=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        run.algorithm = "other"
    with pytest.raises(ValueError, match="read-only"):
        run.mistake_trials[0] = 5
    clone = pickle.loads(pickle.dumps(run))
    same_run(clone, run)
    assert clone.params == run.params
    np.testing.assert_array_equal(clone.predict(X), run.predict(X))


Y3 = np.digitize(X[:, 0] - X[:, 1], [-0.5, 0.5])  # three classes
MULTICLASS = [(algorithm, "ovr") for algorithm in ALGORITHMS] + [
    (algorithm, "native") for algorithm in ALGORITHMS if get(algorithm).fit_native is not None]


@pytest.mark.parametrize("algorithm, multiclass", MULTICLASS)
def test_multiclass_runs_are_deterministic_keep_their_inputs_and_pickle(algorithm, multiclass):
    X_copy, Y_copy = X.copy(), Y3.copy()
    options = {"epochs": 2, "shuffle": True, "seed": 5, "record_margins": True,
               "multiclass": multiclass}
    a = run_online(algorithm, X_copy, Y_copy, **options)
    np.testing.assert_array_equal(X_copy, X)
    np.testing.assert_array_equal(Y_copy, Y3)
    b = run_online(algorithm, X, list(Y3), **options)
    same_run(a, b)
    np.testing.assert_array_equal(a.margins, b.margins)
    assert a.margins.shape == (a.n_trials, 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.multiclass = None
    clone = pickle.loads(pickle.dumps(a))
    same_run(clone, a)
    assert clone.corrections == a.corrections
    np.testing.assert_array_equal(clone.predict(X), a.predict(X))


def test_input_kinds_compile_no_new_signature():
    """float32, Fortran-ordered X and int labels are converted before any loop sees them.

    The one-signature rule itself is checked over the whole session (conftest).
    """
    for algorithm in ALGORITHMS:
        for convert in (np.asarray, np.asfortranarray, lambda A: A.astype(np.float32)):
            run_online(algorithm, convert(X), Y.astype(np.int64), epochs=1)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_warm_start_with_form_auto_keeps_its_form(algorithm):
    first = run_online(algorithm, X, Y, seed=0)
    # On 3 rows of 4 features, "auto" alone would pick the second-order dual form.
    given = {"form": "auto"} if "form" in first.params else {}
    second = run_online(algorithm, X[:3], Y[:3], warm_start=first, **given, seed=0)
    assert second.params == first.params


@pytest.mark.parametrize("algorithm", [a for a in ALGORITHMS if a != "pnorm"])
def test_a_dual_warm_start_continues_on_sparse_input(algorithm):
    """A dense dual run continued on CSR rows is the run continued on the same dense rows."""
    first = run_online(algorithm, X, Y, kernel="rbf", seed=0)
    sparse = run_online(algorithm, sp.csr_matrix(X), Y, warm_start=first, seed=0)
    dense = run_online(algorithm, X, Y, warm_start=first, seed=0)
    np.testing.assert_array_equal(sparse.mistake_trials, dense.mistake_trials)
    np.testing.assert_allclose(sparse.decision_function(X), dense.decision_function(X),
                               rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_csr_with_duplicate_and_unsorted_indices_is_its_dense_matrix(algorithm, kernel):
    """A CSR row's duplicate entries add up, as in toarray(); the input is left as it was."""
    rows, cols = np.nonzero(X[:, ::-1])  # each row's columns in decreasing order
    cols = X.shape[1] - 1 - cols
    indptr = np.concatenate(([0], np.cumsum(2 * np.bincount(rows, minlength=X.shape[0]))))
    Xs = sp.csr_matrix((np.repeat(0.5 * X[rows, cols], 2), np.repeat(cols, 2), indptr),
                       shape=X.shape)
    assert not Xs.has_canonical_format
    kept = Xs.data.copy(), Xs.indices.copy()
    params = {"kernel": kernel} if kernel != "linear" and algorithm != "pnorm" else {}
    run = run_online(algorithm, Xs, Y, epochs=2, record_margins=True, **params, seed=0)
    dense = run_online(algorithm, X, Y, epochs=2, record_margins=True, **params, seed=0)
    np.testing.assert_array_equal(run.mistake_trials, dense.mistake_trials)
    np.testing.assert_array_equal(run.margin_error_trials, dense.margin_error_trials)
    np.testing.assert_allclose(run.margins, dense.margins, rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(Xs.data, kept[0])
    np.testing.assert_array_equal(Xs.indices, kept[1])


@pytest.mark.parametrize(
    "module",
    ["online", "estimators", "algorithms.voted", "algorithms.ballseptron",
     "algorithms.pnorm", "bounds.transformed", "kernels"],
)
def test_docstring_examples_run(module):
    """The docstrings' Examples sections (README, "Development") are doctested, so they cannot
    drift from the code."""
    result = doctest.testmod(importlib.import_module(f"perceptron_bounds.{module}"))
    assert result.attempted > 0
    assert result.failed == 0
