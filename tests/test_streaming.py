"""Runs over files streamed in chunks (issue 34): equal to the run on the file read whole.

Small files and a tiny memory_budget, so that a run crosses many chunks (and epochs cross
the file's end): the chained warm starts must give the in-memory run's mistakes, margins,
state and data fingerprint, bit for bit.
"""

import bz2
import json
import re

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file

from perceptron_bounds import load_run, run_online
from perceptron_bounds.algorithms import available, get
from perceptron_bounds.bounds import evaluate
from perceptron_bounds.cli import main
from perceptron_bounds.datasets import load_data
from perceptron_bounds.datasets.chunks import FileChunks
from perceptron_bounds.kernels import rowwise_dot
from perceptron_bounds.streaming import STREAMED, run_file

BUDGET = 8_000  # bytes: blocks of 1 kB of text, about 7 rows of the files below


def data(n=400, d=6, seed=0, noise=0.3):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    X[rng.random((n, d)) < 0.3] = 0.0
    y = np.where(X @ rng.standard_normal(d) + noise * rng.standard_normal(n) > 0, 1, -1)
    return X, y


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("stream")
    X, y = data()
    svm = folder / "d.svm"
    dump_svmlight_file(X, y, str(svm), zero_based=False)
    csv = folder / "d.csv"
    np.savetxt(csv, np.column_stack([y, X]), delimiter=";", header="y;a;b;c;d;e;f",
               comments="")
    packed = folder / "d.svm.bz2"
    packed.write_bytes(bz2.compress(svm.read_bytes()))
    return {"svm": (svm, {"zero_based": False}), "csv": (csv, {"label_column": "first"}),
            "bz2": (packed, {"zero_based": False})}


def test_a_tiny_budget_makes_many_chunks(files):
    path, options = files["svm"]
    chunks = FileChunks(path, BUDGET, **options).scan()
    sizes = [X.shape[0] for X, _, _ in chunks]
    assert len(sizes) > 20 and sum(sizes) == chunks.n_rows == 400
    assert chunks.n_features == 6 and chunks.labels.tolist() == [-1, 1]


# Parameters beside the defaults that change what the loops keep.
VARIANTS = {"arow": {"diagonal": True, "r": 0.5}, "romma": {"aggressive": True},
            "shifting_perceptron": {"decay": 0.9}, "projected_perceptron": {"radius": 1.0},
            "ballseptron": {"r": 0.5}, "alma": {"p": 3.0, "alpha": 0.3},
            "second_order": {"a": 0.25}}
CASES = [(algorithm, kind, {}) for algorithm in STREAMED for kind in ("svm", "csv", "bz2")] + [
    (algorithm, "svm", params) for algorithm, params in VARIANTS.items()]


@pytest.mark.parametrize(("algorithm", "kind", "params"), CASES)
@pytest.mark.parametrize("epochs", [1, 3])
def test_streamed_run_is_the_in_memory_run(files, algorithm, kind, params, epochs):
    path, options = files[kind]
    X, y, _ = load_data(path, **options)
    form = {"form": "primal"} if "form" in get(algorithm).defaults else {}
    whole = run_online(algorithm, X, y, epochs=epochs, record_margins=True, **form, **params)
    streamed = run_file(algorithm, path, memory_budget=BUDGET, epochs=epochs,
                        record_margins=True, **options, **params)
    np.testing.assert_array_equal(streamed.mistake_trials, whole.mistake_trials)
    np.testing.assert_array_equal(streamed.margin_error_trials, whole.margin_error_trials)
    np.testing.assert_array_equal(streamed.margins, whole.margins)  # bit for bit
    np.testing.assert_array_equal(streamed.sample_index, whole.sample_index)
    assert streamed.params == whole.params and streamed.epochs == epochs
    assert not streamed.warm_started and streamed.n_features == whole.n_features
    for name, value in whole.state.items():
        np.testing.assert_array_equal(np.asarray(streamed.state[name]), np.asarray(value))
    assert streamed.data_fingerprint == whole.data_fingerprint
    np.testing.assert_array_equal(streamed.decision_function(X), whole.decision_function(X))


#: The streamed algorithms whose loops keep w as a scale times a vector or a running ||w||^2
#: (or ALMA_p's projected w), which their warm starts carry: with their parameters that
#: change what the loops keep.
CARRIED = [("romma", {}), ("romma", {"aggressive": True}), ("shifting_perceptron", {}),
           ("shifting_perceptron", {"decay": 0.1}), ("projected_perceptron", {"radius": 1.0}),
           ("ballseptron", {}), ("ballseptron", {"r": 0.5}), ("alma", {}),
           ("alma", {"alpha": 0.3, "C": 5.0}), ("alma", {"p": 3.0, "alpha": 0.3})]


@pytest.mark.parametrize(("algorithm", "params"), CARRIED)
@pytest.mark.parametrize("kind", ["svm", "csv"])
def test_carried_state_streams_bit_for_bit_at_any_budget(files, algorithm, params, kind):
    """From chunks of one to three rows to a few dozen: the run on the file read whole, its
    state (the carried v, scale and ||w||^2 included) and weights to the bit."""
    path, options = files[kind]
    X, y, _ = load_data(path, **options)
    whole = run_online(algorithm, X, y, epochs=2, record_margins=True, form="primal", **params)
    assert whole.state.keys() >= ({"theta"} if params.get("p", 2.0) > 2.0 else {"v", "scale"})
    for budget in (600, 5_000, 50_000):
        streamed = run_file(algorithm, path, memory_budget=budget, epochs=2,
                            record_margins=True, **options, **params)
        assert np.array_equal(streamed.mistake_trials, whole.mistake_trials), budget
        assert np.array_equal(streamed.margin_error_trials, whole.margin_error_trials)
        assert streamed.margins.tobytes() == whole.margins.tobytes()
        assert streamed.state.keys() == whole.state.keys()
        for name, value in whole.state.items():
            assert np.array_equal(streamed.state[name], value), (budget, name)
            assert np.asarray(streamed.state[name]).tobytes() == np.asarray(value).tobytes()
        assert streamed.weights.tobytes() == whole.weights.tobytes()


@pytest.mark.parametrize("kind", ["svm", "csv"])
def test_the_budgets_above_make_chunks_of_one_row_to_dozens(files, kind):
    path, options = files[kind]
    sizes = {budget: [X.shape[0] for X, _, _ in FileChunks(path, budget, **options).scan()]
             for budget in (600, 5_000, 50_000)}
    assert min(sizes[600]) == 1 and max(sizes[600]) <= 3 and max(sizes[50_000]) > 8


def test_a_streamed_run_evaluates_on_the_data(files):
    """Its fingerprint is the in-memory run's: evaluate accepts the file's data."""
    path, options = files["svm"]
    X, y, _ = load_data(path, **options)
    streamed = run_file("perceptron", path, memory_budget=BUDGET, **options)
    whole = run_online("perceptron", X, y)
    u = np.ones(6)
    assert str(evaluate(streamed, X, y, u=u)) == str(evaluate(whole, X, y, u=u))


def test_run_file_is_an_entry_point_of_the_package(files):
    import perceptron_bounds

    path, options = files["csv"]
    X, y, _ = load_data(path, **options)
    run = perceptron_bounds.run_file("perceptron", str(path), memory_budget=BUDGET, epochs=2,
                                     **options)
    np.testing.assert_array_equal(run.mistake_trials,
                                  run_online("perceptron", X, y, epochs=2).mistake_trials)


def test_every_other_algorithm_is_refused_in_one_line(files):
    path, options = files["svm"]
    for name in available():
        if name in STREAMED:
            continue
        with pytest.raises(ValueError) as info:
            run_file(name, path, memory_budget=BUDGET, **options)
        assert "cannot be streamed" in str(info.value) and "\n" not in str(info.value)
        assert ("it is randomized" if get(name).randomized else "no linear primal form") in (
            str(info.value))


@pytest.mark.parametrize(("options", "message"), [
    ({"shuffle": True}, "shuffle=True needs the rows in memory"),
    ({"kernel": "rbf"}, "linear primal forms"),
    ({"form": "dual"}, "linear primal forms"),
    ({"memory_budget": 0}, "memory_budget"),
    ({"variant": "adaptive", "R2": 0.5}, "R2=0.5 is below max ||x_t||^2"),
])
def test_what_a_stream_does_not_take(files, options, message):
    path, reader = files["svm"]
    algorithm = "second_order" if "variant" in options else "perceptron"
    with pytest.raises(ValueError, match=re.escape(message)):
        run_file(algorithm, path, **{"memory_budget": BUDGET, **reader, **options})


def test_bad_files_are_named_by_line_before_any_trial(tmp_path):
    cases = {
        "a.svm": ("1 1:0.5\n-1 2:1\n1 3:x\n", "line 3 is not valid svmlight"),
        "b.svm": ("1 1:0.5\n-1 2:inf\n", "inf at data row 2, feature index 2"),
        "c.csv": ("1,2,1\n3,4,-1\n5,6\n", "line 3 has 2 fields, expected 3"),
        "d.csv": ('1,2,"a"\n3,4,b\n', "line 1 is not 3 numbers"),  # quotes: load_data
        "g.csv": ("1,2,1\n" * 150 + "5,6\n", "line 151 is not 3 numbers separated by ','"),
        "e.svm": ("1 1:1\n2 1:1\n3 2:1\n", "3 label value(s); streaming runs binary data"),
        "f.npz": ("", "an .npz file is read whole"),
    }
    for name, (content, message) in cases.items():
        path = tmp_path / name
        path.write_text(content)
        with pytest.raises(ValueError) as info:
            run_file("perceptron", path, memory_budget=BUDGET,
                     **({"zero_based": False} if name.endswith(".svm") else {}))
        assert message in str(info.value) and "\n" not in str(info.value), str(info.value)


def test_cli_run_memory_budget_streams(files, capsys):
    path, _ = files["svm"]
    args = ["run", "--algorithm", "perceptron", "--data", str(path), "--one-based",
            "--epochs", "2", "--json"]
    assert main(args) == 0
    whole = json.loads(capsys.readouterr().out)
    assert main([*args, "--memory-budget", "8kB"]) == 0
    streamed = json.loads(capsys.readouterr().out)
    assert streamed == whole
    assert main([*args[:-1], "--memory-budget", "8kB", "--shuffle"]) == 2
    assert "--shuffle need(s) it in memory" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main([*args[:-1], "--memory-budget", "lots"])
    assert info.value.code == 2
    assert "expected a size such as 256MB" in capsys.readouterr().err


def test_a_line_longer_than_the_buffer_after_the_first_block(tmp_path):
    """The buffer grows while the reader still holds a view of the block before it."""
    path = tmp_path / "long.svm"
    rows = ["1 1:1", "-1 2:1"] * 200 + ["1 " + " ".join(f"{j}:1" for j in range(1, 400))]
    path.write_text("\n".join(rows) + "\n")
    X, y, _ = load_data(path, zero_based=False)
    streamed = run_file("perceptron", path, memory_budget=BUDGET, zero_based=False)
    np.testing.assert_array_equal(streamed.mistake_trials,
                                  run_online("perceptron", X, y).mistake_trials)


def test_text_labels_stream_as_they_load(tmp_path):
    """A CSV file's label column of words: streamed as read whole (classes, run, fingerprint);
    numbers in some blocks and words in others refused in one line."""
    X, y = data(200, 4)
    path = tmp_path / "words.tsv"
    words = np.where(y > 0, "spam", "ham")
    path.write_text("".join(f"{label}\t" + "\t".join(map(repr, row.tolist())) + "\n"
                            for label, row in zip(words, X, strict=True)))
    X_read, y_read, _ = load_data(path, label_column="first")
    whole = run_online("perceptron", X_read, y_read, epochs=2)
    streamed = run_file("perceptron", path, memory_budget=BUDGET, epochs=2, label_column="first")
    assert streamed.classes.tolist() == ["ham", "spam"] == whole.classes.tolist()
    np.testing.assert_array_equal(streamed.mistake_trials, whole.mistake_trials)
    assert streamed.data_fingerprint == whole.data_fingerprint
    mixed = tmp_path / "mixed.csv"
    mixed.write_text("1,2,1\n" * 150 + "1,2,spam\n")
    with pytest.raises(ValueError, match="labels of numbers in some lines and of text") as info:
        run_file("perceptron", mixed, memory_budget=BUDGET)
    assert "\n" not in str(info.value)


def test_chunks_scanned_once_serve_several_runs(files, monkeypatch):
    path, options = files["csv"]
    chunks = FileChunks(path, BUDGET, **options).scan()
    scans = []
    monkeypatch.setattr(FileChunks, "scan", lambda self: scans.append(self) or self)
    for algorithm in ("perceptron", "arow"):
        shared = run_file(algorithm, chunks, epochs=2)
        monkeypatch.undo()
        alone = run_file(algorithm, path, memory_budget=BUDGET, epochs=2, **options)
        monkeypatch.setattr(FileChunks, "scan", lambda self: scans.append(self) or self)
        np.testing.assert_array_equal(shared.mistake_trials, alone.mistake_trials)
        assert shared.data_fingerprint == alone.data_fingerprint
    assert scans == []


@pytest.mark.parametrize("kind", ["svm", "csv", "bz2"])
def test_a_scan_with_norms_finds_the_largest_squared_norm_as_the_run_does(files, kind):
    """scan(norms=True): the R^2 that run_online takes from the rows read whole, same bits;
    a FileChunks scanned without them is scanned again by an adaptive run that needs them."""
    path, options = files[kind]
    X, y, _ = load_data(path, **options)
    chunks = FileChunks(path, BUDGET, **options).scan()
    assert chunks.max_norm_sq is None
    whole = run_online("second_order", X, y, variant="adaptive", form="primal")
    run = run_file("second_order", chunks, variant="adaptive")
    assert np.float64(chunks.max_norm_sq).tobytes() == np.float64(
        rowwise_dot(X, X).max()).tobytes()
    assert run.state["R"] == whole.state["R"] and run.params["R2"] is None
    np.testing.assert_array_equal(run.state["a_k"], whole.state["a_k"])


# Streamed by carrying what their loops keep (issue 34, item 3): the Higher-Order
# Perceptron's w and pending matrix change, the pseudoinverse's w, the adaptive a_k's R^2
# from the file's scan, the voted Perceptron's running sum of its norms.
LOOP_STATE = [("higher_order", {}), ("higher_order", {"sparse": True}),
              ("higher_order", {"c": 0.9, "normalize": False}),
              ("higher_order", {"form": "implicit"}),
              ("higher_order", {"form": "implicit", "p": 3.0}),
              ("second_order", {"variant": "pinv"}), ("second_order", {"variant": "adaptive"}),
              ("second_order", {"variant": "adaptive", "c": 0.05}), ("voted_perceptron", {})]


def bits(value):
    """The bytes of a state value (-0.0 and 0.0 told apart), with its kind and shape."""
    if sp.issparse(value):
        value = value.toarray()
    value = np.asarray(value)
    return value.dtype.str, value.shape, value.tobytes()


def assert_same_bits(streamed, whole, X):
    """Mistakes, margins, state and hypothesis of two runs equal bit for bit."""
    np.testing.assert_array_equal(streamed.mistake_trials, whole.mistake_trials)
    assert bits(streamed.margins) == bits(whole.margins)
    assert streamed.params == whole.params
    assert streamed.state.keys() == whole.state.keys()
    for name, value in whole.state.items():
        assert bits(streamed.state[name]) == bits(value), name
    for name, value in vars(whole.hypothesis).items():
        if isinstance(value, np.ndarray) or sp.issparse(value):
            assert bits(getattr(streamed.hypothesis, name)) == bits(value), name
    assert bits(streamed.decision_function(X)) == bits(whole.decision_function(X))
    assert streamed.data_fingerprint == whole.data_fingerprint


@pytest.mark.parametrize(("algorithm", "params"), LOOP_STATE)
@pytest.mark.parametrize("kind", ["svm", "csv"])
def test_loop_state_streams_bit_for_bit_and_saved(tmp_path_factory, algorithm, params, kind):
    """Several budgets (chunks of a few rows to a few dozen), two epochs; wide sparse rows,
    so that the Higher-Order Perceptron's products take each of their routes."""
    folder = tmp_path_factory.mktemp("carried")
    X, y = data(300, 24, seed=3, noise=0.5)
    X[:, 12:] *= np.random.default_rng(5).random(300)[:, None] < 0.2  # rows of 6 to 18 nonzeros
    path = folder / f"d.{kind}"
    if kind == "svm":
        dump_svmlight_file(X, y, str(path), zero_based=True)
        options = {"zero_based": True}
    else:
        np.savetxt(path, np.column_stack([X, y]), delimiter=",")
        options = {}
    X, y, _ = load_data(path, **options)
    form = {} if "form" in params else {"form": "primal"}
    whole = run_online(algorithm, X, y, epochs=2, record_margins=True, **form, **params)
    assert whole.mistakes > 20
    for budget in (3_000, 12_000, 50_000):
        streamed = run_file(algorithm, path, memory_budget=budget, epochs=2,
                            record_margins=True, **options, **params)
        assert_same_bits(streamed, whole, X)
    saved = load_run(streamed.save(folder / "run.npz"))
    assert_same_bits(saved, streamed, X)
    # a saved streamed run continues as the run on the file read whole: one more pass
    again = run_online(algorithm, X, y, warm_start=saved, record_margins=True)
    assert_same_bits(again, run_online(algorithm, X, y, warm_start=whole, record_margins=True),
                     X)
