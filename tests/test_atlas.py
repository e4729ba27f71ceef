"""The bound atlas (issue 25): its columns and arithmetic, every registered algorithm, the
cache (a second run recomputes nothing, an interrupted one resumes), the command and its
one-line errors. Small data only: the full atlas is ``benchmarks/run_atlas.py``."""

import csv
import importlib
import math
import os

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from perceptron_bounds.algorithms import available  # noqa: E402
from perceptron_bounds.bounds.report import HOLDS_RTOL  # noqa: E402
from perceptron_bounds.cli import main  # noqa: E402
from perceptron_bounds.datasets.catalog import CATALOG, atlas_tasks, check_data_names  # noqa: E402
from perceptron_bounds.experiments import (  # noqa: E402
    ATLAS_COLUMNS,
    bound_atlas,
    read_atlas_csv,
    tightest,
    write_atlas_csv,
)
from perceptron_bounds._tables import run_label  # noqa: E402
from perceptron_bounds.algorithms import attach, attached  # noqa: E402
from perceptron_bounds.experiments.bound_atlas import (  # noqa: E402
    atlas_cells,
    atlas_variants,
    takes_kernel,
)
from perceptron_bounds.papers.atlas import describe, run_seconds, save_atlas  # noqa: E402
from real_fixtures import mnist_home  # noqa: E402

# The module, not the function of the same name that perceptron_bounds.experiments exports.
bound_ratios_module = importlib.import_module("perceptron_bounds.experiments.bound_ratios")


@pytest.fixture(scope="module")
def iris_rows():
    return bound_atlas(["iris"], quick=True, variants=True)


def test_columns_are_the_issues_and_every_algorithm_appears(iris_rows):
    assert ATLAS_COLUMNS[:18] == (
        "dataset", "task", "n_samples", "n_features", "algorithm", "setting", "params",
        "kernel", "epochs", "mistakes", "bound", "variant", "value", "ratio", "holds", "gamma",
        "comparator", "seconds")
    assert ATLAS_COLUMNS[18:] == ("reason", "expectation")  # what the report says, carried
    assert all(tuple(row) == ATLAS_COLUMNS for row in iris_rows)
    for task in ("setosa-vs-rest", "3-class"):  # a binary and a one-vs-rest task
        assert {row["algorithm"] for row in iris_rows if row["task"] == task} == set(available())
    assert {(row["n_samples"], row["n_features"]) for row in iris_rows} == {(150, 4)}


def test_ratio_and_holds_arithmetic_and_reasons(iris_rows):
    applied = [row for row in iris_rows if row["value"] is not None]
    skipped = [row for row in iris_rows if row["value"] is None]
    assert applied and skipped
    for row in applied:
        expected = row["mistakes"] / row["value"] if row["value"] > 0 else math.inf
        assert row["ratio"] == pytest.approx(expected, rel=1e-12)
        if row["holds"] is None:  # a bound in expectation against one draw (multiclass)
            assert row["expectation"] and row["task"].endswith("-class"), row
            continue
        assert row["holds"] is (row["mistakes"] <= row["value"] * (1 + HOLDS_RTOL))
        assert row["holds"], row  # a violated bound is a bug (issue 25)
        assert row["reason"] is None  # gamma: None for a sum over classes (each its own)
    for row in skipped:
        assert row["ratio"] is None and row["holds"] is None and row["gamma"] is None
        assert isinstance(row["reason"], str) and row["reason"]


def test_tightest_is_the_largest_ratio_per_cell(iris_rows):
    best = tightest(iris_rows)
    cells = {(r["dataset"], r["task"], run_label(r), r["kernel"], r["epochs"])
             for r in iris_rows}
    assert len(best) == len(cells)
    for row in best:
        same = [r["ratio"] for r in iris_rows if r["value"] is not None and
                (r["task"], run_label(r)) == (row["task"], run_label(row))]
        assert row["ratio"] == (max(same) if same else None)


def test_csv_round_trip(tmp_path, iris_rows):
    path = write_atlas_csv(iris_rows, tmp_path / "atlas.csv")
    with open(path, newline="") as handle:
        assert tuple(next(csv.reader(handle))) == ATLAS_COLUMNS
    assert read_atlas_csv(path) == iris_rows
    (tmp_path / "other.csv").write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="not an atlas CSV"):
        read_atlas_csv(tmp_path / "other.csv")


class Interrupted(Exception):
    """Stands for an interruption in the middle of a sweep."""


def counting_evaluate(monkeypatch, stop_after=None):
    """Count the bounds evaluated (one per cell); stop the sweep (an exception, as a killed
    worker or Ctrl-C would) after ``stop_after``."""
    real = bound_ratios_module.evaluate
    calls = []

    def evaluate(*args, **kwargs):
        if stop_after is not None and len(calls) == stop_after:
            raise Interrupted
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(bound_ratios_module, "evaluate", evaluate)
    return calls


ALGORITHMS = ["perceptron", "second_order", "pnorm"]
# The cells of ALGORITHMS on a task: the Second-Order runs its adaptive and pinv variants too.
RUNS = 5


def test_a_second_run_with_the_cache_recomputes_nothing_and_writes_the_same_csv(
        tmp_path, monkeypatch):
    tasks, _ = atlas_tasks(["iris", "wine"], quick=True)
    calls = counting_evaluate(monkeypatch)
    first = bound_atlas(tasks, algorithms=ALGORITHMS, epochs=[1, 2], cache=tmp_path / "c")
    assert len(calls) == len(tasks) * RUNS * 2
    again = bound_atlas(tasks, algorithms=ALGORITHMS, epochs=[1, 2], cache=tmp_path / "c")
    assert len(calls) == len(tasks) * RUNS * 2  # nothing recomputed
    write_atlas_csv(first, tmp_path / "a.csv")
    write_atlas_csv(again, tmp_path / "b.csv")
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()


def test_an_interrupted_run_resumes_from_the_cache(tmp_path, monkeypatch):
    tasks, _ = atlas_tasks(["iris"], quick=True)
    counting_evaluate(monkeypatch, stop_after=3)
    with pytest.raises(Interrupted):
        bound_atlas(tasks, algorithms=ALGORITHMS, cache=tmp_path / "c")
    monkeypatch.undo()
    calls = counting_evaluate(monkeypatch)
    rows = bound_atlas(tasks, algorithms=ALGORITHMS, cache=tmp_path / "c")
    assert len(calls) == len(tasks) * RUNS - 3  # the 3 finished cells read back
    assert {row["algorithm"] for row in rows} == set(ALGORITHMS)


def test_a_resumed_atlas_states_its_runs_seconds_summed_not_its_last_wall_time(
        tmp_path, iris_rows):
    seconds = {}
    for row in iris_rows:  # every row of a run carries that run's seconds
        key = (row["task"], row["algorithm"], row["setting"], row["params"], row["kernel"],
               row["epochs"])
        seconds[key] = row["seconds"]
    assert len(seconds) < len(iris_rows)
    assert run_seconds(iris_rows) == pytest.approx(sum(seconds.values()))
    caption = describe({"seconds": 9.8, "summed": True, "run_seconds": 2757.2})
    assert "runs 2757 s summed" in caption and "10 s" not in caption
    assert describe({"seconds": 9.8}).endswith(" · 10 s")


def test_kernels_run_only_where_an_algorithm_has_a_kernel_form():
    tasks, _ = atlas_tasks(["iris"], quick=True)
    rows = bound_atlas(tasks[:1], kernels=["linear", "poly"])
    without = [name for name in available() if not takes_kernel(name)]
    assert without  # the p-norm Perceptron has no dual form
    poly = {row["algorithm"] for row in rows if row["kernel"] == "poly"}
    assert poly == {name for name in available() if takes_kernel(name)}
    assert all('"kernel": "poly"' in row["params"] for row in rows if row["kernel"] == "poly")


def test_the_catalogue_tasks_are_unit_norm_with_their_targets():
    tasks, skipped = atlas_tasks(["synthetic"], quick=True)
    assert {task.dataset for task in tasks} == {
        name for name, entry in CATALOG.items() if entry.group == "synthetic"}
    assert not skipped
    for task in tasks:
        X, y, u = task.data
        assert np.allclose(np.linalg.norm(X, axis=1), 1.0)
        assert set(np.unique(y)) == {-1, 1}
        if task.task in ("margin=0.05", "eta=0", "margin=0.15"):  # separable by their target
            assert (y * (X @ u) > 0).all()


def test_real_sets_from_the_data_home_and_left_out_when_missing(tmp_path, monkeypatch):
    home = mnist_home(tmp_path / "home" / "mnist", monkeypatch)
    tasks, _ = atlas_tasks(["mnist"], data_home=tmp_path / "home")
    # the whole training set linear; the kernel and 10-class tasks on a subsample (at most
    # KERNEL_ROWS rows: here all 300)
    assert [(task.dataset, task.task, task.data.X.shape, task.kernels) for task in tasks] == [
        ("mnist", "9-vs-rest", (300, 784), ("linear",)),
        ("mnist", "9-vs-rest", (300, 784), ("poly", "rbf")),
        ("mnist", "10-class", (300, 784), ("linear", "poly", "rbf"))]
    assert sorted(np.unique(tasks[2].data.y)) == list(range(10))
    assert np.allclose(np.linalg.norm(tasks[0].data.X, axis=1), 1.0)
    monkeypatch.setenv("PERCEPTRON_BOUNDS_DATA", str(tmp_path / "empty"))
    tasks, skipped = atlas_tasks(None, quick=True)
    assert not {"mnist", "fashion-mnist", "usps"} & {task.dataset for task in tasks}
    assert {line.split(":")[0] for line in skipped} == {"mnist", "fashion-mnist", "usps", "rcv1"}
    del home


def test_check_data_names_suggests_and_expands_groups(tmp_path):
    assert check_data_names(["scikit-learn"]) == ["breast-cancer", "digits", "wine", "iris"]
    with pytest.raises(ValueError, match="unknown data set 'digts'; did you mean 'digits'"):
        check_data_names(["digts"])
    with pytest.raises(ValueError, match="no such file"):
        check_data_names([str(tmp_path / "missing.csv")])


def test_atlas_command_quick_writes_the_files_and_redraws_from_csv(tmp_path, capsys):
    """Every algorithm by default; files of every view (kernels: see the test above)."""
    out = tmp_path / "out"
    data = tmp_path / "small.csv"
    rng = np.random.default_rng(0)
    X = rng.standard_normal((80, 3))
    np.savetxt(data, np.c_[X, np.sign(X[:, 0])], delimiter=",")
    assert main(["atlas", "--data", f"iris,label-noise,{data}", "--quick", "--n-jobs", "1",
                 "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "0 violated" in printed
    for name in ("atlas.csv", "atlas.md", "atlas.png", "atlas-winners.png",
                 "atlas-ratios.png", "atlas-noise.png"):
        assert (out / name).stat().st_size > 0, name
    assert not (out / "atlas.pdf").exists()  # a quick atlas draws PNGs only
    report = (out / "atlas.md").read_text()
    assert "**Quick run**" in report and "## Violated bounds: 0" in report
    rows = read_atlas_csv(out / "atlas.csv")
    assert {"iris", "label-noise", "small.csv"} == {row["dataset"] for row in rows}
    assert {row["algorithm"] for row in rows} == set(available())
    assert {row["setting"] for row in rows} == {None}  # quick: the registered defaults only
    redrawn = tmp_path / "redrawn"
    assert main(["atlas", "--from-csv", str(out / "atlas.csv"), "--out", str(redrawn)]) == 0
    assert (redrawn / "atlas.png").stat().st_size > 0
    assert read_atlas_csv(redrawn / "atlas.csv") == rows
    joined = f"{out / 'atlas.csv'},{redrawn / 'atlas.csv'}"  # two runs in one atlas
    assert main(["atlas", "--from-csv", joined, "--out", str(redrawn)]) == 0
    assert read_atlas_csv(redrawn / "atlas.csv") == rows  # its own CSV is not overwritten


@pytest.mark.parametrize(("args", "message"), [
    (["--data", "digts"], "--data: unknown data set 'digts'; did you mean 'digits'?"),
    (["--algorithms", "pnorm", "--kernels", "poly"], "--kernels: pnorm takes no kernel"),
    (["--algorithms", "perceptrn"], "did you mean 'perceptron'?"),
    (["--kernels", "rbg"], "--kernels: unknown name 'rbg'; did you mean 'rbf'?"),
    (["--epochs", "0"], "epochs must be"),
    (["--epochs", "x"], "--epochs must be comma-separated integers"),
    (["--n-jobs", "0"], "--n-jobs must be a nonzero"),
])
def test_atlas_bad_input_is_one_line_before_any_cell(tmp_path, capsys, monkeypatch, args,
                                                     message):
    calls = counting_evaluate(monkeypatch)
    assert main(["atlas", "--quick", "--out", str(tmp_path / "o"), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err
    assert not calls


def test_atlas_file_that_does_not_parse_is_one_line(tmp_path, capsys, monkeypatch):
    bad = tmp_path / "bad.csv"
    bad.write_text("1,2,a\n3,x\n")
    calls = counting_evaluate(monkeypatch)
    assert main(["atlas", "--data", f"iris,{bad}", "--quick", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and err.count("\n") == 1, err
    assert not calls and not (tmp_path / "atlas.csv").exists()


def test_an_atlas_where_no_bound_applies_exits_0_and_says_why_no_ratios_figure(
        tmp_path, capsys, iris_rows):
    """Issue 31, item 11: the CSV and tables were written, then exit 2 'nothing to plot'."""
    rows = [{**row, "value": None, "ratio": None, "holds": None, "gamma": None,
             "comparator": None, "reason": "the bound's condition fails"}
            for row in iris_rows if row["algorithm"] == "forgetron"]
    source = write_atlas_csv(rows, tmp_path / "none.csv")
    out = tmp_path / "out"
    assert main(["atlas", "--from-csv", source, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "no atlas-ratios.png: no bound applies to any run of kernel linear" in printed
    assert (out / "atlas.png").stat().st_size > 0 and (out / "atlas.md").stat().st_size > 0
    assert not (out / "atlas-ratios.png").exists()


def test_atlas_from_a_missing_csv_is_one_clear_line(tmp_path, capsys):
    """Issue 31, item 11: not a raw [Errno 2]."""
    missing = tmp_path / "missing.csv"
    assert main(["atlas", "--from-csv", str(missing), "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"--from-csv {missing}: no such file" in err and "Errno" not in err, err
    assert err.count("\n") == 1


def test_every_atlas_cell_runs_the_kernel_it_names():
    """Issue 31, item 2: under "linear" the budget Perceptrons ran their default poly kernel
    while the row, the CSV and the page said linear."""
    import json

    rows = bound_atlas(["iris"], algorithms=["forgetron", "randomized_budget_perceptron"],
                       kernels=["linear", "rbf"], quick=True)
    rows += bound_atlas(["iris"], algorithms=["pnorm"], quick=True)  # no kernel parameter
    assert {row["kernel"] for row in rows} == {"linear", "rbf"}
    for row in rows:
        params = json.loads(row["params"])
        assert params.get("kernel", "linear") == row["kernel"], row


def test_the_forgetrons_default_kernel_lets_its_own_bound_apply():
    """Issue 31, item 2: with its poly default K(x, x) > 1 and its bound never applied."""
    from perceptron_bounds import Forgetron, run_online
    from perceptron_bounds.algorithms import get
    from perceptron_bounds.bounds import evaluate
    from perceptron_bounds.datasets import make_separable

    assert get("forgetron").defaults["kernel"] == Forgetron().kernel == "rbf"
    X, y, _ = make_separable(200, 3, margin=0.3, seed=0)
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    run = run_online("forgetron", X, y, budget=50, epochs=2)
    for variant in ("stated", "tightened"):
        row = evaluate(run, X, y).row("forgetron", variant)
        assert "K(x, x) <= 1" not in (row.reason or ""), row.reason
    linear = run_online("forgetron", X, y, budget=50, kernel="linear")
    reason = evaluate(linear, X, y).row("forgetron").reason or ""
    assert "= 1 > 1" not in reason, reason  # one ulp above 1 is printed as such


def test_declared_variants_run_with_their_bounds_and_name_their_parameters(iris_rows):
    binary = [row for row in iris_rows if row["task"] == "setosa-vs-rest"]
    runs = {(row["algorithm"], row["setting"]): {r["bound"] for r in binary
                                                 if run_label(r) == run_label(row)}
            for row in binary}
    assert runs[("passive_aggressive", "variant=pa")] >= {"pa_separable", "pa_general"}
    assert "pa2_mistakes" in runs[("passive_aggressive", "variant=pa2")]
    for name, setting in (("projectron", "plus=True"), ("alma", "p=3"),
                          ("second_order", "variant=adaptive"), ("second_order", "variant=pinv"),
                          ("higher_order", "p=3"), ("selective_perceptron", "b=0.1"),
                          ("selective_second_order", "b=0.1")):
        assert (name, setting) in runs, (name, setting)
    pa2 = next(row for row in binary if row["setting"] == "variant=pa2")
    assert '"variant": "pa2"' in pa2["params"]
    # the registered defaults keep an empty setting
    assert ("perceptron", None) in runs and ("passive_aggressive", None) in runs
    values = [r for r in binary if r["setting"] == "variant=pa2" and r["bound"] == "pa2_mistakes"]
    assert all(r["value"] is not None and r["holds"] for r in values)


def test_a_variant_without_a_kernel_form_runs_linear_only():
    assert atlas_variants("alma", "linear") == [{}, {"p": 3.0}]
    assert atlas_variants("alma", "poly") == [{}]
    tasks, _ = atlas_tasks(["iris"], quick=True)
    cells = atlas_cells(tasks[:1], ["alma", "higher_order"], ["linear", "rbf"], [1])
    assert sorted((c["head"]["kernel"], c["spec"].label) for c in cells) == [
        ("linear", "alma"), ("linear", "alma [p=3]"), ("linear", "higher_order"),
        ("linear", "higher_order [p=3]"), ("rbf", "alma"), ("rbf", "higher_order")]


def test_a_declared_variant_with_an_unknown_parameter_is_one_line():
    before = attached("perceptron", "atlas")
    attach("perceptron", "atlas", variants=(dict(rate=2.0),))
    try:
        with pytest.raises(TypeError, match="perceptron's atlas variant .*rate"):
            atlas_variants("perceptron", "linear")
    finally:
        attach("perceptron", "atlas", **before)


def test_an_atlas_csv_written_before_the_variants_reads_back(tmp_path, iris_rows):
    rows = [row for row in iris_rows if row["setting"] is None][:5]
    old = [c for c in ATLAS_COLUMNS if c != "setting"]
    path = tmp_path / "old.csv"
    write_atlas_csv(rows, path)
    with open(path, newline="") as handle:
        table = list(csv.DictReader(handle))
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=old)
        writer.writeheader()
        writer.writerows({c: row[c] for c in old} for row in table)
    assert read_atlas_csv(path) == rows


def test_the_drifting_family_runs_linear_with_its_shifting_bounds():
    tasks, _ = atlas_tasks(["drifting"], quick=True)
    assert [task.task for task in tasks] == ["shifts=0", "shifts=3", "shifts=30"]  # quick
    rows = bound_atlas(tasks[1:], algorithms=["shifting_perceptron", "perceptron"],
                       kernels=["linear", "rbf"])
    assert {row["kernel"] for row in rows} == {"linear"}  # targets live in the input space
    shifting = [row for row in rows if row["bound"] in (
        "shifting_perceptron_tracking", "perceptron_shifting")]
    assert {(row["algorithm"], row["task"]) for row in shifting if row["value"] is not None} == {
        (name, task) for name in ("shifting_perceptron", "perceptron")
        for task in ("shifts=3", "shifts=30")}
    assert all(row["holds"] for row in rows if row["value"] is not None)
    fixed = [row for row in rows if row["bound"] == "decay_fixed_comparator"]
    assert fixed and all(row["comparator"].startswith("svm") for row in fixed)


def test_the_drift_view_is_drawn_from_the_drifting_family(tmp_path):
    tasks, _ = atlas_tasks(["drifting"], quick=True)
    rows = bound_atlas(tasks[:3], algorithms=["shifting_perceptron"])
    paths = save_atlas(rows, tmp_path, {"quick": True})
    assert str(tmp_path / "atlas-drift.png") in paths
    assert not any(path.endswith(".pdf") for path in paths)


def test_the_views_drawn_by_two_workers_are_the_files_one_process_draws(tmp_path, iris_rows):
    """Issue 35: a quick atlas draws its views in its workers; the files cannot tell."""
    meta = {"quick": True, "seconds": 1.0}
    one = save_atlas(iris_rows, tmp_path / "one", meta, n_jobs=1)
    two = save_atlas(iris_rows, tmp_path / "two", meta, n_jobs=2)
    assert [os.path.basename(path) for path in one] == [os.path.basename(p) for p in two]
    assert len(one) == 2 + 3  # the CSV, the report, the heat map, the winners, the ratios
    for a, b in zip(one, two, strict=True):
        with open(a, "rb") as first, open(b, "rb") as second:
            assert first.read() == second.read(), a
