"""Unknown names get the closest valid one suggested (_validation.did_you_mean)."""

import numpy as np
import pytest

from perceptron_bounds import run_online
from perceptron_bounds._validation import check_choice, did_you_mean
from perceptron_bounds.algorithms import get
from perceptron_bounds.datasets import make_separable
from perceptron_bounds.experiments import epochs_curve
from perceptron_bounds.registry import check_params


@pytest.mark.parametrize(
    ("value", "choices", "expected"),
    [
        ("rbg", ["linear", "poly", "rbf"], "; did you mean 'rbf'?"),
        ("RBF", ["linear", "poly", "rbf"], "; did you mean 'rbf'?"),
        ("lineer", ["linear", "poly", "rbf"], "; did you mean 'linear'?"),
        ("sigmoid", ["linear", "poly", "rbf"], ""),
        ("", ["linear", "poly", "rbf"], ""),
        (3, ["linear", "poly", "rbf"], ""),
        (None, ["a"], ""),
        ("perceptorn", ["perceptron", "pnorm", "voted_perceptron"],
         "; did you mean 'perceptron'?"),
        ("x", [], ""),
    ],
)
def test_did_you_mean(value, choices, expected):
    assert did_you_mean(value, choices) == expected


def test_did_you_mean_prefers_the_closest_and_the_first_of_equals():
    assert did_you_mean("sop-tyo", ["hop-fig2", "sop-toy"]) == "; did you mean 'sop-toy'?"
    assert did_you_mean("ab", ["AB", "ab_"]) == "; did you mean 'AB'?"
    assert did_you_mean("Ab", ["ab", "AB"]) == "; did you mean 'ab'?"


def test_check_choice_suggests():
    with pytest.raises(ValueError) as info:
        check_choice("kernel", "rbg", ("linear", "poly", "rbf"))
    assert str(info.value) == (
        "kernel must be one of 'linear', 'poly', 'rbf', got 'rbg'; did you mean 'rbf'?"
    )
    with pytest.raises(ValueError) as info:
        check_choice("kernel", "sigmoid", ("linear", "poly", "rbf"))
    assert str(info.value) == "kernel must be one of 'linear', 'poly', 'rbf', got 'sigmoid'"


def test_registry_get_suggests():
    with pytest.raises(ValueError, match=r"got 'ballseptorn'; did you mean 'ballseptron'\?$"):
        get("ballseptorn")
    with pytest.raises(ValueError, match=r"got 'nope'$"):
        get("nope")


def test_run_online_suggests_a_kernel():
    with pytest.raises(ValueError, match=r"did you mean 'poly'\?"):
        run_online("perceptron", np.eye(2), [0, 1], kernel="polynomial")


def test_run_online_suggests_a_parameter():
    message = (r"^'perceptron' got unexpected parameter\(s\) kernal; it takes: kernel, degree, "
               r"gamma, coef0, form; did you mean 'kernel'\?$")
    with pytest.raises(TypeError, match=message):
        run_online("perceptron", np.eye(2), [0, 1], kernal="rbf")
    assert check_params("perceptron", {"kernel": "rbf"}) is get("perceptron")


def test_an_experiment_spec_gets_the_same_check():
    """run_online and the experiments' specs share one check (registry.check_params)."""
    train = test = make_separable(n_samples=20, n_features=2, seed=0)
    specs = [("FO", "pnorm", {"normalise": True, "q": 1})]
    message = (r"^spec 'FO': 'pnorm' got unexpected parameter\(s\) normalise, q; it "
               r"takes: p, normalize; did you mean 'normalize'\? \(for 'normalise'\)$")
    with pytest.raises(TypeError, match=message):
        epochs_curve(specs, train, test)
