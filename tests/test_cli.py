"""The command line: help and version, run (held-out error), compare's shared options, CSV
options, suggestions for unknown names, one-line errors with exit code 2."""

import importlib.metadata
import json
import math
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest
from conftest import noisy_separable
from sklearn.datasets import dump_svmlight_file

import perceptron_bounds
from perceptron_bounds import run_online
from perceptron_bounds.algorithms import available, get
from perceptron_bounds.bounds import evaluate
from perceptron_bounds.cli import COMMANDS, build_parser, main
from perceptron_bounds.cli._common import BUILTIN_DATA
from perceptron_bounds.datasets import make_separable

PACKAGE = pathlib.Path(perceptron_bounds.__file__).parent
# What the errors list: every registered algorithm, and their parameters in that order.
ALGORITHMS = ", ".join(available())
PARAMETERS = ", ".join(dict.fromkeys(key for name in available() for key in get(name).defaults))


def error_of(argv, capsys):
    """The error of a command that fails: exit code 2 (from main or argparse), one line."""
    try:
        code = main(argv)
    except SystemExit as exit_info:
        code = exit_info.code
    assert code == 2
    return one_line_error(capsys)


def one_line_error(capsys, prefix="perceptron-bounds"):
    """The error printed by a failed command: one line starting with the program's name."""
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(prefix), err
    assert "Traceback" not in err
    return err.strip()


# --- the package and the parser -------------------------------------------------------------


def test_commands_are_one_module_each_and_nothing_imports_the_cli():
    assert list(COMMANDS) == ["run", "algorithms", "compare", "figure", "table", "atlas",
                              "demo", "data"]
    for name, module in COMMANDS.items():
        assert module.__name__ == f"perceptron_bounds.cli.{name}"
    assert not (PACKAGE / "bounds" / "cli.py").exists()
    assert not (PACKAGE / "experiments" / "cli.py").exists()
    importers = [
        str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
        if "cli" not in path.relative_to(PACKAGE).parts and path.name != "__main__.py"
        and re.search(r"^\s*(from|import)\s+(\.+|perceptron_bounds\.)cli\b", path.read_text(),
                      re.M)
    ]
    assert importers == []


@pytest.mark.parametrize("command", list(COMMANDS))
def test_help_works_for_every_subcommand(command, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: perceptron-bounds {command}")
    assert "%%" not in out  # argparse does not %-format descriptions


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == f"perceptron-bounds {perceptron_bounds.__version__}\n"
    assert perceptron_bounds.__version__ == importlib.metadata.version("perceptron_bounds")


def test_python_dash_m_runs_the_command_line():
    result = subprocess.run([sys.executable, "-m", "perceptron_bounds", "--version"],
                            capture_output=True, text=True, check=True)
    assert result.stdout == f"perceptron-bounds {perceptron_bounds.__version__}\n"
    result = subprocess.run([sys.executable, "-m", "perceptron_bounds", "run",
                             "--algorithm", "nope"], capture_output=True, text=True)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        "perceptron-bounds run: error: argument --algorithm: unknown algorithm 'nope' (choose "
        f"from {ALGORITHMS}) (see perceptron-bounds run --help)\n"
    )


# --- run ----------------------------------------------------------------------------------


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


def test_run_on_builtin_data_prints_every_line(capsys):
    assert main(["run", "--algorithm", "perceptron", "--shuffle", "--seed", "3"]) == 0
    X, y, _ = make_separable(**BUILTIN_DATA)
    run = run_online("perceptron", X, y, shuffle=True, seed=3)
    assert capsys.readouterr().out.splitlines() == [
        "data:          built-in make_separable(n_samples=2000, n_features=20, margin=0.05, "
        "label_noise=0.05, seed=0): 2000 samples, 20 features",
        "algorithm:     perceptron(kernel='linear', degree=3, gamma=0.05, coef0=1.0, "
        "form='primal')",
        "labels:        -1.0 -> -1, 1.0 -> +1",
        "trials:        2000 (1 epoch(s), shuffled, seed 3)",
        f"mistakes:      {run.mistakes} ({run.mistakes / 2000:.4f} per trial)",
        "margin errors: 0",
    ]


def test_run_json_without_held_out_data(files, capsys):
    X, y, paths = files
    assert main(["run", "--algorithm", "voted_perceptron", "--data", str(paths["csv"]),
                 "--epochs", "3", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    run = run_online("voted_perceptron", X, y, epochs=3)
    assert record["held_out"] is None
    assert record["classes"] == [-1.0, 1.0]
    assert (record["data"], record["mistakes"], record["n_trials"]) == (
        str(paths["csv"]), run.mistakes, 150)


def test_run_test_fraction_holds_out_the_last_rows(capsys):
    X, y, _ = make_separable(**BUILTIN_DATA)
    argv = ["run", "--algorithm", "perceptron", "--epochs", "2", "--test-fraction", "0.25"]
    assert main(argv) == 0
    run = run_online("perceptron", X[:1500], y[:1500], epochs=2)
    errors = int(np.sum(run.predict(X[1500:]) != y[1500:]))
    assert 0 < errors < 100  # a learnt hypothesis, not a constant one
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith(": 2000 samples, 20 features")
    assert lines[1] == "held out:      the last 500 of 2000 rows (--test-fraction 0.25)"
    assert lines[4] == "trials:        3000 (2 epoch(s), in order)"
    assert lines[5].startswith(f"mistakes:      {run.mistakes} ")
    assert lines[-1] == f"test error:    {errors / 500:.4f} ({errors} of 500 held-out samples)"
    assert main([*argv, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["mistakes"] == run.mistakes and record["n_trials"] == 3000
    assert record["held_out"] == {
        "source": "the last 500 of 2000 rows (--test-fraction 0.25)", "n_samples": 500,
        "errors": errors, "error": errors / 500,
    }


def test_run_test_fraction_rounds_the_held_out_rows_up(capsys):
    assert main(["run", "--algorithm", "perceptron", "--test-fraction", "0.0001", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["held_out"]["n_samples"] == math.ceil(0.0001 * 2000) == 1
    assert record["n_trials"] == 1999


def test_run_test_file_with_string_labels(tmp_path, capsys):
    X, y, _ = make_separable(300, 4, margin=0.05, label_noise=0.05, seed=7)
    words = np.where(y > 0, "spam", "ham")
    train, test = tmp_path / "train.csv", tmp_path / "test.csv"
    for path, rows in ((train, slice(0, 200)), (test, slice(200, 300))):
        lines = [";".join([w, *map(repr, map(float, x))]) for w, x in zip(words[rows], X[rows],
                                                                          strict=True)]
        path.write_text("label;a;b;c;d\n" + "\n".join(lines) + "\n")
    argv = ["run", "--algorithm", "second_order", "--data", str(train), "--test", str(test),
            "--label-column", "first", "--shuffle", "--seed", "1", "--json"]
    assert main(argv) == 0
    record = json.loads(capsys.readouterr().out)
    run = run_online("second_order", X[:200], words[:200], shuffle=True, seed=1)
    errors = int(np.sum(run.predict(X[200:]) != words[200:]))
    assert record["classes"] == ["ham", "spam"]
    assert record["mistakes"] == run.mistakes
    assert record["held_out"] == {"source": f"{test}: 100 samples", "n_samples": 100,
                                  "errors": errors, "error": errors / 100}
    assert main(argv[:-1]) == 0
    out = capsys.readouterr().out
    assert "labels:        'ham' -> -1, 'spam' -> +1\n" in out
    assert f"held out:      {test}: 100 samples\n" in out
    assert out.endswith(f"test error:    {errors / 100:.4f} ({errors} of 100 held-out samples)\n")


def test_run_svmlight_test_file_with_fewer_features_is_padded(tmp_path, capsys):
    X, y, _ = make_separable(80, 5, seed=3)
    X_test = X[60:].copy()
    X_test[:, 3:] = 0.0  # an svmlight file that never names features 4 and 5
    train, test = tmp_path / "train.svm", tmp_path / "test.svm"
    dump_svmlight_file(X[:60], y[:60], str(train))
    dump_svmlight_file(X_test, y[60:], str(test))
    assert main(["run", "--algorithm", "perceptron", "--data", str(train), "--test", str(test),
                 "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    run = run_online("perceptron", X[:60], y[:60])
    assert record["held_out"]["errors"] == int(np.sum(run.predict(X_test) != y[60:]))


# --- compare shares run's options ---------------------------------------------------------


def test_compare_param_goes_to_the_algorithms_that_take_it(capsys):
    argv = ["compare", "--algorithms", "perceptron,higher_order,pnorm",
            "--param", "p=4", "--epochs", "2", "--shuffle", "--seed", "5", "--json"]
    assert main(argv) == 0
    payload = json.loads(capsys.readouterr().out)
    assert (payload["params"], payload["epochs"], payload["shuffle"], payload["seed"]) == (
        {"p": 4}, 2, True, 5)
    X, y, _ = make_separable(**BUILTIN_DATA)
    for report, (name, params) in zip(payload["reports"], [
            ("perceptron", {}), ("higher_order", {"p": 4}), ("pnorm", {"p": 4})],
            strict=True):
        run = run_online(name, X, y, epochs=2, shuffle=True, seed=5, **params)
        assert report["algorithm"] == name
        assert report["params"] == json.loads(json.dumps(run.params, default=str))
        assert report["mistakes"] == run.mistakes
    assert payload["reports"][1]["params"]["p"] == 4.0
    assert "p" not in payload["reports"][0]["params"]


def test_compare_text_names_the_params_and_the_sequence(capsys):
    argv = ["compare", "--algorithms", "perceptron,ballseptron", "--param", "r=0.2",
            "--param", "kernel=linear", "--shuffle", "--seed", "2"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("; 1 epoch(s), shuffled, seed 2")
    assert lines[1] == "param: r=0.2 for ballseptron"
    assert lines[2] == "param: kernel='linear' for perceptron, ballseptron"
    assert lines[3].split()[:6] == ["algorithm", "mistakes", "bound", "variant", "value",
                                    "margin_gamma"]


def test_compare_shuffles_every_algorithm_alike_without_a_seed(capsys):
    argv = ["compare", "--algorithms", "perceptron,voted_perceptron", "--shuffle", "--json"]
    assert main(argv) == 0
    payload = json.loads(capsys.readouterr().out)
    seed = payload["seed"]
    assert isinstance(seed, int)
    X, y, _ = make_separable(**BUILTIN_DATA)
    for report in payload["reports"]:  # the voted Perceptron's mistakes are the Perceptron's
        assert report["mistakes"] == run_online("perceptron", X, y, shuffle=True,
                                                seed=seed).mistakes


def test_compare_json_names_the_kernel_gamma_and_the_margin_gamma_apart(tmp_path, capsys):
    X, y, u = make_separable(60, 3, margin=0.1, label_noise=0.0, seed=1)
    path = tmp_path / "d.npz"
    np.savez(path, X=X, y=y, u=u)
    argv = ["compare", "--data", str(path), "--algorithms", "perceptron", "--gamma", "0.05",
            "--json"]
    assert main(argv) == 0
    payload = json.loads(capsys.readouterr().out)
    report = payload["reports"][0]
    assert payload["margin_gamma"] == 0.05 and "gamma" not in payload
    assert report["params"]["gamma"] == pytest.approx(1 / 3)  # the kernel's (unused, linear)
    run = run_online("perceptron", X, y)
    expected = evaluate(run, X, y, gamma=0.05, target=u)
    assert [b["name"] for b in report["bounds"]] == [row.name for row in expected.rows]
    for record, row in zip(report["bounds"], expected.rows, strict=True):
        assert "gamma" not in record
        assert record["margin_gamma"] == (0.05 if row.applies else row.gamma)


# --- CSV options on the command line ------------------------------------------------------


def test_csv_options_reach_the_loader(tmp_path, capsys):
    X, y = noisy_separable(n_samples=40, n_features=2, noise=0.1, seed=4)
    path = tmp_path / "d.csv"
    path.write_text("".join(f"{'yes' if t > 0 else 'no'}|{a!r}|{b!r}\n"
                            for t, (a, b) in zip(y, X.tolist(), strict=True)))
    for command in (["run", "--algorithm", "perceptron"], ["compare", "--algorithms",
                                                           "perceptron"]):
        argv = [*command, "--data", str(path), "--label-column", "0", "--delimiter", "|",
                "--json"]
        assert main(argv) == 0
        out = json.loads(capsys.readouterr().out)
        mistakes = out["mistakes"] if command[0] == "run" else out["reports"][0]["mistakes"]
        assert mistakes == run_online("perceptron", X, y).mistakes


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--label-column", "frist"], "perceptron-bounds run: error: argument --label-column: "
         "expected first, last or a column index, got 'frist'; did you mean 'first'? "
         "(see perceptron-bounds run --help)"),
        (["--label-column", "first"], "perceptron-bounds run: error: --label-column and "
         "--delimiter describe a CSV file: give --data FILE"),
        (["--data", "{npz}", "--delimiter", ";"], "perceptron-bounds run: error: {npz}: "
         "delimiter applies to .csv files only"),
        (["--data", "{csv}", "--label-column", "7"], "perceptron-bounds run: error: {csv}: "
         "label column 7 is out of range for 4 columns (0..3, or -4..-1 from the end)"),
        (["--data", "{csv}", "--delimiter", "tabs"], "perceptron-bounds run: error: delimiter "
         "must be one character that cannot occur in a number (not a letter, digit, sign, "
         "point, quote or #), or one of 'comma', 'semicolon', 'tab', 'space', 'whitespace'; "
         "got 'tabs'; did you mean 'tab'?"),
    ],
)
def test_csv_option_errors(files, argv, message, capsys):
    _, _, paths = files
    argv = [arg.format(npz=paths["npz"], csv=paths["csv"]) for arg in argv]
    error = error_of(["run", "--algorithm", "perceptron", *argv], capsys)
    assert error == message.format(npz=paths["npz"], csv=paths["csv"])


# --- errors: one line, exit code 2, the closest name suggested ------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["rn"], "perceptron-bounds: error: unknown command 'rn'; did you mean 'run'? (choose "
         "from run, algorithms, compare, figure, table, atlas, demo, data) (see perceptron-bounds "
         "--help)"),
        (["--version2"], "perceptron-bounds: error: the following arguments are required: "
         "COMMAND (see perceptron-bounds --help)"),
        (["run", "--algorithm", "perceptorn"], "perceptron-bounds run: error: argument "
         "--algorithm: unknown algorithm 'perceptorn'; did you mean 'perceptron'? (choose from "
         f"{ALGORITHMS}) (see perceptron-bounds run --help)"),
        (["run"], "perceptron-bounds run: error: the following arguments are required: "
         "--algorithm (see perceptron-bounds run --help)"),
        (["run", "--algorithm", "perceptron", "--param", "kernal=rbf"], "perceptron-bounds "
         "run: error: --param kernal: perceptron takes no parameter 'kernal'; did you mean "
         "'kernel'? (known: kernel, degree, gamma, coef0, form)"),
        (["run", "--algorithm", "perceptron", "--param", "kernel=rbg"], "perceptron-bounds "
         "run: error: kernel must be one of 'linear', 'poly', 'rbf', got 'rbg'; did you mean "
         "'rbf'?"),
        (["run", "--algorithm", "perceptron", "--param", "nonsense"], "perceptron-bounds run: "
         "error: --param expects NAME=VALUE, got 'nonsense'"),
        (["run", "--algorithm", "perceptron", "--epochs", "x"], "perceptron-bounds run: error: "
         "argument --epochs: invalid int value: 'x' (see perceptron-bounds run --help)"),
        (["run", "--algorithm", "perceptron", "--test-fraction", "1"], "perceptron-bounds run: "
         "error: argument --test-fraction: expected a number in (0, 1), got '1' (see "
         "perceptron-bounds run --help)"),
        (["run", "--algorithm", "perceptron", "--test-fraction", "nan"], "perceptron-bounds "
         "run: error: argument --test-fraction: expected a number in (0, 1), got 'nan' (see "
         "perceptron-bounds run --help)"),
        (["run", "--algorithm", "perceptron", "--test-fraction", "0.5", "--test", "t.csv"],
         "perceptron-bounds run: error: argument --test: not allowed with argument "
         "--test-fraction (see perceptron-bounds run --help)"),
        (["run", "--algorithm", "perceptron", "--test-fraction", "0.99999"],
         "perceptron-bounds run: error: --test-fraction 0.99999 of 2000 samples leaves no "
         "training rows"),
        (["compare", "--param", "q=1"], "perceptron-bounds compare: error: --param q: no "
         f"algorithm among {ALGORITHMS} takes a parameter 'q' (known: {PARAMETERS})"),
        (["compare", "--algorithms", "perceptron", "--param", "r=0.1"], "perceptron-bounds "
         "compare: error: --param r: perceptron takes no parameter 'r' (known: kernel, degree, "
         "gamma, coef0, form)"),
        (["compare", "--algorithms", "perceptron,ballseptorn"], "perceptron-bounds compare: "
         "error: --algorithms: unknown ballseptorn; did you mean 'ballseptron'? (choose from "
         f"{ALGORITHMS})"),
        (["compare", "--comparator", "svn"], "perceptron-bounds compare: error: argument "
         "--comparator: unknown comparator 'svn'; did you mean 'svm'? (choose from auto, "
         "target, svm) (see perceptron-bounds compare --help)"),
        (["compare", "--seed", "-1"], "perceptron-bounds compare: error: seed must be"),
        (["figure", "sop-tyo"], "perceptron-bounds figure: error: argument NAME: unknown "
         "figure 'sop-tyo'; did you mean 'sop-toy'? (choose from hop-fig2, ballseptron-noise, "
         "ballseptron-radius, sop-toy, selective-sampling, tracking, fs-mnist, bounds-mnist, "
         "budget-mnist, tracking-mnist, all) (see perceptron-bounds figure --help)"),
        (["run", "--algorithm", "perceptron", "--data", "missing.npz"], "perceptron-bounds run: "
         "error: missing.npz: no such file"),
        (["run", "--algorithm", "perceptron", "--epochs", "0", "--data", "missing.npz"],
         "perceptron-bounds run: error: --epochs must be >= 1, got 0"),
        (["compare", "--epochs", "-1", "--data", "missing.npz"],
         "perceptron-bounds compare: error: --epochs must be >= 1, got -1"),
        (["run", "--algorithm", "perceptron", "--epochs", str(10**20)], "perceptron-bounds "
         "run: error: the arguments ask for too much"),
    ],
)
def test_bad_arguments_end_in_one_line_and_exit_2(argv, message, capsys):
    assert error_of(argv, capsys).startswith(message)


def test_argparse_errors_exit_with_code_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["run", "--algorithm", "perceptorn"])
    assert exit_info.value.code == 2


def test_test_file_errors(files, tmp_path, capsys):
    X, y, paths = files
    other = tmp_path / "other.npz"
    np.savez(other, X=X[:, :2], y=y)
    argv = ["run", "--algorithm", "perceptron", "--data", str(paths["npz"]), "--test", str(other)]
    assert error_of(argv, capsys) == (f"perceptron-bounds run: error: --test {other}: 2 "
                                      "features, but the training data have 3")
    np.savez(other, X=X, y=np.where(y > 0, 1, 0))
    assert error_of(argv, capsys) == (f"perceptron-bounds run: error: --test {other}: label(s) "
                                      "0 not among the training labels -1.0, 1.0")


def test_build_parser_is_the_parser_main_uses(capsys):
    args = build_parser().parse_args(["compare", "--param", "p=4", "--shuffle"])
    assert (args.command, args.param, args.shuffle, args.epochs) == ("compare", ["p=4"], True, 1)


def test_compare_shows_each_note_once(capsys):
    """The same notes were repeated under every algorithm's name."""
    assert main(["compare", "--algorithms", "perceptron,second_order,higher_order"]) == 0
    out = capsys.readouterr().out
    notes = out.split("notes:\n", 1)[1].splitlines()
    assert notes == ["  u: the data's target (scaled to unit norm)"]


def test_run_on_drifting_data_with_its_options(capsys):
    from perceptron_bounds.datasets import make_drifting

    assert main(["run", "--algorithm", "perceptron", "--data", "drifting", "--n-shifts", "4",
                 "--drift", "gradual"]) == 0
    out = capsys.readouterr().out.splitlines()
    X, y, _ = make_drifting(2000, 20, n_shifts=4, drift="gradual", margin=0.05, seed=0)
    run = run_online("perceptron", X, y)
    assert out[0] == ("data:          make_drifting(margin=0.05, label_noise=0.0, seed=0, "
                      "n_shifts=4, drift='gradual'): 2000 samples, 20 features")
    assert f"mistakes:      {run.mistakes} " in "\n".join(out)


@pytest.mark.parametrize("argv, message", [
    (["--n-shifts", "3"], "--n-shifts shapes --data drifting, not the built-in data"),
    (["--data", "drifting", "--n-shifts", "2000"], "--data drifting: n_shifts must be in"),
    (["--data", "drifting", "--drift", "sudden"], "unknown drift 'sudden'"),
])
def test_drifting_options_one_line_errors(argv, message, capsys):
    try:  # argparse's own errors exit; the command's return 2
        code = main(["run", "--algorithm", "perceptron", *argv])
    except SystemExit as exit_info:
        code = exit_info.code
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_compare_on_drifting_data_reports_shifting_bounds(capsys):
    assert main(["compare", "--data", "drifting", "--n-shifts", "3", "--algorithms",
                 "perceptron,shifting_perceptron,romma", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    names = {report["algorithm"]: {row["name"] for row in report["bounds"]}
             for report in payload["reports"]}
    assert {"perceptron_shifting", "perceptron_shifting_reached"} <= names["perceptron"]
    assert "shifting_perceptron_tracking" in names["shifting_perceptron"]
    assert "tracking" in names["romma"]
    for report in payload["reports"]:
        for row in report["bounds"]:
            assert row["holds"] in (True, None)
    assert main(["compare", "--algorithms", "perceptron", "--pieces", "2"]) == 0
    assert "perceptron_shifting" in capsys.readouterr().out


def test_every_seed_a_randomized_run_draws_is_printed(capsys):
    """Issue 31, item 9: run of a randomized algorithm gave 71 then 82 mistakes and no seed."""
    argv = ["run", "--algorithm", "randomized_budget_perceptron", "--param", "budget=5"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    found = re.search(r"in order, seed (\d+) of the random draws \(drawn from the OS: --seed "
                      r"(\d+) replays it\)", out)
    assert found and found[1] == found[2], out
    mistakes = re.search(r"mistakes: +(\d+)", out)[1]
    assert main([*argv, "--seed", found[1]]) == 0
    replayed = capsys.readouterr().out
    assert re.search(r"mistakes: +(\d+)", replayed)[1] == mistakes
    assert f"seed {found[1]} of the random draws)" in replayed  # given: no origin


def test_the_main_job_prints_the_same_table_on_every_run_with_its_seed(capsys):
    """Issue 31, item 9: compare's mistakes changed from run to run (231, 252, 267)."""
    argv = ["compare", "--algorithms", "perceptron,selective_perceptron,"
            "randomized_budget_perceptron", "--param", "budget=20"]
    outputs = []
    for _ in range(2):
        assert main(argv) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert "in order, seed 0 of the random draws (the default --seed)" in outputs[0]


def test_compare_prints_each_run_as_it_is_done_in_the_table_printed_at_once(capsys,
                                                                              monkeypatch):
    """Issue 32: a cold compare printed nothing until every loop had compiled. Each run's
    rows now come when it is done, in fixed columns: the table of format_table."""
    from perceptron_bounds.cli import compare

    printed, reports = [], []

    def running(name, *args, **kwargs):
        printed.append(capsys.readouterr().out)  # what was on stdout when the run began
        return run_online(name, *args, **kwargs)

    def evaluating(*args, **kwargs):
        reports.append(evaluate(*args, **kwargs))
        return reports[-1]

    monkeypatch.setattr(compare, "run_online", running)
    monkeypatch.setattr(compare, "evaluate", evaluating)
    assert main(["compare", "--algorithms", "perceptron,romma,ballseptron"]) == 0
    printed.append(capsys.readouterr().out)
    assert printed[0] == ""
    first = printed[1].splitlines()
    assert first[0].startswith("data: built-in make_separable(")
    assert first[1].split() == list(compare.COLUMNS)
    assert first[2:] and all(line.startswith("perceptron   ") for line in first[2:])
    assert printed[2].split() == ["romma", "322", *"------"]  # no bound applies on noisy data
    assert "".join(printed).split("\n", 1)[1] == compare.format_table(reports) + "\n"
