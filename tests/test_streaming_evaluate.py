"""evaluate over a streamed file at a given u (issue 34): the in-memory report.

Small files read in many chunks (a tiny memory_budget): every bound's row (applies, reason,
value, gamma, quantities) must be the in-memory ``evaluate``'s, bit for bit where the
quantities are per row, to 1e-10 where a spectrum is summed over chunks.
"""

import json

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file

from perceptron_bounds import run_online
from perceptron_bounds.bounds import evaluate
from perceptron_bounds.cli import main
from perceptron_bounds.datasets import load_data
from perceptron_bounds.streaming import STREAMED, evaluate_file, run_file

BUDGET = 64_000  # bytes: blocks of 4 kB of text, about 60 rows of 6 features, 3 of 60


def data(n, d, seed, noise):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    X[rng.random((n, d)) < 0.3] = 0.0
    target = rng.standard_normal(d)
    y = np.where(X @ target + noise * rng.standard_normal(n) > 0, 1, -1)
    return X, y, target


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Narrow noisy files (more update rows than features: the spectra summed over chunks)
    and a wide separable one (fewer: the update rows kept, as in memory)."""
    folder = tmp_path_factory.mktemp("stream_eval")
    out = {}
    for name, (n, d, noise) in {"narrow": (300, 6, 0.3), "wide": (120, 60, 0.0)}.items():
        X, y, target = data(n, d, 1, noise)
        svm = folder / f"{name}.svm"
        dump_svmlight_file(X, y, str(svm), zero_based=True)
        csv = folder / f"{name}.csv"
        np.savetxt(csv, np.column_stack([X, y]), delimiter=",")
        out[name] = {"svm": (svm, {"zero_based": True}), "csv": (csv, {}), "target": target}
    return out


def same_reports(streamed, whole, exact: bool, searched: bool = True):
    """Rows equal bit for bit (``exact``), else values to 1e-10; a searched gamma (the argmin
    of a bound flat near its minimum, moved by rounding) and the quantities at it to 1e-6."""
    rtol = 1e-6 if searched else 1e-10
    assert (streamed.algorithm, streamed.mistakes, streamed.notes) == (
        whole.algorithm, whole.mistakes, whole.notes)
    assert len(streamed.rows) == len(whole.rows) > 0
    for a, b in zip(streamed.rows, whole.rows, strict=True):
        assert (a.name, a.variant, a.applies, a.reason, a.source) == (
            b.name, b.variant, b.applies, b.reason, b.source)
        assert a.quantities.keys() == b.quantities.keys()
        if exact:
            assert (a.value, a.gamma, a.quantities) == (b.value, b.gamma, b.quantities), a.name
            continue
        if a.applies:
            np.testing.assert_allclose(a.value, b.value, rtol=1e-10)
            np.testing.assert_allclose(a.gamma, b.gamma, rtol=rtol)
        for key, value in b.quantities.items():
            if isinstance(value, float):
                np.testing.assert_allclose(a.quantities[key], value, rtol=rtol, atol=1e-300)
            else:
                assert a.quantities[key] == value


CASES = [("perceptron", {}), ("pnorm", {"p": 3.0}), ("passive_aggressive", {"variant": "pa1"}),
         ("second_order", {}), ("second_order", {"variant": "adaptive"}), ("arow", {}),
         ("arow", {"diagonal": True}), ("romma", {}), ("shifting_perceptron", {"decay": 0.9}),
         ("projected_perceptron", {"radius": 2.0}), ("alma", {}), ("ballseptron", {}),
         ("voted_perceptron", {})]
#: Whose bounds read a spectrum of the update rows (summed over chunks when narrow).
SPECTRA = ("second_order", "arow")


@pytest.mark.parametrize(("algorithm", "params"), CASES)
@pytest.mark.parametrize("shape", ["narrow", "wide"])
@pytest.mark.parametrize("kind", ["svm", "csv"])
@pytest.mark.parametrize("epochs", [1, 3])
def test_streamed_evaluate_is_the_in_memory_evaluate(files, algorithm, params, shape, kind,
                                                     epochs):
    path, options = files[shape][kind]
    X, y, _ = load_data(path, **options)
    run = run_online(algorithm, X, y, epochs=epochs, **params)
    u = files[shape]["target"] + 0.1
    whole = evaluate(run, X, y, u=u)
    streamed = evaluate_file(run, path, u=u, memory_budget=BUDGET, **options)
    updates = np.unique(run.sample_index[run.update_trials]).shape[0]
    summed = algorithm in SPECTRA and updates > X.shape[1] and not params.get("diagonal")
    if algorithm == "second_order":  # both ways of keeping the update rows are exercised
        assert summed == (shape == "narrow")
    # CSR products are row by row; BLAS's dense X @ u may round a row differently by the
    # number of rows it is given
    exact = kind == "svm" and not summed
    same_reports(streamed, whole, exact)
    at = evaluate_file(run, path, u=u, gamma=0.05, memory_budget=BUDGET, **options)
    same_reports(at, evaluate(run, X, y, u=u, gamma=0.05), exact, searched=False)


@pytest.mark.parametrize("algorithm", [name for name in STREAMED if name != "higher_order"])
def test_a_streamed_run_evaluates_over_its_file(files, algorithm):
    path, options = files["narrow"]["svm"]
    X, y, _ = load_data(path, **options)
    run = run_file(algorithm, path, memory_budget=BUDGET, epochs=2, **options)
    u = files["narrow"]["target"]
    same_reports(evaluate_file(run, path, u=u, memory_budget=BUDGET, **options),
                 evaluate(run, X, y, u=u), exact=algorithm not in SPECTRA)


@pytest.mark.parametrize(("algorithm", "params", "refused"), [
    ("second_order", {"variant": "adaptive"}, None),
    ("second_order", {"variant": "pinv"},
     "(second_order_pinv) read rows beyond those of its update trials"),
    ("higher_order", {}, "the transformed instances y_t B_(k-1) x_t of its mistakes"),
    ("higher_order", {"form": "implicit", "p": 3.0}, "in the order of the mistakes"),
])
def test_the_runs_streamed_by_their_state_evaluate_over_their_file(files, algorithm, params,
                                                                   refused):
    """The adaptive Second-Order Perceptron (R from the file's scan) as in memory; the
    pseudoinverse's bound and the Higher-Order ones refused in one line."""
    path, options = files["narrow"]["svm"]
    X, y, _ = load_data(path, **options)
    run = run_file(algorithm, path, memory_budget=BUDGET, epochs=2, **options, **params)
    u = files["narrow"]["target"]
    if refused is None:
        same_reports(evaluate_file(run, path, u=u, memory_budget=BUDGET, **options),
                     evaluate(run, X, y, u=u), exact=False)
        return
    with pytest.raises(ValueError) as info:
        evaluate_file(run, path, u=u, memory_budget=BUDGET, **options)
    assert refused in str(info.value) and "read the file with load_data" in str(info.value)
    assert "\n" not in str(info.value)


def test_what_needs_the_rows_at_once_says_so_in_one_line(files, tmp_path):
    path, options = files["narrow"]["svm"]
    X, y, _ = load_data(path, **options)
    run = run_online("perceptron", X, y)
    u = files["narrow"]["target"]
    pinv = run_online("second_order", X, y, variant="pinv", form="primal")
    other = tmp_path / "other.svm"
    dump_svmlight_file(X[::-1], y[::-1], str(other), zero_based=True)
    cases = [
        (run, {"u": None}, "needs a given comparator u: the SVM comparator search"),
        (run, {"u": np.ones((2, 6))}, "a comparator sequence (the tracking bounds)"),
        (run, {"u": np.zeros(6)}, "u"),
        (run, {"u": u, "gamma": -1.0}, "gamma"),
        (pinv, {"u": u}, "(second_order_pinv) read rows beyond those of its update trials"),
        (run_online("perceptron", X[:50], y[:50]), {"u": u}, "the run was made on 50 x 6"),
        (run_online("perceptron", X, y, kernel="rbf"), {"u": u}, "binary linear-kernel run"),
    ]
    for each, kwargs, message in cases:
        with pytest.raises(ValueError) as info:
            evaluate_file(each, path, memory_budget=BUDGET, **options, **kwargs)
        assert message in str(info.value) and "\n" not in str(info.value), str(info.value)
    with pytest.raises(ValueError, match="is not the data of this run") as info:
        evaluate_file(run, other, u=u, memory_budget=BUDGET, zero_based=True)
    assert "\n" not in str(info.value)


def test_cli_compare_streams_with_a_given_u(files, tmp_path, capsys):
    path, _ = files["narrow"]["csv"]
    u_file = tmp_path / "u.txt"
    np.savetxt(u_file, files["narrow"]["target"])
    args = ["compare", "--data", str(path), "--algorithms", "perceptron,second_order",
            "--epochs", "2", "--u", str(u_file), "--json"]
    assert main(args) == 0
    whole = json.loads(capsys.readouterr().out)
    assert main([*args, "--memory-budget", "8kB"]) == 0
    streamed = json.loads(capsys.readouterr().out)
    assert [r["mistakes"] for r in streamed["reports"]] == [
        r["mistakes"] for r in whole["reports"]]
    for a, b in zip(streamed["reports"], whole["reports"], strict=True):
        for row_a, row_b in zip(a["bounds"], b["bounds"], strict=True):
            assert row_a["name"] == row_b["name"] and row_a["applies"] == row_b["applies"]
            if row_a["applies"]:
                np.testing.assert_allclose(row_a["value"], row_b["value"], rtol=1e-10)
    assert main(args[:-3] + ["--memory-budget", "8kB"]) == 2
    assert "--memory-budget evaluates the bounds at a given comparator: pass --u FILE" in (
        capsys.readouterr().err)
    assert main([*args[:-1], "--memory-budget", "8kB", "--comparator", "svm"]) == 2
    assert "--comparator svm" in capsys.readouterr().err


def test_cli_u_file_errors_in_one_line(files, tmp_path, capsys):
    path, _ = files["narrow"]["csv"]
    words = tmp_path / "words.txt"
    words.write_text("1 2 x\n")
    short = tmp_path / "short.npy"
    np.save(short, np.ones(3))
    for u_file, message in ((tmp_path / "none.txt", "no such file"),
                            (words, "not a list of numbers"), (short, "shape")):
        assert main(["compare", "--data", str(path), "--algorithms", "perceptron",
                     "--u", str(u_file)]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, err
