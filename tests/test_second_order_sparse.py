"""The Second-Order Perceptron's dual forms on the kernel-row engine: CSR X, blocks, cache.

The dual loops (paper 003, Theorem 2, Figs. 4 and 5; theory §2.4) get their
kernel values from :mod:`perceptron_bounds.kernel_engine`, for dense and CSR X
alike. Dense and CSR runs add the products of a dot product in another order
(BLAS against a sparse row), so kernel values may differ in the last bit:
the mistake trials must be the same and the state equal to 1e-10.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from reference import presented_sequence, second_order_gram, second_order_pinv_gram
from threadpoolctl import threadpool_limits

from perceptron_bounds import kernel_engine, run_online
from perceptron_bounds._validation import Data
from perceptron_bounds.algorithms.second_order import SECOND_ORDER

KERNELS = [("linear", {}), ("poly", {"degree": 3, "gamma": 0.5, "coef0": 1.0}),
           ("rbf", {"gamma": 0.3})]
VARIANTS = ("inverse", "adaptive", "pinv")
OPTIONS = {"a": 0.5, "c": 0.1, "form": "dual", "record_margins": True}


@pytest.fixture(autouse=True)
def one_blas_thread():
    """Small products and many tiny LAPACK calls: threads only contend on a busy machine."""
    with threadpool_limits(limits=1):
        yield


def sparse_problem(n_samples=150, n_features=40, seed=0):
    """Rows with about a fifth of their entries nonzero (row 3 empty), average norm about 1."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n_samples, n_features)) * (rng.random((n_samples, n_features)) < 0.2)
    X[3] = 0.0
    X /= np.sqrt(np.mean(np.sum(X * X, axis=1)))
    y = np.where(X @ rng.standard_normal(n_features) + 0.2 * rng.standard_normal(n_samples) > 0,
                 1.0, -1.0)
    return X, y


def state(run) -> dict:
    """Everything a dual run's hypothesis and record hold, as dense arrays."""
    h = run.hypothesis
    out = {"margins": run.margins, "support_vectors": run.support_vectors}
    if run.params["variant"] == "pinv":
        out.update(c_inv=h.c_inv, coords=h.coords, transform=h.transform)
    else:
        out.update(dual_coef=h.dual_coef, m_inv=h.m_inv)
    if run.params["variant"] == "adaptive":
        out.update(gram=run.state["gram"], support_labels=run.state["support_labels"],
                   a_k=run.state["a_k"])
    return {name: v.toarray() if sp.issparse(v) else v for name, v in out.items()}


def assert_same_run(actual, desired, tol=1e-10):
    """Same mistake (and rank-growth) trials; every state array equal to ``tol`` of its largest."""
    np.testing.assert_array_equal(actual.mistake_trials, desired.mistake_trials)
    if desired.params["variant"] == "pinv":
        np.testing.assert_array_equal(actual.state["rank_growth"], desired.state["rank_growth"])
    a, d = state(actual), state(desired)
    for name, value in d.items():
        scale = np.abs(value).max() if value.size else 0.0
        np.testing.assert_allclose(a[name], value, rtol=0, atol=tol * scale, err_msg=name)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("kernel, options", KERNELS, ids=[k for k, _ in KERNELS])
@pytest.mark.parametrize("epochs", [1, 3])
def test_csr_equals_dense(variant, kernel, options, epochs):
    # Seed 3: every pinv basis direction has eta^2 >= 0.01 K(x, x), so the state is well
    # conditioned (with eta^2 = 5e-5 K(x, x), seed 0, last-bit differences grow to 5e-11).
    X, y = sparse_problem(seed=3)
    params = {**OPTIONS, "variant": variant, "kernel": kernel, "epochs": epochs,
              "shuffle": True, "seed": 2, **options}
    dense = run_online("second_order", X, y, **params)
    sparse = run_online("second_order", sp.csr_matrix(X), y, **params)
    assert dense.mistakes > 20 and sparse.params == dense.params
    assert sp.isspmatrix_csr(sparse.support_vectors)
    np.testing.assert_array_equal(sparse.support_vectors.toarray(), dense.support_vectors)
    assert_same_run(sparse, dense)
    Z, _ = sparse_problem(n_samples=30, seed=1)
    scores = dense.decision_function(Z)
    for Z_in in (Z, sp.csr_matrix(Z)):
        np.testing.assert_allclose(sparse.decision_function(Z_in), scores, rtol=0,
                                   atol=1e-10 * np.abs(scores).max())


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("kernel, options", KERNELS, ids=[k for k, _ in KERNELS])
def test_csr_matches_the_gram_references(variant, kernel, options):
    """CSR runs against the plain-NumPy solves of tests/reference.py (2 shuffled epochs)."""
    X, y = sparse_problem(n_samples=60, n_features=20, seed=3)
    run = run_online("second_order", sp.csr_matrix(X), y, variant=variant, kernel=kernel,
                     epochs=2, shuffle=True, seed=7, **OPTIONS, **options)
    order = presented_sequence(len(y), 2, True, 7)
    if variant == "pinv":
        mistakes, margins = second_order_pinv_gram(X, y, order, kernel_name=kernel, **options)
    else:
        fixed = {"a": 0.5} if variant == "inverse" else {"c": 0.1}
        mistakes, support, alpha, margins, a_k = second_order_gram(
            X, y, order, kernel_name=kernel, **fixed, **options
        )
        np.testing.assert_array_equal(run.support_vectors.toarray(), X[support])
        np.testing.assert_allclose(run.dual_coef, alpha, rtol=1e-9, atol=1e-9 * np.abs(alpha).max())
        if variant == "adaptive":
            np.testing.assert_allclose(run.state["a_k"], a_k, rtol=1e-12)
    np.testing.assert_array_equal(run.mistake_trials, mistakes)
    np.testing.assert_allclose(run.margins, margins, rtol=1e-8, atol=1e-8 * np.abs(margins).max())


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("formats", ["csr-csr", "dense-csr", "csr-dense"])
def test_warm_start_across_formats_continues_the_run(variant, formats):
    """A run on CSR (or dense) X continued on the other format is the run on the whole."""
    X, y = sparse_problem(n_samples=120, seed=4)
    norms = np.linalg.norm(X, axis=1)
    X[norms > 0] /= norms[norms > 0, None]  # the same R for a part and the whole (adaptive a_k)
    first_csr, rest_csr = (part == "csr" for part in formats.split("-"))
    params = {**OPTIONS, "variant": variant, "kernel": "poly", "degree": 2, "gamma": 0.5}
    whole = run_online("second_order", X, y, **params)
    head = sp.csr_matrix(X[:50]) if first_csr else X[:50]
    tail = sp.csr_matrix(X[50:]) if rest_csr else X[50:]
    first = run_online("second_order", head, y[:50], **params)
    rest = run_online("second_order", tail, y[50:], warm_start=first, record_margins=True)
    assert sp.issparse(rest.support_vectors) == rest_csr
    np.testing.assert_array_equal(
        np.concatenate([first.mistake_trials, rest.mistake_trials + 50]), whole.mistake_trials
    )
    margins = whole.margins[50:]
    np.testing.assert_allclose(rest.margins, margins, rtol=0, atol=1e-10 * np.abs(margins).max())
    np.testing.assert_allclose(rest.decision_function(X), whole.decision_function(X), rtol=1e-9)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("block", [1, 7, 64, 1024])
def test_block_size_and_a_narrow_cache_do_not_change_the_run(variant, sparse, block,
                                                              monkeypatch):
    """Any block size, and a cache of 5 kernel values a row (re-evaluations), give the run."""
    X, y = sparse_problem(n_samples=100, seed=5)
    X_in = sp.csr_matrix(X) if sparse else X
    params = {**OPTIONS, "variant": variant, "kernel": "rbf", "gamma": 0.5, "epochs": 3}
    default = run_online("second_order", X_in, y, **params)
    monkeypatch.setattr(kernel_engine, "BLOCK_SIZE", block)
    monkeypatch.setattr(kernel_engine, "KERNEL_CACHE_ENTRIES", 100 * 5)
    assert_same_run(run_online("second_order", X_in, y, **params), default)


def test_auto_picks_the_dual_form_on_wide_sparse_data():
    """n_features > n_samples: the dual form, CSR kept, instead of n x n matrices (issue 12)."""
    def form(n_samples, n_features, **params):
        X = sp.eye(n_samples, n_features, format="csr")
        y = np.where(np.arange(n_samples) % 2 == 0, 1.0, -1.0)
        data = Data(X, y, np.array([-1, 1]))
        return SECOND_ORDER.resolve({**SECOND_ORDER.defaults, **params}, data)["form"]

    for variant in VARIANTS:
        assert form(2000, 5000, variant=variant) == "dual"  # the primal took 18 s here
        assert form(10000, 47236, variant=variant) == "dual"  # RCV1's width: A^-1 17 GB
        assert form(5000, 2000, variant=variant) == "primal"
    assert form(5000, 2000, variant="adaptive", memory_budget=3 * 8 * 2000**2 - 1) == "dual"
