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


def large_norm_rows():
    """12 rows of norm about 1e8, some a unit apart, and a duplicate: ||x||^2 + ||z||^2 - 2 x.z
    cancels to the last digit here (issue 20, item 2)."""
    rng = np.random.default_rng(5)
    X = np.vstack([rng.standard_normal((6, 3)) * 1e8, 1e8 + rng.standard_normal((6, 3))])
    X[11] = X[6]
    return X


@pytest.mark.parametrize("kind", ["dense", "csr", "csr-dense"])
def test_rbf_gram_of_large_norm_rows_is_the_difference_form(kind):
    from perceptron_bounds.kernels import kernel_value

    X = large_norm_rows()
    kernel = make_kernel("rbf", gamma=0.5, n_features=3)
    A = sp.csr_matrix(X) if kind != "dense" else X
    Z = A if kind != "csr-dense" else X
    G = kernel.gram(A, Z)
    assert np.all(np.diag(G) == 1.0)
    assert G[6, 11] == 1.0
    pairwise = np.array([[kernel_value(a, b, *kernel.loop_args()) for b in X] for a in X])
    np.testing.assert_allclose(G, pairwise, rtol=1e-12, atol=1e-300)
    np.testing.assert_array_equal(kernel.gram(A[:5], Z[:5]), G[:5, :5])
    assert np.all(kernel.diagonal(A) == 1.0)


def _rbf_bounds_hold_on_rows_of_norm_1e8(algorithm, seeds):
    from perceptron_bounds.bounds import evaluate

    for seed in seeds:
        rng = np.random.default_rng(seed)
        X = 1e8 + rng.standard_normal((12, 5))
        y = np.arange(12) % 3 if algorithm == "native" else rng.permutation([1, -1] * 6)
        kwargs = {"multiclass": "native"} if algorithm == "native" else (
            {"r": 0.1} if algorithm == "ballseptron" else {})
        name = "perceptron" if algorithm == "native" else algorithm
        run = run_online(name, X, y, kernel="rbf", gamma=0.5, epochs=3, **kwargs)
        for row in evaluate(run, X, y).rows:
            assert row.holds is not False, (seed, row)


@pytest.mark.parametrize("algorithm", ["perceptron", "ballseptron", "native"])
def test_rbf_bounds_hold_on_rows_of_norm_1e8(algorithm):
    """12 rows at norm 1e8, gamma 0.5: before the stable squared distance 13 of 200 seeds
    violated a bound and evaluate raised on most of the others (here the first 50 seeds;
    the other 150 are slow)."""
    _rbf_bounds_hold_on_rows_of_norm_1e8(algorithm, range(50))


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", ["perceptron", "ballseptron", "native"])
def test_rbf_bounds_hold_on_rows_of_norm_1e8_slow(algorithm):
    _rbf_bounds_hold_on_rows_of_norm_1e8(algorithm, range(50, 200))
