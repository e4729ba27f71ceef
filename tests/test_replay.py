"""The state after every update: OnlineRun.hypothesis_at, snapshots, Snapshot; datasets.add_bias.

A snapshot after k updates must be exactly the final hypothesis of ``run_online``
on the presented sequence before the next update (for every algorithm but the voted
Perceptron, also up to the k-th update trial), the last one the run's own, and its
matrix the Second-Order A_k or Higher-Order B_k^T B_k computed here independently.
"""


import numpy as np
import pytest
import reference
import scipy.sparse as sp
from conftest import noisy_separable

from perceptron_bounds import OnlineRun, replay, run_online
from perceptron_bounds.algorithms import available, get, voted
from perceptron_bounds.datasets import add_bias
from perceptron_bounds.run import Snapshot

X, Y = noisy_separable(n_samples=30, n_features=4, noise=0.1, seed=21)
XS = sp.csr_matrix(X)
# Unit rows: R = max ||x|| = 1 on every prefix too, so the adaptive a_k = c R^2 k of a
# run on a prefix is that of the whole run.
XU = X / np.linalg.norm(X, axis=1, keepdims=True)
X_NEW = np.random.default_rng(3).standard_normal((20, 4))

# Every algorithm with its defaults, and every form and variant whose hypothesis or
# matrix differs (as in test_persistence), CSR input where the loops take it.
CASES = {
    **{name: (name, {}, X) for name in available()},
    "perceptron-rbf": ("perceptron", {"kernel": "rbf"}, X),
    "perceptron-linear-dual": ("perceptron", {"form": "dual"}, X),
    "perceptron-csr": ("perceptron", {}, XS),
    "voted-poly": ("voted_perceptron", {"kernel": "poly", "degree": 2}, X),
    "voted-csr": ("voted_perceptron", {}, XS),
    "ballseptron-r": ("ballseptron", {"r": 0.5}, X),
    "ballseptron-rbf": ("ballseptron", {"kernel": "rbf", "r": 0.2}, X),
    "ballseptron-csr": ("ballseptron", {"r": 0.5}, XS),
    **{f"so-{variant}-{form}": ("second_order", {"variant": variant, "form": form},
                                XU if variant == "adaptive" else X)
       for variant in ("inverse", "adaptive", "pinv") for form in ("primal", "dual")},
    "so-pinv-rbf": ("second_order", {"variant": "pinv", "kernel": "rbf"}, X),
    "so-adaptive-poly": ("second_order", {"variant": "adaptive", "kernel": "poly"}, XU),
    "so-inverse-csr": ("second_order", {"form": "primal"}, XS),
    "so-pinv-csr": ("second_order", {"variant": "pinv"}, XS),
    **{f"ho-{form}": ("higher_order", {"form": form}, X)
       for form in ("primal", "dual", "implicit")},
    "ho-sparse": ("higher_order", {"sparse": True}, X),
    "ho-sparse-csr": ("higher_order", {"sparse": True}, XS),
    "ho-p3": ("higher_order", {"p": 3.0}, X),
    "ho-rho-schedule": ("higher_order", {"rho": np.linspace(0.05, 0.5, 80)}, X),
    "ho-rbf-raw": ("higher_order", {"kernel": "rbf", "normalize": False}, X),
    "pnorm-p4-raw": ("pnorm", {"p": 4.0, "normalize": False}, X),
}


def make_run(case):
    algorithm, params, data = CASES[case]
    return run_online(algorithm, data, Y, epochs=2, shuffle=True, seed=4, **params), data


def prefix_run(run, data, stop):
    """run_online on the trials before ``stop`` of the run's sequence, with its resolved params."""
    rows = run.sample_index[:stop]
    # the run's seed: a randomized algorithm's first draws are the prefix's (theory §1.2)
    return run_online(run.algorithm, data[rows], Y[rows], classes=run.classes, seed=run.seed,
                      **run.params)


def score_options(h):
    if isinstance(h, voted.VotedHypothesis):
        return [{"method": m, "normalize": n, "seed": 7}
                for m in voted.VOTE_METHODS for n in (False, True)]
    return [{}]


# The p-norm link g (algorithms.pnorm.link_into) can round its sum differently, by an ulp,
# with the relative addresses of its input and output arrays (a vectorised or a scalar
# path): two runs with p != 2 then agree to rounding, not bit for bit.
ROUNDING = {"pnorm-p4-raw", "ho-p3"}


def same(actual, desired, case):
    if case in ROUNDING:
        np.testing.assert_allclose(actual, desired, rtol=1e-13, atol=1e-13)
    else:
        np.testing.assert_array_equal(actual, desired, strict=True)


def same_hypothesis(a, b, data, case):
    """The same hypothesis class, scores (every voting method) and weights."""
    assert type(a.hypothesis) is type(b.hypothesis)
    for points in (data, X_NEW):
        for options in score_options(a.hypothesis):
            same(a.decision_function(points, **options), b.decision_function(points, **options),
                 case)
    if b.weights is None:
        assert a.weights is None
    else:
        same(a.weights, b.weights, case)


@pytest.mark.parametrize("case", CASES)
def test_every_snapshot_is_the_run_on_the_prefix(case):
    run, data = make_run(case)
    assert run.n_updates == run.update_trials.shape[0] >= 3
    snapshots = list(run.snapshots(data, Y))
    assert [s.k for s in snapshots] == list(range(run.n_updates + 1))
    assert [s.trial for s in snapshots] == [-1, *run.update_trials.tolist()]
    stops = [*run.update_trials[1:].tolist(), run.n_trials]  # the trial of the next update
    for snapshot, stop in zip(snapshots[1:], stops, strict=True):
        before_next = prefix_run(run, data, stop)
        at_update = prefix_run(run, data, snapshot.trial + 1)
        for prefix in (before_next, at_update):
            np.testing.assert_array_equal(prefix.update_trials, run.update_trials[: snapshot.k])
        same_hypothesis(snapshot, before_next, data, case)
        if run.algorithm == "voted_perceptron":  # its counts grow between updates, its vectors not
            same(snapshot.weights, at_update.weights, case)
            same(snapshot.decision_function(X_NEW, method="last"),
                 at_update.decision_function(X_NEW, method="last"), case)
        else:
            same_hypothesis(snapshot, at_update, data, case)
    same(run.hypothesis_at(2, data, Y).decision_function(data),
         snapshots[2].decision_function(data), case)


@pytest.mark.parametrize("case", CASES)
def test_the_last_snapshot_is_the_run_and_the_first_scores_zero(case):
    run, data = make_run(case)
    last = run.hypothesis_at(run.n_updates, data, Y)
    assert (last.k, last.trial) == (run.n_updates, run.update_trials[-1])
    same_hypothesis(last, run, data, case)
    np.testing.assert_array_equal(last.predict(X_NEW), run.predict(X_NEW), strict=True)
    first = run.hypothesis_at(0, data, Y)
    assert (first.k, first.trial) == (0, -1)
    for points in (data, X_NEW):
        for options in score_options(first.hypothesis):
            assert not first.decision_function(points, **options).any()
    if first.weights is not None:
        assert not first.weights.any()


@pytest.mark.parametrize("case", CASES)
def test_matrix_and_radius_by_algorithm(case):
    run, data = make_run(case)
    snapshot = run.hypothesis_at(run.n_updates // 2, data, Y)
    keeps_matrix = get(run.algorithm).matrix is not None  # the second-order algorithms
    if keeps_matrix and run.params["form"] != "dual":
        assert snapshot.matrix.shape == (4, 4)
        assert not snapshot.matrix.flags.writeable
        np.testing.assert_allclose(snapshot.matrix, snapshot.matrix.T, rtol=0, atol=1e-12)
    else:
        assert snapshot.matrix is None
    if get(run.algorithm).ball is not None:
        assert snapshot.r == run.params[get(run.algorithm).ball]
    else:
        assert snapshot.r is None


@pytest.mark.parametrize("variant", ["inverse", "adaptive", "pinv"])
def test_second_order_matrix_is_a_I_plus_the_mistakes_outer_products(variant):
    run = run_online("second_order", X, Y, epochs=2, shuffle=True, seed=4, variant=variant,
                     a=0.7, c=0.3, form="primal")
    R2 = np.max(np.sum(X**2, axis=1))
    rows = X[run.mistake_rows]
    for snapshot in run.snapshots(X, Y):
        k = snapshot.k
        a = {"inverse": 0.7, "adaptive": 0.3 * R2 * (k + 1), "pinv": 0.0}[variant]
        expected = a * np.eye(4)
        for x in rows[:k]:
            expected += np.outer(x, x)
        np.testing.assert_allclose(snapshot.matrix, expected, rtol=1e-12, atol=1e-12)
    if variant == "inverse":  # the algorithm's own inverse (Sherman-Morrison, theory §2.4)
        np.testing.assert_allclose(snapshot.matrix @ run.hypothesis.a_inv, np.eye(4), atol=1e-10)


@pytest.mark.parametrize(("form", "p", "sparse"), [("primal", 2.0, False), ("implicit", 2.0, False),
                                                   ("implicit", 3.0, False),
                                                   ("primal", 2.0, True)])
def test_higher_order_matrix_is_B_transpose_B_of_the_explicit_product(form, p, sparse):
    run = run_online("higher_order", X, Y, epochs=2, shuffle=True, seed=4, form=form, p=p,
                     sparse=sparse, c=0.6)
    for snapshot in run.snapshots(X, Y, steps=[0, 1, 2, run.n_updates // 2, run.n_updates]):
        order = run.sample_index[: snapshot.trial + 1]
        ref = reference.higher_order(X, Y, order, c=0.6, p=p, sparse=sparse)
        np.testing.assert_array_equal(ref["mistakes"], run.mistake_trials[: snapshot.k])
        B = ref["B"]
        np.testing.assert_allclose(snapshot.matrix, B.T @ B, rtol=1e-10, atol=1e-10)


def test_kernel_runs_give_scores_but_no_weights_or_matrix():
    run = run_online("second_order", X, Y, kernel="rbf", epochs=2)
    snapshot = run.hypothesis_at(3, X, Y)
    assert snapshot.weights is None and snapshot.matrix is None
    assert snapshot.decision_function(X_NEW).shape == (20,)
    assert snapshot.support_vectors.shape[0] == 3


def test_predict_maps_back_to_the_original_labels():
    labels = np.where(Y > 0, "spam", "ham")
    run = run_online("ballseptron", X, labels, r=0.3, epochs=2)
    snapshot = run.hypothesis_at(4, X, labels)
    scores = snapshot.decision_function(X_NEW)
    np.testing.assert_array_equal(snapshot.predict(X_NEW), np.where(scores > 0, "spam", "ham"))
    assert snapshot.classes.tolist() == ["ham", "spam"]
    assert repr(snapshot) == f"Snapshot(k=4, trial={run.update_trials[3]})"
    assert isinstance(snapshot, Snapshot)


def test_margin_errors_count_as_updates():
    run = run_online("ballseptron", X, Y, r=0.5, epochs=2)
    assert run.margin_errors > 0
    assert run.n_updates == run.mistakes + run.margin_errors
    trials = [s.trial for s in run.snapshots(X, Y)][1:]
    assert set(run.margin_error_trials) <= set(trials)


def test_a_warm_started_run_cannot_be_replayed():
    first = run_online("perceptron", X[:15], Y[:15])
    second = run_online("perceptron", X[15:], Y[15:], warm_start=first)
    with pytest.raises(ValueError, match="warm start"):
        second.hypothesis_at(0, X[15:], Y[15:])
    with pytest.raises(ValueError, match="warm start"):
        second.snapshots(X[15:], Y[15:])


@pytest.mark.parametrize(
    ("k", "error", "message"),
    [(-1, ValueError, r"k must be in \[0, \d+\], got -1"), ("n+1", ValueError, "k must be in"),
     (1.0, TypeError, "k must be an integer"), (True, TypeError, "k must be an integer"),
     (None, TypeError, "k must be an integer")],
)
def test_k_out_of_range_is_an_error(k, error, message):
    run = run_online("perceptron", X, Y)
    with pytest.raises(error, match=message):
        run.hypothesis_at(run.n_updates + 1 if k == "n+1" else k, X, Y)


def test_steps_are_checked_when_snapshots_is_called():
    run = run_online("perceptron", X, Y)
    with pytest.raises(ValueError, match=r"steps\[i\] must be in"):
        run.snapshots(X, Y, steps=[0, run.n_updates + 1])
    assert [s.k for s in run.snapshots(X, Y, steps=[3, 1])] == [3, 1]


@pytest.mark.parametrize(
    ("data", "labels", "error", "message"),
    [
        (X[:, :3], Y, ValueError, "X has 3 features, but 4 were expected"),
        (X[:20], Y[:20], ValueError, "X has 20 rows, but the run was made on 30"),
        (np.vstack([X, X]), np.concatenate([Y, Y]), ValueError, "X has 60 rows"),
        (X, Y[:20], ValueError, "X and y have different lengths"),
        (X, np.where(Y > 0, 2.0, -1.0), ValueError, r"y has labels \[2.0\] not in classes"),
        (X[::-1], Y[::-1], ValueError, "not the data of this run: X and y differ"),
        (X + 0.5, Y, ValueError, "not the data of this run"),
        (np.where(np.isfinite(X), np.nan, 0.0), Y, ValueError, "X contains NaN"),
        ("X", Y, TypeError, "X must be an array-like"),
    ],
)
def test_wrong_data_is_a_one_line_error(data, labels, error, message):
    run = run_online("perceptron", X, Y, epochs=2)
    with pytest.raises(error, match=message) as raised:
        run.hypothesis_at(run.n_updates, data, labels)
    assert "\n" not in str(raised.value)


def test_a_dual_run_replays_on_sparse_X():
    run = run_online("perceptron", X, Y, kernel="rbf")
    snapshot = run.hypothesis_at(1, XS, Y)
    assert sp.issparse(snapshot.support_vectors)
    np.testing.assert_allclose(snapshot.decision_function(X),
                               run.hypothesis_at(1, X, Y).decision_function(X), rtol=1e-12)


def test_sparse_and_dense_X_replay_alike():
    run = run_online("perceptron", XS, Y, epochs=2)
    dense = run.hypothesis_at(run.n_updates, X, Y)
    np.testing.assert_allclose(dense.weights, run.weights, rtol=0, atol=1e-12)


def test_all_snapshots_of_a_2d_run_of_1000_trials_are_quick():
    rng = np.random.default_rng(0)
    X2 = rng.standard_normal((1000, 2))
    y2 = np.where(X2 @ [1.0, -0.5] + 0.1 > 0, 1.0, -1.0)
    flip = rng.random(1000) < 0.03
    y2[flip] = -y2[flip]
    for algorithm in ("perceptron", "second_order"):
        run = run_online(algorithm, X2, y2)
        assert 80 <= run.n_updates <= 150
        snapshots = list(run.snapshots(X2, y2))  # the speed: benchmarks/bench_replay.py
        assert len(snapshots) == run.n_updates + 1


def test_the_replay_is_its_own_module_behind_the_records_methods():
    """perceptron_bounds.replay gives what OnlineRun.hypothesis_at and snapshots give; the
    record keeps no replay machinery of its own."""
    run = run_online("second_order", X, Y, epochs=2)
    k = run.n_updates // 2
    by_method, by_function = run.hypothesis_at(k, X, Y), replay.hypothesis_at(run, k, X, Y)
    assert type(by_function) is Snapshot is replay.Snapshot
    assert (by_function.k, by_function.trial) == (by_method.k, by_method.trial)
    np.testing.assert_array_equal(by_function.matrix, by_method.matrix, strict=True)
    np.testing.assert_array_equal(by_function.decision_function(X_NEW),
                                  by_method.decision_function(X_NEW), strict=True)
    steps = [0, k, run.n_updates]
    for a, b in zip(run.snapshots(X, Y, steps), replay.snapshots(run, X, Y, steps), strict=True):
        np.testing.assert_array_equal(a.weights, b.weights, strict=True)
    assert not [name for name in vars(OnlineRun) if "replay" in name or "check_binary" in name]


# ---------------------------------------------------------------- add_bias


def test_add_bias_appends_a_constant_column():
    out = add_bias(X, 2.5)
    assert out.shape == (30, 5) and out.dtype == np.float64
    np.testing.assert_array_equal(out[:, :4], X)
    assert (out[:, 4] == 2.5).all()
    np.testing.assert_array_equal(add_bias([[1, 2]]), [[1.0, 2.0, 1.0]])


def test_add_bias_keeps_sparse_input_sparse():
    out = add_bias(XS, 3.0)
    assert sp.issparse(out) and out.format == "csr"
    np.testing.assert_array_equal(out.toarray(), add_bias(X, 3.0))


def test_a_bias_learns_an_offset_threshold():
    x = np.linspace(-2.0, 3.0, 40)[:, None]
    y = np.where(x[:, 0] > 1.0, 1, -1)
    without = run_online("perceptron", x, y, epochs=20)
    assert (without.predict(x) != y).any()  # a threshold through 0 cannot separate
    run = run_online("perceptron", add_bias(x), y, epochs=50)
    np.testing.assert_array_equal(run.predict(add_bias(x)), y)


@pytest.mark.parametrize(
    ("data", "value", "error", "message"),
    [
        (X, 0.0, ValueError, r"value must be in \(0, inf\), got 0.0"),
        (X, -1.0, ValueError, "value must be in"),
        (X, float("nan"), ValueError, "value must be in"),
        (X, "1", TypeError, "value must be a real number"),
        (X[0], 1.0, ValueError, "X must be 2-D"),
        (np.array([[1.0, np.inf]]), 1.0, ValueError, "X contains infinity"),
    ],
)
def test_add_bias_checks_its_input(data, value, error, message):
    with pytest.raises(error, match=message):
        add_bias(data, value)
