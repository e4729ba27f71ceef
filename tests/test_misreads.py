"""Input that used to be read wrong without a word: shifted svmlight columns, a short CSV row
taken for an unknown delimiter, NaN without its place (issue 20, item 9)."""

import os

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file, load_digits

from perceptron_bounds import run_online
from perceptron_bounds.datasets import load_data


@pytest.fixture
def digits_file(tmp_path):
    """scikit-learn's digits written zero-based (its default): pixel 0 is always 0, so the
    file never names index 0."""
    X, y = load_digits(return_X_y=True)
    assert not X[:, 0].any()
    path = str(tmp_path / "digits.svm")
    dump_svmlight_file(X, y, path)
    return path, X, y


def test_ambiguous_zero_based_svmlight_is_never_shifted_silently(digits_file):
    path, X, _ = digits_file
    with pytest.warns(UserWarning, match="no feature index 0 .* read one-based .* zero_based=True"):
        shifted = load_data(path).X
    assert shifted.shape[1] == 63  # the documented default, announced
    read = load_data(path, zero_based=True).X
    assert read.shape == X.shape and np.array_equal(read.toarray(), X)
    # one feature count more than the largest one-based column: the base is certain
    assert load_data(path, zero_based=True, n_features=64).X.shape[1] == 64


def test_svmlight_base_from_index_zero_or_header(tmp_path):
    X = np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]])
    with_zero = str(tmp_path / "zero.svm")
    dump_svmlight_file(X, [1, -1], with_zero)  # names index 0: zero-based, no warning
    assert np.array_equal(load_data(with_zero).X.toarray(), X)
    for zero_based in (True, False):
        path = str(tmp_path / f"header{zero_based}.svm")
        dump_svmlight_file(X[:, 1:], [1, -1], path, zero_based=zero_based, comment="x")
        assert np.array_equal(load_data(path).X.toarray(), X[:, 1:])
    one_based = str(tmp_path / "one.svm")
    with open(one_based, "w") as handle:
        handle.write("1 1:1 3:2\n-1 2:3\n")
    assert np.array_equal(load_data(one_based, n_features=3).X.toarray(), X)  # index 3 of 3
    assert np.array_equal(load_data(one_based, zero_based=False).X.toarray(), X)
    with pytest.raises(ValueError, match="feature index 0 in a file read one-based"):
        load_data(with_zero, zero_based=False)
    with pytest.raises(ValueError, match="feature index 3 needs 4 features .* n_features=3"):
        load_data(one_based, zero_based=True, n_features=3)


@pytest.mark.parametrize(
    "options, error, message",
    [({"zero_based": "yes"}, ValueError, "zero_based must be 'auto', True or False, got 'yes'"),
     ({"zero_based": 1}, TypeError, "zero_based must be 'auto', True or False, got 1"),
     ({"n_features": 0}, ValueError, "n_features must be in"),
     ({"zero_based": True, "suffix": ".csv"}, ValueError, "zero_based applies to svmlight"),
     ({"n_features": 2, "suffix": ".npz"}, ValueError, "n_features applies to svmlight")],
)
def test_svmlight_options_checked(tmp_path, options, error, message):
    suffix = options.pop("suffix", ".svm")
    path = tmp_path / f"d{suffix}"
    if suffix == ".npz":
        np.savez(path, X=np.eye(2), y=np.array([1, -1]))
    else:
        path.write_text("1,2,1\n3,4,-1\n" if suffix == ".csv" else "1 1:1\n-1 2:1\n")
    with pytest.raises(error, match=message):
        load_data(str(path), **options)


@pytest.mark.parametrize(
    "content, message",
    [("x1,x2,y\n1,2,a\n3,4,b\n5,b\n6,7,a\n",
      "line 4 has 2 fields, expected 3 (as 4 of the first 5 rows have with delimiter ',')"),
     ("1;2;a\n3;4;b\n5;6;a;7\n",
      "line 3 has 4 fields, expected 3 (as 2 of the first 3 rows have with delimiter ';')")],
)
def test_short_or_long_csv_row_is_named_not_a_delimiter_problem(tmp_path, content, message):
    path = tmp_path / "short.csv"
    path.write_text(content)
    with pytest.raises(ValueError) as info:
        load_data(str(path))
    assert str(info.value) == f"{path}: {message}"


def test_nonfinite_data_name_the_first_row_and_column():
    X = np.ones((6, 3))
    X[4, 0], X[3, 2] = np.nan, -np.inf
    for data in (X, sp.csr_matrix(X)):
        with pytest.raises(ValueError) as info:
            run_online("perceptron", data, [1, -1] * 3)
        assert str(info.value) == "X contains infinity (-inf) at row 3, column 2 (0-based)"
    with pytest.raises(ValueError, match=r"^y contains NaN at index 2$"):
        run_online("perceptron", np.eye(4), [1.0, -1.0, np.nan, 1.0])
    with pytest.raises(ValueError, match=r"^y contains None at index 1$"):
        run_online("perceptron", np.eye(2), np.array([1, None], dtype=object))


def test_unsorted_csr_row_names_its_smallest_bad_column():
    X = sp.csr_matrix((np.array([1.0, np.inf, np.nan]), np.array([2, 1, 0]),
                       np.array([0, 0, 3])), shape=(2, 3))
    with pytest.raises(ValueError, match=r"X contains NaN at row 1, column 0 \(0-based\)"):
        run_online("perceptron", X, [1, -1])


@pytest.mark.parametrize(
    "name, content, message",
    [("a.csv", "y,x1,x2\na,1,2\nb,3,nan\n", "X contains NaN or infinity (nan at data row 2, "
      "column 3)"),
     ("a.svm", "1 1:2 3:inf\n-1 2:1\n", "X contains NaN or infinity (inf at data row 1, "
      "feature index 3)")],
)
def test_loaders_name_the_nonfinite_entry_in_file_terms(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_text(content)
    options = {"label_column": "first"} if name.endswith(".csv") else {"zero_based": False}
    with pytest.raises(ValueError) as info:
        load_data(str(path), **options)
    assert str(info.value) == f"{path}: {message}"
    npz = os.path.join(str(tmp_path), "a.npz")
    np.savez(npz, X=np.array([[1.0, 2.0], [3.0, np.nan]]), y=np.array([1.0, -1.0]))
    with pytest.raises(ValueError, match=r"X contains NaN or infinity \(nan at X\[1, 1\]\)"):
        load_data(npz)


def test_cli_index_base_options(digits_file, capsys):
    from perceptron_bounds.cli import main

    path, X, _ = digits_file
    argv = ["run", "--algorithm", "perceptron", "--data", path, "--positive-class", "9",
            "--json"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert err.startswith(f"warning: {path}: no feature index 0") and err.count("\n") == 1
    assert main([*argv, "--zero-based"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and '"gamma": 0.015625' in captured.out  # 1 / 64 features
    assert main(["run", "--algorithm", "perceptron", "--one-based"]) == 2
    message = "--zero-based and --one-based describe an svmlight file: give --data"
    assert message in capsys.readouterr().err


def test_data_list_names_a_truncated_or_corrupt_mnist_file(tmp_path, monkeypatch, capsys):
    import gzip

    from real_fixtures import mnist_home

    from perceptron_bounds.cli import main
    from perceptron_bounds.datasets import load_mnist

    home = mnist_home(tmp_path, monkeypatch)
    assert main(["data", "list", "--data-home", home]) == 0
    assert "--data mnist: available" in capsys.readouterr().out
    images = tmp_path / "train-images-idx3-ubyte.gz"
    whole = images.read_bytes()
    images.write_bytes(whole[: len(whole) // 2])  # an interrupted download
    assert main(["data", "list", "--data-home", home]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "--data mnist: not usable: train-images-idx3-ubyte.gz damaged (see below)" in lines
    line = next(line for line in lines if line.startswith("  train-images-idx3-ubyte.gz"))
    assert "truncated (the gzip stream ends after" in line and line.endswith(
        "delete it to fetch it again")
    with pytest.raises(ValueError, match=r"^\S*train-images-idx3-ubyte.gz: truncated gzip "
                                         r"stream \(an interrupted download\?\)$"):
        load_mnist(home, download=False)
    labels = tmp_path / "t10k-labels-idx1-ubyte.gz"  # a whole gzip stream, short content
    labels.write_bytes(gzip.compress(gzip.decompress(labels.read_bytes())[:-3]))
    images.write_bytes(whole)
    assert main(["data", "list", "--data-home", home]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines()
                if line.startswith("  t10k-labels-idx1-ubyte.gz"))
    assert " truncated (" in line and "of" in line
    labels.write_bytes(b"\x1f\x8b" + b"garbage" * 10)
    assert main(["data", "list", "--data-home", home]) == 0
    assert "  corrupt (bad gzip data" in capsys.readouterr().out


def test_a_continuous_label_column_is_refused_and_a_column_of_ids_warned(tmp_path, capsys):
    """Issue 31, item 8: --label-column first on a continuous column gave '40 classes,
    one-vs-rest' for 40 rows, every trial a mistake; run_online made a 200-class run."""
    from perceptron_bounds.cli import main

    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 3))
    continuous, ids = tmp_path / "continuous.csv", tmp_path / "ids.csv"
    np.savetxt(continuous, np.c_[X[:, 0], X], delimiter=",")
    np.savetxt(ids, np.c_[np.arange(40), X], delimiter=",")
    assert main(["run", "--algorithm", "perceptron", "--data", str(continuous),
                 "--label-column", "first"]) == 2
    err = capsys.readouterr().err
    assert "the label column (first) holds non-integer numbers" in err
    assert err.count("\n") == 1, err
    assert main(["compare", "--algorithms", "perceptron", "--data", str(ids),
                 "--label-column", "first"]) == 0
    err = capsys.readouterr().err
    assert err.count("warning: y gives each of the 40 rows a label of its own") == 1, err
    Y = rng.standard_normal((200, 3))
    with pytest.raises(ValueError, match="y holds non-integer numbers .* not a continuous"):
        run_online("perceptron", Y, Y[:, 0])
    with pytest.warns(UserWarning, match="each of the 200 rows a label of its own"):
        run_online("perceptron", Y, np.arange(200))
    run_online("perceptron", Y[:3], ["a", "b", "c"])  # a toy sequence: no warning
    run_online("perceptron", Y, np.sign(Y[:, 0]))  # integer-valued floats are labels
