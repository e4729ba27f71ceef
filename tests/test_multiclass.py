"""Multiclass runs (issue 11, theory §2.6): one-vs-rest for every algorithm, the native form.

One-vs-rest must be exactly the K binary runs "class k against the rest" on
the same presented sequence (trials, margins, state and hypothesis bit for
bit), whether the algorithm has a one-pass ``fit_ovr`` hook or goes through
the generic loop over ``fit``; the multiclass record is read from their
(T, K) margins.
"""

import dataclasses

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_digits
from test_persistence import same_value

from perceptron_bounds import load_run, registry, run_online
from perceptron_bounds.algorithms import available, get
from perceptron_bounds.hypothesis import OneVsRestHypothesis
from perceptron_bounds.online import multiclass_mistakes


def blobs(n_samples=45, n_features=4, n_classes=3, seed=0, noise=0.1):
    """Gaussian rows labelled by the nearest of K random prototypes, some labels redrawn."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n_samples, n_features))
    y = np.argmax(X @ rng.standard_normal((n_classes, n_features)).T, axis=1)
    noisy = rng.random(n_samples) < noise
    y[noisy] = rng.integers(0, n_classes, noisy.sum())
    return X, y


X, Y = blobs()
LABELS = np.array(["ant", "bee", "cat"])[Y]
XS = sp.csr_matrix(np.where(np.abs(X) < 0.5, 0.0, X))
ALGORITHMS = available()
OPTIONS = {"epochs": 2, "shuffle": True, "seed": 3, "record_margins": True}

# Every algorithm in several forms; CSR rows where the form takes them.
CASES = {
    "perceptron": ("perceptron", {}, X),
    "perceptron-csr": ("perceptron", {}, XS),
    "perceptron-rbf": ("perceptron", {"kernel": "rbf"}, X),
    "voted": ("voted_perceptron", {}, X),
    "voted-csr": ("voted_perceptron", {}, XS),
    "voted-poly": ("voted_perceptron", {"kernel": "poly", "degree": 2}, X),
    "ballseptron": ("ballseptron", {"r": 0.3}, X),
    "ballseptron-csr": ("ballseptron", {"r": 0.3}, XS),
    "ballseptron-rbf": ("ballseptron", {"r": 0.1, "kernel": "rbf"}, X),
    "so-inverse": ("second_order", {"form": "primal"}, X),
    "so-adaptive-dual": ("second_order", {"variant": "adaptive", "form": "dual"}, X),
    "so-pinv-csr": ("second_order", {"variant": "pinv"}, XS),
    "so-pinv-rbf": ("second_order", {"variant": "pinv", "kernel": "rbf"}, X),
    "ho": ("higher_order", {}, X),
    "ho-implicit-p3": ("higher_order", {"p": 3.0}, X),
    "ho-dual-rbf": ("higher_order", {"kernel": "rbf"}, X),
    "ho-sparse-csr": ("higher_order", {"sparse": True}, XS),
    "pnorm": ("pnorm", {"p": 4.0}, X),
    "pnorm-csr": ("pnorm", {}, XS),
    "alma-p3": ("alma", {"p": 3.0, "alpha": 0.5}, X),
    "alma-csr": ("alma", {}, XS),
    "alma-rbf": ("alma", {"kernel": "rbf"}, X),
    "pa": ("passive_aggressive", {"variant": "pa"}, X),
    "pa1-csr": ("passive_aggressive", {"C": 0.3}, XS),
    "pa2-rbf": ("passive_aggressive", {"variant": "pa2", "kernel": "rbf"}, X),
    "romma-aggressive": ("romma", {"aggressive": True}, X),
    "romma-csr": ("romma", {}, XS),
    "romma-rbf": ("romma", {"kernel": "rbf"}, X),
    "arow": ("arow", {"r": 0.5}, X),
    "arow-diagonal-csr": ("arow", {"diagonal": True}, XS),
    "arow-rbf": ("arow", {"kernel": "rbf"}, X),
    "selective": ("selective_perceptron", {"b": 0.5}, X),
    "selective-csr": ("selective_perceptron", {"b": 0.5}, XS),
    "selective-rbf": ("selective_perceptron", {"kernel": "rbf"}, X),
    "selective-so": ("selective_second_order", {"b": 0.5}, X),
    "selective-so-csr-dual": ("selective_second_order", {"form": "dual"}, XS),
    "selective-so-rbf": ("selective_second_order", {"kernel": "rbf"}, X),
    "projectron-csr": ("projectron", {"eta": 0.2}, XS),
    "projectron-plus-rbf": ("projectron", {"eta": 0.1, "plus": True, "kernel": "rbf"}, X),
    "forgetron-rbf": ("forgetron", {"kernel": "rbf", "budget": 8}, X),
    "forgetron-csr": ("forgetron", {"kernel": "poly", "degree": 2, "budget": 8}, XS),
    "rbp-rbf": ("randomized_budget_perceptron", {"kernel": "rbf", "budget": 8}, X),
    "rbp-csr": ("randomized_budget_perceptron", {"budget": 8}, XS),
    "shifting-csr": ("shifting_perceptron", {"decay": 0.5}, XS),
    "shifting-rbf": ("shifting_perceptron", {"kernel": "rbf"}, X),
    "projected": ("projected_perceptron", {"radius": 2.0}, X),
    "projected-csr-poly": ("projected_perceptron", {"kernel": "poly", "degree": 2}, XS),
}


def binary_run(algorithm, data, labels, k, classes, **kwargs):
    """The binary run of problem k alone: classes[k] (+1) against the rest (-1)."""
    return run_online(algorithm, data, np.where(labels == classes[k], 1, -1), classes=[-1, 1],
                      **kwargs)


def test_the_cases_cover_every_algorithm():
    assert {algorithm for algorithm, _, _ in CASES.values()} == set(ALGORITHMS)


@pytest.mark.parametrize("case", CASES)
def test_ovr_is_the_k_binary_runs(case):
    algorithm, params, data = CASES[case]
    run = run_online(algorithm, data, LABELS, **OPTIONS, **params)
    assert run.multiclass == "ovr" and run.classes.tolist() == ["ant", "bee", "cat"]
    assert len(run.class_runs) == 3
    for k, class_run in enumerate(run.class_runs):
        same_value(class_run, binary_run(algorithm, data, LABELS, k, run.classes, **OPTIONS,
                                         **params), f"class_runs[{k}]")
        np.testing.assert_array_equal(run.margins[:, k], class_run.margins, strict=True)
    assert run.params == run.class_runs[0].params
    assert (run.seed, run.epochs, run.shuffle) == (3, 2, True)


@pytest.mark.parametrize("algorithm", [a for a in ALGORITHMS if get(a).fit_ovr is not None])
@pytest.mark.parametrize("form", [{}, {"kernel": "rbf"}], ids=["linear", "rbf"])
def test_fit_ovr_hooks_equal_the_generic_loop(algorithm, form, monkeypatch):
    hooked = run_online(algorithm, X, LABELS, **OPTIONS, **form)
    monkeypatch.setitem(registry._REGISTRY, algorithm,
                        dataclasses.replace(get(algorithm), fit_ovr=None))
    same_value(hooked, run_online(algorithm, X, LABELS, **OPTIONS, **form))


@pytest.mark.parametrize("case", ["perceptron", "so-pinv-csr", "ho-dual-rbf", "voted-poly"])
def test_multiclass_mistakes_are_read_from_the_class_scores(case):
    algorithm, params, data = CASES[case]
    run = run_online(algorithm, data, Y, **OPTIONS, **params)
    expected = []
    for t in range(run.n_trials):  # theory §2.6, in plain Python
        scores, y = run.margins[t], Y[run.sample_index[t]]
        if scores[y] <= max(s for r, s in enumerate(scores) if r != y):
            expected.append(t)
    np.testing.assert_array_equal(run.mistake_trials, expected, strict=True)
    assert run.mistake_trials.dtype == np.int64 and run.mistake_trials[0] == 0
    assert run.margin_error_trials.size == 0 and run.state == {}


def test_a_tie_is_a_mistake():
    scores = np.array([[0.0, 0.0, 0.0], [2.0, 2.0, 1.0], [1.0, 3.0, 3.0], [1.0, 3.0, 2.0],
                       [-1.0, -2.0, -3.0]])
    np.testing.assert_array_equal(multiclass_mistakes(scores, np.array([1, 0, 2, 1, 0])),
                                  [0, 1, 2])
    # The first trial of a fresh run scores 0 for every class: a mistake.
    run = run_online("perceptron", X[[1, 0]], [2, 0], classes=[0, 1, 2])
    assert run.mistake_trials.tolist() == [0, 1]


@pytest.mark.parametrize("case", ["perceptron", "voted", "ballseptron-rbf", "so-pinv-rbf"])
def test_scores_and_predictions(case):
    algorithm, params, data = CASES[case]
    run = run_online(algorithm, data, LABELS, **OPTIONS, **params)
    test = np.random.default_rng(5).standard_normal((12, X.shape[1]))
    scores = run.decision_function(test)
    assert scores.shape == (12, 3)
    for k, class_run in enumerate(run.class_runs):  # one Gram against the union of supports
        np.testing.assert_allclose(scores[:, k], class_run.decision_function(test), rtol=1e-12,
                                   atol=1e-12 * np.abs(scores).max())
    np.testing.assert_array_equal(run.predict(test), run.classes[np.argmax(scores, axis=1)])
    if "kernel" not in params:  # a zero row scores 0 for every class: the smallest index wins
        assert run.predict(np.zeros((1, X.shape[1]))).tolist() == ["ant"]


def test_voted_prediction_methods_pass_to_every_class():
    run = run_online("voted_perceptron", X, LABELS, epochs=2)
    for method in ("vote", "average", "last", "random"):
        for normalize in (False, True):
            options = {"method": method, "normalize": normalize, "seed": 4}
            scores = run.decision_function(X, **options)
            for k, class_run in enumerate(run.class_runs):
                np.testing.assert_allclose(scores[:, k], class_run.decision_function(X, **options),
                                           rtol=1e-12, atol=1e-12 * np.abs(scores).max())
            assert run.predict(X, **options).shape == (X.shape[0],)


def test_primal_weights_are_the_class_vectors():
    run = run_online("perceptron", X, LABELS, epochs=2)
    np.testing.assert_array_equal(run.weights, [r.weights for r in run.class_runs])
    assert run.support_vectors is None and run.dual_coef is None
    assert run_online("perceptron", X, LABELS, kernel="rbf").weights is None


@pytest.mark.parametrize("data", [X, XS], ids=["dense", "csr"])
def test_support_vectors_are_the_union_of_the_class_runs(data):
    kernel = {"kernel": "poly", "degree": 2} if data is X else {}
    algorithm = "perceptron" if data is X else "voted_perceptron"  # CSR support rows
    run = run_online(algorithm, data, Y, epochs=3, **kernel)
    union = run.support_vectors
    dense = union.toarray() if sp.issparse(union) else union
    rows = [tuple(row) for row in dense]
    assert len(set(rows)) == len(rows)  # each row once
    per_class = []
    for class_run in run.class_runs:
        sv = class_run.support_vectors
        per_class += [tuple(row) for row in (sv.toarray() if sp.issparse(sv) else sv)]
    assert rows == list(dict.fromkeys(per_class))  # in order of first appearance
    assert sp.issparse(union) == sp.issparse(data)
    # The rows are those presented on an update of any class (paper 001's SupVec).
    updated = np.unique(np.concatenate([r.sample_index[r.mistake_trials]
                                        for r in run.class_runs]))
    assert len(rows) == updated.shape[0]


def test_corrections():
    run = run_online("ballseptron", X, Y, r=0.2, epochs=2)
    assert run.corrections == sum(r.mistakes for r in run.class_runs) > run.mistakes
    assert sum(r.margin_errors for r in run.class_runs) > 0 == run.margin_errors
    native = run_online("ballseptron", X, Y, r=0.2, epochs=2, multiclass="native")
    assert native.corrections == native.mistakes and native.class_runs is None
    binary = run_online("perceptron", X, Y == 0)
    assert binary.corrections == binary.mistakes and binary.multiclass is None


@pytest.mark.parametrize("algorithm", ["perceptron", "ballseptron"])
@pytest.mark.parametrize("kernel", [{}, {"kernel": "rbf"}], ids=["linear", "rbf"])
def test_native_runs(algorithm, kernel):
    params = {"r": 0.2} if algorithm == "ballseptron" else {}
    run = run_online(algorithm, X, LABELS, multiclass="native", record_margins=True, epochs=2,
                     **kernel, **params)
    assert run.multiclass == "native" and run.class_runs is None
    assert run.margins.shape == (run.n_trials, 3)
    scores = run.decision_function(X)
    assert scores.shape == (X.shape[0], 3)
    np.testing.assert_array_equal(run.predict(X), run.classes[scores.argmax(axis=1)])
    mistakes = multiclass_mistakes(run.margins, Y[run.sample_index])
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    assert run_online(algorithm, X, LABELS, multiclass="native", epochs=2, **kernel,
                      **params).margins is None


def test_two_classes():
    y2 = np.where(Y == 0, "a", "b")
    binary = run_online("perceptron", X, y2)
    assert binary.multiclass is None and binary.class_runs is None
    ovr = run_online("perceptron", X, y2, multiclass="ovr")
    assert ovr.multiclass == "ovr" and len(ovr.class_runs) == 2
    same_value(ovr.class_runs[1], binary_run("perceptron", X, y2, 1, ovr.classes))
    native = run_online("perceptron", X, y2, multiclass="native")
    assert native.decision_function(X).shape == (X.shape[0], 2)


@pytest.mark.parametrize("case", ["perceptron", "voted-poly", "ballseptron-csr", "so-inverse",
                                  "ho-implicit-p3"])
def test_a_warm_start_continues_each_class_run(case):
    algorithm, params, data = CASES[case]
    first = run_online(algorithm, data[:20], LABELS[:20], **params)
    second = run_online(algorithm, data[20:], LABELS[20:], warm_start=first, record_margins=True)
    assert second.warm_started and second.multiclass == "ovr"
    for k, class_run in enumerate(second.class_runs):
        alone = run_online(algorithm, data[20:], np.where(LABELS[20:] == first.classes[k], 1, -1),
                           classes=[-1, 1], warm_start=first.class_runs[k], record_margins=True)
        same_value(class_run, alone, f"class_runs[{k}]")


@pytest.mark.parametrize("multiclass", ["ovr", "native"])
@pytest.mark.parametrize("algorithm", ["perceptron", "ballseptron"])
@pytest.mark.parametrize("kernel", [{}, {"kernel": "rbf", "gamma": 0.5}], ids=["linear", "rbf"])
def test_batches_equal_one_run_over_their_concatenation(multiclass, algorithm, kernel):
    params = {"r": 0.2} if algorithm == "ballseptron" else {}
    options = {"multiclass": multiclass, **kernel, **params}
    whole = run_online(algorithm, X, LABELS, **options)
    # The first batch shows two classes only: classes= names the third.
    only_two = LABELS != "cat"
    first_rows, rest = np.flatnonzero(only_two)[:10], None
    rest = np.setdiff1d(np.arange(X.shape[0]), first_rows)
    order = np.concatenate([first_rows, rest])
    whole = run_online(algorithm, X[order], LABELS[order], **options)
    first = run_online(algorithm, X[first_rows], LABELS[first_rows], classes=["ant", "bee", "cat"],
                       **options)
    second = run_online(algorithm, X[rest], LABELS[rest], warm_start=first)
    assert second.multiclass == multiclass
    np.testing.assert_array_equal(
        np.concatenate([first.mistake_trials, second.mistake_trials + first.n_trials]),
        whole.mistake_trials)
    # As in the binary case, the kernel Ballseptron's scale factor is folded into its
    # coefficients at the end of a batch: equal up to rounding, not bit for bit.
    np.testing.assert_allclose(second.decision_function(X), whole.decision_function(X),
                               rtol=1e-12, atol=1e-14)


def test_save_and_load_keep_the_class_runs(tmp_path):
    run = run_online("second_order", X, LABELS, variant="adaptive", epochs=2, record_margins=True)
    loaded = load_run(run.save(tmp_path / "ovr"))
    same_value(run, loaded)
    np.testing.assert_array_equal(loaded.predict(X), run.predict(X))
    assert loaded.corrections == run.corrections


def test_inputs_are_not_modified_and_runs_pickle():
    import pickle

    X_copy, labels = X.copy(), LABELS.copy()
    run = run_online("ballseptron", X_copy, labels, r=0.2, epochs=2, shuffle=True, seed=1)
    np.testing.assert_array_equal(X_copy, X)
    np.testing.assert_array_equal(labels, LABELS)
    clone = pickle.loads(pickle.dumps(run))
    for k in range(3):
        np.testing.assert_array_equal(clone.class_runs[k].mistake_trials,
                                      run.class_runs[k].mistake_trials)
    np.testing.assert_array_equal(clone.decision_function(X), run.decision_function(X))
    with pytest.raises(ValueError, match="read-only"):
        run.class_runs[0].mistake_trials[0] = 1
    assert isinstance(run.hypothesis, OneVsRestHypothesis)


def test_bad_input():
    with pytest.raises(ValueError,
                       match=r"^multiclass must be None, 'ovr' or 'native', got 'ovo'$"):
        run_online("perceptron", X, Y, multiclass="ovo")
    with pytest.raises(ValueError, match="got True"):
        run_online("perceptron", X, Y, multiclass=True)
    with pytest.raises(ValueError, match=(
            r"^multiclass='native' needs a native multiclass form, which 'second_order' lacks "
            r"\(only 'ballseptron', 'passive_aggressive', 'perceptron' have one\); "
            r"use multiclass='ovr'$")):
        run_online("second_order", X, Y, multiclass="native")
    with pytest.raises(ValueError, match=r"single class \(2\); at least two classes"):
        run_online("perceptron", X, np.full(X.shape[0], 2), multiclass="ovr")
    with pytest.raises(ValueError, match=r"classes must hold two distinct labels, got \[1\]"):
        run_online("perceptron", X, np.ones(X.shape[0]), classes=[1, 1], multiclass="ovr")
    with pytest.raises(ValueError, match=r"y has labels \[3\] not in classes \[0, 1, 2\]"):
        run_online("perceptron", X, np.where(Y == 2, 3, Y), classes=[0, 1, 2])


def test_bad_warm_starts():
    ovr = run_online("perceptron", X, Y)
    with pytest.raises(ValueError, match=r"classes \[0, 1, 2, 3\] differ from the warm start's"):
        run_online("perceptron", X, Y, classes=[0, 1, 2, 3], warm_start=ovr)
    with pytest.raises(ValueError, match=r"y has labels \[3\] not in classes \[0, 1, 2\]"):
        run_online("perceptron", X, np.where(Y == 2, 3, Y), warm_start=ovr)
    with pytest.raises(ValueError, match="multiclass='native' differs from the warm start's "
                                         "multiclass='ovr'"):
        run_online("perceptron", X, Y, multiclass="native", warm_start=ovr)
    binary = run_online("perceptron", X, Y == 0)
    with pytest.raises(ValueError, match="multiclass='ovr' differs from the warm start's "
                                         "multiclass=None"):
        run_online("perceptron", X, Y == 0, multiclass="ovr", warm_start=binary)
    with pytest.raises(ValueError, match=r"y has labels \[2\] not in classes \[0, 1\]"):
        run_online("perceptron", X, Y, warm_start=run_online("perceptron", X, Y.clip(0, 1)))


def test_replay_is_per_class_for_now():
    run = run_online("perceptron", X, Y)
    with pytest.raises(ValueError, match=r"^hypothesis_at is not available for multiclass runs "
                                         r"yet .*run\.class_runs\[k\]\.hypothesis_at"):
        run.hypothesis_at(1, X, Y)
    with pytest.raises(ValueError, match="snapshots is not available for multiclass runs yet"):
        run.snapshots(X, Y)
    with pytest.raises(ValueError, match=r"multiclass='native'\)$"):
        run_online("perceptron", X, Y, multiclass="native").hypothesis_at(0, X, Y)
    snapshot = run.class_runs[2].hypothesis_at(1, X, np.where(Y == 2, 1, -1))
    assert snapshot.k == 1


@pytest.mark.parametrize("multiclass", ["ovr", "native"])
def test_digits_end_to_end(multiclass):
    """sklearn's handwritten digits, 10 classes: a few epochs fit the training set well."""
    X_digits, y_digits = load_digits(return_X_y=True)
    X_digits = X_digits[:600] / 16.0
    y_digits = y_digits[:600]
    run = run_online("perceptron", X_digits, y_digits, epochs=3, multiclass=multiclass,
                     shuffle=True, seed=0)
    assert run.classes.tolist() == list(range(10))
    assert run.decision_function(X_digits).shape == (600, 10)
    assert np.mean(run.predict(X_digits) == y_digits) > 0.9
    assert run.mistakes < 0.2 * run.n_trials
    if multiclass == "ovr":
        same_value(run.class_runs[7], binary_run("perceptron", X_digits, y_digits, 7, run.classes,
                                                 epochs=3, shuffle=True, seed=0))
