"""A renamed algorithm's former name ("pnorm_perceptron", now "pnorm") keeps working.

Everywhere a caller passes a name (``run_online``, the CLI's ``--algorithm`` and
``--algorithms``) the former name runs the algorithm with a ``DeprecationWarning``
naming the current one; a run saved under the former name by the previous release
loads as the current one, without a warning (the file is not the caller's to change),
and is evaluated alike.
"""

import json
import os

import numpy as np
import pytest
from conftest import noisy_separable

from perceptron_bounds import load_run, run_online
from perceptron_bounds.algorithms import Algorithm, available, get, register
from perceptron_bounds.bounds import evaluate
from perceptron_bounds.cli import main
from perceptron_bounds.persistence import HEADER
from perceptron_bounds.registry import current_name

DEPRECATED = r"algorithm name 'pnorm_perceptron' is deprecated; use 'pnorm'"


@pytest.fixture(scope="module")
def data():
    return noisy_separable(40, 3, seed=2)


def test_registered_under_the_short_name_only():
    assert "pnorm" in available() and "pnorm_perceptron" not in available()
    assert get("pnorm").former_names == ("pnorm_perceptron",)


def test_run_online_takes_the_former_name_with_a_warning(data):
    X, y = data
    with pytest.warns(DeprecationWarning, match=DEPRECATED):
        old = run_online("pnorm_perceptron", X, y, p=3.0, epochs=2)
    new = run_online("pnorm", X, y, p=3.0, epochs=2)
    assert old.algorithm == "pnorm"
    np.testing.assert_array_equal(old.mistake_trials, new.mistake_trials)
    np.testing.assert_array_equal(old.hypothesis.weights, new.hypothesis.weights)
    with pytest.warns(DeprecationWarning, match=DEPRECATED):
        assert get("pnorm_perceptron") is get("pnorm")


def test_current_name_leaves_other_values_alone():
    assert current_name("pnorm_perceptron", warn=False) == "pnorm"
    assert current_name("perceptron") == "perceptron"
    assert current_name(3) == 3


def test_a_former_name_cannot_be_registered_again():
    spec = get("perceptron")
    with pytest.raises(ValueError, match="'pnorm_perceptron' is already registered"):
        register(Algorithm(name="pnorm_perceptron", defaults={}, resolve=spec.resolve,
                           fit=spec.fit))
    with pytest.raises(ValueError, match="'pnorm' is already registered"):
        register(Algorithm(name="pnorm2", defaults={}, resolve=spec.resolve, fit=spec.fit,
                           former_names=("pnorm",)))
    assert "pnorm2" not in available()


def _as_previous_release(path):
    """Rewrite a saved run's header as the previous release wrote it: "pnorm_perceptron"."""
    with np.load(path) as archive:
        arrays = {key: archive[key] for key in archive.files}
    header = json.loads(str(arrays[HEADER]))
    header["run"]["algorithm"] = "pnorm_perceptron"
    arrays[HEADER] = np.array(json.dumps(header))
    np.savez(path, **arrays)


def test_a_run_saved_under_the_former_name_loads_and_evaluates(data, tmp_path):
    X, y = data
    run = run_online("pnorm", X, y, p=3.0, epochs=2)
    path = run.save(os.path.join(tmp_path, "run"))
    _as_previous_release(path)
    loaded = load_run(path)  # no warning: pytest turns one into an error
    assert loaded.algorithm == "pnorm"
    np.testing.assert_array_equal(loaded.mistake_trials, run.mistake_trials)
    assert evaluate(loaded, X, y).to_records() == evaluate(run, X, y).to_records()
    more = run_online("pnorm", X, y, p=3.0, warm_start=loaded)
    np.testing.assert_array_equal(more.mistake_trials,
                                  run_online("pnorm", X, y, p=3.0, warm_start=run).mistake_trials)


def test_cli_takes_the_former_name_with_a_warning(capsys):
    assert main(["run", "--algorithm", "pnorm_perceptron", "--param", "p=3"]) == 0
    out, err = capsys.readouterr()
    assert f"warning: {DEPRECATED}" in err
    assert main(["compare", "--algorithms", "pnorm_perceptron", "--param", "p=3"]) == 0
    out, err = capsys.readouterr()
    assert f"warning: {DEPRECATED}" in err
    assert "\npnorm " in out
