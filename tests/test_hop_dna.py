"""``table hop-dna`` (issue 26): paper 000's Table 1 protocol on expression matrices the user
gives, here small generated fixtures of the data sets' shape (58 and 96 profiles, a label
column; fewer genes, so that the suite stays fast)."""

import csv
import dataclasses

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from sklearn.datasets import dump_svmlight_file  # noqa: E402

from perceptron_bounds.cli import main, table  # noqa: E402
from perceptron_bounds.datasets import normalize_rows  # noqa: E402
from perceptron_bounds.online import run_online  # noqa: E402
from perceptron_bounds.papers import REPRODUCTIONS, hop_dna  # noqa: E402
from perceptron_bounds.papers.hop_dna import (  # noqa: E402
    DNA_ALGORITHMS,
    DNA_PAPER,
    dna_specs,
    hop_dna_records,
    read_expression,
)


def profiles(n_rows, n_genes, seed):
    """Expression-like data: a few informative genes, labels named as in the papers."""
    rng = np.random.default_rng(seed)
    X = rng.lognormal(size=(n_rows, n_genes))
    y = np.where(X[:, :5].sum(axis=1) > np.median(X[:, :5].sum(axis=1)), "ER+", "ER-")
    return X, y


def write_csv(path, X, y, delimiter=",", label_first=False):
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle, delimiter=delimiter)
        for row, label in zip(X, y, strict=True):
            cells = [f"{value:.5f}" for value in row]
            writer.writerow([label, *cells] if label_first else [*cells, label])
    return path


@pytest.fixture
def files(tmp_path):
    breast = write_csv(tmp_path / "breast.csv", *profiles(58, 40, 0))
    lymphoma = write_csv(tmp_path / "lymphoma.csv", *profiles(96, 50, 1), delimiter="\t")
    return str(breast), str(lymphoma)


def test_the_grids_are_the_papers():
    assert list(DNA_ALGORITHMS) == ["FO", "HO2", "HO4", "HO7(0)", "HO7", "HO10", "SO"]
    assert [spec.params for spec in dna_specs("HO7")] == [
        {"p": 7.0, "c": c} for c in (0.2, 0.4, 0.6, 0.8)]
    assert dna_specs("HO7(0)")[0].algorithm == "pnorm"
    assert set(DNA_PAPER) == {"Breast", "Lymphoma"}
    assert all(set(table) == set(DNA_ALGORITHMS) for table in DNA_PAPER.values())


def test_every_setting_averaged_over_the_splits_and_the_best_marked(files):
    records = hop_dna_records(files, algorithms=("FO", "HO2", "SO"), seeds=3)
    assert len(records) == 2 * (1 + 4 + 6)
    breast = [row for row in records if row["data"] == "Breast"]
    assert {(row["n_train"], row["n_test"], row["n_genes"]) for row in breast} == {(47, 11, 40)}
    assert {(row["n_train"], row["n_test"]) for row in records if row["data"] == "Lymphoma"} \
        == {(60, 36)}
    for data in ("Breast", "Lymphoma"):
        for algorithm in ("FO", "HO2", "SO"):
            group = [row for row in records
                     if row["data"] == data and row["algorithm_name"] == algorithm]
            best = [row for row in group if row["best"]]
            assert len(best) == 1
            assert best[0]["test_error"] == min(row["test_error"] for row in group)
            assert best[0]["paper_corrections"] == DNA_PAPER[data][algorithm][0]


def test_a_split_is_five_epochs_on_a_random_training_set(files):
    """Split s: the first 47 rows of default_rng(s)'s permutation, 5 epochs, the rest tests."""
    [record] = hop_dna_records(files[:1], algorithms=("FO",), seeds=2)
    _, X, y = read_expression(files[0])
    updates, errors = [], []
    for seed in (0, 1):
        order = np.random.default_rng(seed).permutation(58)
        run = run_online("perceptron", X[order[:47]], y[order[:47]], epochs=5)
        updates.append(run.mistakes)
        errors.append(np.mean(run.predict(X[order[47:]]) != y[order[47:]]))
    assert record["corrections"] == np.mean(updates) and record["n_seeds"] == 2
    assert record["test_error"] == pytest.approx(np.mean(errors))


def test_csv_layouts_and_svmlight_read_alike(tmp_path):
    X, y = profiles(58, 30, 2)
    labels = np.where(y == "ER+", 1, -1)
    plain = read_expression(write_csv(tmp_path / "a.csv", X, y))
    first = read_expression(write_csv(tmp_path / "b.csv", X, y, ";", label_first=True),
                            label_column="first")
    dump_svmlight_file(X, labels, str(tmp_path / "c.svm"), zero_based=True)
    svm = read_expression(tmp_path / "c.svm")
    assert plain[0] == first[0] == svm[0] == "Breast"
    np.testing.assert_allclose(plain[1], normalize_rows(np.round(X, 5)))
    np.testing.assert_allclose(first[1], plain[1])
    np.testing.assert_allclose(np.linalg.norm(svm[1], axis=1), 1.0)
    assert (plain[2] == first[2]).all() and (svm[2] == np.where(labels > 0, 1.0, -1.0)).all()


def test_other_sizes_and_two_files_of_one_data_set_are_one_line_errors(tmp_path, files):
    odd = write_csv(tmp_path / "odd.csv", *profiles(50, 10, 3))
    with pytest.raises(ValueError, match="has 50 rows; paper 000's Table 1 states its splits "
                       "for Breast: 58 profiles, 47/11"):
        hop_dna_records([odd], seeds=1)
    with pytest.raises(ValueError, match="one matrix per data set .* got Breast, Breast"):
        hop_dna_records([files[0], files[0]], seeds=1)
    with pytest.raises(ValueError, match="algorithms must be distinct names among FO"):
        hop_dna_records(files, algorithms=("HO3",), seeds=1)


def test_the_cache_keeps_every_cell(files, tmp_path):
    cache = tmp_path / "cache"
    first = hop_dna_records(files[:1], algorithms=("HO7(0)",), seeds=2, cache=cache)
    assert any(cache.rglob("output.pkl"))
    assert hop_dna_records(files[:1], algorithms=("HO7(0)",), seeds=2, cache=cache) == first


def test_the_command_writes_the_table(files, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["table", "hop-dna", "--data", files[0], "--data", files[1], "--quick",
                 "--seeds", "2", "--algorithms", "FO,HO7(0),HO4", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    for suffix in ("png", "pdf", "csv", "md"):
        assert (out / f"hop-dna.{suffix}").stat().st_size > 0
    report = (out / "hop-dna.md").read_text()
    assert report.strip() in printed and "| HO7(0) | - |" in report
    assert "Breast: train updates (paper)" in report and "(47.4)" in report
    assert REPRODUCTIONS["hop-dna"] is hop_dna.hop_dna


@pytest.mark.parametrize(("args", "message"), [
    (["table", "hop-dna"], "hop-dna: give the expression matrices, --data FILE"),
    (["table", "hop-dna", "--data", "x.csv", "--download"], "--download: hop-dna reads"),
    (["table", "hop-dna", "--data", "x.csv", "--algorithms", "FO,SO2"],
     "--algorithms: unknown SO2"),
    (["table", "hop-ocr", "--data", "mnist", "--data", "usps"],
     "--data: hop-ocr takes one data set, got mnist, usps"),
    (["table", "hop-ocr", "--label-column", "first"], "--label-column: only hop-dna"),
    (["table", "hop-rcv1", "--delimiter", ";"], "--delimiter: only hop-dna"),
])
def test_bad_options_one_line(tmp_path, capsys, args, message):
    try:
        code = main([*args, "--out", str(tmp_path / "out")])
    except SystemExit as parsing:
        code = parsing.code
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err


def test_the_command_runs_on_a_dask_cluster(files, tmp_path, capsys, monkeypatch):
    """--scheduler ADDRESS: the experiment runs under joblib's Dask backend with a client of
    that scheduler, n_jobs left to the cluster; the table is the one of a local run."""
    distributed = pytest.importorskip("distributed")
    from joblib.parallel import get_active_backend

    seen = []
    experiment = hop_dna.hop_dna_records

    def spy(*args, **options):
        seen.append((type(get_active_backend()[0]).__name__, options["n_jobs"],
                     distributed.default_client().scheduler.address))
        return experiment(*args, **options)

    args = ["table", "hop-dna", "--data", files[0], "--quick", "--seeds", "2",
            "--algorithms", "FO,HO2"]
    assert main([*args, "--out", str(tmp_path / "local")]) == 0
    monkeypatch.setitem(table.TABLES, "hop-dna", dataclasses.replace(hop_dna.hop_dna,
                                                                     experiment=spy))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        assert main([*args, "--out", str(tmp_path / "remote"), "--scheduler",
                     cluster.scheduler_address]) == 0
        assert seen == [("DaskDistributedBackend", None, cluster.scheduler_address)]
    capsys.readouterr()
    assert (tmp_path / "remote" / "hop-dna.csv").read_text() == (
        tmp_path / "local" / "hop-dna.csv").read_text()


def test_an_unreachable_scheduler_is_one_line(files, tmp_path, capsys):
    pytest.importorskip("distributed")
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        code = main(["table", "hop-dna", "--data", files[0], "--quick", "--seeds", "1",
                     "--algorithms", "FO", "--scheduler", "tcp://127.0.0.1:9", "--out",
                     str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "127.0.0.1:9" in err, err
