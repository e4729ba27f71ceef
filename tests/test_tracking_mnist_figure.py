"""``figure tracking-mnist`` (issue 36): MNIST made to drift, the positive digit switched at
equal intervals, on a tiny data home (tests/real_fixtures.py); a clean one-line refusal
without the data; the figure readable."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from figure_checks import problems  # noqa: E402
from real_fixtures import N_TRAIN, mnist_home  # noqa: E402

from perceptron_bounds.cli import main  # noqa: E402
from perceptron_bounds.datasets.real import DATA_HOME_ENV  # noqa: E402
from perceptron_bounds.papers import REPRODUCTIONS, tracking  # noqa: E402


@pytest.fixture
def home(tmp_path, monkeypatch):
    return mnist_home(tmp_path / "mnist", monkeypatch)


def test_drifting_digits_switch_at_equal_intervals():
    labels = np.tile(np.arange(10), 30)
    y, segment, positive = tracking.drifting_digits(labels, 2, seed=4)
    assert list(np.bincount(segment)) == [100, 100, 100]
    assert len(set(positive)) == 3  # consecutive segments never share their digit
    assert np.array_equal(y == 1, labels == positive[segment])
    # no switch: one digit against the rest over the whole stream
    y0, segment0, positive0 = tracking.drifting_digits(labels, 0, seed=4)
    assert (segment0 == 0).all() and np.array_equal(y0 == 1, labels == positive0[0])


def test_quick_figure_has_every_algorithm_and_switch_count(home):
    records, fig, markdown = tracking.tracking_mnist(quick=True, data_home=home)
    assert REPRODUCTIONS["tracking-mnist"] is tracking.tracking_mnist
    switches = tracking.MNIST_QUICK["switches"]
    names = [name for name, _, _ in tracking.MNIST_ALGORITHMS]
    assert sorted((row["n_shifts"], row["seed"], row["algorithm"]) for row in records) == \
        sorted((s, 0, name) for s in switches for name in names)
    assert all(row["n_images"] == N_TRAIN for row in records)
    for row in records:
        for key in ("best_fixed", "best_shifting", "best_fixed_tightened",
                    "best_shifting_tightened"):
            if np.isfinite(row[key]):
                assert row["mistakes"] <= row[key], (row, key)
        assert np.isfinite(row["best_shifting"]) or row["algorithm"] == "projected_perceptron"
        assert len(row["digits"].split()) == row["n_shifts"] + 1
    assert "switches of the positive digit" in fig.axes[0].get_xlabel()
    assert problems(fig) == []
    assert "# MNIST made to drift" in markdown and "**Quick run**" in markdown


def test_cli_writes_the_figure_and_its_report(home, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv(DATA_HOME_ENV, home)
    out = tmp_path / "out"
    assert main(["figure", "tracking-mnist", "--quick", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    for suffix in ("png", "pdf", "csv", "md"):
        assert (out / f"tracking-mnist.{suffix}").stat().st_size > 0
    assert "MNIST made to drift" in printed


def test_without_mnist_one_line_and_nothing_written(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv(DATA_HOME_ENV, str(tmp_path / "empty"))
    out = tmp_path / "out"
    code = main(["figure", "tracking-mnist", "--quick", "--out", str(out)])
    err = capsys.readouterr().err.strip()
    assert code != 0 and "\n" not in err and "mnist" in err.lower()
    assert not (out / "tracking-mnist.png").exists()
