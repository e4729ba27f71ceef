"""Native multiclass Perceptron and Ballseptron (theory §2.6, paper 004 sec. 4) against the
plain-NumPy references of tests/reference.py."""

from functools import partial

import numpy as np
import pytest
import scipy.sparse as sp
from reference import kernel as reference_kernel
from reference import native_ballseptron, native_perceptron, presented_sequence
from sklearn.datasets import load_digits

from perceptron_bounds import load_run, run_online
from perceptron_bounds.hypothesis import PrototypeHypothesis, PrototypeKernelHypothesis
from perceptron_bounds.kernels import Kernel

PARAMS = {"perceptron": {}, "ballseptron": {"r": 0.3}}
KERNELS = {"poly": {"degree": 2, "gamma": 0.5, "coef0": 1.0}, "rbf": {"gamma": 0.5},
           "linear": {}}


def native_run(algorithm, X, y, **options):
    """``run_online(algorithm, X, y, multiclass="native", record_margins=True, **options)``."""
    return run_online(algorithm, X, y, multiclass="native", record_margins=True, **options)


def multiclass_data(n_samples, n_features, n_classes, seed, noise=0.1):
    """Unit-norm Gaussian rows labelled by the nearest of K random prototypes, some relabelled."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n_samples, n_features))
    X /= np.linalg.norm(X, axis=1)[:, None]
    y = np.argmax(X @ rng.standard_normal((n_classes, n_features)).T, axis=1)
    noisy = rng.random(n_samples) < noise
    y[noisy] = rng.integers(0, n_classes, noisy.sum())
    assert np.unique(y).size == n_classes
    return X, y


def dense(S):
    """S as an ndarray (support vectors are CSR for CSR data)."""
    return S.toarray() if sp.issparse(S) else S


def digits():
    X, y = load_digits(return_X_y=True)
    return X / 16.0, y


def reference_run(algorithm, X, y, order, kernel=None, kernel_params=None):
    call = (lambda a, b: reference_kernel(kernel, a, b, **kernel_params)) if kernel else None
    if algorithm == "perceptron":
        return native_perceptron(X, y, order, kernel=call, n_classes=np.unique(y).size)
    return native_ballseptron(X, y, order, PARAMS[algorithm]["r"], kernel=call,
                              n_classes=np.unique(y).size)


def assert_matches(run, ref, y_index):
    """Trials exactly; state, scores and the record of every update to 1e-10."""
    np.testing.assert_array_equal(run.mistake_trials, ref["mistakes"])
    np.testing.assert_array_equal(run.margin_error_trials, ref["margin_errors"])
    np.testing.assert_allclose(run.margins, ref["margins"], rtol=1e-10, atol=1e-10)
    state = run.state
    np.testing.assert_array_equal(state["true_class"], ref["true_class"])
    np.testing.assert_array_equal(state["runner_up"], ref["runner_up"])
    np.testing.assert_array_equal(state["true_class"], y_index[run.sample_index[run.update_trials]])
    np.testing.assert_array_equal(state["margin_error"],
                                  np.isin(run.update_trials, ref["margin_errors"]))
    np.testing.assert_allclose(state["gap_norm"], ref["gap_norm"], rtol=1e-10, atol=1e-10)
    if "weights" in ref:
        W = run.hypothesis.weights
        np.testing.assert_allclose(W, ref["weights"], rtol=0, atol=1e-10)
        np.testing.assert_allclose(state["gram"], W @ W.T, rtol=1e-10, atol=1e-10)
        np.testing.assert_allclose(W.sum(axis=0), 0.0, atol=1e-10)  # every update adds 0
    else:
        np.testing.assert_allclose(run.dual_coef, ref["dual_coef"], rtol=0, atol=1e-10)
        np.testing.assert_allclose(run.dual_coef.sum(axis=0), 0.0, atol=1e-10)


@pytest.mark.parametrize("epochs, shuffle", [(1, False), (3, True)])
@pytest.mark.parametrize("n_classes", [2, 3, 10])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("algorithm", ["perceptron", "ballseptron"])
def test_primal_matches_reference(algorithm, sparse, n_classes, epochs, shuffle):
    X, y = multiclass_data(300, 6, n_classes, seed=n_classes)
    run = native_run(algorithm, sp.csr_matrix(X) if sparse else X, y, epochs=epochs,
                     shuffle=shuffle, seed=4, **PARAMS[algorithm])
    np.testing.assert_array_equal(run.sample_index, presented_sequence(300, epochs, shuffle, 4))
    assert run.params["form"] == "primal"
    assert run.multiclass == "native"
    assert isinstance(run.hypothesis, PrototypeHypothesis)
    assert run.hypothesis.weights.shape == (n_classes, 6)
    ref = reference_run(algorithm, X, y, run.sample_index)
    assert_matches(run, ref, y)
    assert (run.margin_errors > 0) == (algorithm == "ballseptron")


@pytest.mark.parametrize("n_classes", [3, 5])
@pytest.mark.parametrize("kernel", ["poly", "rbf"])
@pytest.mark.parametrize("algorithm", ["perceptron", "ballseptron"])
def test_kernel_matches_reference(algorithm, kernel, n_classes):
    X, y = multiclass_data(60, 4, n_classes, seed=10 + n_classes)
    run = native_run(algorithm, X, y, epochs=3, shuffle=True, seed=2, kernel=kernel,
                     **KERNELS[kernel], **PARAMS[algorithm])
    assert run.params["form"] == "dual"
    assert isinstance(run.hypothesis, PrototypeKernelHypothesis)
    assert run.weights is None
    ref = reference_run(algorithm, X, y, run.sample_index, kernel, KERNELS[kernel])
    assert_matches(run, ref, y)
    np.testing.assert_array_equal(run.support_vectors, X[ref["support"]])
    assert run.dual_coef.shape == (n_classes, ref["support"].size)
    # The supports' Gram gives the prototypes' Gram the loop kept up to date.
    gram = run.hypothesis.kernel.gram(run.support_vectors, run.support_vectors)
    np.testing.assert_allclose(run.state["gram"], run.dual_coef @ gram @ run.dual_coef.T,
                               rtol=1e-10, atol=1e-10)
    Z, _ = multiclass_data(20, 4, n_classes, seed=99)
    expected = [[sum(a * reference_kernel(kernel, s, z, **KERNELS[kernel])
                     for a, s in zip(row, run.support_vectors, strict=True))
                 for row in ref["dual_coef"]] for z in Z]
    np.testing.assert_allclose(run.decision_function(Z), expected, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("algorithm", ["perceptron", "ballseptron"])
def test_digits_matches_reference(algorithm):
    X, y = digits()
    run = native_run(algorithm, X, y, epochs=2, shuffle=True, seed=7, **PARAMS[algorithm])
    ref = reference_run(algorithm, X, y, run.sample_index)
    assert_matches(run, ref, y)
    assert run.classes.tolist() == list(range(10))
    assert run.decision_function(X).shape == (X.shape[0], 10)
    np.testing.assert_allclose(run.decision_function(X), X @ ref["weights"].T, rtol=0,
                               atol=1e-10)


@pytest.mark.parametrize("algorithm", ["perceptron", "ballseptron"])
def test_digits_kernel_matches_reference(algorithm):
    X, y = digits()
    X, y = X[:150], y[:150]
    options = {"degree": 3, "gamma": 1.0 / 64, "coef0": 1.0}
    run = native_run(algorithm, X, y, epochs=2, shuffle=True, seed=8, kernel="poly", **options,
                     **PARAMS[algorithm])
    ref = reference_run(algorithm, X, y, run.sample_index, "poly", options)
    assert_matches(run, ref, y)


@pytest.mark.parametrize("algorithm", ["perceptron", "ballseptron"])
def test_sparse_equals_dense_on_digits(algorithm):
    X, y = digits()
    dense = native_run(algorithm, X, y, epochs=2, shuffle=True, seed=1, **PARAMS[algorithm])
    sparse = native_run(algorithm, sp.csr_matrix(X), y, epochs=2, shuffle=True, seed=1,
                        **PARAMS[algorithm])
    assert sparse.mistakes > 0
    np.testing.assert_array_equal(dense.mistake_trials, sparse.mistake_trials)
    np.testing.assert_array_equal(dense.margin_error_trials, sparse.margin_error_trials)
    np.testing.assert_allclose(dense.weights, sparse.weights, rtol=0, atol=1e-10)
    np.testing.assert_allclose(dense.margins, sparse.margins, rtol=0, atol=1e-10)
    np.testing.assert_allclose(sparse.decision_function(sp.csr_matrix(X)),
                               dense.decision_function(X), rtol=0, atol=1e-10)


@pytest.mark.parametrize("epochs", [1, 3])
@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf"])
@pytest.mark.parametrize("algorithm", ["perceptron", "ballseptron"])
def test_kernel_on_csr_equals_dense(algorithm, kernel, epochs):
    """The dual form takes CSR X (issue 12): the reference's trials, and the dense run's trials,
    supports and, to 1e-12, scores and state (a CSR dot product sums in another order than the
    BLAS's dense one); a warm start on 30 more rows continues CSR like dense."""
    X, y = multiclass_data(90, 10, 4, seed=20 + epochs)
    X[np.random.default_rng(epochs).random(X.shape) < 0.6] = 0.0
    options = {"form": "dual", "kernel": kernel, **KERNELS[kernel], **PARAMS[algorithm]}
    runs = {}
    for name, given in (("csr", sp.csr_matrix(X)), ("dense", X)):
        first = native_run(algorithm, given[:60], y[:60], epochs=epochs, shuffle=True, seed=5,
                           **options)
        second = native_run(algorithm, given[60:], y[60:], epochs=epochs, shuffle=True, seed=6,
                            warm_start=first)
        ref = reference_run(algorithm, X[:60], y[:60], first.sample_index,
                            kernel if kernel != "linear" else None, KERNELS[kernel])
        assert_matches(first, ref, y[:60])
        runs[name] = first, second
    for csr, dense_run in zip(runs["csr"], runs["dense"], strict=True):
        assert sp.issparse(csr.support_vectors)
        np.testing.assert_array_equal(csr.mistake_trials, dense_run.mistake_trials)
        np.testing.assert_array_equal(csr.margin_error_trials, dense_run.margin_error_trials)
        np.testing.assert_array_equal(csr.support_vectors.toarray(), dense_run.support_vectors)
        for name, value in dense_run.state.items():
            np.testing.assert_allclose(csr.state[name], value, rtol=1e-12, atol=1e-12,
                                       err_msg=name)
        for name in ("margins", "dual_coef"):
            np.testing.assert_allclose(getattr(csr, name), getattr(dense_run, name), rtol=1e-12,
                                       atol=1e-12, err_msg=name)
        np.testing.assert_allclose(csr.decision_function(sp.csr_matrix(X)),
                                   dense_run.decision_function(X), rtol=1e-12, atol=1e-12)
    assert runs["csr"][1].mistakes > 0
    assert (runs["csr"][0].margin_errors > 0) == (algorithm == "ballseptron")


@pytest.mark.parametrize("algorithm", ["perceptron", "ballseptron"])
def test_linear_kernel_equals_primal(algorithm):
    X, y = multiclass_data(200, 5, 4, seed=3)
    primal = native_run(algorithm, X, y, epochs=3, shuffle=True, seed=5, **PARAMS[algorithm])
    dual = native_run(algorithm, X, y, epochs=3, shuffle=True, seed=5, form="dual",
                      **PARAMS[algorithm])
    assert dual.params["form"] == "dual"
    np.testing.assert_array_equal(dual.mistake_trials, primal.mistake_trials)
    np.testing.assert_array_equal(dual.margin_error_trials, primal.margin_error_trials)
    np.testing.assert_allclose(dual.weights, primal.weights, rtol=0, atol=1e-10)
    np.testing.assert_allclose(dual.margins, primal.margins, rtol=0, atol=1e-10)
    np.testing.assert_allclose(dual.state["gap_norm"], primal.state["gap_norm"], rtol=1e-10)
    np.testing.assert_allclose(dual.state["gram"], primal.state["gram"], rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("form", ["primal", "dual"])
def test_ballseptron_with_r_zero_is_the_perceptron(form):
    X, y = multiclass_data(150, 5, 5, seed=6)
    kernel = {"kernel": "rbf", "gamma": 0.5} if form == "dual" else {}
    perceptron = native_run("perceptron", X, y, epochs=3, shuffle=True, seed=2, **kernel)
    ballseptron = native_run("ballseptron", X, y, epochs=3, shuffle=True, seed=2, r=0.0,
                             **kernel)
    assert ballseptron.margin_errors == 0
    np.testing.assert_array_equal(ballseptron.mistake_trials, perceptron.mistake_trials)
    np.testing.assert_array_equal(ballseptron.margins, perceptron.margins)
    for name in ("true_class", "runner_up", "gap_norm", "gram"):
        np.testing.assert_array_equal(ballseptron.state[name], perceptron.state[name])


@pytest.mark.parametrize("form", ["primal", "dual"])
def test_ties_are_mistakes_and_the_runner_up_is_the_smallest_index(form):
    # Integer data: scores are exact integers, so ties between classes are frequent.
    rng = np.random.default_rng(0)
    X = rng.integers(-1, 2, size=(40, 3)).astype(float)
    y = rng.integers(0, 4, size=40)
    run = native_run("perceptron", X, y, epochs=4, shuffle=True, seed=3, form=form)
    ref = reference_run("perceptron", X, y, run.sample_index)
    assert_matches(run, ref, y)
    trials = run.update_trials
    s = run.margins[trials]
    true_class, runner_up = run.state["true_class"], run.state["runner_up"]
    rows = np.arange(trials.size)
    others = s.copy()
    others[rows, true_class] = -np.inf
    top = others.max(axis=1)
    # Mistakes include ties s_y == max_{q != y} s_q (a fresh run's first trial is one) ...
    assert np.all(s[rows, true_class] <= top)
    assert np.sum(s[rows, true_class] == top) > 10
    # ... and the runner-up is the first class q != y reaching the top score.
    assert np.sum((others == top[:, None]).sum(axis=1) > 1) > 10
    np.testing.assert_array_equal(runner_up, np.argmax(others == top[:, None], axis=1))
    correct = np.setdiff1d(np.arange(run.n_trials), trials)
    s_y = run.margins[correct, y[run.sample_index[correct]]]
    others = run.margins[correct].copy()
    others[np.arange(correct.size), y[run.sample_index[correct]]] = -np.inf
    assert np.all(s_y > others.max(axis=1))


@pytest.mark.parametrize("form", ["primal", "dual"])
@pytest.mark.parametrize("algorithm", ["perceptron", "ballseptron"])
def test_first_trial_is_a_mistake(algorithm, form):
    # d = ||w^y - w^{y~}|| = 0 on the first trial: all scores tie, a mistake against class 0
    # (or 1 when the true class is 0), as the binary Ballseptron's w = 0.
    X, y = multiclass_data(30, 3, 3, seed=1)
    params = {"r": 5.0} if algorithm == "ballseptron" else {}
    run = native_run(algorithm, X, y, form=form, **params)
    assert run.mistake_trials[0] == 0
    assert run.state["gap_norm"][0] == 0.0
    assert run.state["runner_up"][0] == (1 if y[0] == 0 else 0)
    np.testing.assert_array_equal(run.margins[0], 0.0)


def test_margin_errors_are_the_ball_test():
    # On every update, s_y - s_{y~} <= 0 (a mistake) or 0 < s_y - s_{y~} <= r d (a margin error).
    X, y = digits()
    r = 0.5
    run = native_run("ballseptron", X, y, epochs=2, shuffle=True, seed=4, r=r)
    trials = run.update_trials
    rows = np.arange(trials.size)
    gap = (run.margins[trials][rows, run.state["true_class"]]
           - run.margins[trials][rows, run.state["runner_up"]])
    error = run.state["margin_error"]
    assert error.sum() == run.margin_errors > 100
    assert np.all(gap[~error] <= 0.0)
    assert np.all((gap[error] > 0.0) & (gap[error] <= r * run.state["gap_norm"][error]))


@pytest.mark.parametrize("form", ["primal", "csr", "dual", "dual-csr"])
@pytest.mark.parametrize("algorithm", ["perceptron", "ballseptron"])
def test_warm_start_is_one_run_over_the_concatenation(algorithm, form):
    X, y = multiclass_data(120, 5, 4, seed=8)
    dual = form.startswith("dual")
    options = {**PARAMS[algorithm], **({"kernel": "rbf", "gamma": 0.5} if dual else {})}
    given = sp.csr_matrix(X) if form.endswith("csr") else X
    first = native_run(algorithm, given, y, epochs=2, shuffle=True, seed=1, **options)
    second = native_run(algorithm, given, y, epochs=2, shuffle=True, seed=2, warm_start=first)
    rows = np.concatenate([first.sample_index, second.sample_index])
    whole = native_run(algorithm, given[rows], y[rows], **options)
    assert second.warm_started
    np.testing.assert_array_equal(
        whole.mistake_trials,
        np.concatenate([first.mistake_trials, second.mistake_trials + first.n_trials]))
    np.testing.assert_array_equal(
        whole.margin_error_trials,
        np.concatenate([first.margin_error_trials, second.margin_error_trials + first.n_trials]))
    for name in ("true_class", "runner_up", "margin_error"):
        np.testing.assert_array_equal(
            whole.state[name], np.concatenate([first.state[name], second.state[name]]))
    # The kernel engine takes a kernel value from its block's BLAS product, or from a dot
    # product when the support was appended inside the block. The concatenated run's blocks
    # are not the two runs' blocks, so a kernel value may differ in its last bits (summation
    # order): the values agree to 1e-12, the trials exactly. The primal forms are bit for bit.
    same = (partial(np.testing.assert_allclose, rtol=1e-12, atol=1e-12) if dual
            else np.testing.assert_array_equal)
    same(whole.margins, np.vstack([first.margins, second.margins]))
    same(whole.state["gap_norm"], np.concatenate([first.state["gap_norm"],
                                                  second.state["gap_norm"]]))
    same(whole.state["gram"], second.state["gram"])
    if dual:
        assert sp.issparse(second.support_vectors) == (form == "dual-csr")
        np.testing.assert_array_equal(dense(whole.support_vectors), dense(second.support_vectors))
        same(whole.dual_coef, second.dual_coef)
    else:
        np.testing.assert_array_equal(whole.weights, second.weights)


@pytest.mark.parametrize("form", ["primal", "dual"])
def test_save_and_load(tmp_path, form):
    X, y = multiclass_data(80, 4, 3, seed=2)
    labels = np.array(["ant", "bee", "cat"])[y]
    kernel = {"kernel": "poly", "degree": 2} if form == "dual" else {}
    run = native_run("ballseptron", X, labels, epochs=2, r=0.2, **kernel)
    loaded = load_run(run.save(tmp_path / "run.npz"))
    assert type(loaded.hypothesis) is type(run.hypothesis)
    np.testing.assert_array_equal(loaded.classes, run.classes)
    np.testing.assert_array_equal(loaded.decision_function(X), run.decision_function(X))
    for name, value in run.state.items():
        np.testing.assert_array_equal(loaded.state[name], value)
        assert loaded.state[name].dtype == value.dtype


def test_hypotheses_score_nothing_before_any_update():
    X = np.ones((3, 2))
    empty = PrototypeKernelHypothesis(np.empty((0, 2)), np.empty((4, 0)), Kernel("rbf"))
    np.testing.assert_array_equal(empty.decision_function(X), np.zeros((3, 4)))
    np.testing.assert_array_equal(PrototypeHypothesis(np.zeros((4, 2))).decision_function(X),
                                  np.zeros((3, 4)))


@pytest.mark.parametrize("form", ["primal", "csr", "dual"])
def test_a_score_gap_of_exactly_r_d_is_a_margin_error(form):
    # Trial 0: all scores 0, a mistake against class 1: w^0 = x_0 = (1, 0), w^1 = -x_0.
    # Trial 1, x = (1, 1), y = 0: s = (1, -1, 0), runner-up 2, d = ||w^0 - w^2|| = 1, so the
    # gap s_0 - s_2 = 1 equals r d for r = 1: a margin error (paper 004, eq. (19): <=), with
    # x_hat = x + r (w^2 - w^0) / d = (0, 1).
    X = np.array([[1.0, 0.0], [1.0, 1.0]])
    options = {"form": "dual"} if form == "dual" else {}
    given = sp.csr_matrix(X) if form == "csr" else X
    on_the_ball = native_run("ballseptron", given, [0, 0], classes=[0, 1, 2], r=1.0, **options)
    assert on_the_ball.mistake_trials.tolist() == [0]
    assert on_the_ball.margin_error_trials.tolist() == [1]
    assert on_the_ball.state["runner_up"].tolist() == [1, 2]
    assert on_the_ball.state["gap_norm"].tolist() == [0.0, 1.0]
    np.testing.assert_array_equal(on_the_ball.weights, [[1, 1], [-1, 0], [0, -1]])
    inside = native_run("ballseptron", given, [0, 0], classes=[0, 1, 2],
                        r=np.nextafter(1.0, 0.0), **options)
    assert inside.margin_error_trials.size == 0
    np.testing.assert_array_equal(inside.weights, [[1, 0], [-1, 0], [0, 0]])


@pytest.mark.parametrize("form", ["primal", "dual"])
def test_margins_not_recorded(form):
    X, y = multiclass_data(100, 4, 3, seed=4)
    kept = native_run("ballseptron", X, y, epochs=2, form=form)
    plain = run_online("ballseptron", X, y, epochs=2, form=form, multiclass="native")
    assert plain.margins is None
    np.testing.assert_array_equal(plain.mistake_trials, kept.mistake_trials)
    np.testing.assert_array_equal(plain.margin_error_trials, kept.margin_error_trials)
    np.testing.assert_array_equal(plain.decision_function(X), kept.decision_function(X))
