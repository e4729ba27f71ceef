"""Multiclass bounds (theory §4.5): one-vs-rest sums and the native runs through Kesler.

The derived bounds are checked twice: through the closed forms of
``perceptron_bounds.bounds`` fed with quantities computed here from the
plain-NumPy native loops of ``tests/reference.py`` (so that the derivation is
tested apart from ``evaluate``), and through ``evaluate`` on runs of the
package. A failure is a bug in an algorithm, a bound or the argument of the
theory page, never a reason to loosen the check.
"""

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from reference import native_ballseptron, native_perceptron, presented_sequence

from perceptron_bounds import run_online
from perceptron_bounds.bounds import (
    MulticlassBoundReport,
    ballseptron_corrected,
    ballseptron_d1,
    evaluate,
    freund_schapire,
    novikoff,
)
from perceptron_bounds.bounds.multiclass import (
    KESLER_FACTOR,
    multiclass_hinge_losses,
    multiclass_margins,
)
from perceptron_bounds.bounds.search import SVM_C, crammer_singer_comparators
from perceptron_bounds.kernels import Kernel

SQRT2 = np.sqrt(2.0)
SQRT2_MINUS_1 = SQRT2 - 1.0
RTOL = 1e-9
CASES = 300


def _settings(n):
    return settings(max_examples=n, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def multiclass_sequences(draw, min_classes=3, max_classes=10):
    """(X, y, U, presentation, rng): K classes labelled by prototypes U, maybe with a margin
    and label noise; y holds class indices 0..K-1."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    K = draw(st.integers(min_classes, max_classes))
    n_features = draw(st.integers(2, 20))
    n_samples = draw(st.integers(3, 15))
    margin = draw(st.sampled_from([0.0, 0.0, 0.02, 0.1]))
    noise = draw(st.sampled_from([0.0, 0.0, 0.1, 0.3]))
    U = rng.standard_normal((K, n_features))
    U /= np.linalg.norm(U)
    X = rng.standard_normal((40 * n_samples, n_features))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    S = X @ U.T
    y = np.argmax(S, axis=1)
    keep = np.flatnonzero(multiclass_margins(S, y) >= margin)
    rows = keep[:n_samples] if keep.shape[0] >= 2 else np.arange(n_samples)
    X, y = X[rows], y[rows]
    noisy = rng.random(y.shape[0]) < noise
    y = np.where(noisy, rng.integers(0, K, y.shape[0]), y)
    if not draw(st.booleans()):
        X = X * rng.uniform(0.1, 3.0, size=(X.shape[0], 1))
    presentation = {"epochs": draw(st.integers(1, 5)), "shuffle": draw(st.booleans()),
                    "seed": seed % 1000}
    return X, y, U, presentation, rng


@st.composite
def prototypes(draw, U, rng):
    """Comparator prototypes of unit Frobenius norm: the target, perturbed, or random."""
    kind = draw(st.sampled_from(["target", "perturbed", "random"]))
    V = U.copy()
    if kind != "target":
        V = rng.standard_normal(U.shape) + (5.0 * U if kind == "perturbed" else 0.0)
    return V / np.linalg.norm(V)


def _independent_quantities(X, y, V, order, rows_used, gamma):
    """R = sqrt2 max ||x||, D1, D2 of the multiclass hinge over the trials ``rows_used``
    (positions in ``order``), by explicit loops over the classes."""
    losses = []
    for t in rows_used:
        x, label = X[order[t]], y[order[t]]
        worst = max(gamma - (V[label] - V[q]) @ x for q in range(V.shape[0]) if q != label)
        losses.append(max(0.0, worst))
    losses = np.array(losses)
    norms = [np.linalg.norm(X[order[t]]) for t in rows_used]
    R = SQRT2 * max(norms, default=0.0)
    return R, float(losses.sum()), float(np.sqrt((losses**2).sum())), losses


def _holds(m, value):
    return m <= value * (1.0 + RTOL)


def _kesler_values(X, y, V, order, result, gamma, r, ball):
    """Every derived bound (stated and tightened) of a native run at (V, gamma), where its
    conditions hold (theory §4.5), keyed by the (name, variant) of evaluate's rows."""
    eps = len(result["margin_errors"])
    updates = np.union1d(result["mistakes"], result["margin_errors"])
    rp = SQRT2 * r
    out = {}
    for variant, used in (("stated", np.arange(order.shape[0])), ("tightened", updates)):
        R, D1, D2, losses = _independent_quantities(X, y, V, order, used, gamma)
        tight = variant == "tightened"
        # 004 Thm 1's conditions with R and r' = sqrt2 r; not needed without margin errors
        # once restricted to the update trials (theory §4.2).
        inside = gamma > rp / SQRT2_MINUS_1 and gamma <= R  # as evaluate computes it
        ball_ok = not (ball and (not tight or eps > 0)) or inside
        if ball_ok and not np.any(losses > 0):
            out["novikoff", variant] = novikoff(R, gamma)
        if ball_ok:
            out["freund_schapire", variant] = freund_schapire(R, gamma, D2)
        if ball_ok and (ball or tight or gamma <= R):
            out["ballseptron_d1", variant] = ballseptron_d1(R, gamma, D1, exact=tight)
        if ball and (tight or inside):
            for loss, D in (("d2", D2), ("d1", D1)):
                out[f"ballseptron_corrected_{loss}", variant] = ballseptron_corrected(
                    R, gamma, D, rp, eps, loss, exact=tight)
    return {key: float(value) for key, value in out.items()}


@_settings(CASES)
@given(data=st.data(), ball=st.booleans())
def test_kesler_closed_forms_bound_the_reference_native_runs(data, ball):
    """theory §4.5 on the plain-NumPy native loops: every derived bound, at a random or the
    target's smallest margin, is at least the run's mistakes."""
    _reference_run_within_bounds(data, ball)


def _reference_run_within_bounds(data, ball):
    X, y, U, presentation, rng = data.draw(multiclass_sequences(min_classes=2))
    V = data.draw(prototypes(U, rng))
    order = presented_sequence(X.shape[0], **presentation)
    R_all = SQRT2 * np.linalg.norm(X, axis=1).max()
    mu = multiclass_margins(X @ V.T, y)
    gamma = (float(mu.min()) if mu.min() > 0 and data.draw(st.booleans())
             else data.draw(st.floats(1e-3, 1.2)) * R_all)
    r = 0.0
    if ball:  # inside the derived condition sqrt2 r < (sqrt2 - 1) gamma mostly, beyond it too
        r = data.draw(st.one_of(st.floats(0.0, 0.999), st.floats(1.0, 4.0))) * SQRT2_MINUS_1 \
            * gamma / SQRT2
    K = U.shape[0]
    result = (native_ballseptron(X, y, order, r, n_classes=K) if ball
              else native_perceptron(X, y, order, n_classes=K))
    m = len(result["mistakes"])
    values = _kesler_values(X, y, V, order, result, gamma, r, ball)
    assert values
    for key, value in values.items():
        assert _holds(m, value), (key, value, m, len(result["margin_errors"]), r, gamma)


def test_kesler_radius_cannot_be_dropped():
    """Orthogonal instances of one class and K = 2: every trial ties, so m = N, and
    Novikoff with R = sqrt2 max ||x|| is exactly N; with max ||x|| alone it would be N / 2."""
    N = 6
    X = np.eye(N)
    y = np.ones(N, dtype=np.int64)
    result = native_perceptron(X, y, np.arange(N), n_classes=2)
    u = np.ones(N) / np.sqrt(N)
    V = np.vstack([-u, u]) / SQRT2
    mu = multiclass_margins(X @ V.T, y)
    gamma = float(mu.min())
    assert len(result["mistakes"]) == N
    assert novikoff(KESLER_FACTOR * 1.0, gamma) == pytest.approx(N)
    assert novikoff(1.0, gamma) == pytest.approx(N / 2)


def test_multiclass_hinge_takes_every_other_class():
    """l_t = max(0, gamma - min_{q != y}(u^y - u^q).x): the worst other class counts."""
    X = np.array([[1.0, 0.0]])
    U = np.array([[1.0, 0.0], [0.5, 0.0], [0.9, 0.0]])
    assert multiclass_margins(X @ U.T, np.array([0])).tolist() == pytest.approx([0.1])
    assert multiclass_hinge_losses(X, np.array([0]), U, 0.5).tolist() == pytest.approx([0.4])
    with pytest.raises(ValueError, match="K >= 2"):
        multiclass_margins(np.zeros((2, 1)), np.array([0, 0]))
    with pytest.raises(ValueError, match=r"class indices in \[0, 2\]"):
        multiclass_margins(np.zeros((1, 3)), np.array([3]))
    with pytest.raises(ValueError, match="gamma"):
        multiclass_hinge_losses(X, np.array([0]), U, 0.0)


@pytest.mark.parametrize("seed", range(5))
def test_kesler_vector_has_norm_sqrt2_x_and_gives_the_score_gap(seed):
    """z = Phi(x, y) - Phi(x, y~): ||z|| = sqrt2 ||x||, W.z = s_y - s_y~, and the native
    update is W + z (theory §4.5); a margin error's z_hat = z - sqrt2 r PW/||PW||."""
    rng = np.random.default_rng(seed)
    K, n = 4, 3
    X = rng.standard_normal((12, n))
    y = rng.integers(0, K, 12)
    order = presented_sequence(12, 2)
    r = 0.3
    W = np.zeros((K, n))
    result = native_ballseptron(X, y, order, r, n_classes=K)
    updates = np.union1d(result["mistakes"], result["margin_errors"])
    for j, t in enumerate(updates):
        x, label, runner = X[order[t]], result["true_class"][j], result["runner_up"][j]
        z = np.zeros((K, n))
        z[label], z[runner] = x, -x
        assert np.linalg.norm(z) == pytest.approx(SQRT2 * np.linalg.norm(x))
        assert np.sum(W * z) == pytest.approx((W @ x)[label] - (W @ x)[runner])
        if t in result["margin_errors"]:
            P = np.zeros((K, n))  # the projection of W on {Phi(v, y) - Phi(v, y~)}
            P[label] = (W[label] - W[runner]) / 2.0
            P[runner] = -P[label]
            z = z - SQRT2 * r * P / np.linalg.norm(P)
            assert np.sum(W * z) <= 1e-12  # fact 1 of theory §4.5
            assert np.sum(z**2) < 2.0 * np.sum(x**2) + (SQRT2 * r) ** 2  # fact 2
        W = W + z
    assert np.allclose(W, result["weights"], atol=1e-10)


# --- through evaluate, on runs of the package --------------------------------------------------

ALGORITHMS_OVR = {
    "perceptron": {}, "voted_perceptron": {}, "ballseptron": {"r": 0.05},
    "pnorm": {"p": 2.0}, "second_order": {"a": 1.0}, "higher_order": {"c": 0.3},
}


def _check(report, expect_some=True):
    applied = [row for row in report.rows if row.applies]
    for row in applied:
        assert row.holds, (row.name, row.variant, row.value, row.mistakes, row.gamma,
                           row.quantities)
    if expect_some:
        assert applied, [row.reason for row in report.rows]
    assert report.holds


@st.composite
def native_cases(draw, min_classes=3):
    """(run, X, y, V, gamma, r): a native Perceptron or Ballseptron run and a comparison."""
    X, y, U, presentation, rng = draw(multiclass_sequences(min_classes=min_classes))
    V = draw(prototypes(U, rng))
    R = SQRT2 * float(np.linalg.norm(X, axis=1).max())
    gamma = None if draw(st.integers(0, 2)) == 0 else draw(st.floats(1e-3, 1.2)) * R
    reference = gamma if gamma is not None else draw(st.floats(1e-3, 1.0)) * R
    r = 0.0
    if draw(st.booleans()):
        r = draw(st.one_of(st.floats(0.0, 0.999), st.floats(1.0, 4.0))) * SQRT2_MINUS_1 \
            * reference / SQRT2
    classes = np.arange(U.shape[0])
    run = run_online("ballseptron" if r > 0 else "perceptron", X, y, multiclass="native",
                     classes=classes, **({"r": r} if r > 0 else {}), **presentation)
    return run, X, y, V, gamma, r


@_settings(CASES)
@given(case=native_cases())
def test_native_bounds_hold(case):
    """theory §4.5: every derived bound of a native run, at given or searched gamma, holds."""
    _native_run_within_bounds(case)


def _native_run_within_bounds(case):
    run, X, y, V, gamma, r = case
    report = evaluate(run, X, y, u=V, gamma=gamma)
    assert report.multiclass == "native"
    _check(report)
    if r > 0:
        assert report.row("ballseptron_corrected_d1", "tightened").applies
    assert all("Kesler (derived" in row.source for row in report.rows)


@_settings(40)
@given(case=native_cases())
def test_native_bounds_hold_against_crammer_singer(case):
    _native_run_within_searched_bounds(case)


def _native_run_within_searched_bounds(case):
    run, X, y, _, gamma, _ = case
    assume(np.unique(y).shape[0] >= 2)  # an SVM needs two classes
    report = evaluate(run, X, y, gamma=gamma)
    _check(report)
    assert any("crammer-singer" in row.comparator for row in report.rows if row.applies)


@_settings(CASES)
@given(case=native_cases(min_classes=3))
def test_native_values_match_the_closed_forms(case):
    """evaluate's values at a given gamma are the closed forms of theory §4.5 with the
    quantities computed independently here."""
    run, X, y, V, gamma, r = case
    if gamma is None:
        gamma = float(SQRT2 * np.linalg.norm(X, axis=1).max()) / 3.0
    report = evaluate(run, X, y, u=V, gamma=gamma)
    order = run.sample_index
    result = {"mistakes": run.mistake_trials, "margin_errors": run.margin_error_trials}
    expected = _kesler_values(X, y, V, order, result, gamma, r, r > 0)
    got = {(row.name, row.variant): row.value for row in report.rows if row.applies}
    assert got.keys() == expected.keys()
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, rel=1e-9, abs=1e-9), key


@pytest.mark.parametrize("r", [0.0, 0.02, 0.2])
@pytest.mark.parametrize("seed", range(3))
def test_native_two_classes_is_the_binary_bound(r, seed):
    """K = 2: the native run is the binary one and U = (-u, u)/sqrt2 has mu = sqrt2 y u.x,
    so every Kesler bound equals the binary bound of u (theory §4.5), row by row."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((30, 4))
    u = rng.standard_normal(4)
    u /= np.linalg.norm(u)
    y = np.where(X @ u > 0, 1, -1)
    y[rng.random(30) < 0.1] *= -1
    algorithm, params = ("ballseptron", {"r": r}) if r > 0 else ("perceptron", {})
    binary = run_online(algorithm, X, y, epochs=3, **params)
    native = run_online(algorithm, X, y, epochs=3, multiclass="native", **params)
    assert np.array_equal(binary.mistake_trials, native.mistake_trials)
    assert np.array_equal(binary.margin_error_trials, native.margin_error_trials)
    V = np.vstack([-u, u]) / SQRT2
    for gamma in (None, 0.3):
        b = evaluate(binary, X, y, u=u, gamma=gamma)
        n = evaluate(native, X, y, u=V, gamma=None if gamma is None else SQRT2 * gamma)
        assert [(row.name, row.variant) for row in b.rows] == \
            [(row.name, row.variant) for row in n.rows]
        for rb, rn in zip(b.rows, n.rows, strict=True):
            assert rb.applies == rn.applies, (rb.name, rb.variant, rb.reason, rn.reason)
            if rb.applies:
                assert rn.value == pytest.approx(rb.value, rel=1e-9), (rb.name, rb.variant)


def test_native_separable_target_gives_novikoff():
    """Data labelled by prototypes with a margin: Novikoff applies with the target at
    gamma = min mu_t and equals 2 max ||x||^2 / gamma^2."""
    rng = np.random.default_rng(3)
    U = rng.standard_normal((4, 5))
    U /= np.linalg.norm(U)
    X = rng.standard_normal((400, 5))
    y = np.argmax(X @ U.T, axis=1)
    keep = multiclass_margins(X @ U.T, y) > 0.05
    X, y = X[keep][:80], y[keep][:80]
    run = run_online("perceptron", X, y, multiclass="native", epochs=4)
    report = evaluate(run, X, y, target=U)
    row = report.row("novikoff")
    gamma = float(multiclass_margins(X @ U.T, y).min())
    assert row.applies and row.holds and row.comparator == "target"
    assert row.gamma == pytest.approx(gamma)
    assert row.value == pytest.approx(2.0 * np.max(np.sum(X**2, axis=1)) / gamma**2)
    assert "Kesler (derived; 001 Thm 1)" in row.source


@st.composite
def ovr_cases(draw):
    X, y, U, presentation, rng = draw(multiclass_sequences())
    algorithm = draw(st.sampled_from(sorted(ALGORITHMS_OVR)))
    K = U.shape[0]
    V = rng.standard_normal((K, X.shape[1])) + draw(st.sampled_from([0.0, 5.0])) * U
    R = float(np.linalg.norm(X, axis=1).max())
    gamma = None if draw(st.integers(0, 2)) == 0 else draw(st.floats(1e-3, 1.2)) * R
    run = run_online(algorithm, X, y, multiclass="ovr", classes=np.arange(K),
                     **ALGORITHMS_OVR[algorithm], **presentation)
    return run, X, y, V, gamma


@_settings(CASES // 2)
@given(case=ovr_cases())
def test_ovr_sums_bound_the_corrections(case):
    """theory §4.5: each class's bounds hold, and each sum bounds the corrections, which are
    at least the multiclass mistakes."""
    _ovr_run_within_bounds(case)


def _ovr_run_within_bounds(case):
    run, X, y, V, gamma = case
    report = evaluate(run, X, y, u=V, gamma=gamma)
    assert isinstance(report, MulticlassBoundReport)
    assert report.corrections == run.corrections >= run.mistakes == report.mistakes
    assert report.holds
    for k, class_report in enumerate(report.class_reports):
        assert class_report.mistakes == run.class_runs[k].mistakes
    for row in report.rows:
        values = row.quantities["class_values"]
        if row.applies:
            assert row.value == pytest.approx(sum(values))
            assert row.value >= run.corrections * (1.0 - RTOL) and row.holds
        else:
            assert None in values


def test_ovr_rows_are_the_class_runs_own_reports():
    """Each class report is evaluate() of class k's run on y_k = +1 for class k, -1 else;
    the summed row adds their values."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((45, 3))
    y = np.array(["b", "a", "c"])[np.argmax(X @ rng.standard_normal((3, 3)).T, axis=1)]
    run = run_online("perceptron", X, y, multiclass="ovr", epochs=2)
    report = evaluate(run, X, y)
    assert report.classes == ("a", "b", "c")
    total = 0.0
    for k, label in enumerate(report.classes):
        own = evaluate(run.class_runs[k], X, np.where(y == label, 1.0, -1.0), comparator="svm")
        mine = report.class_report(label)
        assert [r.value for r in own.rows] == [r.value for r in mine.rows]
        total += own.row("freund_schapire", "tightened").value
    assert report.row("freund_schapire", "tightened").value == pytest.approx(total)
    smallest = report.row("smallest_per_class", "any")
    assert smallest.applies and smallest.value <= report.row("freund_schapire",
                                                             "tightened").value
    assert len(smallest.quantities["class_bounds"]) == 3


def test_ovr_comparators_per_class():
    """Given u or comparator='target': row k for class k; 'auto' with a multiclass target
    fits each class's SVM (a row of the target does not separate its class from the rest)."""
    rng = np.random.default_rng(8)
    U = rng.standard_normal((3, 4))
    X = rng.standard_normal((40, 4))
    y = np.argmax(X @ U.T, axis=1)
    run = run_online("perceptron", X, y, multiclass="ovr", epochs=2)
    given_rows = evaluate(run, X, y, u=U, gamma=0.1)
    as_target = evaluate(run, X, y, target=U, comparator="target", gamma=0.1)
    for k in range(3):
        own = evaluate(run.class_runs[k], X, np.where(y == k, 1.0, -1.0), u=U[k], gamma=0.1)
        for report in (given_rows, as_target):
            assert [r.value for r in report.class_reports[k].rows] == [r.value for r in own.rows]
    assert {r.comparator for r in as_target.class_reports[0].rows} == {"target"}
    auto = evaluate(run, X, y, target=U)
    assert all(r.comparator.startswith("svm") for r in auto.class_reports[0].rows if r.applies)


def test_ovr_report_text_and_records():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((40, 3))
    y = np.argmax(X @ rng.standard_normal((4, 3)).T, axis=1)
    run = run_online("ballseptron", X, y, r=0.01, multiclass="ovr", classes=np.arange(4))
    report = evaluate(run, X, y)
    text = str(report)
    assert "one-vs-rest over 4 classes" in text and "corrections" in text
    assert all(f"class {k}" in text for k in range(4))
    lines = text.splitlines()
    assert sum(line.startswith("ballseptron_corrected_d1") for line in lines) == 2
    records = report.to_records()
    summed = [rec for rec in records if rec["class"] is None]
    assert len(summed) == len(report.rows)
    assert len(records) == len(report.rows) + sum(len(r.rows) for r in report.class_reports)
    assert {rec["multiclass"] for rec in records} == {"ovr"}
    payload = json.loads(report.to_json())
    assert payload["corrections"] == run.corrections
    assert payload["class_mistakes"] == [r.mistakes for r in run.class_runs]
    with pytest.raises(KeyError, match="no summed row"):
        report.row("second_order")
    with pytest.raises(KeyError, match="no class"):
        report.class_report(7)


def test_native_report_text():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((30, 3))
    y = np.argmax(X @ rng.standard_normal((3, 3)).T, axis=1)
    run = run_online("perceptron", X, y, multiclass="native")
    report = evaluate(run, X, y)
    assert str(report).startswith("perceptron (native multiclass): ")
    assert json.loads(report.to_json())["multiclass"] == "native"
    assert "Crammer-Singer" in report.notes[0]


def test_crammer_singer_prototypes():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((120, 4))
    U = rng.standard_normal((3, 4))
    y = np.argmax(X @ U.T, axis=1)
    comps = crammer_singer_comparators(X, y, 5, Kernel())
    assert len(comps) == len(SVM_C)
    for comp in comps:
        assert comp.u.shape == (5, 4)
        assert np.linalg.norm(comp.u) == pytest.approx(1.0)
        assert np.all(comp.u[3:] == 0.0)  # classes absent from y: zero prototypes
    assert (multiclass_margins(comps[-1].values(X), y) > 0).mean() > 0.95
    y2 = (X[:, 0] > 0).astype(np.int64)  # two classes: one row w, as (-w/2, w/2)
    comp = crammer_singer_comparators(X, y2, 2, Kernel())[-1]
    assert np.allclose(comp.u[0], -comp.u[1])
    assert (multiclass_margins(comp.values(X), y2) > 0).mean() > 0.95
    assert crammer_singer_comparators(X, np.zeros(120, dtype=np.int64), 3, Kernel()) == []


def test_kernel_prototypes_have_unit_norm():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((60, 3))
    y = np.argmax(X @ rng.standard_normal((3, 3)).T, axis=1)
    kernel = Kernel("rbf", gamma=0.5)
    for comp in crammer_singer_comparators(X, y, 3, kernel):
        G = kernel.gram(comp.support, comp.support)
        assert np.trace(comp.coef.T @ G @ comp.coef) == pytest.approx(1.0)
        assert comp.values(X).shape == (60, 3)


@_settings(25)
@given(data=st.data(), kernel=st.sampled_from([("rbf", {"gamma": 0.5}),
                                               ("poly", {"degree": 2, "gamma": 1.0})]))
def test_kernel_native_bounds_hold(data, kernel):
    X, y, U, presentation, _ = data.draw(multiclass_sequences(max_classes=5))
    assume(np.unique(y).shape[0] >= 2)  # an SVM needs two classes
    name, params = kernel
    r = data.draw(st.sampled_from([0.0, 0.01, 0.1]))
    algorithm = "ballseptron" if r > 0 else "perceptron"
    run = run_online(algorithm, X, y, multiclass="native", classes=np.arange(U.shape[0]),
                     kernel=name, **params, **({"r": r} if r else {}), **presentation)
    report = evaluate(run, X, y)
    _check(report, expect_some=False)
    assert "kernel SVMs" in report.notes[0]


def test_multiclass_errors():
    rng = np.random.default_rng(6)
    X = rng.standard_normal((20, 3))
    y = np.arange(20) % 3
    native = run_online("perceptron", X, y, multiclass="native")
    ovr = run_online("perceptron", X, y, multiclass="ovr")
    with pytest.raises(ValueError, match=r"u must have shape \(3, 3\) \(one prototype per"):
        evaluate(native, X, y, u=np.ones(3))
    with pytest.raises(ValueError, match="finite nonzero matrix"):
        evaluate(native, X, y, u=np.zeros((3, 3)))
    with pytest.raises(ValueError, match=r"u must have shape \(3, 3\) for a one-vs-rest run"):
        evaluate(ovr, X, y, u=np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"target must have shape \(3, 3\)"):
        evaluate(ovr, X, y, target=np.ones(3), comparator="target")
    with pytest.raises(ValueError, match="needs the data's known target"):
        evaluate(native, X, y, comparator="target")
    kernel_run = run_online("perceptron", X, y, multiclass="native", kernel="rbf")
    with pytest.raises(ValueError, match="kernel runs are compared with kernel SVMs"):
        evaluate(kernel_run, X, y, u=np.ones((3, 3)))
    absent = run_online("perceptron", X, y, multiclass="ovr", classes=[0, 1, 2, 3])
    with pytest.raises(ValueError, match="class 3 against the rest shows one label only"):
        evaluate(absent, X, y)
    report = evaluate(absent, X, y, u=np.ones((4, 3)))  # given rows: every class has one
    assert len(report.class_reports) == 4
    with pytest.raises(ValueError, match="labels"):
        evaluate(native, X, np.arange(20) % 4)


def test_warm_started_native_run_has_no_bound():
    rng = np.random.default_rng(7)
    X = rng.standard_normal((20, 3))
    y = np.arange(20) % 3
    first = run_online("perceptron", X, y, multiclass="native")
    more = run_online("perceptron", X, y, multiclass="native", warm_start=first)
    report = evaluate(more, X, y, u=np.ones((3, 3)))
    assert not any(row.applies for row in report.rows)
    assert all("warm-started" in row.reason for row in report.rows)


# --- thousands of runs (pytest -m slow) ---------------------------------------------------------

SLOW_CASES = 3000


@pytest.mark.slow
@_settings(SLOW_CASES)
@given(data=st.data(), ball=st.booleans())
def test_kesler_closed_forms_slow(data, ball):
    _reference_run_within_bounds(data, ball)


@pytest.mark.slow
@_settings(SLOW_CASES)
@given(case=native_cases())
def test_native_bounds_hold_slow(case):
    _native_run_within_bounds(case)


@pytest.mark.slow
@_settings(SLOW_CASES // 6)
@given(case=native_cases())
def test_native_bounds_hold_against_crammer_singer_slow(case):
    _native_run_within_searched_bounds(case)


@pytest.mark.slow
@_settings(SLOW_CASES)
@given(case=ovr_cases())
def test_ovr_sums_bound_the_corrections_slow(case):
    _ovr_run_within_bounds(case)
