"""The papers' real-data experiments (issue 14) on tiny data: tables, cache, resume, reports.

Everything runs on data made here (tests/real_fixtures.py): tiny MNIST, USPS and RCV1
data homes read by the real loaders, never a download.
"""

import doctest
import importlib

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from real_fixtures import N_TEST, N_TRAIN, mnist_home, rcv1_home, usps_home  # noqa: E402

from perceptron_bounds import run_online  # noqa: E402
from perceptron_bounds.datasets import make_separable  # noqa: E402
from perceptron_bounds.experiments import (  # noqa: E402
    best_params,
    bound_ratios,
    corrections_table,
    cross_validate,
    voted_epochs_curve,
)
from perceptron_bounds.experiments import corrections as corrections_module  # noqa: E402
from perceptron_bounds.experiments.voted_epochs import (  # noqa: E402
    VOTE_PREDICTIONS,
    check_checkpoints,
    trial_pieces,
)
from perceptron_bounds.papers import (  # noqa: E402
    ballseptron,
    bounds_mnist,
    common,
    freund_schapire,
    higher_order,
)


@pytest.mark.parametrize("module", ["_cache", "voted_epochs", "corrections", "bound_ratios"])
def test_docstring_examples(module):
    result = doctest.testmod(importlib.import_module(f"perceptron_bounds.experiments.{module}"))
    assert result.failed == 0


def small_digits(n=120, n_test=60, seed=0):
    """Integer-valued 3-class data (exact arithmetic: the primal and dual runs agree)."""
    rng = np.random.default_rng(seed)
    centres = rng.integers(0, 6, (3, 8)).astype(np.float64)
    y = rng.integers(0, 3, n + n_test)
    X = centres[y] + rng.integers(0, 3, (n + n_test, 8))
    return (X[:n], y[:n]), (X[n:], y[n:])


# ---------------------------------------------------------------- voted epochs (paper 001)

def test_trial_pieces_cover_the_cyclic_sequence():
    for start, stop in ((0, 7), (3, 25), (10, 30), (29, 31)):
        trials = [row for first, end, epochs in trial_pieces(start, stop, 10)
                  for _ in range(epochs) for row in range(first, end)]
        assert trials == [t % 10 for t in range(start, stop)]


def test_checkpoints_must_add_trials():
    assert check_checkpoints([2, 0.5, 1], 10) == [0.5, 1.0, 2.0]
    for bad in ([], [0], [0.01], [1, 1.04]):
        with pytest.raises(ValueError, match="epochs"):
            check_checkpoints(bad, 10)


def test_voted_epochs_counts_and_the_continued_run():
    train, test = small_digits()
    table = voted_epochs_curve(train, test, degrees=[1, 2], epochs=[0.5, 1, 2], seeds=[3])
    assert len(table) == 2 * 3 * len(VOTE_PREDICTIONS)
    X, y = train
    order = np.random.default_rng(3).permutation(X.shape[0])
    for degree in (1, 2):
        rows = [row for row in table if row["degree"] == degree and row["prediction"] == "vote"]
        assert [row["epochs"] for row in rows] == [0.5, 1.0, 2.0]
        assert all(a["mistakes"] <= b["mistakes"] and a["supvec"] <= b["supvec"]
                   for a, b in zip(rows, rows[1:], strict=False))
        # The checkpoints continue one run: 2 epochs of the dual (1 + x.z)^d run from scratch.
        run = run_online("voted_perceptron", X[order], y[order], epochs=2, kernel="poly",
                         degree=degree, gamma=1.0, coef0=1.0, form="dual")
        assert rows[-1]["mistakes"] == sum(part.mistakes for part in run.class_runs)
        union = {int(row) for part in run.class_runs for row in part.mistake_rows}
        assert rows[-1]["supvec"] == len(union)
        for method, normalize in VOTE_PREDICTIONS:
            mine = next(row for row in table if row["degree"] == degree and row["epochs"] == 2
                        and row["method"] == method and row["normalize"] == normalize)
            predicted = run.predict(test[0], method=method, normalize=normalize, seed=3)
            assert mine["test_error"] == pytest.approx(np.mean(predicted != test[1]))


# ---------------------------------------------------------------- corrections (paper 000)

def test_corrections_table_sums_the_class_runs():
    train, test = small_digits()
    specs = [("FO", "perceptron", {}), ("sparse", "higher_order", {"c": 0.5, "sparse": True}),
             ("SO", "second_order", {"a": 1.0})]
    table = corrections_table(specs, train, test, seeds=[None, 1])
    assert [(row["label"], row["seed"]) for row in table] == [
        (label, seed) for label, _, _ in specs for seed in (None, 1)]
    direct = run_online("higher_order", *train, c=0.5, sparse=True)
    row = table[2]
    assert row["corrections"] == sum(part.mistakes for part in direct.class_runs)
    assert row["matrix_updates"] == sum(p.state["matrix_updates"] for p in direct.class_runs)
    assert row["matrix_updates"] < row["corrections"] and table[0]["matrix_updates"] is None
    assert row["test_error"] == np.mean(direct.predict(test[0]) != test[1])


def test_corrections_table_on_binary_sparse_data():
    X, y, _ = make_separable(150, 6, margin=0.05, seed=1)
    import scipy.sparse as sp

    data = (sp.csr_matrix(X[:100]), y[:100]), (sp.csr_matrix(X[100:]), y[100:])
    table = corrections_table([("FO", "perceptron", {}), ("SO", "second_order", {})], *data)
    run = run_online("perceptron", X[:100], y[:100])
    assert table[0]["corrections"] == run.mistakes
    assert table[0]["test_error"] == np.mean(run.predict(X[100:]) != y[100:])


def test_cross_validation_folds_and_the_best_candidate():
    train, _ = small_digits(n=100)
    specs = [(f"FO d={d}", "perceptron", {"kernel": "poly", "degree": d}) for d in (1, 2)]
    table = cross_validate(specs, train, folds=4)
    assert len(table) == 8 and {row["fold"] for row in table} == {0, 1, 2, 3}
    assert sum(row["n_validate"] for row in table[:4]) == 100
    best = best_params([{**row, "group": "FO"} for row in table], by=["group"])
    means = {d: np.mean([r["validation_error"] for r in table if r["params"]["degree"] == d])
             for d in (1, 2)}
    assert best["FO",][1] == pytest.approx(min(means.values()))


# ---------------------------------------------------------------- cache and resume

def test_a_killed_sweep_resumes_without_recomputing(tmp_path, monkeypatch):
    train, test = small_digits()
    specs = [(f"FO d={d}", "perceptron", {"kernel": "poly", "degree": d}) for d in (1, 2, 3, 4)]
    fresh = corrections_table(specs, train, test)
    calls = []

    def killed_after_two(*args, **kwargs):
        if len(calls) == 2:
            raise KeyboardInterrupt  # the run is killed during its third cell
        calls.append(kwargs.get("degree"))
        return run_online(*args, **kwargs)

    monkeypatch.setattr(corrections_module, "run_online", killed_after_two)
    with pytest.raises(KeyboardInterrupt):
        corrections_table(specs, train, test, cache=tmp_path)
    assert calls == [1, 2]

    def counted(*args, **kwargs):
        calls.append(kwargs.get("degree"))
        return run_online(*args, **kwargs)

    monkeypatch.setattr(corrections_module, "run_online", counted)
    calls.clear()
    assert corrections_table(specs, train, test, cache=tmp_path) == fresh
    assert calls == [3, 4]  # the two finished cells were read back, not run
    calls.clear()
    assert corrections_table(specs, train, test, cache=tmp_path) == fresh
    assert calls == []
    # Other data are other cells.
    other = (train[0] + 1.0, train[1])
    corrections_table(specs[:1], other, test, cache=tmp_path)
    assert calls == [1]


def test_cached_cells_in_worker_processes_and_on_dask(tmp_path):
    distributed = pytest.importorskip("distributed")
    from joblib import parallel_config

    train, test = small_digits()
    specs = [(f"FO d={d}", "perceptron", {"kernel": "poly", "degree": d}) for d in (1, 2, 3)]
    serial = corrections_table(specs, train, test)
    assert corrections_table(specs, train, test, n_jobs=2, cache=tmp_path / "loky") == serial
    with (
        distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                 dashboard_address=None) as cluster,
        distributed.Client(cluster),
        parallel_config(backend="dask"),
    ):
        assert corrections_table(specs, train, test, cache=tmp_path / "dask") == serial
    assert len(list((tmp_path / "dask").rglob("output.pkl"))) == 3


def test_cache_must_be_a_folder(tmp_path):
    train, test = small_digits()
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="cache must be a folder"):
        corrections_table([("FO", "perceptron", {})], train, test, cache=tmp_path / "file")
    with pytest.raises(TypeError, match="cache must be None or a folder path"):
        corrections_table([("FO", "perceptron", {})], train, test, cache=3)


# ---------------------------------------------------------------- bounds

def test_bound_ratios_hold_and_match_evaluate():
    data = make_separable(200, 5, margin=0.1, label_noise=0.05, seed=0)
    table = bound_ratios([("FO", "perceptron", {}), ("SO", "second_order", {})], data,
                         seeds=[0])
    applied = [row for row in table if row["applies"]]
    assert applied and all(row["holds"] and 0 < row["ratio"] <= 1 for row in applied)
    assert {row["label"] for row in table} == {"FO", "SO"}
    assert all(row["ratio"] == pytest.approx(row["mistakes"] / row["value"]) for row in applied)


# ---------------------------------------------------------------- the commands' configurations

@pytest.fixture
def homes(tmp_path, monkeypatch):
    return {"mnist": mnist_home(tmp_path / "mnist", monkeypatch),
            "usps": usps_home(tmp_path / "usps", monkeypatch),
            "rcv1": rcv1_home(tmp_path / "rcv1", monkeypatch),
            "empty": str(tmp_path / "empty")}


def test_fs_mnist_quick_report(homes):
    records, fig, markdown = freund_schapire.fs_mnist(quick=True, data_home=homes["mnist"],
                                           degrees=[1, 3], epochs=[0.1, 1])
    assert all(row["quick"] and row["n_train"] == N_TRAIN for row in records)
    assert {row["figure"] for row in records} == {"fs-mnist"}
    assert "## d = 3" in markdown and "SupVec" in markdown and "Mistake" in markdown
    assert "random performs the worst" in markdown and "Quick run" in markdown
    caption = [text for text in fig.findobj(matplotlib.text.Text) if text.get_gid() == "caption"]
    assert "quick (reduced sizes" in caption[0].get_text()


def test_radius_on_usps_is_native_and_centred(homes):
    records, _, markdown = ballseptron.ballseptron_radius_real("usps", quick=True,
                                                        data_home=homes["usps"],
                                                        radii=[0.0, 0.05])
    assert {row["multiclass"] for row in records} == {"native"}
    assert {row["params"]["degree"] for row in records} == {5}
    assert {row["params"]["coef0"] for row in records} == {0.5}
    assert len(records) == 2 * 2 and "radii r > 0 make" in markdown


def test_hop_ocr_quick_with_the_paper_beside(homes):
    records, _, markdown = higher_order.hop_ocr("usps", quick=True, data_home=homes["usps"],
                                        algorithms=["FO", "sparse-HO2"], kernels=["gauss"],
                                        params={("usps", "gauss", "FO"): {"gamma": 2.0},
                                                ("usps", "gauss", "sparse-HO2"): {
                                                    "gamma": 2.0, "c": 0.5}})
    assert [row["algorithm_name"] for row in records] == ["FO", "sparse-HO2"]
    assert records[1]["paper_corrections"] == 965 and records[1]["paper_matrix_updates"] == 440
    assert "| gauss | sparse-HO2 | gamma=2, c=0.5 |" in markdown and "965" in markdown


def test_hop_ocr_needs_parameters_for_every_cell(homes):
    with pytest.raises(ValueError, match="no parameters for usps/gauss/FO"):
        higher_order.hop_ocr("usps", quick=True, data_home=homes["usps"], params={})


def test_hop_ocr_search_chooses_from_the_grid(homes, monkeypatch):
    monkeypatch.setitem(higher_order.OCR_GRID, "gauss", {"gamma": (1.0, 4.0)})
    monkeypatch.setitem(higher_order.OCR_GRID, "SO", {"a": (1.0,)})
    records, chosen, markdown = higher_order.hop_ocr_search("mnist", algorithms=["FO", "SO"],
                                                    kernels=["gauss"], folds=3, quick=True,
                                                    data_home=homes["mnist"])
    assert len(records) == 2 * 2 * 3
    assert set(chosen) == {("mnist", "gauss", "FO"), ("mnist", "gauss", "SO")}
    assert chosen["mnist", "gauss", "SO"]["a"] == 1.0
    assert chosen["mnist", "gauss", "FO"]["gamma"] in (1.0, 4.0)
    assert markdown.count("**chosen**") == 2


def test_hop_rcv1_tasks(homes):
    records, _, markdown = higher_order.hop_rcv1(quick=True, data_home=homes["rcv1"], tasks=[70, 59])
    assert {row["task"] for row in records} == {"RCV1_70", "RCV1_59"}
    assert {row["category"] for row in records} == {"B", "E"}
    assert len(records) == 2 * 3 and "RCV1_59" in markdown and "767" in markdown


def test_bounds_mnist_digit_against_the_rest(homes):
    records, _, markdown = bounds_mnist.bounds_mnist(quick=True, data_home=homes["mnist"], digit=3,
                                             algorithms=["perceptron", "second_order"])
    assert {row["digit"] for row in records} == {3}
    assert all(row["holds"] for row in records if row["applies"])
    assert "MNIST 3 against the rest" in markdown


def test_missing_data_is_one_line_naming_the_loader_and_files(homes):
    for name, words in (("mnist", ["load_mnist", "train-images-idx3-ubyte.gz"]),
                        ("usps", ["load_usps", "usps, usps.t"])):
        with pytest.raises(FileNotFoundError) as error:
            common.load_real(name, homes["empty"])
        text = str(error.value)
        assert "\n" not in text and homes["empty"] in text
        assert all(word in text for word in words)


def test_missing_rcv1_is_one_line_without_downloading(tmp_path):
    with pytest.raises(FileNotFoundError) as error:
        common.load_real("rcv1", tmp_path)
    text = str(error.value)
    assert "\n" not in text and text.startswith("load_rcv1_tasks: RCV1 is not in")
    assert str(tmp_path) in text


def test_sizes_of_the_subsample():
    X, y = np.arange(20.0).reshape(10, 2), np.arange(10)
    Xs, ys = common.subsample(X, y, 4, seed=1)
    assert Xs.shape == (4, 2) and np.all(np.diff(ys) > 0) and np.array_equal(Xs[:, 0], 2 * ys)
    assert common.subsample(X, y, None)[0] is X and common.subsample(X, y, 50)[0] is X
    assert N_TEST < N_TRAIN
