"""The expected-mistake bounds of selective sampling (theory §4.13): the proof's pathwise
step on every run, the closed forms, and validity in expectation over the draws.

Validity: on each generated sequence (noisy or separable, 1-3 epochs, 2-6 features,
dense, CSR or dual rows, b and a over two decades, u the target or a random unit
vector), the algorithm runs with ``SEEDS`` = 200 seeds; at each of three margins gamma
fixed in advance, the mean over the seeds of m - Q_gamma (Q the bound's value on the run:
its expectation is what the theorem bounds E[m] by) must be at most ``Z`` = 4 standard
errors of that mean (one-sided; a false alarm has probability about 3e-5 per check if the
theorem holds). A failure is a bug in the algorithm, the bound or the proof, never a reason
to loosen the check.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from perceptron_bounds import run_online
from perceptron_bounds.bounds import (
    evaluate,
    selective_perceptron_bound,
    selective_second_order_bound,
)
from perceptron_bounds.bounds.declaration import declared

SEEDS = 200
SEQUENCES = 50  # x SEEDS = 10,000 runs per algorithm in the normal suite
SLOW_SEQUENCES = 100  # 20,000 runs per algorithm
Z = 4.0
GAMMAS = (0.05, 0.2, 0.5)  # gamma = c R


def _sequence(k):
    """(X given to the run, X dense, y, u of unit norm, run parameters) of sequence k."""
    rng = np.random.default_rng(1000 + k)
    n, d = int(rng.integers(20, 61)), int(rng.integers(2, 7))
    X = rng.standard_normal((n, d)) * rng.uniform(0.2, 3.0)
    target = rng.standard_normal(d)
    target /= np.linalg.norm(target)
    y = np.where(X @ target > 0, 1.0, -1.0)
    flip = rng.random(n) < rng.choice([0.0, 0.05, 0.2])
    y[flip] = -y[flip]
    y[:2] = (1.0, -1.0)
    u = target if k % 3 else rng.standard_normal(d)
    u = u / np.linalg.norm(u)
    kind = ("dense", "csr", "dual")[k % 3]
    params = {"b": float(10.0 ** rng.uniform(-1.5, 0.5)), "a": float(10.0 ** rng.uniform(-1, 1)),
              "epochs": int(rng.integers(1, 4)), "shuffle": bool(k % 2),
              "form": "dual" if kind == "dual" else "primal"}
    return (sp.csr_matrix(X) if kind == "csr" else X), X, y, u, params


def _hinge(X, y, u, trials_rows, gamma):
    return np.maximum(0.0, gamma - y[trials_rows] * (X[trials_rows] @ u)).sum()


def _values(name, run, X, y, u, gamma, R):
    """(stated, tightened) values of the bound on one run at u and gamma."""
    every = run.sample_index
    updated = run.sample_index[run.update_trials]
    b = run.params["b"]
    if name == "selective_perceptron":
        return tuple(selective_perceptron_bound(R, b, _hinge(X, y, u, rows, gamma), gamma)
                     for rows in (every, updated))
    X_U = X[updated]
    eigenvalues = np.linalg.eigvalsh(X_U.T @ X_U)
    energy = float(np.sum((X_U @ u) ** 2))
    return tuple(selective_second_order_bound(eigenvalues, run.params["a"], b, energy,
                                              _hinge(X, y, u, rows, gamma), gamma)
                 for rows in (every, updated))


def _check_sequence(name, k):
    X_in, X, y, u, params = _sequence(k)
    R = float(np.linalg.norm(X, axis=1).max())
    extra = {"a": params["a"]} if name == "selective_second_order" else {}
    gaps = np.empty((SEEDS, len(GAMMAS), 2))
    for s in range(SEEDS):
        run = run_online(name, X_in, y, b=params["b"], epochs=params["epochs"],
                         shuffle=params["shuffle"], form=params["form"], seed=s, **extra)
        for j, c in enumerate(GAMMAS):
            gaps[s, j] = run.mistakes - np.array(_values(name, run, X, y, u, c * R, R))
    mean = gaps.mean(axis=0)
    slack = Z * gaps.std(axis=0, ddof=1) / np.sqrt(SEEDS)
    assert np.all(mean <= slack + 1e-9), (name, k, params, mean, slack)


@pytest.mark.parametrize("name", ["selective_perceptron", "selective_second_order"])
def test_the_bounds_hold_in_expectation(name):
    for k in range(SEQUENCES):
        _check_sequence(name, k)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["selective_perceptron", "selective_second_order"])
def test_the_bounds_hold_in_expectation_slow(name):
    for k in range(SEQUENCES, SEQUENCES + SLOW_SEQUENCES):
        _check_sequence(name, k)


@pytest.mark.parametrize("k", range(12))
def test_the_first_order_proof_step_holds_on_every_run(k):
    """Pathwise, before any expectation (theory §4.13): over the updated trials U,
    sum (2 alpha gamma + 2|p_t| - R^2) <= alpha^2 + 2 alpha sum l_t for every alpha > 0."""
    X_in, X, y, u, params = _sequence(k)
    R = float(np.linalg.norm(X, axis=1).max())
    run = run_online("selective_perceptron", X_in, y, b=params["b"], epochs=params["epochs"],
                     seed=k, record_margins=True)
    U = run.update_trials
    p = np.abs(run.margins[U])
    for gamma in (0.1 * R, R):
        losses = np.maximum(0.0, gamma - y[run.sample_index[U]] * (X[run.sample_index[U]] @ u))
        for alpha in (0.1, 1.0, (2 * params["b"] + R * R) / (2 * gamma), 100.0):
            assert np.sum(2 * alpha * gamma + 2 * p - R * R) <= (
                alpha**2 + 2 * alpha * losses.sum()) * (1 + 1e-12) + 1e-9


@pytest.mark.parametrize("k", range(12))
def test_the_second_order_proof_step_holds_on_every_run(k):
    """Pathwise (theory §4.13): sum over U of (b + |p_t|) <= (b^2/(2 gamma^2)) (a + u_energy)
    + (1/2) sum_i ln(1 + lambda_i/a) + (b/gamma) sum over U of l_t."""
    X_in, X, y, u, params = _sequence(k)
    a, b = params["a"], params["b"]
    run = run_online("selective_second_order", X_in, y, a=a, b=b, epochs=params["epochs"],
                     form=params["form"], seed=k, record_margins=True)
    U = run.update_trials
    rows = run.sample_index[U]
    eigenvalues = np.linalg.eigvalsh(X[rows].T @ X[rows])
    energy = float(np.sum((X[rows] @ u) ** 2))
    for gamma in (0.1, 1.0):
        losses = np.maximum(0.0, gamma - y[rows] * (X[rows] @ u))
        left = np.sum(b + np.abs(run.margins[U]))
        right = (b * b / (2 * gamma**2) * (a + energy)
                 + 0.5 * np.sum(np.log1p(np.maximum(eigenvalues, 0.0) / a))
                 + b / gamma * losses.sum())
        assert left <= right * (1 + 1e-10) + 1e-9


def test_closed_forms():
    assert selective_perceptron_bound(1.0, 0.5, 0.0, 1.0) == 1.0
    # (1 + R^2/(2b)) D/gamma + (2b + R^2)^2/(8 b gamma^2) at R = 2, b = 1, D = 3, gamma = 0.5
    assert selective_perceptron_bound(2.0, 1.0, 3.0, 0.5) == pytest.approx(3 * 3 / 0.5 + 36 / 2)
    value = selective_second_order_bound([1.0, 3.0], 2.0, 0.5, 4.0, 1.0, 0.25)
    assert value == pytest.approx(4 + 0.5 * 6 / (2 * 0.0625) + np.log(1.5 * 2.5) / 1.0)


def test_minimised_over_b_the_second_order_bound_is_at_least_the_supervised_one():
    eigenvalues, a, energy, D, gamma = [2.0, 5.0], 1.0, 3.0, 0.5, 0.3
    log_sum = np.sum(np.log1p(np.array(eigenvalues) / a))
    supervised = D / gamma + np.sqrt((a + energy) * log_sum) / gamma
    b_star = gamma * np.sqrt(log_sum / (a + energy))
    bs = np.geomspace(1e-3, 1e3, 400)
    values = [selective_second_order_bound(eigenvalues, a, b, energy, D, gamma) for b in bs]
    assert min(values) >= supervised * (1 - 1e-12)
    assert selective_second_order_bound(eigenvalues, a, b_star, energy, D, gamma) == (
        pytest.approx(supervised))


def test_the_declarations_are_in_expectation():
    for name in ("selective_perceptron", "selective_second_order"):
        assert declared(name).expectation and declared(name).theory == "§4.13"
    assert not declared("novikoff").expectation


def test_evaluate_averages_runs_of_several_seeds():
    X_in, X, y, u, params = _sequence(1)
    runs = [run_online("selective_perceptron", X, y, b=0.3, epochs=2, seed=s) for s in range(40)]
    report = evaluate(runs, X, y, u=u)
    assert report.n_runs == 40
    assert report.mistakes == pytest.approx(np.mean([run.mistakes for run in runs]))
    row = report.row("selective_perceptron", "tightened")
    assert row.expectation and row.mistakes == report.mistakes
    assert "in expectation over the draws" in str(report)
    assert "mean over 40 runs" in str(report)
    at = evaluate(runs, X, y, u=u, gamma=0.5).row("selective_perceptron", "tightened")
    singles = [evaluate(run, X, y, u=u, gamma=0.5).row("selective_perceptron", "tightened")
               for run in runs]
    assert at.value == pytest.approx(np.mean([one.value for one in singles]))
    assert evaluate(runs, X, y, u=u).to_records()[0]["expectation"] is True


def test_a_single_run_report_says_its_bounds_are_in_expectation():
    _, X, y, u, _ = _sequence(2)
    report = evaluate(run_online("selective_second_order", X, y, seed=1), X, y, u=u)
    assert any("evaluate([run, ...], X, y)" in note for note in report.notes)
    assert all(row.expectation for row in report.rows)
    perceptron = evaluate(run_online("perceptron", X, y), X, y, u=u)
    assert not any(row.expectation for row in perceptron.rows)
    assert "in expectation" not in str(perceptron)


def test_bad_lists_of_runs_are_one_line_errors():
    _, X, y, _, _ = _sequence(3)
    runs = [run_online("selective_perceptron", X, y, b=0.3, seed=s) for s in range(2)]
    other = run_online("selective_perceptron", X, y, b=0.9, seed=5)
    labels = np.arange(X.shape[0]) % 3
    ovr = [run_online("perceptron", X, labels, multiclass="native", shuffle=True, seed=s)
           for s in (1, 2)]  # one-vs-rest runs are averaged since issue 31
    for bad, error, message in [
            ([], TypeError, r"run must be an OnlineRun or a non-empty list of them, got list"),
            ([runs[0], "x"], TypeError, "run must hold OnlineRun only, got str"),
            ([runs[0], runs[0]], ValueError, "the runs to average must have distinct seeds"),
            ([runs[0], other], ValueError, "differ by their seed only; their params differs"),
            (ovr, ValueError, "evaluate averages binary and one-vs-rest runs")]:
        with pytest.raises(error, match=message):
            evaluate(bad, X, labels if bad is ovr else y)
