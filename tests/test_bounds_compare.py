"""The ``compare`` command and the mistakes_vs_bounds plot."""

import json
import re

import matplotlib
import numpy as np
import pytest

from perceptron_bounds import run_online
from perceptron_bounds.algorithms import available
from perceptron_bounds.bounds import BoundReport, evaluate
from perceptron_bounds.cli import main
from perceptron_bounds.cli.compare import format_table
from perceptron_bounds.datasets import make_separable
from perceptron_bounds.plots import mistakes_vs_bounds

matplotlib.use("Agg")


def test_compare_on_builtin_data_lists_every_algorithm(capsys):
    assert main(["compare"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("data: built-in make_separable(")
    header = out.splitlines()[1].split()
    assert header[:4] == ["algorithm", "mistakes", "bound", "variant"]
    for name in available():
        assert f"\n{name} " in out
    assert "freund_schapire" in out and "second_order" in out and "higher_order" in out
    assert "not applicable:" in out and "novikoff" in out
    assert " NO" not in out


def test_compare_json_for_scripts(tmp_path, capsys):
    X, y, u = make_separable(150, 4, margin=0.1, label_noise=0.05, seed=2)
    path = tmp_path / "d.npz"
    np.savez(path, X=X, y=np.where(y > 0, 1, 0), u=u)
    argv = ["compare", "--data", str(path), "--algorithms", "perceptron, ballseptron",
            "--epochs", "2", "--gamma", "0.05", "--json"]
    assert main(argv) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["epochs"] == 2 and payload["margin_gamma"] == 0.05
    assert [r["algorithm"] for r in payload["reports"]] == ["perceptron", "ballseptron"]
    run = run_online("perceptron", X, y, epochs=2)
    expected = evaluate(run, X, y, gamma=0.05, target=u).to_records()
    got = payload["reports"][0]["bounds"]
    assert [b["name"] for b in got] == [r["name"] for r in expected]
    for a, b in zip(got, expected, strict=True):
        assert a["applies"] == b["applies"]
        if a["applies"]:
            assert a["value"] == pytest.approx(b["value"]) and a["margin_gamma"] == 0.05


def test_compare_with_svm_comparator_on_data_without_target(tmp_path, capsys):
    X, y, _ = make_separable(120, 3, margin=0.1, label_noise=0.1, seed=3)
    path = tmp_path / "d.csv"
    np.savetxt(path, np.column_stack([X, y]), delimiter=",")
    assert main(["compare", "--data", str(path), "--algorithms", "second_order"]) == 0
    out = capsys.readouterr().out
    assert "svm" in out.lower() and "second_order" in out


@pytest.mark.parametrize("argv, message", [
    (["compare", "--algorithms", "perceptron,nope"], "unknown nope"),
    (["compare", "--algorithms", ","], "empty list"),
    (["compare", "--epochs", "0"], "--epochs"),
    (["compare", "--gamma", "-1"], "--gamma"),
    (["compare", "--gamma", "inf"], "--gamma must be a finite number"),
])
def test_compare_bad_arguments_exit_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_compare_target_comparator_needs_a_target(tmp_path, capsys):
    path = tmp_path / "d.npz"
    X, y, _ = make_separable(50, 3, seed=4)
    np.savez(path, X=X, y=y)
    assert main(["compare", "--data", str(path), "--comparator", "target"]) == 2
    err = capsys.readouterr().err
    assert "--comparator target needs data with a known target" in err
    assert len(err.strip().splitlines()) == 1


def test_format_table_lists_inapplicable_bounds_and_runs_without_bounds():
    X, y, u = make_separable(60, 3, seed=5)
    first = run_online("pnorm", X, y, p=3.0)
    report = evaluate(run_online("pnorm", X, y, p=3.0, warm_start=first), X, y,
                      target=u)
    text = format_table([report])
    assert "not applicable:\n  pnorm pnorm_separable (stated): a warm-started" in text
    bare = BoundReport("pnorm", {"p": 3.0}, 60, 4, 0, (), ("no bound",))
    assert "pnorm      4         -" in format_table([bare])


def test_compare_lists_the_p_norm_bounds(capsys):
    """``compare --param p=4`` bounds the p-norm Perceptron and HO_4 (theory §4.1)."""
    assert main(["compare", "--algorithms", "pnorm,higher_order", "--param", "p=4",
                 "--epochs", "2"]) == 0
    out = capsys.readouterr().out
    table = out.split("not applicable:")[0]
    for name in ("pnorm_d2", "pnorm_d1", "higher_order"):
        for variant in ("stated", "tightened"):
            assert re.search(rf"\n(pnorm|higher_order) +\d+ +{name} +{variant} ", table)
    assert "p = 2" not in out and " NO" not in out
    assert "unit q-norm, q = p/(p - 1) = 1.33333" in out


def test_mistakes_vs_bounds_smoke():
    X, y, u = make_separable(200, 5, margin=0.05, label_noise=0.05, seed=6)
    reports = [evaluate(run_online(a, X, y, epochs=2), X, y, target=u)
               for a in ("perceptron", "ballseptron", "second_order", "higher_order")]
    ax = mistakes_vs_bounds(reports)
    assert ax.get_yscale() == "log"
    assert [t.get_text() for t in ax.get_xticklabels()] == [r.algorithm for r in reports]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "mistakes" in legend and "freund_schapire" in legend and "stated (filled)" in legend
    n_points = sum(r.applies for rep in reports for r in rep.rows)
    assert len(ax.lines) == n_points
    from matplotlib.figure import Figure

    own = Figure().subplots()
    assert mistakes_vs_bounds(reports[:1], own, labels=["FO"]) is own
    with pytest.raises(ValueError, match="labels"):
        mistakes_vs_bounds(reports, labels=["one"])
    with pytest.raises(ValueError, match="no reports"):
        mistakes_vs_bounds([])


def test_mistakes_vs_bounds_draws_what_a_one_vs_rest_report_bounds():
    """The summed one-vs-rest rows bound the corrections, not the multiclass mistakes."""
    from sklearn.datasets import load_digits

    X, y = load_digits(n_class=4, return_X_y=True)
    X = X[:200] / 16.0
    y = y[:200]
    run = run_online("perceptron", X, y, epochs=2)
    report = evaluate(run, X, y)
    ax = mistakes_vs_bounds([report])
    drawn = ax.collections[0].get_segments()[0][0][1]  # the black line's height
    assert run.corrections > run.mistakes
    assert drawn == run.corrections
    assert ax.get_legend_handles_labels()[1][0] == "mistakes (one-vs-rest: corrections)"
