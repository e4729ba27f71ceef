"""The selective-sampling Perceptron and Second-Order Perceptron (theory §2.14) against their
references, given the same draws."""

import os

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import noisy_separable
from reference import selective_perceptron, selective_second_order

from perceptron_bounds import load_run, run_online
from perceptron_bounds._sequence import trial_draws

KERNELS = {"poly": {"degree": 2, "gamma": 0.5, "coef0": 1.0}, "rbf": {"gamma": 0.5}}
SUPERVISED = {"selective_perceptron": ("perceptron", {}),
              "selective_second_order": ("second_order", {"a": 0.7})}
# so large that b / (b + |p_t|) rounds to 1: every label is queried
EVERY_LABEL = 1e300


def _draws(run):
    return trial_draws(run.seed, run.n_trials)


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("epochs", [1, 3])
@pytest.mark.parametrize("sparse", [False, True])
def test_perceptron_primal_matches_reference(sparse, epochs, shuffle):
    X, y = noisy_separable(n_samples=150, n_features=4, noise=0.1, seed=1)
    X_in = sp.csr_matrix(X) if sparse else X
    run = run_online("selective_perceptron", X_in, y, b=0.8, epochs=epochs, shuffle=shuffle,
                     seed=5, record_margins=True)
    mistakes, queried, support, coef, margins = selective_perceptron(
        X, y, run.sample_index, _draws(run), 0.8)
    assert 0 < queried.size < run.n_trials
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    np.testing.assert_array_equal(run.queried_trials, queried)
    np.testing.assert_allclose(run.weights, coef @ X[support], rtol=0, atol=1e-10)
    np.testing.assert_allclose(run.margins, margins, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("kernel", ["poly", "rbf"])
def test_perceptron_kernel_matches_reference(kernel, shuffle):
    X, y = noisy_separable(n_samples=60, n_features=3, noise=0.1, seed=2)
    run = run_online("selective_perceptron", X, y, b=0.5, epochs=2, shuffle=shuffle, seed=3,
                     kernel=kernel, record_margins=True, **KERNELS[kernel])
    mistakes, queried, support, coef, margins = selective_perceptron(
        X, y, run.sample_index, _draws(run), 0.5, kernel, **KERNELS[kernel])
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    np.testing.assert_array_equal(run.queried_trials, queried)
    np.testing.assert_array_equal(run.support_vectors, X[support])
    np.testing.assert_array_equal(run.dual_coef, coef)
    np.testing.assert_allclose(run.margins, margins, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("form", ["dense", "csr", "dual", "poly", "rbf"])
def test_second_order_matches_reference(form):
    X, y = noisy_separable(n_samples=60, n_features=3, noise=0.1, seed=4)
    kernel = form if form in KERNELS else "linear"
    params = KERNELS.get(form, {})
    run = run_online("selective_second_order", sp.csr_matrix(X) if form == "csr" else X, y,
                     a=0.7, b=0.3, epochs=2, shuffle=True, seed=6, kernel=kernel,
                     form="primal" if form in ("dense", "csr") else "dual",
                     record_margins=True, **params)
    mistakes, queried, support, alpha, margins = selective_second_order(
        X, y, run.sample_index, _draws(run), 0.7, 0.3, kernel, **params)
    assert 0 < queried.size < run.n_trials
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    np.testing.assert_array_equal(run.queried_trials, queried)
    np.testing.assert_allclose(run.margins, margins, rtol=1e-9, atol=1e-9)
    if run.params["form"] == "dual":
        np.testing.assert_array_equal(run.support_vectors, X[support])
        np.testing.assert_allclose(run.dual_coef, alpha, rtol=1e-9, atol=1e-10)
    else:
        np.testing.assert_allclose(run.weights, alpha @ X[support], rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("form", ["dense", "csr", "dual", "rbf"])
@pytest.mark.parametrize("name", sorted(SUPERVISED))
def test_every_label_queried_is_the_supervised_run_bit_for_bit(name, form):
    X, y = noisy_separable(n_samples=120, n_features=4, noise=0.1, seed=7)
    supervised, extra = SUPERVISED[name]
    params = {**extra, "form": "primal" if form in ("dense", "csr") else "dual",
              "kernel": "rbf" if form == "rbf" else "linear"}
    X_in = sp.csr_matrix(X) if form == "csr" else X
    run = run_online(name, X_in, y, b=EVERY_LABEL, epochs=3, shuffle=True, seed=2,
                     record_margins=True, **params)
    full = run_online(supervised, X_in, y, epochs=3, shuffle=True, seed=2, record_margins=True,
                      **params)
    assert run.queried == run.n_trials
    np.testing.assert_array_equal(run.queried_trials, np.arange(run.n_trials))
    np.testing.assert_array_equal(run.mistake_trials, full.mistake_trials)
    np.testing.assert_array_equal(run.update_trials, full.update_trials)
    np.testing.assert_array_equal(run.decision_function(X), full.decision_function(X))
    if name == "selective_perceptron":  # the Second-Order's margins are its own formula
        np.testing.assert_array_equal(run.margins, full.margins)


@pytest.mark.parametrize("name", sorted(SUPERVISED))
def test_mistakes_count_every_trial_and_only_queried_mistakes_update(name):
    X, y = noisy_separable(n_samples=200, n_features=5, noise=0.1, seed=8)
    run = run_online(name, X, y, b=0.2, epochs=2, seed=9)
    updates = np.intersect1d(run.mistake_trials, run.queried_trials)
    np.testing.assert_array_equal(run.update_trials, updates)
    assert run.n_updates == updates.size < run.mistakes
    assert run.queried == run.queried_trials.size < run.n_trials
    assert run.queried_trials.dtype == np.int64
    assert np.all(np.diff(run.queried_trials) > 0)
    assert run_online("perceptron", X, y).queried_trials is None
    assert run_online("perceptron", X, y).queried == 200


@pytest.mark.parametrize("name", sorted(SUPERVISED))
def test_the_draws_come_from_the_seed_and_the_run_replays(name):
    X, y = noisy_separable(n_samples=80, n_features=3, noise=0.1, seed=10)
    run = run_online(name, X, y, b=0.5, epochs=2)
    assert run.seed is not None
    again = run_online(name, X, y, b=0.5, epochs=2, seed=run.seed)
    np.testing.assert_array_equal(again.queried_trials, run.queried_trials)
    np.testing.assert_array_equal(again.mistake_trials, run.mistake_trials)
    k = run.n_updates // 2
    snapshot = run.hypothesis_at(k, X, y)
    assert snapshot.trial == run.update_trials[k - 1]
    final = run.hypothesis_at(run.n_updates, X, y)
    np.testing.assert_array_equal(final.decision_function(X), run.decision_function(X))


@pytest.mark.parametrize("name", sorted(SUPERVISED))
def test_a_saved_run_loads_back_identical(name, tmp_path):
    X, y = noisy_separable(n_samples=80, n_features=3, noise=0.1, seed=11)
    run = run_online(name, X, y, b=0.5, epochs=2, seed=1)
    loaded = load_run(run.save(os.path.join(tmp_path, "run")))
    np.testing.assert_array_equal(loaded.queried_trials, run.queried_trials)
    assert loaded.queried_trials.dtype == np.int64 and not loaded.queried_trials.flags.writeable
    np.testing.assert_array_equal(loaded.update_trials, run.update_trials)
    assert loaded.params == run.params and loaded.seed == run.seed
    y3 = np.arange(80) % 3
    ovr = run_online(name, X, y3, b=0.5, seed=2)
    back = load_run(ovr.save(os.path.join(tmp_path, "ovr")))
    np.testing.assert_array_equal(back.queried_trials, ovr.queried_trials)
    for saved, made in zip(back.class_runs, ovr.class_runs, strict=True):
        np.testing.assert_array_equal(saved.queried_trials, made.queried_trials)


def test_older_saved_formats_load_with_no_queried_trials():
    folder = os.path.join(os.path.dirname(__file__), "data")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".npz") and name[:2] in ("v2", "v3"):  # before format 4
            run = load_run(os.path.join(folder, name))
            assert run.queried_trials is None and run.queried == run.n_trials
            np.testing.assert_array_equal(
                run.update_trials, np.union1d(run.mistake_trials, run.margin_error_trials))


@pytest.mark.parametrize("name", sorted(SUPERVISED))
def test_one_vs_rest_class_runs_are_the_binary_runs(name):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((90, 3))
    y = rng.integers(0, 3, 90)
    run = run_online(name, X, y, b=0.5, seed=4, epochs=2)
    for k, class_run in enumerate(run.class_runs):
        binary = run_online(name, X, np.where(y == k, 1, -1), b=0.5, seed=4, epochs=2)
        np.testing.assert_array_equal(class_run.queried_trials, binary.queried_trials)
        np.testing.assert_array_equal(class_run.mistake_trials, binary.mistake_trials)
    union = np.unique(np.concatenate([c.queried_trials for c in run.class_runs]))
    np.testing.assert_array_equal(run.queried_trials, union)


def test_warm_start_continues_the_state_with_the_new_run_draws():
    X, y = noisy_separable(n_samples=100, n_features=4, noise=0.1, seed=12)
    first = run_online("selective_perceptron", X[:50], y[:50], b=0.5, seed=1, form="dual")
    second = run_online("selective_perceptron", X[50:], y[50:], warm_start=first, seed=2)
    support = [int(np.flatnonzero(np.all(X[:50] == s, axis=1))[0]) for s in
               first.support_vectors]
    mistakes, queried, _, coef, _ = selective_perceptron(
        X, y, 50 + second.sample_index, trial_draws(2, 50), 0.5,
        start=(support, list(first.dual_coef)))
    np.testing.assert_array_equal(second.mistake_trials, mistakes)
    np.testing.assert_array_equal(second.queried_trials, queried)
    np.testing.assert_array_equal(second.dual_coef, coef)


@pytest.mark.parametrize("params, message", [
    ({"b": 0.0}, "b must be in (0, inf), got 0.0"),
    ({"b": -1.0}, "b must be in (0, inf), got -1.0"),
    ({"b": float("nan")}, "b must be in (0, inf), got nan"),
    ({"a": 0.0}, "a must be in (0, inf), got 0.0"),
    ({"a": -2.0}, "a must be in (0, inf), got -2.0"),
])
def test_bad_parameters_are_one_line_errors(params, message):
    X, y = noisy_separable(n_samples=20, n_features=2, seed=0)
    name = "selective_second_order" if "a" in params else "selective_perceptron"
    for algorithm in {name, "selective_second_order"}:
        with pytest.raises(ValueError) as info:
            run_online(algorithm, X, y, **params)
        assert str(info.value) == message
    with pytest.raises(TypeError, match="b must be a real number"):
        run_online("selective_perceptron", X, y, b="1")
