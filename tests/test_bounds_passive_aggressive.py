"""The Passive-Aggressive bounds (theory §4.6; Crammer et al. 2006, Thms 2-5, Cor. 8).

Validity as property tests: thousands of generated runs (separable and noisy, duplicated
points, exactly tight data, zero rows, rows scaled from 1e-150 to 1e150, unit rows, linear,
poly and rbf kernels, CSR, 1-5 epochs, the three variants, C from 1e-3 to 1e3) with random
comparators and margins, each bound's stated and tightened form computed from quantities
taken in plain NumPy; 0 violations. Then the declarations end to end (``evaluate``,
``bounds_over_time``), the conversion from the paper's comparator, and the closed forms.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perceptron_bounds import run_online
from perceptron_bounds.bounds import (
    bounds_over_time,
    evaluate,
    pa1_mistakes,
    pa2_mistakes,
    pa_general,
    pa_separable,
)
from perceptron_bounds.kernels import kernel_of

# Generated runs per property test of the normal suite; the slow ones run SLOW_CASES.
CASES = 2000
NATIVE_CASES = 2000
SLOW_CASES = 20000
SLOW_NATIVE_CASES = 20000
# Relative slack for rounding in the closed forms and the run (M is an integer).
RTOL = 1e-9
UNIT_TOLERANCE = 1e-12


def _settings(n):
    return settings(max_examples=n, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _hinge(margins, gamma):
    return np.maximum(0.0, gamma - margins)


def _d2(losses):
    top = float(np.max(losses, initial=0.0))
    return 0.0 if top == 0.0 else top * float(np.sqrt(np.sum((losses / top) ** 2)))


def check_bounds(run, norms, margins, variant, C, gamma, factor=1.0):
    """Every PA bound of ``variant`` at ``gamma``, stated and tightened, against run.mistakes.

    ``norms`` and ``margins`` are per trial (||x_t|| and y_t u.x_t, or the multiclass margin);
    ``factor`` is sqrt(2) for a native run (Kesler's virtual instances). Returns the number of
    bounds checked.
    """
    M = run.mistakes
    norms = factor * norms
    upd = np.zeros(run.n_trials, dtype=bool)
    upd[run.update_trials] = True
    mis = np.zeros(run.n_trials, dtype=bool)
    mis[run.mistake_trials] = True
    with np.errstate(over="ignore", under="ignore"):  # inf: a true but empty bound
        return sum(_check_variant(M, norms, margins, upd, mis, variant, C, gamma, tightened)
                   for tightened in (False, True))


def _check_variant(M, norms, margins, upd, mis, variant, C, gamma, tightened):
    """The bounds of one variant (stated or tightened); returns how many were checked."""
    used = upd if tightened else np.ones(upd.shape[0], dtype=bool)
    R = float(norms[mis].max(initial=0.0) if tightened else norms.max(initial=0.0))
    losses = _hinge(margins[used], gamma)
    D1, D2 = float(losses.sum()), _d2(losses)
    bounds = []
    if variant == "pa":
        if gamma <= margins[used].min(initial=np.inf):
            bounds.append(pa_separable(R, gamma))
        if tightened and norms[used].min(initial=np.inf) > 0:
            bounds.append(pa_general(gamma, D2, R, norms[used].min(initial=np.inf), exact=True))
        if not tightened and np.all(np.abs(norms - 1.0) <= UNIT_TOLERANCE):
            bounds.append(pa_general(gamma, D2))
    elif variant == "pa1":
        bounds.append(pa1_mistakes(R, gamma, D1, C))
    else:
        bounds.append(pa2_mistakes(R, gamma, D2, C))
    for bound in map(float, bounds):
        assert not np.isnan(bound)
        assert M <= bound * (1.0 + RTOL) + RTOL, (variant, tightened, M, bound, gamma, C)
    return len(bounds)


def make_binary(seed):
    """A generated binary problem and its run parameters (see the module docstring)."""
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(2, 30)), int(rng.integers(1, 6))
    X = rng.standard_normal((n, d))
    u0 = rng.standard_normal(d)
    u0 /= np.linalg.norm(u0)
    mode = rng.choice(["plain", "duplicates", "tight", "scaled", "mixed", "unit", "zeros"])
    if mode == "duplicates":
        X = X[rng.integers(0, max(1, n // 3), n)]
    y = np.where(X @ u0 >= 0, 1.0, -1.0)
    if mode == "tight":  # every row at margin exactly gamma0 from u0 (up to rounding)
        gamma0 = float(rng.uniform(0.05, 1.0))
        X = X - np.outer(X @ u0, u0) + np.outer(y * gamma0, u0)
    flip = rng.random(n) < rng.choice([0.0, 0.0, 0.1, 0.3])
    y[flip] = -y[flip]
    if mode in ("scaled", "mixed"):  # norms in [0.5, 2] before the scale: inside the range
        # run_online accepts, [1.49e-154, 1.34e154] (a standard normal row of d = 1 is 0.01)
        X = X / np.linalg.norm(X, axis=1)[:, None] * rng.uniform(0.5, 2.0, n)[:, None]
    if mode == "scaled":
        X = X * 10.0 ** float(rng.choice([-150, -50, 50, 150]))
    elif mode == "mixed":  # rows of norms from 1e-150 to 1e150 in one run
        X = X * (10.0 ** rng.choice([-150.0, -75.0, 0.0, 75.0, 150.0], n))[:, None]
    elif mode == "unit":
        X = X / np.maximum(np.linalg.norm(X, axis=1), 1e-300)[:, None]
    elif mode == "zeros":
        X[rng.random(n) < 0.3] = 0.0
    if np.all(y == y[0]):
        y[0] = -y[0]
    kernel = "linear"
    if mode in ("plain", "duplicates", "unit", "zeros") and rng.random() < 0.3:
        kernel = str(rng.choice(["poly", "rbf"]))
    params = {"variant": str(rng.choice(["pa", "pa1", "pa2"])),
              "C": float(10.0 ** rng.uniform(-3, 3)), "kernel": kernel,
              "epochs": int(rng.integers(1, 6)), "shuffle": bool(rng.random() < 0.5),
              "seed": int(rng.integers(0, 1000))}
    if kernel != "linear":
        params.update(degree=2, gamma=0.5, coef0=1.0)
    sparse = bool(rng.random() < 0.25)
    return rng, X, y, u0, params, sparse


def comparator_margins(rng, run, X, y, u0):
    """Per-row norms ||x_i|| and margins y_i u.x_i of a random unit comparator in the run's
    feature space (a random combination of the rows for a kernel)."""
    kernel = kernel_of(run.params)
    if kernel.is_linear:
        u = u0 + rng.choice([0.0, 0.1, 1.0]) * rng.standard_normal(X.shape[1])
        u /= np.linalg.norm(u)
        return np.linalg.norm(X, axis=1), y * (X @ u)
    G = kernel.gram(X, X)
    beta = y * rng.random(X.shape[0]) + 0.3 * rng.standard_normal(X.shape[0])
    norm = np.sqrt(max(float(beta @ G @ beta), 1e-300))
    return np.sqrt(np.maximum(np.diag(G), 0.0)), y * (G @ beta) / norm


def random_gamma(rng, margins):
    positive = margins[margins > 0]
    scale = float(np.max(np.abs(margins), initial=0.0)) or 1.0
    if positive.size and rng.random() < 0.7:
        return float(rng.choice(positive)) * float(rng.choice([1.0, 1.0, rng.uniform(0.1, 2.0)]))
    return scale * float(10.0 ** rng.uniform(-3, 0))


def binary_case(seed):
    rng, X, y, u0, params, sparse = make_binary(seed)
    try:
        run = run_online("passive_aggressive", sp.csr_matrix(X) if sparse else X, y, **params)
    except ValueError as error:  # the exact scores left float64 (rows 1e-150 beside 1e150)
        assert "overflows float64" in str(error)
        return 0
    norms, margins = comparator_margins(rng, run, X, y, u0)
    rows = run.sample_index
    checked = 0
    for _ in range(3):
        gamma = random_gamma(rng, margins[rows])
        checked += check_bounds(run, norms[rows], margins[rows], params["variant"],
                                params["C"], gamma)
    return checked


def native_case(seed):
    rng = np.random.default_rng(seed)
    K, n, d = int(rng.integers(2, 6)), int(rng.integers(3, 30)), int(rng.integers(1, 5))
    X = rng.standard_normal((n, d))
    X[np.linalg.norm(X, axis=1) < 1e-3, 0] = 1.0  # scaled by 1e-150, a norm the runs accept
    X *= 10.0 ** float(rng.choice([0, 0, -150, 150]))
    U0 = rng.standard_normal((K, d))
    y = np.argmax(X @ U0.T + rng.choice([0.0, 0.3]) * rng.standard_normal((n, K)), axis=1)
    if rng.random() < 0.2:
        X = X[rng.integers(0, max(1, n // 3), n)]
        y = y[rng.integers(0, max(1, n // 3), n)]
    if np.unique(y).shape[0] < 2:
        y[0] = (y[0] + 1) % K
    kernel = "rbf" if rng.random() < 0.25 and abs(X).max() < 1e3 else "linear"
    variant = str(rng.choice(["pa", "pa1", "pa2"]))
    C = float(10.0 ** rng.uniform(-3, 3))
    run = run_online("passive_aggressive", sp.csr_matrix(X) if rng.random() < 0.25 else X, y,
                     multiclass="native", variant=variant, C=C, kernel=kernel, gamma=0.5,
                     epochs=int(rng.integers(1, 6)), shuffle=bool(rng.random() < 0.5), seed=1)
    index = np.searchsorted(run.classes, y)
    kern = kernel_of(run.params)
    if kern.is_linear:  # prototypes of unit Frobenius norm
        U = U0 + rng.choice([0.0, 0.5]) * rng.standard_normal((K, d))
        scores = X @ (U / np.linalg.norm(U)).T
        norms = np.linalg.norm(X, axis=1)
    else:
        G = kern.gram(X, X)
        B = rng.standard_normal((K, n))
        scores = G @ B.T / np.sqrt(np.einsum("qi,ij,qj->", B, G, B))
        norms = np.sqrt(np.diag(G))
    own = scores[np.arange(n), index]
    others = np.where(np.arange(run.classes.shape[0])[None, :] == index[:, None], -np.inf,
                      scores[:, :run.classes.shape[0]])
    mu = own - others.max(axis=1)
    rows = run.sample_index
    checked = 0
    for _ in range(3):
        gamma = random_gamma(rng, mu[rows])
        checked += check_bounds(run, norms[rows], mu[rows], variant, C, gamma,
                                factor=np.sqrt(2.0))
    return checked


@_settings(CASES)
@given(seed=st.integers(0, 2**32 - 1))
def test_binary_bounds_hold(seed):
    binary_case(seed)


@_settings(NATIVE_CASES)
@given(seed=st.integers(0, 2**32 - 1))
def test_native_bounds_hold(seed):
    native_case(seed)


@pytest.mark.slow
@_settings(SLOW_CASES)
@given(seed=st.integers(0, 2**32 - 1))
def test_binary_bounds_hold_slow(seed):
    binary_case(seed)


@pytest.mark.slow
@_settings(SLOW_NATIVE_CASES)
@given(seed=st.integers(0, 2**32 - 1))
def test_native_bounds_hold_slow(seed):
    native_case(seed)


def test_the_generator_covers_every_kind_and_checks_many_bounds():
    checked = sum(binary_case(seed) for seed in range(300))
    assert checked > 1000
    kinds = {make_binary(seed)[4]["kernel"] for seed in range(300)}
    assert kinds == {"linear", "poly", "rbf"}


@pytest.mark.parametrize("variant", ["pa", "pa1", "pa2"])
@pytest.mark.parametrize("multiclass", [None, "native"])
def test_evaluate_and_the_curves_hold(variant, multiclass):
    rng = np.random.default_rng(3)
    X = rng.standard_normal((80, 3))
    W = rng.standard_normal((3, 3))
    y = np.argmax(X @ W.T, axis=1) if multiclass else np.sign(X @ W[0])
    if variant == "pa" and not multiclass:
        X = X / np.linalg.norm(X, axis=1)[:, None]  # unit rows: Thm 3 applies as stated
    run = run_online("passive_aggressive", X, y, variant=variant, C=0.5, epochs=3,
                     multiclass=multiclass)
    report = evaluate(run, X, y)
    names = {"pa": {"pa_separable", "pa_general"}, "pa1": {"pa1_mistakes"},
             "pa2": {"pa2_mistakes"}}[variant]
    assert {row.name for row in report.rows} == names
    assert report.holds
    applicable = [row for row in report.rows if row.applies]
    assert {row.name for row in applicable} >= names - {"pa_separable"}
    for row in applicable:
        assert row.value >= run.mistakes
        assert row.source.startswith("CDK06" if not multiclass else "CDK06 sec. 7 + Kesler")
    if not multiclass:
        for tightened in ("stated", "tightened"):
            curves = bounds_over_time(run, X, y, variant=tightened)
            mistakes_so_far = np.cumsum(np.isin(np.arange(run.n_trials), run.mistake_trials))
            for curve in curves.values():
                assert np.all(curve >= mistakes_so_far - 1e-9)


def test_each_variant_reports_its_own_bounds_only():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.5]])
    y = np.array([1.0, -1.0, -1.0])
    for variant, names in (("pa", ["pa_separable", "pa_general"]), ("pa1", ["pa1_mistakes"]),
                           ("pa2", ["pa2_mistakes"])):
        run = run_online("passive_aggressive", X, y, variant=variant)
        assert list(dict.fromkeys(row.name for row in evaluate(run, X, y).rows)) == names


def test_thm3_needs_unit_rows_and_its_tightened_form_no_zero_instance():
    X = np.array([[2.0, 0.0], [0.0, 1.0], [0.0, 0.0], [1.0, 1.0]])
    y = np.array([1.0, -1.0, 1.0, -1.0])
    run = run_online("passive_aggressive", X, y, variant="pa")
    report = evaluate(run, X, y, u=np.array([1.0, -1.0]), gamma=0.5)
    stated = report.row("pa_general", "stated")
    tightened = report.row("pa_general", "tightened")
    assert not stated.applies and "needs ||x_t|| = 1" in stated.reason
    assert not tightened.applies and "zero instance" in tightened.reason
    unit = X[[0, 1, 3]] / np.linalg.norm(X[[0, 1, 3]], axis=1)[:, None]
    run = run_online("passive_aggressive", unit, y[[0, 1, 3]], variant="pa")
    report = evaluate(run, unit, y[[0, 1, 3]], u=np.array([1.0, -1.0]), gamma=0.5)
    assert report.row("pa_general", "stated").applies
    assert report.row("pa_general", "tightened").value <= report.row("pa_general").value


def test_the_conversion_from_the_papers_comparator():
    # the paper's bounds for u = u'/gamma with losses at margin 1 equal ours for (u', gamma)
    rng = np.random.default_rng(5)
    X = rng.standard_normal((40, 3))
    u_unit = rng.standard_normal(3)
    u_unit /= np.linalg.norm(u_unit)
    y = np.sign(rng.standard_normal(40))
    gamma, R, C = 0.3, float(np.linalg.norm(X, axis=1).max()), 0.7
    u = u_unit / gamma
    star = np.maximum(0.0, 1.0 - y * (X @ u))            # the paper's l*_t
    ours = np.maximum(0.0, gamma - y * (X @ u_unit))     # ours, at margin gamma
    D1, D2 = ours.sum(), np.sqrt(np.sum(ours**2))
    assert pa1_mistakes(R, gamma, D1, C) == pytest.approx(
        max(R**2, 1 / C) * (u @ u + 2 * C * star.sum()), rel=1e-12)                  # Thm 4
    assert pa2_mistakes(R, gamma, D2, C) == pytest.approx(
        (R**2 + 1 / (2 * C)) * (u @ u + 2 * C * np.sum(star**2)), rel=1e-12)           # Thm 5
    assert pa_general(gamma, D2) == pytest.approx(
        (np.linalg.norm(u) + 2 * np.sqrt(np.sum(star**2))) ** 2, rel=1e-12)            # Thm 3
    assert pa_separable(R, gamma) == pytest.approx(np.linalg.norm(u) ** 2 * R**2, rel=1e-12)


def test_the_bounds_are_tight_on_one_orthogonal_sequence():
    # N orthogonal unit rows of one label: PA makes N mistakes, and u = sum x / sqrt(N) has
    # margin 1/sqrt(N) on each: R^2/gamma^2 = N exactly
    N = 6
    X = np.eye(N)
    y = np.ones(N)
    y[0] = -1.0
    X[0] *= -1.0
    run = run_online("passive_aggressive", X, y, variant="pa")
    assert run.mistakes == N
    u = (y[:, None] * X).sum(axis=0) / np.sqrt(N)
    row = evaluate(run, X, y, u=u, gamma=1 / np.sqrt(N)).row("pa_separable")
    assert row.value == pytest.approx(N, rel=1e-12)
