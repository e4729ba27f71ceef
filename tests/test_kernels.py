"""Kernels: gamma "scale"/"auto" as SVC's, and the kernel-row cache of every dual form."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.svm import SVC

from perceptron_bounds import KernelPerceptron, run_online
from perceptron_bounds.kernels import make_kernel

rng = np.random.default_rng(11)
X = rng.standard_normal((60, 5)) * [1.0, 2.0, 0.5, 3.0, 1.0] + 0.7
Y = np.where(X[:, 0] - X[:, 1] + 0.3 * rng.standard_normal(60) > 0, 1, -1)


def svc_gamma(X, gamma):
    """The gamma scikit-learn's SVC resolves (its private ``_gamma`` after fit)."""
    return SVC(kernel="rbf", gamma=gamma).fit(X, Y[: X.shape[0]])._gamma


@pytest.mark.parametrize("gamma", ["scale", "auto"])
def test_gamma_strings_resolve_as_scikit_learns_svc(gamma):
    expected = svc_gamma(X, gamma)
    assert make_kernel("rbf", gamma=gamma, n_features=5, X=X).gamma == pytest.approx(expected,
                                                                                     rel=1e-12)
    Xs = sp.csr_matrix(np.where(np.abs(X) > 1.0, X, 0.0))
    got = make_kernel("poly", gamma=gamma, n_features=5, X=Xs).gamma
    assert got == pytest.approx(svc_gamma(Xs, gamma), rel=1e-12)


def test_gamma_scale_of_constant_data_is_one():
    assert make_kernel("rbf", gamma="scale", n_features=3, X=np.ones((4, 3))).gamma == 1.0


def test_gamma_none_is_auto():
    assert make_kernel("rbf", gamma=None, n_features=4).gamma == 0.25


def test_bad_gamma_strings_are_one_line_errors():
    with pytest.raises(ValueError, match="one of 'scale', 'auto'.*did you mean 'scale'"):
        make_kernel("rbf", gamma="scal", n_features=3, X=X)
    with pytest.raises(ValueError, match="gamma='scale' needs the data X"):
        make_kernel("rbf", gamma="scale", n_features=3)


@pytest.mark.parametrize("algorithm", ["perceptron", "voted_perceptron", "ballseptron",
                                       "second_order", "higher_order"])
def test_a_run_with_gamma_scale_is_the_run_with_its_value(algorithm):
    scaled = run_online(algorithm, X, Y, kernel="rbf", gamma="scale", epochs=2)
    value = svc_gamma(X, "scale")
    assert scaled.params["gamma"] == pytest.approx(value, rel=1e-12)
    plain = run_online(algorithm, X, Y, kernel="rbf", gamma=scaled.params["gamma"], epochs=2)
    np.testing.assert_array_equal(scaled.mistake_trials, plain.mistake_trials)
    np.testing.assert_array_equal(scaled.decision_function(X), plain.decision_function(X))


def test_a_warm_start_keeps_its_scale():
    first = run_online("perceptron", X[:30], Y[:30], kernel="rbf", gamma="scale")
    more = run_online("perceptron", X[30:], Y[30:], kernel="rbf", gamma="scale", warm_start=first)
    assert more.params["gamma"] == first.params["gamma"] != svc_gamma(X[30:], "scale")
    with pytest.raises(ValueError, match="differs from the warm start's gamma"):
        run_online("perceptron", X[30:], Y[30:], kernel="rbf", gamma=0.123, warm_start=first)


def test_kernel_estimators_default_to_gamma_scale():
    clf = KernelPerceptron().fit(X, Y)
    assert clf.gamma == "scale"
    assert clf.run_.params["gamma"] == pytest.approx(svc_gamma(X, "scale"), rel=1e-12)
    clf.partial_fit(X[:10], Y[:10])  # a warm start on another batch keeps the scale
    assert clf.run_.params["gamma"] == pytest.approx(svc_gamma(X, "scale"), rel=1e-12)
