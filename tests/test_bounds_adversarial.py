"""Adversarial search for bound violations at the numerical edges (theory §4.4).

Hill-climbing over small sequences built to stress the arithmetic: rows scaled
from 1e-150 to 1e150 (one scale, or mixed within a sequence), duplicated points,
exactly tight data (integer rows, a comparator meeting them at margin exactly
gamma). Each start runs one registered binary algorithm and evaluates its bounds
with the package's comparator search and with an explicit comparator; every
applicable row must hold, and the radius and the hinge sums it reports must not
fall below the direct NumPy sums. A step keeps a change of the sequence when it
brings the worst ratio mistakes / bound closer to 1. The fast test runs a few
dozen starts, the slow one a few hundred; neither may find a violation.
"""

import numpy as np
import pytest

from perceptron_bounds import run_online
from perceptron_bounds.bounds import evaluate
from perceptron_bounds.bounds.report import HOLDS_RTOL

# (algorithm, parameters) of every registered binary algorithm and variant.
SETUPS = [
    ("perceptron", {}),
    ("voted_perceptron", {}),
    ("ballseptron", {"r": 0.0}),
    ("ballseptron", {"r": "small"}),
    ("pnorm", {"p": 2.0}),
    ("pnorm", {"p": 4.0}),
    ("second_order", {"variant": "inverse", "a": "scale"}),
    ("second_order", {"variant": "adaptive"}),
    ("second_order", {"variant": "pinv"}),
    ("second_order", {"variant": "pinv", "span_tol": 0.5}),
    ("higher_order", {"c": 0.3}),
    ("higher_order", {"c": 0.0, "p": 3.0}),
    # rbf only at small scales: at large norms its kernel values cancel (issue 20, item 2),
    # which the kernel module fixes separately.
    ("perceptron", {"kernel": "rbf", "gamma": 0.5}),
    ("second_order", {"variant": "pinv", "kernel": "rbf", "gamma": 0.5}),
]
KERNEL_SCALE = (-8.0, 1.0)  # log10 of the row scales of the rbf setups


def _direct_norms(X):
    """||x|| of each row, scaled by the largest entry before squaring."""
    top = np.abs(X).max(axis=1)
    safe = np.where(top > 0, top, 1.0)
    return top * np.sqrt(np.sum((X / safe[:, None]) ** 2, axis=1))


def _direct_sums(margins, gamma):
    """(D1, D2) of the hinge losses max(0, gamma - margin), summed term by term."""
    losses = np.maximum(0.0, gamma - margins)
    top = losses.max(initial=0.0)
    d2 = top * np.sqrt(np.sum((losses / top) ** 2)) if top > 0 else 0.0
    return float(losses.sum()), float(d2)


def _sequence(rng, kernel):
    """(X, y, u): a small sequence of one of the hard kinds and a comparator for it."""
    n, d = int(rng.integers(2, 7)), int(rng.integers(2, 5))
    kind = rng.choice(["gaussian", "tight", "duplicates", "mixed", "orthogonal", "near_span"])
    if kind == "orthogonal":  # every margin equal: gamma meets all of them at once
        X, y = np.eye(d), np.where(np.arange(d) % 2 == 0, 1.0, -1.0)
        u = y * (1.0 + 1e-8 * (np.arange(d) == d - 1))
    elif kind == "near_span":  # a row just inside the span of another at span_tol = 1e-9
        X = np.zeros((n, d))
        X[0, 0], X[1:, 0], X[1:, 1] = 1.0, 31623.0, 1.0
        X[2:] *= rng.uniform(0.5, 2.0, size=(n - 2, 1))
        u = np.zeros(d)
        u[0], u[1] = 1.0, -31624.0
        y = np.where(np.arange(n) == 0, 1.0, -1.0)
    elif kind == "tight":
        X = rng.integers(-2, 3, size=(n, d)).astype(np.float64)
        X[np.all(X == 0, axis=1), 0] = 1.0
        u = rng.integers(-1, 2, size=d).astype(np.float64)
        u[0] = 1.0
        y = np.where(X @ u >= 0, 1.0, -1.0)
    else:
        X = rng.standard_normal((n, d))
        u = rng.standard_normal(d)
        y = np.where(X @ u >= 0, 1.0, -1.0)
        if kind == "duplicates":
            X[1:] = X[rng.integers(0, n, size=n - 1)]
            y = np.where(X @ u >= 0, 1.0, -1.0)
    n = X.shape[0]
    flips = rng.random(n) < 0.15
    y[flips] = -y[flips]
    low, high = KERNEL_SCALE if kernel else (-150.0, 150.0)
    if kind == "mixed":
        X *= 10.0 ** rng.uniform(low, high, size=(n, 1))
    else:
        X *= 10.0 ** rng.uniform(low, high)
    if rng.random() < 0.5:
        u = u + 1e-8 * rng.standard_normal(d)  # nearly tight: gamma meets a margin
    y[0], y[1] = 1.0, -1.0
    return X, y, u


def _mutate(rng, X, y, kernel):
    X, y = X.copy(), y.copy()
    i, j = rng.integers(0, X.shape[0], size=2)
    move = rng.integers(0, 5)
    low, high = (-2.0, 2.0) if kernel else (-40.0, 40.0)
    if move == 0:
        X[i] = X[j]  # a duplicated point
    elif move == 1:
        X[i] *= 10.0 ** rng.uniform(low, high)
        X[i] = np.clip(X[i], -1e150, 1e150)
        small = (np.abs(X[i]) < 1e-150) & (X[i] != 0)
        X[i][small] = np.sign(X[i][small]) * 1e-150
    elif move == 2:
        y[i] = -y[i]
    elif move == 3:
        X[i, rng.integers(0, X.shape[1])] *= -1.0
    else:
        X[i] += 1e-9 * np.abs(X[i]).max() * rng.standard_normal(X.shape[1])
    y[0], y[1] = 1.0, -1.0
    return X, y


def _params(setup, X, rng):
    algorithm, params = setup
    params = dict(params)
    R = float(_direct_norms(X).max())
    if params.get("r") == "small":
        params["r"] = 0.3 * (np.sqrt(2.0) - 1.0) * R * rng.uniform(0.0, 1.0)
    if params.get("a") == "scale":
        params["a"] = R * R * 10.0 ** rng.uniform(-2.0, 2.0)
    return algorithm, params


def _worst(run, X, y, u):
    """Largest mistakes / bound over the applicable rows; checks each row and its sums."""
    worst = 0.0
    reports = []
    # The SVM search at every scale: its fits see rows brought within 2^-40 .. 2^40 (issue 31).
    try:
        reports.append(evaluate(run, X, y))
    except ValueError as error:  # no comparator: the SVM's solution is zero
        assert "no SVM comparator" in str(error)
    if "kernel" not in run.params or run.params["kernel"] == "linear":
        reports.append(evaluate(run, X, y, u=u))
    for report in reports:
        for row in report.rows:
            if not row.applies:
                continue
            assert row.holds, (row, run.params, X.tolist(), y.tolist())
            worst = max(worst, row.mistakes / row.value if row.value > 0 else np.inf)
    if "kernel" not in run.params or run.params["kernel"] == "linear":
        _cross_check(run, X, y, u, reports[-1])
    return worst


def _cross_check(run, X, y, u, report):
    """R, D1 and D2 of the first-order rows against direct sums over the trials."""
    if run.algorithm not in ("perceptron", "voted_perceptron", "ballseptron"):
        return
    unit = u / np.linalg.norm(u / np.abs(u).max()) / np.abs(u).max()
    for row in report.rows:
        if not row.applies:
            continue
        trials = (np.arange(run.n_trials) if row.variant == "stated"
                  else np.asarray(run.update_trials))
        rows = run.sample_index[trials]
        margins = y[rows] * (X[rows] @ unit)
        d1, d2 = _direct_sums(margins, row.gamma)
        R = float(_direct_norms(X[rows]).max()) if rows.size else 0.0
        q = row.quantities
        assert q["R"] >= R * (1 - 1e-12), (row, R)
        if "D2" in q:
            assert q["D2"] >= d2 * (1 - 1e-9) - 1e-12 * R, (row, d2)
        if "D1" in q:
            assert q["D1"] >= d1 * (1 - 1e-9) - 1e-12 * R, (row, d1)


def _climb(seed, steps):
    rng = np.random.default_rng(seed)
    setup = SETUPS[seed % len(SETUPS)]
    kernel = "kernel" in setup[1]
    X, y, u = _sequence(rng, kernel)
    epochs = int(rng.integers(1, 4))
    best = -1.0
    for _ in range(steps):
        algorithm, params = _params(setup, X, rng)
        run = run_online(algorithm, X, y, epochs=epochs, **params)
        ratio = _worst(run, X, y, u)
        assert ratio <= 1.0 + HOLDS_RTOL
        if ratio >= best:
            best, kept = ratio, (X, y)
        X, y = _mutate(rng, *kept, kernel)
    return best


@pytest.mark.parametrize("seed", range(28))
def test_no_violation_at_the_numerical_edges(seed):
    assert _climb(seed, steps=4) <= 1.0 + HOLDS_RTOL


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1000, 1300))
def test_no_violation_at_the_numerical_edges_slow(seed):
    assert _climb(seed, steps=12) <= 1.0 + HOLDS_RTOL
