"""The Ballseptron (theory §2.3, paper 004 Fig. 2) against its references."""

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import assert_warm_chain_is_one_run, noisy_separable
from reference import ballseptron, kernel_ballseptron

from perceptron_bounds import run_online

KERNELS = {"poly": {"degree": 2, "gamma": 0.5, "coef0": 1.0}, "rbf": {"gamma": 0.5}}


def unit_rows(n_samples, seed, n_features=4):
    X, y = noisy_separable(n_samples=n_samples, n_features=n_features, noise=0.1, seed=seed)
    return X / np.linalg.norm(X, axis=1)[:, None], y


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("epochs", [1, 3])
@pytest.mark.parametrize("r", [0.1, 0.6])
@pytest.mark.parametrize("sparse", [False, True])
def test_primal_matches_reference(sparse, r, epochs, shuffle):
    X, y = unit_rows(200, seed=1)
    X_in = sp.csr_matrix(X) if sparse else X
    run = run_online("ballseptron", X_in, y, r=r, epochs=epochs, shuffle=shuffle, seed=4,
                     record_margins=True)
    mistakes, margin_errors, w, margins = ballseptron(X, y, run.sample_index, r)
    assert margin_errors.size > 0
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    np.testing.assert_array_equal(run.margin_error_trials, margin_errors)
    np.testing.assert_allclose(run.weights, w, rtol=0, atol=1e-10)
    np.testing.assert_allclose(run.margins, margins, rtol=0, atol=1e-10)
    np.testing.assert_allclose(run.state["norm_sq"], w @ w, rtol=1e-10)


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("epochs", [1, 3])
@pytest.mark.parametrize("kernel", ["poly", "rbf"])
def test_kernel_matches_reference(kernel, epochs, shuffle):
    X, y = unit_rows(60, seed=2)
    run = run_online("ballseptron", X, y, r=0.3, epochs=epochs, shuffle=shuffle, seed=4,
                     kernel=kernel, record_margins=True, **KERNELS[kernel])
    mistakes, margin_errors, support, alpha, margins = kernel_ballseptron(
        X, y, run.sample_index, 0.3, kernel, **KERNELS[kernel]
    )
    assert margin_errors.size > 0
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    np.testing.assert_array_equal(run.margin_error_trials, margin_errors)
    np.testing.assert_array_equal(run.support_vectors, X[support])
    np.testing.assert_allclose(run.dual_coef, alpha, rtol=0, atol=1e-10)
    np.testing.assert_allclose(run.margins, margins, rtol=0, atol=1e-10)
    Z, _ = unit_rows(10, seed=3)
    expected = [sum(a * k for a, k in zip(alpha, row, strict=True))
                for row in run.hypothesis.kernel.gram(Z, X[support])]
    np.testing.assert_allclose(run.decision_function(Z), expected, rtol=0, atol=1e-10)


def _scale_product_log10(X, y, order, r):
    """log10 of min over t of |prod (1 - r/||w||)| along the run (the loops' scale factor)."""
    w, log_scale, lowest = np.zeros(X.shape[1]), 0.0, 0.0
    for i in order:
        s = w @ X[i]
        a = 1.0
        if y[i] * s > 0:
            if y[i] * s / np.linalg.norm(w) > r:
                continue
            a = 1 - r / np.linalg.norm(w)
            log_scale += np.log10(abs(a)) if a != 0 else -np.inf
            lowest = min(lowest, log_scale)
        w = a * w + y[i] * X[i]
    return lowest


@pytest.mark.parametrize("form", ["csr", "dual"])
def test_scale_factor_folds_on_underflow_and_negative_factors(form):
    # r close to ||x|| = 1: many margin errors with 1 - r/||w|| <= 0 or small.
    X, y = unit_rows(40, seed=5, n_features=3)
    order = np.tile(np.arange(40), 24)
    assert _scale_product_log10(X, y, order, 0.9) < -330
    X_in = sp.csr_matrix(X) if form == "csr" else X
    run = run_online("ballseptron", X_in, y, r=0.9, epochs=24, form="primal" if form == "csr"
                     else "dual")
    mistakes, margin_errors, w, _ = ballseptron(X, y, order, 0.9)
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    np.testing.assert_array_equal(run.margin_error_trials, margin_errors)
    np.testing.assert_allclose(run.weights, w, rtol=0, atol=1e-10)


@pytest.mark.parametrize("form", ["dense", "csr", "dual"])
def test_factor_zero_and_negative(form):
    # Trial 1: ||w|| = 1 = r, so 1 - r/||w|| = 0 and w becomes x_2;
    # trial 2: ||w|| = sqrt(0.34) < r, so the factor is negative.
    X = np.array([[1.0, 0.0], [0.5, 0.3], [0.2, 0.9], [-0.4, 0.8], [0.9, -0.1]])
    y = np.array([1.0, 1.0, 1.0, -1.0, 1.0])
    X_in = sp.csr_matrix(X) if form == "csr" else X
    run = run_online("ballseptron", X_in, y, r=1.0, epochs=2,
                     form="dual" if form == "dual" else "primal")
    mistakes, margin_errors, w, _ = ballseptron(X, y, np.tile(np.arange(5), 2), 1.0)
    assert margin_errors[:2].tolist() == [1, 2]
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    np.testing.assert_array_equal(run.margin_error_trials, margin_errors)
    np.testing.assert_allclose(run.weights, w, rtol=0, atol=1e-10)
    if form == "dual":
        *_, alpha, _ = kernel_ballseptron(X, y, np.tile(np.arange(5), 2), 1.0, "linear")
        assert alpha[0] == 0.0
        np.testing.assert_allclose(run.dual_coef, alpha, rtol=0, atol=1e-12)


@pytest.mark.parametrize("kind", ["dense", "csr", "rbf"])
def test_radius_zero_is_the_perceptron(kind):
    X, y = noisy_separable(n_samples=150, n_features=4, seed=6)
    X_in = sp.csr_matrix(X) if kind == "csr" else X
    params = {"kernel": "rbf", **KERNELS["rbf"]} if kind == "rbf" else {}
    ball = run_online("ballseptron", X_in, y, r=0.0, epochs=3, shuffle=True, seed=2, **params)
    perceptron = run_online("perceptron", X_in, y, epochs=3, shuffle=True, seed=2, **params)
    assert ball.margin_errors == 0
    np.testing.assert_array_equal(ball.mistake_trials, perceptron.mistake_trials)
    if kind == "rbf":
        np.testing.assert_array_equal(ball.support_vectors, perceptron.support_vectors)
        np.testing.assert_array_equal(ball.dual_coef, perceptron.dual_coef)
    else:
        np.testing.assert_array_equal(ball.weights, perceptron.weights)


@pytest.mark.parametrize("r", [0.05, 0.5])
def test_linear_kernel_dual_form_equals_primal(r):
    X, y = unit_rows(150, seed=7)
    primal = run_online("ballseptron", X, y, r=r, epochs=3, shuffle=True, seed=1)
    dual = run_online("ballseptron", X, y, r=r, epochs=3, shuffle=True, seed=1, form="dual")
    assert primal.params["form"] == "primal" and dual.params["form"] == "dual"
    assert primal.margin_errors > 0
    np.testing.assert_array_equal(dual.mistake_trials, primal.mistake_trials)
    np.testing.assert_array_equal(dual.margin_error_trials, primal.margin_error_trials)
    np.testing.assert_allclose(dual.weights, primal.weights, rtol=0, atol=1e-10)
    np.testing.assert_allclose(dual.state["norm_sq"], primal.state["norm_sq"], rtol=1e-10)


@pytest.mark.parametrize("kind", ["dense", "csr", "rbf"])
def test_warm_start_continues_the_sequence(kind):
    X, y = unit_rows(80, seed=8)
    X_in = sp.csr_matrix(X) if kind == "csr" else X
    params = {"kernel": "rbf", **KERNELS["rbf"]} if kind == "rbf" else {}
    first = run_online("ballseptron", X_in[:50], y[:50], r=0.3, epochs=2, shuffle=True, seed=1,
                       **params)
    second = run_online("ballseptron", X_in[50:], y[50:], epochs=2, shuffle=True, seed=2,
                        warm_start=first)
    assert second.params == first.params
    order = np.concatenate((first.sample_index, 50 + second.sample_index))
    offset = first.n_trials
    if kind == "rbf":
        mistakes, margin_errors, support, alpha, _ = kernel_ballseptron(
            X, y, order, 0.3, "rbf", **KERNELS["rbf"])
        np.testing.assert_array_equal(second.support_vectors, X[support])
        np.testing.assert_allclose(second.dual_coef, alpha, rtol=0, atol=1e-10)
    else:
        mistakes, margin_errors, w, _ = ballseptron(X, y, order, 0.3)
        np.testing.assert_allclose(second.weights, w, rtol=0, atol=1e-10)
    np.testing.assert_array_equal(second.mistake_trials + offset, mistakes[mistakes >= offset])
    np.testing.assert_array_equal(second.margin_error_trials + offset,
                                  margin_errors[margin_errors >= offset])


@pytest.mark.parametrize("r", [0.1, 0.5])
@pytest.mark.parametrize("kind", ["dense", "csr"])
def test_a_chain_of_warm_starts_is_one_run_bit_for_bit(kind, r):
    """The warm start continues the loop's w = scale * v and its running ||w||^2, not w
    multiplied out and w @ w, which round differently: pieces of 1 to 40 rows, two passes,
    give the one run's margins, state and weights to the bit."""
    X, y = unit_rows(120, seed=4)
    X_in = sp.csr_matrix(X) if kind == "csr" else X
    whole = assert_warm_chain_is_one_run("ballseptron", X_in, y, [1, 2, 40, 41, 90],
                                         form="primal", r=r)
    assert whole.margin_errors > 0 and whole.state["scale"] != 1.0


def test_same_seed_same_kernel_run():
    X, y = unit_rows(60, seed=9)
    a = run_online("ballseptron", X, y, r=0.2, kernel="poly", epochs=2, shuffle=True, seed=3)
    b = run_online("ballseptron", X, y, r=0.2, kernel="poly", epochs=2, shuffle=True, seed=3)
    np.testing.assert_array_equal(a.margin_error_trials, b.margin_error_trials)
    np.testing.assert_array_equal(a.dual_coef, b.dual_coef)


def test_bad_radius():
    X, y = unit_rows(10, seed=0)
    with pytest.raises(ValueError, match=r"r must be in \[0, inf\), got -0.1"):
        run_online("ballseptron", X, y, r=-0.1)
    with pytest.raises(ValueError, match="r must be in"):
        run_online("ballseptron", X, y, r=float("nan"))
    with pytest.raises(TypeError, match="r must be a real number"):
        run_online("ballseptron", X, y, r="0.1")
    first = run_online("ballseptron", X, y, r=0.1)
    with pytest.raises(ValueError, match="r=0.2 differs from the warm start's r=0.1"):
        run_online("ballseptron", X, y, r=0.2, warm_start=first)
    with pytest.raises(ValueError, match="form='primal' needs kernel='linear'"):
        run_online("ballseptron", X, y, kernel="rbf", form="primal")
