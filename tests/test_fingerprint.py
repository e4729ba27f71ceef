"""A run remembers a fingerprint of its data: ``evaluate`` and the other functions that take
(run, X, y) refuse other data in one line (issue 20, item 9)."""

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import noisy_separable

from perceptron_bounds import run_online
from perceptron_bounds._fingerprint import class_parts, x_part, y_part
from perceptron_bounds.bounds import bounds_over_time, evaluate
from perceptron_bounds.estimators import Perceptron

X, Y = noisy_separable(n_samples=60, n_features=4, noise=0.1, seed=3)
MASK = (1 << 64) - 1


def reference_fingerprint(X, labels):
    """The fingerprint from its definition, in Python integers."""
    def mix(z):
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    golden = 0x9E3779B97F4A7C15
    dense = np.asarray(X.toarray() if sp.issparse(X) else X, dtype=np.float64)
    hx = hy = 0
    for i, row in enumerate(dense):
        for j, value in enumerate(row):
            if value != 0.0:
                bits = int(np.float64(value).view(np.uint64))
                h = ((bits ^ ((i * dense.shape[1] + j) * golden & MASK))
                     * 0xBF58476D1CE4E5B9) & MASK
                hx = (hx + (h ^ (h >> 29))) & MASK
        hy = (hy + mix(int(labels[i]) ^ (i * golden & MASK))) & MASK
    return f"{dense.shape[0]}x{dense.shape[1]}:{hx:016x}:{hy:016x}"


def test_fingerprint_matches_its_definition_dense_and_csr():
    data = X.copy()
    data[data < 0.2] = 0.0
    data[1, 1] = -0.0  # a zero, whatever its sign
    labels = (Y > 0).astype(np.int64)
    expected = reference_fingerprint(data, labels)
    csr = sp.csr_matrix(data)
    csr.indices, csr.indptr = csr.indices.astype(np.int64), csr.indptr.astype(np.int64)
    for form in (np.ascontiguousarray(data), csr):
        assert x_part(form) + y_part(labels) == expected
    assert run_online("perceptron", data, Y).data_fingerprint == (expected,)


def test_evaluate_refuses_another_data_set_in_one_line():
    run = run_online("perceptron", X, Y, epochs=2)
    evaluate(run, X, Y)  # its own data
    evaluate(run, sp.csr_matrix(X), list(Y))  # the same data, stored otherwise
    for data, labels, message in [
        (X, -Y, "X and y are not the data of this run: y differs from the run's (60 rows)"),
        (2.0 * X, Y, "X and y are not the data of this run: X differs from the run's (60 rows)"),
        (X[::-1], Y[::-1], "X and y are not the data of this run: X and y differ from the run's "
         "(60 rows)"),
        (X[:50], Y[:50], "X has 50 rows, but the run was made on 60"),
    ]:
        for check in (lambda: evaluate(run, data, labels),
                      lambda: bounds_over_time(run, data, labels),
                      lambda: run.hypothesis_at(1, data, labels)):
            with pytest.raises(ValueError) as info:
                check()
            assert str(info.value).startswith(message) and "\n" not in str(info.value)


def test_multiclass_runs_and_their_class_runs_check_their_own_labels():
    y3 = np.digitize(X[:, 0], [-0.3, 0.3])
    for multiclass in ("ovr", "native"):
        run = run_online("perceptron", X, y3, multiclass=multiclass)
        evaluate(run, X, y3)
        with pytest.raises(ValueError, match="^X and y are not the data of this run: y differs"):
            evaluate(run, X, (y3 + 1) % 3)
    for k, class_run in enumerate(run_online("perceptron", X, y3).class_runs):
        evaluate(class_run, X, np.where(y3 == k, 1, -1))
        with pytest.raises(ValueError, match="^X and y are not the data of this run: y differs"):
            evaluate(class_run, X, np.where(y3 == (k + 1) % 3, 1, -1))


def test_a_warm_start_chain_takes_its_own_data_or_the_whole_stream():
    first = run_online("perceptron", X[:40], Y[:40])
    warm = run_online("perceptron", X[40:], Y[40:], warm_start=first)
    assert warm.data_fingerprint[0] == first.data_fingerprint[0]
    assert len(warm.data_fingerprint) == 2
    for data, labels in ((X[40:], Y[40:]), (X, Y)):  # its own batch, or the stream
        report = evaluate(warm, data, labels)
        assert report.rows and not any(row.applies for row in report.rows)
    with pytest.raises(ValueError, match=r"y differs from the run's \(rows 40\.\.59 of the chain "
                                         r"\(run 2 of 2\)\)$"):
        evaluate(warm, X, np.r_[Y[:40], -Y[40:]])
    with pytest.raises(ValueError, match="^X has 50 rows, but the run was made on 20, its "
                                         "chain of 2 warm-started runs on 60"):
        evaluate(warm, X[:50], Y[:50])
    estimator = Perceptron().partial_fit(X[:30], Y[:30]).partial_fit(X[30:], Y[30:])
    assert len(estimator.run_.data_fingerprint) == 2


def test_a_large_x_is_sampled_and_another_data_set_still_refused(monkeypatch):
    # Reading all of X doubled a one-pass run_online; the rows are sampled past SAMPLED_ROWS.
    from perceptron_bounds import _fingerprint

    monkeypatch.setattr(_fingerprint, "SAMPLED_ROWS", 7)
    labels = (Y > 0).astype(np.int64)
    step = -(-X.shape[0] // 7)
    sampled = np.zeros_like(X)
    sampled[::step] = X[::step]  # the rows outside the sample do not count
    expected = reference_fingerprint(sampled, labels).split(":")[1]
    assert x_part(X).split(":")[1] == expected
    other = X.copy()
    other[step] *= 2.0  # a sampled row differs
    assert x_part(other) != x_part(X)


def test_class_parts_are_the_class_runs_label_parts():
    """One read of the class indices gives each one-vs-rest class run's y_part."""
    rng = np.random.default_rng(5)
    for n, n_classes in ((1, 2), (500, 3), (2000, 10)):
        y = rng.integers(0, n_classes, n)
        assert class_parts(y, n_classes) == [y_part(y == k) for k in range(n_classes)]
