"""Paths the other test files left unexercised (found with coverage under NUMBA_DISABLE_JIT=1).

Each test checks a result against an independent computation (tests/reference.py, a dense
copy of the data, a hand-written value), or checks that a user error is named.
"""

import json

import numpy as np
import pytest
import reference
import scipy.sparse as sp
from conftest import noisy_separable

from perceptron_bounds import run_online
from perceptron_bounds._validation import check_X
from perceptron_bounds.algorithms import get, register
from perceptron_bounds.bounds import (
    BoundReport,
    ballseptron_corrected,
    evaluate,
    run_quantities,
)
from perceptron_bounds.bounds.search import gamma_candidates, minimise_over_gamma
from perceptron_bounds.cli import main
from perceptron_bounds.cli._common import BUILTIN_DATA, parse_value
from perceptron_bounds.datasets import load_data, make_hop_artificial, make_separable
from perceptron_bounds.experiments import epochs_curve, noise_curve, sop_toy

# --- command line ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [("TRUE", True), ("false", False), ("None", None), ("3", 3), ("0.5", 0.5), ("1e-3", 1e-3),
     ("rbf", "rbf")],
)
def test_parse_value_reads_bools_none_and_numbers(text, expected):
    value = parse_value(text)
    assert value == expected and type(value) is type(expected)


def test_run_json_forwards_bool_params_and_counts_the_reference_mistakes(capsys):
    # pnorm with p=2 and normalize=false is the classic Perceptron (theory §2.1).
    argv = ["run", "--algorithm", "pnorm", "--param", "p=2", "--param",
            "normalize=false", "--epochs", "2", "--json"]
    assert main(argv) == 0
    record = json.loads(capsys.readouterr().out)
    X, y = make_separable(**BUILTIN_DATA)[:2]
    y_pm = np.where(y == np.unique(y)[1], 1.0, -1.0)
    trials, _, _ = reference.perceptron(X, y_pm, reference.presented_sequence(X.shape[0], 2))
    assert record["params"]["normalize"] is False
    assert record["mistakes"] == trials.shape[0]
    assert record["n_trials"] == 2 * X.shape[0]
    assert (record["algorithm"], record["data"], record["epochs"]) == (
        "pnorm", "built-in", 2)


def test_algorithms_command_lists_every_algorithm_with_its_defaults(capsys):
    assert main(["algorithms"]) == 0
    out = capsys.readouterr().out
    for name in ("perceptron", "voted_perceptron", "ballseptron", "second_order",
                 "higher_order", "pnorm"):
        assert f"{name}: " in out
    assert "r=0.1" in out and "variant='inverse'" in out


# --- validation ---------------------------------------------------------------------------


def test_check_X_refuses_sparse_input_when_dense_is_needed():
    with pytest.raises(TypeError, match=r"Z is a sparse matrix.*Z\.toarray\(\)"):
        check_X(sp.csr_matrix(np.eye(3)), name="Z", accept_sparse=False)


def test_check_X_refuses_a_one_dimensional_sparse_array():
    with pytest.raises(ValueError, match="X must be 2-D, got 1-D"):
        check_X(sp.coo_array(np.array([1.0, 2.0])))


def test_unsorted_csr_with_duplicate_entries_runs_as_its_dense_sum():
    # Row 0 names column 1 twice and out of order; the entries add up as in toarray().
    X, y = noisy_separable(n_samples=30, n_features=3, seed=4)
    csr = sp.csr_matrix(X)
    data = np.concatenate([[0.25, X[0, 2], X[0, 1] - 0.25, X[0, 0]], csr.data[3:]])
    indices = np.concatenate([[1, 2, 1, 0], csr.indices[3:]])
    indptr = csr.indptr.copy()
    indptr[1:] += 1
    messy = sp.csr_matrix((data, indices, indptr), shape=X.shape)
    assert not messy.has_canonical_format
    run = run_online("perceptron", messy, y, epochs=2)
    trials, w, _ = reference.perceptron(X, y, reference.presented_sequence(30, 2))
    np.testing.assert_array_equal(run.mistake_trials, trials)
    np.testing.assert_allclose(run.weights, w, rtol=0, atol=1e-10)
    assert messy.data[0] == 0.25  # the caller's matrix is summed on a copy


def test_warm_start_with_other_classes_is_refused():
    X, y = noisy_separable(n_samples=20, n_features=3)
    first = run_online("perceptron", X, y)
    with pytest.raises(ValueError, match=r"classes \[0, 1\] differ from the warm start's"):
        run_online("perceptron", X, (y > 0).astype(int), classes=[0, 1], warm_start=first)


def test_registering_a_taken_name_is_refused():
    with pytest.raises(ValueError, match="'perceptron' is already registered"):
        register(get("perceptron"))


# --- loaders ------------------------------------------------------------------------------


def test_load_data_path_must_be_a_path():
    with pytest.raises(TypeError, match="path must be a str or os.PathLike, got int"):
        load_data(3)


@pytest.mark.parametrize(
    "arrays, match",
    [
        ({"X": np.array([["a", "b"]]), "y": np.array([1])}, "array X must be numeric, got dtype"),
        ({"X": np.ones(3), "y": np.ones(3)}, r"X must be 2-D, got shape \(3,\)"),
        ({"X": np.ones((0, 2)), "y": np.ones(0)}, "no samples"),
        ({"X": np.ones((2, 2)), "y": np.array([1.0, np.nan])}, "y contains NaN or infinity"),
    ],
)
def test_load_npz_bad_content_one_line_error(tmp_path, arrays, match):
    path = tmp_path / "d.npz"
    np.savez(path, **arrays)
    with pytest.raises(ValueError, match=match):
        load_data(path)


# --- bounds -------------------------------------------------------------------------------


def test_evaluate_without_a_fittable_comparator_says_why():
    # A one-class batch (classes given) leaves the SVM nothing to separate.
    X, _ = noisy_separable(n_samples=40, n_features=3)
    run = run_online("perceptron", X, np.ones(40), classes=[-1, 1])
    with pytest.raises(ValueError, match="no SVM comparator could be fitted"):
        evaluate(run, X, np.ones(40))


def test_run_quantities_refuses_a_kernel_run():
    X, y = noisy_separable(n_samples=40, n_features=3)
    run = run_online("perceptron", X, y, kernel="rbf")
    with pytest.raises(ValueError, match="needs a linear-kernel run"):
        run_quantities(run, X, y, np.ones(3), 1.0)


def test_report_json_is_strict_json():
    report = BoundReport("perceptron", {"g": np.float64(np.inf), "w": np.arange(2.0)}, 3, 1, 0,
                         (), ("a note",))
    payload = json.loads(report.to_json(), parse_constant=lambda c: pytest.fail(c))
    assert payload["params"] == {"g": None, "w": [0.0, 1.0]}


def test_gamma_candidates_empty_when_the_range_is_empty():
    assert gamma_candidates(np.array([0.1, 0.7]), 1.0, 0.5, 2.0).shape == (0,)
    assert gamma_candidates(np.array([0.1]), 0.0, 3.0, 0.0).shape == (0,)


def test_minimise_over_gamma_edge_cases():
    assert minimise_over_gamma(lambda g: (g - 2.0) ** 2, np.zeros(0)) == (pytest.approx(np.nan,
                                                                           nan_ok=True), np.inf)
    gamma, value = minimise_over_gamma(lambda g: np.full(g.shape, np.inf), np.array([1.0, 2.0]))
    assert np.isnan(gamma) and value == np.inf
    # One candidate: nothing to refine between neighbours.
    assert minimise_over_gamma(lambda g: (g - 2.0) ** 2, np.array([1.0])) == (1.0, 1.0)
    # NaN counts as invalid (inf), not as the minimum; the refinement between the neighbours
    # then approaches the edge of the valid range, inf_{g >= 1.5} g = 1.5, without warnings.
    gamma, value = minimise_over_gamma(lambda g: np.where(g < 1.5, np.nan, g), np.array([1.0, 2.0]))
    assert 1.5 <= gamma == value < 1.5 + 1e-6


# --- experiments and data sets -------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_split():
    return make_hop_artificial(0.0, n_train=40, n_test=30, n_features=6, n_relevant=3, seed=1)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"specs": [42]}, TypeError, "each spec must be an AlgorithmSpec or a"),
        ({"specs": [("FO",)]}, TypeError, "each spec must be an AlgorithmSpec or a"),
        ({"specs": [("FO", "perceptron", ["r"])]}, TypeError, "params a dict"),
        ({"specs": [(1, "perceptron", {})]}, TypeError, "label must be a str"),
        ({"seeds": "12"}, TypeError, "seeds must be a list of non-negative integers"),
        ({"seeds": 3}, TypeError, "seeds must be a list of non-negative integers"),
        ({"seeds": []}, ValueError, "seeds must be a non-empty list"),
        ({"seeds": [1, 1]}, ValueError, r"seeds must be distinct, got \[1, 1\]"),
        ({"epochs": []}, ValueError, "epochs"),
    ],
)
def test_epochs_curve_names_bad_specs_and_seeds(tiny_split, kwargs, error, match):
    args = {"specs": [("FO", "perceptron", {})], "train": tiny_split.train,
            "test": tiny_split.test, **kwargs}
    with pytest.raises(error, match=match):
        epochs_curve(**args)


def test_epochs_curve_takes_a_single_epoch_count(tiny_split):
    X, y = tiny_split.train[:2]
    X_test, y_test = tiny_split.test[:2]
    (row,) = epochs_curve([("FO", "perceptron", {})], tiny_split.train, tiny_split.test, epochs=3)
    order = reference.presented_sequence(X.shape[0], 3)
    trials, w, _ = reference.perceptron(X, y, order)
    assert (row["epochs"], row["updates"]) == (3, trials.shape[0])
    assert row["test_error"] == pytest.approx(np.mean(np.where(X_test @ w > 0, 1, -1) != y_test))


@pytest.mark.parametrize(
    ("levels", "error", "match"),
    [(0.1, TypeError, "eta must be a list of numbers"), ([], ValueError, "eta is empty")],
)
def test_noise_curve_names_bad_levels(levels, error, match):
    with pytest.raises(error, match=match):
        noise_curve("label", levels)


def test_sop_toy_refuses_a_zero_a():
    with pytest.raises(ValueError, match=r"a_values must be > 0, got 0\.0"):
        sop_toy(a_values=[0.0, 1.0])


def test_train_test_target_is_the_generating_u(tiny_split):
    np.testing.assert_array_equal(tiny_split.target, tiny_split.train.u)
    np.testing.assert_array_equal(tiny_split.target, tiny_split.test.u)
    margins = tiny_split.train.y * (tiny_split.train.X @ tiny_split.target)
    assert (margins > 0).all()  # noise-free: u separates the training set


@pytest.mark.parametrize(("loss", "D", "expected"), [("d2", 3.0, (3.0 / 0.5) ** 2),
                                                     ("d1", 3.0, 3.0 / 0.5)])
def test_exact_ballseptron_bound_with_zero_radius_of_data(loss, D, expected):
    # R = 0 and eps~ = 0: g(m) = m gamma - D2 sqrt(m) <= 0 iff m <= (D2 / gamma)^2, and
    # q(m) = m gamma - D1 <= 0 iff m <= D1 / gamma (paper 004, eqs. 11 and 16).
    value = ballseptron_corrected(0.0, 0.5, D, 0.0, 0, loss=loss, exact=True)
    assert float(value) == pytest.approx(expected, rel=1e-12)


def test_unsorted_csr_without_duplicates_runs_as_its_dense_copy():
    # Every row lists its columns in reverse: scanned for duplicates, none found, used as is.
    X, y = noisy_separable(n_samples=30, n_features=3, seed=5)
    data, indices = X[:, ::-1].ravel().copy(), np.tile(np.array([2, 1, 0]), 30)
    messy = sp.csr_matrix((data, indices, np.arange(0, 91, 3)), shape=X.shape)
    assert not messy.has_canonical_format
    run = run_online("perceptron", messy, y, epochs=2)
    trials, w, _ = reference.perceptron(X, y, reference.presented_sequence(30, 2))
    np.testing.assert_array_equal(run.mistake_trials, trials)
    np.testing.assert_allclose(run.weights, w, rtol=0, atol=1e-10)


# --- hypotheses ---------------------------------------------------------------------------


def test_higher_order_dual_without_normalisation_predicts_the_reference_margin():
    X, y = noisy_separable(n_samples=40, n_features=3, seed=6)
    # A poly kernel: K(x, x) != 1, so normalising would change every margin (rbf would not).
    kernel = {"degree": 2, "gamma": 0.5, "coef0": 1.0}
    run = run_online("higher_order", X[:30], y[:30], kernel="poly", normalize=False, form="dual",
                     **kernel)
    trials, support, g, _ = reference.higher_order_dual(
        X[:30], y[:30], reference.presented_sequence(30, 1), normalize=False, kernel_name="poly",
        **kernel)
    np.testing.assert_array_equal(run.mistake_trials, trials)
    expected = [g @ [reference.kernel("poly", X[s], z, **kernel) for s in support] for z in X[30:]]
    np.testing.assert_allclose(run.decision_function(X[30:]), expected, rtol=0, atol=1e-10)


@pytest.mark.parametrize("form", ["primal", "dual"])
def test_pinv_weights_are_the_pseudoinverse_solution(form):
    # w = (sum_i x_i x_i^T)^+ v over the mistakes (paper 003, Fig. 4); with more mistakes than
    # features the matrix is invertible.
    X, y = noisy_separable(n_samples=60, n_features=3, seed=7)
    run = run_online("second_order", X, y, variant="pinv", form=form)
    Xm, ym = X[run.mistake_rows], y[run.mistake_rows]
    assert Xm.shape[0] > 3
    expected = np.linalg.solve(Xm.T @ Xm, ym @ Xm)
    np.testing.assert_allclose(run.weights, expected, rtol=1e-9, atol=1e-12)
    if form == "primal":
        assert run.hypothesis.dual_coef is None and run.hypothesis.support_vectors is None
    else:
        sv, beta = run.hypothesis.support_vectors, run.hypothesis.dual_coef
        np.testing.assert_allclose(beta @ sv, expected, rtol=1e-9, atol=1e-12)


def test_pinv_kernel_run_has_no_primal_weights():
    X, y = noisy_separable(n_samples=30, n_features=3, seed=8)
    assert run_online("second_order", X, y, variant="pinv", kernel="rbf").weights is None


def test_finite_values_whose_sum_overflows_are_too_large_not_infinite():
    # check_finite's quick sum overflows here, yet no entry is NaN or infinite.
    X = np.full((4, 2), 1e308)
    with pytest.raises(ValueError, match="X holds values too large .* 1e\\+308"):
        run_online("perceptron", X, [1, -1, 1, -1])
