"""The Randomized Budget Perceptron's bound in expectation (theory §4.11), checked as an
expectation: the mean of the mistakes over 200 seeds of the draws against the bound.

Statistical slack: the mean of 200 runs is compared with the bound plus three
standard errors of that mean (sample standard deviation / sqrt(200)); the
bound holds for E[M] itself, so a violation beyond three standard errors has
probability below 0.2% per data set even for a tight bound. Each data set
(linear kernel on rows of norm <= 1, or rbf; noisy labels; budgets 2-12;
1-3 epochs) gives 200 runs: 10 data sets, 2,000 runs, in the normal suite,
100 data sets behind ``slow``.
"""

import numpy as np
import pytest
from test_bounds_forgetron import generated

from perceptron_bounds import run_online
from perceptron_bounds.bounds import evaluate, rbp_expected_mistakes

SEEDS = 200


def bound(budget, g_sq, L):
    """min over a of (a^2 ||g||^2 + 2 a L) / (2a - 2 - a^2 ||g||^2 / (2B)): the toolkit's
    closed form at gamma = 1/||g||, D1 = L gamma."""
    gamma = 1.0 / np.sqrt(g_sq)
    return float(rbp_expected_mistakes(gamma, L * gamma, budget))


def violations(rng):
    X, y, kernel, values, norm_sq = generated(rng)
    budget = int(rng.integers(2, min(13, X.shape[0] + 1)))
    epochs = int(rng.integers(1, 4))
    mistakes = np.array([
        run_online("randomized_budget_perceptron", X, y, budget=budget, epochs=epochs,
                   seed=seed, **kernel.params()).mistakes for seed in range(SEEDS)])
    mean, error = mistakes.mean(), mistakes.std(ddof=1) / np.sqrt(SEEDS)
    bad = 0
    for scale in (0.05, 0.2, 1.0, 3.0, 10.0):
        g_sq = scale * scale * norm_sq
        L = epochs * np.maximum(0.0, 1.0 - y * scale * values).sum()  # every trial
        value = bound(budget, g_sq, L) if g_sq < budget else np.inf
        bad += int(mean > value + 3.0 * error)
    return bad


@pytest.mark.parametrize("seed", range(2))
def test_mean_mistakes_within_the_expected_bound(seed):
    rng = np.random.default_rng([24, seed])
    assert sum(violations(rng) for _ in range(5)) == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(20))
def test_mean_mistakes_within_the_expected_bound_slow(seed):
    rng = np.random.default_rng([2024, seed])
    assert sum(violations(rng) for _ in range(5)) == 0


def test_the_minimising_a_is_the_minimum():
    """The closed-form a* gives the smallest value over a fine grid of admissible a."""
    for g_sq, L, B in [(4.0, 0.0, 10), (4.0, 7.5, 10), (50.0, 3.0, 60), (0.5, 20.0, 3)]:
        V = g_sq / (2 * B)
        lo, hi = (2 * B / g_sq) * (1 - np.sqrt(1 - g_sq / B)), (2 * B / g_sq) * (
            1 + np.sqrt(1 - g_sq / B))
        a = np.linspace(lo, hi, 200_001)[1:-1]
        grid = ((a * a * g_sq + 2 * a * L) / (2 * a - 2 - a * a * V)).min()
        assert bound(B, g_sq, L) == pytest.approx(grid, rel=1e-6)
        assert bound(B, g_sq, L) <= grid * (1 + 1e-12)
    assert np.isinf(rbp_expected_mistakes(0.3, 0.0, 10))  # gamma <= 1/sqrt(B)


def test_evaluate_reports_it_over_every_trial_in_both_variants():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((120, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    run = run_online("randomized_budget_perceptron", X, y, budget=30, kernel="rbf", gamma=1.0,
                     seed=1)
    report = evaluate(run, X, y)
    stated = report.row("rbp_expectation", "stated")
    tightened = report.row("rbp_expectation", "tightened")
    assert stated.value == tightened.value and stated.expectation and tightened.expectation
    assert stated.quantities["n_trials_used"] == run.n_trials


def test_rows_normalised_in_floating_point_keep_the_bound():
    """R a rounding above 1 (unit rows in floating point): the bound is the run's on K / R^2
    (theory §4.11, "Any kernel"), reported rather than refused."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((200, 5))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    y = np.sign(X @ np.ones(5))
    runs = [run_online("randomized_budget_perceptron", X, y, budget=20, kernel="linear", seed=s)
            for s in range(5)]
    assert np.sqrt(np.max(np.einsum("ij,ij->i", X, X))) > 1.0
    (row,) = [r for r in evaluate(runs, X, y).rows if r.variant == "stated"]
    assert row.applies and row.expectation and row.mistakes <= row.value
    scaled_runs = [run_online("randomized_budget_perceptron", 3.0 * X, y, budget=20,
                              kernel="linear", seed=s) for s in range(5)]
    for run, scaled_run in zip(runs, scaled_runs, strict=True):
        np.testing.assert_array_equal(run.mistake_trials, scaled_run.mistake_trials)
    u = np.ones(5) / np.sqrt(5.0)
    at = evaluate(runs, X, y, u=u, gamma=0.3).row("rbp_expectation")
    scaled = evaluate(scaled_runs, 3.0 * X, y, u=u, gamma=0.9).row("rbp_expectation")
    assert at.applies and scaled.value == pytest.approx(at.value, rel=1e-12)
