"""Bounds for p > 2 (theory §4.1): the p-norm Perceptron and the Higher-Order Perceptron HO_p.

Both proofs rest on one inequality, the (p - 1)-smoothness of ||.||_p^2 / 2, checked here
directly; then each bound against a plain-NumPy computation of its quantities, p = 2
against the Perceptron's bounds bit for bit, the steps of the HO_p derivation on runs of
the explicit-matrix reference, and validity as property tests (thousands of generated
runs, p in {2.5, 3, 4, 7, 10}, 1-5 epochs, separable and noisy, random u and gamma).
"""

import numpy as np
import pytest
import reference
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perceptron_bounds import run_online
from perceptron_bounds._linalg import normalize_rows, row_norms
from perceptron_bounds.algorithms.pnorm import link
from perceptron_bounds.bounds import (
    ballseptron_d1,
    bounds_over_time,
    evaluate,
    freund_schapire,
    novikoff,
    pnorm_d1,
    pnorm_d2,
    pnorm_separable,
    run_quantities,
    transformed_instances,
    transformed_norms,
)
from perceptron_bounds.bounds import transformed as transformed_module
from perceptron_bounds.bounds.higher_order import hop_step_terms
from perceptron_bounds.bounds.search import svm_comparators, unit_comparator, vector_norm
from perceptron_bounds.datasets import make_hop_artificial, make_separable
from perceptron_bounds.experiments import epochs_curve
from perceptron_bounds.papers.higher_order import HOP_BOUNDS, hop_fig2
from perceptron_bounds.kernels import Kernel

P_VALUES = [2.5, 3.0, 4.0, 7.0, 10.0]
PNORM_NAMES = ["pnorm_separable", "pnorm_d2", "pnorm_d1"]
# Generated runs per property test of the normal suite; the slow one runs SLOW_CASES.
CASES = 1000
OVR_CASES = 100
SLOW_CASES = 20000


def _settings(n):
    return settings(max_examples=n, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def _pnorm(v, p):
    """||v||_p of a 1-D array, scaled against overflow and underflow."""
    return float(row_norms(np.ascontiguousarray(np.atleast_2d(v), dtype=np.float64), p)[0])


# --- the inequality behind both proofs ---------------------------------------------------------


finite = st.floats(-1e3, 1e3, allow_nan=False, allow_subnormal=False)


@_settings(500)
@given(p=st.one_of(st.sampled_from(P_VALUES), st.floats(2.0, 30.0)),
       pair=st.integers(1, 8).flatmap(lambda n: st.tuples(
           st.lists(finite, min_size=n, max_size=n), st.lists(finite, min_size=n, max_size=n))))
def test_the_potential_is_p_minus_1_smooth(p, pair):
    """||theta + z||_p^2 <= ||theta||_p^2 + 2 g(theta).z + (p - 1) ||z||_p^2 (theory §4.1)."""
    theta, z = (np.array(v, dtype=np.float64) for v in pair)
    lhs = _pnorm(theta + z, p) ** 2
    rhs = _pnorm(theta, p) ** 2 + 2.0 * float(link(theta, p) @ z) + (p - 1.0) * _pnorm(z, p) ** 2
    scale = (_pnorm(theta, p) + _pnorm(z, p)) ** 2
    assert lhs <= rhs + 1e-12 * scale, (p, theta, z, lhs, rhs)


def test_the_factor_p_minus_1_is_needed():
    """(1, 1) then (-1, 1), both labelled +1: two mistakes for every p, and R_p^2 / gamma^2
    = 2^(2/p) < 2 for the comparator e_2, so the bound needs its factor p - 1."""
    X, y, u = np.array([[1.0, 1.0], [1.0, -1.0]]), np.array([1.0, -1.0]), np.array([0.0, 1.0])
    for p in P_VALUES:
        run = run_online("pnorm", X, y, p=p, epochs=3)
        assert run.mistakes == 2
        row = evaluate(run, X, y, u=u).row("pnorm_separable")
        gamma = 2.0 ** (-1.0 / p)  # unit p-norm instances: y u.x = 2^(-1/p), R_p = 1
        assert row.gamma == pytest.approx(gamma) and row.quantities["R_p"] == pytest.approx(1.0)
        assert row.value == pytest.approx((p - 1.0) * 2.0 ** (2.0 / p)) and row.holds
        assert 1.0 / gamma**2 < run.mistakes


# --- p = 2 is the Perceptron -------------------------------------------------------------------


@pytest.fixture(scope="module")
def noisy():
    return make_separable(200, 6, margin=0.05, label_noise=0.1, seed=6)


@pytest.fixture(scope="module")
def separable():
    return make_separable(200, 6, margin=0.1, seed=5)


PAIRS = [("pnorm_separable", "novikoff"), ("pnorm_d2", "freund_schapire")]


def test_closed_forms_at_p2_are_the_euclidean_ones_bit_for_bit():
    gammas = np.geomspace(1e-3, 2.0, 41)
    D = np.linspace(0.0, 7.0, 41)
    R = 1.7
    assert np.array_equal(pnorm_separable(R, 2.0, gammas), novikoff(R, gammas))
    assert np.array_equal(pnorm_d2(R, 2.0, gammas, D), freund_schapire(R, gammas, D))
    assert np.array_equal(pnorm_d1(R, 2.0, gammas, D), ballseptron_d1(R, gammas, D, exact=True))
    # p > 2: the Euclidean forms at the radius sqrt(p - 1) R_p
    assert np.array_equal(pnorm_d1(R, 5.0, gammas, D),
                          ballseptron_d1(2.0 * R, gammas, D, exact=True))


@pytest.mark.parametrize("data", ["noisy", "separable"])
@pytest.mark.parametrize("normalize", [True, False])
@pytest.mark.parametrize("how", [{"target": True}, {"gamma": 0.07}, {}])
def test_p2_reproduces_the_first_order_values_exactly(request, data, normalize, how):
    X, y, target = request.getfixturevalue(data)
    X = 2.0 * X
    seen = normalize_rows(X, 2.0) if normalize else X
    pn = run_online("pnorm", X, y, p=2.0, normalize=normalize, epochs=3)
    fo = run_online("perceptron", seen, y, epochs=3)
    assert np.array_equal(pn.mistake_trials, fo.mistake_trials)
    kwargs = {"target": target} if how.get("target") else {"gamma": how.get("gamma")}
    a, b = evaluate(pn, X, y, **kwargs), evaluate(fo, seen, y, **kwargs)
    assert [(r.name, r.variant, r.value) for r in a.rows[:6]] == [
        (r.name, r.variant, r.value) for r in b.rows]
    for variant in ("stated", "tightened"):
        for name, first in PAIRS + ([("pnorm_d1", "ballseptron_d1")] if variant == "tightened"
                                    else []):
            row, expected = a.row(name, variant), b.row(first, variant)
            assert (row.applies, row.value, row.gamma) == (
                expected.applies, expected.value, expected.gamma), (name, variant)
    # Stated pnorm_d1 is the exact root over all trials, no larger than 004 Thm 2's form.
    stated = a.row("pnorm_d1")
    R = float(np.linalg.norm(seen, axis=1).max())
    D1 = stated.quantities["D1"]
    assert stated.value == ballseptron_d1(R, stated.gamma, D1, exact=True)
    if b.row("ballseptron_d1").applies and how.get("gamma"):
        assert stated.value <= b.row("ballseptron_d1").value


def test_p2_curves_are_the_perceptrons(noisy):
    X, y, target = noisy
    pn = run_online("pnorm", X, y, p=2.0, epochs=2)
    fo = run_online("perceptron", normalize_rows(X, 2.0), y, epochs=2)
    for variant in ("stated", "tightened"):
        a = bounds_over_time(pn, X, y, u=target, gamma=0.05, variant=variant)
        b = bounds_over_time(fo, normalize_rows(X, 2.0), y, u=target, gamma=0.05,
                             variant=variant)
        for name, first in PAIRS:
            assert np.array_equal(a[name], b[first])
        if variant == "tightened":
            assert np.array_equal(a["pnorm_d1"], b["ballseptron_d1"])


# --- the quantities, by hand -------------------------------------------------------------------


@pytest.mark.parametrize("p", [3.0, 7.0])
@pytest.mark.parametrize("normalize", [True, False])
def test_given_u_and_gamma_reproduce_the_formulas(noisy, p, normalize):
    X, y, u = noisy
    X = X * np.random.default_rng(0).uniform(0.5, 2.0, size=(X.shape[0], 1))
    run = run_online("pnorm", X, y, p=p, normalize=normalize, epochs=2,
                     shuffle=True, seed=3)
    gamma = 0.04
    report = evaluate(run, X, y, u=3.0 * u, gamma=gamma)
    q = p / (p - 1.0)
    seen = reference.pnorm_normalize(X, p) if normalize else X
    uq = u / np.sum(np.abs(u) ** q) ** (1.0 / q)
    margins = y * (seen @ uq)
    norms = np.sum(np.abs(seen) ** p, axis=1) ** (1.0 / p)
    a = np.sqrt(p - 1.0)
    for variant, rows in (("stated", run.sample_index), ("tightened", run.mistake_rows)):
        loss = np.maximum(0.0, gamma - margins[rows])
        R_p, D1, D2 = norms[rows].max(), loss.sum(), np.sqrt(np.sum(loss**2))
        d1 = report.row("pnorm_d1", variant)
        assert d1.quantities["R_p"] == pytest.approx(R_p, rel=1e-12)
        assert d1.quantities["D1"] == pytest.approx(D1, rel=1e-12)
        root = (a * R_p + np.sqrt(a**2 * R_p**2 + 4.0 * gamma * D1)) / (2.0 * gamma)
        assert d1.value == pytest.approx(root**2, rel=1e-12)
        assert d1.value == pytest.approx(D1 / gamma + a**2 * R_p**2 / (2 * gamma**2) + (
            a * R_p / gamma) * np.sqrt(D1 / gamma + a**2 * R_p**2 / (4 * gamma**2)), rel=1e-12)
        assert report.row("pnorm_d2", variant).value == pytest.approx(
            ((a * R_p + D2) / gamma) ** 2, rel=1e-12)
        assert not report.row("pnorm_separable", variant).applies  # noisy labels
    quantities = run_quantities(run, X, y, 3.0 * u, gamma, trials="mistakes")
    assert quantities["p"] == p
    assert quantities["R_p"] == pytest.approx(norms[run.mistake_rows].max(), rel=1e-12)
    assert quantities["D1"] == pytest.approx(
        np.maximum(0.0, gamma - margins[run.mistake_rows]).sum(), rel=1e-12)


def test_comparators_are_scaled_in_the_dual_norm(noisy):
    X, y, u = noisy
    assert vector_norm(np.array([3.0, -4.0]), 1.0) == 7.0
    assert vector_norm(np.array([1e300, 1e300]), 4.0) == pytest.approx(2.0 ** 0.25 * 1e300)
    for q in (1.1, 1.5, 2.0):
        comp = unit_comparator(5.0 * u, 6, "given", Kernel(), q=q)
        assert _pnorm(comp.u, q) == pytest.approx(1.0, rel=1e-12)
    euclid = svm_comparators(normalize_rows(X, 5.0), y, Kernel())
    dual = svm_comparators(normalize_rows(X, 5.0), y, Kernel(), q=1.25)  # as the run saw X
    assert [c.label for c in dual] == [c.label for c in euclid]
    for a, b in zip(dual, euclid, strict=True):
        assert _pnorm(a.u, 1.25) == pytest.approx(1.0, rel=1e-12)
        np.testing.assert_allclose(a.u / np.linalg.norm(a.u), b.u, rtol=1e-12, atol=1e-15)
    run = run_online("pnorm", X, y, p=5.0, epochs=2)
    report = evaluate(run, X, y)
    assert all(row.comparator.startswith("svm C=") for row in report.rows)
    assert any("SVM direction scaled to unit q-norm, q = p/(p - 1) = 1.25" in note
               for note in report.notes)
    best = report.row("pnorm_d1", "tightened")
    chosen = next(c for c in dual if c.label == best.comparator)
    again = evaluate(run, X, y, u=7.0 * chosen.u, gamma=best.gamma).row("pnorm_d1", "tightened")
    assert again.value == pytest.approx(best.value, rel=1e-9)


def test_one_vs_rest_runs_get_the_bounds_per_class():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((90, 4))
    y = np.argmax(X @ rng.standard_normal((4, 3)), axis=1)
    for algorithm, params in (("pnorm", {"p": 3.0}),
                              ("higher_order", {"p": 4.0, "c": 0.4})):
        run = run_online(algorithm, X, y, multiclass="ovr", epochs=2, **params)
        report = evaluate(run, X, y)
        assert report.holds and report.corrections == run.corrections
        names = PNORM_NAMES if algorithm == "pnorm" else ["higher_order"]
        for name in names:
            for variant in ("stated", "tightened"):
                total = report.row(name, variant)
                values = []
                for k, class_run in enumerate(run.class_runs):
                    y_k = np.where(y == k, 1.0, -1.0)
                    alone = evaluate(class_run, X, y_k).row(name, variant)
                    assert report.class_reports[k].row(name, variant).value == alone.value
                    values.append(alone.value)
                if total.applies:
                    assert total.value == pytest.approx(sum(values))
                    assert "summed over the classes" in total.source
        assert report.row("smallest_per_class", "any").applies


# --- the Higher-Order Perceptron with p > 2 ----------------------------------------------------


def _reference_run(p, c=0.4, rho=None, sparse=False, epochs=3, seed=1, n=40, d=5):
    X, y, _ = make_separable(n, d, margin=0.02, label_noise=0.15, seed=seed)
    X = X * np.random.default_rng(seed).uniform(0.3, 2.0, size=(n, 1))
    order = reference.presented_sequence(n, epochs, shuffle=True, seed=seed)
    run = run_online("higher_order", X, y, p=p, c=c, rho=rho, sparse=sparse, epochs=epochs,
                     shuffle=True, seed=seed)
    ref = reference.higher_order(X, y, order, c=c, p=p, rho=rho, sparse=sparse)
    assert np.array_equal(run.mistake_trials, ref["mistakes"])
    return X, y, run, ref


@pytest.mark.parametrize("p, rho, sparse", [(3.0, None, False), (7.0, None, True),
                                            (4.0, "given", False)])
def test_transformed_norms_are_the_p_norms_of_the_explicit_products(p, rho, sparse,
                                                                      monkeypatch):
    rho = np.random.default_rng(2).uniform(0.0, 0.9, size=200) if rho == "given" else None
    X, y, run, ref = _reference_run(p, rho=rho, sparse=sparse)
    expected = np.sum(np.abs(ref["transformed"]) ** p, axis=1) ** (1.0 / p)
    np.testing.assert_allclose(transformed_norms(run, X, y), expected, rtol=1e-10)
    monkeypatch.setattr(transformed_module, "TRANSFORM_BLOCK", 3)  # blocks split the mistakes
    np.testing.assert_allclose(transformed_norms(run, X, y), expected, rtol=1e-10)
    np.testing.assert_allclose(transformed_instances(run, X, y), ref["transformed"], atol=1e-10)


def test_the_factors_are_not_p_norm_contractions():
    """I - rho x g(x)^T can lengthen a vector in ||.||_10: the radius of the transformed
    sequence is measured, not taken as 1 (theory §4.1)."""
    X, y = np.array([[0.7, 1.0], [1.0, -0.5]]), np.array([1.0, 1.0])
    run = run_online("higher_order", X, y, p=10.0, rho=np.full(4, 0.5), classes=[-1.0, 1.0])
    assert run.mistakes == 2
    norms = transformed_norms(run, X, y)
    assert norms[0] == pytest.approx(1.0) and norms[1] == pytest.approx(1.1563, abs=1e-4)
    row = evaluate(run, X, y, u=np.array([1.0, 0.0]), gamma=0.1).row("higher_order", "tightened")
    assert row.applies and row.quantities["transformed_R_p"] == pytest.approx(norms[1])


@pytest.mark.parametrize("p", [3.0, 7.0])
def test_the_derivations_steps_hold_on_runs(p):
    """Each step of the HO_p proof on the reference's explicit B_k v_k (theory §4.1):
    B_k v_k = B_{k-1} v_{k-1} + r_k y_t z_k, the mistake y_t g(B_{k-1} v_{k-1}).z_k <= 0, the
    smoothness increment (at most (p - 1) r_k^2 ||z_k||_p^2 where r_k >= 0; the steps here
    also make some r_k < 0, where the cross term may be positive and the theorem does not
    apply), and the step terms rho_k (1 + |g(x_t).v_{k-1}|) of the theorem's condition."""
    rho = np.random.default_rng(3).uniform(0.0, 0.8, size=200)
    X, y, run, ref = _reference_run(p, rho=rho)
    r = run.state["r"]
    assert (r < 0).any() and (r > 0).any()
    Z = ref["transformed"] * y[run.mistake_rows][:, None]  # z_k = B_{k-1} x_{t(k)}
    ym = y[run.mistake_rows]
    previous = np.zeros(X.shape[1])
    for k, theta in enumerate(ref["Bv"]):
        np.testing.assert_allclose(theta, previous + r[k] * ym[k] * Z[k], atol=1e-10)
        cross = ym[k] * float(link(previous, p) @ Z[k])
        assert cross <= 1e-12
        grow = _pnorm(theta, p) ** 2 - _pnorm(previous, p) ** 2
        assert grow <= 2 * r[k] * cross + (p - 1.0) * r[k] ** 2 * _pnorm(Z[k], p) ** 2 + 1e-10
        if r[k] >= 0:
            assert grow <= (p - 1.0) * r[k] ** 2 * _pnorm(Z[k], p) ** 2 + 1e-10
        previous = theta
    Xm = reference.pnorm_normalize(X, p)[run.mistake_rows]
    V = np.vstack([np.zeros(X.shape[1]), np.cumsum(ym[:, None] * Xm, axis=0)[:-1]])
    gv = np.einsum("ij,ij->i", np.array([reference.pnorm_link(x, p) for x in Xm]), V)
    np.testing.assert_allclose(hop_step_terms(run), run.state["rho"] * (1.0 + np.abs(gv)),
                               atol=1e-12)


@pytest.mark.parametrize("p", P_VALUES)
def test_ho_p_at_c0_is_the_p_norm_perceptrons_d1_bound(noisy, p):
    """HO_p(0) is the p-norm Perceptron: c' = 1, alpha = 1, z_k = x_t, so both variants are
    pnorm_d1 over the mistakes."""
    X, y, u = noisy
    ho = run_online("higher_order", X, y, p=p, c=0.0, epochs=2)
    pn = run_online("pnorm", X, y, p=p, epochs=2)
    assert np.array_equal(ho.mistake_trials, pn.mistake_trials)
    expected = evaluate(pn, X, y, u=u, gamma=0.05).row("pnorm_d1", "tightened").value
    report = evaluate(ho, X, y, u=u, gamma=0.05)
    for variant in ("stated", "tightened"):
        row = report.row("higher_order", variant)
        assert row.quantities["c"] == 1.0 and row.value == pytest.approx(expected, rel=1e-12)


def test_ho_p_rows_and_reasons(noisy):
    X, y, u = noisy
    run = run_online("higher_order", X, y, p=4.0, c=0.4, epochs=2)
    report = evaluate(run, X, y, target=u)
    stated, tight = report.row("higher_order"), report.row("higher_order", "tightened")
    assert stated.holds and tight.holds and stated.quantities["c"] == pytest.approx(0.6)
    assert tight.value <= stated.value * (1 + 1e-12)
    assert stated.quantities["transformed_R_p"] == pytest.approx(
        transformed_norms(run, X, y).max())
    assert stated.source == "000 Thm 1, p > 2 (derived)"
    steep = run_online("higher_order", X, y, p=4.0, rho=np.full(600, 0.99), epochs=1)
    reason = evaluate(steep, X, y, target=u).row("higher_order").reason
    assert reason.startswith("c = min_k 1 - rho_k (1 + |g(x).v|) = ") and reason.endswith("<= 0")
    unit = normalize_rows(X, 4.0)
    assert evaluate(run_online("higher_order", unit, y, p=4.0, normalize=False), unit, y,
                    target=u).row("higher_order").applies


# --- the Higher-Order Figure 2 experiment ------------------------------------------------------


def test_epochs_curve_reports_the_bounds_beside_the_updates():
    """HO paper Fig. 2 (theory §5): the p = 4 and 7 curves get their mistake bounds."""
    data = make_hop_artificial(0.1, n_train=60, n_test=20, n_features=30, n_relevant=5, seed=0)
    specs = [("FO", "perceptron", {}), ("HO_4(0.4)", "higher_order", {"p": 4.0, "c": 0.4}),
             ("HO_7(0.0)", "pnorm", {"p": 7.0})]
    table = epochs_curve(specs, data.train, data.test, epochs=(1, 3), seeds=[2],
                         bounds=["HO_4(0.4)", "HO_7(0.0)"])
    assert all("bound" not in row for row in table if row["label"] == "FO")
    for label, algorithm, params in specs[1:]:
        rows = [row for row in table if row["label"] == label]
        order = np.random.default_rng(2).permutation(60)
        X, y = np.ascontiguousarray(data.train.X[order]), data.train.y[order]
        fresh = run_online(algorithm, X, y, epochs=3, **params)
        curves = bounds_over_time(fresh, X, y, u=data.train.u)
        for row in rows:
            t = row["epochs"] * 60 - 1
            assert curves.mistakes[t] == row["updates"] <= row["bound"]
            assert row["bound"] == min(float(values[t]) for values in curves.values())
            assert row["bound_name"] in curves and row["bound_gamma"] == curves.gamma
        assert {row["bound_name"] for row in rows} <= {"higher_order", *PNORM_NAMES}
    with pytest.raises(ValueError, match="bounds must name spec labels"):
        epochs_curve(specs, data.train, data.test, epochs=(1,), bounds=["HO_4"])


def test_hop_fig2_reports_p4_and_p7_bounds():
    records, fig = hop_fig2(quick=True, seeds=1, n_jobs=1)
    fig.clear()
    bounded = {row["label"] for row in records if row.get("bound") is not None}
    assert bounded == set(HOP_BOUNDS)
    for row in records:
        if row["label"] in HOP_BOUNDS:
            assert row["updates"] <= row["bound"]


# --- validity: property tests ------------------------------------------------------------------


@st.composite
def sequences(draw):
    """(X, y, target, presentation, rng): a small random sequence, separable or noisy, with a
    dense or sparse target and Gaussian or cube-uniform instances of assorted lengths."""
    seed = draw(st.integers(0, 2**32 - 1))
    n_samples = draw(st.integers(2, 12))
    n_features = draw(st.integers(2, 50))
    noise = draw(st.sampled_from([0.0, 0.0, 0.05, 0.2, 0.5]))
    presentation = {"epochs": draw(st.integers(1, 5)), "shuffle": draw(st.booleans()),
                    "seed": seed % 1000}
    rng = np.random.default_rng(seed)
    target = rng.standard_normal(n_features)
    if draw(st.booleans()):  # sparse: the targets the p-norm algorithms are made for
        target[rng.permutation(n_features)[: max(1, n_features // 5)]] *= 0.0
        target[np.argmax(np.abs(target))] += 1.0
    if draw(st.booleans()):
        X = rng.standard_normal((n_samples, n_features))
    else:
        X = rng.uniform(-1.0, 1.0, size=(n_samples, n_features))
    y = np.where(X @ target >= 0, 1.0, -1.0)
    y = np.where(rng.random(n_samples) < noise, -y, y)
    y[0], y[1] = 1.0, -1.0
    X *= rng.uniform(0.1, 3.0, size=(n_samples, 1))
    return X, y, target, presentation, rng


@st.composite
def comparisons(draw, X, target, rng, p):
    """(u, gamma): u the target, perturbed or random; gamma given (a fraction of R_p) or None."""
    kind = draw(st.sampled_from(["target", "perturbed", "random"]))
    u = target.copy()
    if kind != "target":
        u = rng.standard_normal(target.shape[0]) + (5.0 * target if kind == "perturbed" else 0.0)
    R_p = float(row_norms(X, p).max())
    fraction = draw(st.floats(1e-3, 1.5))
    gamma = None if draw(st.integers(0, 3)) == 0 else fraction * min(R_p, 1.0)
    return u, gamma


def _check(run, X, y, u, gamma, expect=True):
    report = evaluate(run, X, y, u=u, gamma=gamma)
    applied = [row for row in report.rows if row.applies]
    for row in applied:
        assert row.holds, (
            f"{row.name} ({row.variant}) = {row.value!r} < {row.mistakes} mistakes at "
            f"gamma={row.gamma!r}; params={run.params}; quantities={row.quantities}")
    if expect:
        assert applied, [row.reason for row in report.rows]
    return report


def _pnorm_run(data, X, y, presentation):
    p = data.draw(st.sampled_from(P_VALUES))
    run = run_online("pnorm", X, y, p=p, normalize=data.draw(st.booleans()),
                     **presentation)
    return run, p


def _higher_order_run(data, X, y, presentation, rng):
    p = data.draw(st.sampled_from(P_VALUES))
    rho = None
    if data.draw(st.integers(0, 3)) == 0:
        rho = rng.uniform(0.0, data.draw(st.floats(0.01, 0.99)), size=X.shape[0] * 5)
    unit = bool(np.allclose(row_norms(X, p), 1.0))
    run = run_online("higher_order", X, y, p=p, c=data.draw(st.floats(0.0, 0.99)),
                     sparse=data.draw(st.booleans()), rho=rho,
                     normalize=not unit or data.draw(st.booleans()), **presentation)
    return run, p


@_settings(CASES)
@given(data=st.data())
def test_pnorm_bounds_hold(data):
    X, y, target, presentation, rng = data.draw(sequences())
    run, p = _pnorm_run(data, X, y, presentation)
    u, gamma = data.draw(comparisons(X, target, rng, p))
    report = _check(run, X, y, u, gamma)
    assert report.row("pnorm_d1", "tightened").applies


@_settings(CASES)
@given(data=st.data())
def test_higher_order_p_bounds_hold(data):
    X, y, target, presentation, rng = data.draw(sequences())
    run, p = _higher_order_run(data, X, y, presentation, rng)
    u, gamma = data.draw(comparisons(X, target, rng, p))
    c_run = float(np.min(np.minimum(run.state["r"], 2.0 - run.state["r"]), initial=1.0))
    _check(run, X, y, u, gamma, expect=c_run > 0)


@_settings(OVR_CASES)
@given(data=st.data(), n_classes=st.integers(3, 5))
def test_one_vs_rest_pnorm_bounds_hold(data, n_classes):
    X, _, _, presentation, rng = data.draw(sequences())
    y = np.argmax(X @ rng.standard_normal((X.shape[1], n_classes)), axis=1)
    y[rng.random(y.shape[0]) < data.draw(st.sampled_from([0.0, 0.2]))] = 0
    if np.unique(y).shape[0] < 2:
        y[:2] = [0, 1]
    p = data.draw(st.sampled_from(P_VALUES))
    run = run_online("pnorm", X, y, p=p, multiclass="ovr", **presentation)
    U = rng.standard_normal((run.classes.shape[0], X.shape[1]))
    report = evaluate(run, X, y, u=U, gamma=data.draw(st.floats(1e-3, 1.0)))
    for row in report.rows:
        assert row.holds in (True, None), (row.name, row.variant, row.value, row.mistakes)
    assert report.row("pnorm_d1", "tightened").applies


@pytest.mark.slow
@_settings(SLOW_CASES)
@given(data=st.data(), algorithm=st.sampled_from(["pnorm", "higher_order"]))
def test_every_p_norm_bound_holds_slow(data, algorithm):
    X, y, target, presentation, rng = data.draw(sequences())
    if algorithm == "pnorm":
        run, p = _pnorm_run(data, X, y, presentation)
    else:
        run, p = _higher_order_run(data, X, y, presentation, rng)
    u, gamma = data.draw(comparisons(X, target, rng, p))
    _check(run, X, y, u, gamma, expect=False)
