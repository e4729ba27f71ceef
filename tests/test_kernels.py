"""Kernels: gamma "scale"/"auto" as SVC's, and the kernel-row cache of every dual form."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.svm import SVC

from perceptron_bounds import KernelPerceptron, kernels, run_online
from perceptron_bounds.kernels import kernel_row, kernel_row_dot, make_kernel

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


# ---------------------------------------------------------------- the kernel-row cache


def test_kernel_row_reads_the_cache_and_fills_it():
    S, Z = rng.standard_normal((7, 3)), rng.standard_normal((2, 3))
    values, filled = np.full((2, 16), -1.0), np.array([3, 0])
    out = np.empty(7)
    values = kernel_row(S, 7, Z, 0, values, filled, 32, 0, 3, 1.0, 1.0, out)
    np.testing.assert_array_equal(out[:3], -1.0)  # read, not recomputed
    np.testing.assert_allclose(out[3:], S[3:] @ Z[0], rtol=1e-12)
    assert filled.tolist() == [7, 0]
    np.testing.assert_array_equal(values[0, 3:7], out[3:])


def test_kernel_row_grows_within_its_cap_and_no_further():
    S, Z = rng.standard_normal((40, 3)), rng.standard_normal((2, 3))
    values, filled = np.empty((2, 16)), np.zeros(2, dtype=np.int64)
    out = np.empty(40)
    values = kernel_row(S, 20, Z, 1, values, filled, 2 * 40, 0, 3, 1.0, 1.0, out)
    assert values.shape == (2, 40) and filled[1] == 20  # capacity(20) = 40 columns fit
    values = kernel_row(S, 40, Z, 1, values, filled, 2 * 40, 0, 3, 1.0, 1.0, out)
    assert values.shape == (2, 40) and filled[1] == 40
    np.testing.assert_allclose(out, S @ Z[1], rtol=1e-12)
    small = kernel_row(S, 40, Z, 0, np.empty((2, 16)), np.zeros(2, dtype=np.int64), 40, 0, 3,
                       1.0, 1.0, out)
    assert small.shape == (2, 16)  # 2 x capacity(40) = 160 entries exceed the cap of 40
    np.testing.assert_allclose(out, S @ Z[0], rtol=1e-12)


def test_kernel_row_dot_sums_in_order_through_the_cache():
    S, Z = rng.standard_normal((9, 4)), rng.standard_normal((3, 4))
    coef = rng.standard_normal(9)
    values, filled = np.empty((3, 16)), np.zeros(3, dtype=np.int64)
    expected = 0.0
    for j in range(9):
        expected += coef[j] * (S[j] @ Z[2])
    for _ in range(2):  # computed, then read back from the cache
        values, s = kernel_row_dot(S, coef, 9, Z, 2, values, filled, 48, 0, 3, 1.0, 1.0)
        assert s == pytest.approx(expected, rel=1e-12)
    assert filled[2] == 9
    _, s = kernel_row_dot(S, coef, 9, Z, 0, np.empty((0, 16)), filled, 48, 0, 3, 1.0, 1.0)
    assert s == pytest.approx(coef @ (S @ Z[0]), rel=1e-13)  # no rows: nothing cached


DUAL_RUNS = [
    ("perceptron", {}), ("voted_perceptron", {}), ("ballseptron", {"r": 0.05}),
    ("second_order", {"variant": "inverse"}), ("second_order", {"variant": "adaptive"}),
    ("second_order", {"variant": "pinv"}), ("higher_order", {}),
    ("higher_order", {"sparse": True}),
]


@pytest.mark.parametrize("algorithm, params", DUAL_RUNS)
@pytest.mark.parametrize("cap", [0, 60 * 3, 60 * 16])
def test_every_dual_form_gives_the_same_run_whatever_the_cache(monkeypatch, algorithm, params,
                                                               cap):
    """No cache, a cache of 3 values per row (the rest recomputed) and a growing one: one run."""
    options = {"kernel": "rbf", "gamma": 0.4, "form": "dual", "epochs": 3, "shuffle": True,
               "seed": 2, "record_margins": True, **params}
    full = run_online(algorithm, X, Y, **options)
    monkeypatch.setattr(kernels, "KERNEL_CACHE_ENTRIES", cap)
    capped = run_online(algorithm, X, Y, **options)
    np.testing.assert_array_equal(capped.mistake_trials, full.mistake_trials)
    np.testing.assert_array_equal(capped.margins, full.margins)
    np.testing.assert_array_equal(capped.decision_function(X), full.decision_function(X))
