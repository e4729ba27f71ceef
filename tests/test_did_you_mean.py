"""Unknown names get the closest valid one suggested (_validation.did_you_mean)."""

import numpy as np
import pytest

from perceptron_bounds import run_online
from perceptron_bounds._validation import check_choice, did_you_mean
from perceptron_bounds.algorithms import get


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
