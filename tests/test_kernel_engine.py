"""The kernel-row engine: blocked BLAS evaluation equals the one-at-a-time kernel values.

Every row the engine hands a loop is compared with the kernel of theory §1.7
evaluated pair by pair, for block sizes 1, 7, 64 and 1024, dense and CSR
data, every kernel, with supports appended inside blocks and on block
boundaries, with and without the cache across epochs. Runs through the
engine are compared with the plain-NumPy references for every block size and
for 1 and 2 BLAS threads.
"""

import numpy as np
import pytest
import reference
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from perceptron_bounds import kernel_engine, run_online
from perceptron_bounds._validation import check_X
from perceptron_bounds.kernel_engine import (
    engine_append,
    engine_diag,
    engine_row,
    engine_supports,
)
from perceptron_bounds.kernels import Kernel

KERNELS = {
    "linear": Kernel("linear"),
    "poly": Kernel("poly", degree=3, gamma=0.5, coef0=1.0),
    "rbf": Kernel("rbf", gamma=0.2),
}
BLOCKS = (1, 7, 64, 1024)


def sparse_data(n_samples=120, n_features=15, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n_samples, n_features))
    X[rng.random(X.shape) < 0.6] = 0.0
    return X


def as_input(X, csr):
    return check_X(sp.csr_matrix(X) if csr else X)


def exact_row(kernel, X, i, support_rows):
    """K(s_j, x_i) pair by pair, as reference.kernel does."""
    params = {"degree": kernel.degree, "gamma": kernel.gamma, "coef0": kernel.coef0}
    return np.array([reference.kernel(kernel.name, X[s], X[i], **params) for s in support_rows])


def drive(X, Xin, order, kernel, appends, supports=None):
    """Walk the engine over ``order``, appending at the trials in ``appends``; check every row."""
    src, st, k = kernel_engine.kernel_engine(Xin, order, kernel, supports)
    rows = [] if supports is None else [None] * k
    out = np.empty(len(order) + k + 1)
    for t, i in enumerate(order):
        st = engine_row(src, st, t, k, out)
        if supports is None:
            np.testing.assert_allclose(out[:k], exact_row(kernel, X, i, rows), rtol=1e-12,
                                       atol=1e-12)
        if t in appends:
            st = engine_append(src, st, t, k)
            rows.append(i)
            k += 1
    return src, st, k, rows


@pytest.mark.parametrize("block", BLOCKS)
@pytest.mark.parametrize("name", KERNELS)
@pytest.mark.parametrize("csr", [False, True])
def test_rows_equal_pairwise_kernel_values(monkeypatch, block, name, csr):
    """Appends inside blocks, on their first and last trials, over three epochs (cache on)."""
    monkeypatch.setattr(kernel_engine, "BLOCK_SIZE", block)
    X = sparse_data()
    rng = np.random.default_rng(1)
    order = np.concatenate([rng.permutation(len(X)) for _ in range(3)])
    appends = set(np.flatnonzero(rng.random(len(order)) < 0.2).tolist())
    appends |= {block - 1, block, 2 * block - 1} & set(range(len(order)))
    src, st, k, rows = drive(X, as_input(X, csr), order, KERNELS[name], appends)
    held = engine_supports(st, k)
    assert sp.issparse(held) == csr
    np.testing.assert_array_equal(held.toarray() if csr else held, X[rows])


@pytest.mark.parametrize("csr", [False, True])
def test_warm_start_supports_are_held(csr):
    X = sparse_data()
    kernel = KERNELS["poly"]
    order = np.arange(len(X), dtype=np.int64)
    first = [3, 17, 40]
    supports = sp.csr_matrix(X[first]) if csr else X[first]
    src, st, k = kernel_engine.kernel_engine(as_input(X, csr), order, kernel, supports)
    assert k == 3
    out = np.empty(4)
    st = engine_row(src, st, 5, k, out)
    np.testing.assert_allclose(out[:3], exact_row(kernel, X, 5, first), rtol=1e-12)
    st = engine_append(src, st, 5, k)
    st = engine_row(src, st, 6, k + 1, out)
    np.testing.assert_allclose(out, exact_row(kernel, X, 6, [*first, 5]), rtol=1e-12)


@pytest.mark.parametrize("name", KERNELS)
def test_diagonal(name):
    X = sparse_data()
    src, _, _ = kernel_engine.kernel_engine(check_X(X), np.arange(len(X)), KERNELS[name])
    for i in (0, 7):
        assert engine_diag(src, i) == pytest.approx(exact_row(KERNELS[name], X, i, [i])[0],
                                                    rel=1e-13)


def test_cache_serves_later_epochs(monkeypatch):
    """After the first epoch, a block only computes the supports added since its rows were seen."""
    monkeypatch.setattr(kernel_engine, "BLOCK_SIZE", 16)
    X = sparse_data(n_samples=64)
    order = np.concatenate([np.arange(64), np.arange(64)])
    appends = set(range(0, 64, 3))
    _, st, k, _ = drive(X, check_X(X), order, KERNELS["rbf"], appends)
    info, values, filled = st[8], st[9], st[10]
    assert values.shape[0] == 64
    # Row 63 was last shown at trial 127 with every support: all k values cached.
    assert filled[63] == k
    # The last block (trials 112..127) started after the first epoch: c0 > 0.
    assert info[3] > 0


@pytest.mark.parametrize("cap", [0, 64 * 16, 64 * 32])
def test_capped_cache_gives_the_same_rows(monkeypatch, cap):
    """A cache too small to grow computes the values past its width again: same rows."""
    monkeypatch.setattr(kernel_engine, "KERNEL_CACHE_ENTRIES", cap)
    monkeypatch.setattr(kernel_engine, "BLOCK_SIZE", 8)
    X = sparse_data(n_samples=64)
    order = np.concatenate([np.arange(64)] * 3)
    appends = set(range(0, 192, 4))
    _, st, k, _ = drive(X, check_X(X), order, KERNELS["poly"], appends)
    assert st[9].shape[0] * st[9].shape[1] <= max(cap, 64 * 16)
    assert k == 48


def test_single_epoch_keeps_no_cache():
    X = sparse_data()
    _, st, _ = kernel_engine.kernel_engine(check_X(X), np.arange(len(X)), KERNELS["rbf"])
    assert st[9].shape[0] == 0


@pytest.mark.parametrize("block", BLOCKS)
@pytest.mark.parametrize("csr", [False, True])
def test_runs_match_the_references_for_every_block_size(monkeypatch, block, csr):
    monkeypatch.setattr(kernel_engine, "BLOCK_SIZE", block)
    X = sparse_data(n_samples=150, n_features=12, seed=4)
    rng = np.random.default_rng(5)
    y = np.where(X @ rng.standard_normal(12) + 0.3 * rng.standard_normal(150) > 0, 1.0, -1.0)
    params = {"degree": 2, "gamma": 0.5, "coef0": 1.0}
    Xin = sp.csr_matrix(X) if csr else X
    order = np.concatenate([np.arange(150)] * 2)
    run = run_online("perceptron", Xin, y, epochs=2, kernel="poly", **params)
    trials, support, coef, margins = reference.kernel_perceptron(X, y, order, "poly", **params)
    np.testing.assert_array_equal(run.mistake_trials, trials)
    np.testing.assert_array_equal(run.dual_coef, coef)
    if block == 7:  # mistakes on the first and on the last trial of a block
        assert np.any(trials % block == 0) and np.any(trials % block == block - 1)
    ball = run_online("ballseptron", Xin, y, r=0.3, epochs=2, kernel="poly", **params)
    b_trials, b_margin_errors, _, b_coef, _ = reference.kernel_ballseptron(
        X, y, order, 0.3, "poly", **params
    )
    np.testing.assert_array_equal(ball.mistake_trials, b_trials)
    np.testing.assert_array_equal(ball.margin_error_trials, b_margin_errors)
    np.testing.assert_allclose(ball.dual_coef, b_coef, rtol=1e-10, atol=1e-12)


def test_runs_do_not_depend_on_the_number_of_threads():
    """Blocks large enough for OpenBLAS to split them over threads: same mistaken trials."""
    rng = np.random.default_rng(7)
    X = rng.standard_normal((2500, 300))
    y = np.where(X @ rng.standard_normal(300) + rng.standard_normal(2500) > 0, 1.0, -1.0)
    runs = []
    for threads in (1, 2):
        with threadpool_limits(threads):
            runs.append(run_online("perceptron", X, y, epochs=2, kernel="poly", degree=2,
                                   gamma=1 / 300, record_margins=True))
    np.testing.assert_array_equal(runs[0].mistake_trials, runs[1].mistake_trials)
    np.testing.assert_allclose(runs[0].margins, runs[1].margins, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(runs[0].dual_coef, runs[1].dual_coef)


@pytest.mark.parametrize("block", (1, 64))
@pytest.mark.parametrize("csr", [False, True])
def test_rbf_rows_of_large_norm_do_not_cancel(monkeypatch, block, csr):
    """A coordinate of 1e8 makes ||x||^2 + ||z||^2 - 2 x.z cancel for rows a unit apart: the
    engine recomputes those pairs by the difference form, in blocks and appends alike."""
    monkeypatch.setattr(kernel_engine, "BLOCK_SIZE", block)
    X = sparse_data(40, 6)
    X[:, 0] = 1e8
    X[30:] = X[:10]
    rng = np.random.default_rng(2)
    order = np.concatenate([rng.permutation(len(X)) for _ in range(2)])
    appends = set(np.flatnonzero(rng.random(len(order)) < 0.3).tolist())
    drive(X, as_input(X, csr), order, KERNELS["rbf"], appends)
    src, st, k = kernel_engine.kernel_engine(as_input(X, csr), np.array([3, 33, 3]),
                                             KERNELS["rbf"])
    out = np.empty(2)
    st = engine_append(src, st, 0, 0)
    st = engine_row(src, st, 1, 1, out)
    st = engine_row(src, st, 2, 1, out)
    assert out[0] == 1.0 and engine_diag(src, 3) == 1.0


@pytest.mark.parametrize("block", BLOCKS)
@pytest.mark.parametrize("name", KERNELS)
@pytest.mark.parametrize("csr", [False, True])
def test_replaced_supports_are_seen_inside_the_block(monkeypatch, block, name, csr):
    """A budget of 5 slots: appends until full, then replacements (inside blocks, on their
    first and last trials, of slots held at the block's start and of slots filled inside
    it); every row equals the kernel values of the supports held, and so do the supports."""
    from perceptron_bounds.kernel_engine import engine_replace

    monkeypatch.setattr(kernel_engine, "BLOCK_SIZE", block)
    X = sparse_data()
    rng = np.random.default_rng(2)
    order = np.concatenate([rng.permutation(len(X)) for _ in range(3)])
    changes = set(np.flatnonzero(rng.random(len(order)) < 0.3).tolist())
    changes |= {block - 1, block, 2 * block - 1} & set(range(len(order)))
    kernel = KERNELS[name]
    src, st, k = kernel_engine.kernel_engine(as_input(X, csr), order, kernel, cache=False)
    slots = []
    out = np.empty(8)
    for t, i in enumerate(order):
        st = engine_row(src, st, t, k, out)
        np.testing.assert_allclose(out[:k], exact_row(kernel, X, i, slots), rtol=1e-12,
                                   atol=1e-12)
        if t in changes:
            if k < 5:
                st = engine_append(src, st, t, k)
                slots.append(i)
                k += 1
            else:
                j = int(rng.integers(5))
                st = engine_replace(src, st, t, j)
                slots[j] = i
    held = engine_supports(st, k)
    np.testing.assert_array_equal(held.toarray() if csr else held, X[slots])
