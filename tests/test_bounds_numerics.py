"""Bounds at the numerical edges (theory §4.4): exactly tight data, tiny and huge scales,
and the pseudoinverse variant's span decisions. Each case was a reported violation."""

import numpy as np
import pytest

from perceptron_bounds import run_online
from perceptron_bounds.bounds import HingeProfile, bounds_over_time, evaluate
from perceptron_bounds.bounds.second_order import second_order_bound
from perceptron_bounds.bounds.spectra import coordinate_spectrum, span_coordinates
from perceptron_bounds.kernels import Kernel


def test_d2_on_exactly_tight_data_is_the_direct_sum():
    # k gamma^2 - 2 gamma S1 + S2 cancelled to 0 here: Freund-Schapire gave 3.99999994 < 4.
    X, y = np.eye(4), np.ones(4)
    run = run_online("perceptron", X, y, classes=[-1, 1])
    u = np.array([1.0, 1.0, 1.0, 1.0 + 1e-8])
    report = evaluate(run, X, y, u=u)
    row = report.row("freund_schapire")
    margins = y * (X @ (u / np.linalg.norm(u)))
    direct = np.sqrt(np.sum(np.maximum(0.0, row.gamma - margins) ** 2))
    assert row.quantities["D2"] >= direct * (1 - 1e-12)
    assert row.holds and report.holds


@pytest.mark.parametrize("gamma", [1e-170, 1e-300, 1e150])
def test_hinge_profile_at_tiny_and_huge_gamma(gamma):
    # The prefix form underflowed to D2 = 0.0 at tiny gamma.
    margins = np.concatenate((np.zeros(18), [1.0, 2.0]))
    profile = HingeProfile(margins)
    losses = np.maximum(0.0, gamma - margins)
    top = losses.max()
    assert profile.d1(gamma) == pytest.approx(losses.sum(), rel=1e-14)
    assert profile.d2(gamma) == pytest.approx(top * np.sqrt(np.sum((losses / top) ** 2)),
                                              rel=1e-14)
    assert profile.d2(gamma) > 0.0


def test_hinge_profile_never_below_the_direct_sums():
    rng = np.random.default_rng(0)
    for _ in range(300):
        margins = rng.standard_normal(rng.integers(1, 20)) * 10.0 ** rng.integers(-150, 150)
        margins[: margins.size // 2] = margins[0]  # ties, as duplicated points give
        gammas = np.concatenate((np.abs(margins), np.abs(margins) * (1 + 1e-9),
                                 10.0 ** rng.uniform(-150, 150, 4)))
        profile = HingeProfile(margins)
        losses = np.maximum(0.0, gammas[:, None] - margins[None, :])
        top = losses.max(axis=1)
        scaled = losses / np.where(top > 0, top, 1.0)[:, None]
        direct_d2 = top * np.sqrt(np.sum(scaled**2, axis=1))
        slack = np.abs(margins).max() * 1e-15  # R >= max |margin| absorbs less in R + D2
        assert np.all(profile.d1(gammas) >= losses.sum(axis=1) * (1 - 1e-13))
        assert np.all(profile.d2(gammas) >= direct_d2 * (1 - 1e-13) - slack)


@pytest.mark.parametrize("form", ["primal", "dual"])
def test_pinv_bound_uses_the_instances_as_the_run_used_them(form):
    # x_2 is inside the span at span_tol=1e-9 (relative distance 1e-9.0000061): the run drops
    # its component e_2 for good. The bound on the full instances gave 46.84 < 101 mistakes.
    X, y = np.array([[1.0, 0.0], [31623.0, 1.0]]), np.array([1.0, -1.0])
    u = np.array([1.0, -31624.0])
    run = run_online("second_order", X, y, variant="pinv", epochs=100, form=form)
    assert run.mistakes == 101 and run.state["rank"] == 1
    report = evaluate(run, X, y, u=u)
    for row in report.rows:
        assert row.applies and row.holds, row
        assert row.quantities["rank"] == 1
    # u's energy on the mistakes as the run used them: x_2 without its e_2 component
    used = np.array([[1.0, 0.0], [31623.0, 0.0]])[run.mistake_rows] @ (u / np.linalg.norm(u))
    assert report.rows[0].quantities["u_energy"] == pytest.approx(np.sum(used**2), rel=1e-9)
    curves = bounds_over_time(run, X, y, u=u, gamma=report.rows[0].gamma)
    assert np.all(curves["second_order_pinv"] >= curves.mistakes)


def test_pinv_bound_not_applicable_where_a_rank_rise_is_inside_the_span():
    # A run whose recorded rank rises include a mistake on the same instance as an earlier
    # one (a Cholesky pivot of 0 in the bound's arithmetic; the full atlas met one on MNIST
    # at pivot 613): the pinv bound says why it does not apply instead of raising.
    X, y = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]]), np.array([1.0, -1.0, 1.0])
    run = run_online("second_order", X, y, variant="pinv")
    assert run.mistake_rows[:2].tolist() == [0, 1]
    run.state["rank_growth"] = np.array([0, 1], dtype=np.int64)
    row = next(row for row in evaluate(run, X, y, u=np.array([1.0, 1.0])).rows
               if row.name == "second_order_pinv")
    assert not row.applies and "inside the span" in row.reason and "mistake 2" in row.reason
    curves = bounds_over_time(run, X, y, u=np.array([1.0, 1.0]), gamma=0.5)
    assert "second_order_pinv" not in curves.keys()


def test_pinv_bound_applies_where_a_primal_runs_rank_rise_is_real():
    # Issue 35: on MNIST 9 vs rest the bound recomputed a primal run's basis by a Cholesky
    # factor of the mistakes' Gram, whose distances K(x, x) - ||p||^2 were off by 6e-6 (the
    # Gram as ill-conditioned as span_tol 1e-9 lets it be) where mistake 792's is 3.7e-6: a
    # zero pivot, inf and NaN after it, the bound not applicable. Here the same at small size:
    # x_1's distance 1e-9 is what Gram-Schmidt on the instance (the run) sees, while
    # (1 + 1e-18) - 1 rounds to 0.
    X = np.array([[1.0, 0.0, 0.0], [1.0, 1e-9, 0.0], [1.0, 0.3, 1e-6]])
    y = np.array([1.0, -1.0, 1.0])
    run = run_online("second_order", X, y, variant="pinv", span_tol=1e-20, form="primal")
    assert run.state["rank_growth"].tolist() == [0, 1, 2]
    Xm = X[run.mistake_rows]
    gram = span_coordinates(Xm, Kernel(), rtol=1e-20, rank_growth=run.state["rank_growth"])
    assert np.diagonal(gram[0][gram[1]])[1] == 0.0  # the Gram's arithmetic: a zero pivot
    L, pivots, rises = span_coordinates(Xm, Kernel(), rtol=1e-20, primal=True)
    assert np.flatnonzero(rises).tolist() == [0, 1, 2]  # the run's own decisions, unforced
    assert np.diagonal(L[pivots]) == pytest.approx([1.0, 1e-9, 1e-6], rel=1e-6)
    u = np.array([1.0, -2.0, 1.0]) / np.sqrt(6.0)
    row = next(row for row in evaluate(run, X, y, u=u).rows if row.name == "second_order_pinv")
    assert row.applies and row.holds and row.quantities["rank"] == 3, row


def test_pinv_lambda_star_to_the_precision_of_the_singular_values():
    # MNIST 10-class class 1 (span_tol 1e-9, rank 586): lambda* is 1.2e-14 against a largest
    # eigenvalue of 269, below what an eigendecomposition of L_k^T L_k resolves; it read 0 and
    # the bound infinite. Here the same at small size: lambda* = 5e-19 at the second mistake
    # (X_2 X_2^T = [[1, 1], [1, 1 + 1e-18]]); the eigendecomposition read 7.5e-19, a bound
    # smaller than its own formula gives.
    X = np.array([[1.0, 0.0, 0.0], [1.0, 1e-9, 0.0], [1.0, 0.0, 0.0], [-1.0, 0.0, 0.0]])
    y = np.array([1.0, -1.0, -1.0, 1.0])
    run = run_online("second_order", X, y, variant="pinv", span_tol=1e-20, form="primal")
    assert run.mistake_rows.tolist() == [0, 1, 2, 3]
    assert run.state["rank_growth"].tolist() == [0, 1]
    eigenvalues, lambda_star = coordinate_spectrum(*span_coordinates(
        X, Kernel(), rtol=1e-20, rank_growth=run.state["rank_growth"], primal=True)[::2])
    assert lambda_star == pytest.approx(5e-19, rel=1e-9)
    assert eigenvalues == pytest.approx([7.5e-19, 4.0], rel=1e-9)  # X_4 X_4^T: det 3e-18
    row = next(row for row in evaluate(run, X, y).rows if row.name == "second_order_pinv")
    assert row.applies and row.holds, row
    assert row.quantities["lambda_star"] == pytest.approx(5e-19, rel=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_pinv_kernel_bound_on_rbf_data_at_scale_1e_8(seed):
    # K(x, z) = 1 - O(1e-16): every instance is inside the span of the first one.
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((12, 3)) * 1e-8
    y = np.where(rng.random(12) < 0.5, 1.0, -1.0)
    y[:2] = 1.0, -1.0
    run = run_online("second_order", X, y, variant="pinv", kernel="rbf", gamma=0.5, epochs=10)
    report = evaluate(run, X, y)
    assert report.holds
    assert all(row.applies for row in report.rows)


@pytest.mark.parametrize(("algorithm", "scale"), [("perceptron", 1e-160), ("higher_order", 1e-170),
                                                  ("second_order", 1e-301)])
def test_norms_whose_squares_are_not_normal_floats_are_refused(algorithm, scale):
    # eye(4) * 1e-160 gave R = 9.99994e-161 and bounds 3.954-3.99996 against 4 mistakes; rows
    # of 1e-301 dropped the Second-Order eigenvalue term (10.66 against 14).
    # Since issue 31 run_online refuses such rows alike (they learn nothing), unless the
    # algorithm scales its instances to unit norm first (the Higher-Order Perceptron).
    rng = np.random.default_rng(0)
    X = np.vstack((np.eye(4), rng.standard_normal((6, 4)))) * scale
    y = np.where(np.arange(10) % 3 == 0, -1.0, 1.0)
    if algorithm != "higher_order":
        with pytest.raises(ValueError, match=r"X row \d+ has norm .* rescale X"):
            run_online(algorithm, X, y, epochs=2)
        return
    run = run_online(algorithm, X, y, epochs=2)
    with pytest.raises(ValueError, match=r"X row \d+ has norm .* rescale X"):
        evaluate(run, X, y)
    with pytest.raises(ValueError, match=r"X row \d+ has norm"):
        bounds_over_time(run, X, y, u=np.ones(4), gamma=scale)


@pytest.mark.parametrize("algorithm", ["passive_aggressive", "arow", "romma", "projectron",
                                       "perceptron", "second_order"])
def test_rows_of_norm_1e_minus_200_are_refused_where_they_enter(algorithm, tmp_path, capsys):
    """Issue 31, item 7: run_online and run learned nothing from them (50 mistakes of 50,
    w = 0) and said nothing, while compare and evaluate refused the same data."""
    from perceptron_bounds import Perceptron
    from perceptron_bounds.cli import main

    rng = np.random.default_rng(0)
    X = rng.standard_normal((50, 3))
    y = np.sign(X @ [1.0, -0.5, 0.2])
    X *= 1e-200
    with pytest.raises(ValueError, match=r"X row 0 has norm 6.65884e-201 .* rescale X"):
        run_online(algorithm, X, y)
    path = tmp_path / "tiny.csv"
    np.savetxt(path, np.c_[X, y], delimiter=",")
    for command in (["run", "--algorithm", algorithm], ["compare", "--algorithms", algorithm]):
        assert main([*command, "--data", str(path)]) == 2
        err = capsys.readouterr().err
        assert "X row 0 has norm" in err and err.strip().count("\n") == 0, err
    with pytest.raises(ValueError, match="X row 0 has norm"):
        Perceptron().fit(X, y)
    for scaled in ("alma", "pnorm", "higher_order"):  # unit-norm instances: learned as at scale 1
        assert run_online(scaled, X, y).mistakes == run_online(scaled, X * 1e200, y).mistakes


@pytest.mark.parametrize("scale", [1e-150, 1e150])
def test_rows_at_1e150_and_1e_minus_150_keep_their_bounds(scale):
    X, y = np.eye(4) * scale, np.array([1.0, -1.0, 1.0, -1.0])
    for algorithm in ("perceptron", "second_order"):
        run = run_online(algorithm, X, y)
        report = evaluate(run, X, y, u=y)
        assert report.holds and any(row.applies for row in report.rows)
    row = evaluate(run_online("perceptron", X, y), X, y, u=y).row("novikoff")
    assert row.quantities["R"] == scale and row.value == pytest.approx(4.0, rel=1e-12)


def test_higher_order_dual_agrees_with_primal_on_a_row_of_norm_1e_200():
    # K(x, x) = 1e-400 underflowed to 0: the dual form took the row for a zero row.
    X, y = np.array([[1e-200, 0.0], [0.0, 1.0], [0.9, 0.3]]), np.array([1.0, -1.0, 1.0])
    primal = run_online("higher_order", X, y, form="primal", epochs=3)
    dual = run_online("higher_order", X, y, form="dual", epochs=3)
    assert primal.mistake_trials.tolist() == dual.mistake_trials.tolist() == [0, 1]


def test_second_order_log_term_keeps_eigenvalues_far_below_a():
    # lambda / a = 1e-401 underflowed to 0 and the bound came out 0.0 against 1 mistake
    # (found by the adversarial test on rows of 1e-110 and 1e90, a = 6.5e181).
    X = np.array([[-1.1967302802983839e-110, 2.691970322102072e-110],
                  [2.8235106042322496e+90, 1.201544981771172e+90]])
    y = np.array([1.0, -1.0])
    run = run_online("second_order", X, y, a=6.4859053909501295e+181)
    report = evaluate(run, X, y, u=X[0] / np.abs(X[0]).max())
    assert report.holds and all(row.value > 0 for row in report.rows)
    assert second_order_bound([1e-220], 1e182, 0.0, 0.0, 1e-110) == pytest.approx(1.0)


@pytest.mark.parametrize("params", [
    {"variant": "inverse", "a": 5.364951328416084e+179},
    {"variant": "inverse", "a": 5.364951328416084e+179, "form": "dual"},
    {"variant": "adaptive", "c": 0.06},
])
def test_second_order_bound_not_applicable_where_a_score_underflows(params):
    # The second showing of row 0 scores ||x_0||^2 / a = 1.6e-399 > 0 in exact arithmetic
    # (one mistake), 0 in float64 (a second one): the bound (1.93) must not be held against it
    # (found by the adversarial test, seed 1294).
    X = np.array([[-1.1967302802983839e-110, 2.691970322102072e-110],
                  [2.8235106042322496e+90, -1.201544981771172e+90]])
    y = np.array([1.0, -1.0])
    run = run_online("second_order", X, y, epochs=2, **params)
    assert run.mistake_trials.tolist() == [0, 2]
    for report in (evaluate(run, X, y), evaluate(run, X, y, u=X[0] / np.abs(X[0]).max())):
        assert report.rows and all(not row.applies for row in report.rows)
        assert all("reach 1e-399" in row.reason or "reach 1e-400" in row.reason
                   for row in report.rows), [row.reason for row in report.rows]
    curves = bounds_over_time(run, X, y, u=X[0], gamma=1e-110)
    assert not curves and "outside float64's normal range" in curves.notes[-1]
    # One epoch: row 0 is not scored again, every score is a normal number: the bound applies.
    once = run_online("second_order", X, y, **params)
    assert all(row.applies and row.holds for row in evaluate(once, X, y).rows)


def test_selective_second_order_bound_not_applicable_where_a_score_underflows():
    # The selective Second-Order's matrix is a I + the queried mistakes' rows; here both
    # mistakes are queried (trial 0 scores 0, trial 2 about 1e-399: probability b / (b + |p|)
    # near 1), the run is the Second-Order's above, and its expected-mistake bound
    # (theory §4.13) takes the same range condition (theory §4.4).
    X = np.array([[-1.1967302802983839e-110, 2.691970322102072e-110],
                  [2.8235106042322496e+90, -1.201544981771172e+90]])
    y = np.array([1.0, -1.0])
    run = run_online("selective_second_order", X, y, epochs=2, a=5.364951328416084e+179, b=1.0)
    assert run.mistake_trials.tolist() == [0, 2] and run.update_trials.tolist() == [0, 2]
    report = evaluate(run, X, y)
    assert report.rows and all(not row.applies for row in report.rows)
    assert all("outside float64's normal range" in row.reason and "rescale X or a" in row.reason
               for row in report.rows)
    once = run_online("selective_second_order", X, y, a=5.364951328416084e+179, b=1.0)
    assert all(row.applies for row in evaluate(once, X, y).rows)
