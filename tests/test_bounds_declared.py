"""Bounds are declarations: evaluate and bounds_over_time read the same ones (theory §4).

For every registered algorithm (binary runs, each variant of its bounds), the bounds
``evaluate`` reports and the curves ``bounds_over_time`` draws are the same names, and
each curve's last point is ``evaluate``'s value at the same comparator and gamma. A
bound declared from outside the package, with public names only, is evaluated alike.
"""

import dataclasses

import numpy as np
import pytest

from perceptron_bounds import registry, run_online
from perceptron_bounds.algorithms import available, get
from perceptron_bounds.bounds import (
    Bound,
    GammaInterval,
    Requirement,
    bounds_over_time,
    declared,
    declared_bounds,
    evaluate,
    register_bound,
)
from perceptron_bounds.datasets import make_separable

SPECS = [
    ("alma", {"p": 2.0, "alpha": 0.5}),
    ("alma", {"p": 3.0}),
    ("alma", {"kernel": "rbf", "gamma": 1.0}),
    ("arow", {"r": 0.5}),
    ("arow", {"kernel": "rbf", "gamma": 1.0}),
    ("perceptron", {}),
    ("perceptron", {"kernel": "rbf", "gamma": 1.0}),
    ("voted_perceptron", {}),
    ("voted_perceptron", {"kernel": "poly", "degree": 2, "gamma": 1.0}),
    ("ballseptron", {"r": 0.05}),
    ("ballseptron", {"r": 0.05, "kernel": "rbf", "gamma": 1.0}),
    ("pnorm", {"p": 2.0}),
    ("pnorm", {"p": 3.0}),
    ("second_order", {"variant": "inverse"}),
    ("second_order", {"variant": "adaptive"}),
    ("second_order", {"variant": "pinv"}),
    ("second_order", {"kernel": "poly", "degree": 2, "gamma": 1.0}),
    ("higher_order", {"p": 2.0, "c": 0.4}),
    ("higher_order", {"p": 4.0, "c": 0.4}),
    ("passive_aggressive", {"variant": "pa"}),
    ("passive_aggressive", {"variant": "pa1", "C": 0.5}),
    ("passive_aggressive", {"variant": "pa2", "kernel": "rbf", "gamma": 1.0}),
    ("romma", {}),
    ("romma", {"aggressive": True, "kernel": "rbf", "gamma": 1.0}),
    ("selective_perceptron", {"b": 0.5, "seed": 1}),
    ("selective_perceptron", {"b": 0.5, "seed": 1, "kernel": "rbf", "gamma": 1.0}),
    ("selective_second_order", {"b": 0.5, "seed": 1}),
    ("selective_second_order", {"b": 0.5, "seed": 1, "kernel": "poly", "degree": 2,
                                "gamma": 1.0}),
    ("projectron", {"eta": 0.1}),
    ("projectron", {"eta": 0.2, "plus": True, "kernel": "rbf", "gamma": 1.0}),
    ("forgetron", {"budget": 10, "kernel": "rbf", "gamma": 1.0}),
    ("randomized_budget_perceptron", {"budget": 10, "kernel": "rbf", "gamma": 1.0}),
    ("shifting_perceptron", {"decay": 0.5}),
    ("shifting_perceptron", {"decay": 2.0, "kernel": "rbf", "gamma": 1.0}),
    ("projected_perceptron", {"radius": 3.0}),
    ("projected_perceptron", {"radius": 3.0, "kernel": "poly", "degree": 2, "gamma": 1.0}),
]


def _data(seed=3):
    X, y, target = make_separable(60, 3, margin=0.05, label_noise=0.1, seed=seed)
    y[:2] = [1.0, -1.0]
    return X, y, target


def test_the_specs_cover_every_registered_algorithm():
    assert sorted({algorithm for algorithm, _ in SPECS}) == available()


@pytest.mark.parametrize("algorithm, params", SPECS)
@pytest.mark.parametrize("variant", ["stated", "tightened"])
def test_evaluate_and_the_curves_name_the_same_bounds(algorithm, params, variant):
    X, y, target = _data()
    run = run_online(algorithm, X, y, epochs=2, **params)
    if algorithm == "ballseptron":
        assert run.margin_errors > 0  # its conditions in force in the tightened variant too
    report = evaluate(run, X, y)
    names = list(dict.fromkeys(row.name for row in report.rows))
    assert names and {row.variant for row in report.rows} == {"stated", "tightened"}
    curves = bounds_over_time(run, X, y, variant=variant)
    assert set(curves) <= set(names)
    drawn = bounds_over_time(run, X, y, names, u=None, gamma=curves.gamma, variant=variant)
    assert list(drawn) == names
    if curves.comparator is None:  # no bound applies: ROMMA's needs separation (theory §4.7)
        assert not any(row.applies for row in report.rows if row.variant == variant)
        return
    # where evaluate's row applies at the curves' comparator and gamma, the last point is its value
    at_gamma = evaluate(run, X, y, u=curves.comparator.u, gamma=curves.gamma)
    compared = 0
    for name in names:
        row = at_gamma.row(name, variant)
        if row.comparator != curves.comparator.label and row.comparator != "given":
            continue
        compared += 1
        if row.applies:
            assert name in curves
            assert drawn[name][-1] == pytest.approx(row.value, rel=1e-9), name
        else:
            assert drawn[name][-1] == np.inf, (name, row.reason)
    assert compared


@pytest.mark.parametrize("algorithm, params", [spec for spec in SPECS
                                               if spec[1].get("kernel", "linear") == "linear"])
def test_last_points_equal_evaluate_at_a_given_u_and_gamma(algorithm, params):
    X, y, target = _data(5)
    run = run_online(algorithm, X, y, epochs=2, **params)
    for gamma in (0.01, 0.05, 0.3):
        report = evaluate(run, X, y, u=target, gamma=gamma)
        for variant in ("stated", "tightened"):
            curves = bounds_over_time(run, X, y, [row.name for row in report.rows
                                                  if row.variant == variant],
                                      u=target, gamma=gamma, variant=variant)
            for name, values in curves.items():
                row = report.row(name, variant)
                if row.applies:
                    assert values[-1] == pytest.approx(row.value, rel=1e-9), (name, variant)
                else:
                    assert values[-1] == np.inf, (name, variant, row.reason)


def test_each_declared_bound_is_listed_by_an_algorithm_and_has_a_label():
    listed = {name for algorithm in available() for name in get(algorithm).bounds}
    assert listed <= set(declared_bounds())
    assert {name for name in declared_bounds() if not name.startswith("test_")} <= listed
    assert declared("novikoff").label == r"novikoff $(R/\gamma)^2$"
    assert declared("pnorm_d1").label == "pnorm_d1"


# A bound declared as a user would: closed form and conditions over the standard quantities.
HALF_GAP = register_bound(Bound(
    name="test_half_gap", source="a test", label="half gap",
    value=lambda q, gamma: 2.0 * (q.R / gamma) ** 2 + 0.0 * q.D1(gamma),
    quantities=("R", "D1", "min_margin", "margin_errors"),
    conditions=(GammaInterval("gamma <= min y u.x", high="min_margin"),
                Requirement(lambda q: q.margin_errors == 0, "a margin error"))))


@pytest.fixture
def perceptron_with_the_test_bound(monkeypatch):
    spec = get("perceptron")
    monkeypatch.setitem(registry._REGISTRY, "perceptron",
                        dataclasses.replace(spec, bounds=(*spec.bounds, "test_half_gap")))


def test_a_bound_declared_outside_is_evaluated_alike(perceptron_with_the_test_bound):
    X, y, target = make_separable(80, 3, margin=0.1, seed=0)
    run = run_online("perceptron", X, y, epochs=2)
    report = evaluate(run, X, y, target=target)
    row, novikoff = report.row("test_half_gap"), report.row("novikoff")
    assert row.applies and row.source == "a test" and row.value == pytest.approx(2 * novikoff.value)
    assert row.quantities["min_margin"] == novikoff.quantities["min_margin"]
    assert report.row("test_half_gap", "tightened").source == "a test + theory §4.2"
    curves = bounds_over_time(run, X, y, u=target, gamma=row.gamma)
    assert curves["test_half_gap"][-1] == pytest.approx(row.value, rel=1e-9)
    # past the separation margin the interval fails, with its text as the reason
    failed = evaluate(run, X, y, u=target, gamma=2 * row.gamma).row("test_half_gap")
    assert not failed.applies and "gamma <= min y u.x" in failed.reason


def test_declaration_errors():
    with pytest.raises(ValueError, match="already declared"):
        register_bound(dataclasses.replace(declared("novikoff")))
    with pytest.raises(ValueError, match="bound must be one of"):
        declared("novikof")
    with pytest.raises(TypeError, match="conditions must hold"):
        Bound(name="x", source="s", value=lambda q, g: g, conditions=("gamma <= R",))
    with pytest.raises(TypeError, match="value must be a callable"):
        Bound(name="x", source="s", value=1.0)
