"""The real-data commands (issue 14): ``figure fs-mnist|bounds-mnist``, ``figure
ballseptron-radius --data mnist|usps``, ``table hop-ocr|hop-rcv1``, on tiny data homes
written here (tests/real_fixtures.py), quick; one-line errors; nothing downloaded."""

import csv

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from real_fixtures import mnist_home, rcv1_home, usps_home  # noqa: E402

from perceptron_bounds.cli import main  # noqa: E402
from perceptron_bounds.datasets.real import DATA_HOME_ENV  # noqa: E402


@pytest.fixture
def home(tmp_path, monkeypatch):
    """One data home holding tiny MNIST, USPS and RCV1; fs-mnist's quick size on d = 1, 2."""
    from perceptron_bounds.papers import freund_schapire

    monkeypatch.setitem(freund_schapire.FS_QUICK, "degrees", (1, 2))
    folder = tmp_path / "data"
    mnist_home(folder, monkeypatch)
    usps_home(folder, monkeypatch)
    rcv1_home(folder, monkeypatch)
    monkeypatch.setenv(DATA_HOME_ENV, str(folder))
    return folder


def outputs(folder, name):
    for suffix in ("png", "pdf", "csv", "md"):
        assert (folder / f"{name}.{suffix}").stat().st_size > 0
    with open(folder / f"{name}.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert rows and all(row["quick"] == "True" for row in rows)
    return rows


@pytest.mark.parametrize(("args", "name"), [
    (["figure", "fs-mnist"], "fs-mnist"),
    (["figure", "ballseptron-radius", "--data", "mnist"], "ballseptron-radius"),
    (["figure", "ballseptron-radius", "--data", "usps", "--seeds", "1"], "ballseptron-radius"),
    (["figure", "bounds-mnist", "--positive-class", "4"], "bounds-mnist"),
    (["table", "hop-ocr", "--algorithms", "FO,SO", "--kernels", "poly"], "hop-ocr"),
    (["table", "hop-rcv1", "--algorithms", "FO,HO2"], "hop-rcv1"),
])
def test_real_commands_quick_write_their_outputs(home, tmp_path, capsys, args, name):
    out = tmp_path / "out"
    assert main([*args, "--quick", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    outputs(out, name)
    assert f"{name}: {out / name}.png" in printed and "Quick run" in printed
    assert (out / f"{name}.md").read_text().strip() in printed  # the report is printed


def test_hop_ocr_cv_writes_the_search(home, tmp_path, capsys, monkeypatch):
    from perceptron_bounds.papers import higher_order

    monkeypatch.setitem(higher_order.OCR_GRID, "poly", {"degree": (2, 3)})
    out = tmp_path / "out"
    args = ["table", "hop-ocr", "--data", "usps", "--algorithms", "FO", "--kernels", "poly",
            "--cv", "--folds", "3", "--quick", "--out", str(out)]
    assert main(args) == 0
    printed = capsys.readouterr().out
    with open(out / "hop-ocr-search.csv", newline="") as handle:
        search = list(csv.DictReader(handle))
    assert len(search) == 2 * 3 and "**chosen**" in (out / "hop-ocr-search.md").read_text()
    chosen = next(line for line in printed.splitlines() if "**chosen**" in line)
    degree = chosen.split("degree=")[1].split(" ")[0]
    rows = outputs(out, "hop-ocr")
    assert f'"degree": {degree}' in rows[0]["params"]


def test_cache_resumes_a_command(home, tmp_path, capsys):
    args = ["table", "hop-ocr", "--algorithms", "FO", "--kernels", "gauss", "--quick",
            "--cache", str(tmp_path / "cache"), "--out", str(tmp_path / "out")]
    assert main(args) == 0
    first = (tmp_path / "out" / "hop-ocr.csv").read_text()
    assert any((tmp_path / "cache").rglob("output.pkl"))
    assert main(args) == 0
    assert (tmp_path / "out" / "hop-ocr.csv").read_text() == first


@pytest.mark.parametrize(("args", "words"), [
    (["figure", "fs-mnist"], ["load_mnist: MNIST is not in", "train-images-idx3-ubyte.gz",
                              "--download"]),
    (["figure", "ballseptron-radius", "--data", "usps"], ["load_usps: USPS is not in",
                                                           "usps, usps.t"]),
    (["table", "hop-ocr", "--data", "usps"], ["load_usps: USPS is not in", "usps, usps.t"]),
    (["table", "hop-rcv1"], ["load_rcv1_tasks: RCV1 is not in", "RCV1"]),
])
def test_missing_data_one_line(tmp_path, capsys, monkeypatch, args, words):
    empty = tmp_path / "empty"
    monkeypatch.setenv(DATA_HOME_ENV, str(empty))
    assert main([*args, "--quick", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(empty) in err
    assert all(word in err for word in words), err
    assert not empty.exists() or not any(empty.iterdir())  # nothing fetched


@pytest.mark.parametrize(("args", "message"), [
    (["figure", "sop-toy", "--cache", "c"], "--cache: only the real-data figures"),
    (["figure", "sop-toy", "--download"], "--download: only the real-data figures"),
    (["figure", "fs-mnist", "--data", "mnist"], "--data: only ballseptron-radius"),
    (["figure", "fs-mnist", "--positive-class", "3"],
     "--positive-class: only bounds-mnist, budget-mnist"),
    (["table", "hop-rcv1", "--data", "mnist"], "--data: only hop-ocr"),
    (["table", "hop-rcv1", "--cv"], "--cv: only hop-ocr"),
    (["table", "hop-ocr", "--algorithms", "FO,XX"], "--algorithms: unknown XX"),
    (["table", "hop-ocr", "--kernels", ""], "--kernels: empty list"),
    (["table", "hop-ocr", "--folds", "1"], "--folds must be"),
    (["table", "hop-ocr", "--data", "usbs"], "did you mean 'usps'"),
    (["table", "hop-x"], "unknown table 'hop-x'"),
])
def test_bad_options_one_line(tmp_path, capsys, args, message):
    try:
        code = main([*args, "--out", str(tmp_path / "out")])
    except SystemExit as parsing:  # argparse's errors exit from the parser
        code = parsing.code
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err


def test_help_lists_the_real_commands(capsys):
    for args, names in ((["--help"], ["table"]),
                        (["figure", "--help"], ["fs-mnist", "bounds-mnist", "--cache"]),
                        (["table", "--help"], ["hop-ocr", "hop-rcv1", "--kernels", "--cv"])):
        with pytest.raises(SystemExit):
            main(args)
        text = capsys.readouterr().out
        assert all(name in text for name in names), (args, text)


@pytest.mark.parametrize("command", [["run", "--algorithm", "perceptron"],
                                     ["compare", "--algorithms", "perceptron"]])
def test_run_and_compare_take_download_as_figure_and_table_do(tmp_path, capsys, monkeypatch,
                                                              command):
    """run fetched a missing data set unasked and refused --download, which figure and table
    need before they fetch anything: now every command fetches only with --download."""
    empty = tmp_path / "empty"
    monkeypatch.setenv(DATA_HOME_ENV, str(empty))
    assert main([*command, "--data", "usps"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "USPS is not in" in err and "--download" in err
    assert not empty.exists() or not any(empty.iterdir())  # nothing fetched
    usps_home(tmp_path / "data", monkeypatch)
    monkeypatch.setenv(DATA_HOME_ENV, str(tmp_path / "data"))
    assert main([*command, "--data", "usps", "--positive-class", "3", "--download"]) == 0
