"""The Higher-Order Perceptron's dual form on CSR X (issue 12), through the kernel-row engine.

The dual loop (paper 000 sec. 2 item 2, theory §2.5) reads kernel values only
through :mod:`perceptron_bounds.kernel_engine`, so CSR X must give the dense
run: identical mistake trials, rho and active supports, state (D, g, h, the
records) to 1e-10, for the linear, poly and rbf kernels, the plain and the
sparse variant, one and several epochs, any block size, a partial kernel cache
and warm starts; and both must follow the plain-NumPy recursion of
``reference.higher_order_dual``.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import noisy_separable
from reference import higher_order_dual

from perceptron_bounds import run_online

X, Y = noisy_separable(n_samples=40, n_features=6, noise=0.1, seed=3)
X[np.abs(X) < 0.6] = 0.0
X[7] = 0.0  # an empty CSR row (K(x, x) = 0 for the linear kernel: not rescaled)
XS = sp.csr_matrix(X)
# Without the empty row, which the reference's K(a, b) / sqrt(K(a, a) K(b, b)) cannot normalise.
XR, YR = np.delete(X, 7, axis=0), np.delete(Y, 7)

KERNELS = {
    "linear": {},
    "poly": {"degree": 3, "gamma": 0.5, "coef0": 1.0},
    "rbf": {"gamma": 0.3},
}
EXACT = ("rho", "active", "support_y")
CLOSE = ("y_v_x", "r", "support_scale", "factor_rho", "D", "h", "g")


def close(actual, expected, tol=1e-10):
    expected = np.asarray(expected, dtype=float)
    scale = max(np.max(np.abs(expected)), 1.0) if expected.size else 1.0
    np.testing.assert_allclose(actual, expected, rtol=0, atol=tol * scale)


def dense(matrix):
    return matrix.toarray() if sp.issparse(matrix) else matrix


def same_run(csr, ref):
    """CSR and dense runs of the dual form: same decisions, same state."""
    np.testing.assert_array_equal(csr.mistake_trials, ref.mistake_trials)
    for name in EXACT:
        np.testing.assert_array_equal(csr.state[name], ref.state[name])
    for name in CLOSE:
        close(csr.state[name], ref.state[name])
    close(csr.margins, ref.margins)
    assert sp.issparse(csr.state["support"]) and sp.issparse(csr.support_vectors)
    np.testing.assert_array_equal(csr.state["support"].toarray(), dense(ref.state["support"]))
    np.testing.assert_array_equal(csr.support_vectors.toarray(), dense(ref.support_vectors))
    close(csr.decision_function(XS), ref.decision_function(X))
    close(ref.decision_function(XS), ref.decision_function(X))


@pytest.mark.parametrize("kernel", sorted(KERNELS))
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("epochs", [1, 4])
@pytest.mark.parametrize("block", [None, 1, 7])
def test_csr_gives_the_dense_run(monkeypatch, kernel, sparse, epochs, block):
    if block is not None:  # block boundaries on and off mistakes; a cache of 2 values per row
        monkeypatch.setattr("perceptron_bounds.kernel_engine.BLOCK_SIZE", block)
        monkeypatch.setattr("perceptron_bounds.kernel_engine.KERNEL_CACHE_ENTRIES", 100)
    params = dict(form="dual", kernel=kernel, sparse=sparse, epochs=epochs, c=0.6,
                  shuffle=True, seed=epochs, record_margins=True, **KERNELS[kernel])
    ref = run_online("higher_order", X, Y, **params)
    csr = run_online("higher_order", XS, Y, **params)
    same_run(csr, ref)
    if sparse:  # the sparse variant skipped some matrix updates and made others
        assert 0 < csr.state["matrix_updates"] < csr.mistakes
    if epochs > 1:
        assert csr.mistakes > 16  # the per-support buffers, D and the engine's buffers regrew


@pytest.mark.parametrize("kernel", sorted(KERNELS))
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("normalize", [True, False])
def test_csr_follows_the_numpy_recursion(kernel, sparse, normalize):
    run = run_online("higher_order", sp.csr_matrix(XR), YR, form="dual", kernel=kernel,
                     sparse=sparse, normalize=normalize, epochs=3, c=0.6, shuffle=True, seed=5,
                     record_margins=True, **KERNELS[kernel])
    trials, support, g, margins = higher_order_dual(
        XR, YR, run.sample_index, c=0.6, sparse=sparse, normalize=normalize, kernel_name=kernel,
        **KERNELS[kernel]
    )
    np.testing.assert_array_equal(run.mistake_trials, trials)
    close(run.margins, margins, tol=1e-9)
    close(run.state["g"], g, tol=1e-9)
    np.testing.assert_array_equal(run.support_vectors.toarray(), XR[support])


@pytest.mark.parametrize("kernel", sorted(KERNELS))
@pytest.mark.parametrize("first_format", [sp.csr_matrix, np.asarray])
def test_warm_start_on_csr_continues_the_run(kernel, first_format):
    params = dict(form="dual", kernel=kernel, sparse=True, **KERNELS[kernel])
    whole = run_online("higher_order", XS, Y, epochs=2, record_margins=True, **params)
    first = run_online("higher_order", first_format(X[:25]), Y[:25], **params)
    second = run_online("higher_order", XS[25:], Y[25:], warm_start=first, record_margins=True)
    third = run_online("higher_order", XS, Y, warm_start=second, record_margins=True)
    np.testing.assert_array_equal(
        np.concatenate([first.mistake_trials, 25 + second.mistake_trials,
                        40 + third.mistake_trials]),
        whole.mistake_trials,
    )
    close(np.concatenate([second.margins, third.margins]), whole.margins[25:])
    for name in ("support_scale", "factor_rho", "D", "h", "g"):  # over the whole history
        close(third.state[name], whole.state[name])
    np.testing.assert_array_equal(third.state["active"], whole.state["active"])
    np.testing.assert_array_equal(third.support_vectors.toarray(), whole.support_vectors.toarray())
    close(third.decision_function(X), whole.decision_function(XS))


def test_auto_form_on_csr_data():
    assert run_online("higher_order", XS, Y, kernel="rbf").params["form"] == "dual"
    assert run_online("higher_order", XS, Y).params["form"] == "primal"
    assert run_online("higher_order", XS, Y, sparse=True).params["form"] == "implicit"
    # The implicit form's dense factors, one per trial of an epoch at most: 40 x 6 float64.
    factors = 8 * 40 * 6
    auto = run_online("higher_order", XS, Y, sparse=True, memory_budget=factors - 1,
                      record_margins=True)
    assert auto.params["form"] == "dual"
    assert run_online("higher_order", XS, Y, sparse=True, memory_budget=factors
                      ).params["form"] == "implicit"
    assert run_online("higher_order", X, Y, sparse=True, memory_budget=factors - 1
                      ).params["form"] == "implicit"  # dense X: the dual's supports are dense
    assert run_online("higher_order", XS, Y, p=3.0, memory_budget=factors - 1
                      ).params["form"] == "implicit"  # no dual form for p > 2
    implicit = run_online("higher_order", XS, Y, sparse=True, form="implicit",
                          record_margins=True)
    np.testing.assert_array_equal(auto.mistake_trials, implicit.mistake_trials)
    close(auto.margins, implicit.margins)
    close(auto.decision_function(XS), implicit.decision_function(XS))
