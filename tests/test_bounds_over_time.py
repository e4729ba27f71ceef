"""The bounds on every prefix of a run (bounds.over_time): theorems on each prefix, and at t = T
the value evaluate() gives for the same u and gamma."""

import doctest

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perceptron_bounds import run_online
from perceptron_bounds.algorithms import available, get
from perceptron_bounds.bounds import bounds_over_time, evaluate, over_time
from perceptron_bounds.datasets import make_separable

# (algorithm, params) drawn by the property test: every registered algorithm, every variant
# of its bounds (SO inverse, adaptive and pinv; HO schedule and given steps; p > 2; kernels).
SPECS = [
    ("perceptron", {}),
    ("perceptron", {"kernel": "rbf", "gamma": 1.0}),
    ("voted_perceptron", {}),
    ("ballseptron", {"r": 0.0}),
    ("ballseptron", {"r": 0.02}),
    ("ballseptron", {"r": 0.3}),
    ("pnorm", {"p": 2.0}),
    ("pnorm", {"p": 3.0}),
    ("pnorm", {"p": 7.0, "normalize": False}),
    ("second_order", {"a": 0.5}),
    ("second_order", {"variant": "adaptive", "c": 0.5}),
    ("second_order", {"variant": "pinv"}),
    ("second_order", {"kernel": "poly", "degree": 2, "gamma": 1.0}),
    ("higher_order", {"c": 0.4}),
    ("higher_order", {"c": 0.8, "sparse": True}),
    ("higher_order", {"c": 0.3, "normalize": False}),
    ("higher_order", {"p": 4.0, "c": 0.4}),
    ("higher_order", {"p": 7.0, "c": 0.6, "sparse": True}),
]


def _data(seed, n_samples, n_features, noise, unit=True):
    X, y, target = make_separable(n_samples, n_features, margin=0.05, label_noise=noise,
                                  seed=seed)
    if not unit:
        X = X * np.random.default_rng(seed).uniform(0.2, 2.0, size=(n_samples, 1))
    y[:2] = [1.0, -1.0]
    return X, y, target


def _check_prefixes(run, X, y, curves):
    """Every finite value bounds the mistakes of its prefix; at t = T it is evaluate()'s."""
    expected = np.cumsum(np.isin(np.arange(run.n_trials), run.mistake_trials))
    assert np.array_equal(curves.mistakes, expected)
    for name, values in curves.items():
        assert values.shape == (run.n_trials,)
        finite = np.isfinite(values)
        bad = np.flatnonzero(finite & (values * (1 + 1e-9) < expected))
        assert bad.size == 0, (name, bad[:3], values[bad[:3]], expected[bad[:3]], run.params)
    if curves.gamma is None:
        return
    u = curves.comparator.u
    if u is None:  # a kernel comparator: evaluate() takes vectors only
        return
    report = evaluate(run, X, y, u=u, gamma=curves.gamma)
    for name, values in curves.items():
        row = report.row(name, curves.variant)
        if row.applies:
            np.testing.assert_allclose(values[-1], row.value, rtol=1e-9)
        else:
            assert values[-1] == np.inf, (name, row.reason, values[-1])


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(spec=st.sampled_from(SPECS), seed=st.integers(0, 10_000), n_samples=st.integers(4, 30),
       n_features=st.integers(2, 6), noise=st.sampled_from([0.0, 0.1, 0.3]),
       epochs=st.integers(1, 3), unit=st.booleans(), fraction=st.floats(0.01, 1.5),
       variant=st.sampled_from(["stated", "tightened"]), perturb=st.floats(0.0, 2.0))
def test_every_prefix_value_is_a_bound(spec, seed, n_samples, n_features, noise, epochs, unit,
                                       fraction, variant, perturb):
    algorithm, params = spec
    X, y, target = _data(seed, n_samples, n_features, noise, unit)
    run = run_online(algorithm, X, y, epochs=epochs, shuffle=True, seed=seed, **params)
    rng = np.random.default_rng(seed)
    linear = params.get("kernel", "linear") == "linear"
    u = target + perturb * rng.standard_normal(n_features) if linear else None
    gamma = fraction * float(np.linalg.norm(X, axis=1).max())
    curves = bounds_over_time(run, X, y, u=u, gamma=gamma, variant=variant)
    _check_prefixes(run, X, y, curves)


@pytest.mark.parametrize("algorithm, params", SPECS)
@pytest.mark.parametrize("variant", ["stated", "tightened"])
def test_u_and_gamma_chosen_as_evaluate_chooses_them(algorithm, params, variant):
    X, y, _ = _data(3, 40, 3, 0.1)
    run = run_online(algorithm, X, y, epochs=2, **params)
    curves = bounds_over_time(run, X, y, variant=variant)
    _check_prefixes(run, X, y, curves)
    assert curves and curves.gamma > 0 and curves.comparator is not None
    # gamma is the margin of the smallest applicable bound of evaluate() on the whole run
    report = evaluate(run, X, y)
    best = min((row for row in report.rows if row.applies and row.variant == variant),
               key=lambda row: row.value)
    assert curves.gamma == best.gamma and curves.comparator.label == best.comparator
    assert curves[best.name][-1] == pytest.approx(best.value, rel=1e-9)


def test_novikoff_on_separable_data_is_constant_and_fails_after_a_noisy_trial():
    X, y, target = make_separable(60, 2, margin=0.2, seed=1)
    run = run_online("perceptron", X, y)
    curves = bounds_over_time(run, X, y, u=target, gamma=0.2)
    assert np.allclose(curves["novikoff"], 25.0)  # (R / gamma)^2 with R = 1
    y = y.copy()
    y[10] = -y[10]  # the 11th trial now has y u.x < 0 < gamma
    run = run_online("perceptron", X, y)
    curves = bounds_over_time(run, X, y, u=target, gamma=0.2)
    assert np.isfinite(curves["novikoff"][:10]).all() and np.isinf(curves["novikoff"][10:]).all()
    assert np.isfinite(curves["freund_schapire"]).all()


def test_ballseptron_conditions_on_a_prefix_follow_its_radius():
    """Stated Ballseptron bounds need gamma <= R(t): inf until a long enough x is shown."""
    X, y, target = make_separable(30, 2, margin=0.1, seed=2)
    X = X * np.where(np.arange(30) < 5, 0.1, 1.0)[:, None]
    run = run_online("ballseptron", X, y, r=0.01)
    curves = bounds_over_time(run, X, y, u=target, gamma=0.5)
    for name in ("freund_schapire", "ballseptron_d1", "ballseptron_corrected_d1"):
        assert np.isinf(curves[name][:5]).all() and np.isfinite(curves[name][5:]).all()


def test_names_pick_and_order_the_curves():
    X, y, target = _data(0, 30, 2, 0.0)
    run = run_online("perceptron", X, y)
    curves = bounds_over_time(run, X, y, ["ballseptron_d1", "novikoff"], u=target, gamma=0.05)
    assert list(curves) == ["ballseptron_d1", "novikoff"]
    assert list(bounds_over_time(run, X, y, "novikoff", u=target, gamma=0.05)) == ["novikoff"]


def test_gamma_of_another_bound_when_the_named_one_fails_on_the_whole_run():
    """Novikoff applies to no gamma on noisy data: gamma is then the best other bound's."""
    X, y, target = make_separable(50, 2, margin=0.2, seed=1)
    y = y.copy()
    y[20] = -y[20]
    run = run_online("perceptron", X, y)
    curves = bounds_over_time(run, X, y, ["novikoff"], u=target)
    best = min((row for row in evaluate(run, X, y, u=target).rows
                if row.applies and row.variant == "stated"), key=lambda row: row.value)
    assert list(curves) == ["novikoff"] and curves.gamma == best.gamma
    assert np.isinf(curves["novikoff"][20:]).all()
    assert f"the best for {best.name}" in curves.notes[-1]


@pytest.mark.parametrize("algorithm, params, names", [
    ("pnorm", {"p": 4.0}, ["pnorm_separable", "pnorm_d2", "pnorm_d1"]),
    ("higher_order", {"p": 3.0, "c": 0.4}, ["higher_order"]),
])
@pytest.mark.parametrize("variant", ["stated", "tightened"])
def test_curves_for_p_above_2(algorithm, params, names, variant):
    """p > 2 (theory §4.1): each curve bounds every prefix and ends at evaluate's value."""
    X, y, target = _data(0, 30, 3, 0.1)
    run = run_online(algorithm, X, y, epochs=3, **params)
    gamma = 0.05
    curves = bounds_over_time(run, X, y, u=target, gamma=gamma, variant=variant)
    assert list(curves) == names and "unit q-norm" in curves.notes[0]
    report = evaluate(run, X, y, u=target, gamma=gamma)
    for name in names:
        values = curves[name]
        finite = np.isfinite(values)
        assert np.all(values[finite] >= curves.mistakes[finite])
        row = report.row(name, variant)
        assert row.applies == bool(finite[-1])
        if row.applies:
            assert values[-1] == pytest.approx(row.value, rel=1e-12)


def test_a_warm_started_run_has_no_bound():
    X, y, target = _data(0, 30, 3, 0.0)
    run = run_online("perceptron", X, y)
    more = run_online("perceptron", X, y, warm_start=run)
    curves = bounds_over_time(more, X, y, u=target, gamma=0.05)
    assert dict(curves) == {} and "warm-started" in curves.notes[-1]


@pytest.mark.parametrize("kwargs, error, match", [
    ({"names": ["second_order"]}, ValueError, "names must be one of 'novikoff'"),
    ({"names": ["novikof"]}, ValueError, "did you mean 'novikoff'"),
    ({"variant": "tight"}, ValueError, "variant must be one of"),
    ({"gamma": 0.0}, ValueError, "gamma must be in"),
    ({"gamma": "1"}, TypeError, "gamma must be a real number"),
    ({"u": np.ones(5)}, ValueError, r"u must have shape \(3,\)"),
])
def test_bad_arguments(kwargs, error, match):
    X, y, _ = _data(0, 20, 3, 0.0)
    run = run_online("perceptron", X, y)
    with pytest.raises(error, match=match):
        bounds_over_time(run, X, y, **kwargs)


def test_every_registered_algorithm_has_its_curves():
    assert sorted(name for name in available() if get(name).bounds) == available()


def test_docstring_examples():
    result = doctest.testmod(over_time)
    assert result.attempted and not result.failed


def test_a_multiclass_run_is_refused():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 2))
    y = np.argmax(X @ rng.standard_normal((2, 3)), axis=1)
    run = run_online("perceptron", X, y, multiclass="native")
    with pytest.raises(ValueError, match="takes a binary run; this run is multiclass='native'"):
        bounds_over_time(run, X, y)
