"""Bounds at the numerical edges (theory §4.4): exactly tight data, tiny and huge scales,
and the pseudoinverse variant's span decisions. Each case was a reported violation."""

import numpy as np
import pytest

from perceptron_bounds import run_online
from perceptron_bounds.bounds import HingeProfile, evaluate


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
