"""Experiments of the papers (theory §5): tidy tables, parallel sweeps, what the figures show."""

import doctest
import importlib
import inspect
import math
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from perceptron_bounds import run_online
from perceptron_bounds.datasets import make_hop_artificial, make_separable, make_unit_circle
from perceptron_bounds.experiments import (
    AlgorithmSpec,
    epochs_curve,
    noise_curve,
    radius_curve,
    sop_toy,
    summarize,
    write_csv,
)
from perceptron_bounds.experiments._cells import WORKER_REPLACED, run_cells


@pytest.fixture(scope="module")
def hop_small():
    return make_hop_artificial(0.0, n_train=150, n_test=100, n_features=40, n_relevant=8, seed=3)


# --- epochs_curve -------------------------------------------------------------------------


def test_epochs_curve_records_are_tidy(hop_small):
    train, test = hop_small
    table = epochs_curve([("FO", "perceptron", {})], train, test, epochs=(3, 1, 2), seeds=[4, 5])
    assert [(row["seed"], row["epochs"]) for row in table] == [
        (4, 1),
        (4, 2),
        (4, 3),
        (5, 1),
        (5, 2),
        (5, 3),
    ]
    row = table[0]
    assert row["experiment"] == "epochs_curve" and row["label"] == "FO"
    assert row["params"]["kernel"] == "linear"  # resolved parameters, defaults included
    assert (row["n_train"], row["n_test"]) == (150, 100)
    for seed in (4, 5):
        updates = [r["updates"] for r in table if r["seed"] == seed]
        assert updates == sorted(updates) and updates[0] >= 1  # cumulative


def _checkpoint_matches_scratch(spec, train, test, seed):
    table = epochs_curve([spec], train, test, epochs=(1, 3, 4), seeds=[seed])
    order = np.random.default_rng(seed).permutation(train.X.shape[0])
    for row in table:
        run = run_online(
            spec.algorithm, train.X[order], train.y[order], epochs=row["epochs"], **spec.params
        )
        assert row["updates"] == run.mistakes
        assert row["test_error"] == np.mean(run.predict(test.X) != test.y)


def test_epochs_checkpoints_equal_runs_from_scratch(hop_small):
    # Continuing a run from checkpoint to checkpoint is the same as one run of e epochs.
    _checkpoint_matches_scratch(AlgorithmSpec("FO", "perceptron"), *hop_small, seed=1)


def test_epochs_curve_sparse_equals_dense(hop_small):
    train, test = hop_small
    sparse_train = (sp.csr_matrix(train.X), train.y)
    spec = [("FO", "perceptron", {})]
    dense = epochs_curve(spec, train, test, epochs=(1, 2), seeds=[0])
    assert epochs_curve(spec, sparse_train, test, epochs=(1, 2), seeds=[0]) == dense


@pytest.mark.parametrize(
    "spec",
    [
        AlgorithmSpec("HO_4(0.4)", "higher_order", {"p": 4.0, "c": 0.4}),
        AlgorithmSpec("SO(0.2)", "second_order", {"a": 0.2}),
    ],
)
def test_epochs_checkpoints_equal_runs_from_scratch_higher_orders(hop_small, spec):
    _checkpoint_matches_scratch(spec, *hop_small, seed=2)


def test_hop_fig2_sparse_target_favours_large_p():
    # HO paper Figure 2, Artificial 0.0 after 20 epochs: HO_4(0.4) and HO_7(0.4) reach a
    # clearly lower test error than FO (reduced size: n = 200, 20 relevant, 500 examples).
    train, test = make_hop_artificial(
        0.0, n_train=500, n_test=1000, n_features=200, n_relevant=20, seed=0
    )
    specs = [
        ("FO", "perceptron", {}),
        ("HO_4(0.4)", "higher_order", {"p": 4.0, "c": 0.4}),
        ("HO_7(0.4)", "higher_order", {"p": 7.0, "c": 0.4}),
    ]
    table = epochs_curve(specs, train, test, epochs=(20,), seeds=[0, 1])
    error = {row["label"]: row["mean"] for row in summarize(table, ["label"], "test_error")}
    assert error["HO_4(0.4)"] < error["FO"] - 0.03
    assert error["HO_7(0.4)"] < error["FO"] - 0.03


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"specs": []}, ValueError, "specs is empty"),
        ({"specs": "perceptron"}, TypeError, "specs must be a list"),
        ({"specs": [("FO", "nope", {})]}, ValueError, "algorithm must be one of"),
        ({"specs": [("A", "perceptron"), ("A", "perceptron")]}, ValueError, "distinct"),
        ({"specs": [("FO", "perceptron", {"q": 1})]}, TypeError, "unexpected parameter"),
        ({"epochs": (0, 1)}, ValueError, "epochs must be in"),
        ({"epochs": (2, 2)}, ValueError, "distinct integers"),
        ({"seeds": [-1]}, ValueError, "seed"),
        ({"n_jobs": 0}, ValueError, "n_jobs must be a nonzero"),
        ({"test": (np.ones((3, 2)), [1, -1, 1])}, ValueError, "test has 2 features"),
        ({"train": np.ones((3, 2))}, TypeError, "train must be a Dataset"),
    ],
)
def test_epochs_curve_rejects_bad_input(hop_small, kwargs, error, match):
    args = {
        "specs": [("FO", "perceptron", {})],
        "train": hop_small.train,
        "test": hop_small.test,
        **kwargs,
    }
    with pytest.raises(error, match=match):
        epochs_curve(**args)


# --- parallel sweeps ----------------------------------------------------------------------


def _sweep(**options):
    data = make_separable(300, 6, margin=0.02, label_noise=0.1, seed=1)
    return radius_curve([0.0, 0.05, 0.2], data, seeds=[0, 1], **options)


def test_results_do_not_depend_on_n_jobs():
    serial = _sweep(n_jobs=1)
    assert _sweep(n_jobs=2) == serial
    assert _sweep(n_jobs=-1) == serial


def test_dask_local_cluster_gives_the_serial_results():
    distributed = pytest.importorskip("distributed")
    from joblib import parallel_config

    serial = _sweep(n_jobs=1)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        with parallel_config(backend="dask"):
            remote = _sweep()
        assert len(client.scheduler_info()["workers"]) == 2
    assert remote == serial


# --- radius_curve -------------------------------------------------------------------------


def test_radius_curve_r0_is_the_perceptron_and_rates_are_fractions():
    data = make_separable(400, 5, margin=0.02, label_noise=0.05, seed=7)
    table = radius_curve([0.0, 0.1], data, epochs=2)
    perceptron = run_online("perceptron", data.X, data.y, epochs=2)
    assert table[0]["mistakes"] == perceptron.mistakes and table[0]["margin_errors"] == 0
    assert table[1]["margin_errors"] > 0
    for row in table:
        assert row["n_trials"] == 800
        assert row["mistake_rate"] == row["mistakes"] / 800
        assert row["margin_error_rate"] == row["margin_errors"] / 800
    with pytest.raises(TypeError, match="radii"):
        radius_curve([0.1], data, r=0.2)
    with pytest.raises(ValueError, match="radii must lie in"):
        radius_curve([-0.1], data)



def test_radius_curve_rejects_bad_arguments_before_any_cell_runs(monkeypatch):
    import perceptron_bounds.experiments.radius as radius

    monkeypatch.setattr(radius, "run_cells", lambda *a, **k: pytest.fail("a cell ran"))
    data = make_separable(50, 3, seed=7)
    with pytest.raises(ValueError, match="epochs must be in"):
        radius_curve([0.1], data, epochs=0)
    with pytest.raises(TypeError, match="unexpected parameter"):
        radius_curve([0.1], data, kernal="rbf")


# --- noise_curve --------------------------------------------------------------------------


def test_noise_curve_recomputes_its_bounds():
    (row,) = noise_curve("label", [0.05], n=500, seeds=[3])
    X, y, u = make_unit_circle(500, 0.15, label_noise=0.05, seed=3)
    losses = np.maximum(0.0, 0.15 - y * (X @ u))
    R = np.linalg.norm(X, axis=1).max()
    assert row["mistakes"] == run_online("perceptron", X, y).mistakes
    assert math.isclose(row["D1"], losses.sum(), rel_tol=1e-12)
    assert math.isclose(
        row["d2_bound"], ((R + np.sqrt((losses**2).sum())) / 0.15) ** 2, rel_tol=1e-12
    )
    assert math.isclose(
        row["d1_bound"], ((R + np.sqrt(0.15 * losses.sum())) / 0.15) ** 2, rel_tol=1e-12
    )


def test_noise_curve_label_noise_makes_the_d2_bound_meaningless():
    # Ballseptron paper Fig. 3 bottom, at the paper's size (T = 10,000, u = the
    # generating separator, gamma = 0.15): the D2-bound exceeds T from eta = 0.04 on,
    # the D1-bound stays below the D2-bound for every eta > 0, and both hold.
    table = noise_curve("label", [0.0, 0.01, 0.02, 0.04, 0.06, 0.1], seeds=[0, 1])
    for row in table:
        assert row["mistakes"] <= row["d1_bound"] and row["mistakes"] <= row["d2_bound"]
        if row["level"] >= 0.04:
            assert row["d2_bound_rate"] > 1.0
        if row["level"] > 0:
            assert row["d1_bound"] < row["d2_bound"]
            assert row["d1_bound_rate"] < 1.0


def test_noise_curve_instance_noise_runs_and_bounds_hold():
    table = noise_curve("instance", [0.0, 0.2, 0.5], n=3000)
    assert [row["level"] for row in table] == [0.0, 0.2, 0.5]
    assert table[0]["R"] == pytest.approx(1.0) and table[-1]["R"] > 1.0
    for row in table:
        assert row["mistakes"] <= min(row["d1_bound"], row["d2_bound"])
    with pytest.raises(ValueError, match="kind must be one of"):
        noise_curve("both")
    with pytest.raises(ValueError, match="eta must lie in"):
        noise_curve("label", [1.5])


# --- sop_toy ------------------------------------------------------------------------------


def test_sop_toy_second_order_wins_only_on_the_nondominant_target():
    # SO paper sec. 5: SO beats FO clearly on the non-dominant-target data set, not on the
    # dominant one (reduced size: 1000 + 1000 examples, 4 permutations).
    table = sop_toy(n_train=1000, n_test=1000, n_permutations=4)
    assert len(table) == 2 * 4 * 4
    mean = {
        (row["target"], row["label"]): row["mean"]
        for row in summarize(table, ["target", "label"], "test_mistakes")
    }
    so_labels = ["SO(1)", "SO(10)", "SO(50)"]
    assert all(mean["nondominant", so] < mean["nondominant", "FO"] for so in so_labels)
    assert min(mean["nondominant", so] for so in so_labels) < 0.75 * mean["nondominant", "FO"]
    assert all(mean["dominant", so] > 0.85 * mean["dominant", "FO"] for so in so_labels)


# --- tables -------------------------------------------------------------------------------


def test_summarize_and_write_csv(tmp_path):
    rows = [
        {"g": "a", "v": 1.0, "params": {"p": 2}},
        {"g": "a", "v": 3.0, "params": {"p": 2}},
        {"g": "b", "v": 5.0, "params": {"p": 4}, "extra": 1},
    ]
    assert summarize(rows, ["g"], "v") == [
        {"g": "a", "mean": 2.0, "std": math.sqrt(2.0), "n": 2},
        {"g": "b", "mean": 5.0, "std": 0.0, "n": 1},
    ]
    path = write_csv(rows, tmp_path / "t.csv")
    lines = Path(path).read_text().splitlines()
    assert lines[0] == "g,v,params,extra"
    assert lines[1] == 'a,1.0,"{""p"": 2}",'


@pytest.mark.parametrize(
    "module",
    [
        "_tables",
        "experiments.epochs",
        "experiments.noise",
        "experiments.radius",
        "papers.common",
        "datasets.synthetic",
        "datasets.loaders",
        "plots.bounds",
        "plots.curves",
        "plots.style",
    ],
)
def test_docstring_examples_run(module):
    """The Examples sections of the experiments, data sets and plots are doctested."""
    result = doctest.testmod(importlib.import_module(f"perceptron_bounds.{module}"))
    assert result.attempted > 0 and result.failed == 0


def _cell_warning_as_loky_does(k):
    warnings.warn(f"{WORKER_REPLACED}. This can be caused by a too short worker timeout or by "
                  "a memory leak.", UserWarning, stacklevel=1)
    return [{"k": k}]


def test_run_cells_silences_lokys_worker_replaced_warning_only():
    """Issue 35: the full atlas printed loky's warning when loky replaced a worker grown by
    300 MB (no cell lost); the words silenced are still loky's, and other warnings pass."""
    from joblib.externals.loky import process_executor

    joined = re.sub(r'"\s+"', "", inspect.getsource(process_executor))  # its literals joined
    assert WORKER_REPLACED in joined
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert run_cells(_cell_warning_as_loky_does, [{"k": 1}, {"k": 2}], n_jobs=1,
                         progress=False, desc="cells") == [{"k": 1}, {"k": 2}]
        warnings.warn("another", UserWarning, stacklevel=1)
    assert [str(w.message) for w in seen] == ["another"]
