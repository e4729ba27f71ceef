"""AROW (theory §2.10): the jitted forms against the plain-NumPy reference, the forms against
each other, warm starts, one-vs-rest, the memory budget and bad input."""

import doctest

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import noisy_separable
from reference import arow, arow_gram, presented_sequence
from sklearn.utils.estimator_checks import parametrize_with_checks
from threadpoolctl import threadpool_limits

from perceptron_bounds import AROW, run_online
from perceptron_bounds.algorithms import arow as arow_module


@pytest.fixture(autouse=True)
def one_blas_thread():
    """The references make many tiny LAPACK calls: threads only contend on a busy machine."""
    with threadpool_limits(limits=1):
        yield


KERNELS = [("poly", {"degree": 3, "gamma": 0.5, "coef0": 1.0}), ("rbf", {"gamma": 0.3})]


def rel_err(a, b):
    return np.linalg.norm(np.asarray(a) - np.asarray(b)) / max(np.linalg.norm(b), 1e-300)


def assert_close(actual, desired, tol=1e-10):
    """Equal to ``tol`` relative to each value or, for values near 0, to the largest one."""
    desired = np.asarray(desired)
    np.testing.assert_allclose(actual, desired, rtol=tol,
                               atol=tol * max(np.abs(desired).max(initial=0.0), 1e-300))


def sigma_of(run):
    """Sigma = (R^T R)^{-1} from the factor of the precision a full primal run keeps."""
    R = run.state["precision_factor"]
    return np.linalg.inv(R.T @ R)


def sparsified(X):
    X = X.copy()
    X[np.abs(X) < 0.7] = 0.0
    return X


def assert_run_is(run, found, order):
    """The run's trials exactly, its records (m, chi, margins) to 1e-10."""
    mistakes, errors, _, _, margins, ms, chis = found
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    np.testing.assert_array_equal(run.margin_error_trials, errors)
    np.testing.assert_array_equal(run.sample_index, order)
    assert_close(run.margins, margins)
    assert_close(run.state["m"], ms)
    assert_close(run.state["chi"], chis)


# ---------------------------------------------------------------- primal forms


@pytest.mark.parametrize("r", [0.1, 1.0, 10.0])
@pytest.mark.parametrize("diagonal", [False, True], ids=["full", "diagonal"])
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("epochs, noise", [(1, 0.0), (3, 0.15)])
def test_primal_matches_reference(r, diagonal, sparse, epochs, noise):
    X, y = noisy_separable(n_samples=60, n_features=6, noise=noise, seed=epochs)
    X = sparsified(X) if sparse else X
    run = run_online("arow", sp.csr_matrix(X) if sparse else X, y, r=r, diagonal=diagonal,
                     form="primal", epochs=epochs, shuffle=True, seed=4, record_margins=True)
    order = presented_sequence(len(y), epochs, True, 4)
    found = arow(X, y, order, r, diagonal=diagonal)
    assert_run_is(run, found, order)
    assert rel_err(run.weights, found[2]) < 1e-10
    if diagonal:
        assert rel_err(run.state["precision"], found[3]) < 1e-10
    else:
        assert rel_err(sigma_of(run), found[3]) < 1e-10
    assert run.params["form"] == "primal" and run.params["diagonal"] is diagonal


@pytest.mark.parametrize("r", [0.05, 1.0, 20.0])
def test_the_covariance_and_mean_are_the_closed_forms(r):
    """Sigma^{-1} = I + X_A X_A^T / r and mu = (r I + X_A X_A^T)^{-1} sum_A y x (theory §2.10)."""
    X, y = noisy_separable(n_samples=150, n_features=7, noise=0.1, seed=2)
    run = run_online("arow", X, y, r=r, epochs=3)
    XA, yA = X[run.sample_index[run.update_trials]], y[run.sample_index[run.update_trials]]
    A = np.eye(7) + XA.T @ XA / r
    assert rel_err(sigma_of(run), np.linalg.inv(A)) < 1e-9
    R = run.state["precision_factor"]
    np.testing.assert_array_equal(R, np.triu(R))
    assert rel_err(R.T @ R, A) < 1e-12
    assert rel_err(run.weights, np.linalg.solve(r * np.eye(7) + XA.T @ XA, XA.T @ yA)) < 1e-9
    diag = run_online("arow", X, y, r=r, epochs=3, diagonal=True)
    XA = X[diag.sample_index[diag.update_trials]]
    assert rel_err(diag.state["precision"], 1.0 + np.sum(XA**2, axis=0) / r) < 1e-12


@pytest.mark.parametrize("diagonal", [False, True], ids=["full", "diagonal"])
def test_sparse_equals_dense(diagonal):
    X, y = noisy_separable(n_samples=80, n_features=12, noise=0.1, seed=6)
    X = sparsified(X)
    dense = run_online("arow", X, y, diagonal=diagonal, form="primal", epochs=2,
                       record_margins=True)
    csr = run_online("arow", sp.csr_matrix(X), y, diagonal=diagonal, form="primal", epochs=2,
                     record_margins=True)
    np.testing.assert_array_equal(csr.mistake_trials, dense.mistake_trials)
    np.testing.assert_array_equal(csr.margin_error_trials, dense.margin_error_trials)
    assert_close(csr.margins, dense.margins, 1e-12)
    assert_close(csr.weights, dense.weights, 1e-12)


# ---------------------------------------------------------------- dual form


@pytest.mark.parametrize("r", [0.05, 1.0, 20.0])
def test_dual_linear_equals_primal(r):
    X, y = noisy_separable(n_samples=120, n_features=5, noise=0.1, seed=3)
    primal = run_online("arow", X, y, r=r, form="primal", epochs=3, record_margins=True)
    dual = run_online("arow", X, y, r=r, form="dual", epochs=3, record_margins=True)
    np.testing.assert_array_equal(dual.mistake_trials, primal.mistake_trials)
    np.testing.assert_array_equal(dual.margin_error_trials, primal.margin_error_trials)
    assert_close(dual.margins, primal.margins, 1e-9)
    assert_close(dual.state["chi"], primal.state["chi"], 1e-9)
    assert rel_err(dual.weights, primal.weights) < 1e-9
    assert dual.params["form"] == "dual"


@pytest.mark.parametrize("kernel, options", KERNELS + [("linear", {})])
@pytest.mark.parametrize("epochs", [1, 3])
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
def test_dual_matches_gram_reference(kernel, options, epochs, sparse):
    X, y = noisy_separable(n_samples=50, n_features=4, noise=0.1, seed=11)
    X = sparsified(X) if sparse else X
    run = run_online("arow", sp.csr_matrix(X) if sparse else X, y, r=0.5, kernel=kernel,
                     form="dual", epochs=epochs, shuffle=True, seed=7, record_margins=True,
                     **options)
    order = presented_sequence(len(y), epochs, True, 7)
    found = arow_gram(X, y, order, 0.5, kernel_name=kernel, **options)
    mistakes, errors, support, alpha, margins, ms, chis = found
    assert_run_is(run, (mistakes, errors, None, None, margins, ms, chis), order)
    supports = run.support_vectors.toarray() if sparse else run.support_vectors
    np.testing.assert_array_equal(supports, X[support])
    assert rel_err(run.dual_coef, alpha) < 1e-10
    assert rel_err(run.state["m_inv"], np.linalg.inv(
        0.5 * np.eye(len(support)) + run.hypothesis.kernel.gram(X[support], X[support]))) < 1e-9


def test_dual_stops_before_its_inverse_passes_the_budget():
    X, y = noisy_separable(n_samples=200, n_features=5, noise=0.3, seed=1)
    with pytest.raises(ValueError, match=r"form='dual' keeps 1 dense 3 x 3 .* memory_budget"):
        run_online("arow", X, y, form="dual", kernel="rbf", memory_budget=8 * 2 * 2)


# ---------------------------------------------------------------- runs


@pytest.mark.parametrize("options", [{"form": "primal"}, {"diagonal": True},
                                     {"form": "dual"}, {"kernel": "rbf", "gamma": 0.5}],
                         ids=["full", "diagonal", "dual", "rbf"])
def test_warm_start_continues_the_run(options):
    X, y = noisy_separable(n_samples=90, n_features=5, noise=0.1, seed=5)
    whole = run_online("arow", X, y, record_margins=True, **options)
    first = run_online("arow", X[:40], y[:40], **options)
    rest = run_online("arow", X[40:], y[40:], warm_start=first, record_margins=True)
    np.testing.assert_array_equal(np.concatenate([first.update_trials, rest.update_trials + 40]),
                                  whole.update_trials)
    np.testing.assert_array_equal(np.concatenate([first.mistake_trials, rest.mistake_trials + 40]),
                                  whole.mistake_trials)
    assert_close(rest.margins, whole.margins[40:], 1e-9)
    assert_close(rest.decision_function(X), whole.decision_function(X), 1e-9)


def test_one_vs_rest_is_the_binary_runs():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((90, 4))
    labels = np.argmax(X @ rng.standard_normal((4, 3)), axis=1)
    run = run_online("arow", X, labels, r=0.5, epochs=2, shuffle=True, seed=1)
    assert run.multiclass == "ovr" and len(run.class_runs) == 3
    for k, class_run in enumerate(run.class_runs):
        binary = run_online("arow", X, np.where(labels == k, 1, -1), r=0.5, epochs=2,
                            shuffle=True, seed=1)
        np.testing.assert_array_equal(class_run.mistake_trials, binary.mistake_trials)
        np.testing.assert_array_equal(class_run.margin_error_trials, binary.margin_error_trials)
        np.testing.assert_array_equal(class_run.weights, binary.weights)


def test_auto_form_records_the_form_used():
    X, y = noisy_separable(n_samples=30, n_features=5)
    assert run_online("arow", X, y).params["form"] == "primal"
    assert run_online("arow", X[:4], y[:4]).params["form"] == "dual"
    assert run_online("arow", X[:4], y[:4], diagonal=True).params["form"] == "primal"
    assert run_online("arow", X, y, kernel="rbf").params["form"] == "dual"


@pytest.mark.parametrize(
    "params, error, match",
    [({"r": 0.0}, ValueError, "r must be in"), ({"r": -1.0}, ValueError, "r must be in"),
     ({"r": np.nan}, ValueError, "r must be in"), ({"r": "1"}, TypeError, "r must be a real"),
     ({"diagonal": 1}, TypeError, "diagonal must be"),
     ({"diagonal": True, "form": "dual"}, ValueError, "diagonal=True has only the primal form"),
     ({"diagonal": True, "kernel": "rbf"}, ValueError, "diagonal=True has only the primal"),
     ({"kernel": "rbf", "form": "primal"}, ValueError, "form='primal' needs kernel='linear'"),
     ({"form": "primal", "memory_budget": 100}, ValueError,
      r"^form='primal' keeps 1 dense 5 x 5 float64 matrix \(1\.86e-07 GiB\), over "
      r"memory_budget=9\.31e-08 GiB; use form='dual' or diagonal=True, or raise memory_budget$"),
     ({"memory_budget": 0}, ValueError, "memory_budget must be in")],
)
def test_bad_input_is_one_line_before_any_trial(params, error, match, monkeypatch):
    for loop in ("_arow_full_loop", "_arow_diagonal_loop", "_arow_dual_loop"):
        monkeypatch.setattr(arow_module, loop, None)  # must not be reached
    X, y = noisy_separable(n_samples=10, n_features=5)
    with pytest.raises(error, match=match) as info:
        run_online("arow", X, y, **params)
    assert "\n" not in str(info.value)


def test_module_docstring_example():
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner()
    for obj, name in ((arow_module, "arow"), (AROW, "AROW")):
        for test in finder.find(obj, name):
            runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


# ---------------------------------------------------------------- scikit-learn estimator

ESTIMATORS = [AROW(), AROW(diagonal=True, r=0.5), AROW(kernel="rbf", epochs=2, shuffle=True)]


@parametrize_with_checks(ESTIMATORS)
def test_check_estimator(estimator, check):
    check(estimator)


@pytest.mark.parametrize("options", [{}, {"diagonal": True}, {"kernel": "poly", "gamma": None}])
def test_estimator_fit_and_partial_fit_are_runs(options):
    X, y = noisy_separable(n_samples=100, n_features=5, seed=7)
    est = AROW(protocol="paper", r=0.3, epochs=2, shuffle=True, random_state=3,
               **options).fit(X, y)
    run = run_online("arow", X, y, r=0.3, epochs=2, shuffle=True, seed=3, **options)
    np.testing.assert_array_equal(est.run_.mistake_trials, run.mistake_trials)
    assert est.margin_errors_ == run.margin_errors
    assert_close(est.decision_function(X), run.decision_function(X), 1e-12)
    streamed = AROW(protocol="paper", r=0.3, **options)
    streamed.partial_fit(X[:60], y[:60], classes=[-1, 1])
    streamed.partial_fit(X[60:], y[60:])
    whole = run_online("arow", X, y, r=0.3, **options)
    assert streamed.mistakes_ == whole.mistakes
    assert_close(streamed.decision_function(X), whole.decision_function(X), 1e-9)


def test_a_saved_run_keeps_what_the_bound_reads(tmp_path):
    from perceptron_bounds import load_run
    from perceptron_bounds.bounds import evaluate

    X, y = noisy_separable(n_samples=60, n_features=4, noise=0.1, seed=2)
    for options in ({}, {"form": "dual"}, {"diagonal": True}):
        run = run_online("arow", X, y, epochs=2, **options)
        back = load_run(run.save(tmp_path / "run"))
        for key in run.state:
            np.testing.assert_array_equal(back.state[key], run.state[key])
        assert [row.value for row in evaluate(back, X, y, u=np.ones(4), gamma=0.2).rows] == [
            row.value for row in evaluate(run, X, y, u=np.ones(4), gamma=0.2).rows]
