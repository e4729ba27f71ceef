"""The command line on multiclass data (issue 11): run and compare, --multiclass ovr|native."""

import csv
import json
import re

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file, load_digits

from perceptron_bounds import run_online
from perceptron_bounds.algorithms import available, get
from perceptron_bounds.bounds import evaluate
from perceptron_bounds.cli import main
from perceptron_bounds.cli.figure import DATA_FIGURES
from perceptron_bounds.datasets import load_data

DIGITS_X, DIGITS_Y = load_digits(return_X_y=True)
X = DIGITS_X[:120] / 16.0
Y = DIGITS_Y[:120] % 3  # three classes
NAMES = np.array(["ant", "bee", "cat"])
# The algorithms with a native multiclass form, as the errors and `compare` list them.
NATIVE = [name for name in available() if get(name).fit_native is not None]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("multiclass")
    svm = folder / "train.svm"
    dump_svmlight_file(X, Y, str(svm), comment="digits % 3")  # the header states the base
    npz = folder / "train.npz"
    np.savez(npz, X=X, y=np.array([3, 5, 7])[Y])  # .npz labels are numbers
    csv = folder / "train.csv"
    rows = [",".join([*(f"{v:g}" for v in row), label]) for row, label in zip(X, NAMES[Y],
                                                                                strict=True)]
    csv.write_text("\n".join(rows) + "\n")
    return {"svm": str(svm), "npz": str(npz), "csv": str(csv)}


def json_of(argv, capsys):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def error_of(argv, capsys):
    try:
        code = main(argv)
    except SystemExit as exit_info:
        code = exit_info.code
    assert code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    return err.strip()


@pytest.mark.parametrize("kind", ["svm", "npz", "csv"])
def test_run_reports_a_one_vs_rest_run(kind, files, capsys):
    record = json_of(["run", "--algorithm", "ballseptron", "--param", "r=0.1", "--data",
                      files[kind], "--epochs", "2"], capsys)
    data, labels, _ = load_data(files[kind])  # as the command reads it
    run = run_online("ballseptron", data, labels, r=0.1, epochs=2)
    assert record["multiclass"] == "ovr" and record["classes"] == run.classes.tolist()
    assert (record["mistakes"], record["corrections"]) == (run.mistakes, run.corrections)
    assert record["margin_errors"] == sum(r.margin_errors for r in run.class_runs) > 0
    shown = labels[run.sample_index[run.mistake_trials]]
    for k, entry in enumerate(record["per_class"]):
        assert entry["class"] == run.classes[k]
        assert entry["mistakes"] == np.count_nonzero(shown == run.classes[k])
        assert entry["class_run_mistakes"] == run.class_runs[k].mistakes
        assert entry["class_run_margin_errors"] == run.class_runs[k].margin_errors
    assert sum(entry["mistakes"] for entry in record["per_class"]) == run.mistakes


def test_run_text_report(files, capsys):
    assert main(["run", "--algorithm", "perceptron", "--data", files["csv"],
                 "--test-fraction", "0.25"]) == 0
    out = capsys.readouterr().out
    run = run_online("perceptron", X[:90], NAMES[Y[:90]])
    errors = np.count_nonzero(run.predict(X[90:]) != NAMES[Y[90:]])
    assert "labels:        3 classes, one-vs-rest: 'ant', 'bee', 'cat'" in out
    assert f"mistakes:      {run.mistakes} (" in out
    assert (f"corrections:   {run.corrections} (binary mistakes summed over the 3 one-vs-rest "
            "runs)") in out
    assert "per class:     'ant' " in out and "class runs:    'ant' " in out
    assert f"test error:    {errors / 30:.4f} ({errors} of 30 held-out samples)" in out


def test_run_native(files, capsys):
    record = json_of(["run", "--algorithm", "perceptron", "--data", files["svm"],
                      "--multiclass", "native", "--shuffle", "--seed", "2"], capsys)
    data, labels, _ = load_data(files["svm"])
    run = run_online("perceptron", data, labels, multiclass="native", shuffle=True, seed=2)
    assert record["multiclass"] == "native"
    assert record["mistakes"] == record["corrections"] == run.mistakes
    assert all("class_run_mistakes" not in entry for entry in record["per_class"])
    assert main(["run", "--algorithm", "perceptron", "--data", files["svm"],
                 "--multiclass", "native"]) == 0
    out = capsys.readouterr().out
    assert "native multiclass" in out and "corrections:" not in out


def test_run_one_vs_rest_on_two_classes(files, capsys):
    binary = json_of(["run", "--algorithm", "perceptron"], capsys)
    assert "multiclass" not in binary
    ovr = json_of(["run", "--algorithm", "perceptron", "--multiclass", "ovr"], capsys)
    assert ovr["multiclass"] == "ovr" and len(ovr["per_class"]) == 2


def test_compare_one_vs_rest(files, capsys):
    payload = json_of(["compare", "--data", files["svm"], "--algorithms",
                       "perceptron,second_order"], capsys)
    data, labels, _ = load_data(files["svm"])
    for report, name in zip(payload["reports"], ["perceptron", "second_order"], strict=True):
        run = run_online(name, data, labels)
        expected = json.loads(evaluate(run, data, labels).to_json())
        assert report == expected
        assert report["multiclass"] == "ovr" and report["corrections"] == run.corrections
    assert main(["compare", "--data", files["svm"], "--algorithms", "perceptron"]) == 0
    out = capsys.readouterr().out
    run = run_online("perceptron", data, labels)
    assert re.search(rf"^perceptron \(ovr\) +{run.corrections} +novikoff +stated .* per class ",
                     out, re.M)
    assert (f"  perceptron (ovr): {run.mistakes} multiclass mistakes, {run.corrections} "
            "corrections") in out


def test_compare_native(files, capsys):
    payload = json_of(["compare", "--data", files["svm"], "--multiclass", "native"], capsys)
    assert [r["algorithm"] for r in payload["reports"]] == NATIVE
    assert all(r["multiclass"] == "native" for r in payload["reports"])
    assert payload["multiclass"] == "native"
    assert main(["compare", "--data", files["svm"], "--multiclass", "native",
                 "--algorithms", "perceptron"]) == 0
    out = capsys.readouterr().out
    data, labels, _ = load_data(files["svm"])
    run = run_online("perceptron", data, labels, multiclass="native")
    assert re.search(rf"^perceptron \(native\) +{run.mistakes} +novikoff ", out, re.M)
    assert f"  perceptron (native): {run.mistakes} multiclass mistakes\n" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["run", "--algorithm", "perceptron", "--multiclass", "ovo"],
         "perceptron-bounds run: error: argument --multiclass: unknown multiclass mode 'ovo'; "
         "did you mean 'ovr'? (choose from ovr, native)"),
        (["run", "--algorithm", "second_order", "--multiclass", "native"],
         "perceptron-bounds run: error: multiclass='native' needs a native multiclass form, "
         f"which 'second_order' lacks (only {', '.join(map(repr, NATIVE))} have one); use "
         "multiclass='ovr'"),
        (["compare", "--multiclass", "native", "--algorithms", "perceptron,voted_perceptron"],
         "perceptron-bounds compare: error: --multiclass native: voted_perceptron has no native "
         f"multiclass form (those with one: {', '.join(NATIVE)}); use --multiclass ovr"),
    ],
)
def test_errors(argv, message, capsys):
    assert error_of(argv, capsys).startswith(message)


def test_figure_ballseptron_radius_on_a_multiclass_file(files, tmp_path, capsys):
    """Paper 004's Fig. 3 top as the paper ran it: the native multiclass Ballseptron."""
    out = tmp_path / "figures"
    assert main(["figure", "ballseptron-radius", "--data", files["svm"], "--quick", "--seeds",
                 "1", "--out", str(out)]) == 0
    assert "ballseptron-radius.png" in capsys.readouterr().out
    with open(out / "ballseptron-radius.csv") as handle:
        records = list(csv.DictReader(handle))
    data, labels, _ = load_data(files["svm"])
    for record in records:
        assert (record["multiclass"], record["n_classes"], record["dataset"]) == (
            "native", "3", "train.svm")
        run = run_online("ballseptron", data, labels, r=float(record["r"]), shuffle=True,
                         seed=0, multiclass="native")
        assert (int(record["mistakes"]), int(record["margin_errors"])) == (
            run.mistakes, run.margin_errors)
    assert any(int(record["margin_errors"]) > 0 for record in records)
    message = error_of(["figure", "hop-fig2", "--data", files["svm"]], capsys)
    assert message == (f"perceptron-bounds figure: error: --data: only {', '.join(DATA_FIGURES)} "
                       "runs on given data; hop-fig2 makes its own")
