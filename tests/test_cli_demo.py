"""``perceptron-bounds demo``: the animation of one algorithm on 2-D data, its path printed;
bad arguments end in one line and exit code 2, before any work."""

import shutil

import numpy as np
import pytest
from PIL import Image

from perceptron_bounds import run_online
from perceptron_bounds.cli import COMMANDS, main
from perceptron_bounds.cli.demo import DEMO_DATA, DEMO_SEED
from perceptron_bounds.datasets import make_separable


def _error(argv, capsys):
    try:
        code = main(argv)
    except SystemExit as exit_info:
        code = exit_info.code
    assert code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_demo_is_a_command():
    assert COMMANDS["demo"].__name__ == "perceptron_bounds.cli.demo"


def test_gif_of_the_built_in_data(tmp_path, capsys):
    out = tmp_path / "demo.gif"
    assert main(["demo", "perceptron", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(f"{out}: perceptron(") and printed.count("\n") == 1
    X, y, _ = make_separable(**DEMO_DATA, seed=DEMO_SEED)
    run = run_online("perceptron", X, y, epochs=2)
    assert f"{run.n_updates} updates in {run.n_trials} trials; {run.n_updates + 1} frames" \
        in printed
    with Image.open(out) as gif:
        assert gif.n_frames == run.n_updates + 1


def test_html_per_trial_with_noise_and_params(tmp_path, capsys):
    out = tmp_path / "demo.html"
    argv = ["demo", "ballseptron", "--param", "r=0.05", "--noise", "0.1", "--seed", "3",
            "--epochs", "1", "--per", "trial", "--out", str(out)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    X, y, _ = make_separable(**DEMO_DATA, label_noise=0.1, seed=3)
    run = run_online("ballseptron", X, y, r=0.05)
    assert "label_noise=0.1, seed=3" in printed and f"{run.n_trials} frames" in printed
    html = out.read_text(encoding="utf-8")
    assert html.count("data:image/png;base64") == run.n_trials
    assert "http://" not in html and "https://" not in html  # the player works offline


def test_kernel_run_and_a_data_file_with_a_bias_column(tmp_path, capsys):
    X, y, _ = make_separable(30, 2, margin=0.1, seed=1)
    X = np.column_stack([X + 0.5, np.ones(30)])
    data = tmp_path / "points.csv"
    np.savetxt(data, np.column_stack([X, y]), delimiter=",")
    out = tmp_path / "kernel.gif"
    argv = ["demo", "second_order", "--data", str(data), "--param", "kernel=rbf",
            "--out", str(out)]
    assert main(argv) == 0
    assert f"on {data}:" in capsys.readouterr().out
    assert out.stat().st_size > 1000


@pytest.mark.parametrize("argv, message", [
    (["demo", "perceptrn"], "did you mean 'perceptron'?"),
    (["demo", "perceptron", "--out", "demo.png"], "the file must end in .gif, .mp4, .html"),
    (["demo", "perceptron", "--out", "no/such/folder/demo.gif"], "no folder no/such/folder"),
    (["demo", "perceptron", "--noise", "1.5"], "--noise must be in [0, 1], got 1.5"),
    (["demo", "perceptron", "--param", "r=0.1"], "perceptron takes no parameter 'r'"),
    (["demo", "perceptron", "--epochs", "0"], "--epochs must be >= 1, got 0"),
    (["demo", "perceptron", "--per", "step"], "unknown frame kind 'step'"),
    (["demo", "perceptron", "--delimiter", ";"], "describe a CSV file: give --data FILE"),
    (["demo", "perceptron", "--positive-class", "5"], "--positive-class 5: not among the labels"),
])
def test_bad_arguments(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert message in _error(argv, capsys)
    assert not list(tmp_path.iterdir())  # nothing written


def test_mp4_needs_ffmpeg(tmp_path, capsys):
    out = tmp_path / "demo.mp4"
    if shutil.which("ffmpeg"):
        assert main(["demo", "perceptron", "--out", str(out)]) == 0
        assert out.stat().st_size > 1000
    else:
        assert "writing .mp4 needs ffmpeg" in _error(["demo", "perceptron", "--out", str(out)],
                                                     capsys)


def test_data_errors(tmp_path, capsys):
    wide = tmp_path / "wide.csv"
    X, y, _ = make_separable(20, 4, seed=0)
    np.savetxt(wide, np.column_stack([X, y]), delimiter=",")
    assert "the demo draws 2-D data" in _error(["demo", "perceptron", "--data", str(wide),
                                                 "--out", str(tmp_path / "d.gif")], capsys)
    flat = tmp_path / "flat.csv"
    np.savetxt(flat, np.column_stack([X[:, :3], y]), delimiter=",")
    assert "constant bias feature" in _error(["demo", "perceptron", "--data", str(flat),
                                              "--out", str(tmp_path / "d.gif")], capsys)
    assert "give it without --data" in _error(["demo", "perceptron", "--data", str(flat),
                                               "--noise", "0.1"], capsys)
