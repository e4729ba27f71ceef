"""The command line: every subcommand's help, the run command, one-line errors with exit code 2."""

import subprocess
import sys

import numpy as np
import pytest
from conftest import noisy_separable
from sklearn.datasets import dump_svmlight_file

from perceptron_bounds import run_online
from perceptron_bounds.cli import build_parser, main


def subcommands():
    parser = build_parser()
    return list(parser._subparsers._group_actions[0].choices)


@pytest.mark.parametrize("command", subcommands())
def test_help_works_for_every_subcommand(command, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "usage: perceptron-bounds" in out
    assert "%%" not in out  # argparse does not %-format descriptions


@pytest.fixture
def files(tmp_path):
    X, y = noisy_separable(n_samples=50, n_features=3, noise=0.1, seed=2)
    npz = tmp_path / "data.npz"
    np.savez(npz, X=X, y=y)
    csv = tmp_path / "data.csv"
    np.savetxt(csv, np.column_stack([X, y]), delimiter=",")
    svm = tmp_path / "data.svmlight"
    dump_svmlight_file(X, y, str(svm))
    return X, y, {"npz": npz, "csv": csv, "svmlight": svm}


@pytest.mark.parametrize("kind", ["npz", "csv", "svmlight"])
def test_run_reads_every_format(files, kind, capsys):
    X, y, paths = files
    expected = run_online("ballseptron", X, y, epochs=2, r=0.05)
    code = main(["run", "--algorithm", "ballseptron", "--data", str(paths[kind]),
                 "--epochs", "2", "--param", "r=0.05"])
    out = capsys.readouterr().out
    assert code == 0
    assert f"mistakes:      {expected.mistakes} " in out
    assert f"margin errors: {expected.margin_errors}" in out


def test_run_on_builtin_data(capsys):
    assert main(["run", "--algorithm", "perceptron", "--shuffle", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "built-in make_separable" in out
    assert "shuffled, seed 3" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["run", "--algorithm", "perceptron", "--data", "missing.npz"], "missing.npz"),
        (["run", "--algorithm", "perceptron", "--param", "kernel=sigmoid"], "kernel must be"),
        (["run", "--algorithm", "perceptron", "--param", "nonsense"], "NAME=VALUE"),
        (["run", "--algorithm", "perceptron", "--epochs", "0"], "epochs must be in"),
        (["run", "--algorithm", "perceptron", "--epochs", str(10**20)], "too much"),
    ],
)
def test_bad_arguments_end_in_one_line_and_exit_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_bad_file_content(tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("1,2,a\n3,4,b\n")
    assert main(["run", "--algorithm", "perceptron", "--data", str(bad)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_console_script_runs_as_a_process():
    result = subprocess.run([sys.executable, "-m", "perceptron_bounds.cli", "run",
                             "--algorithm", "nope"], capture_output=True, text=True)
    assert result.returncode == 2
    assert "invalid choice" in result.stderr or "nope" in result.stderr
