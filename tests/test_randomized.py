"""The draws of a randomized algorithm (Algorithm.randomized; theory §1.2)."""

import numpy as np
import pytest
from conftest import noisy_separable

from perceptron_bounds import registry, run_online
from perceptron_bounds._sequence import trial_draws
from perceptron_bounds.algorithms import Algorithm, LoopResult
from perceptron_bounds.hypothesis import LinearHypothesis


def _fit(data, order, params, margins, previous):
    """The Perceptron that skips each mistake's update with probability 1/2 (its draw >= 1/2)."""
    w = np.zeros(data.n_features) if previous is None else previous.weights.copy()
    mistakes = []
    for t, i in enumerate(order):
        s = w @ data.X[i]
        if data.y[i] * s <= 0.0:
            mistakes.append(t)
            if data.draws[t] < 0.5:
                w += data.y[i] * data.X[i]
    return LoopResult(np.array(mistakes, dtype=np.int64), LinearHypothesis(w),
                      state={"draws": data.draws[:order.shape[0]].copy()})


@pytest.fixture
def coin_perceptron(monkeypatch):
    spec = Algorithm(name="coin_perceptron", defaults={}, resolve=lambda params, data: params,
                     fit=_fit, randomized=True)
    monkeypatch.setitem(registry._REGISTRY, spec.name, spec)
    return spec.name


def test_the_draws_come_from_the_seed_alone(coin_perceptron):
    X, y = noisy_separable(60, seed=3)
    run = run_online(coin_perceptron, X, y, epochs=2, seed=7)
    np.testing.assert_array_equal(run.state["draws"], trial_draws(7, 120))
    again = run_online(coin_perceptron, X, y, epochs=2, seed=7)
    np.testing.assert_array_equal(again.mistake_trials, run.mistake_trials)
    shuffled = run_online(coin_perceptron, X, y, epochs=2, seed=7, shuffle=True)
    np.testing.assert_array_equal(shuffled.state["draws"], run.state["draws"])
    other = run_online(coin_perceptron, X, y, epochs=2, seed=8)
    assert not np.array_equal(other.state["draws"], run.state["draws"])


def test_a_seed_is_drawn_and_recorded_so_the_run_replays(coin_perceptron):
    X, y = noisy_separable(60, seed=3)
    run = run_online(coin_perceptron, X, y, epochs=3)
    assert run.seed is not None
    np.testing.assert_array_equal(run.state["draws"], trial_draws(run.seed, run.n_trials))
    k = run.n_updates // 2
    snapshot = run.hypothesis_at(k, X, y)
    replayed = run_online(coin_perceptron, X, y, epochs=3, seed=run.seed)
    np.testing.assert_array_equal(replayed.mistake_trials, run.mistake_trials)
    assert snapshot.trial == run.update_trials[k - 1]


def test_every_class_run_reads_the_same_draws(coin_perceptron):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((50, 3))
    y = rng.integers(0, 3, 50)
    run = run_online(coin_perceptron, X, y, seed=4, multiclass="ovr")
    for k, class_run in enumerate(run.class_runs):
        np.testing.assert_array_equal(class_run.state["draws"], trial_draws(4, 50))
        binary = run_online(coin_perceptron, X, np.where(y == k, 1, -1), seed=4)
        np.testing.assert_array_equal(class_run.mistake_trials, binary.mistake_trials)


def test_an_algorithm_that_draws_nothing_gets_no_draws():
    X, y = noisy_separable(20, seed=1)
    assert run_online("perceptron", X, y).seed is None
