"""One-pass one-vs-rest for the Perceptron family (theory §2.6, paper 001 sec. 5).

Every class of a ``fit_ovr`` hook must be, bit for bit, the binary ``fit`` on
"class k against the rest": same mistake and margin-error trials, margins,
weights or support vectors and coefficients, and state. The voted
Perceptron's multiclass scores are checked against paper 001 sec. 5 written
out in plain NumPy, and its SupVec and Mistake counts against plain Python.
"""

from functools import cache

import numpy as np
import pytest
import scipy.sparse as sp
from reference import presented_sequence, voted_perceptron
from sklearn.datasets import load_digits

from perceptron_bounds import run_online
from perceptron_bounds._validation import Data, check_X
from perceptron_bounds.algorithms import get
from perceptron_bounds.algorithms.ovr import (
    class_data,
    class_labels,
    fit_ovr_ballseptron,
    fit_ovr_perceptron,
    merged_supports,
)
from perceptron_bounds.algorithms.voted import mistake_count, supvec_count

ALGORITHMS = ("perceptron", "ballseptron", "voted_perceptron")
KINDS = {
    "dense": {},
    "csr": {},
    "poly": {"kernel": "poly", "degree": 3, "gamma": 0.4, "coef0": 1.0},
    "rbf": {"kernel": "rbf", "gamma": 0.5},
}
# The dual form with every kernel, for dense and CSR X alike.
DUAL_KINDS = {"linear": {"kernel": "linear", "form": "dual"}, "poly": KINDS["poly"],
              "rbf": KINDS["rbf"]}
METHODS = [("vote", False), ("average", False), ("average", True), ("last", False),
           ("last", True), ("random", False), ("random", True)]


def multiclass_data(n_samples, n_features, n_classes, seed, noise=0.1):
    """Unit-norm rows labelled by the argmax of K random directions; ``noise`` of them at random."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n_samples, n_features))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    y = np.argmax(X @ rng.standard_normal((n_classes, n_features)).T, axis=1)
    flip = rng.random(n_samples) < noise
    y[flip] = rng.integers(0, n_classes, flip.sum())
    return X, y.astype(np.int64)


def params_for(algorithm, kind, **extra):
    params = {**{**KINDS, **DUAL_KINDS}[kind], **extra}
    if algorithm == "ballseptron":
        params.setdefault("r", 0.3)
    return params


def resolved(algorithm, X, params):
    spec = get(algorithm)
    binary = Data(check_X(X), np.ones(X.shape[0]), np.array([-1, 1]))
    return spec.resolve({**spec.defaults, **params}, binary)


def state_arrays(result):
    """Everything a LoopResult holds, as named arrays and numbers."""
    h = result.hypothesis
    out = {"mistakes": result.mistake_trials, "margin_errors": result.margin_error_trials}
    for name in ("weights", "support_vectors", "dual_coef", "counts", "norms_sq", "labels"):
        value = getattr(h, name, None)
        if value is not None:
            out[name] = value.toarray() if sp.issparse(value) else value
    for name, value in result.state.items():
        out[f"state.{name}"] = value
    return out


def assert_same(result, expected):
    """Bit for bit: every array of ``result`` equals the binary fit's (assert_array_equal)."""
    assert type(result.hypothesis) is type(expected.hypothesis)
    got, want = state_arrays(result), state_arrays(expected)
    assert got.keys() == want.keys()
    for name in want:
        np.testing.assert_array_equal(got[name], want[name], err_msg=name)
        assert np.asarray(got[name]).dtype == np.asarray(want[name]).dtype, name


def check_against_binary(algorithm, X, y, order, params, previous=None, binary_previous=None):
    """Run the hook once; compare every class with the binary fit on the same order.

    Returns the hook's K results and its (T, K) margins.
    """
    spec = get(algorithm)
    n_classes = int(y.max()) + 1
    data = Data(check_X(X), y, np.arange(n_classes))
    p = resolved(algorithm, X, params)
    margins = np.empty((order.shape[0], n_classes))
    results = spec.fit_ovr(data, order, p, margins, previous)
    assert len(results) == n_classes
    for k in range(n_classes):
        binary_margins = np.empty(order.shape[0])
        before = None if binary_previous is None else binary_previous[k]
        expected = spec.fit(class_data(data, k), order, p, binary_margins, before)
        assert_same(results[k], expected)
        np.testing.assert_array_equal(margins[:, k], binary_margins, err_msg=f"margins {k}")
    return results, margins


CASES = [
    (algorithm, kind, epochs, n_classes)
    for algorithm in ALGORITHMS
    for kind in KINDS
    for epochs, n_classes in ((1, 3), (3, 10))
]


@pytest.mark.parametrize(("algorithm", "kind", "epochs", "n_classes"), CASES)
def test_each_class_is_the_binary_fit(algorithm, kind, epochs, n_classes):
    n = 120 if kind in ("dense", "csr") else 50
    X, y = multiclass_data(n, 7, n_classes, seed=n_classes)
    if kind == "csr":
        X[np.random.default_rng(1).random(X.shape) < 0.5] = 0.0
        X = sp.csr_matrix(X)
    order = presented_sequence(n, epochs, shuffle=True, seed=5)
    results, _ = check_against_binary(algorithm, X, y, order, params_for(algorithm, kind))
    assert all(r.mistake_trials.size > 0 for r in results)
    if algorithm == "ballseptron":
        assert sum(r.margin_error_trials.size for r in results) > 0


@pytest.mark.parametrize("n_classes", [3, 4, 5, 6, 7, 8, 9, 10])
@pytest.mark.parametrize("n_features", [1, 5, 16, 33])
def test_every_k_and_width(n_classes, n_features):
    """K = 3..10 and widths around the vector lengths of the dot products (dense primal)."""
    X, y = multiclass_data(80, n_features, n_classes, seed=n_features)
    order = presented_sequence(80, 2, shuffle=True, seed=n_classes)
    check_against_binary("perceptron", X, y, order, {})
    check_against_binary("ballseptron", X, y, order, {"r": 0.2})


def scale_foldings(X, y, order, r):
    """How often the binary Ballseptron's scale factor leaves [1e-100, 1e100] (plain Python).

    The product of the factors a = 1 - r/||w|| of its margin errors (theory §2.3),
    restarted at 1 when it leaves the range, as the CSR and kernel loops fold it.
    """
    w, scale, folds = np.zeros(X.shape[1]), 1.0, 0
    for i in order:
        s = w @ X[i]
        if y[i] * s <= 0:
            a = 1.0
        elif y[i] * s / np.linalg.norm(w) <= r:
            a = 1.0 - r / np.linalg.norm(w)
        else:
            continue
        scale *= a
        if not 1e-100 <= abs(scale) <= 1e100:
            folds, scale = folds + 1, 1.0
        w = a * w + y[i] * X[i]
    return folds


@pytest.mark.parametrize("kind", ["dense", "csr", "dual"])
@pytest.mark.parametrize(("n_features", "r"), [(1, 1.0), (2, 0.9), (3, 1.0)])
def test_ballseptron_scale_foldings(kind, n_features, r):
    """Radii near ||w|| make a = 1 - r/||w|| small (or 0): the scale factors fold per class."""
    rng = np.random.default_rng(n_features)
    X = rng.standard_normal((30, n_features))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    y = rng.integers(0, 3, 30)
    order = presented_sequence(30, 200)
    assert sum(scale_foldings(X, class_labels(y, k), order, r) for k in range(3)) > 0
    params = {"r": r, "form": "dual", "kernel": "linear"} if kind == "dual" else {"r": r}
    check_against_binary("ballseptron", sp.csr_matrix(X) if kind == "csr" else X, y, order,
                         params)


@cache
def digits():
    X, y = load_digits(return_X_y=True)
    return X / 16.0, y.astype(np.int64)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("kind", ["dense", "csr", "poly"])
def test_digits(algorithm, kind):
    X, y = digits()
    if kind == "poly":
        X, y = X[:400], y[:400]
    order = presented_sequence(X.shape[0], 2 if kind == "poly" else 1, shuffle=True, seed=0)
    check_against_binary(algorithm, sp.csr_matrix(X) if kind == "csr" else X, y, order,
                         params_for(algorithm, kind))


def sparse_rows(n_samples, n_features, n_classes, seed):
    """multiclass_data with about 60% of the entries set to 0."""
    X, y = multiclass_data(n_samples, n_features, n_classes, seed)
    X[np.random.default_rng(seed).random(X.shape) < 0.6] = 0.0
    return X, y


def assert_close(result, expected):
    """Trials exactly; supports exactly; coefficients and state to 1e-12 (see the test below)."""
    got, want = state_arrays(result), state_arrays(expected)
    assert got.keys() == want.keys()
    for name in want:
        if name in ("mistakes", "margin_errors", "support_vectors"):
            np.testing.assert_array_equal(got[name], want[name], err_msg=name)
        else:
            np.testing.assert_allclose(got[name], want[name], rtol=1e-12, atol=1e-12,
                                       err_msg=name)


@pytest.mark.parametrize("epochs", [1, 3])
@pytest.mark.parametrize("kernel", DUAL_KINDS)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_dual_on_csr_equals_dense(algorithm, kernel, epochs):
    """The dual form takes CSR X (issue 12): each class is the binary fit on the same CSR X,
    bit for bit, and the run is the dense run: the same trials and supports, values to 1e-12
    (a CSR dot product sums in another order than the BLAS's dense one). A warm start from
    the first 40 rows continues on the last 30, CSR like dense."""
    X, y = sparse_rows(70, 12, 4, seed=epochs)
    params = params_for(algorithm, kernel)
    order = presented_sequence(40, epochs, shuffle=True, seed=7)
    later = presented_sequence(30, epochs, shuffle=True, seed=8)
    runs = {}
    for name, given in (("csr", sp.csr_matrix(X)), ("dense", X)):
        results, margins = check_against_binary(algorithm, given[:40], y[:40], order, params)
        first = run_online(algorithm, given[:40], y[:40], multiclass="ovr", **params)
        again, _ = check_against_binary(algorithm, given[40:], y[40:], later, params,
                                        previous=first, binary_previous=first.class_runs)
        runs[name] = results, margins, again
        if name == "csr":
            assert all(sp.issparse(r.hypothesis.support_vectors) for r in results + again)
    for csr, dense in zip(runs["csr"][0] + runs["csr"][2], runs["dense"][0] + runs["dense"][2],
                          strict=True):
        assert_close(csr, dense)
    np.testing.assert_allclose(runs["csr"][1], runs["dense"][1], rtol=1e-12, atol=1e-12)
    assert all(r.mistake_trials.size > 0 for r in runs["csr"][0])


@pytest.mark.parametrize("sparse", [False, True])
def test_merged_supports_keep_each_order_and_share_rows(sparse):
    rows = np.arange(12.0).reshape(6, 2)
    rows[1, 0] = 0.0  # rows with zeros, which CSR leaves out

    class Run:
        def __init__(self, picks):
            self.support_vectors = sp.csr_matrix(rows[picks]) if sparse else rows[picks]
            self.dual_coef = np.arange(1.0, len(picks) + 1)

    picks = [[0, 1, 2, 4], [1, 2, 3], [], [0, 2, 4, 4]]
    S, positions = merged_supports([Run(p) for p in picks])
    assert sp.issparse(S) == sparse
    for pick, position in zip(picks, positions, strict=True):
        np.testing.assert_array_equal((S.toarray() if sparse else S)[position], rows[pick])
        assert np.all(np.diff(position) > 0)
    assert S.shape[0] == 6  # rows 0, 1, 2, 3, 4, 4: the longest common order, no more
    S, positions = merged_supports([Run([]), Run([])])
    assert S.shape == (0, 2) and all(p.size == 0 for p in positions)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("kind", ["dense", "csr", "rbf"])
def test_warm_start_continues_each_class(algorithm, kind):
    """A second batch continues each class run exactly as the binary fit continues it."""
    X, y = multiclass_data(90, 5, 4, seed=2)
    if kind == "csr":
        X = sp.csr_matrix(X)
    params = params_for(algorithm, kind)
    first = run_online(algorithm, X[:50], y[:50], multiclass="ovr", **params)
    order = presented_sequence(40, 2, shuffle=True, seed=3)
    check_against_binary(algorithm, X[50:], y[50:], order, params, previous=first,
                         binary_previous=first.class_runs)


def test_warm_start_merges_class_runs_of_separate_binary_runs():
    """Class runs of separate binary runs (support lists in other orders) continue exactly."""
    X, y = multiclass_data(60, 4, 3, seed=4)
    params = {"kernel": "rbf", "gamma": 0.7}
    runs = tuple(run_online("perceptron", X[:30], class_labels(y[:30], k), shuffle=True, seed=k,
                            **params) for k in range(3))

    class Previous:
        class_runs = runs

    order = presented_sequence(30, 2, shuffle=True, seed=9)
    check_against_binary("perceptron", X[30:], y[30:], order, params, previous=Previous,
                         binary_previous=runs)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("kind", ["dense", "poly"])
def test_through_run_online(algorithm, kind):
    """run_online(multiclass="ovr") uses the hook; each class run is the binary run_online."""
    hook = get(algorithm).fit_ovr
    assert hook is not None and hook.__module__.endswith(("ovr", "voted"))
    X, y = multiclass_data(70, 5, 4, seed=6)
    labels = np.array(["a", "b", "c", "d"])[y]
    params = params_for(algorithm, kind)
    run = run_online(algorithm, X, labels, epochs=2, shuffle=True, seed=1, record_margins=True,
                     multiclass="ovr", **params)
    for k, class_run in enumerate(run.class_runs):
        binary = run_online(algorithm, X, np.where(y == k, 1, -1), epochs=2, shuffle=True,
                            seed=1, record_margins=True, **params)
        np.testing.assert_array_equal(class_run.mistake_trials, binary.mistake_trials)
        np.testing.assert_array_equal(class_run.margins, binary.margins)
        np.testing.assert_array_equal(run.margins[:, k], binary.margins)
        for name in ("weights", "dual_coef", "support_vectors"):
            got, want = getattr(class_run, name), getattr(binary, name)
            assert (got is None) == (want is None)
            if want is not None:
                np.testing.assert_array_equal(got, want)


def test_hook_errors():
    X, y = multiclass_data(20, 3, 3, seed=0)
    data = Data(check_X(X), y, np.arange(3))
    order = presented_sequence(20, 1)
    with pytest.raises(ValueError, match=r"margins must have shape \(T, K\) = \(20, 3\)"):
        fit_ovr_perceptron(data, order, {"form": "primal"}, np.empty(0), None)

    class Previous:
        class_runs = (None, None)

    with pytest.raises(ValueError, match="2 class runs, the data 3 classes"):
        fit_ovr_ballseptron(data, order, {"form": "primal", "r": 0.1}, np.empty((20, 3)),
                            Previous)


# --- the voted Perceptron's multiclass prediction (paper 001 sec. 5) ---------------------------

def paper_scores(trained, Z, method, normalize, slices):
    """s_l for every class l (columns), as paper 001 sec. 5 writes them, from Fig. 1's vectors.

    For class l with vectors v^l_1..v^l_{k_l+1} and counts c^l_j:
    last: v^l_{k_l+1}.x; vote: sum_j c^l_j sign(v^l_j.x); average: sum_j c^l_j v^l_j.x;
    random: v^l_{r_l}.x, r_l the last vector that exists after r rounds, one r per point
    for all classes. Normalised: v^l_j / ||v^l_j|| in place of v^l_j (0 for v = 0).
    """
    out = np.zeros((Z.shape[0], len(trained)))
    for col, (mistakes, vectors, counts) in enumerate(trained):
        for p, z in enumerate(Z):
            dots = np.array([dot(z) for dot, _ in vectors])
            norms = np.array([norm for _, norm in vectors])
            if normalize:
                dots = np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)
            if method == "last":
                out[p, col] = dots[-1]
            elif method == "vote":
                out[p, col] = np.sum(counts * np.sign(dots))
            elif method == "average":
                out[p, col] = np.sum(counts * dots)
            else:  # the vector alive after r rounds: one more than the mistakes among them
                out[p, col] = dots[np.sum(mistakes < slices[p])]
    return out


@cache
def voted_case(kind):
    X, y = multiclass_data(60, 4, 4, seed=8)
    Z, _ = multiclass_data(25, 4, 4, seed=9)
    params = KINDS[kind]
    run = run_online("voted_perceptron", X, y, epochs=2, shuffle=True, seed=2,
                     multiclass="ovr", **params)
    name = params.get("kernel", "linear")
    kernel_params = {k: run.params[k] for k in ("degree", "gamma", "coef0")}
    trained = [voted_perceptron(X, class_labels(y, k), run.sample_index, name,
                                **({} if name == "linear" else kernel_params))
               for k in range(4)]
    return X, y, Z, run, trained


@pytest.mark.parametrize(("method", "normalize"), METHODS)
@pytest.mark.parametrize("kind", ["dense", "poly", "rbf"])
def test_voted_multiclass_scores_are_the_papers(kind, method, normalize):
    _, _, Z, run, trained = voted_case(kind)
    slices = np.random.default_rng(11).integers(0, run.n_trials + 1, size=Z.shape[0])
    expected = paper_scores(trained, Z, method, normalize, slices)
    scores = run.decision_function(Z, method=method, normalize=normalize, seed=11)
    assert scores.shape == (Z.shape[0], 4)
    np.testing.assert_allclose(scores, expected, rtol=1e-10, atol=1e-10)
    labels = run.predict(Z, method=method, normalize=normalize, seed=11)
    np.testing.assert_array_equal(labels, run.classes[np.argmax(expected, axis=1)])


def test_voted_random_without_a_seed_draws_one_time_slice_for_every_class():
    """seed=None: every point's K scores come from one round r (paper 001 sec. 5), not K."""
    _, _, Z, run, trained = voted_case("dense")
    scores = run.decision_function(Z, method="random")
    candidates = np.stack([paper_scores(trained, Z, "random", False, np.full(Z.shape[0], r))
                           for r in range(run.n_trials + 1)])  # (T + 1, n, K)
    one_round = np.all(np.abs(candidates - scores[None]) <= 1e-10, axis=2).any(axis=0)
    assert one_round.all()


def test_supvec_and_mistake_counts():
    X, y, _, run, trained = voted_case("dense")
    rows = set()
    for mistakes, _, _ in trained:
        rows.update(run.sample_index[mistakes].tolist())
    assert supvec_count(run) == len(rows)
    assert mistake_count(run) == sum(len(m) for m, _, _ in trained) == run.corrections
    assert supvec_count(run) < mistake_count(run)
    binary = run_online("voted_perceptron", X, class_labels(y, 0), epochs=2)
    assert mistake_count(binary) == binary.mistakes
    assert supvec_count(binary) == np.unique(binary.sample_index[binary.mistake_trials]).size
    with pytest.raises(ValueError, match="zero state"):
        supvec_count(run_online("voted_perceptron", X, y, warm_start=run))
    native = run_online("perceptron", X, y, multiclass="native")
    for count in (supvec_count, mistake_count):
        with pytest.raises(ValueError, match="native multiclass run"):
            count(native)


def test_supvec_is_the_number_of_union_support_vectors_without_repeated_rows():
    X, y, _, run, _ = voted_case("rbf")
    assert np.unique(X, axis=0).shape[0] == X.shape[0]
    assert supvec_count(run) == run.support_vectors.shape[0]
