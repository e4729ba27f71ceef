"""Closed forms, quantities, evaluate() and the report of perceptron_bounds.bounds."""

import doctest
import importlib
import json

import numpy as np
import pytest
import scipy.sparse as sp

from perceptron_bounds import run_online
from perceptron_bounds.bounds import (
    BoundReport,
    HingeProfile,
    ballseptron_beta,
    ballseptron_corrected,
    ballseptron_d1,
    evaluate,
    freund_schapire,
    higher_order_bound,
    hinge_losses,
    hop_alpha,
    hop_c_run,
    hop_transformed_hinge,
    mistake_spectrum,
    novikoff,
    pnorm_d1,
    pnorm_d2,
    pnorm_separable,
    run_quantities,
    second_order_adaptive_bound,
    second_order_bound,
    second_order_pinv_bound,
    span_spectrum,
)
from perceptron_bounds.bounds.report import holds
from perceptron_bounds.datasets import make_separable
from perceptron_bounds.kernels import Kernel

GAMMAS = np.geomspace(0.01, 2.0, 37)


# --- closed forms -------------------------------------------------------------------------------


def test_closed_forms_known_values():
    assert novikoff(2.0, 0.5) == pytest.approx(16.0)
    assert freund_schapire(1.0, 0.5, 1.0) == pytest.approx(16.0)
    assert ballseptron_d1(3.0, 1.0, 4.0) == pytest.approx(25.0)
    assert ballseptron_d1(3.0, 1.0, 4.0, exact=True) == pytest.approx(16.0)
    assert ballseptron_beta(0.0, 1.0) == pytest.approx(0.5)
    assert ballseptron_corrected(1.0, 0.5, 0.0, 0.0, 4) == pytest.approx(4.0 - 2.0)
    assert ballseptron_corrected(1.0, 1.0, 4.0, 0.25, 2, loss="d1") == pytest.approx(
        9.0 - 2 * (0.5 - 0.25 - 0.25**2 / 2))
    assert hop_alpha(0.5) == pytest.approx(3.0)
    assert higher_order_bound(1.0, 0.0, 1.0) == pytest.approx(1.0)
    # p > 2: b = alpha sqrt(p - 1) radius; with D = 0 the bound is b^2 / gamma^2.
    assert higher_order_bound(2.0, 0.0, 0.5, p=5.0, radius=1.5) == pytest.approx(144.0)
    assert pnorm_separable(2.0, 3.0, 0.5) == pytest.approx(32.0)
    assert pnorm_d2(1.0, 5.0, 0.5, 1.0) == pytest.approx(36.0)
    assert pnorm_d1(1.0, 5.0, 1.0, 3.0) == pytest.approx(9.0)  # root of m - 3 = 2 sqrt(m)
    assert second_order_bound([np.e - 1.0], 1.0, 3.0, 0.0, 1.0) == pytest.approx(2.0)
    assert second_order_pinv_bound([2.0, 8.0], 2.0, 1.0, 1.0, 0.5) == pytest.approx(
        2.0 + 2.0 * np.sqrt(2.0 + np.log(4.0)))
    a_m = 0.5 * 4.0 * 3
    spectral = np.log1p(3.0 / a_m) + (1 + np.log(3)) / 0.5
    expected = 0.4 / 0.2 + np.sqrt((a_m + 2.0) * spectral) / 0.2
    value = second_order_adaptive_bound([0.0, 3.0], 0.5, 2.0, 3, 2.0, 0.4, 0.2)
    assert value == pytest.approx(expected)


def test_closed_forms_vectorise_over_gamma():
    D = np.linspace(0.0, 3.0, GAMMAS.shape[0])
    for values in (novikoff(1.5, GAMMAS), freund_schapire(1.5, GAMMAS, D),
                   ballseptron_d1(1.5, GAMMAS, D), ballseptron_d1(1.5, GAMMAS, D, exact=True),
                   ballseptron_corrected(1.5, GAMMAS, D, 0.001, 3),
                   ballseptron_corrected(1.5, GAMMAS, D, 0.001, 3, loss="d1", exact=True),
                   higher_order_bound(2.0, D, GAMMAS),
                   higher_order_bound(2.0, D, GAMMAS, p=7.0, radius=1.2),
                   pnorm_separable(1.5, 4.0, GAMMAS), pnorm_d2(1.5, 4.0, GAMMAS, D),
                   pnorm_d1(1.5, 4.0, GAMMAS, D),
                   second_order_bound([1.0, 2.0], 0.5, 1.0, D, GAMMAS)):
        assert values.shape == GAMMAS.shape
        assert np.all(np.isfinite(values))
    single = [float(ballseptron_corrected(1.5, g, d, 0.001, 3, exact=True))
              for g, d in zip(GAMMAS, D, strict=True)]
    np.testing.assert_allclose(ballseptron_corrected(1.5, GAMMAS, D, 0.001, 3, exact=True), single)


def test_exact_forms_reduce_to_the_perceptron_roots():
    D = np.linspace(0.0, 5.0, GAMMAS.shape[0])
    np.testing.assert_allclose(ballseptron_corrected(1.3, GAMMAS, D, 0.0, 0, exact=True),
                               freund_schapire(1.3, GAMMAS, D), rtol=1e-9)
    np.testing.assert_allclose(ballseptron_corrected(1.3, GAMMAS, D, 0.0, 0, "d1", exact=True),
                               ballseptron_d1(1.3, GAMMAS, D, exact=True), rtol=1e-9)
    # alpha = 1 (c = 1, rho = 0) is the Perceptron's D1 bound in exact form (R = 1).
    np.testing.assert_allclose(higher_order_bound(1.0, D, GAMMAS),
                               ballseptron_d1(1.0, GAMMAS, D, exact=True), rtol=1e-12)


def _proof_gap(m, R, gamma, r, eps, D, loss):
    """Left side of paper 004 eq. (11) (loss d2) or eq. (16) (loss d1) at m mistakes."""
    common = m * gamma + eps * (gamma - r) - np.sqrt(m * R**2 + eps * (R**2 + r**2))
    return common - (D * np.sqrt(m + eps) if loss == "d2" else D)


def test_exact_forms_never_exceed_stated_ones_under_the_conditions():
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(300):
        R = rng.uniform(0.1, 3.0)
        gamma = rng.uniform(0.01, 1.0) * R
        r = rng.uniform(0.0, 0.999) * (np.sqrt(2.0) - 1.0) * gamma
        eps = int(rng.integers(0, 50))
        D = rng.exponential(2.0)
        for loss in ("d2", "d1"):
            exact = float(ballseptron_corrected(R, gamma, D, r, eps, loss, exact=True))
            if abs(_proof_gap(exact, R, gamma, r, eps, D, loss)) > 1e-8 * (1 + exact):
                continue  # no m >= 0 meets the proof's inequality: no run has these numbers
            checked += 1
            stated = ballseptron_corrected(R, gamma, D, r, eps, loss)
            assert exact <= stated * (1 + 1e-9) + 1e-9
        assert ballseptron_d1(R, gamma, D, exact=True) <= ballseptron_d1(R, gamma, D)
    assert checked > 300


def test_implicit_root_solves_the_proof_inequality():
    R, gamma, r, eps, D2 = 1.0, 0.3, 0.05, 7, 2.5
    m = float(ballseptron_corrected(R, gamma, D2, r, eps, exact=True))
    assert abs(_proof_gap(m, R, gamma, r, eps, D2, "d2")) < 1e-9
    assert _proof_gap(m * 1.001, R, gamma, r, eps, D2, "d2") > 0 and m > 0


def test_corrected_rejects_unknown_loss():
    with pytest.raises(ValueError, match="loss"):
        ballseptron_corrected(1.0, 0.5, 1.0, 0.0, 1, loss="d3")


# --- quantities ---------------------------------------------------------------------------------


def test_hinge_losses_and_profile_agree():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((40, 4))
    y = np.where(rng.random(40) < 0.5, -1.0, 1.0)
    u = rng.standard_normal(4)
    u /= np.linalg.norm(u)
    margins = y * (X @ u)
    gammas = np.concatenate([GAMMAS, np.abs(margins[:5])])
    losses = hinge_losses(X, y, u, gammas)
    assert losses.shape == (gammas.shape[0], 40)
    np.testing.assert_allclose(losses[3], np.maximum(0.0, gammas[3] - margins))
    np.testing.assert_allclose(hinge_losses(X, y, u, 0.7), np.maximum(0.0, 0.7 - margins))
    profile = HingeProfile(margins)
    np.testing.assert_allclose(profile.d1(gammas), losses.sum(axis=1), atol=1e-12)
    np.testing.assert_allclose(profile.d2(gammas), np.sqrt((losses**2).sum(axis=1)), atol=1e-9)
    assert profile.min_margin == margins.min()
    with pytest.raises(ValueError, match="gamma"):
        hinge_losses(X, y, u, -1.0)
    with pytest.raises(ValueError, match="gamma"):
        hinge_losses(X, y, u, np.array([0.1, 0.0]))


@pytest.mark.parametrize("shape", [(30, 4), (3, 8)])
def test_mistake_spectrum_uses_the_smaller_matrix(shape):
    X = np.random.default_rng(2).standard_normal(shape)
    expected = np.linalg.eigvalsh(X @ X.T)
    expected = np.concatenate([np.zeros(max(0, shape[1] - shape[0])), expected])
    got = mistake_spectrum(X, Kernel())
    nonzero = np.sort(expected)[-min(shape):]
    np.testing.assert_allclose(got[-min(shape):], nonzero, atol=1e-9)
    assert got.shape[0] == min(shape)
    sparse = mistake_spectrum(sp.csr_matrix(X), Kernel())
    np.testing.assert_allclose(sparse, got, atol=1e-9)
    rbf = Kernel("rbf", gamma=0.3)
    np.testing.assert_allclose(mistake_spectrum(X, rbf), np.linalg.eigvalsh(rbf.gram(X, X)),
                               atol=1e-9)


def _brute_lambda_star(Xm, kernel, rtol=1e-9):
    low = np.inf
    for k in range(1, Xm.shape[0] + 1):
        lam = np.linalg.eigvalsh(kernel.gram(Xm[:k], Xm[:k]))
        positive = lam[lam > rtol * max(lam.max(), 1e-300)]
        low = min(low, positive.min())
    return low, np.sort(positive)


@pytest.mark.parametrize("kernel", [Kernel(), Kernel("rbf", gamma=0.5),
                                    Kernel("poly", degree=2, gamma=1.0, coef0=1.0)])
def test_span_spectrum_matches_eigendecompositions_of_every_prefix(kernel):
    rng = np.random.default_rng(3)
    for _ in range(4):
        n, m = int(rng.integers(2, 5)), int(rng.integers(2, 12))
        Xm = rng.standard_normal((m, n))
        Xm = np.vstack([Xm, 2.0 * Xm[:2], Xm[:1] - Xm[1:2]])[rng.permutation(m + 3)]
        eig, lambda_star = span_spectrum(Xm, kernel)
        expected_star, expected_eig = _brute_lambda_star(Xm, kernel)
        np.testing.assert_allclose(eig, expected_eig, rtol=1e-7)
        assert lambda_star == pytest.approx(expected_star, rel=1e-7)


def test_span_spectrum_follows_the_runs_rank_decisions():
    X, y, _ = make_separable(60, 3, margin=0.05, label_noise=0.2, seed=4)
    run = run_online("second_order", X, y, epochs=3, variant="pinv")
    Xm = X[run.mistake_rows]
    eig, lambda_star = span_spectrum(Xm, Kernel(), rank_growth=run.state["rank_growth"])
    assert eig.shape[0] == run.state["rank"] == 3
    expected_star, expected_eig = _brute_lambda_star(Xm, Kernel())
    np.testing.assert_allclose(eig, expected_eig, rtol=1e-7)
    assert lambda_star == pytest.approx(expected_star, rel=1e-7)
    assert span_spectrum(np.zeros((0, 3)), Kernel())[1] == np.inf


def _recorded_calls(monkeypatch, name):
    """The matrices scipy.linalg's function ``name`` is called on, while the test runs."""
    import scipy.linalg

    calls, original = [], getattr(scipy.linalg, name)
    monkeypatch.setattr(scipy.linalg, name,
                        lambda A, *args, **kwargs: calls.append(A.copy()) or original(
                            A, *args, **kwargs))
    return calls


@pytest.fixture
def eigvalsh_calls(monkeypatch):
    """The matrices scipy.linalg.eigvalsh is called on."""
    return _recorded_calls(monkeypatch, "eigvalsh")


@pytest.fixture
def svdvals_calls(monkeypatch):
    """The matrices scipy.linalg.svdvals is called on (the pseudoinverse bound's spectra)."""
    return _recorded_calls(monkeypatch, "svdvals")


def test_each_matrix_is_decomposed_once(eigvalsh_calls, svdvals_calls):
    X, y, u = make_separable(300, 6, margin=0.05, label_noise=0.1, seed=6)
    for variant in ("inverse", "adaptive", "pinv"):
        eigvalsh_calls.clear()
        evaluate(run_online("second_order", X, y, variant=variant), X, y)  # 5 SVM comparators
        if variant != "pinv":  # pinv: one more per run of rank increases (lambda*)
            assert len(eigvalsh_calls) == 1
        for i, A in enumerate(eigvalsh_calls):
            assert not any(A.shape == B.shape and np.allclose(A, B) for B in eigvalsh_calls[:i])
    eigvalsh_calls.clear()
    svdvals_calls.clear()
    eig, lambda_star = span_spectrum(np.eye(3), Kernel())  # the rank rises at the last mistake
    # the span's spectrum: singular values of its triangular factor, taken once
    assert len(svdvals_calls) == 1 and not eigvalsh_calls and lambda_star == pytest.approx(1.0)


def test_run_quantities_over_each_set_of_trials():
    X, y, u = make_separable(80, 4, margin=0.05, label_noise=0.2, seed=7)
    run = run_online("ballseptron", X, y, epochs=2, r=0.05)
    assert run.margin_errors > 0
    losses = hinge_losses(X, y, u, 0.1)
    norms = np.linalg.norm(X, axis=1)
    for trials, rows in (("all", run.sample_index), ("mistakes", run.mistake_rows),
                         ("updates", run.sample_index[run.update_trials])):
        q = run_quantities(run, X, y, 2.0 * u, 0.1, trials=trials)
        assert q["n_trials"] == rows.shape[0]
        assert q["R"] == pytest.approx(norms[rows].max())
        assert q["D1"] == pytest.approx(losses[rows].sum())
        assert q["D2"] == pytest.approx(np.sqrt((losses[rows] ** 2).sum()))
    with pytest.raises(ValueError, match="trials"):
        run_quantities(run, X, y, u, 0.1, trials="some")
    with pytest.raises(ValueError, match="gamma"):
        run_quantities(run, X, y, u, -0.1)
    with pytest.raises(ValueError, match="nonzero"):
        run_quantities(run, X, y, np.zeros(4), 0.1)


def test_hop_c_run_is_the_proofs_constant():
    X, y, _ = make_separable(80, 4, margin=0.05, label_noise=0.2, seed=8)
    run = run_online("higher_order", X, y, epochs=2, c=0.3)
    r_k = 1.0 - run.state["rho"] * (1.0 + run.state["y_v_x"])
    assert hop_c_run(run) == pytest.approx(np.min(np.minimum(r_k, 2.0 - r_k)))
    assert hop_c_run(run) <= 0.7 + 1e-12  # r_1 = 1 - rho_1 = 1 - c at the first mistake


def test_hop_transformed_hinge_is_theorem_1s_D():
    from perceptron_bounds.bounds import transformed_instances

    X, y, u = make_separable(80, 4, margin=0.05, label_noise=0.2, seed=9)
    run = run_online("higher_order", X, y, epochs=2, c=0.3)
    margins = transformed_instances(run, X, y) @ u
    D = hop_transformed_hinge(run, X, y, 2.0 * u, 0.1)
    assert D == pytest.approx(np.maximum(0.0, 0.1 - margins).sum())
    row = evaluate(run, X, y, u=u, gamma=0.1).row("higher_order")
    assert row.quantities["D"] == pytest.approx(D)
    with pytest.raises(ValueError, match="higher_order"):
        hop_transformed_hinge(run_online("perceptron", X, y), X, y, u, 0.1)
    with pytest.raises(ValueError, match="gamma"):
        hop_transformed_hinge(run, X, y, u, 0.0)
    with pytest.raises(ValueError, match="nonzero"):
        hop_transformed_hinge(run, X, y, np.zeros(4), 0.1)


# --- evaluate -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def separable():
    return make_separable(300, 6, margin=0.1, seed=5)


@pytest.fixture(scope="module")
def noisy():
    return make_separable(300, 6, margin=0.05, label_noise=0.1, seed=6)


def _names(report):
    return [(row.name, row.variant) for row in report.rows]


def test_perceptron_on_separable_data_with_its_target(separable):
    X, y, u = separable
    run = run_online("perceptron", X, y, epochs=4)
    report = evaluate(run, X, y, target=u)
    assert _names(report) == [(n, v) for v in ("stated", "tightened")
                              for n in ("novikoff", "freund_schapire", "ballseptron_d1")]
    row = report.row("novikoff")
    margin = float((y * (X @ u)).min())
    assert row.applies and row.holds and row.comparator == "target"
    assert row.gamma == pytest.approx(margin)
    assert row.value == pytest.approx(1.0 / margin**2)
    assert report.row("freund_schapire").value <= row.value * (1 + 1e-9)
    for r in report.rows:
        assert r.applies and r.holds and r.mistakes == run.mistakes


def test_given_gamma_reproduces_the_closed_forms(noisy):
    X, y, u = noisy
    run = run_online("perceptron", X, y, epochs=2, shuffle=True, seed=1)
    gamma = 0.07
    report = evaluate(run, X, y, u=3.0 * u, gamma=gamma)
    losses = hinge_losses(X, y, u, gamma)[run.sample_index]
    R = np.linalg.norm(X, axis=1).max()
    fs = report.row("freund_schapire")
    assert fs.gamma == gamma and fs.comparator == "given"
    assert fs.value == pytest.approx(float(freund_schapire(R, gamma, np.sqrt(np.sum(losses**2)))))
    assert fs.quantities["D2"] == pytest.approx(np.sqrt(np.sum(losses**2)))
    updates = hinge_losses(X, y, u, gamma)[run.sample_index[run.update_trials]]
    tight = report.row("ballseptron_d1", "tightened")
    R_u = np.linalg.norm(X[run.mistake_rows], axis=1).max()
    assert tight.value == pytest.approx(float(ballseptron_d1(R_u, gamma, updates.sum(),
                                                             exact=True)))
    nov = report.row("novikoff")
    assert not nov.applies and "separates" in nov.reason and nov.value is None
    assert nov.holds is None and nov.ratio is None


def test_gamma_search_is_no_worse_than_any_given_gamma(noisy):
    X, y, u = noisy
    run = run_online("perceptron", X, y, epochs=3)
    searched = evaluate(run, X, y, u=u)
    for gamma in (0.01, 0.05, 0.2, 0.5):
        fixed = evaluate(run, X, y, u=u, gamma=gamma)
        for row in fixed.rows:
            if row.applies:
                best = searched.row(row.name, row.variant)
                assert best.value <= row.value * (1 + 1e-9)


def test_ballseptron_rows_and_conditions(noisy):
    X, y, u = noisy
    run = run_online("ballseptron", X, y, epochs=3, r=0.01)
    assert run.margin_errors > 0
    report = evaluate(run, X, y, target=u)
    names = {name for name, _ in _names(report)}
    assert names == {"novikoff", "freund_schapire", "ballseptron_d1",
                     "ballseptron_corrected_d2", "ballseptron_corrected_d1"}
    for row in report.rows:
        assert row.holds in (True, None)
        if row.applies and row.variant == "stated" and row.name != "novikoff":
            assert row.gamma > 0.01 / (np.sqrt(2) - 1)
    stated = report.row("ballseptron_corrected_d2")
    assert stated.quantities["margin_errors"] == run.margin_errors
    assert stated.value <= report.row("freund_schapire").value
    wide = run_online("ballseptron", X, y, epochs=1, r=5.0)
    far = evaluate(wide, X, y, target=u)
    assert not far.row("freund_schapire").applies
    assert "sqrt2" in far.row("freund_schapire").reason
    at = evaluate(run, X, y, u=u, gamma=2.0)
    assert "gamma <= R" in at.row("ballseptron_d1").reason


@pytest.mark.parametrize("variant, name", [("inverse", "second_order"),
                                           ("adaptive", "second_order_adaptive"),
                                           ("pinv", "second_order_pinv")])
def test_second_order_rows(noisy, variant, name):
    X, y, u = noisy
    run = run_online("second_order", X, y, epochs=2, variant=variant, a=0.5, c=0.3)
    report = evaluate(run, X, y, target=u)
    assert _names(report) == [(name, "stated"), (name, "tightened")]
    for row in report.rows:
        assert row.applies and row.holds
    tight = report.row(name, "tightened")
    assert tight.quantities["u_energy"] == pytest.approx(
        float(np.sum((X[run.mistake_rows] @ u) ** 2)))
    assert ("derived" in tight.source) == (variant != "inverse")
    # As stated (theory §4.1) D runs over all T trials; tightened (theory §4.2) over the mistakes.
    losses = hinge_losses(X, y, u, 0.1)
    fixed = evaluate(run, X, y, u=u, gamma=0.1)
    assert fixed.row(name).quantities["D"] == pytest.approx(losses[run.sample_index].sum())
    assert fixed.row(name, "tightened").quantities["D"] == pytest.approx(
        losses[run.mistake_rows].sum())


def test_higher_order_rows_and_reasons(noisy):
    X, y, u = noisy
    run = run_online("higher_order", X, y, epochs=2, c=0.4)
    report = evaluate(run, X, y, target=u)
    stated, tight = report.row("higher_order"), report.row("higher_order", "tightened")
    assert stated.applies and tight.applies and stated.holds and tight.holds
    assert stated.quantities["c"] == pytest.approx(0.6)
    assert tight.quantities["c"] >= stated.quantities["c"] - 1e-12
    p3 = evaluate(run_online("higher_order", X, y, p=3.0), X, y, target=u)
    for row in p3.rows:
        assert row.applies and row.holds and "p > 2 (derived)" in row.source
        assert row.quantities["p"] == 3.0 and row.quantities["transformed_R_p"] > 0
    raw = run_online("higher_order", 2.0 * X, y, normalize=False)
    assert "unit norm" in evaluate(raw, 2.0 * X, y, target=u).row("higher_order").reason
    raw3 = run_online("higher_order", 2.0 * X, y, normalize=False, p=3.0)
    reason = evaluate(raw3, 2.0 * X, y, target=u).row("higher_order", "tightened").reason
    assert "unit p-norm" in reason and "||x||_p" in reason


@pytest.mark.parametrize(
    "algorithm, params",
    [("perceptron", {}), ("voted_perceptron", {}), ("ballseptron", {"r": 0.05}),
     ("pnorm", {}), ("pnorm", {"p": 4.0}), ("higher_order", {}),
     ("higher_order", {"p": 3.0}), ("second_order", {}),
     ("second_order", {"variant": "adaptive"}), ("second_order", {"variant": "pinv"})],
)
def test_warm_started_runs_are_not_bounded(noisy, algorithm, params):
    X, y, u = noisy
    first = run_online(algorithm, X, y, **params)
    assert not first.warm_started
    warm = run_online(algorithm, X, y, warm_start=first)
    assert warm.warm_started
    report = evaluate(warm, X, y, target=u)
    assert report.rows
    for row in report.rows:
        assert not row.applies and "warm" in row.reason


def test_pnorm_perceptron_rows(noisy):
    """p = 2: the Perceptron's rows and the p-norm ones; p > 2: the p-norm ones (theory §4.1)."""
    X, y, u = noisy
    two = evaluate(run_online("pnorm", 3.0 * X, y, p=2.0), 3.0 * X, y, target=u)
    assert all(r.holds for r in two.rows if r.applies)
    assert two.row("freund_schapire").quantities["R"] == pytest.approx(1.0)
    pnorm_names = [(n, v) for v in ("stated", "tightened")
                   for n in ("pnorm_separable", "pnorm_d2", "pnorm_d1")]
    assert _names(two)[6:] == pnorm_names
    three = evaluate(run_online("pnorm", X, y, p=3.0, epochs=2), X, y, target=u)
    assert _names(three) == pnorm_names
    assert not three.row("pnorm_separable").applies  # noisy: u separates no trial set
    for row in three.rows[1:3] + three.rows[4:]:
        assert row.applies and row.holds and row.quantities["R_p"] == pytest.approx(1.0)
        assert row.quantities["q"] == pytest.approx(1.5)
    assert "derived" in three.row("pnorm_d2").source
    assert any("unit q-norm" in note for note in three.notes)


def test_svm_comparator_and_kernel_runs(noisy):
    X, y, u = noisy
    run = run_online("perceptron", X, y, epochs=2)
    svm = evaluate(run, X, y)
    assert all(r.comparator.startswith("svm C=") for r in svm.rows)
    assert any("SVM" in note for note in svm.notes)
    kernel_run = run_online("perceptron", X, y, kernel="rbf", gamma=0.5)
    report = evaluate(kernel_run, X, y, target=u)
    assert all(r.comparator.startswith("kernel svm") for r in report.rows)
    assert any("feature space" in note for note in report.notes)
    assert report.row("freund_schapire").holds
    assert report.row("freund_schapire").quantities["R"] == pytest.approx(1.0)
    so = evaluate(run_online("second_order", X, y, kernel="poly", degree=2), X, y)
    assert all(r.holds for r in so.rows)
    ho = evaluate(run_online("higher_order", X, y, kernel="rbf", gamma=0.5), X, y)
    assert all(r.holds for r in ho.rows)


def test_labels_and_sparse_input(noisy):
    X, y, u = noisy
    labels = np.where(y > 0, "spam", "ham")
    run = run_online("perceptron", sp.csr_matrix(X), labels, epochs=2)
    report = evaluate(run, sp.csr_matrix(X), labels, target=u)
    dense = evaluate(run_online("perceptron", X, y, epochs=2), X, y, target=u)
    for a, b in zip(report.rows, dense.rows, strict=True):
        assert a.applies == b.applies and (a.value == pytest.approx(b.value) if a.applies else 1)


def test_higher_order_dual_run_on_csr_x(noisy):
    """A dual HO run keeps CSR supports sparse: its transformed sequence and bound are the
    dense run's."""
    from perceptron_bounds.bounds import transformed_instances, transformed_margins

    X, y, u = noisy
    sparse = run_online("higher_order", sp.csr_matrix(X), y, form="dual", epochs=2)
    dense = run_online("higher_order", X, y, form="dual", epochs=2)
    assert sp.issparse(sparse.state["support"])
    np.testing.assert_allclose(transformed_margins(sparse, sp.csr_matrix(X), y, u),
                               transformed_margins(dense, X, y, u), atol=1e-12)
    np.testing.assert_allclose(transformed_instances(sparse, sp.csr_matrix(X), y),
                               transformed_instances(dense, X, y), atol=1e-12)
    a = evaluate(sparse, sp.csr_matrix(X), y, target=u).row("higher_order", "tightened")
    b = evaluate(dense, X, y, target=u).row("higher_order", "tightened")
    assert a.applies and a.value == pytest.approx(b.value, rel=1e-12)


def test_evaluate_rejects_bad_input(noisy):
    X, y, u = noisy
    run = run_online("perceptron", X, y)
    with pytest.raises(TypeError, match="OnlineRun"):
        evaluate("run", X, y)
    with pytest.raises(ValueError, match="comparator"):
        evaluate(run, X, y, comparator="best")
    with pytest.raises(ValueError, match="target"):
        evaluate(run, X, y, comparator="target")
    with pytest.raises(ValueError, match="gamma"):
        evaluate(run, X, y, gamma=0.0)
    for extreme in (1e-300, 1e300):  # overflow is an infinite bound, without a warning
        report = evaluate(run, X, y, u=u, gamma=extreme)
        assert all(row.reason for row in report.rows if not row.applies)
        assert all(np.isfinite(row.value) for row in report.rows if row.applies)
    with pytest.raises(ValueError, match="shape"):
        evaluate(run, X, y, u=np.ones(3))
    with pytest.raises(ValueError, match="nonzero"):
        evaluate(run, X, y, u=np.zeros(6))
    with pytest.raises(ValueError, match="rows"):
        evaluate(run, X[:10], y[:10])
    kernel_run = run_online("perceptron", X, y, kernel="rbf")
    with pytest.raises(ValueError, match="kernel"):
        evaluate(kernel_run, X, y, u=u)
    with pytest.raises(ValueError, match="linear-kernel"):
        evaluate(kernel_run, X, y, comparator="target", target=u)


def test_report_table_records_and_json(noisy):
    X, y, u = noisy
    run = run_online("ballseptron", X, y, epochs=2, r=0.01)
    report = evaluate(run, X, y, target=u)
    assert isinstance(report, BoundReport)
    text = str(report)
    assert text.splitlines()[0].startswith(f"ballseptron: {run.mistakes} mistakes")
    assert "not applicable" in text and "ballseptron_corrected_d1" in text
    records = report.to_records()
    assert len(records) == len(report.rows) == 10
    for record in records:
        for key in ("name", "variant", "value", "margin_gamma", "applies", "reason", "mistakes",
                    "holds", "algorithm"):
            assert key in record
    assert records[1]["R"] > 0 and "D2" in records[1]
    payload = json.loads(report.to_json())
    assert payload["mistakes"] == run.mistakes and len(payload["bounds"]) == 10
    assert "NaN" not in report.to_json() and "Infinity" not in report.to_json()
    with pytest.raises(KeyError):
        report.row("higher_order")


def test_holds_allows_rounding_only():
    assert holds(100, 100.00000000000001) and holds(100, 99.99999999999)
    assert not holds(100, 99.99)


@pytest.mark.parametrize("module", ["first_order", "ballseptron", "second_order", "higher_order",
                                    "pnorm", "search", "transformed", "quantities", "evaluate"])
def test_docstring_examples_run(module):
    """The Examples sections state the closed forms' values: doctested so they cannot drift."""
    result = doctest.testmod(importlib.import_module(f"perceptron_bounds.bounds.{module}"))
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("variant", ["inverse", "pinv"])
def test_a_failed_eigensolver_makes_the_second_order_bound_not_applicable(monkeypatch, variant):
    """LAPACK's eigensolver (the pinv bound's SVD) can stop with 'Internal Error.' on
    ill-conditioned Gram matrices of mixed-scale data: evaluate reports the bound not
    applicable instead of raising."""
    import scipy.linalg

    from perceptron_bounds.bounds import spectra

    def failing(*args, **kwargs):
        raise scipy.linalg.LinAlgError("Internal Error.")

    monkeypatch.setattr(spectra.scipy.linalg, "eigvalsh", failing)
    monkeypatch.setattr(spectra.scipy.linalg, "svdvals", failing)
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 4)) * 10.0 ** rng.uniform(-3, 8, (30, 1))
    y = np.where(rng.standard_normal(30) > 0, 1, -1)
    run = run_online("second_order", X, y, kernel="rbf", gamma=0.5, variant=variant)
    rows = evaluate(run, X, y).rows
    assert rows and all(not row.applies and "Internal Error." in row.reason for row in rows)


def scaled_noisy_poly_run(seed, degree=2):
    """A poly-kernel run on rows of norm about 1e8 with 10% flipped labels: libsvm's fit of the
    kernel SVM comparator ran for minutes on such data (no iteration limit)."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((200, 5))
    y = np.where(X @ rng.standard_normal(5) > 0, 1, -1)
    y[rng.random(200) < 0.1] *= -1
    X *= 1e8
    return run_online("perceptron", X, y, kernel="poly", degree=degree), X, y


def test_the_kernel_svm_search_is_bounded_and_says_when_it_stopped_early():
    from perceptron_bounds.bounds import search

    for seed in range(12):
        run, X, y = scaled_noisy_poly_run(seed)
        report = evaluate(run, X, y)  # bounded by SVC_MAX_ITER, not by a timed assertion
        assert any(f"max_iter={search.SVC_MAX_ITER}" in note for note in report.notes), seed
        assert all(row.holds is not False for row in report.rows), seed


def test_a_kernel_svm_with_non_finite_coefficients_is_refitted_on_the_scaled_gram():
    run, X, y = scaled_noisy_poly_run(0, degree=3)  # libsvm: "dual coefficients ... not finite"
    report = evaluate(run, X, y)
    assert any("refitted on the Gram scaled" in note for note in report.notes)
    assert all(row.holds is not False for row in report.rows)


def test_the_kernel_svm_search_stops_at_its_work_budget(monkeypatch, noisy):
    from perceptron_bounds.bounds import search
    from perceptron_bounds.kernels import kernel_of

    monkeypatch.setattr(search, "SVM_TOTAL_ITER", 0)
    X, y, _ = noisy
    run = run_online("perceptron", X, y, kernel="rbf", gamma=0.5)
    comps = search.svm_comparators(X, y, kernel_of(run.params))
    assert len(comps) == 1 and "skipped C=0.1,1,10,100 after " in comps[0].note
    assert any("skipped C=0.1" in note for note in evaluate(run, X, y).notes)


def test_the_svm_comparators_are_the_same_in_every_process():
    # liblinear's Crammer-Singer solver drew its coordinate order from NumPy's global state
    # (no random_state): two processes with one seed reported different bounds.
    import subprocess
    import sys

    code = ("import numpy as np; from perceptron_bounds import run_online; "
            "from perceptron_bounds.bounds import evaluate; np.random.seed({}); "
            "rng = np.random.default_rng(0); "
            "X = rng.standard_normal((300, 8)) * rng.uniform(0.1, 10, 8); "
            "y = np.argmax(X[:, :3] + 3 * rng.standard_normal((300, 3)), axis=1); "
            "run = run_online('perceptron', X, y, multiclass='native'); "
            "print(repr([row.value for row in evaluate(run, X, y, comparator='svm').rows]))")
    outs = {subprocess.run([sys.executable, "-c", code.format(seed)], capture_output=True,
                           text=True, check=True).stdout for seed in (1, 2)}
    assert len(outs) == 1
