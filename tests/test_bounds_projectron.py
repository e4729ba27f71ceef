"""The Projectron's bounds (theory §4.12): the closed forms, the steps of the proof on runs, and
validity as property tests.

Property tests draw sequences as the other bound families' do (separable or noisy, 1-5
epochs, 2-50 features, shuffled or not; :mod:`test_bounds_validity`), eta from 0 to twice the
radius, the Projectron and the Projectron++, dense and CSR rows, and hard numerics: rows
scaled from 1e-150 to 1e150, duplicated rows (instances in the span: eta = 0 projects them),
and exactly tight data. Linear-kernel runs go through ``evaluate`` with vector comparators;
kernel runs are checked against random unit functions of the feature space, whose
quantities are computed here from the Gram matrix. A failure is a bug in the algorithm, the
bound or the argument on the theory page, never a reason to loosen the check.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_bounds_arow import _hard
from test_bounds_validity import _check, comparisons, sequences

from perceptron_bounds import run_online
from perceptron_bounds.bounds import bounds_over_time, evaluate, projectron_bound, projectron_d2
from perceptron_bounds.bounds.report import holds
from perceptron_bounds.kernels import Kernel

# Generated runs per bound of the normal suite: CASES + KERNEL_CASES of each algorithm
# (2,000 of the Projectron for projectron_d1 and projectron_d2, 2,000 of the ++ for
# projectron_d1); the slow tests: 20,000 of each.
CASES = 1600
KERNEL_CASES = 400
SLOW_CASES = 20000
KINDS = ["dense", "csr", "scaled", "duplicates", "tight"]


def _settings(n):
    return settings(max_examples=n, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def _eta(data, R):
    """eta: 0, or a fraction of the radius from 1e-3 to 2 (all instances projected)."""
    if data.draw(st.integers(0, 3)) == 0:
        return 0.0
    return 10.0 ** data.draw(st.floats(-3.0, np.log10(2.0))) * R


def _case(data, plus):
    X, y, target, presentation, rng = data.draw(sequences())
    kind = data.draw(st.sampled_from(KINDS))
    if kind == "csr":
        drop = rng.random(X.shape) < 0.5
        drop[:, 0] = False  # no zero row
        X = np.where(drop, 0.0, X)
    X, y, u, gamma = _hard(kind, X, y, target, rng)
    eta = _eta(data, float(np.linalg.norm(X, axis=1).max()))
    given_X = sp.csr_matrix(X) if kind == "csr" else X
    run = run_online("projectron", given_X, y, eta=eta, plus=plus, **presentation)
    if gamma is None:
        u, gamma = data.draw(comparisons(X, y, target, rng))
    return run, X, y, u, gamma


def _plain_holds(data):
    run, X, y, u, gamma = _case(data, False)
    report = _check(run, X, y, u, gamma)
    assert report.row("projectron_d1", "tightened").applies


def _plus_holds(data):
    run, X, y, u, gamma = _case(data, True)
    _check(run, X, y, u, gamma, expect_some=False)


@_settings(CASES)
@given(data=st.data())
def test_projectron_bounds_hold(data):
    _plain_holds(data)


@_settings(CASES)
@given(data=st.data())
def test_projectron_plus_bound_holds(data):
    _plus_holds(data)


def _unit_function(K, rng):
    """Coefficients b of f = sum_i b_i K(x_i, .) with ||f||_K = 1 (None when K b = 0)."""
    b = rng.standard_normal(K.shape[0])
    norm_sq = float(b @ K @ b)
    return None if norm_sq <= 1e-12 * np.trace(K) * (b @ b) else b / np.sqrt(norm_sq)


def _kernel_holds(data, kernel, plus):
    """Theory §4.12 in the feature space for a unit f: the proof's two steps on the run's
    final hypothesis h (plain Projectron: y-weighted sum <f, h> >= m gamma - D1 - Delta and
    ||h||^2 <= m R^2), and both variants of the bounds from f's hinge losses."""
    X, y, _, presentation, rng = data.draw(sequences())
    name, params = kernel
    R = float(np.sqrt(np.max(Kernel(name, params.get("degree", 3), params.get("gamma", 1.0),
                                    1.0).diagonal(X))))
    eta = _eta(data, R)
    run = run_online("projectron", X, y, eta=eta, plus=plus, kernel=name, **params,
                     **presentation)
    K = run.hypothesis.kernel.gram(X, X)
    b = _unit_function(K, rng)
    if b is None:
        return
    f = K @ b
    rows = run.sample_index
    gamma = data.draw(st.floats(1e-3, 1.5)) * R
    losses = np.maximum(0.0, gamma - y[rows] * f[rows])
    m = run.mistakes
    added, deltas = run.state["added"], run.state["delta"]
    projected = ~added & ~np.isin(run.update_trials, run.margin_error_trials)
    Delta = float(deltas[projected].sum())
    eta_hat = max(eta, float(deltas[projected].max(initial=0.0)))
    R_m = float(np.sqrt(np.max(np.diag(K)[rows[run.mistake_trials]], initial=0.0)))
    D1_all, D1_used = losses.sum(), losses[run.update_trials].sum()
    if not plus:
        S = run.hypothesis.kernel.gram(X, run.support_vectors)  # (rows, supports)
        inner = float(b @ S @ run.dual_coef)  # <f, h>
        gram = run.hypothesis.kernel.gram(run.support_vectors, run.support_vectors)
        norm_sq = float(run.dual_coef @ gram @ run.dual_coef)
        scale = 1e-9 * (1.0 + abs(inner) + m * gamma + D1_used + Delta)
        assert inner >= m * gamma - D1_used - Delta - scale
        assert norm_sq <= m * R_m**2 * (1 + 1e-9) + 1e-9
        D2_used = float(np.sqrt(np.sum(losses[run.update_trials] ** 2)))
        assert holds(m, float(projectron_d2(R_m, gamma, D2_used, Delta)))
        if gamma > eta_hat:
            D2_all = float(np.sqrt(np.sum(losses**2)))
            assert holds(m, float(projectron_d2(R, gamma - eta_hat, D2_all)))
    low, high = (1.0 / gamma, np.inf if eta == 0.0 else 1.0 / eta) if plus else (0.0, np.inf)
    tight = float(projectron_bound(R_m, gamma, D1_used, Delta, low, high))
    stated = float(projectron_bound(R, gamma - eta_hat, D1_all, 0.0, low, high))
    assert holds(m, tight), (m, tight, eta, plus)
    assert gamma <= eta_hat or holds(m, stated), (m, stated, eta, plus)


KERNELS = [("rbf", {"gamma": 0.5}), ("poly", {"degree": 2, "gamma": 1.0}), ("linear", {})]


@_settings(KERNEL_CASES)
@given(data=st.data(), kernel=st.sampled_from(KERNELS))
def test_kernel_bounds_hold_for_unit_functions(data, kernel):
    _kernel_holds(data, kernel, False)


@_settings(KERNEL_CASES)
@given(data=st.data(), kernel=st.sampled_from(KERNELS))
def test_kernel_plus_bound_holds_for_unit_functions(data, kernel):
    _kernel_holds(data, kernel, True)


@pytest.mark.slow
@_settings(SLOW_CASES)
@given(data=st.data())
def test_projectron_bounds_hold_slow(data):
    _plain_holds(data)


@pytest.mark.slow
@_settings(SLOW_CASES)
@given(data=st.data())
def test_projectron_plus_bound_holds_slow(data):
    _plus_holds(data)


# ---------------------------------------------------------------- closed forms


def test_the_clipped_scale_is_the_minimum_over_the_range():
    """projectron_bound is min over lambda in [low, high] of (l^2 + 2 l c)/(2 l gamma - R^2)."""
    rng = np.random.default_rng(0)
    for _ in range(200):
        R, gamma, D, Delta = rng.uniform(0.1, 3.0), rng.uniform(0.05, 2.0), rng.uniform(0, 5), \
            rng.uniform(0, 2)
        low, high = sorted(rng.uniform(0.0, 10.0, size=2))
        grid = np.linspace(low, high, 20001)
        den = 2 * grid * gamma - R * R
        values = np.where(den > 0, (grid**2 + 2 * grid * (D + Delta)) / np.where(den > 0, den, 1),
                          np.inf)
        found = float(projectron_bound(R, gamma, D, Delta, low, high))
        assert found <= values.min() * (1 + 1e-12) + 1e-12
        if np.isfinite(values.min()):
            assert found >= values.min() * (1 - 1e-6) - 1e-9
        else:
            assert found == np.inf


def test_without_projections_the_bounds_are_the_perceptrons():
    """eta = 0 on independent instances: Delta = 0 and the D2 form is Freund-Schapire's."""
    assert projectron_d2(1.0, 0.5, 0.5) == pytest.approx(((1.0 + 0.5) / 0.5) ** 2)
    R, gamma, D1 = 2.0, 0.5, 3.0
    assert projectron_bound(R, gamma, D1) == pytest.approx(
        ((R + np.sqrt(R**2 + 4 * gamma * D1)) / (2 * gamma)) ** 2)
    assert projectron_bound(R, 0.0, D1) == np.inf


def test_evaluate_reads_the_runs_projection_errors():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((80, 3))
    u = np.array([1.0, -0.5, 0.2]) / np.linalg.norm([1.0, -0.5, 0.2])
    y = np.where(X @ u > 0, 1.0, -1.0)
    y[rng.random(80) < 0.1] *= -1
    run = run_online("projectron", X, y, eta=0.3, epochs=3)
    projected = ~run.state["added"]
    assert projected.any()
    report = evaluate(run, X, y, u=u, gamma=0.4)
    row = report.row("projectron_d1", "tightened")
    Delta = run.state["delta"][projected].sum()
    assert row.quantities["Delta"] == pytest.approx(Delta)
    assert row.quantities["eta_hat"] == pytest.approx(max(0.3, run.state["delta"][projected].max()))
    margins = y[run.sample_index] * (X[run.sample_index] @ u)
    D1 = np.maximum(0.0, 0.4 - margins[run.mistake_trials]).sum()
    R = np.linalg.norm(X[run.sample_index[run.mistake_trials]], axis=1).max()
    assert row.value == pytest.approx(((R + np.sqrt(R * R + 1.6 * (D1 + Delta))) / 0.8) ** 2)
    stated = report.row("projectron_d2", "stated")
    eta_hat = row.quantities["eta_hat"]
    D2 = np.sqrt(np.sum(np.maximum(0.0, 0.4 - margins) ** 2))
    R_all = np.linalg.norm(X, axis=1).max()
    assert stated.value == pytest.approx(((R_all + D2) / (0.4 - eta_hat)) ** 2)


def test_a_margin_within_eta_is_not_applicable_with_the_reason():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((60, 3))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    run = run_online("projectron", X, y, eta=0.5, plus=True)
    report = evaluate(run, X, y, u=np.eye(3)[0], gamma=0.3)
    row = report.row("projectron_d1", "stated")
    assert not row.applies and "gamma > eta_hat + eta R^2/2" in row.reason
    assert "projectron_d2" not in {r.name for r in report.rows}


@pytest.mark.parametrize("plus", [False, True])
def test_the_curves_over_time_stay_above_the_mistakes(plus):
    rng = np.random.default_rng(2)
    X = rng.standard_normal((120, 4))
    u = np.array([1.0, -0.5, 0.2, 0.0]) / np.linalg.norm([1.0, -0.5, 0.2, 0.0])
    y = np.where(X @ u > 0, 1.0, -1.0)
    y[rng.random(120) < 0.1] *= -1
    run = run_online("projectron", X, y, eta=0.05, plus=plus, epochs=2)
    for variant in ("stated", "tightened"):
        curves = bounds_over_time(run, X, y, u=u, gamma=0.6, variant=variant)
        assert np.all(curves.mistakes <= curves["projectron_d1"] * (1 + 1e-9))
        final = evaluate(run, X, y, u=u, gamma=0.6)
        assert curves["projectron_d1"][-1] == pytest.approx(
            final.row("projectron_d1", variant).value, rel=1e-10)
