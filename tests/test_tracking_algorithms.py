"""The shifting Perceptron (theory §2.15) and the projected Perceptron (theory §2.16) against
their plain-NumPy references, trial by trial: dense, CSR and kernel forms, warm starts."""

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import assert_warm_chain_is_one_run, noisy_separable
from reference import projected_perceptron, shifting_perceptron

from perceptron_bounds import run_online
from perceptron_bounds.datasets import make_drifting

KERNELS = {"linear": {}, "poly": {"degree": 2, "gamma": 0.5, "coef0": 1.0},
           "rbf": {"gamma": 0.5}}
REFERENCES = {"shifting_perceptron": (shifting_perceptron, "decay"),
              "projected_perceptron": (projected_perceptron, "radius")}
VALUES = {"decay": [0.05, 1.0, 20.0], "radius": [0.5, 3.0, 1e6]}


def drifting(n=300, n_features=4, noise=0.1, seed=1):
    X, y, _ = make_drifting(n, n_features, n_shifts=5, label_noise=noise, seed=seed)
    return X, y


def assert_state(run, w, rtol=1e-10):
    scale = max(np.abs(w).max(), np.finfo(float).tiny)
    np.testing.assert_allclose(run.weights / scale, w / scale, rtol=0, atol=rtol)


@pytest.mark.parametrize("name", sorted(REFERENCES))
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("epochs, shuffle", [(1, False), (3, True)])
def test_primal_matches_reference(name, sparse, epochs, shuffle):
    reference, key = REFERENCES[name]
    X, y = drifting()
    for value in VALUES[key]:
        X_in = sp.csr_matrix(X) if sparse else X
        run = run_online(name, X_in, y, epochs=epochs, shuffle=shuffle, seed=4,
                         record_margins=True, **{key: value})
        out = reference(X, y, run.sample_index, value)
        mistakes, w, margins = out[0], out[3], out[4]
        np.testing.assert_array_equal(run.mistake_trials, mistakes)
        assert_state(run, w)
        np.testing.assert_allclose(run.margins, margins, rtol=1e-10, atol=1e-10)
        if name == "projected_perceptron":
            assert run.state["projected"] == out[5]
            assert np.linalg.norm(run.weights) <= value * (1 + 1e-12)
            np.testing.assert_allclose(run.state["norm_sq"], w @ w, rtol=1e-9)
        else:
            assert run.state["updates"] == mistakes.size


@pytest.mark.parametrize("name", sorted(REFERENCES))
@pytest.mark.parametrize("kernel", sorted(KERNELS))
def test_kernel_matches_reference(name, kernel):
    reference, key = REFERENCES[name]
    X, y = noisy_separable(n_samples=80, n_features=3, noise=0.1, seed=2)
    value = VALUES[key][1]
    run = run_online(name, X, y, epochs=2, shuffle=True, seed=3, kernel=kernel, form="dual",
                     record_margins=True, **KERNELS[kernel], **{key: value})
    mistakes, support, alpha, _, margins = reference(X, y, run.sample_index, value, kernel,
                                                     **KERNELS[kernel])[:5]
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    np.testing.assert_array_equal(run.support_vectors, X[support])
    np.testing.assert_allclose(run.dual_coef, alpha, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(run.margins, margins, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_forms_agree_and_extremes(name):
    """Dense, CSR and linear-kernel dual runs agree; decay -> 0 or radius -> inf is the
    Perceptron, and the projected Perceptron's ball holds at every scale."""
    _, key = REFERENCES[name]
    X, y = drifting(n=400)
    runs = [run_online(name, X_in, y, form=form, epochs=2, **{key: VALUES[key][1]})
            for X_in, form in ((X, "primal"), (sp.csr_matrix(X), "primal"), (X, "dual"))]
    for run in runs[1:]:
        np.testing.assert_array_equal(run.mistake_trials, runs[0].mistake_trials)
        assert_state(run, runs[0].weights)
    plain = run_online("perceptron", X, y, epochs=2)
    limit = run_online(name, X, y, epochs=2, **{key: 1e-300 if key == "decay" else 1e300})
    np.testing.assert_array_equal(limit.mistake_trials, plain.mistake_trials)
    np.testing.assert_allclose(limit.weights, plain.weights, rtol=1e-12)


@pytest.mark.parametrize("scale", [1e-6, 1.0, 1e6])
def test_projection_scales_with_the_data(scale):
    X, y = drifting(n=200)
    run = run_online("projected_perceptron", X * scale, y, radius=2.0 * scale)
    base = run_online("projected_perceptron", X, y, radius=2.0)
    np.testing.assert_array_equal(run.mistake_trials, base.mistake_trials)
    np.testing.assert_allclose(run.weights / scale, base.weights, rtol=1e-9)


@pytest.mark.parametrize("name", sorted(REFERENCES))
@pytest.mark.parametrize("form", ["primal", "dual"])
def test_warm_start_continues_the_run(name, form):
    _, key = REFERENCES[name]
    X, y = drifting(n=300)
    whole = run_online(name, X, y, form=form, **{key: VALUES[key][1]})
    first = run_online(name, X[:150], y[:150], form=form, **{key: VALUES[key][1]})
    second = run_online(name, X[150:], y[150:], form=form, warm_start=first,
                        **{key: VALUES[key][1]})
    np.testing.assert_array_equal(
        np.concatenate([first.mistake_trials, second.mistake_trials + 150]),
        whole.mistake_trials)
    np.testing.assert_allclose(second.weights if form == "primal" else
                               second.dual_coef, whole.weights if form == "primal" else
                               whole.dual_coef, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", sorted(REFERENCES))
@pytest.mark.parametrize("kind", ["dense", "csr"])
def test_a_chain_of_warm_starts_is_one_run_bit_for_bit(name, kind):
    """The warm start continues the loop's w = scale * v (``state``), not w multiplied
    out, which rounds each later update differently: pieces of 1 to 150 rows, two passes,
    give the one run's margins, state and weights to the bit."""
    _, key = REFERENCES[name]
    X, y = drifting(n=300)
    X_in = sp.csr_matrix(X) if kind == "csr" else X
    whole = assert_warm_chain_is_one_run(name, X_in, y, [1, 2, 40, 41, 190], form="primal",
                                         **{key: VALUES[key][0]})
    assert whole.state["scale"] != 1.0


@pytest.mark.parametrize("name, params, message", [
    ("shifting_perceptron", {"decay": 0.0}, "decay must be in"),
    ("shifting_perceptron", {"decay": -1.0}, "decay must be in"),
    ("shifting_perceptron", {"decay": float("nan")}, "decay"),
    ("projected_perceptron", {"radius": 0.0}, "radius must be in"),
    ("projected_perceptron", {"radius": float("inf")}, "radius"),
    ("projected_perceptron", {"radius": "big"}, "radius"),
])
def test_bad_parameters_one_line_errors(name, params, message):
    X, y = drifting(n=20)
    with pytest.raises((ValueError, TypeError), match=message):
        run_online(name, X, y, **params)

