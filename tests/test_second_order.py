"""The Second-Order Perceptron's jitted loops against plain-NumPy references (theory §2.4)."""

import doctest

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import noisy_separable
from reference import (
    perceptron,
    presented_sequence,
    second_order,
    second_order_gram,
    second_order_pinv,
    second_order_pinv_gram,
)
from sklearn.utils.estimator_checks import parametrize_with_checks
from threadpoolctl import threadpool_limits

from perceptron_bounds import SecondOrderPerceptron, kernel_engine, run_online
from perceptron_bounds.algorithms import second_order as so_module
from perceptron_bounds.bounds.spectra import span_spectrum
from perceptron_bounds.kernels import kernel_of


@pytest.fixture(autouse=True)
def one_blas_thread():
    """The references make many tiny LAPACK calls: threads only contend on a busy machine."""
    with threadpool_limits(limits=1):
        yield


KERNELS = [("poly", {"degree": 3, "gamma": 0.5, "coef0": 1.0}), ("rbf", {"gamma": 0.3})]


def rel_err(a, b):
    return np.linalg.norm(np.asarray(a) - np.asarray(b)) / max(np.linalg.norm(b), 1e-300)


def assert_margins(actual, desired, tol=1e-9):
    """Equal to ``tol`` relative to each margin or, for margins near 0, to the largest one."""
    np.testing.assert_allclose(actual, desired, rtol=tol, atol=tol * np.abs(desired).max())


def unit_rows(X):
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def low_rank(n_samples, n_features, rank, seed):
    """Rows in a random rank-``rank`` subspace, labelled by a direction inside it."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n_samples, rank)) @ rng.standard_normal((rank, n_features))
    y = np.where(X @ X[0] + 0.3 * np.linalg.norm(X[0]) ** 2 > 0, 1.0, -1.0)
    return X, y


# ---------------------------------------------------------------- fixed a, primal


@pytest.mark.parametrize("a", [0.01, 1.0, 100.0])
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
@pytest.mark.parametrize("epochs", [1, 3])
@pytest.mark.parametrize("noise", [0.0, 0.15], ids=["separable", "noisy"])
def test_primal_matches_direct_solve(a, sparse, epochs, noise):
    X, y = noisy_separable(n_samples=60, n_features=6, noise=noise, seed=epochs)
    if sparse:
        X[np.abs(X) < 0.7] = 0.0
    run = run_online("second_order", sp.csr_matrix(X) if sparse else X, y, a=a, form="primal",
                     epochs=epochs, shuffle=True, seed=4, record_margins=True)
    order = presented_sequence(len(y), epochs, True, 4)
    mistakes, w, margins = second_order(X, y, order, a)
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    assert rel_err(run.weights, w) < 1e-9
    assert_margins(run.margins, margins)
    assert run.params["a"] == a and run.params["form"] == "primal"
    np.testing.assert_array_equal(run.mistake_rows, order[mistakes])


@pytest.mark.parametrize("form", ["primal", "dual"])
def test_huge_a_is_the_perceptron(form):
    X, y = noisy_separable(n_samples=300, n_features=10, noise=0.1, seed=8)
    run = run_online("second_order", X, y, a=1e12, form=form, epochs=3, shuffle=True, seed=2)
    order = presented_sequence(len(y), 3, True, 2)
    np.testing.assert_array_equal(run.mistake_trials, perceptron(X, y, order)[0])
    fo = run_online("perceptron", X, y, epochs=3, shuffle=True, seed=2)
    np.testing.assert_array_equal(run.mistake_trials, fo.mistake_trials)


@pytest.mark.parametrize("anisotropic", [False, True])
def test_incremental_inverse_stays_accurate_over_5000_mistakes(anisotropic):
    """After >= 5000 Sherman-Morrison downdates at n = 200 the kept inverse is still exact."""
    rng = np.random.default_rng(1)
    n, a = 200, 0.5
    X = rng.standard_normal((10500, n)) * (np.logspace(-3, 1, n) if anisotropic else 1.0)
    y = rng.choice([-1.0, 1.0], X.shape[0])
    run = run_online("second_order", X, y, a=a, form="primal")
    assert run.mistakes >= 5000
    Xm = X[run.mistake_rows]
    A = a * np.eye(n) + Xm.T @ Xm
    assert rel_err(run.hypothesis.a_inv, np.linalg.inv(A)) < 1e-8
    assert rel_err(run.weights, np.linalg.solve(A, Xm.T @ y[run.mistake_rows])) < 1e-8


# ---------------------------------------------------------------- fixed a, dual


@pytest.mark.parametrize("a", [0.05, 1.0, 20.0])
def test_dual_linear_equals_primal(a):
    X, y = noisy_separable(n_samples=120, n_features=5, noise=0.1, seed=3)
    primal = run_online("second_order", X, y, a=a, form="primal", epochs=3, record_margins=True)
    dual = run_online("second_order", X, y, a=a, form="dual", epochs=3, record_margins=True)
    np.testing.assert_array_equal(dual.mistake_trials, primal.mistake_trials)
    assert_margins(dual.margins, primal.margins)
    assert rel_err(dual.weights, primal.weights) < 1e-9
    assert_margins(dual.decision_function(X), primal.decision_function(X))
    assert dual.params["form"] == "dual"


@pytest.mark.parametrize("kernel, options", KERNELS + [("linear", {})])
@pytest.mark.parametrize("epochs", [1, 3])
def test_dual_matches_gram_reference(kernel, options, epochs):
    X, y = noisy_separable(n_samples=50, n_features=4, noise=0.1, seed=11)
    run = run_online("second_order", X, y, a=0.5, kernel=kernel, form="dual", epochs=epochs,
                     shuffle=True, seed=7, record_margins=True, **options)
    order = presented_sequence(len(y), epochs, True, 7)
    mistakes, support, alpha, margins, _ = second_order_gram(X, y, order, a=0.5,
                                                             kernel_name=kernel, **options)
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    np.testing.assert_array_equal(run.support_vectors, X[support])
    assert rel_err(run.dual_coef, alpha) < 1e-9
    assert_margins(run.margins, margins)


def test_partial_kernel_cache_gives_the_same_run(monkeypatch):
    """Support rows past the cache's width are recomputed: same run as with a full cache."""
    X, y = noisy_separable(n_samples=80, n_features=4, noise=0.2, seed=5)
    options = {"kernel": "rbf", "gamma": 0.5, "epochs": 3, "record_margins": True}
    full = run_online("second_order", X, y, **options)
    monkeypatch.setattr(kernel_engine, "KERNEL_CACHE_ENTRIES", 80 * 5)  # 5 kernel values a row
    narrow = run_online("second_order", X, y, **options)
    np.testing.assert_array_equal(narrow.mistake_trials, full.mistake_trials)
    np.testing.assert_array_equal(narrow.margins, full.margins)


def test_dual_inverse_stays_accurate():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((1500, 30))
    y = rng.choice([-1.0, 1.0], 1500)
    run = run_online("second_order", X, y, a=0.3, kernel="poly", degree=2, gamma=0.1)
    h = run.hypothesis
    fresh = np.linalg.inv(0.3 * np.eye(run.mistakes) + h.kernel.gram(h.support_vectors,
                                                                    h.support_vectors))
    assert run.mistakes > 700
    assert rel_err(h.m_inv, fresh) < 1e-8
    assert rel_err(h.dual_coef, fresh @ y[run.mistake_rows]) < 1e-8


# ---------------------------------------------------------------- adaptive a_k


@pytest.mark.parametrize("form, kernel, options",
                         [("primal", "linear", {}), ("dual", "linear", {}),
                          ("dual", *KERNELS[0]), ("dual", *KERNELS[1])])
@pytest.mark.parametrize("c", [0.05, 2.0])
def test_adaptive_matches_reference(form, kernel, options, c):
    X, y = noisy_separable(n_samples=50, n_features=4, noise=0.1, seed=12)
    run = run_online("second_order", X, y, variant="adaptive", c=c, form=form, kernel=kernel,
                     epochs=2, shuffle=True, seed=1, record_margins=True, **options)
    order = presented_sequence(len(y), 2, True, 1)
    mistakes, support, alpha, margins, a_k = second_order_gram(X, y, order, c=c,
                                                               kernel_name=kernel, **options)
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    assert_margins(run.margins, margins)
    np.testing.assert_allclose(run.state["a_k"], a_k, rtol=1e-12)
    r2 = kernel_of(run.params).diagonal(X).max()
    assert run.state["R"] == pytest.approx(np.sqrt(r2))
    np.testing.assert_allclose(run.state["a_k"], c * r2 * np.arange(1, run.mistakes + 2))
    if kernel == "linear":
        assert rel_err(run.weights, alpha @ X[support]) < 1e-9
    else:
        assert rel_err(run.dual_coef, alpha) < 1e-9


def test_adaptive_with_r2_given_chains_warm_starts_into_one_run():
    """R2 = the largest squared norm, given to every batch: the chain of primal warm starts
    is the run on the rows at once, bit for bit (without it, a batch takes the largest norm
    so far); R2 below some row's squared norm is refused in one line before any trial. (The
    dual form's kernel rows come in blocks of trials, rounded by how the batches cut them.)"""
    form = "primal"
    X, y = noisy_separable(n_samples=80, n_features=5, noise=0.2, seed=4)
    X[50] *= 3.0  # the largest norm, in the last batch
    whole = run_online("second_order", X, y, variant="adaptive", form=form, record_margins=True)
    r2 = float(kernel_of(whole.params).diagonal(X).max())
    assert whole.params["R2"] is None
    for given, exact in ((r2, True), (None, False)):
        run, margins = None, []
        for start in range(0, 80, 20):
            run = run_online("second_order", X[start:start + 20], y[start:start + 20],
                             warm_start=run, record_margins=True,
                             **({} if run else {"variant": "adaptive", "form": form, "R2": given}))
            margins.append(run.margins)
        assert np.array_equal(np.concatenate(margins), whole.margins) == exact
        if exact:
            for name, value in whole.state.items():
                if name != "a_k":  # a_k: per run
                    np.testing.assert_array_equal(run.state[name], value)
    np.testing.assert_array_equal(run_online("second_order", X, y, variant="adaptive",
                                             form=form, R2=r2).state["a_k"], whole.state["a_k"])
    with pytest.raises(ValueError, match=r"R2=1.0 is below max \|\|x_t\|\|\^2 = .* "
                                         r"\(paper 003, Theorem 3\)$"):
        run_online("second_order", X, y, variant="adaptive", form=form, R2=1.0)


def test_adaptive_rejects_all_zero_rows():
    with pytest.raises(ValueError, match="R = max"):
        run_online("second_order", np.zeros((4, 3)), [0, 1, 0, 1], variant="adaptive")


# ---------------------------------------------------------------- pseudoinverse


PINV_DATA = {
    # n_features > n_samples: every first-epoch row is outside the span (margin 0).
    "wide": lambda: noisy_separable(n_samples=12, n_features=20, noise=0.0, seed=6),
    "low_rank": lambda: low_rank(40, 10, 3, seed=2),
    "full_rank": lambda: noisy_separable(n_samples=50, n_features=4, noise=0.1, seed=9),
}


@pytest.mark.parametrize("name", sorted(PINV_DATA))
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
def test_pinv_primal_matches_reference(name, sparse):
    X, y = PINV_DATA[name]()
    run = run_online("second_order", sp.csr_matrix(X) if sparse else X, y, variant="pinv",
                     form="primal", epochs=3, shuffle=True, seed=3, record_margins=True)
    order = presented_sequence(len(y), 3, True, 3)
    mistakes, w, margins = second_order_pinv(X, y, order)
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    assert_margins(run.margins, margins, 1e-8)
    assert rel_err(run.weights, w) < 1e-8
    assert run.state["rank"] == np.linalg.matrix_rank(X[run.mistake_rows])
    assert run.state["rank_growth"].shape[0] == run.state["rank"]


@pytest.mark.parametrize("name", sorted(PINV_DATA))
@pytest.mark.parametrize("kernel, options", KERNELS + [("linear", {})])
def test_pinv_dual_matches_reference(name, kernel, options):
    X, y = PINV_DATA[name]()
    run = run_online("second_order", X, y, variant="pinv", form="dual", kernel=kernel,
                     epochs=3, shuffle=True, seed=3, record_margins=True, **options)
    order = presented_sequence(len(y), 3, True, 3)
    mistakes, margins = second_order_pinv_gram(X, y, order, kernel_name=kernel, **options)
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    assert_margins(run.margins, margins, 1e-7)


def test_pinv_first_epoch_outside_the_span_is_all_mistakes():
    X, y = PINV_DATA["wide"]()
    run = run_online("second_order", X, y, variant="pinv", epochs=2, record_margins=True)
    np.testing.assert_array_equal(run.margins[:12], 0.0)
    np.testing.assert_array_equal(run.mistake_trials[:12], np.arange(12))
    np.testing.assert_array_equal(run.state["rank_growth"], np.arange(12))


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_rank_growth_gives_the_bounds_their_spectrum(kernel):
    """The record's rank growth lets the bounds find lambda* (paper 003, Theorem 4)."""
    X, y = PINV_DATA["low_rank"]()
    run = run_online("second_order", X, y, variant="pinv", kernel=kernel, gamma=0.01, epochs=2)
    Xm = X[run.mistake_rows]
    G = kernel_of(run.params).gram(Xm, Xm)
    smallest = []
    for k in range(1, run.mistakes + 1):
        eig = np.linalg.eigvalsh(G[:k, :k])
        smallest.append(eig[eig > 1e-9 * eig[-1]].min())
    eigenvalues, lambda_star = span_spectrum(Xm, kernel_of(run.params), rtol=run.params["span_tol"],
                                             rank_growth=run.state["rank_growth"])
    assert eigenvalues.shape[0] == run.state["rank"]
    assert lambda_star == pytest.approx(min(smallest), rel=1e-6)


# ---------------------------------------------------------------- every variant and form

CONFIGS = [(v, f) for v in ("inverse", "adaptive", "pinv") for f in ("primal", "dual")]


@pytest.mark.parametrize("variant, form", CONFIGS)
def test_decision_function_is_the_next_trial_margin(variant, form):
    X, y = noisy_separable(n_samples=70, n_features=5, noise=0.1, seed=4)
    X = unit_rows(X)
    run = run_online("second_order", X[:50], y[:50], variant=variant, form=form, epochs=2)
    scores = run.decision_function(X[50:])
    for j in range(50, 56):
        nxt = run_online("second_order", X[j:j + 1], y[j:j + 1], warm_start=run,
                         record_margins=True)
        assert scores[j - 50] == pytest.approx(nxt.margins[0], rel=1e-9, abs=1e-12)
    np.testing.assert_array_equal(run.predict(X), run.classes[(run.decision_function(X) > 0)
                                                              .astype(int)])


@pytest.mark.parametrize("variant, form", CONFIGS)
def test_warm_start_continues_the_run(variant, form):
    X, y = noisy_separable(n_samples=90, n_features=5, noise=0.1, seed=5)
    X = unit_rows(X)  # the same R for a part and the whole (adaptive a_k)
    whole = run_online("second_order", X, y, variant=variant, form=form, record_margins=True)
    first = run_online("second_order", X[:40], y[:40], variant=variant, form=form)
    rest = run_online("second_order", X[40:], y[40:], warm_start=first, record_margins=True)
    np.testing.assert_array_equal(np.concatenate([first.mistake_trials, rest.mistake_trials + 40]),
                                  whole.mistake_trials)
    assert_margins(rest.margins, whole.margins[40:])
    assert_margins(rest.decision_function(X), whole.decision_function(X))


@pytest.mark.parametrize("variant", ["inverse", "adaptive", "pinv"])
def test_sparse_equals_dense(variant):
    X, y = noisy_separable(n_samples=80, n_features=12, noise=0.1, seed=6)
    X[np.abs(X) < 0.8] = 0.0
    dense = run_online("second_order", X, y, variant=variant, form="primal", epochs=2,
                       record_margins=True)
    sparse = run_online("second_order", sp.csr_matrix(X), y, variant=variant, form="primal",
                        epochs=2, record_margins=True)
    np.testing.assert_array_equal(sparse.mistake_trials, dense.mistake_trials)
    assert_margins(sparse.margins, dense.margins, 1e-12)  # R^2 of adaptive a_k: rounding differs
    assert_margins(sparse.decision_function(sp.csr_matrix(X)), dense.decision_function(X), 1e-12)


def test_auto_form_records_the_form_used():
    X, y = noisy_separable(n_samples=30, n_features=5)
    assert run_online("second_order", X, y).params["form"] == "primal"
    assert run_online("second_order", X[:4], y[:4]).params["form"] == "dual"
    assert run_online("second_order", sp.csr_matrix(X), y).params["form"] == "primal"
    assert run_online("second_order", sp.csr_matrix(X[:4]), y[:4]).params["form"] == "dual"
    assert run_online("second_order", X, y, kernel="rbf").params["form"] == "dual"


@pytest.mark.parametrize(
    "params, match",
    [({"a": 0.0}, "a must be in"), ({"a": -1.0}, "a must be in"), ({"c": 0.0}, "c must be in"),
     ({"variant": "ridge"}, "variant must be one of"), ({"form": "both"}, "form must be one of"),
     ({"kernel": "rbf", "form": "primal"}, "form='primal' needs kernel='linear'"),
     ({"span_tol": 1.0}, "span_tol must be in"), ({"a": np.nan}, "a must be in")],
)
def test_bad_parameters_raise_before_any_work(params, match, monkeypatch):
    def no_loop(*args):
        raise AssertionError("a loop ran")

    monkeypatch.setitem(so_module._FITS, "inverse", no_loop)
    X, y = noisy_separable(n_samples=10, n_features=3)
    with pytest.raises(ValueError, match=match):
        run_online("second_order", X, y, **params)


def test_adaptive_rejects_a_c_whose_a_k_overflows(monkeypatch):
    monkeypatch.setattr(so_module, "_so_adaptive_primal_loop", None)  # must not be reached
    X, y = noisy_separable(n_samples=10, n_features=3)
    with pytest.raises(ValueError, match=r"c=1e\+308 is too large .* a_k = c R\^2 k overflows"):
        run_online("second_order", X, y, variant="adaptive", c=1e308)


@pytest.mark.parametrize("form", ["primal", "dual"])
def test_adaptive_with_a_c_lost_against_the_rows_is_one_line(form):
    """c = 1e-300 on rows of norm 1e100: a_k I + X_k X_k^T is singular in float64 and its
    Cholesky factor raised numpy's LinAlgError through the loop (a traceback)."""
    rng = np.random.default_rng(1)
    X = 1e100 * rng.standard_normal((20, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    params = dict(variant="adaptive", c=1e-300, form=form, epochs=3)
    with pytest.raises(ValueError, match=r"^c=1e-300 is too small for this data: .*singular"
                                         r" in float64.*use a larger c$"):
        run_online("second_order", X, y, **params)
    if form == "dual":  # two rows stay in range there: the failed warm start changes nothing
        previous = run_online("second_order", X[:2], y[:2], **params)
        before = {key: np.copy(value) for key, value in previous.state.items()}
        with pytest.raises(ValueError, match="c=1e-300 is too small"):
            run_online("second_order", X, y, **params, warm_start=previous)
        for key, value in before.items():
            np.testing.assert_array_equal(previous.state[key], value)


def test_bad_parameter_types():
    X, y = noisy_separable(n_samples=10, n_features=3)
    with pytest.raises(TypeError, match="a must be a real number"):
        run_online("second_order", X, y, a="1")


# ---------------------------------------------------------------- scikit-learn estimator

ESTIMATORS = [
    SecondOrderPerceptron(),
    SecondOrderPerceptron(variant="adaptive", c=0.1, form="dual"),
    SecondOrderPerceptron(variant="pinv", epochs=2),
    SecondOrderPerceptron(kernel="rbf", a=0.5, epochs=2, shuffle=True),
]


@parametrize_with_checks(ESTIMATORS)
def test_check_estimator(estimator, check):
    check(estimator)


@pytest.mark.parametrize("variant", ["inverse", "adaptive", "pinv"])
@pytest.mark.parametrize("kernel", ["linear", "poly"])
def test_estimator_fit_and_partial_fit_are_runs(variant, kernel):
    X, y = noisy_separable(n_samples=100, n_features=5, seed=7)
    X = unit_rows(X)
    params = {"variant": variant, "kernel": kernel, "c": 0.2, "a": 0.3, "gamma": None}
    est = SecondOrderPerceptron(protocol="paper", **params, epochs=2, shuffle=True,
                                random_state=3).fit(X, y)
    run = run_online("second_order", X, y, epochs=2, shuffle=True, seed=3, **params)
    np.testing.assert_array_equal(est.run_.mistake_trials, run.mistake_trials)
    assert_margins(est.decision_function(X), run.decision_function(X))
    assert est.run_.params == run.params
    streamed = SecondOrderPerceptron(protocol="paper", **params)
    streamed.partial_fit(X[:60], y[:60], classes=[-1, 1])
    streamed.partial_fit(X[60:], y[60:])
    whole = run_online("second_order", X, y, **params)
    assert streamed.mistakes_ == whole.mistakes
    assert_margins(streamed.decision_function(X), whole.decision_function(X))
    if kernel == "linear":
        assert rel_err(streamed.coef_[0], whole.weights) < 1e-9


def test_estimator_docstring_example():
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    for test in finder.find(SecondOrderPerceptron, "SecondOrderPerceptron"):
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_pinv_rank_of_distinct_rbf_rows_of_large_norm_is_at_most_their_number():
    """200 distinct rows of norm 4e3 at gamma 0.3: the rbf Gram's cancellation made the pinv
    variant count 263 rank increases, more than the 200 rows can span."""
    rng = np.random.default_rng(1)
    X = rng.standard_normal((200, 5))
    X *= 4e3 / np.linalg.norm(X, axis=1, keepdims=True)
    y = np.where(rng.standard_normal(200) > 0, 1, -1)
    run = run_online("second_order", X, y, kernel="rbf", gamma=0.3, variant="pinv", epochs=3)
    assert run.state["rank"] <= 200
    assert len(run.state["rank_growth"]) <= 200
