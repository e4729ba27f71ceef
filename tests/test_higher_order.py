"""The Higher-Order Perceptron HO_p(c) and the p-norm Perceptron against paper 000 (theory §2.5).

Every form is compared with ``reference.higher_order``, which multiplies the
explicit n x n matrix B as in paper 000 Figure 1: mistake trials identical,
margins to 1e-9 relative, records to 1e-9.
"""

import itertools
from math import comb

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import noisy_separable
from reference import (
    higher_order,
    higher_order_dual,
    perceptron,
    pnorm_normalize,
    pnorm_perceptron,
)
from sklearn.base import clone
from sklearn.utils.estimator_checks import parametrize_with_checks

from perceptron_bounds import HigherOrderPerceptron, PNormPerceptron, load_run, run_online
from perceptron_bounds.algorithms.higher_order import PRIMAL_MAX_FEATURES
from perceptron_bounds.algorithms.pnorm import link
from perceptron_bounds.bounds.transformed import transformed_instances, transformed_margins

X, Y = noisy_separable(n_samples=40, n_features=6, noise=0.1, seed=3)


def close(actual, expected, rtol=1e-9):
    expected = np.asarray(expected, dtype=float)
    scale = np.max(np.abs(expected)) if expected.size else 1.0
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol * scale)


def check_against_reference(run, ref):
    np.testing.assert_array_equal(run.mistake_trials, ref["mistakes"])
    close(run.margins, ref["margins"])
    np.testing.assert_array_equal(run.state["rho"], ref["rho"])
    close(run.state["y_v_x"], ref["y_v_x"])
    assert run.state["matrix_updates"] == np.count_nonzero(ref["rho"] > 0)
    close(run.weights, ref["w"])


@pytest.mark.parametrize("form", ["primal", "dual", "implicit"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("epochs, c", [(1, 0.4), (5, 0.4), (5, 0.8), (5, 0.1)])
def test_p2_forms_equal_explicit_B(form, sparse, epochs, c):
    run = run_online("higher_order", X, Y, epochs=epochs, c=c, sparse=sparse, form=form,
                     record_margins=True)
    ref = higher_order(X, Y, run.sample_index, c=c, p=2.0, sparse=sparse)
    check_against_reference(run, ref)
    assert run.params["form"] == form
    if sparse:  # the sparse variant skipped some matrix updates and made others
        assert 0 < run.state["matrix_updates"] < run.mistakes


@pytest.mark.parametrize("normalize", [True, False])
def test_dual_linear_kernel_equals_primal(normalize):
    primal = run_online("higher_order", X, Y, epochs=5, form="primal", normalize=normalize,
                        record_margins=True)
    dual = run_online("higher_order", X, Y, epochs=5, form="dual", normalize=normalize,
                      record_margins=True)
    np.testing.assert_array_equal(dual.mistake_trials, primal.mistake_trials)
    close(dual.margins, primal.margins)
    close(dual.weights, primal.weights)
    close(dual.state["r"], primal.state["r"])


@pytest.mark.parametrize("p", [4.0, 7.0, 10.0])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("epochs", [1, 5])
def test_implicit_form_any_p_equals_explicit_B(p, sparse, epochs):
    run = run_online("higher_order", X, Y, epochs=epochs, p=p, sparse=sparse, shuffle=True,
                     seed=epochs, record_margins=True)
    assert run.params["form"] == "implicit"
    ref = higher_order(X, Y, run.sample_index, c=0.4, p=p, sparse=sparse)
    check_against_reference(run, ref)
    if sparse:
        assert 0 < run.state["matrix_updates"] < run.mistakes


@pytest.mark.parametrize("form, p", [("primal", 2.0), ("dual", 2.0), ("implicit", 2.0),
                                     ("implicit", 7.0)])
@pytest.mark.parametrize("normalize", [True, False])
def test_record_gives_the_transformed_sequence_and_the_proof_coefficient(form, p, normalize):
    Xs = 3.0 * X if not normalize else X
    run = run_online("higher_order", Xs, Y, epochs=3, p=p, form=form, normalize=normalize,
                     sparse=True)
    ref = higher_order(Xs, Y, run.sample_index, c=0.4, p=p, sparse=True, normalize=normalize)
    tilde = transformed_instances(run, Xs, Y)
    close(tilde, ref["transformed"])
    u = np.random.default_rng(0).standard_normal(X.shape[1])
    close(transformed_margins(run, Xs, Y, u), ref["transformed"] @ u)
    # Paper 000, proof of Thm 1: B_k v_k = B_{k-1} v_{k-1} + r_k y_t B_{k-1} x_t.
    steps = np.diff(np.vstack([np.zeros(X.shape[1]), ref["Bv"]]), axis=0)
    close(steps, run.state["r"][:, None] * ref["transformed"])
    assert run.state["normalized"] is normalize


@pytest.mark.parametrize("p", [2.0, 4.0, 7.0])
@pytest.mark.parametrize("normalize", [True, False])
def test_c_zero_is_the_pnorm_perceptron(p, normalize):
    pnorm = run_online("pnorm", X, Y, epochs=4, p=p, normalize=normalize,
                       record_margins=True)
    trials, theta, margins = pnorm_perceptron(X, Y, pnorm.sample_index, p=p, normalize=normalize)
    np.testing.assert_array_equal(pnorm.mistake_trials, trials)
    close(pnorm.margins, margins)
    close(pnorm.state["theta"], theta)
    ho = run_online("higher_order", X, Y, epochs=4, c=0.0, p=p, form="implicit",
                    normalize=normalize, record_margins=True)
    np.testing.assert_array_equal(ho.mistake_trials, pnorm.mistake_trials)
    # Two loops, each vectorised on its own: the link's sum may be added in another order.
    close(ho.margins, pnorm.margins, rtol=1e-12)
    assert ho.state["matrix_updates"] == 0


@pytest.mark.parametrize("form", ["primal", "dual", "implicit"])
def test_ho2_with_c_zero_is_the_perceptron(form):
    for normalize, data in ((False, X), (True, pnorm_normalize(X, 2.0))):
        run = run_online("higher_order", X, Y, epochs=5, c=0.0, form=form, normalize=normalize,
                         record_margins=True)
        trials, w, margins = perceptron(data, Y, run.sample_index)
        np.testing.assert_array_equal(run.mistake_trials, trials)
        close(run.margins, margins, rtol=1e-12)
        close(run.weights, w, rtol=1e-12)


def poly_feature_map(Z, degree, gamma, coef0):
    """Explicit phi with phi(x) . phi(z) = (gamma x.z + coef0)^degree (ordered monomials)."""
    blocks = []
    for j in range(degree + 1):
        weight = np.sqrt(comb(degree, j) * coef0 ** (degree - j) * gamma**j)
        for idx in itertools.product(range(Z.shape[1]), repeat=j):
            blocks.append(weight * np.prod(Z[:, list(idx)], axis=1))
    return np.column_stack(blocks)


@pytest.mark.parametrize("degree, gamma, coef0", [(2, 0.5, 1.0), (3, 1.0, 0.5)])
def test_poly_dual_equals_primal_on_the_feature_map(degree, gamma, coef0):
    Z = X[:, :3]
    dual = run_online("higher_order", Z, Y, epochs=3, kernel="poly", degree=degree, gamma=gamma,
                      coef0=coef0, record_margins=True)
    assert dual.params["form"] == "dual"
    phi = poly_feature_map(Z, degree, gamma, coef0)
    primal = run_online("higher_order", phi, Y, epochs=3, form="primal", record_margins=True)
    np.testing.assert_array_equal(dual.mistake_trials, primal.mistake_trials)
    close(dual.margins, primal.margins)
    close(dual.decision_function(Z), primal.decision_function(phi))
    np.testing.assert_array_equal(dual.state["rho"], primal.state["rho"])
    close(dual.state["r"], primal.state["r"])


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("epochs", [1, 4])
def test_rbf_dual_equals_the_numpy_recursion(sparse, epochs):
    run = run_online("higher_order", X, Y, epochs=epochs, kernel="rbf", gamma=0.3, c=0.6,
                     sparse=sparse, shuffle=True, seed=2, record_margins=True)
    trials, support, g, margins = higher_order_dual(
        X, Y, run.sample_index, c=0.6, sparse=sparse, kernel_name="rbf", gamma=0.3
    )
    np.testing.assert_array_equal(run.mistake_trials, trials)
    close(run.margins, margins)
    np.testing.assert_array_equal(run.support_vectors, X[support])
    close(run.state["g"], g)
    if epochs > 1:
        assert run.mistakes > 16  # the support buffers and the kernel-row cache regrew
    fresh = noisy_separable(n_samples=15, n_features=6, seed=9)[0]
    gram = np.exp(-0.3 * ((fresh[:, None, :] - X[support][None, :, :]) ** 2).sum(axis=2))
    close(run.decision_function(fresh), gram @ g)


def test_rbf_transformed_margins_follow_B_in_feature_space():
    """With u = phi(z0), u . B_{k-1} phi(x_t) unwrapped by hand through kernel values."""
    run = run_online("higher_order", X, Y, epochs=2, kernel="rbf", gamma=0.3)
    z0 = X[:1] + 0.1

    def kern(A, B):
        return np.exp(-0.3 * ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=2))

    got = transformed_margins(run, X, Y, lambda Z: kern(Z, z0)[:, 0])
    support = run.support_vectors
    expected = []
    for k, row in enumerate(run.mistake_rows):
        # B_{k-1} phi(x) = phi(x) + sum_i a_i phi(s_i), unwrapped from the last factor.
        coef = np.zeros(k)
        for i in range(k - 1, -1, -1):
            dot = kern(support[i:i + 1], X[row:row + 1])[0, 0] + coef[i + 1:] @ kern(
                support[i:i + 1], support[i + 1:k])[0]
            coef[i] = -run.state["rho"][i] * dot
        value = kern(X[row:row + 1], z0)[0, 0] + coef @ kern(support[:k], z0)[:, 0]
        expected.append(Y[row] * value)
    close(got, expected)


@pytest.mark.parametrize("algorithm, params", [
    ("higher_order", {"form": "primal"}),
    ("higher_order", {"form": "implicit"}),
    ("higher_order", {"form": "implicit", "p": 4.0, "sparse": True}),
    ("pnorm", {"p": 4.0}),
])
def test_sparse_input_gives_the_dense_run(algorithm, params):
    Xz = X.copy()
    Xz[np.abs(Xz) < 0.5] = 0.0
    dense = run_online(algorithm, Xz, Y, epochs=3, record_margins=True, **params)
    csr = run_online(algorithm, sp.csr_matrix(Xz), Y, epochs=3, record_margins=True, **params)
    np.testing.assert_array_equal(csr.mistake_trials, dense.mistake_trials)
    close(csr.margins, dense.margins, rtol=1e-12)
    close(csr.decision_function(sp.csr_matrix(Xz)), dense.decision_function(Xz), rtol=1e-12)


def test_transformed_records_take_sparse_data():
    run = run_online("higher_order", sp.csr_matrix(X), Y, epochs=2, p=4.0)
    u = np.linspace(-1.0, 1.0, X.shape[1])
    close(transformed_instances(run, sp.csr_matrix(X), Y), transformed_instances(run, X, Y))
    close(transformed_margins(run, sp.csr_matrix(X), Y, u), transformed_margins(run, X, Y, u))


@pytest.mark.parametrize("algorithm, params", [
    ("higher_order", {"form": "primal", "sparse": True}),
    ("higher_order", {"form": "implicit", "p": 7.0}),
    ("higher_order", {"form": "dual", "kernel": "rbf"}),
    ("higher_order", {"form": "dual", "rho": tuple(0.3 / np.arange(1, 201))}),
    ("pnorm", {"p": 4.0}),
])
def test_warm_start_continues_the_run(algorithm, params):
    whole = run_online(algorithm, X, Y, record_margins=True, **params)
    first = run_online(algorithm, X[:25], Y[:25], **params)
    second = run_online(algorithm, X[25:], Y[25:], warm_start=first, record_margins=True)
    np.testing.assert_array_equal(
        np.concatenate([first.mistake_trials, 25 + second.mistake_trials]), whole.mistake_trials
    )
    close(second.margins, whole.margins[25:], rtol=1e-12)
    close(second.decision_function(X), whole.decision_function(X), rtol=1e-12)
    if algorithm == "higher_order":
        assert second.state["mistakes_total"] == whole.mistakes
        np.testing.assert_array_equal(
            np.concatenate([first.state["rho"], second.state["rho"]]), whole.state["rho"]
        )
        if params.get("kernel") != "rbf":
            close(np.vstack([transformed_instances(first, X[:25], Y[:25]),
                             transformed_instances(second, X[25:], Y[25:])]),
                  transformed_instances(whole, X, Y))


@pytest.mark.parametrize("params", [{"form": "primal"}, {"form": "implicit", "p": 7.0},
                                    {"form": "dual", "kernel": "poly", "degree": 2}])
def test_final_hypothesis_is_the_ho_margin_of_a_new_instance(params):
    run = run_online("higher_order", X, Y, epochs=2, **params)
    Z = noisy_separable(n_samples=10, n_features=6, seed=5)[0]
    Z[3] = 0.0
    scores = run.decision_function(Z)
    # Scoring a row equals the margin it gets as the next trial (normalised as in training).
    for i in (0, 5):
        nxt = run_online("higher_order", Z[i:i + 1], [1.0], classes=[-1.0, 1.0],
                         warm_start=run, record_margins=True)
        close(nxt.margins, scores[i:i + 1])
    if params["form"] != "dual":  # phi(2.5 z) is not parallel to phi(z) for a poly kernel
        close(run.decision_function(2.5 * Z), scores)
        assert scores[3] == 0.0
        ref = higher_order(X, Y, run.sample_index, p=params.get("p", 2.0))
        close(scores, pnorm_normalize(Z, params.get("p", 2.0)) @ ref["w"])


def test_unnormalised_runs_use_the_data_as_given():
    run = run_online("higher_order", 4.0 * X, Y, epochs=2, normalize=False, record_margins=True)
    ref = higher_order(4.0 * X, Y, run.sample_index, normalize=False)
    check_against_reference(run, ref)
    assert run.params["normalize"] is False
    close(run.decision_function(X), X @ ref["w"])


def test_explicit_rho_schedule():
    rho = np.linspace(0.5, 0.1, 200)
    run = run_online("higher_order", X, Y, epochs=5, rho=rho, form="implicit",
                     record_margins=True)
    ref = higher_order(X, Y, run.sample_index, rho=rho)
    check_against_reference(run, ref)
    np.testing.assert_array_equal(run.state["rho"], rho[:run.mistakes])
    assert run.params["rho"] == tuple(rho)


def test_auto_form_and_link():
    assert run_online("higher_order", X, Y).params["form"] == "primal"
    assert run_online("higher_order", X, Y, p=3.0).params["form"] == "implicit"
    assert run_online("higher_order", X, Y, sparse=True).params["form"] == "implicit"
    assert run_online("higher_order", X, Y, kernel="rbf").params["form"] == "dual"
    wide = np.zeros((2, PRIMAL_MAX_FEATURES + 1))
    wide[0, 0], wide[1, 1] = 1.0, -1.0
    assert run_online("higher_order", wide, [1, -1]).params["form"] == "implicit"
    theta = np.array([3.0, -1e200, 0.5, 0.0])
    scaled = theta / 1e200
    g = np.sign(scaled) * np.abs(scaled) ** 6 / np.sum(np.abs(scaled) ** 7) ** (5 / 7)
    close(link(theta, 7.0), 1e200 * g, rtol=1e-12)
    np.testing.assert_array_equal(link(np.zeros(3), 4.0), np.zeros(3))


@pytest.mark.parametrize("params, error, match", [
    ({"c": 1.0}, ValueError, r"c must be in \[0, 1\), got 1.0"),
    ({"c": -0.1}, ValueError, r"c must be in \[0, 1\)"),
    ({"c": "0.4"}, TypeError, "c must be a real number"),
    ({"p": 1.5}, ValueError, r"p must be in \[2, inf\), got 1.5"),
    ({"rho": [0.1, 0.2]}, ValueError, "at least 40 values"),
    ({"rho": [0.1, 1.0] + [0.1] * 40}, ValueError, r"rho values must be in \[0, 1\), got rho\[1\]"),
    ({"rho": "c/k"}, TypeError, "rho must be None or a 1-D array"),
    ({"rho": [[0.1]]}, TypeError, "rho must be None or a 1-D array"),
    ({"kernel": "rbf", "p": 4.0}, ValueError, "non-linear kernel needs p=2"),
    ({"form": "primal", "p": 4.0}, ValueError, "exists for p=2 only"),
    ({"form": "primal", "kernel": "poly"}, ValueError, "needs kernel='linear'"),
    ({"form": "sideways"}, ValueError, "form must be one of"),
    ({"sparse": 1}, TypeError, "sparse must be True or False"),
    ({"normalize": "yes"}, TypeError, "normalize must be True or False"),
    ({"q": 1}, TypeError, "unexpected parameter"),
])
def test_bad_input_is_refused_before_any_trial(params, error, match):
    with pytest.raises(error, match=match):
        run_online("higher_order", X, Y, **params)


def test_bad_input_other_entry_points():
    with pytest.raises(ValueError, match=r"p must be in \[2, inf\)"):
        run_online("pnorm", X, Y, p=1.0)
    with pytest.raises(ValueError, match="K\\(x, x\\) >= 0"):
        run_online("higher_order", X, Y, kernel="poly", degree=1, coef0=-50.0)
    run = run_online("higher_order", X, Y)
    with pytest.raises(ValueError, match="must be an OnlineRun of 'higher_order'"):
        transformed_instances(run_online("perceptron", X, Y), X, Y)
    with pytest.raises(ValueError, match="pass the training data"):
        transformed_instances(run, X[:5], Y[:5])
    with pytest.raises(ValueError, match=r"u must have shape \(6,\)"):
        transformed_margins(run, X, Y, np.ones(3))
    rbf = run_online("higher_order", X, Y, kernel="rbf")
    with pytest.raises(ValueError, match="needs a linear-kernel run"):
        transformed_instances(rbf, X, Y)
    with pytest.raises(TypeError, match="u must be a function"):
        transformed_margins(rbf, X, Y, np.ones(6))


@parametrize_with_checks([
    HigherOrderPerceptron(),
    HigherOrderPerceptron(p=4.0, sparse=True),
    HigherOrderPerceptron(kernel="rbf", epochs=2, shuffle=True),
    PNormPerceptron(p=3.0),
])
def test_check_estimator(estimator, check):
    check(estimator)


@pytest.mark.parametrize("estimator, algorithm, params", [
    (HigherOrderPerceptron(protocol="paper", c=0.6, p=7.0, sparse=True), "higher_order",
     {"c": 0.6, "p": 7.0, "sparse": True}),
    (HigherOrderPerceptron(protocol="paper", kernel="poly", degree=2, gamma="auto"), "higher_order",
     {"kernel": "poly", "degree": 2, "gamma": "auto"}),
    (PNormPerceptron(protocol="paper", p=4.0, normalize=False), "pnorm",
     {"p": 4.0, "normalize": False}),
])
def test_estimators_are_run_online(estimator, algorithm, params):
    est = clone(estimator).set_params(epochs=3, shuffle=True, random_state=4).fit(X, Y)
    run = run_online(algorithm, X, Y, epochs=3, shuffle=True, seed=4, **params)
    np.testing.assert_array_equal(est.run_.mistake_trials, run.mistake_trials)
    close(est.decision_function(X), run.decision_function(X), rtol=1e-12)
    part = clone(estimator).partial_fit(X[:25], Y[:25]).partial_fit(X[25:], Y[25:])
    whole = run_online(algorithm, X, Y, **params)
    assert part.mistakes_ == whole.mistakes
    close(part.decision_function(X), whole.decision_function(X), rtol=1e-12)


@pytest.mark.parametrize("kind", ["dense", "csr"])
def test_a_warm_start_without_a_mistake_keeps_the_pending_change_through_save(kind, tmp_path):
    """Primal form: a batch without a mistake keeps ``pending`` (its own ``rho`` is empty),
    saved and loaded; the chain first | correct rows | rest is one run, bit for bit."""
    rng = np.random.default_rng(2)
    Xw = rng.standard_normal((120, 30))
    Xw[rng.random(Xw.shape) < 0.7] = 0.0
    yw = np.where(Xw @ rng.standard_normal(30) + 0.3 * rng.standard_normal(120) > 0, 1, -1)
    Xk = sp.csr_matrix(Xw) if kind == "csr" else Xw
    first = run_online("higher_order", Xk[:60], yw[:60], form="primal", c=0.6)
    assert first.state["rho"][-1] > 0 and "pending" not in first.state
    correct = np.flatnonzero(first.decision_function(Xk[60:]) * yw[60:] > 0)[:3] + 60
    middle = run_online("higher_order", Xk[correct], yw[correct], warm_start=first)
    assert middle.mistakes == 0 and middle.state["pending"] is True
    loaded = load_run(middle.save(tmp_path / "middle"))
    assert loaded.state["pending"] is True
    rest = run_online("higher_order", Xk[60:], yw[60:], warm_start=loaded, record_margins=True)
    order = np.concatenate([np.arange(60), correct, np.arange(60, 120)])
    whole = run_online("higher_order", Xk[order], yw[order], form="primal", c=0.6,
                       record_margins=True)
    assert rest.margins.tobytes() == whole.margins[63:].tobytes()
    for name in ("A", "v", "factors"):
        assert rest.state[name].tobytes() == whole.state[name].tobytes(), name
    assert rest.weights.tobytes() == whole.weights.tobytes()
