"""The Perceptron's jitted loops against the plain-NumPy reference (theory §2.1)."""

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import noisy_separable
from reference import kernel_perceptron, perceptron, presented_sequence

from perceptron_bounds import run_online
from perceptron_bounds.kernels import Kernel


@pytest.mark.parametrize("epochs", [1, 4])
@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("sparse", [False, True])
def test_primal_matches_reference(epochs, shuffle, sparse):
    X, y = noisy_separable(n_samples=150, n_features=8, noise=0.1, seed=epochs)
    run = run_online("perceptron", sp.csr_matrix(X) if sparse else X, y, epochs=epochs,
                     shuffle=shuffle, seed=3, record_margins=True)
    order = presented_sequence(len(y), epochs, shuffle, 3)
    mistakes, w, margins = perceptron(X, y, order)
    np.testing.assert_array_equal(run.sample_index, order)  # theory §1.2
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    np.testing.assert_allclose(run.weights, w, rtol=0, atol=1e-10)
    np.testing.assert_allclose(run.margins, margins, rtol=0, atol=1e-10)
    assert run.params["form"] == "primal"
    assert run.margin_errors == 0


def test_sparse_equals_dense_bit_for_bit():
    X, y = noisy_separable(n_samples=300, n_features=30, noise=0.05, seed=5)
    X[np.abs(X) < 1.0] = 0.0
    dense = run_online("perceptron", X, y, epochs=3)
    sparse = run_online("perceptron", sp.csr_matrix(X), y, epochs=3)
    np.testing.assert_array_equal(dense.mistake_trials, sparse.mistake_trials)
    np.testing.assert_allclose(dense.weights, sparse.weights, rtol=0, atol=1e-12)


@pytest.mark.parametrize(
    "kernel, options",
    [("poly", {"degree": 3, "gamma": 0.5, "coef0": 1.0}), ("rbf", {"gamma": 0.3}),
     ("poly", {"degree": 2, "gamma": 1.0, "coef0": 0.0})],
)
@pytest.mark.parametrize("epochs", [1, 3])
def test_kernel_matches_reference(kernel, options, epochs):
    X, y = noisy_separable(n_samples=80, n_features=4, noise=0.1, seed=11)
    run = run_online("perceptron", X, y, epochs=epochs, shuffle=True, seed=7, kernel=kernel,
                     record_margins=True, **options)
    order = presented_sequence(len(y), epochs, True, 7)
    mistakes, support, coef, margins = kernel_perceptron(X, y, order, kernel, **options)
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    np.testing.assert_allclose(run.support_vectors, X[support], rtol=0, atol=0)
    np.testing.assert_allclose(run.dual_coef, coef, rtol=0, atol=1e-10)
    np.testing.assert_allclose(run.margins, margins, rtol=1e-10, atol=1e-10)
    assert run.weights is None
    assert run.params["form"] == "dual"


def test_kernel_definitions_match_scikit_learn():
    from sklearn.metrics.pairwise import polynomial_kernel, rbf_kernel

    rng = np.random.default_rng(0)
    A, B = rng.standard_normal((6, 3)), rng.standard_normal((4, 3))
    poly = Kernel("poly", 4, 0.7, 0.5)
    np.testing.assert_allclose(poly.gram(A, B),
                               polynomial_kernel(A, B, degree=4, gamma=0.7, coef0=0.5))
    rbf = Kernel("rbf", 3, 0.2, 1.0)
    np.testing.assert_allclose(rbf.gram(A, B), rbf_kernel(A, B, gamma=0.2))
    np.testing.assert_allclose(rbf.diagonal(A), np.ones(6))


def test_gamma_none_is_one_over_n_features():
    X, y = noisy_separable(n_samples=20, n_features=5)
    run = run_online("perceptron", X, y, kernel="rbf")
    assert run.params["gamma"] == pytest.approx(0.2)


def test_dual_linear_equals_primal():
    X, y = noisy_separable(n_samples=200, n_features=6, noise=0.1, seed=2)
    primal = run_online("perceptron", X, y, epochs=3)
    dual = run_online("perceptron", X, y, epochs=3, form="dual")
    np.testing.assert_array_equal(primal.mistake_trials, dual.mistake_trials)
    np.testing.assert_allclose(dual.weights, primal.weights, rtol=0, atol=1e-10)
    np.testing.assert_allclose(dual.decision_function(X), primal.decision_function(X), atol=1e-9)


def test_first_trial_is_a_mistake_and_zero_margin_counts():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]])
    run = run_online("perceptron", X, [1, -1, 1], record_margins=True)
    assert run.mistake_trials.tolist() == [0, 1]
    assert run.margins.tolist() == [0.0, 0.0, 1.0]


def test_labels_any_two_values_and_predict_maps_back():
    X, y = noisy_separable(n_samples=100, n_features=3, noise=0.0, seed=4)
    labels = np.where(y > 0, "spam", "ham")
    run = run_online("perceptron", X, labels, epochs=5)
    reference = run_online("perceptron", X, y, epochs=5)
    np.testing.assert_array_equal(run.mistake_trials, reference.mistake_trials)
    assert run.classes.tolist() == ["ham", "spam"]
    assert set(run.predict(X)) <= {"ham", "spam"}
    np.testing.assert_array_equal(run.predict(X) == "spam", reference.predict(X) > 0)


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_warm_start_continues_the_sequence(kernel):
    X, y = noisy_separable(n_samples=120, n_features=4, noise=0.1, seed=8)
    whole = run_online("perceptron", X, y, kernel=kernel)
    first = run_online("perceptron", X[:70], y[:70], kernel=kernel)
    second = run_online("perceptron", X[70:], y[70:], warm_start=first)
    np.testing.assert_array_equal(
        whole.mistake_trials,
        np.concatenate([first.mistake_trials, second.mistake_trials + 70]),
    )
    np.testing.assert_allclose(second.decision_function(X), whole.decision_function(X), atol=1e-10)


def test_warm_start_rejects_other_parameters():
    X, y = noisy_separable(n_samples=30, n_features=3)
    first = run_online("perceptron", X, y, kernel="rbf", gamma=0.5)
    with pytest.raises(ValueError, match="gamma"):
        run_online("perceptron", X, y, warm_start=first, gamma=0.7)
    with pytest.raises(ValueError, match="warm_start"):
        run_online("perceptron", X, y, warm_start=first.params)
