"""The Passive-Aggressive algorithms (theory §2.7; Crammer et al. 2006, Fig. 1, sec. 7)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import scipy.sparse as sp  # noqa: E402
from conftest import noisy_separable  # noqa: E402
from reference import native_passive_aggressive, passive_aggressive  # noqa: E402

from perceptron_bounds import run_online  # noqa: E402
from perceptron_bounds._validation import check_X  # noqa: E402

KERNELS = {"poly": {"degree": 2, "gamma": 0.5, "coef0": 1.0}, "rbf": {"gamma": 0.5}}
VARIANTS = ["pa", "pa1", "pa2"]


def assert_same_run(run, ref, atol=1e-10):
    """Mistakes and margin errors exactly, the per-update losses and steps to ``atol``."""
    np.testing.assert_array_equal(run.mistake_trials, ref["mistakes"])
    np.testing.assert_array_equal(run.margin_error_trials, ref["margin_errors"])
    np.testing.assert_allclose(run.state["loss"], ref["loss"], rtol=1e-10, atol=atol)
    np.testing.assert_allclose(run.state["tau"], ref["tau"], rtol=1e-10, atol=atol)


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("epochs", [1, 3])
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("sparse", [False, True])
def test_primal_matches_reference(sparse, variant, epochs, shuffle):
    X, y = noisy_separable(n_samples=150, n_features=4, noise=0.1, seed=1)
    X_in = sp.csr_matrix(X) if sparse else X
    run = run_online("passive_aggressive", X_in, y, variant=variant, C=0.3, epochs=epochs,
                     shuffle=shuffle, seed=4, record_margins=True)
    ref = passive_aggressive(X, y, run.sample_index, variant, 0.3)
    assert ref["margin_errors"].size > 0 and ref["mistakes"].size > 0
    assert_same_run(run, ref)
    np.testing.assert_allclose(run.weights, ref["weights"], rtol=0, atol=1e-10)
    np.testing.assert_allclose(run.margins, ref["margins"], rtol=0, atol=1e-10)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("kernel", ["poly", "rbf"])
def test_kernel_matches_reference(kernel, variant):
    X, y = noisy_separable(n_samples=50, n_features=3, noise=0.1, seed=2)
    run = run_online("passive_aggressive", X, y, variant=variant, C=0.5, epochs=2, shuffle=True,
                     seed=4, kernel=kernel, record_margins=True, **KERNELS[kernel])
    ref = passive_aggressive(X, y, run.sample_index, variant, 0.5, kernel, **KERNELS[kernel])
    assert_same_run(run, ref)
    np.testing.assert_array_equal(run.support_vectors, X[ref["support"]])
    np.testing.assert_allclose(run.dual_coef, ref["dual_coef"], rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(run.margins, ref["margins"], rtol=0, atol=1e-10)


@pytest.mark.parametrize("variant", VARIANTS)
def test_linear_kernel_dual_form_equals_primal(variant):
    X, y = noisy_separable(n_samples=120, n_features=5, noise=0.1, seed=7)
    primal = run_online("passive_aggressive", X, y, variant=variant, epochs=3, shuffle=True,
                        seed=1)
    dual = run_online("passive_aggressive", X, y, variant=variant, epochs=3, shuffle=True,
                      seed=1, form="dual")
    assert primal.params["form"] == "primal" and dual.params["form"] == "dual"
    np.testing.assert_array_equal(dual.mistake_trials, primal.mistake_trials)
    np.testing.assert_array_equal(dual.margin_error_trials, primal.margin_error_trials)
    np.testing.assert_allclose(dual.weights, primal.weights, rtol=0, atol=1e-10)


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_csr_equals_dense(kernel):
    X, y = noisy_separable(n_samples=100, n_features=6, noise=0.1, seed=3)
    X[np.abs(X) < 0.5] = 0.0
    params = dict(variant="pa2", C=2.0, epochs=2, shuffle=True, seed=5, kernel=kernel)
    dense = run_online("passive_aggressive", X, y, **params)
    csr = run_online("passive_aggressive", sp.csr_matrix(X), y, **params)
    np.testing.assert_array_equal(csr.mistake_trials, dense.mistake_trials)
    np.testing.assert_array_equal(csr.margin_error_trials, dense.margin_error_trials)
    np.testing.assert_allclose(csr.decision_function(X), dense.decision_function(X), rtol=0,
                               atol=1e-10)


@pytest.mark.parametrize("kind", ["dense", "csr", "rbf"])
def test_warm_start_continues_the_sequence(kind):
    X, y = noisy_separable(n_samples=80, n_features=4, noise=0.1, seed=8)
    X_in = sp.csr_matrix(X) if kind == "csr" else X
    params = {"kernel": "rbf", **KERNELS["rbf"]} if kind == "rbf" else {}
    first = run_online("passive_aggressive", X_in[:50], y[:50], variant="pa2", epochs=2,
                       shuffle=True, seed=1, **params)
    second = run_online("passive_aggressive", X_in[50:], y[50:], epochs=2, shuffle=True, seed=2,
                        warm_start=first)
    assert second.params == first.params
    order = np.concatenate((first.sample_index, 50 + second.sample_index))
    ref = passive_aggressive(X, y, order, "pa2", 1.0, "rbf" if kind == "rbf" else None,
                             **params.get("kernel") and KERNELS["rbf"] or {})
    offset = first.n_trials
    mistakes, margin_errors = ref["mistakes"], ref["margin_errors"]
    np.testing.assert_array_equal(second.mistake_trials + offset, mistakes[mistakes >= offset])
    np.testing.assert_array_equal(second.margin_error_trials + offset,
                                  margin_errors[margin_errors >= offset])
    if kind == "rbf":
        np.testing.assert_allclose(second.dual_coef, ref["dual_coef"], rtol=1e-10, atol=1e-10)
    else:
        np.testing.assert_allclose(second.weights, ref["weights"], rtol=0, atol=1e-10)


@pytest.mark.parametrize("kind", ["dense", "csr", "rbf"])
def test_pa1_with_a_large_C_is_pa(kind):
    # PA-I's tau = min(C, l/||x||^2) is PA's l/||x||^2 once C exceeds every l/||x||^2 of PA's run
    X, y = noisy_separable(n_samples=120, n_features=4, noise=0.15, seed=9)
    X_in = sp.csr_matrix(X) if kind == "csr" else X
    params = {"kernel": "rbf", **KERNELS["rbf"]} if kind == "rbf" else {}
    pa = run_online("passive_aggressive", X_in, y, variant="pa", epochs=3, shuffle=True, seed=3,
                    **params)
    C = 1.0001 * pa.state["tau"].max()
    pa1 = run_online("passive_aggressive", X_in, y, variant="pa1", C=C, epochs=3, shuffle=True,
                     seed=3, **params)
    np.testing.assert_array_equal(pa1.mistake_trials, pa.mistake_trials)
    np.testing.assert_array_equal(pa1.margin_error_trials, pa.margin_error_trials)
    np.testing.assert_array_equal(pa1.state["tau"], pa.state["tau"])
    np.testing.assert_array_equal(pa1.decision_function(X), pa.decision_function(X))
    # and below that C the steps are clipped: another run
    clipped = run_online("passive_aggressive", X_in, y, variant="pa1", C=0.5 * C, epochs=3,
                         shuffle=True, seed=3, **params)
    assert clipped.state["tau"].max() <= 0.5 * C < pa.state["tau"].max()


def test_pa2_tends_to_pa_as_C_grows():
    X, y = noisy_separable(n_samples=60, n_features=4, noise=0.1, seed=10)
    pa = run_online("passive_aggressive", X, y, variant="pa", epochs=2)
    gaps = []
    for C in (1e2, 1e4, 1e6, 1e8):
        pa2 = run_online("passive_aggressive", X, y, variant="pa2", C=C, epochs=2)
        np.testing.assert_array_equal(pa2.mistake_trials, pa.mistake_trials)
        np.testing.assert_array_equal(pa2.margin_error_trials, pa.margin_error_trials)
        gaps.append(np.abs(pa2.weights - pa.weights).max())
    assert all(b < a for a, b in zip(gaps, gaps[1:], strict=False)), gaps
    assert gaps[-1] < 1e-5 * np.abs(pa.weights).max()


@pytest.mark.parametrize("form", ["dense", "csr", "dual"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_zero_instance_is_a_mistake_that_changes_nothing(variant, form):
    X = np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.5, 1.0]])
    y = np.array([1.0, -1.0, 1.0, -1.0])
    X_in = sp.csr_matrix(X) if form == "csr" else X
    run = run_online("passive_aggressive", X_in, y, variant=variant, C=0.7,
                     form="dual" if form == "dual" else "primal", record_margins=True)
    ref = passive_aggressive(X, y, np.arange(4), variant, 0.7)
    assert run.mistake_trials.tolist() == [0, 1, 2, 3]
    assert run.state["tau"][1:3].tolist() == [0.0, 0.0]
    assert_same_run(run, ref)
    np.testing.assert_allclose(run.decision_function(X), X @ ref["weights"], rtol=0, atol=1e-12)
    if form == "dual":
        np.testing.assert_array_equal(run.support_vectors, X[[0, 3]])


def pa_loop(X, y, classes=(-1.0, 1.0), **params):
    """The Passive-Aggressive loop through the registry's ``fit``, past run_online's checks:
    its mistakes, margin errors, weights and state."""
    from perceptron_bounds._validation import Data, check_labels
    from perceptron_bounds.algorithms import get

    spec = get("passive_aggressive")
    y_pm, classes = check_labels(y, X.shape[0], classes)
    data = Data(check_X(X), y_pm, classes)
    params = spec.resolve({**spec.defaults, **params}, data)
    result = spec.fit(data, np.arange(X.shape[0], dtype=np.int64), params, np.empty(0), None)
    return (result.mistake_trials.size, result.margin_error_trials.size,
            result.hypothesis.weights, result.state)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("variant", VARIANTS)
def test_extreme_scales_keep_the_state_finite(variant, sparse):
    # rows of norm 1e-170: ||x||^2 underflows to 0; the step is taken as (tau ||x||)(x/||x||),
    # so that PA's update still gives y w.x = 1 (tau itself, 1e340, is recorded as inf).
    # run_online refuses such rows since issue 31 (at the default C they learn nothing); the
    # loop itself, reached through the registry's fit, keeps its state finite on them.
    X = np.array([[1e-170, 0.0], [0.0, 1.0], [3e-170, 4e-170], [1.0, 1.0]])
    y = np.array([1.0, -1.0, -1.0, 1.0])
    X_in = sp.csr_matrix(X) if sparse else X
    with pytest.raises(ValueError, match="X row 0 has norm 1e-170"):
        run_online("passive_aggressive", X_in, y, variant=variant, C=1e300)
    mistakes, margin_errors, weights, state = pa_loop(X_in, y, variant=variant, C=1e300)
    assert np.all(np.isfinite(weights)) and not np.any(np.isnan(state["tau"]))
    assert mistakes == 4 and margin_errors == 0
    if variant == "pa":
        # with rows of norm 1e150 beside them PA's exact scores leave float64: a one-line error
        X[1, 1], X[3] = 1e150, 1e150
        with pytest.raises(ValueError, match="the score of trial 3 overflows float64") as info:
            pa_loop(sp.csr_matrix(X) if sparse else X, y, variant="pa")
        assert "\n" not in str(info.value)
        weights = pa_loop(X[:1], y[:1], variant="pa")[2]
        assert weights[0] == pytest.approx(1e170, rel=1e-12)
        assert float(X[0] @ weights) == pytest.approx(1.0, rel=1e-12)


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("sparse", [False, True])
def test_native_primal_matches_reference(sparse, variant, shuffle):
    rng = np.random.default_rng(11)
    X = rng.standard_normal((90, 4))
    y = np.argmax(X @ rng.standard_normal((4, 4)).T + 0.3 * rng.standard_normal((90, 4)), axis=1)
    run = run_online("passive_aggressive", sp.csr_matrix(X) if sparse else X, y,
                     variant=variant, C=0.4, multiclass="native", epochs=2, shuffle=shuffle,
                     seed=2, record_margins=True)
    ref = native_passive_aggressive(X, y, run.sample_index, variant, 0.4)
    assert ref["margin_errors"].size > 0
    assert_same_run(run, ref)
    np.testing.assert_array_equal(run.state["true_class"], ref["true_class"])
    np.testing.assert_array_equal(run.state["runner_up"], ref["runner_up"])
    np.testing.assert_allclose(run.weights, ref["weights"], rtol=0, atol=1e-10)
    np.testing.assert_allclose(run.margins, ref["margins"], rtol=0, atol=1e-10)


@pytest.mark.parametrize("variant", VARIANTS)
def test_native_dual_linear_equals_primal_and_rbf_runs(variant):
    rng = np.random.default_rng(12)
    X = rng.standard_normal((60, 3))
    y = rng.integers(0, 3, 60)
    kw = dict(variant=variant, multiclass="native", epochs=2, shuffle=True, seed=1)
    primal = run_online("passive_aggressive", X, y, **kw)
    dual = run_online("passive_aggressive", X, y, form="dual", **kw)
    np.testing.assert_array_equal(dual.mistake_trials, primal.mistake_trials)
    np.testing.assert_array_equal(dual.margin_error_trials, primal.margin_error_trials)
    np.testing.assert_allclose(dual.decision_function(X), primal.decision_function(X), rtol=0,
                               atol=1e-10)
    csr = run_online("passive_aggressive", sp.csr_matrix(X), y, kernel="rbf", **kw)
    rbf = run_online("passive_aggressive", X, y, kernel="rbf", **kw)
    np.testing.assert_array_equal(csr.mistake_trials, rbf.mistake_trials)
    np.testing.assert_allclose(csr.decision_function(X), rbf.decision_function(X), rtol=0,
                               atol=1e-10)


def test_native_with_two_classes_is_the_binary_run_on_virtual_instances():
    # K = 2: w^1 = -w^0, the score gap is 2 w^1.x and the virtual norm 2 ||x||^2, so the native
    # run is the binary one on sqrt(2) x (same trials, w^1 = w / sqrt(2))
    X, y = noisy_separable(n_samples=80, n_features=3, noise=0.1, seed=13)
    native = run_online("passive_aggressive", X, (y > 0).astype(int), variant="pa1", C=0.3,
                        multiclass="native", epochs=2)
    binary = run_online("passive_aggressive", np.sqrt(2.0) * X, y, variant="pa1", C=0.3,
                        epochs=2)
    np.testing.assert_array_equal(native.mistake_trials, binary.mistake_trials)
    np.testing.assert_array_equal(native.margin_error_trials, binary.margin_error_trials)
    np.testing.assert_allclose(native.weights[1], binary.weights / np.sqrt(2.0), rtol=0,
                               atol=1e-10)


def test_native_warm_start_is_one_run_over_the_concatenation():
    rng = np.random.default_rng(14)
    X = rng.standard_normal((70, 3))
    y = rng.integers(0, 3, 70)
    first = run_online("passive_aggressive", X[:40], y[:40], variant="pa2", multiclass="native")
    second = run_online("passive_aggressive", X[40:], y[40:], warm_start=first)
    ref = native_passive_aggressive(X, y, np.arange(70), "pa2", 1.0)
    mistakes = ref["mistakes"]
    np.testing.assert_array_equal(second.mistake_trials + 40, mistakes[mistakes >= 40])
    np.testing.assert_allclose(second.weights, ref["weights"], rtol=0, atol=1e-10)


def test_ovr_runs_each_class_against_the_rest():
    rng = np.random.default_rng(15)
    X = rng.standard_normal((60, 3))
    y = rng.integers(0, 3, 60)
    ovr = run_online("passive_aggressive", X, y, variant="pa", multiclass="ovr", epochs=2)
    for k, class_run in enumerate(ovr.class_runs):
        ref = passive_aggressive(X, np.where(y == k, 1.0, -1.0), ovr.sample_index, "pa")
        assert_same_run(class_run, ref)


@pytest.mark.parametrize(("params", "error", "match"), [
    ({"C": 0.0}, ValueError, r"C must be in \(0, inf\), got 0.0"),
    ({"C": -1.0}, ValueError, r"C must be in \(0, inf\), got -1.0"),
    ({"C": float("nan")}, ValueError, "C must be in"),
    ({"C": "1"}, TypeError, "C must be a real number"),
    ({"variant": "pa3"}, ValueError, r"variant must be one of 'pa', 'pa1', 'pa2', got 'pa3'"),
    ({"variant": "PA-I"}, ValueError, "variant must be one of"),
    ({"kernel": "rbf", "form": "primal"}, ValueError, "form='primal' needs kernel='linear'"),
])
def test_bad_input_is_one_line_before_any_trial(params, error, match):
    X, y = noisy_separable(n_samples=10, n_features=2)
    with pytest.raises(error, match=match) as info:
        run_online("passive_aggressive", X, y, **params)
    assert "\n" not in str(info.value)


def test_teaching_panel_marks_margin_errors(tmp_path):
    from perceptron_bounds.plots import animate_run, plot_run_2d, save_animation

    X, y = noisy_separable(n_samples=40, n_features=2, noise=0.0, seed=16)
    run = run_online("passive_aggressive", X, y, variant="pa1", epochs=2)
    assert run.margin_errors > 0
    ax = plot_run_2d(run, X, y)
    labels = [text.get_text() for text in ax.get_legend().get_texts()]
    assert "margin error so far" in labels, labels
    marked = [c for c in ax.collections if c.get_label() == "margin error so far"]
    rows = np.unique(run.sample_index[run.margin_error_trials])
    assert len(marked) == 1 and marked[0].get_offsets().shape[0] == rows.shape[0]
    save_animation(animate_run(run, X, y, interval=50), tmp_path / "run.html")
    matplotlib.pyplot.close("all")
