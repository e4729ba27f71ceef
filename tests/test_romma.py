"""ROMMA and aggressive ROMMA (theory §2.8; Li & Long, NIPS 1999) against their references."""

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import assert_warm_chain_is_one_run, noisy_separable
from reference import kernel_romma, presented_sequence, romma

from perceptron_bounds import run_online
from perceptron_bounds.algorithms.romma import romma_step

KERNELS = {"poly": {"degree": 2, "gamma": 0.5, "coef0": 1.0}, "rbf": {"gamma": 0.5}}
FORMS = ("dense", "csr", "dual")


def run_form(form, X, y, **params):
    """A linear run in one of FORMS (the dual form with the linear kernel)."""
    X_in = sp.csr_matrix(X) if form == "csr" else X
    return run_online("romma", X_in, y, form="dual" if form == "dual" else "primal", **params)


def assert_same(run, mistakes, margin_errors, w, rtol=1e-10):
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    np.testing.assert_array_equal(run.margin_error_trials, margin_errors)
    scale = max(np.abs(w).max(), np.finfo(float).tiny)
    np.testing.assert_allclose(run.weights / scale, w / scale, rtol=0, atol=rtol)
    np.testing.assert_allclose(run.state["norm"], np.linalg.norm(w), rtol=rtol)


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("epochs", [1, 3])
@pytest.mark.parametrize("aggressive", [False, True])
@pytest.mark.parametrize("sparse", [False, True])
def test_primal_matches_reference(sparse, aggressive, epochs, shuffle):
    X, y = noisy_separable(n_samples=200, n_features=4, noise=0.0, seed=1)
    X_in = sp.csr_matrix(X) if sparse else X
    run = run_online("romma", X_in, y, aggressive=aggressive, epochs=epochs, shuffle=shuffle,
                     seed=4, record_margins=True)
    mistakes, margin_errors, w, margins = romma(X, y, run.sample_index, aggressive)
    assert (margin_errors.size > 0) == aggressive
    assert_same(run, mistakes, margin_errors, w)
    np.testing.assert_allclose(run.margins, margins, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("epochs", [1, 3])
@pytest.mark.parametrize("aggressive", [False, True])
@pytest.mark.parametrize("kernel", ["poly", "rbf"])
def test_kernel_matches_reference(kernel, aggressive, epochs, shuffle):
    X, y = noisy_separable(n_samples=60, n_features=3, noise=0.0, seed=2)
    run = run_online("romma", X, y, aggressive=aggressive, epochs=epochs, shuffle=shuffle,
                     seed=4, kernel=kernel, record_margins=True, **KERNELS[kernel])
    mistakes, margin_errors, support, alpha, margins = kernel_romma(
        X, y, run.sample_index, aggressive, kernel, **KERNELS[kernel])
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    np.testing.assert_array_equal(run.margin_error_trials, margin_errors)
    np.testing.assert_array_equal(run.support_vectors, X[support])
    np.testing.assert_allclose(run.dual_coef, alpha, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(run.margins, margins, rtol=1e-10, atol=1e-10)
    G = run.hypothesis.kernel.gram(X[support], X[support])
    np.testing.assert_allclose(run.state["norm"] ** 2, alpha @ G @ alpha, rtol=1e-10)


@pytest.mark.parametrize("aggressive", [False, True])
def test_linear_kernel_dual_form_equals_primal_and_csr(aggressive):
    X, y = noisy_separable(n_samples=150, n_features=5, noise=0.0, seed=7)
    runs = [run_form(form, X, y, aggressive=aggressive, epochs=3, shuffle=True, seed=1)
            for form in FORMS]
    assert [run.params["form"] for run in runs] == ["primal", "primal", "dual"]
    for run in runs[1:]:
        assert_same(run, runs[0].mistake_trials, runs[0].margin_error_trials, runs[0].weights)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("aggressive", [False, True])
def test_first_update_is_y_x_over_its_squared_norm(form, aggressive):
    """The relation of issue 22: from w_1 = 0, w_2 = y_1 x_1 / ||x_1||^2 (paper, sec. 2.1)."""
    X = np.array([[3.0, -4.0, 0.5], [-6.0, 8.0, -1.0]])  # x_2 = -2 x_1: y_2 w_2.x_2 = 2
    for label in (1.0, -1.0):
        run = run_form(form, X, np.array([label, -label]), aggressive=aggressive)
        assert run.mistake_trials.tolist() == [0] and run.margin_errors == 0
        np.testing.assert_allclose(run.weights, label * X[0] / (X[0] @ X[0]), rtol=1e-15)
        np.testing.assert_allclose(run.state["norm"], 1 / np.linalg.norm(X[0]), rtol=1e-15)


@pytest.mark.parametrize("aggressive", [False, True])
def test_each_update_meets_both_constraints_at_minimum_norm(aggressive):
    """Lemma 1: y_t w_{t+1}.x_t = 1; w_{t+1}.w_t >= ||w_t||^2 (Lemma 2: = on a mistake)."""
    X, y = noisy_separable(n_samples=120, n_features=4, noise=0.0, seed=3)
    run = run_online("romma", X, y, aggressive=aggressive, epochs=2)
    snapshots = list(run.snapshots(X, y))
    for before, after in zip(snapshots, snapshots[1:], strict=False):
        i = run.sample_index[after.trial]
        w0, w1 = before.weights, after.weights
        np.testing.assert_allclose(y[i] * (w1 @ X[i]), 1.0, rtol=1e-10)
        assert w1 @ w0 >= (w0 @ w0) * (1 - 1e-10)
        if y[i] * (w0 @ X[i]) <= 0 and w0 @ w0 > 0:
            np.testing.assert_allclose(w1 @ w0, w0 @ w0, rtol=1e-10)


def test_aggressive_updates_more_and_keeps_the_mistake_definition():
    X, y = noisy_separable(n_samples=300, n_features=5, noise=0.0, seed=5)
    plain = run_online("romma", X, y, epochs=3)
    aggressive = run_online("romma", X, y, epochs=3, aggressive=True, record_margins=True)
    assert plain.margin_errors == 0 and aggressive.margin_errors > 0
    m = y[aggressive.sample_index] * aggressive.margins
    np.testing.assert_array_equal(aggressive.mistake_trials, np.flatnonzero(m <= 0))
    np.testing.assert_array_equal(aggressive.margin_error_trials,
                                  np.flatnonzero((m > 0) & (m < 1)))
    # on separable data the aggressive run's final w has margin >= 1 on more rows
    assert np.sum(y * (X @ aggressive.weights) >= 1 - 1e-9) > np.sum(y * (X @ plain.weights) >= 1)


def test_old_constraint_slack_gives_y_x_over_its_squared_norm():
    """Aggressive: y w.x >= ||x||^2 ||w||^2, the minimum norm point is y x / ||x||^2 (c = 0)."""
    X = np.array([[4.0, 0.0], [1.0, 1.0], [-4.0, -4.0]])
    y = np.array([1.0, 1.0, -1.0])
    # w_2 = (0.25, 0); y w_2.x_2 = 0.25 >= ||x_2||^2 ||w_2||^2 = 0.125; then y w_3.x_3 = 4
    mistakes, margin_errors, w, _ = romma(X, y, np.arange(3), aggressive=True)
    for form in FORMS:
        run = run_form(form, X, y, aggressive=True)
        assert run.margin_error_trials.tolist() == [1]
        assert_same(run, mistakes, margin_errors, w)
        np.testing.assert_allclose(run.weights, X[1] / 2, rtol=1e-15)
        if form == "dual":
            np.testing.assert_array_equal(run.dual_coef, [0.0, 0.5])


@pytest.mark.parametrize("form", FORMS)
def test_zero_instance_is_a_mistake_that_keeps_w(form):
    X = np.array([[1.0, 2.0], [0.0, 0.0], [0.0, 0.0], [-1.0, 1.0]])
    y = np.array([1.0, -1.0, 1.0, -1.0])
    run = run_form(form, X, y, aggressive=True)
    mistakes, margin_errors, w, _ = romma(X, y, np.arange(4), aggressive=True)
    assert mistakes.tolist() == [0, 1, 2, 3]
    assert_same(run, mistakes, margin_errors, w)
    assert np.all(np.isfinite(run.weights))
    if form == "dual":
        assert run.support_vectors.shape[0] == 2  # the zero rows are never supports


@pytest.mark.parametrize("form", FORMS)
def test_parallel_instances(form):
    """x anti-parallel to w on a mistake: the constraint set is empty, w is kept; parallel with
    y w.x < 1 (aggressive): y x / ||x||^2; a duplicate after its own update: no change."""
    X = np.array([[1.0, 1.0], [-2.0, -2.0], [0.3, 0.3], [0.3, 0.3], [-1.0, -1.0]])
    y = np.array([1.0, 1.0, 1.0, 1.0, -1.0])
    run = run_form(form, X, y, aggressive=True)
    mistakes, margin_errors, w, _ = romma(X, y, np.arange(5), aggressive=True)
    assert mistakes.tolist() == [0, 1] and margin_errors[0] == 2
    assert_same(run, mistakes, margin_errors, w)
    np.testing.assert_allclose(run.weights, X[2] / (X[2] @ X[2]), rtol=1e-15)


def test_step_is_eq_5_and_its_norm():
    """romma_step's c, d are eq. (5) and ||c w + d x|| its incremental norm."""
    rng = np.random.default_rng(0)
    for _ in range(200):
        w, x = rng.standard_normal(6), rng.standard_normal(6)
        label = rng.choice([-1.0, 1.0])
        wx, xx, ww = w @ x, x @ x, w @ w
        changed, c, d, norm = romma_step(label * wx, label, xx, np.sqrt(ww))
        if label * wx >= xx * ww:
            continue
        den = xx * ww - wx**2
        assert changed
        np.testing.assert_allclose(c, (xx * ww - label * wx) / den, rtol=1e-12)
        np.testing.assert_allclose(d, ww * (label - wx) / den, rtol=1e-12)
        new = c * w + d * x
        np.testing.assert_allclose(norm**2, new @ new, rtol=1e-12)
        np.testing.assert_allclose(label * (new @ x), 1.0, rtol=1e-12)
        np.testing.assert_allclose(new @ w, ww, rtol=1e-12)


@pytest.mark.parametrize("aggressive", [False, True])
@pytest.mark.parametrize("power", [-150, 150])
def test_rows_scaled_1e150(power, aggressive):
    """ROMMA is scale-equivariant: X s gives the mistakes of X and w / s, also where ||w||^2
    and ||x||^2 ||w||^2 leave float64."""
    X, y = noisy_separable(n_samples=60, n_features=4, noise=0.0, seed=3)
    mistakes, margin_errors, w, _ = romma(X, y, presented_sequence(60, 3), aggressive)
    for form in FORMS:
        run = run_form(form, X * 10.0**power, y, aggressive=aggressive, epochs=3)
        assert_same(run, mistakes, margin_errors, w * 10.0**-power)


@pytest.mark.parametrize("aggressive", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_rows_of_mixed_scales_stay_finite(seed, aggressive):
    """Rows scaled 1e-150..1e150 in one run: ||w|| reaches 1e150, its square would overflow."""
    rng = np.random.default_rng(seed)
    X, y = noisy_separable(n_samples=40, n_features=4, noise=0.0, seed=seed)
    X = X * 10.0 ** rng.choice([-150, -75, 0, 75, 150], size=40)[:, None]
    mistakes, margin_errors, w, _ = romma(X, y, presented_sequence(40, 1), aggressive)
    for form in FORMS:
        run = run_form(form, X, y, aggressive=aggressive)
        assert np.all(np.isfinite(run.weights)) and np.isfinite(run.state["norm"])
        assert_same(run, mistakes, margin_errors, w, rtol=1e-9)


@pytest.mark.parametrize("kind", ["dense", "csr", "rbf"])
def test_warm_start_continues_the_sequence(kind):
    X, y = noisy_separable(n_samples=80, n_features=4, noise=0.0, seed=8)
    X_in = sp.csr_matrix(X) if kind == "csr" else X
    params = {"kernel": "rbf", **KERNELS["rbf"]} if kind == "rbf" else {}
    first = run_online("romma", X_in[:50], y[:50], aggressive=True, epochs=2, shuffle=True,
                       seed=1, **params)
    second = run_online("romma", X_in[50:], y[50:], epochs=2, shuffle=True, seed=2,
                        warm_start=first)
    assert second.params == first.params
    order = np.concatenate((first.sample_index, 50 + second.sample_index))
    offset = first.n_trials
    if kind == "rbf":
        mistakes, margin_errors, support, alpha, _ = kernel_romma(X, y, order, True, "rbf",
                                                                  **KERNELS["rbf"])
        np.testing.assert_array_equal(second.support_vectors, X[support])
        np.testing.assert_allclose(second.dual_coef, alpha, rtol=1e-10, atol=1e-12)
    else:
        mistakes, margin_errors, w, _ = romma(X, y, order, True)
        np.testing.assert_allclose(second.weights, w, rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(second.mistake_trials + offset, mistakes[mistakes >= offset])
    np.testing.assert_array_equal(second.margin_error_trials + offset,
                                  margin_errors[margin_errors >= offset])


@pytest.mark.parametrize("aggressive", [False, True])
@pytest.mark.parametrize("kind", ["dense", "csr", "mixed scales"])
def test_a_chain_of_warm_starts_is_one_run_bit_for_bit(kind, aggressive):
    """The warm start continues the loop's w = scale * v and ||w|| (``state``), not w
    multiplied out, which rounds each later update differently: pieces of 1 to 40 rows, two
    passes, give the one run's margins, state and weights to the bit."""
    X, y = noisy_separable(n_samples=120, n_features=5, noise=0.1, seed=4)
    if kind == "mixed scales":  # scales folded into v at 1e-100 and 1e100
        X = X * 10.0 ** np.random.default_rng(4).choice([-150, 0, 150], size=120)[:, None]
    X_in = sp.csr_matrix(X) if kind == "csr" else X
    whole = assert_warm_chain_is_one_run("romma", X_in, y, [1, 2, 40, 41, 90],
                                         form="primal", aggressive=aggressive)
    assert whole.state["scale"] != 1.0


@pytest.mark.parametrize("kind", ["dense", "csr", "poly"])
def test_one_vs_rest_is_the_binary_run_per_class(kind):
    X, y = noisy_separable(n_samples=90, n_features=4, noise=0.0, seed=9)
    labels = np.digitize(X[:, 0] + X[:, 1], [-0.5, 0.5])
    X_in = sp.csr_matrix(X) if kind == "csr" else X
    params = {"kernel": "poly", **KERNELS["poly"]} if kind == "poly" else {}
    run = run_online("romma", X_in, labels, aggressive=True, epochs=2, shuffle=True, seed=3,
                     multiclass="ovr", **params)
    assert len(run.class_runs) == 3
    for k, class_run in enumerate(run.class_runs):
        binary = run_online("romma", X_in, np.where(labels == k, 1, -1), aggressive=True,
                            epochs=2, shuffle=True, seed=3, **params)
        np.testing.assert_array_equal(class_run.mistake_trials, binary.mistake_trials)
        np.testing.assert_array_equal(class_run.margin_error_trials, binary.margin_error_trials)
        np.testing.assert_array_equal(class_run.decision_function(X), binary.decision_function(X))


def test_bad_input():
    X, y = noisy_separable(n_samples=10, n_features=3, seed=0)
    with pytest.raises(TypeError, match=r"aggressive must be True or False, got 'yes'"):
        run_online("romma", X, y, aggressive="yes")
    with pytest.raises(ValueError, match="form='primal' needs kernel='linear'"):
        run_online("romma", X, y, kernel="rbf", form="primal")
    first = run_online("romma", X, y)
    with pytest.raises(ValueError, match="aggressive=True differs from the warm start's"):
        run_online("romma", X, y, aggressive=True, warm_start=first)


def test_teaching_panel_marks_the_margin_errors():
    from perceptron_bounds.datasets import make_separable
    from perceptron_bounds.plots import plot_run_2d

    X, y, u = make_separable(30, 2, margin=0.1, seed=4)
    run = run_online("romma", X, y, aggressive=True, epochs=2)
    assert run.margin_errors > 0
    ax = plot_run_2d(run, X, y, u=u, gamma=0.1)
    marked = next(c for c in ax.collections if c.get_label() == "margin error so far")
    expected = np.unique(run.sample_index[run.margin_error_trials])
    np.testing.assert_allclose(np.sort(marked.get_offsets()[:, 0]), np.sort(X[expected, 0]))
    assert "ROMMA" in ax.get_title() or "ROMMA" in str(ax.get_legend_handles_labels())
