"""``figure budget-mnist`` (issue 23) on a tiny MNIST data home: the budget algorithms' test
error, mistakes and bounds against B, and the unbudgeted kernel Perceptron."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from real_fixtures import N_TRAIN, mnist_home  # noqa: E402

from perceptron_bounds.papers import REPRODUCTIONS, budget_mnist  # noqa: E402


@pytest.fixture
def home(tmp_path, monkeypatch):
    return mnist_home(tmp_path / "mnist", monkeypatch)


def test_quick_figure_has_every_algorithm_and_budget(home):
    records, fig, markdown = budget_mnist.budget_mnist(quick=True, data_home=home, digit=3)
    assert REPRODUCTIONS["budget-mnist"] is budget_mnist.budget_mnist
    budgets = budget_mnist.BUDGET_QUICK["budgets"]
    for name in budget_mnist.BUDGETED:
        rows = [row for row in records if row["algorithm"] == name]
        assert [row["budget"] for row in rows] == list(budgets)
        assert all(row["supports"] <= row["budget"] for row in rows)
        # each budget algorithm's bound is beside its mistakes, and holds (the RBP's is on the
        # expectation: its value is far above one run here)
        assert all(row["bound_name"] and row["mistakes"] <= row["bound"] for row in rows)
    (plain,) = [row for row in records if row["budget"] is None]
    assert plain["algorithm"] == "perceptron" and plain["supports"] == plain["mistakes"]
    assert all(row["n_train"] == N_TRAIN and row["digit"] == 3 for row in records)
    assert all(0.0 <= row["test_error"] <= 1.0 for row in records)
    assert len(fig.axes) == 2 and "MNIST 3 against the rest" in markdown
    # with a budget above its mistakes each budget algorithm is the kernel Perceptron
    for name in budget_mnist.BUDGETED:
        top = [row for row in records if row["algorithm"] == name][-1]
        if top["budget"] > plain["mistakes"]:
            assert (top["mistakes"], top["test_error"]) == (plain["mistakes"],
                                                            plain["test_error"])


def test_the_algorithms_come_from_a_list(home, monkeypatch):
    """Adding an algorithm to BUDGETED adds its curve (the Projectron's, at merge)."""
    monkeypatch.setattr(budget_mnist, "BUDGETED", {"forgetron": lambda B: {"budget": B}})
    records, _, _ = budget_mnist.budget_mnist(quick=True, data_home=home, seeds=2)
    assert {row["algorithm"] for row in records} == {"forgetron", "perceptron"}
    assert {row["seed"] for row in records} == {0, 1}
    assert np.isfinite([row["bound"] for row in records]).all()


def test_a_budget_the_data_home_cannot_reach_warns(home, monkeypatch):
    monkeypatch.setitem(budget_mnist.BUDGET_QUICK, "budgets", (10, N_TRAIN))
    with pytest.warns(UserWarning, match=rf"budgets \[{N_TRAIN}\] are not below the {N_TRAIN} "
                                         "training images"):
        records, _, _ = budget_mnist.budget_mnist(quick=True, data_home=home)
    assert {row["budget"] for row in records} == {10, N_TRAIN, None}
