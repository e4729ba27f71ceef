"""The voted Perceptron (theory §2.2, paper 001 Fig. 1 and sec. 5) against its reference."""

from functools import cache

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import noisy_separable
from reference import voted_perceptron, voted_predict

from perceptron_bounds import hypothesis, run_online
from perceptron_bounds.algorithms.voted import (
    mistake_count,
    support_rows,
    supvec_count,
    survival_counts,
)

KERNELS = {
    "linear": {},
    "poly": {"degree": 2, "gamma": 0.5, "coef0": 1.0},
    "rbf": {"gamma": 0.5},
}
METHODS = ("vote", "average", "last", "random")
CASES = [
    (kind, epochs, shuffle)
    for kind in ("dense", "csr", "poly", "rbf")
    for epochs in (1, 3)
    for shuffle in (False, True)
]


def kernel_of(kind):
    return "linear" if kind in ("dense", "csr") else kind


@cache
def case(kind, epochs, shuffle):
    """A run and the reference trained on the same presented sequence (computed once)."""
    n = 150 if kind in ("dense", "csr") else 50
    X, y = noisy_separable(n_samples=n, n_features=4, noise=0.1, seed=3)
    Z, _ = noisy_separable(n_samples=20, n_features=4, seed=4)
    name = kernel_of(kind)
    X_in = sp.csr_matrix(X) if kind == "csr" else X
    run = run_online("voted_perceptron", X_in, y, epochs=epochs, shuffle=shuffle, seed=7,
                     kernel=name, **KERNELS[name])
    trained = voted_perceptron(X, y, run.sample_index, name, **_reference_params(run))
    return X, y, Z, run, trained


def _reference_params(run):
    params = {k: run.params[k] for k in ("degree", "gamma", "coef0")}
    return {} if run.params["kernel"] == "linear" else params


@pytest.mark.parametrize(("kind", "epochs", "shuffle"), CASES)
def test_training_matches_reference(kind, epochs, shuffle):
    X, y, _, run, (mistakes, vectors, counts) = case(kind, epochs, shuffle)
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    np.testing.assert_array_equal(run.state["counts"], counts)
    assert run.state["counts"].sum() == run.n_trials
    support = run.support_vectors.toarray() if kind == "csr" else run.support_vectors
    np.testing.assert_array_equal(support, X[run.mistake_rows])
    np.testing.assert_array_equal(run.dual_coef, y[run.mistake_rows])
    np.testing.assert_allclose(np.sqrt(run.state["norms_sq"]), [n for _, n in vectors],
                               rtol=1e-10, atol=1e-10)
    if kind in ("dense", "csr"):
        last = np.array([vectors[-1][0](e) for e in np.eye(X.shape[1])])
        np.testing.assert_allclose(run.weights, last, rtol=0, atol=1e-10)
    else:
        assert run.weights is None


@pytest.mark.parametrize("normalize", [False, True])
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(("kind", "epochs", "shuffle"), CASES)
def test_predictions_match_reference(kind, epochs, shuffle, method, normalize):
    _, _, Z, run, trained = case(kind, epochs, shuffle)
    expected = voted_predict(trained, Z, method, normalize=normalize, seed=11)
    scores = run.decision_function(Z, method=method, normalize=normalize, seed=11)
    np.testing.assert_allclose(scores, expected, rtol=1e-10, atol=1e-10)
    labels = run.predict(Z, method=method, normalize=normalize, seed=11)
    np.testing.assert_array_equal(labels, np.where(expected > 0, 1.0, -1.0))


def test_vote_is_a_weighted_count():
    _, _, Z, run, _ = case("rbf", 3, True)
    votes = run.decision_function(Z, method="vote")
    np.testing.assert_array_equal(votes, np.round(votes))
    assert np.all(np.abs(votes) <= run.n_trials)


@pytest.mark.parametrize("kind", ["dense", "csr", "rbf"])
def test_last_is_the_perceptron(kind):
    X, y, Z, run, _ = case(kind, 3, True)
    X_in = sp.csr_matrix(X) if kind == "csr" else X
    name = kernel_of(kind)
    perceptron = run_online("perceptron", X_in, y, epochs=3, shuffle=True, seed=7, kernel=name,
                            **KERNELS[name])
    np.testing.assert_array_equal(run.mistake_trials, perceptron.mistake_trials)
    np.testing.assert_array_equal(run.decision_function(Z, method="last"),
                                  perceptron.decision_function(Z))
    np.testing.assert_array_equal(run.predict(Z, method="last"), perceptron.predict(Z))


def test_linear_dual_form_equals_primal():
    X, y, Z, primal, _ = case("dense", 3, True)
    dual = run_online("voted_perceptron", X, y, epochs=3, shuffle=True, seed=7, form="dual")
    np.testing.assert_array_equal(dual.mistake_trials, primal.mistake_trials)
    np.testing.assert_array_equal(dual.state["counts"], primal.state["counts"])
    np.testing.assert_allclose(dual.weights, primal.weights, rtol=0, atol=1e-10)
    for method in METHODS:
        np.testing.assert_allclose(dual.decision_function(Z, method=method, seed=2),
                                   primal.decision_function(Z, method=method, seed=2),
                                   rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("kind", ["dense", "csr", "rbf"])
def test_warm_start_continues_the_sequence(kind):
    X, y = noisy_separable(n_samples=60, n_features=4, noise=0.1, seed=8)
    Z, _ = noisy_separable(n_samples=15, n_features=4, seed=9)
    name = kernel_of(kind)
    X_in = sp.csr_matrix(X) if kind == "csr" else X
    first = run_online("voted_perceptron", X_in[:35], y[:35], epochs=2, shuffle=True, seed=1,
                       kernel=name, **KERNELS[name])
    second = run_online("voted_perceptron", X_in[35:], y[35:], epochs=2, shuffle=True, seed=2,
                        warm_start=first)
    order = np.concatenate((first.sample_index, 35 + second.sample_index))
    trained = voted_perceptron(X, y, order, name, **_reference_params(first))
    mistakes, _, counts = trained
    np.testing.assert_array_equal(second.mistake_trials + first.n_trials,
                                  mistakes[mistakes >= first.n_trials])
    np.testing.assert_array_equal(second.state["counts"], counts)
    for method in METHODS:
        for normalize in (False, True):
            np.testing.assert_allclose(
                second.decision_function(Z, method=method, normalize=normalize, seed=5),
                voted_predict(trained, Z, method, normalize=normalize, seed=5),
                rtol=1e-10, atol=1e-10,
            )


def test_chunked_scoring_equals_one_block(monkeypatch):
    _, _, Z, run, _ = case("poly", 3, True)
    whole = {m: run.decision_function(Z, method=m, normalize=True, seed=3) for m in METHODS}
    monkeypatch.setattr(hypothesis, "_BLOCK_ENTRIES", 7)
    for method in METHODS:
        np.testing.assert_allclose(run.decision_function(Z, method=method, normalize=True, seed=3),
                                   whole[method], rtol=1e-12, atol=1e-12)


def test_random_is_seeded():
    _, _, Z, run, _ = case("dense", 3, True)
    Z = np.repeat(Z, 10, axis=0)
    a = run.decision_function(Z, method="random", seed=1)
    np.testing.assert_array_equal(a, run.decision_function(Z, method="random", seed=1))
    assert not np.array_equal(a, run.decision_function(Z, method="random", seed=2))


def test_survival_counts_continue_the_last_vector():
    # theory §2.2: a correct trial adds to c_k, a mistake starts c_{k+1} = 1.
    np.testing.assert_array_equal(survival_counts(np.array([0, 3, 4]), 6, np.array([0])),
                                  [0, 3, 1, 2])
    np.testing.assert_array_equal(survival_counts(np.array([2]), 5, np.array([0, 3, 1, 2])),
                                  [0, 3, 1, 4, 3])
    np.testing.assert_array_equal(survival_counts(np.array([], dtype=np.int64), 4,
                                                  np.array([0, 5])), [0, 9])


def test_bad_prediction_options():
    _, _, Z, run, _ = case("dense", 1, False)
    with pytest.raises(ValueError, match="method must be one of 'vote', .*got 'median'"):
        run.predict(Z, method="median")
    with pytest.raises(TypeError, match="normalize must be True or False"):
        run.decision_function(Z, normalize=1)
    with pytest.raises(ValueError, match="seed must be in"):
        run.decision_function(Z, method="random", seed=-1)
    with pytest.raises(TypeError, match="unexpected parameter"):
        run_online("voted_perceptron", Z, np.sign(Z[:, 0]), r=0.1)


@pytest.mark.parametrize("cut", [3, 6, 9])
def test_a_chain_of_warm_starts_keeps_one_running_sum_of_the_norms(cut):
    """||v_j||^2 summed in one running sum over the warm starts, bit for bit as one run, also
    where it fell below 0 by rounding (after 6 rows here: v back to 0 from three vectors),
    where norms_sq holds the clamp at 0 and the state the sum itself."""
    rng = np.random.default_rng(28)
    base = rng.standard_normal((3, 3))
    X = base[rng.integers(0, 3, 12)] * rng.choice([1.0, 1.0, 3.0], 12)[:, None]
    y = rng.choice([-1, 1], 12)
    whole = run_online("voted_perceptron", X, y, epochs=2)
    first = run_online("voted_perceptron", X[:cut], y[:cut], classes=[-1, 1])
    assert ("norm_sq_sum" in first.state) == (cut == 6)
    if cut == 6:
        assert first.state["norm_sq_sum"] < 0.0 == first.state["norms_sq"][-1]
    run = run_online("voted_perceptron", X[cut:], y[cut:], warm_start=first)
    run = run_online("voted_perceptron", X, y, warm_start=run)
    assert run.state["norms_sq"].tobytes() == whole.state["norms_sq"].tobytes()
    np.testing.assert_array_equal(run.state["counts"], whole.state["counts"])


def test_supvec_rows_and_mistakes_of_a_warm_start_chain():
    """One SupVec (support_rows) and one corrections count (mistake_count is corrections)."""
    X, y = noisy_separable(n_samples=60, n_features=4, noise=0.1, seed=2)
    labels = np.digitize(X[:, 0] + 0.3 * X[:, 1], [-0.5, 0.5])
    whole = run_online("voted_perceptron", X, labels, multiclass="ovr")
    rows = np.unique(np.concatenate([r.mistake_rows for r in whole.class_runs]))
    np.testing.assert_array_equal(support_rows(whole), rows, strict=True)
    assert supvec_count(whole) == rows.size
    assert mistake_count(whole) == whole.corrections
    first = run_online("voted_perceptron", X[:30], labels[:30], multiclass="ovr")
    second = run_online("voted_perceptron", X[30:], labels[30:], multiclass="ovr",
                        warm_start=first)
    chain = np.union1d(support_rows(first), 30 + support_rows(second))
    np.testing.assert_array_equal(chain, rows, strict=True)  # one pass: the same trials
    assert mistake_count(first) + mistake_count(second) == whole.corrections
    binary = run_online("voted_perceptron", X, y, epochs=2)
    assert support_rows(binary).tolist() == sorted(set(binary.mistake_rows.tolist()))
