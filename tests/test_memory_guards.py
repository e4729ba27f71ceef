"""Memory guards: no form whose dense n_features x n_features matrices exceed the budget."""


import numpy as np
import pytest
import scipy.sparse as sp

from perceptron_bounds import HigherOrderPerceptron, SecondOrderPerceptron, run_online

rng = np.random.default_rng(3)
X = rng.standard_normal((40, 30))
Y = np.where(X[:, 0] + 0.2 * rng.standard_normal(40) > 0, 1, -1)
WIDE = sp.random(20, 60_000, density=1e-4, format="csr", random_state=0)  # A would be 27 GiB
WIDE_Y = np.where(np.arange(20) % 2 == 0, 1, -1)


@pytest.mark.parametrize("variant, count", [("inverse", 1), ("pinv", 2), ("adaptive", 3)])
def test_auto_picks_the_dual_form_when_the_primal_matrices_exceed_the_budget(variant, count):
    """On 30 rows of rank 20 (the pseudoinverse's dual keeps r x r matrices, r the rank), with
    fewer than 30 mistakes, the dual's k x k matrices fit where the primal's 30 x 30 do not."""
    fits = 8 * count * 30 * 30
    X30, Y30 = np.vstack([X[:20], X[:10]]), np.concatenate([Y[:20], Y[:10]])
    assert run_online("second_order", X30, Y30, variant=variant, memory_budget=fits
                      ).params["form"] == "primal"
    small = run_online("second_order", X30, Y30, variant=variant, memory_budget=fits - 1)
    assert small.params["form"] == "dual"
    primal = run_online("second_order", X30, Y30, variant=variant, form="primal")
    np.testing.assert_array_equal(small.mistake_trials, primal.mistake_trials)


def test_an_explicit_primal_form_over_the_budget_is_one_line_before_any_allocation():
    import tracemalloc

    tracemalloc.start()
    with pytest.raises(ValueError, match=r"form='primal' keeps 1 dense 60000 x 60000 float64 "
                                         r"matrix \(26.8 GiB\), over memory_budget=2 GiB; "
                                         r"use form='dual', or raise memory_budget"):
        run_online("second_order", WIDE, WIDE_Y, form="primal")
    with pytest.raises(ValueError, match="use form='implicit', or raise memory_budget"):
        run_online("higher_order", WIDE.toarray(), WIDE_Y, form="primal")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 100 * 2**20, peak  # nothing of 27 GiB was allocated


@pytest.mark.parametrize("variant", ["inverse", "adaptive", "pinv"])
def test_auto_on_wide_sparse_data_is_the_dual_form_on_csr(variant):
    """No 27 GiB primal, no dense copy of X: the dual form reads the CSR rows (issue 12)."""
    run = run_online("second_order", WIDE, WIDE_Y, variant=variant)
    assert run.params["form"] == "dual" and sp.issparse(run.support_vectors)
    dense = run_online("second_order", WIDE.toarray(), WIDE_Y, variant=variant)
    np.testing.assert_array_equal(run.mistake_trials, dense.mistake_trials)
    np.testing.assert_allclose(run.decision_function(WIDE), dense.decision_function(WIDE),
                               rtol=1e-12)


def test_higher_order_auto_stays_within_the_budget():
    assert run_online("higher_order", X, Y).params["form"] == "primal"
    run = run_online("higher_order", X, Y, memory_budget=8 * 30 * 30 - 1)
    assert run.params["form"] == "implicit"
    with pytest.raises(ValueError, match="memory_budget must be"):
        run_online("higher_order", X, Y, memory_budget=0)


def test_the_estimators_take_the_budget():
    budget = 8 * 30 * 30 - 1  # the 30 x 30 primal matrix does not fit, the dual's 20 x 20 do
    assert SecondOrderPerceptron(memory_budget=budget).fit(X[:20], Y[:20]).run_.params[
        "form"] == "dual"
    assert HigherOrderPerceptron(memory_budget=100).fit(X, Y).run_.params["form"] == "implicit"


@pytest.mark.parametrize("variant, count", [("inverse", 1), ("pinv", 2), ("adaptive", 3)])
def test_the_dual_form_stops_before_its_matrices_pass_the_budget(variant, count):
    """The dual form's k x k matrices grow with the mistakes (a 20,000-row run held 1 GB with
    no end in sight): a one-line error naming memory_budget before k x k passes it."""
    rng = np.random.default_rng(0)
    Xr = rng.standard_normal((400, 50))
    Yr = np.where(rng.standard_normal(400) > 0, 1, -1)
    budget = 8 * count * 25 * 25  # room for 25 supports
    with pytest.raises(ValueError, match=rf"form='dual' keeps {count} dense 26 x 26 float64 "
                                         r"matri.*over memory_budget=.*trial \d+ would add "
                                         r"support 26\), or raise memory_budget$"):
        run_online("second_order", Xr, Yr, variant=variant, kernel="rbf", gamma=0.02,
                   memory_budget=budget)
    full = run_online("second_order", Xr[:60], Yr[:60], variant=variant, kernel="rbf",
                      gamma=0.02)
    k = full.support_vectors.shape[0]
    assert k > 25
    fits = run_online("second_order", Xr[:60], Yr[:60], variant=variant, kernel="rbf",
                      gamma=0.02, memory_budget=8 * count * k * k)
    np.testing.assert_array_equal(fits.mistake_trials, full.mistake_trials)
