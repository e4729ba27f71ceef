"""Property tests of ROMMA's mistake bound (theory §4.7; Li & Long, Thm 3 and its proof).

Every generated run, ROMMA and aggressive ROMMA, must satisfy
m <= (R / gamma)^2 for a unit u with y u.x >= gamma > 0: stated (R and gamma over
all trials) and tightened as theory §4.7 proves it (gamma over the update trials,
R over the mistaken ones). Hard numerics: rows scaled 1e-150..1e150, duplicated
points, points exactly on the margin, CSR input, the dual form with the linear
kernel, 1-5 epochs, random comparators and margins.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from perceptron_bounds import run_online
from perceptron_bounds.bounds import evaluate, novikoff

FORMS = ("dense", "csr", "dual")


def generated(rng):
    """(X, y, u, kind): separable data for a random unit u, with a random margin and hazards."""
    n, d = int(rng.integers(2, 40)), int(rng.integers(1, 7))
    u = rng.standard_normal(d)
    u /= np.linalg.norm(u)
    X = rng.standard_normal((n, d)) * rng.uniform(0.1, 3.0)
    margin = rng.uniform(0.0, 0.5)
    z = X @ u
    y = np.where(z >= 0, 1.0, -1.0)
    X += np.outer(y * margin, u)  # now y u.x >= margin
    hazard = rng.integers(4)
    if hazard == 1:  # duplicated points
        X = np.vstack([X, X[rng.integers(0, n, size=n)]])
        y = np.concatenate([y, y[np.arange(n)]])
        y[n:] = np.where(X[n:] @ u >= 0, 1.0, -1.0)
    elif hazard == 2:  # some points exactly on the margin
        k = rng.integers(0, n, size=max(1, n // 3))
        X[k] += np.outer(y[k] * margin - X[k] @ u, u)
    elif hazard == 3:  # rows scaled 1e-150..1e150
        X *= 10.0 ** rng.choice([-150, -80, 0, 80, 150], size=X.shape[0])[:, None]
    if np.unique(y).size < 2:
        y[0] = -y[0]
        X[0] = -X[0]
    return X, y, u


def violations(rng):
    """Run one generated case; return the bound violations (0 or more)."""
    X, y, u = generated(rng)
    form = FORMS[rng.integers(3)]
    aggressive = bool(rng.integers(2))
    epochs = int(rng.integers(1, 6))
    X_in = sp.csr_matrix(X) if form == "csr" else X
    run = run_online("romma", X_in, y, aggressive=aggressive, epochs=epochs,
                     shuffle=bool(rng.integers(2)), seed=int(rng.integers(1 << 30)),
                     form="dual" if form == "dual" else "primal")
    rows = run.sample_index
    margins = y[rows] * (X[rows] @ u)
    norms = np.linalg.norm(X[rows], axis=1)
    bad = 0
    with np.errstate(over="ignore"):  # (R / gamma)^2 = inf for rows of 1e150 and 1e-150
        gamma = margins.min()
        if gamma > 0 and run.mistakes > novikoff(norms.max(), gamma) * (1 + 1e-9):
            bad += 1
        updates = run.update_trials
        if updates.size:
            gamma_used = margins[updates].min()
            R_mistakes = norms[run.mistake_trials].max() if run.mistakes else 0.0
            if gamma_used > 0 and run.mistakes > novikoff(R_mistakes, gamma_used) * (1 + 1e-9):
                bad += 1
    return bad


@pytest.mark.parametrize("seed", range(4))
def test_romma_bound_holds_on_generated_runs(seed):
    rng = np.random.default_rng([22, seed])
    assert sum(violations(rng) for _ in range(550)) == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(40))
def test_romma_bound_holds_on_many_generated_runs(seed):
    rng = np.random.default_rng([2022, seed])
    assert sum(violations(rng) for _ in range(550)) == 0


@pytest.mark.parametrize("aggressive", [False, True])
def test_evaluate_reports_the_bound_for_both_variants(aggressive):
    rng = np.random.default_rng(1)
    u = rng.standard_normal(5)
    u /= np.linalg.norm(u)
    X = rng.standard_normal((200, 5))
    y = np.where(X @ u > 0, 1, -1)
    X += np.outer(0.5 * y, u)
    run = run_online("romma", X, y, aggressive=aggressive, epochs=2)
    report = evaluate(run, X, y)
    rows = {row.variant: row for row in report.rows if row.name == "romma"}
    assert set(rows) == {"stated", "tightened"}
    for row in rows.values():
        assert row.holds and run.mistakes <= row.value
        assert "Li & Long Thm 3" in row.source
    assert ("aggressive" in rows["stated"].source) == aggressive


def test_bound_not_applicable_without_separation():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((100, 3))
    y = np.where(rng.random(100) < 0.5, 1, -1)  # labels unrelated to X
    run = run_online("romma", X, y)
    report = evaluate(run, X, y)
    stated = next(row for row in report.rows if row.name == "romma" and row.variant == "stated")
    assert not stated.applies and "separates" in stated.reason


def test_tightened_radius_is_over_the_mistakes_and_separation_over_the_updates():
    """Theory §4.7: the proof needs R on the mistaken trials only, y u.x >= gamma on the updates."""
    rng = np.random.default_rng(0)
    u = np.array([1.0, 0.0, 0.0])
    X = rng.standard_normal((150, 3))
    y = np.where(X @ u > 0, 1, -1)
    X += np.outer(0.3 * y, u)
    X[5::7] *= 3.0  # some long rows, met as margin errors
    run = run_online("romma", X, y, aggressive=True, epochs=2)
    rows = run.sample_index
    report = evaluate(run, X, y, u=u, gamma=0.3)
    tightened = report.row("romma", "tightened")
    R_mistakes = np.linalg.norm(X[rows[run.mistake_trials]], axis=1).max()
    assert np.linalg.norm(X[rows[run.update_trials]], axis=1).max() > R_mistakes
    assert tightened.quantities["R"] == pytest.approx(R_mistakes)
    assert tightened.value == pytest.approx((R_mistakes / 0.3) ** 2)
    assert report.row("romma", "stated").value == pytest.approx(
        (np.linalg.norm(X, axis=1).max() / 0.3) ** 2)


def test_bounds_over_time_and_one_vs_rest():
    from perceptron_bounds.bounds import bounds_over_time

    rng = np.random.default_rng(4)
    X = rng.standard_normal((150, 3))
    X = X[np.abs(X[:, 0]) > 0.1]
    binary = np.where(X[:, 0] > 0, 1, -1)
    run = run_online("romma", X, binary, aggressive=True, epochs=2)
    for variant in ("stated", "tightened"):
        curves = bounds_over_time(run, X, binary, u=np.array([1.0, 0, 0]), gamma=0.1,
                                  variant=variant)
        mistakes_so_far = np.cumsum(np.isin(np.arange(run.n_trials), run.mistake_trials))
        assert np.all(mistakes_so_far <= curves["romma"])
    labels = np.digitize(X[:, 1], [-0.5, 0.5])
    ovr = run_online("romma", X, labels, multiclass="ovr")
    report = evaluate(ovr, X, labels)
    assert {row.name for row in report.rows} >= {"romma"}
