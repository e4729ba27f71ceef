"""The ``figure`` subcommand: files written, quiet off a terminal, errors in one line."""

import csv
import sys

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from perceptron_bounds.cli import main  # noqa: E402
from perceptron_bounds.datasets import make_separable  # noqa: E402
from perceptron_bounds.experiments import radius_curve  # noqa: E402
from perceptron_bounds.papers import FIGURES  # noqa: E402


def test_figure_all_quick_writes_png_pdf_csv(tmp_path, capsys):
    assert main(["figure", "all", "--quick", "--out", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert err == ""  # no progress bar when stderr is not a terminal
    for name in FIGURES:
        for suffix in ("png", "pdf", "csv"):
            path = tmp_path / f"{name}.{suffix}"
            assert path.stat().st_size > 0
            assert str(path) in out
        with open(tmp_path / f"{name}.csv", newline="") as handle:
            rows = list(csv.DictReader(handle))
        assert rows and all(row["figure"] == name for row in rows)
    assert (tmp_path / "hop-fig2.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "sop-toy.pdf").read_bytes()[:5] == b"%PDF-"


def test_figure_seeds_and_n_jobs_do_not_change_the_data(tmp_path):
    serial, parallel = tmp_path / "serial", tmp_path / "parallel"
    common = ["figure", "ballseptron-radius", "--quick", "--seeds", "3"]
    assert main([*common, "--out", str(serial)]) == 0
    assert main([*common, "--n-jobs", "2", "--out", str(parallel)]) == 0
    text = (serial / "ballseptron-radius.csv").read_text()
    assert text == (parallel / "ballseptron-radius.csv").read_text()
    assert {row["seed"] for row in csv.DictReader(text.splitlines())} == {"0", "1", "2"}


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--seeds", "0"], "--seeds must be in"), (["--n-jobs", "0"], "--n-jobs must be a nonzero")],
)
def test_figure_bad_arguments_one_line(tmp_path, capsys, args, message):
    assert main(["figure", "sop-toy", "--quick", "--out", str(tmp_path), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_progress_bar_on_request(capsys):
    data = make_separable(100, 3, seed=0)
    radius_curve([0.0, 0.1], data, progress=True)
    assert "radius_curve" in capsys.readouterr().err


def test_figure_shows_a_progress_bar_on_a_terminal(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["figure", "sop-toy", "--quick", "--out", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "sop_toy" in err and "100%" in err


@pytest.mark.parametrize(("seeds", "error"), [(0, ValueError), (1.5, TypeError), (True, TypeError)])
def test_figure_functions_check_seeds_before_running(seeds, error):
    for figure in FIGURES.values():
        with pytest.raises(error, match="seeds must be"):
            figure(seeds=seeds, quick=True)


def test_figure_checks_the_output_directory_before_running(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(FIGURES, "sop-toy", lambda **kw: pytest.fail("the figure ran"))
    taken = tmp_path / "a_file"
    taken.write_text("")
    assert main(["figure", "sop-toy", "--quick", "--out", str(taken)]) == 2
    err = capsys.readouterr().err
    assert "a_file" in err and err.count("\n") == 1


def test_figure_radii_sets_the_ballseptron_radii(tmp_path, capsys):
    import numpy as np

    X, y, _ = make_separable(80, 3, margin=0.05, seed=2)
    data = tmp_path / "points.csv"
    np.savetxt(data, np.column_stack([30.0 * X, y]), delimiter=",")
    argv = ["figure", "ballseptron-radius", "--quick", "--seeds", "1", "--data", str(data),
            "--out", str(tmp_path)]
    assert main([*argv, "--radii", "0,2.5,7"]) == 0
    with open(tmp_path / "ballseptron-radius.csv", newline="") as handle:
        assert sorted({float(row["r"]) for row in csv.DictReader(handle)}) == [0.0, 2.5, 7.0]
    capsys.readouterr()
    for bad, message in ((["--radii", "0,-1"], "--radii must be comma-separated numbers >= 0"),
                         (["--radii", "a"], "--radii must be comma-separated numbers >= 0")):
        assert main([*argv, *bad]) == 2
        assert message in capsys.readouterr().err
    assert main(["figure", "sop-toy", "--quick", "--radii", "0,1", "--out", str(tmp_path)]) == 2
    assert "--radii: only ballseptron-radius takes it" in capsys.readouterr().err
