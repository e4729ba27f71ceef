"""ALMA_p (theory §2.9; Gentile 2001 as LIBOL and DOGMA describe it) against its references."""

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import assert_warm_chain_is_one_run, noisy_separable
from reference import alma, kernel_alma

from perceptron_bounds import run_online

KERNELS = {"poly": {"degree": 2, "gamma": 0.5, "coef0": 1.0}, "rbf": {"gamma": 0.5}}


def data(n_samples, seed, n_features=5, noise=0.1):
    X, y = noisy_separable(n_samples=n_samples, n_features=n_features, noise=noise, seed=seed)
    rng = np.random.default_rng(seed)
    return X * rng.uniform(0.1, 10.0, size=(n_samples, 1)), y  # rows of varied norms


def assert_same(run, ref):
    np.testing.assert_array_equal(run.mistake_trials, ref["mistakes"])
    np.testing.assert_array_equal(run.margin_error_trials, ref["margin_errors"])
    assert run.state["updates_total"] == ref["k"] - 1


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("epochs", [1, 3])
@pytest.mark.parametrize("p", [2.0, 3.0, 6.5])
@pytest.mark.parametrize("sparse", [False, True])
def test_primal_matches_reference(sparse, p, epochs, shuffle):
    X, y = data(150, seed=1)
    X_in = sp.csr_matrix(X) if sparse else X
    run = run_online("alma", X_in, y, p=p, alpha=0.7, epochs=epochs, shuffle=shuffle, seed=4,
                     record_margins=True)
    ref = alma(X, y, run.sample_index, p=p, alpha=0.7)
    assert ref["margin_errors"].size > 0 and ref["mistakes"].size > 0
    assert_same(run, ref)
    np.testing.assert_allclose(run.state["theta"], ref["theta"], rtol=0, atol=1e-10)
    np.testing.assert_allclose(run.weights, ref["w"], rtol=0, atol=1e-10)
    np.testing.assert_allclose(run.margins, ref["margins"], rtol=0, atol=1e-10)
    # the scores of the final hypothesis are the margins of normalised instances
    Xn = X / (np.sum(np.abs(X) ** p, axis=1) ** (1 / p))[:, None]
    np.testing.assert_allclose(run.decision_function(X_in), Xn @ ref["w"], rtol=0, atol=1e-10)


@pytest.mark.parametrize("p", [2.0, 4.0])
def test_dense_equals_csr_and_unit_ball(p):
    X, y = data(300, seed=2, n_features=8, noise=0.3)
    X[5] = 0.0  # a zero row: x_hat = 0, an update that leaves theta unchanged
    dense = run_online("alma", X, y, p=p, epochs=2, shuffle=True, seed=3)
    csr = run_online("alma", sp.csr_matrix(X), y, p=p, epochs=2, shuffle=True, seed=3)
    np.testing.assert_array_equal(dense.mistake_trials, csr.mistake_trials)
    np.testing.assert_array_equal(dense.margin_error_trials, csr.margin_error_trials)
    np.testing.assert_allclose(dense.state["theta"], csr.state["theta"], rtol=0, atol=1e-12)
    assert np.sum(np.abs(dense.state["theta"]) ** p) ** (1 / p) <= 1.0 + 1e-12
    q = p / (p - 1)
    assert np.sum(np.abs(dense.weights) ** q) ** (1 / q) <= 1.0 + 1e-12


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("kernel", ["poly", "rbf"])
def test_kernel_matches_reference(kernel, shuffle):
    X, y = data(60, seed=3, n_features=3)
    run = run_online("alma", X, y, alpha=0.5, kernel=kernel, epochs=2, shuffle=shuffle, seed=4,
                     record_margins=True, **KERNELS[kernel])
    ref = kernel_alma(X, y, run.sample_index, alpha=0.5, kernel_name=kernel, **KERNELS[kernel])
    assert ref["margin_errors"].size > 0
    assert_same(run, ref)
    np.testing.assert_array_equal(run.support_vectors, X[ref["supports"]])
    np.testing.assert_allclose(run.dual_coef, ref["coef"], rtol=0, atol=1e-10)
    np.testing.assert_allclose(run.state["norm_sq"], ref["norm_sq"], rtol=0, atol=1e-10)
    assert run.state["norm_sq"] <= 1.0 + 1e-12


@pytest.mark.parametrize("alpha", [0.3, 1.0])
def test_linear_kernel_dual_form_equals_primal(alpha):
    X, y = data(200, seed=7)
    primal = run_online("alma", X, y, alpha=alpha, epochs=3, shuffle=True, seed=1)
    dual = run_online("alma", X, y, alpha=alpha, epochs=3, shuffle=True, seed=1, form="dual")
    assert primal.params["form"] == "primal" and dual.params["form"] == "dual"
    np.testing.assert_array_equal(dual.mistake_trials, primal.mistake_trials)
    np.testing.assert_array_equal(dual.margin_error_trials, primal.margin_error_trials)
    np.testing.assert_allclose(dual.weights, primal.weights, rtol=0, atol=1e-10)
    np.testing.assert_allclose(dual.state["norm_sq"], primal.weights @ primal.weights,
                               rtol=1e-10)
    np.testing.assert_array_equal(dual.predict(X), primal.predict(X))


def test_alpha_one_updates_on_mistakes_only():
    X, y = data(300, seed=5, noise=0.3)
    run = run_online("alma", X, y, alpha=1.0, epochs=3, shuffle=True, seed=2, record_margins=True)
    assert run.margin_errors == 0 and run.mistakes > 0
    assert np.all(y[run.sample_index[run.mistake_trials]] * run.margins[run.mistake_trials] <= 0)
    # and any trial with y w.x_hat <= 0 was an update
    wrong = np.flatnonzero(y[run.sample_index] * run.margins <= 0)
    np.testing.assert_array_equal(wrong, run.mistake_trials)


@pytest.mark.parametrize("kind", ["dense", "csr", "rbf", "p4"])
def test_warm_start_continues_k(kind):
    X, y = data(90, seed=8)
    X_in = sp.csr_matrix(X) if kind == "csr" else X
    params = {"kernel": "rbf", **KERNELS["rbf"]} if kind == "rbf" else {}
    p = 4.0 if kind == "p4" else 2.0
    first = run_online("alma", X_in[:50], y[:50], p=p, alpha=0.6, epochs=2, shuffle=True, seed=1,
                       **params)
    second = run_online("alma", X_in[50:], y[50:], epochs=2, shuffle=True, seed=2,
                        warm_start=first)
    assert second.params == first.params
    order = np.concatenate((first.sample_index, 50 + second.sample_index))
    offset = first.n_trials
    if kind == "rbf":
        ref = kernel_alma(X, y, order, alpha=0.6, kernel_name="rbf", **KERNELS["rbf"])
        np.testing.assert_allclose(second.dual_coef, ref["coef"], rtol=0, atol=1e-10)
    else:
        ref = alma(X, y, order, p=p, alpha=0.6)
        np.testing.assert_allclose(second.state["theta"], ref["theta"], rtol=0, atol=1e-10)
    assert second.state["updates_total"] == ref["k"] - 1 > first.state["updates_total"]
    np.testing.assert_array_equal(second.mistake_trials + offset,
                                  ref["mistakes"][ref["mistakes"] >= offset])
    np.testing.assert_array_equal(second.margin_error_trials + offset,
                                  ref["margin_errors"][ref["margin_errors"] >= offset])


@pytest.mark.parametrize("params", [{}, {"alpha": 0.3, "C": 5.0}, {"p": 3.0, "alpha": 0.3},
                                    {"p": 4.0, "alpha": 0.6, "C": 5.0}])
@pytest.mark.parametrize("kind", ["dense", "csr"])
def test_a_chain_of_warm_starts_is_one_run_bit_for_bit(kind, params):
    """The warm start continues what the loop keeps: for p = 2 its w = scale * v and
    running ||w||^2 (not w multiplied out and w @ w), for p > 2 w as the projection left it
    (not g(theta) again): pieces of 1 to 40 rows, two passes, give the one run's margins,
    state and weights to the bit."""
    X, y = data(120, seed=4)
    X_in = sp.csr_matrix(X) if kind == "csr" else X
    whole = assert_warm_chain_is_one_run("alma", X_in, y, [1, 2, 40, 41, 90], form="primal",
                                         **params)
    assert whole.state.get("scale", 0.0) != 1.0


def test_rows_scaled_far_apart_give_the_same_run():
    X, y = data(120, seed=9)
    scales = 10.0 ** np.random.default_rng(0).uniform(-150, 150, size=(120, 1))
    for p, form in ((2.0, "primal"), (3.0, "primal"), (2.0, "dual")):
        a = run_online("alma", X, y, p=p, form=form, epochs=2, shuffle=True, seed=1)
        b = run_online("alma", X * scales, y, p=p, form=form, epochs=2, shuffle=True, seed=1)
        np.testing.assert_array_equal(a.mistake_trials, b.mistake_trials)
        np.testing.assert_array_equal(a.margin_error_trials, b.margin_error_trials)


def test_one_vs_rest_is_the_binary_run_per_class():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((90, 4))
    labels = np.argmax(X @ rng.standard_normal((3, 4)).T, axis=1)
    ovr = run_online("alma", X, labels, multiclass="ovr", p=3.0, epochs=2, shuffle=True, seed=1)
    for k, class_run in enumerate(ovr.class_runs):
        binary = run_online("alma", X, np.where(labels == k, 1, -1), p=3.0, epochs=2,
                            shuffle=True, seed=1)
        np.testing.assert_array_equal(class_run.mistake_trials, binary.mistake_trials)
        np.testing.assert_array_equal(class_run.state["theta"], binary.state["theta"])
    assert np.mean(ovr.predict(X) == labels) > 0.7


@pytest.mark.parametrize(("params", "message"), [
    ({"p": 1.5}, r"p must be in \[2, inf\), got 1.5"),
    ({"alpha": 0.0}, r"alpha must be in \(0, 1\], got 0.0"),
    ({"alpha": 1.5}, r"alpha must be in \(0, 1\], got 1.5"),
    ({"B": 0.0}, r"B must be in \(0, inf\), got 0.0"),
    ({"C": -1.0}, r"C must be in \(0, inf\), got -1.0"),
    ({"C": float("nan")}, r"C must be in \(0, inf\), got nan"),
    ({"p": 3.0, "kernel": "rbf"}, r"the dual \(kernel\) form of ALMA needs p=2, got p=3.0"),
    ({"p": 3.0, "form": "dual"}, r"the dual \(kernel\) form of ALMA needs p=2"),
    ({"kernel": "poly", "form": "primal"}, r"form='primal' needs kernel='linear'"),
])
def test_bad_input_is_one_line(params, message):
    X, y = data(10, seed=0)
    with pytest.raises(ValueError, match=message) as info:
        run_online("alma", X, y, **params)
    assert "\n" not in str(info.value)


def test_negative_kernel_diagonal_is_one_line():
    X, y = data(10, seed=0)
    with pytest.raises(ValueError, match=r"needs K\(x, x\) >= 0"):
        run_online("alma", X, y, kernel="poly", degree=3, gamma=1e-6, coef0=-1.0)


def test_teaching_panel_marks_margin_errors(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    from perceptron_bounds.plots import plot_run_2d

    rng = np.random.default_rng(1)
    X = rng.standard_normal((40, 2))
    y = np.where(X @ [1.0, 0.5] > 0, 1, -1)
    run = run_online("alma", X, y, alpha=0.5, epochs=2)
    assert run.margin_errors > 0
    ax = plot_run_2d(run, X, y)
    labels = [text.get_text() for text in ax.get_legend().get_texts()]
    assert any("margin error" in label for label in labels), labels
    ax.figure.savefig(tmp_path / "alma.png")
