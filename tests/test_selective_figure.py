"""The selective-sampling experiment, its figure and its real-data variant (theory §2.14, §4.13).

The real-data variant runs here on a stand-in loader (digit-like random data), so the
tests never read MNIST.
"""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from perceptron_bounds.cli import main  # noqa: E402
from perceptron_bounds.datasets import Dataset, make_separable  # noqa: E402
from perceptron_bounds.experiments import selective_curve  # noqa: E402
from perceptron_bounds.papers import REPRODUCTIONS, common  # noqa: E402
from perceptron_bounds.papers import selective as paper  # noqa: E402
from perceptron_bounds.plots import plot_selective_sampling  # noqa: E402


@pytest.fixture(scope="module")
def table():
    X, y, u = make_separable(400, 6, margin=0.05, label_noise=0.05, seed=1)
    return selective_curve([0.05, 0.5, 5.0], (X[:300], y[:300]), test=(X[300:], y[300:]), u=u,
                           seeds=[0, 1])


def test_the_records_hold_queries_mistakes_test_error_and_the_bound(table):
    selective = [row for row in table if not row["supervised"]]
    supervised = [row for row in table if row["supervised"]]
    assert len(selective) == 2 * 3 * 2 and len(supervised) == 2 * 2
    assert all(row["query_rate"] == 1.0 and row["b"] is None for row in supervised)
    for algorithm in ("selective_perceptron", "selective_second_order"):
        rates = [np.mean([r["query_rate"] for r in selective
                          if r["algorithm"] == algorithm and r["b"] == b]) for b in (0.05, 0.5, 5)]
        assert rates[0] < rates[1] < rates[2] < 1.0  # a larger b asks for more labels
    for row in table:
        assert 0.0 <= row["test_error"] <= 1.0 and row["bound_rate"] == row["bound"] / 300
        assert row["bound_name"].split()[0] in ("selective_perceptron", "selective_second_order",
                                                "novikoff", "freund_schapire", "ballseptron_d1",
                                                "second_order")
    for algorithm, b in {(row["algorithm"], row["b"]) for row in table}:
        rows = [row for row in table if row["algorithm"] == algorithm and row["b"] == b]
        assert len({row["bound"] for row in rows}) == 1  # one bound per cell: the mean's
        assert np.mean([row["mistakes"] for row in rows]) <= rows[0]["bound"]


def test_bad_b_values_are_one_line_errors():
    X, y, _ = make_separable(20, 2, seed=0)
    with pytest.raises(ValueError, match=r"b_values must be > 0, got \[0.0, 1.0\]"):
        selective_curve([0.0, 1.0], (X, y))


def test_the_figure_draws_each_algorithm_and_its_bound(table):
    fig = plot_selective_sampling(table)
    left, right = fig.axes[:2]
    labels = [text.get_text() for text in left.get_legend().get_texts()]
    assert "Selective Perceptron" in labels and "Perceptron (every label)" in labels
    assert "Selective Second-Order Perceptron: bound on E[mistakes] / T" in labels
    assert right.get_ylabel() == "test error of the final hypothesis"
    with pytest.raises(ValueError, match="records lack"):
        plot_selective_sampling([{"x": 1}])


def _fake_loader(data_home=None, download=False):
    """Digits 0..9 on random 64-pixel images, each digit around its own template."""
    rng = np.random.default_rng(0)
    templates = rng.random((10, 64))
    parts = []
    for n in (400, 200):
        y = rng.integers(0, 10, n)
        X = 255.0 * np.clip(templates[y] + 0.3 * rng.standard_normal((n, 64)), 0.0, 1.0)
        parts.append(Dataset(X, y, None))
    return tuple(parts)


def test_the_real_variant_runs_a_binary_task_and_reports(monkeypatch, tmp_path):
    monkeypatch.setitem(common.LOADERS, "mnist", _fake_loader)
    records, fig, markdown = REPRODUCTIONS["selective-sampling-real"]("mnist", quick=True,
                                                                      seeds=1)
    assert {row["dataset"] for row in records} == {"MNIST 3 against 5"}
    assert records[0]["n_features"] == 64 and records[0]["positive"] == 3
    assert "| selective_perceptron | 0.03 |" in markdown and "could not be read" in markdown
    with pytest.raises(ValueError, match="keeps no cache"):
        paper.selective_sampling_real_records("mnist", quick=True, cache=str(tmp_path))
    with pytest.raises(ValueError, match="name must be one of"):
        paper.selective_sampling_real_records("usps", quick=True)
    assert "fashion-mnist" in paper.TASKS  # its loader joins common.LOADERS when it exists
    assert set(paper.real_data_sets()) == set(paper.TASKS) & set(common.LOADERS)


def test_the_command_runs_on_a_data_file(tmp_path):
    X, y, _ = make_separable(150, 4, margin=0.05, seed=2)
    path = tmp_path / "data.npz"
    np.savez(path, X=X, y=y)
    assert main(["figure", "selective-sampling", "--quick", "--data", str(path), "--seeds", "1",
                 "--out", str(tmp_path)]) == 0
    assert (tmp_path / "selective-sampling.png").stat().st_size > 0


def test_the_run_command_prints_the_labels_asked_for(capsys):
    assert main(["run", "--algorithm", "selective_perceptron", "--param", "b=0.5",
                 "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "labels asked:  " in out and "per trial)" in out.split("labels asked:")[1]
    assert main(["run", "--algorithm", "selective_perceptron", "--seed", "3", "--json"]) == 0
    assert '"queried": ' in capsys.readouterr().out
    assert main(["run", "--algorithm", "perceptron"]) == 0
    assert "labels asked" not in capsys.readouterr().out
