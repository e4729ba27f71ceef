"""OnlineRun.save and load_run: a run saved without pickle loads back identical.

Identical means: every field equal, arrays bit for bit with the same dtypes,
shapes and read-only flags, the same hypothesis class, the same predictions
(every method of the voted hypothesis) and the same bound reports.
"""

import dataclasses
import doctest
import importlib
import io
import json
import os
import pickle
import pkgutil
import re
import runpy
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import noisy_separable

import perceptron_bounds
from perceptron_bounds import algorithms, hypothesis, load_run, persistence, registry, run_online
from perceptron_bounds.algorithms import available, voted
from perceptron_bounds.bounds import evaluate

ALGORITHMS = available()
X, Y = noisy_separable(n_samples=40, n_features=4, noise=0.1, seed=21)
X_NEW = np.random.default_rng(3).standard_normal((25, 4))
XS = sp.csr_matrix(X)


def same_value(a, b, where="run"):
    """Assert a and b are the same value: same types all the way down, arrays bit for bit."""
    assert type(a) is type(b), f"{where}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, np.ndarray):
        assert (a.dtype, a.shape) == (b.dtype, b.shape), where
        assert a.flags.writeable == b.flags.writeable, f"{where}: writeable"
        assert a.flags.f_contiguous == b.flags.f_contiguous, f"{where}: memory order"
        if a.dtype.hasobject:
            assert [type(v) for v in a.flat] == [type(v) for v in b.flat], where
            assert a.tolist() == b.tolist(), where
        else:
            assert a.tobytes() == b.tobytes(), where
    elif sp.issparse(a):
        assert a.shape == b.shape, where
        for part in ("data", "indices", "indptr"):
            same_value(getattr(a, part), getattr(b, part), f"{where}.{part}")
    elif dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            same_value(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, dict):
        assert list(a) == list(b), where
        for key in a:
            same_value(a[key], b[key], f"{where}[{key!r}]")
    elif isinstance(a, list | tuple):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            same_value(x, y, f"{where}[{i}]")
    else:  # scalars: repr tells -0.0 from 0.0, keeps every bit of a float, and shows nan
        assert repr(a) == repr(b), where


def same_behaviour(a, b, X, y):
    """Same scores and labels on the training and on new data, and the same bound report."""
    options = [{}]
    if isinstance(a.hypothesis, voted.VotedHypothesis):
        options = [{"method": m, "normalize": n, "seed": 7}
                   for m in voted.VOTE_METHODS for n in (False, True)]
    for data in (X, X_NEW):
        for option in options:
            np.testing.assert_array_equal(a.decision_function(data, **option),
                                          b.decision_function(data, **option), strict=True)
            np.testing.assert_array_equal(a.predict(data, **option), b.predict(data, **option),
                                          strict=True)
    original, loaded = evaluate(a, X, y), evaluate(b, X, y)
    assert repr(loaded.to_records()) == repr(original.to_records())
    assert str(loaded) == str(original)


def round_trip(run, folder):
    path = run.save(Path(folder) / "run")
    assert path == os.path.join(folder, "run.npz")
    loaded = load_run(path)
    same_value(run, loaded)
    return loaded


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_algorithm_round_trips(algorithm, tmp_path):
    run = run_online(algorithm, X, Y, epochs=2, shuffle=True, seed=4, record_margins=True)
    same_behaviour(run, round_trip(run, tmp_path), X, Y)


# Every form and variant whose hypothesis (class or content) differs; CSR input where the
# hypothesis keeps CSR rows (the voted Perceptron's support vectors) or the loops take it.
CASES = {
    "perceptron-rbf": ("perceptron", {"kernel": "rbf"}, X),
    "perceptron-linear-dual": ("perceptron", {"form": "dual"}, X),
    "perceptron-csr": ("perceptron", {}, XS),
    "voted-poly": ("voted_perceptron", {"kernel": "poly", "degree": 2}, X),
    "voted-csr": ("voted_perceptron", {}, XS),
    "ballseptron-rbf": ("ballseptron", {"kernel": "rbf", "r": 0.2}, X),
    **{f"so-{variant}-{form}": ("second_order", {"variant": variant, "form": form}, X)
       for variant in ("inverse", "adaptive", "pinv") for form in ("primal", "dual")},
    "so-pinv-rbf": ("second_order", {"variant": "pinv", "kernel": "rbf"}, X),
    "so-adaptive-poly": ("second_order", {"variant": "adaptive", "kernel": "poly"}, X),
    "so-pinv-csr": ("second_order", {"variant": "pinv"}, XS),
    **{f"ho-{form}": ("higher_order", {"form": form}, X)
       for form in ("primal", "dual", "implicit")},
    "ho-sparse": ("higher_order", {"sparse": True}, X),
    "ho-sparse-csr": ("higher_order", {"sparse": True}, XS),
    "ho-p3": ("higher_order", {"p": 3.0}, X),
    "ho-rho-schedule": ("higher_order", {"rho": np.linspace(0.05, 0.5, 80)}, X),
    "ho-rbf-raw": ("higher_order", {"kernel": "rbf", "normalize": False}, X),
    "pnorm-p4-raw": ("pnorm", {"p": 4.0, "normalize": False}, X),
}


@pytest.mark.parametrize("case", CASES)
def test_every_form_and_variant_round_trips(case, tmp_path):
    algorithm, params, data = CASES[case]
    run = run_online(algorithm, data, Y, epochs=2, record_margins=True, **params)
    same_behaviour(run, round_trip(run, tmp_path), data, Y)


Y3 = np.digitize(X[:, 0] + 0.3 * X[:, 1], [-0.5, 0.5])  # three classes
# Multiclass runs (issue 11): one-vs-rest (class runs nested in the file) and native.
MULTICLASS_CASES = {
    "ovr-perceptron": ("perceptron", {"multiclass": "ovr"}, X),
    "ovr-voted-rbf": ("voted_perceptron", {"kernel": "rbf"}, X),
    "ovr-so-csr": ("second_order", {"variant": "pinv"}, XS),
    "ovr-ho-dual": ("higher_order", {"form": "dual"}, X),
    "native-perceptron": ("perceptron", {"multiclass": "native"}, XS),
    "native-ballseptron-poly": ("ballseptron", {"multiclass": "native", "r": 0.1,
                                                "kernel": "poly", "degree": 2}, X),
}


@pytest.mark.parametrize("case", MULTICLASS_CASES)
def test_multiclass_runs_round_trip(case, tmp_path):
    algorithm, params, data = MULTICLASS_CASES[case]
    run = run_online(algorithm, data, Y3, epochs=2, record_margins=True, **params)
    loaded = round_trip(run, tmp_path)
    assert loaded.margins.shape == (80, 3)
    for option in ({"method": "average", "normalize": True}, {}) if "voted" in case else ({},):
        np.testing.assert_array_equal(loaded.decision_function(X_NEW, **option),
                                      run.decision_function(X_NEW, **option), strict=True)
    assert loaded.corrections == run.corrections
    with np.load(tmp_path / "run.npz", allow_pickle=False) as archive:
        header = json.loads(archive["header.json"].item())
    # with its fingerprint; no queried trials (version 4, selective sampling only)
    assert header["format_version"] == 3 and persistence.FORMAT_VERSION == 4
    if run.class_runs is not None:
        assert all(type(r) is type(run) and r.class_runs is None for r in loaded.class_runs)
        assert loaded.class_runs[1].sample_index is loaded.sample_index  # stored once


def defined_hypotheses() -> set:
    """The hypothesis classes of the package: the dataclasses of perceptron_bounds.hypothesis
    (those every family shares) and of the algorithm modules (each algorithm's own, beside it)."""
    modules = [hypothesis, *(importlib.import_module(f"{algorithms.__name__}.{info.name}")
                             for info in pkgutil.iter_modules(algorithms.__path__))]
    return {obj for module in modules for obj in vars(module).values()
            if dataclasses.is_dataclass(obj) and obj.__module__ == module.__name__}


def test_the_cases_cover_every_hypothesis_class():
    """A new hypothesis class must be registered (registry.register_hypothesis) and join these
    cases."""
    defined = defined_hypotheses()
    made = {type(run_online(algorithm, data, Y, **params).hypothesis)
            for algorithm, params, data in CASES.values()}
    made |= {type(run_online(algorithm, data, Y3, **params).hypothesis)
             for algorithm, params, data in MULTICLASS_CASES.values()}
    assert made == defined


def test_csr_support_vectors_and_a_rho_schedule_keep_their_kinds(tmp_path):
    voted = round_trip(run_online("voted_perceptron", XS, Y, epochs=2), tmp_path)
    assert isinstance(voted.hypothesis.support_vectors, sp.csr_matrix)
    ho = round_trip(run_online("higher_order", X, Y, rho=[0.1, 0.2] * 20), tmp_path)
    assert ho.params["rho"] == (0.1, 0.2) * 20


def test_ballseptron_margins_and_margin_errors(tmp_path):
    run = run_online("ballseptron", X, Y, r=0.5, epochs=3, record_margins=True)
    assert run.margin_errors > 0
    loaded = round_trip(run, tmp_path)
    assert loaded.margins.dtype == np.float64 and loaded.margin_errors == run.margin_errors


@pytest.mark.parametrize(
    "labels",
    [np.where(Y > 0, "dog", "cat"), np.where(Y > 0, 7, 3), Y > 0, np.where(Y > 0, b"yes", b"no"),
     np.where(Y > 0, "dog", "cat").astype(object), np.where(Y > 0, 2, -5).astype(object)],
    ids=["str", "int", "bool", "bytes", "object-str", "object-int"],
)
def test_labels_of_every_kind(labels, tmp_path):
    run = run_online("voted_perceptron", X, labels, epochs=2)
    loaded = round_trip(run, tmp_path)
    assert loaded.classes.dtype == run.classes.dtype
    same_behaviour(run, loaded, X, labels)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_warm_started_runs_round_trip_and_continue_alike(algorithm, tmp_path):
    first = run_online(algorithm, X[:20], Y[:20])
    second = run_online(algorithm, X[20:], Y[20:], warm_start=first, record_margins=True)
    loaded = round_trip(second, tmp_path)
    assert loaded.warm_started
    same_behaviour(second, loaded, X[20:], Y[20:])
    same_value(run_online(algorithm, X, Y, warm_start=second, epochs=2, shuffle=True, seed=9),
               run_online(algorithm, X, Y, warm_start=loaded, epochs=2, shuffle=True, seed=9))


#: The state entries that a warm start continues since issue 34, which runs saved before
#: it lack (the loop's w = scale * v, ALMA_2's running ||w||^2).
CARRIED = {"romma": ("v", "scale"), "shifting_perceptron": ("v", "scale"),
           "projected_perceptron": ("v", "scale"), "ballseptron": ("v", "scale"),
           "alma": ("v", "scale", "norm_sq")}


@pytest.mark.parametrize("algorithm", sorted(CARRIED))
def test_a_run_saved_before_the_carried_state_continues_from_its_weights(algorithm, tmp_path):
    """Such a run holds w multiplied out: a warm start from it starts from w, scale 1 (and
    w @ w), as before; the same mistakes, the weights to rounding."""
    first = run_online(algorithm, X[:20], Y[:20])
    path = first.save(tmp_path / "run")

    def without_carried(header, entries):
        for name in CARRIED[algorithm]:
            header["run"]["state"]["dict"].pop(name)
            entries.pop(f"state/{name}", None)

    rewritten(path, without_carried)
    old = load_run(path)
    assert not old.state.keys() & set(CARRIED[algorithm])
    second, again = (run_online(algorithm, X[20:], Y[20:], warm_start=run, epochs=3)
                     for run in (first, old))
    np.testing.assert_array_equal(again.mistake_trials, second.mistake_trials)
    np.testing.assert_allclose(again.weights, second.weights, rtol=1e-12)


@pytest.mark.parametrize(("shuffle", "seed"), [(False, None), (True, None), (True, 2**70)])
def test_the_presentation_and_its_seed(shuffle, seed, tmp_path):
    run = run_online("perceptron", X, Y, epochs=3, shuffle=shuffle, seed=seed)
    loaded = round_trip(run, tmp_path)
    assert (loaded.seed is None) == (not shuffle)
    same_value(run_online("perceptron", X, Y, epochs=3, shuffle=shuffle, seed=loaded.seed), run)


def test_every_kind_of_value_a_record_may_hold(tmp_path):
    shared = np.arange(4.0)
    frozen = np.arange(2.0)  # read-only where OnlineRun would not freeze it (a parameter)
    frozen.flags.writeable = False
    wide = sp.csr_matrix(np.eye(3))  # int64 indices, which scipy's constructor narrows
    wide.indices, wide.indptr = wide.indices.astype(np.int64), wide.indptr.astype(np.int64)
    values = {
        "none": None, "bool": True, "int": 3, "big_int": 2**70, "float": 2.5, "neg_zero": -0.0,
        "nan": float("nan"), "inf": float("inf"), "minus_inf": -float("inf"), "str": "é/ü",
        "np_float": np.float64(1.5), "np_int": np.int32(-7), "np_bool": np.bool_(True),
        "np_str": np.str_("x"), "tuple": (1, 2.0, "a", None), "list": [1, [2, (3,)]],
        "dict": {"inner": np.arange(3), "deeper": {"x": 1.0}}, "empty": np.zeros((0, 3)),
        "zero_d": np.array(5.0), "fortran": np.asfortranarray(np.arange(6.0).reshape(2, 3)),
        "float32": np.arange(3, dtype=np.float32), "bytes": np.array([b"ab", b"c"]),
        "object": np.array(["a", "bc"], dtype=object), "empty_object": np.empty(0, dtype=object),
        "shared": shared, "shared_again": shared, "header.json": np.ones(2),
        "nested": {"key": np.zeros(1)}, "nested/key": np.ones(1), "csr": sp.csr_matrix(np.eye(3)),
        "csr_array": sp.csr_array((np.ones(2), np.array([0, 2], dtype=np.int64),
                                   np.array([0, 1, 2], dtype=np.int64)), shape=(2, 3)),
    }
    base = run_online("perceptron", X, Y)
    params = {**base.params, **values, "frozen": frozen, "wide": wide}
    run = dataclasses.replace(base, params=params, state=dict(values))
    loaded = round_trip(run, tmp_path)
    assert not loaded.params["frozen"].flags.writeable
    assert loaded.params["wide"].indices.dtype == np.int64
    assert loaded.state["shared"] is loaded.state["shared_again"]
    assert loaded.state["csr_array"].indices.dtype == np.int64
    assert loaded.params["object"].dtype == object


def test_loaded_arrays_are_read_only_like_the_originals(tmp_path):
    run = run_online("voted_perceptron", X, Y, epochs=2, record_margins=True)
    loaded = round_trip(run, tmp_path)  # compares every array's writeable flag
    for array in (loaded.mistake_trials, loaded.sample_index, loaded.margins, loaded.classes,
                  loaded.state["counts"], loaded.hypothesis.counts):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = array[0]
    assert loaded.hypothesis.counts is loaded.state["counts"]  # shared, as in the original


def test_save_writes_npz_paths_as_numpy_does(tmp_path):
    run = run_online("perceptron", X, Y)

    class Where(os.PathLike):
        def __fspath__(self):
            return str(tmp_path / "custom")

    assert run.save(str(tmp_path / "a")) == str(tmp_path / "a.npz")
    assert run.save(tmp_path / "b.npz") == str(tmp_path / "b.npz")
    assert run.save(Where()) == str(tmp_path / "custom.npz")
    run.save(tmp_path / "a")  # over an existing file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.npz", "b.npz", "custom.npz"]
    with np.load(tmp_path / "a.npz", allow_pickle=False) as archive:
        header = json.loads(archive["header.json"].item())
    assert header["format_version"] == 3  # the data fingerprint is new in version 3
    assert header["package_version"] == perceptron_bounds.__version__
    assert header["run"]["hypothesis"]["dataclass"] == "LinearHypothesis"


def test_an_interrupted_save_leaves_no_partial_file(tmp_path, monkeypatch):
    old = run_online("perceptron", X, Y)
    path = old.save(tmp_path / "run")

    def interrupted(file, *args, **kwargs):
        file.write(b"PK\x03\x04 half an archive")
        raise KeyboardInterrupt

    monkeypatch.setattr(np, "savez_compressed", interrupted)
    new = run_online("perceptron", X, Y, epochs=3)
    with pytest.raises(KeyboardInterrupt):
        new.save(path)
    with pytest.raises(KeyboardInterrupt):
        new.save(tmp_path / "other")
    assert [p.name for p in tmp_path.iterdir()] == ["run.npz"]
    same_value(old, load_run(path))


@pytest.mark.parametrize(
    ("value", "message"),
    [({1, 2}, "state/bad: a builtins.set"), ({1: 2.0}, "state/bad: its keys must be strings"),
     (np.array([Decimal(1)], dtype=object), "state/bad: an object array"),
     (np.array([1, "a"], dtype=object), "state/bad: an object array"),
     ([1, object()], "state/bad/1: a builtins.object"), (1 + 2j, "complex")],
)
def test_a_value_the_format_cannot_hold_is_refused_before_writing(value, message, tmp_path):
    run = dataclasses.replace(run_online("perceptron", X, Y), state={"bad": value})
    with pytest.raises(TypeError, match=message):
        run.save(tmp_path / "run")
    assert list(tmp_path.iterdir()) == []


def test_bad_arguments(tmp_path):
    run = run_online("perceptron", X, Y)
    with pytest.raises(TypeError, match="path must be a str or os.PathLike, got int"):
        run.save(3)
    with pytest.raises(TypeError, match="path must be a str or os.PathLike, got NoneType"):
        load_run(None)
    with pytest.raises(TypeError, match="run must be an OnlineRun, got dict"):
        persistence.save_run({}, tmp_path / "run")
    with pytest.raises(TypeError, match="run must be an OnlineRun, got LinearHypothesis"):
        persistence.save_run(run.hypothesis, tmp_path / "run")
    with pytest.raises(FileNotFoundError, match="cannot save to .*: no folder"):
        run.save(tmp_path / "nowhere" / "run")


def test_a_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"^no saved run at '.*gone\.npz': no such file$"):
        load_run(tmp_path / "gone.npz")
    run_online("perceptron", X, Y).save(tmp_path / "run")
    with pytest.raises(FileNotFoundError, match=r"did you mean '.*run\.npz'\?"):
        load_run(tmp_path / "run")


def entries_of(path):
    with np.load(path, allow_pickle=False) as archive:
        entries = {key: archive[key] for key in archive.files}
    return json.loads(entries.pop("header.json").item()), entries


def rewritten(path, change):
    """The saved run at ``path`` with its header and entries edited by ``change``."""
    header, entries = entries_of(path)
    change(header, entries)
    os.remove(path)
    np.savez(path, **{"header.json": np.array(json.dumps(header)), **entries})


def write(path, data):
    Path(path).write_bytes(data)


def npy_bytes(array):
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


BAD_FILES = {
    "text": (lambda p: write(p, b"sample_index,mistake\n0,1\n"), "not an .npz archive"),
    "empty": (lambda p: write(p, b""), "an empty file"),
    "npy": (lambda p: write(p, npy_bytes(np.arange(3))), "a single .npy array"),
    "pickle": (lambda p: write(p, pickle.dumps(run_online("perceptron", X, Y))),
               "a pickle, not an .npz archive"),
    "truncated": (lambda p: write(p, Path(p).read_bytes()[: len(Path(p).read_bytes()) // 2]),
                  "damaged or truncated archive"),
    "other npz": (lambda p: np.savez(p, weights=np.ones(3)),
                  "no 'header.json' entry \\(entries: 'weights'\\)"),
    "extra entry": (lambda p: rewritten(p, lambda h, e: e.update(extra=np.ones(2))),
                    "unexpected entries 'extra'"),
    "missing entry": (lambda p: rewritten(p, lambda h, e: e.pop("sample_index")),
                      "sample_index names entry 'sample_index', which the archive lacks"),
    "newer format": (lambda p: rewritten(p, lambda h, e: h.update(format_version=5)),
                     "it was written in format version 5 .*reads versions up to 4: upgrade it"),
    "bad fingerprint": (lambda p: rewritten(p, lambda h, e: h["run"].update(
                            data_fingerprint={"tuple": ["3x2:abc"]})),
                        "its data_fingerprint must be a non-empty tuple of strings"),
    "bad version": (lambda p: rewritten(p, lambda h, e: h.update(format_version="1")),
                    "format_version must be a positive int, got '1'"),
    "other format": (lambda p: rewritten(p, lambda h, e: h.update(format="weights")),
                     "'header.json' does not describe a perceptron_bounds.OnlineRun"),
    "header extra": (lambda p: rewritten(p, lambda h, e: h.update(comment="x")),
                     "'header.json' has unexpected comment"),
    "record lacks": (lambda p: rewritten(p, lambda h, e: h["run"].pop("epochs")),
                     "the record has no epochs"),
    "wrong type": (lambda p: rewritten(p, lambda h, e: h["run"].update(epochs="3")),
                   "its epochs must be int, got str"),
    "bool for int": (lambda p: rewritten(p, lambda h, e: h["run"].update(n_features=True)),
                     "its n_features must be int, got bool"),
    "unknown class": (lambda p: rewritten(
        p, lambda h, e: h["run"]["hypothesis"].update(dataclass="subprocess.Popen")),
        "hypothesis: class must be one of .*, got 'subprocess.Popen'"),
    "kernel as hypothesis": (lambda p: rewritten(
        p, lambda h, e: h["run"].update(hypothesis=h["run"]["hypothesis"]["fields"]["kernel"])),
        "its hypothesis must be LinearHypothesis or .*, got Kernel"),
    "class fields": (lambda p: rewritten(
        p, lambda h, e: h["run"]["hypothesis"]["fields"].pop("labels")),
        r"hypothesis \(VotedHypothesis\) has no labels"),
    "unknown tag": (lambda p: rewritten(p, lambda h, e: h["run"].update(seed={"pickle": "x"})),
                    "seed is .*which encodes no value"),
    "untagged list": (lambda p: rewritten(p, lambda h, e: h["run"].update(seed=[1])),
                      "seed is \\[1\\], which encodes no value"),
    "bad flag": (lambda p: rewritten(
        p, lambda h, e: h["run"]["classes"].update(writeable="no")),
        "classes: the flags of an array are true or false"),
    "bad sparse": (lambda p: rewritten(
        p, lambda h, e: h["run"]["hypothesis"]["fields"]["support_vectors"].update(shape=[1])),
        "hypothesis/support_vectors: shape must be two non-negative ints, got \\[1\\]"),
    "header not a string": (lambda p: np.savez(p, **{**entries_of(p)[1],
                                                     "header.json": np.ones(2)}),
                            "'header.json' is not a string but float64"),
    "header not json": (lambda p: np.savez(p, **{**entries_of(p)[1],
                                                 "header.json": np.array("{not json")}),
                        "'header.json' is not JSON"),
    "object array": (lambda p: np.savez(p, **{"header.json": np.array(json.dumps(entries_of(p)[0])),
                                              **entries_of(p)[1],
                                              "classes": np.array([-1.0, 1.0], dtype=object)}),
                     "entry 'classes' holds Python objects, which would need pickle"),
    "unknown multiclass": (lambda p: rewritten(p, lambda h, e: h["run"].update(multiclass="ovo")),
                           "its multiclass must be None, 'ovr' or 'native', got 'ovo'"),
    "ovr without class runs": (lambda p: rewritten(
        p, lambda h, e: h["run"].update(multiclass="ovr", class_runs=None)),
        "its class_runs must be given for multiclass='ovr' and only then"),
}


def drop_class_run(header, entries):
    header["run"]["class_runs"]["tuple"].pop()


def nest_multiclass(header, entries):
    header["run"]["class_runs"]["tuple"][0]["record"]["multiclass"] = "native"


def binary_class_run_as_hypothesis(header, entries):
    inner = header["run"]["hypothesis"]["fields"]["hypotheses"]["tuple"]
    inner[0] = {"dataclass": "OneVsRestHypothesis", "fields": {"hypotheses": {"tuple": []}}}


MULTICLASS_BAD_FILES = {
    "a class run missing": (drop_class_run, "its class_runs must be one record per class"),
    "a nested multiclass run": (
        nest_multiclass, "class_runs/0's multiclass must be None \\(a class run is binary\\)"),
    "class runs of another kind": (
        lambda h, e: h["run"].update(class_runs={"tuple": [1, 2, 3]}),
        "its class_runs must be one record per class"),
    "a nested field missing": (
        lambda h, e: h["run"]["class_runs"]["tuple"][2]["record"].pop("epochs"),
        "the record class_runs/2 has no epochs"),
    "a nested field of the wrong type": (
        lambda h, e: h["run"]["class_runs"]["tuple"][2]["record"].update(epochs="3"),
        "class_runs/2's epochs must be int, got str"),
    "a multiclass hypothesis inside": (
        binary_class_run_as_hypothesis, "its hypothesis must hold a tuple of binary hypotheses"),
}


@pytest.mark.parametrize("case", MULTICLASS_BAD_FILES)
def test_a_multiclass_file_that_is_not_a_saved_run(case, tmp_path):
    path = run_online("perceptron", X, Y3).save(tmp_path / "run")
    change, message = MULTICLASS_BAD_FILES[case]
    rewritten(path, change)
    with pytest.raises(ValueError, match=f"^{re.escape(repr(path))} is not a saved run: {message}"):
        load_run(path)


def as_saved_before(version, path):
    """Rewrite the saved run at ``path`` as the release of format ``version`` wrote it."""
    def change(header, entries):
        header["format_version"] = version
        header["run"].pop("data_fingerprint")
        for record in header["run"].get("class_runs", {}).get("tuple", []):
            record["record"].pop("data_fingerprint")

    rewritten(path, change)


def test_a_version_1_file_loads_as_a_binary_run(tmp_path):
    """Files written before issue 11 have no multiclass fields (nor a fingerprint)."""
    run = run_online("ballseptron", X, Y, r=0.3)
    path = run.save(tmp_path / "run")
    as_saved_before(1, path)
    header, _ = entries_of(path)
    assert header["format_version"] == 1 and "multiclass" not in header["run"]
    loaded = load_run(path)
    assert loaded.multiclass is None and loaded.class_runs is None


@pytest.mark.parametrize("labels", [Y, Y3])
def test_runs_saved_without_a_fingerprint_load_and_are_not_checked(labels, tmp_path):
    run = run_online("perceptron", X, labels)
    path = run.save(tmp_path / "run")
    same_value(load_run(path), run, "run")  # the fingerprint round-trips
    as_saved_before(1 if labels is Y else 2, path)
    loaded = load_run(path)
    assert loaded.data_fingerprint is None
    assert loaded.check_data(X[::-1], labels) is not None  # nothing to check against
    with pytest.raises(ValueError, match="not the data of this run: y differs"):
        run.check_data(X, labels[::-1])


@pytest.mark.parametrize("case", BAD_FILES)
def test_a_file_that_is_not_a_saved_run(case, tmp_path):
    path = run_online("voted_perceptron", XS, Y, epochs=2).save(tmp_path / "run")
    make, message = BAD_FILES[case]
    make(path)
    expected = f"^{re.escape(repr(path))} is not a saved run: {message}"
    with pytest.raises(ValueError, match=expected) as info:
        load_run(path)
    assert "\n" not in str(info.value)


def test_numpy_load_is_called_without_pickle(tmp_path, monkeypatch):
    path = run_online("perceptron", X, Y).save(tmp_path / "run")
    calls = []
    real = np.load

    def spy(*args, **kwargs):
        calls.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(np, "load", spy)
    load_run(path)
    assert calls == [{"allow_pickle": False}]


def test_load_run_is_public():
    assert perceptron_bounds.load_run is load_run
    assert "load_run" in perceptron_bounds.__all__


@pytest.mark.parametrize("module", ["persistence", "run"])
def test_docstring_examples_run(module):
    result = doctest.testmod(importlib.import_module(f"perceptron_bounds.{module}"))
    assert result.attempted > 0
    assert result.failed == 0


SAVED = Path(__file__).parent / "data"
SAVED_CASES = runpy.run_path(str(SAVED / "make_saved_runs.py"))["CASES"]


def without_fingerprint(run):
    """``run`` as a release before the data fingerprint made it."""
    class_runs = (None if run.class_runs is None
                  else tuple(without_fingerprint(r) for r in run.class_runs))
    return dataclasses.replace(run, data_fingerprint=None, class_runs=class_runs)


@pytest.mark.parametrize("name", sorted(path.stem for path in SAVED.glob("*.npz")))
def test_runs_saved_by_earlier_releases_load_identically(name, tmp_path):
    """Files written by earlier releases (tests/data/make_saved_runs.py) load as the run made
    today, and saving the loaded run writes the same header and entries."""
    release, case = name.split("_", 1)
    args, options = SAVED_CASES[case]
    run = run_online(*args, **options)
    path = SAVED / f"{name}.npz"
    loaded = load_run(path)
    same_value(loaded, run if release in ("v3", "v4") else without_fingerprint(run))
    (header, entries), (again, again_entries) = entries_of(path), entries_of(
        loaded.save(tmp_path / "again"))
    assert again == header
    assert list(again_entries) == list(entries)
    for key, array in entries.items():
        same_value(again_entries[key], array, key)


def test_the_saved_fields_are_the_records_fields(tmp_path):
    """The schema is OnlineRun's dataclass fields: a one-vs-rest run with its fingerprint
    and its queried trials (selective sampling) writes every one of them, in order."""
    run = run_online("selective_perceptron", X, Y3, seed=0)
    with np.load(run.save(tmp_path / "run"), allow_pickle=False) as archive:
        header = json.loads(archive["header.json"].item())
    assert list(header["run"]) == [f.name for f in dataclasses.fields(perceptron_bounds.OnlineRun)]


@dataclasses.dataclass(frozen=True, eq=False)
class ShiftedHypothesis:
    """f(x) = w . x - b: a hypothesis class an algorithm outside the package may keep."""

    weights: np.ndarray
    shift: float

    def decision_function(self, X):
        return np.asarray(X @ self.weights, dtype=np.float64).ravel() - self.shift


def test_a_hypothesis_class_registered_beside_its_algorithm_is_saved(tmp_path, monkeypatch):
    """The classes a file may name are the registered ones, not a list in persistence."""
    run = run_online("perceptron", X, Y)
    shifted = dataclasses.replace(run, hypothesis=ShiftedHypothesis(run.weights, 0.5))
    with pytest.raises(TypeError, match="cannot save hypothesis: a .*ShiftedHypothesis"):
        shifted.save(tmp_path / "run")
    monkeypatch.setattr(registry, "_HYPOTHESES", dict(registry._HYPOTHESES))
    assert registry.register_hypothesis(ShiftedHypothesis) is ShiftedHypothesis
    assert ShiftedHypothesis in registry.hypothesis_classes(binary=True)
    loaded = round_trip(shifted, tmp_path)
    np.testing.assert_array_equal(loaded.decision_function(X_NEW),
                                  shifted.decision_function(X_NEW), strict=True)
    with pytest.raises(ValueError, match="'ShiftedHypothesis' is already registered"):
        registry.register_hypothesis(dataclasses.make_dataclass("ShiftedHypothesis", ["w"]))


def test_every_hypothesis_class_is_registered():
    defined = defined_hypotheses()
    assert set(registry.hypothesis_classes()) == set(defined)
    multiclass = set(registry.hypothesis_classes()) - set(registry.hypothesis_classes(binary=True))
    assert multiclass == {hypothesis.PrototypeHypothesis, hypothesis.PrototypeKernelHypothesis,
                          hypothesis.OneVsRestHypothesis}
