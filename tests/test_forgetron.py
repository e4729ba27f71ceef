"""The self-tuned Forgetron and the Randomized Budget Perceptron (theory §2.11, §2.12) against
their references, the kernel Perceptron and their budgets."""

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import noisy_separable
from reference import forgetron, kernel_perceptron, randomized_budget_perceptron

from perceptron_bounds import kernel_engine, run_online
from perceptron_bounds._sequence import trial_draws
from perceptron_bounds.algorithms._budget import DAMAGE_FRACTION, NONE

KERNELS = {"linear": {}, "poly": {"degree": 2, "gamma": 0.5, "coef0": 1.0},
           "rbf": {"gamma": 0.5}}
BUDGET = ("forgetron", "randomized_budget_perceptron")


def data(n=120, seed=1):
    X, y = noisy_separable(n_samples=n, n_features=4, noise=0.15, seed=seed)
    return X, y


def reference_run(name, X, y, run, budget, kernel):
    if name == "forgetron":
        return forgetron(X, y, run.sample_index, budget, kernel, **KERNELS[kernel])
    return randomized_budget_perceptron(X, y, run.sample_index, budget,
                                        trial_draws(run.seed, run.n_trials), kernel,
                                        **KERNELS[kernel])


@pytest.mark.parametrize("block", [1, 7, 256])
@pytest.mark.parametrize("csr", [False, True])
@pytest.mark.parametrize("kernel", list(KERNELS))
@pytest.mark.parametrize("name", BUDGET)
def test_matches_reference(monkeypatch, name, kernel, csr, block):
    """Same mistakes, supports and coefficients as the one-at-a-time reference, for block
    sizes that put removals inside blocks, on their edges and one trial per block."""
    monkeypatch.setattr(kernel_engine, "BLOCK_SIZE", block)
    X, y = data()
    X_in = sp.csr_matrix(X) if csr else X
    run = run_online(name, X_in, y, budget=9, kernel=kernel, epochs=3, shuffle=True, seed=5,
                     **KERNELS[kernel])
    mistakes, support, coef, extra = reference_run(name, X, y, run, 9, kernel)
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    assert run.mistakes > 9 + 20  # the budget was at work
    held = run.support_vectors.toarray() if csr else run.support_vectors
    # the run lists its supports by slot; the Forgetron's reference oldest first
    order = np.argsort(run.state["born"]) if name == "forgetron" else slice(None)
    np.testing.assert_array_equal(held[order], X[support])
    np.testing.assert_allclose(run.dual_coef[order], coef, rtol=1e-10, atol=1e-12)
    if name == "forgetron":
        np.testing.assert_allclose(run.state["shrink"], extra, rtol=1e-10)
        assert extra.min() < 1.0
    else:
        np.testing.assert_array_equal(run.state["removed_trials"], extra)


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
@pytest.mark.parametrize("name", BUDGET)
def test_a_budget_above_the_mistakes_is_the_kernel_perceptron(name, kernel):
    X, y = data()
    run = run_online(name, X, y, budget=120, kernel=kernel, epochs=1, seed=2,
                     **KERNELS[kernel])
    plain = run_online("perceptron", X, y, kernel=kernel, form="dual", **KERNELS[kernel])
    assert run.mistakes < 120
    np.testing.assert_array_equal(run.mistake_trials, plain.mistake_trials)
    np.testing.assert_array_equal(run.support_vectors, plain.support_vectors)
    np.testing.assert_array_equal(run.dual_coef, plain.dual_coef)
    assert np.all(run.state["removed_trials"] == NONE) and np.all(run.state["shrink"] == 1.0)
    mistakes, support, coef, _ = kernel_perceptron(X, y, run.sample_index, kernel,
                                                   **KERNELS[kernel])
    np.testing.assert_array_equal(run.mistake_trials, mistakes)


@pytest.mark.parametrize("name", BUDGET)
def test_never_more_than_budget_supports_and_the_record_replays(name):
    X, y = data(60, seed=3)
    run = run_online(name, X, y, budget=4, kernel="rbf", gamma=1.0, epochs=3, seed=7)
    removed = run.state["removed_trials"]
    assert removed.shape == run.mistake_trials.shape == run.state["shrink"].shape
    assert np.all(removed[4:] != NONE) and np.all(removed[:4] == NONE)
    for k in (0, 3, 4, 9, run.n_updates):
        snapshot = run.hypothesis_at(k, X, y)
        held = snapshot.hypothesis.support_vectors
        assert held.shape[0] == min(k, 4)
    last = run.hypothesis_at(run.n_updates, X, y)
    np.testing.assert_array_equal(last.decision_function(X), run.decision_function(X))
    # the removed supports are the ones added on the recorded trials: each support's trial
    # is a mistake trial, and a removed one is no longer held
    born = run.state["born"]
    assert set(born) <= set(run.mistake_trials)
    assert not set(removed[removed >= 0]) & set(born)


def test_forgetron_keeps_its_damage_within_15_32_of_its_mistakes():
    X, y = data(150, seed=4)
    run = run_online("forgetron", X, y, budget=5, kernel="rbf", gamma=0.5, epochs=4)
    assert run.state["M"] == run.mistakes
    assert run.state["Q"] <= DAMAGE_FRACTION * run.mistakes * (1 + 1e-12)
    shrink = run.state["shrink"]
    assert np.all((shrink > 0.0) & (shrink <= 1.0)) and shrink.min() < 1.0
    # coefficients fade: oldest smallest, each |coef| the product of the shrinks since its trial
    age = np.argsort(run.state["born"])
    coef = np.abs(run.dual_coef[age])
    assert np.all(np.diff(coef) >= -1e-15)
    for c, b in zip(coef, run.state["born"][age], strict=True):
        later = shrink[run.mistake_trials >= b]
        np.testing.assert_allclose(c, np.prod(later), rtol=1e-12)


@pytest.mark.parametrize("name", BUDGET)
@pytest.mark.parametrize("kind", ["dense", "csr"])
def test_warm_start_continues_the_sequence(name, kind):
    X, y = data(100, seed=8)
    X_in = sp.csr_matrix(X) if kind == "csr" else X
    first = run_online(name, X_in[:60], y[:60], budget=6, kernel="rbf", gamma=0.5, epochs=2,
                       shuffle=True, seed=1)
    second = run_online(name, X_in[60:], y[60:], epochs=2, shuffle=True, seed=2,
                        warm_start=first)
    order = np.concatenate((first.sample_index, 60 + second.sample_index))
    offset = first.n_trials
    if name == "forgetron":
        mistakes, support, coef, _ = forgetron(X, y, order, 6, "rbf", gamma=0.5)
        held = second.support_vectors.toarray() if kind == "csr" else second.support_vectors
        age = np.argsort(second.state["born"])
        np.testing.assert_array_equal(held[age], X[support])
        np.testing.assert_allclose(second.dual_coef[age], coef, rtol=1e-10, atol=1e-12)
        np.testing.assert_array_equal(second.mistake_trials + offset,
                                      mistakes[mistakes >= offset])
    else:
        # the draws of each run come from its own seed
        draws = np.concatenate((trial_draws(1, first.n_trials),
                                trial_draws(2, second.n_trials)))
        mistakes, *_ = randomized_budget_perceptron(X, y, order, 6, draws, "rbf", gamma=0.5)
        np.testing.assert_array_equal(second.mistake_trials + offset,
                                      mistakes[mistakes >= offset])
    assert second.support_vectors.shape[0] <= 6


@pytest.mark.parametrize("name", BUDGET)
def test_one_vs_rest_is_the_binary_run_per_class(name):
    X, y = data(90, seed=9)
    labels = np.digitize(X[:, 0] + X[:, 1], [-0.5, 0.5])
    run = run_online(name, X, labels, budget=5, kernel="poly", epochs=2, shuffle=True, seed=3,
                     multiclass="ovr", **KERNELS["poly"])
    for k, class_run in enumerate(run.class_runs):
        binary = run_online(name, X, np.where(labels == k, 1, -1), budget=5, kernel="poly",
                            epochs=2, shuffle=True, seed=3, **KERNELS["poly"])
        np.testing.assert_array_equal(class_run.mistake_trials, binary.mistake_trials)
        np.testing.assert_array_equal(class_run.decision_function(X), binary.decision_function(X))


def test_rbp_draws_from_its_seed_only():
    X, y = data(80, seed=2)
    a = run_online("randomized_budget_perceptron", X, y, budget=3, epochs=3, seed=11)
    b = run_online("randomized_budget_perceptron", X, y, budget=3, epochs=3, seed=11)
    c = run_online("randomized_budget_perceptron", X, y, budget=3, epochs=3, seed=12)
    np.testing.assert_array_equal(a.state["removed_trials"], b.state["removed_trials"])
    assert not np.array_equal(a.state["removed_trials"], c.state["removed_trials"])


@pytest.mark.parametrize("name", BUDGET)
@pytest.mark.parametrize(("params", "error", "message"), [
    ({"budget": 0}, ValueError, r"budget must be in \[1, inf\), got 0"),
    ({"budget": 2.5}, TypeError, r"budget must be an integer, got 2.5"),
    ({"form": "primal"}, ValueError, r"form must be one of"),
])
def test_bad_input_is_one_line(name, params, error, message):
    X, y = data(10)
    with pytest.raises(error, match=message) as info:
        run_online(name, X, y, **params)
    assert "\n" not in str(info.value)
