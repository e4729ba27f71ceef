"""Property tests of the self-tuned Forgetron's bound (theory §4.10) and of the steps of its proof.

Every generated run (linear kernel on rows of norm <= 1, or rbf; budgets 1-30;
1-3 epochs; noisy labels) must satisfy, for comparators g of several norms
(a linear u, or a kernel expansion sum_i beta_i K(z_i, .) for rbf),
M <= (||g||^2 + 2 L) / (17/32 - ||g||^2 ln(1/s_B) / (2 (B + 1))) where the
denominator is positive, L the hinge losses over the mistakes; and the proof's
two facts: the damage Q <= (15/32) M, and the total shrinking
sum ln(1/phi_t) <= M ln(1/s_B) / (B + 1).
"""

import numpy as np
import pytest

from perceptron_bounds import run_online
from perceptron_bounds.bounds import (
    evaluate,
    forgetron_gamma_min,
    forgetron_log_inverse,
    forgetron_mistakes,
)
from perceptron_bounds.kernels import Kernel

PROGRESS = 17.0 / 32.0


def generated(rng):
    """(X, y, kernel, values, norm_sq): data and a comparator g: its values on X and ||g||^2."""
    n, d = int(rng.integers(10, 80)), int(rng.integers(1, 5))
    X = rng.standard_normal((n, d))
    if rng.integers(2):
        X /= np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1.0) * (1.0 + 1e-12)
        kernel = Kernel("linear")
        w = rng.standard_normal(d)
        values, norm_sq = X @ w, float(w @ w)
    else:
        kernel = Kernel("rbf", gamma=float(rng.uniform(0.2, 3.0)))
        Z = X[rng.integers(0, n, size=5)]
        beta = rng.standard_normal(5)
        values = kernel.gram(X, Z) @ beta
        norm_sq = float(beta @ kernel.gram(Z, Z) @ beta)
    y = np.where(values + 0.3 * rng.standard_normal(n) >= 0, 1.0, -1.0)
    if np.unique(y).size < 2:
        y[0] = -y[0]
    return X, y, kernel, values, norm_sq


def violations(rng):
    X, y, kernel, values, norm_sq = generated(rng)
    budget = int(rng.integers(1, min(31, X.shape[0] + 1)))
    run = run_online("forgetron", X, y, budget=budget, epochs=int(rng.integers(1, 4)),
                     shuffle=bool(rng.integers(2)), seed=int(rng.integers(1 << 30)),
                     **kernel.params())
    M = run.mistakes
    bad = int(run.state["Q"] > 15.0 / 32.0 * M * (1 + 1e-12) + 1e-12)
    log_inverse = float(forgetron_log_inverse(budget))
    shrinking = float(np.sum(-np.log(run.state["shrink"])))
    bad += int(shrinking > M * log_inverse / (budget + 1) * (1 + 1e-9) + 1e-12)
    rows = run.sample_index[run.mistake_trials]
    for scale in (0.05, 0.2, 1.0, 5.0, 25.0):
        g_sq = scale * scale * norm_sq
        left = PROGRESS - g_sq * log_inverse / (2.0 * (budget + 1))
        if left <= 0.0:
            continue
        L = np.maximum(0.0, 1.0 - y[rows] * scale * values[rows]).sum()
        bad += int(M > (g_sq + 2.0 * L) / left * (1 + 1e-9))
    return bad


@pytest.mark.parametrize("seed", range(4))
def test_forgetron_bound_holds_on_generated_runs(seed):
    rng = np.random.default_rng([23, seed])
    assert sum(violations(rng) for _ in range(500)) == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(40))
def test_forgetron_bound_holds_on_many_generated_runs(seed):
    rng = np.random.default_rng([2023, seed])
    assert sum(violations(rng) for _ in range(500)) == 0


def test_closed_form_is_the_theorem_in_the_toolkit_units():
    """g = u/gamma: ||g||^2 = 1/gamma^2, L = D1/gamma; inf at and below the norm condition."""
    B, gamma, D1 = 200, 0.4, 3.0
    log_inverse = float(forgetron_log_inverse(B))
    expected = (1 / gamma**2 + 2 * D1 / gamma) / (PROGRESS - log_inverse / (2 * (B + 1)
                                                                             * gamma**2))
    assert float(forgetron_mistakes(gamma, D1, B)) == pytest.approx(expected, rel=1e-14)
    edge = float(forgetron_gamma_min(B))
    assert np.isinf(forgetron_mistakes(edge * (1 - 1e-9), 0.0, B))
    assert np.isfinite(forgetron_mistakes(edge * (1 + 1e-9), 0.0, B))
    s = np.exp(-log_inverse)
    assert s * s + 2 * (B + 2) * s == pytest.approx(15 / 32, rel=1e-14)


def test_evaluate_reports_it_and_says_why_not():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((150, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    run = run_online("forgetron", X, y, budget=40, kernel="rbf", gamma=1.0, epochs=2)
    rows = {row.variant: row for row in evaluate(run, X, y).rows}
    assert set(rows) == {"stated", "tightened"}
    for row in rows.values():
        assert row.holds and run.mistakes <= row.value
    poly = run_online("forgetron", X, y, budget=40, kernel="poly", degree=2, coef0=1.0,
                      gamma=1.0)
    row = evaluate(poly, X, y).row("forgetron", "stated")
    assert row.value is None or not np.isfinite(row.value)
    assert "K(x, x) <= 1" in row.reason
    u = np.array([1.0, 0.0, 0.0])
    X_unit = X / (np.linalg.norm(X, axis=1, keepdims=True) * (1 + 1e-12))
    small = run_online("forgetron", X_unit, y, budget=2, kernel="linear")
    row = evaluate(small, X_unit, y, u=u, gamma=0.05).row("forgetron", "stated")
    assert "norm condition" in row.reason and "B = 2" in row.reason
