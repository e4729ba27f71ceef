"""Bad input gets a clear error naming the argument, raised before any trial runs."""

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import noisy_separable

from perceptron_bounds import run_online
from perceptron_bounds.algorithms import available

X, Y = noisy_separable(n_samples=20, n_features=3)


@pytest.mark.parametrize(
    "X_bad, y_bad, error, match",
    [
        (np.where(np.eye(20, 3) > 0, np.nan, X), Y, ValueError, "X contains NaN"),
        (np.where(np.eye(20, 3) > 0, np.inf, X), Y, ValueError, "X contains infinity"),
        (sp.csr_matrix(np.where(np.eye(20, 3) > 0, np.nan, X)), Y, ValueError, "X contains NaN"),
        (X[:, 0], Y, ValueError, "X must be 2-D"),
        (X[None], Y, ValueError, "X must be 2-D"),
        (X[:0], Y[:0], ValueError, "X is empty"),
        (X[:, :0], Y, ValueError, "X is empty"),
        (X, Y[:-1], ValueError, "different lengths"),
        (X, Y[:, None], ValueError, "y must be 1-D"),
        (X, np.ones(20), ValueError, "single class"),
        (X, np.where(np.arange(20) == 3, np.nan, Y), ValueError, "y contains NaN"),
        (X.astype(complex), Y, TypeError, "real numbers"),
        (np.array([["a", "b", "c"]] * 20), Y, TypeError, "X must hold numbers"),
        ("not an array", Y, TypeError, "array-like"),
        (X * 1e200, Y, ValueError, "X holds values too large .* scale X down"),
        (sp.csr_matrix(X * 1e200), Y, ValueError, "X holds values too large"),
        ([[1.0, 2.0], [3.0]], [1, -1], ValueError, "X must be a 2-D array of numbers"),
        (X, np.array([1, "a"] * 10, dtype=object), TypeError, "y must hold labels of one kind"),
        (X, np.where(Y > 0, 1.0, np.nan).astype(object), ValueError, "y contains NaN"),
        (X, np.where(Y > 0, 1.0, None), ValueError, "y contains None"),
    ],
)
def test_bad_data(X_bad, y_bad, error, match):
    with pytest.raises(error, match=match):
        run_online("perceptron", X_bad, y_bad)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"epochs": 0}, ValueError, r"epochs must be in \[1, inf\), got 0"),
        ({"epochs": 1.5}, TypeError, "epochs must be an integer"),
        ({"epochs": True}, TypeError, "epochs must be an integer"),
        ({"shuffle": "yes"}, TypeError, "shuffle must be True or False"),
        ({"seed": -1}, ValueError, "seed must be in"),
        ({"kernel": "sigmoid"}, ValueError, "kernel must be one of 'linear', 'poly', 'rbf'"),
        ({"kernel": "rbf", "gamma": 0.0}, ValueError, r"gamma must be in \(0, inf\), got 0.0"),
        ({"kernel": "poly", "degree": 0}, ValueError, "degree must be in"),
        ({"kernel": "rbf", "form": "primal"}, ValueError, "form='primal' needs kernel='linear'"),
        ({"form": "both"}, ValueError, "form must be one of"),
        ({"r": 0.1}, TypeError, "unexpected parameter.*r; it takes"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        run_online("perceptron", X, Y, **kwargs)


def test_unknown_algorithm_names_the_choices():
    with pytest.raises(ValueError, match="algorithm must be one of .*perceptron.*'nope'"):
        run_online("nope", X, Y)


def test_kernel_form_takes_sparse_input():
    dense = run_online("perceptron", X, Y, kernel="rbf")
    sparse = run_online("perceptron", sp.csr_matrix(X), Y, kernel="rbf")
    np.testing.assert_array_equal(sparse.mistake_trials, dense.mistake_trials)
    assert sp.issparse(sparse.support_vectors)


def test_predict_checks_features():
    run = run_online("perceptron", X, Y)
    with pytest.raises(ValueError, match="X has 2 features, but 3 were expected"):
        run.predict(X[:, :2])


def test_classes_allow_a_one_label_batch():
    run = run_online("perceptron", X, np.ones(20), classes=[-1, 1])
    assert run.classes.tolist() == [-1, 1]
    with pytest.raises(ValueError, match=r"labels \[2\] not in classes"):
        run_online("perceptron", X, np.full(20, 2), classes=[-1, 1])
    with pytest.raises(ValueError, match=r"classes must hold two distinct labels, got \["):
        run_online("perceptron", X, np.ones(20), classes=[1, 1])
    # three classes make a one-vs-rest run (issue 11; tests/test_multiclass.py)
    assert run_online("perceptron", X, np.ones(20), classes=[-1, 0, 1]).multiclass == "ovr"


def test_single_class_message_shows_the_plain_label():
    with pytest.raises(ValueError, match=r"single class \(1\.0\)"):
        run_online("perceptron", X, np.ones(20))


@pytest.mark.parametrize("algorithm", available())
def test_every_algorithm_rejects_unknown_parameters(algorithm):
    with pytest.raises(TypeError, match="unexpected parameter"):
        run_online(algorithm, X, Y, not_a_parameter=1)


def test_warm_start_of_another_kind_is_named():
    with pytest.raises(ValueError, match="OnlineRun of 'perceptron', got an OnlineRun of 'ballse"):
        run_online("perceptron", X, Y, warm_start=run_online("ballseptron", X, Y))
    with pytest.raises(ValueError, match="OnlineRun of 'perceptron', got dict"):
        run_online("perceptron", X, Y, warm_start={})


@pytest.mark.parametrize("algorithm", [a for a in available() if a != "pnorm"])
@pytest.mark.parametrize("kernel", [{"degree": 400, "gamma": 10.0}, {"coef0": 1e308}])
def test_a_poly_kernel_that_overflows_is_refused(algorithm, kernel):
    with pytest.raises(ValueError, match=r"kernel='poly' .* overflows float64 on X: .*= 10\^"):
        run_online(algorithm, X, Y, kernel="poly", **kernel)
    run_online(algorithm, X, Y, kernel="poly", degree=30, gamma=1.0)  # large but finite


def _csr(indices, indptr, n_columns=3):
    """A CSR matrix of ones with these index arrays, built without scipy's checks."""
    X = sp.csr_matrix((3, n_columns))
    X.data, X.indices, X.indptr = np.ones(len(indices)), np.array(indices), np.array(indptr)
    return X


@pytest.mark.parametrize(
    "X_bad, match",
    [
        (_csr([0, 3, 1], [0, 1, 2, 3]), r"X row 1 stores column 3, outside \[0, 3\)"),
        (_csr([0, -1, 1], [0, 1, 2, 3]), r"X row 1 stores column -1, outside \[0, 3\)"),
        (_csr([2, 0, 5, 1], [0, 1, 3, 4]), r"X row 1 stores column 5"),  # unordered row
        (_csr([0, 1, 2], [0, 2, 1, 3]), r"index pointer \(indptr\) must rise .* at row 1"),
        (_csr([0, 1, 2], [0, 4, 2, 3]), r"at most its 3 entries, but does not at row 0"),
    ],
)
def test_corrupt_csr_index_arrays_are_refused(X_bad, match):
    for kind in (np.int32, np.int64):
        X_bad.indices, X_bad.indptr = X_bad.indices.astype(kind), X_bad.indptr.astype(kind)
        with pytest.raises(ValueError, match=match):
            run_online("perceptron", X_bad, [1, -1, 1])


def test_csr_index_arrays_are_used_as_given():
    """scipy's int32 index arrays reach the loops without a copy (issue 32); int64 ones too,
    and other integer kinds become int64. Each kind gives the same run."""
    from perceptron_bounds._linalg import rows
    from perceptron_bounds._validation import check_X

    runs = []
    for kind in (np.int32, np.int64, np.int16):
        Xs = sp.csr_matrix(X)
        Xs.indices, Xs.indptr = Xs.indices.astype(kind), Xs.indptr.astype(kind)
        checked = check_X(Xs)
        _, indices, indptr = rows(checked)
        assert indices.dtype == indptr.dtype == (np.int64 if kind == np.int16 else kind)
        if kind != np.int16:
            assert np.shares_memory(indices, Xs.indices) and np.shares_memory(indptr, Xs.indptr)
        runs.append(run_online("perceptron", Xs, Y, epochs=2))
    for run in runs[1:]:
        np.testing.assert_array_equal(run.mistake_trials, runs[0].mistake_trials)
        np.testing.assert_array_equal(run.weights, runs[0].weights)
        assert run.data_fingerprint == runs[0].data_fingerprint
