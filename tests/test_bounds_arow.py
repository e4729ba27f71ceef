"""The AROW bound (theory §4.9): the steps of its proof on runs, the closed form against a
plain-NumPy computation, and validity as property tests.

Property tests draw sequences as the other bound families' do (separable or noisy, 1-5
epochs, 2-50 features, shuffled or not; :mod:`test_bounds_validity`), AROW's r over four
decades, the full primal form on dense and CSR rows and the dual form, and hard numerics:
rows scaled from 1e-150 to 1e150, duplicated rows, and exactly tight data. Kernel runs
are checked against random unit functions of the feature space, whose quantities are
computed here from the Gram matrix. A failure is a bug in the algorithm, the bound or the
argument on the theory page, never a reason to loosen the check.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_bounds_validity import _check, comparisons, sequences

from perceptron_bounds import run_online
from perceptron_bounds.bounds import arow_bound, arow_q, bounds_over_time, evaluate
from perceptron_bounds.bounds.report import holds

# Generated runs per property test of the normal suite (2,000 in all); the slow one: 20,000.
CASES = 1500
KERNEL_CASES = 400
OVR_CASES = 100
SLOW_CASES = 20000
KINDS = ["dense", "csr", "dual", "scaled", "duplicates", "tight"]


def _settings(n):
    return settings(max_examples=n, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def _hard(kind, X, y, target, rng):
    """(X, y, u, gamma or None) of the kind of sequence asked for."""
    u, gamma = target, None
    if kind == "scaled":  # each row scaled by 10^e, e in [-150, 150]
        X = X * 10.0 ** rng.uniform(-150.0, 150.0, size=(X.shape[0], 1))
    elif kind == "duplicates":
        pick = np.concatenate(([0, 1], rng.integers(0, X.shape[0], size=2 * X.shape[0])))
        X, y = X[pick], y[pick]
    elif kind == "tight":  # every row at margin exactly gamma = 1/2 from u = e_1
        X = rng.choice([-1.0, 1.0], size=X.shape) * rng.integers(1, 4, size=X.shape) / 4.0
        y = np.where(rng.random(X.shape[0]) < 0.5, 1.0, -1.0)
        y[0], y[1] = 1.0, -1.0
        X[:, 0] = 0.5 * y
        u, gamma = np.eye(X.shape[1])[0], 0.5
    return X, y, u, gamma


def _arow_run(data, X, y, presentation, kind):
    r = 10.0 ** data.draw(st.floats(-2.0, 2.0))
    form = "dual" if kind == "dual" else "primal"
    given = sp.csr_matrix(X) if kind == "csr" else X
    return run_online("arow", given, y, r=r, form=form, **presentation)


def _case(data):
    X, y, target, presentation, rng = data.draw(sequences())
    kind = data.draw(st.sampled_from(KINDS))
    if kind == "csr":
        drop = rng.random(X.shape) < 0.5
        drop[:, 0] = False  # no zero row
        X = np.where(drop, 0.0, X)
    X, y, u, gamma = _hard(kind, X, y, target, rng)
    run = _arow_run(data, X, y, presentation, kind)
    if gamma is None:
        u, gamma = data.draw(comparisons(X, y, target, rng))
    return run, X, y, u, gamma


@_settings(CASES)
@given(data=st.data())
def test_arow_bound_holds(data):
    run, X, y, u, gamma = _case(data)
    report = _check(run, X, y, u, gamma)
    assert {row.variant for row in report.rows if row.applies} == {"stated", "tightened"}, [
        row.reason for row in report.rows]


def _unit_function(K, rng):
    """Coefficients b of f = sum_i b_i K(x_i, .) with ||f||_K = 1 (None when K b = 0)."""
    b = rng.standard_normal(K.shape[0])
    norm_sq = float(b @ K @ b)
    return None if norm_sq <= 1e-12 * np.trace(K) * (b @ b) else b / np.sqrt(norm_sq)


@_settings(KERNEL_CASES)
@given(data=st.data(), kernel=st.sampled_from([("rbf", {"gamma": 0.5}),
                                               ("poly", {"degree": 2, "gamma": 1.0}),
                                               ("linear", {})]))
def test_kernel_bound_holds_for_unit_functions(data, kernel):
    """Theory §4.9 in the feature space: for f of unit norm, m <= D/gamma + ... - U with
    D, u_energy from f(x_t) and lambda_i of the updates' kernel Gram."""
    X, y, _, presentation, rng = data.draw(sequences())
    name, params = kernel
    r = 10.0 ** data.draw(st.floats(-2.0, 2.0))
    run = run_online("arow", X, y, r=r, kernel=name, form="dual", **params, **presentation)
    K = run.hypothesis.kernel.gram(X, X)
    b = _unit_function(K, rng)
    if b is None:
        return
    f = K @ b  # f(x_i) for every row
    rows = run.sample_index
    A = run.update_trials
    eigenvalues = np.maximum(np.linalg.eigvalsh(K[np.ix_(rows[A], rows[A])]), 0.0)
    gamma = data.draw(st.floats(1e-3, 1.5)) * float(np.sqrt(np.max(np.diag(K))))
    energy = float(np.sum(f[rows[A]] ** 2))
    Q, U = arow_q(run.state["m"], run.state["chi"], r), run.margin_errors
    for losses, q in ((np.maximum(0.0, gamma - y[rows] * f[rows]), U),
                      (np.maximum(0.0, gamma - y[rows[A]] * f[rows[A]]), Q)):
        value = float(arow_bound(eigenvalues, r, energy, q, U, losses.sum(), gamma))
        assert holds(run.mistakes, value), (run.mistakes, value, r, name)


@_settings(CASES // 10)
@given(data=st.data())
def test_the_proofs_steps_hold_on_runs(data):
    """Each step of theory §4.9 on the run's own numbers: the potential's increments,
    chi/(chi + r) <= ln det ratio, and |A| - G <= sqrt((r||u||^2 + E)(L + Q))."""
    X, y, target, presentation, _ = data.draw(sequences())
    r = 10.0 ** data.draw(st.floats(-2.0, 2.0))
    run = run_online("arow", X, y, r=r, **presentation)
    rows = run.sample_index[run.update_trials]
    XA, yA = X[rows], y[rows]
    m, chi = run.state["m"], run.state["chi"]
    n = X.shape[1]
    potential, A = 0.0, np.eye(n)
    for j in range(rows.shape[0]):
        v = XA[:j + 1].T @ yA[:j + 1] / r
        A_next = A + np.outer(XA[j], XA[j]) / r
        grown = float(v @ np.linalg.solve(A_next, v)) - potential
        step = (2.0 * m[j] - m[j] ** 2) / (chi[j] + r) + chi[j] / (r * (chi[j] + r))
        assert abs(grown - step) <= 1e-8 * (1.0 + abs(step) + potential)
        ratio = np.linalg.slogdet(A_next)[1] - np.linalg.slogdet(A)[1]
        assert abs(ratio - np.log1p(chi[j] / r)) <= 1e-8 * (1.0 + ratio)
        assert chi[j] / (chi[j] + r) <= ratio + 1e-12
        potential, A = potential + grown, A_next
    u = target * data.draw(st.floats(0.1, 10.0))  # any norm, hinge at margin 1
    G = float(np.sum(np.maximum(0.0, 1.0 - yA * (XA @ u))))
    L = float(np.sum(np.log1p(np.maximum(np.linalg.eigvalsh(XA.T @ XA), 0.0) / r)))
    rhs = np.sqrt((r * (u @ u) + np.sum((XA @ u) ** 2)) * (L + arow_q(m, chi, r)))
    assert rows.shape[0] - G <= rhs * (1 + 1e-9) + 1e-9
    assert arow_q(m, chi, r) <= run.margin_errors + 1e-12


@_settings(OVR_CASES)
@given(data=st.data(), n_classes=st.integers(3, 5))
def test_one_vs_rest_arow_bounds_hold(data, n_classes):
    X, _, _, presentation, rng = data.draw(sequences())
    y = np.argmax(X @ rng.standard_normal((X.shape[1], n_classes)), axis=1)
    if np.unique(y).shape[0] < 2:
        y[:2] = [0, 1]
    run = run_online("arow", X, y, r=10.0 ** data.draw(st.floats(-2.0, 2.0)), multiclass="ovr",
                     **presentation)
    U = rng.standard_normal((run.classes.shape[0], X.shape[1]))
    report = evaluate(run, X, y, u=U, gamma=data.draw(st.floats(1e-3, 1.0)))
    for row in report.rows:
        assert row.holds in (True, None), (row.name, row.variant, row.value, row.mistakes)
    assert report.row("arow", "tightened").applies


def test_closed_form_against_numpy():
    X = np.array([[1.0, 0.2], [0.3, -1.0], [-1.0, 0.5], [0.6, 0.6], [-0.2, -1.0]])
    y = np.array([1.0, -1.0, -1.0, 1.0, -1.0])
    r, u, gamma = 0.7, np.array([0.6, 0.8]), 0.3
    run = run_online("arow", X, y, r=r, epochs=3)
    report = evaluate(run, X, y, u=u, gamma=gamma)
    rows = run.sample_index[run.update_trials]
    margins = y[run.sample_index] * (X[run.sample_index] @ u)
    L = np.sum(np.log1p(np.linalg.eigvalsh(X[rows].T @ X[rows]) / r))
    E = np.sum((X[rows] @ u) ** 2)
    m, chi = run.state["m"], run.state["chi"]
    errors = m > 0
    Q = np.sum(r * m[errors] * (2 - m[errors]) / (chi[errors] + r))
    U = int(errors.sum())
    stated = np.maximum(0, gamma - margins).sum() / gamma + np.sqrt((r + E) * (L + U)) / gamma - U
    tight = (np.maximum(0, gamma - margins[run.update_trials]).sum() / gamma
             + np.sqrt((r + E) * (L + Q)) / gamma - U)
    assert report.row("arow", "stated").value == pytest.approx(stated, rel=1e-12)
    assert report.row("arow", "tightened").value == pytest.approx(tight, rel=1e-12)
    assert report.row("arow", "tightened").quantities["U"] == U == run.margin_errors


def test_the_curves_over_time_stay_above_the_mistakes():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((120, 4))
    y = np.where(X @ np.array([1.0, -0.5, 0.2, 0.0]) > 0, 1.0, -1.0)
    y[rng.random(120) < 0.1] *= -1
    run = run_online("arow", X, y, r=0.5, epochs=2)
    for variant in ("stated", "tightened"):
        curves = bounds_over_time(run, X, y, u=np.array([1.0, -0.5, 0.2, 0.0]), gamma=0.3,
                                  variant=variant)
        assert np.all(curves.mistakes <= curves["arow"] * (1 + 1e-9))
        final = evaluate(run, X, y, u=np.array([1.0, -0.5, 0.2, 0.0]), gamma=0.3)
        assert curves["arow"][-1] == pytest.approx(final.row("arow", variant).value, rel=1e-10)


def test_diagonal_arow_is_reported_not_applicable():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((50, 3))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    report = evaluate(run_online("arow", X, y, diagonal=True), X, y)
    assert [(row.variant, row.applies) for row in report.rows] == [("stated", False),
                                                                    ("tightened", False)]
    assert all("no mistake bound is proved for diagonal AROW" in row.reason
               for row in report.rows)


@pytest.mark.slow
@_settings(SLOW_CASES)
@given(data=st.data())
def test_arow_bound_holds_slow(data):
    run, X, y, u, gamma = _case(data)
    _check(run, X, y, u, gamma)
