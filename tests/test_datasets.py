"""Synthetic generators (theory §5) and file loaders."""

import numpy as np
import pytest
import scipy.sparse as sp

from perceptron_bounds.datasets import (
    Dataset,
    DriftingDataset,
    load_data,
    make_dominant_eigen,
    make_drifting,
    make_hop_artificial,
    make_separable,
    make_unit_circle,
)

# --- make_separable -----------------------------------------------------------------------


def test_make_separable_unpacks_and_has_target():
    data = make_separable(300, 7, margin=0.25, label_noise=0.0, seed=3)
    X, y, u = data
    assert isinstance(data, Dataset)
    assert data.target is u
    assert X.shape == (300, 7) and X.dtype == np.float64 and X.flags.c_contiguous
    assert set(np.unique(y)) == {-1.0, 1.0}
    np.testing.assert_allclose(np.linalg.norm(u), 1.0)
    np.testing.assert_allclose(np.linalg.norm(X, axis=1), 1.0)
    assert (y * (X @ u)).min() >= 0.25 - 1e-12


def test_make_separable_is_seeded():
    a = make_separable(50, 4, 0.1, 0.2, seed=11)
    b = make_separable(50, 4, 0.1, 0.2, seed=11)
    c = make_separable(50, 4, 0.1, 0.2, seed=12)
    for left, right in zip(a, b, strict=True):
        np.testing.assert_array_equal(left, right)
    assert not np.array_equal(a.X, c.X)


def test_make_separable_label_noise_rate():
    X, y, u = make_separable(20000, 5, 0.1, 0.2, seed=0)
    flipped = np.mean(y != np.where(X @ u >= 0, 1.0, -1.0))
    assert abs(flipped - 0.2) < 0.015


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"n_samples": 0}, ValueError, "n_samples"),
        ({"n_features": 1}, ValueError, "n_features"),
        ({"margin": 1.0}, ValueError, r"margin must be in \[0, 1\)"),
        ({"label_noise": -0.1}, ValueError, "label_noise"),
        ({"n_samples": 2.5}, TypeError, "n_samples must be an integer"),
        ({"seed": -1}, ValueError, "seed"),
    ],
)
def test_make_separable_rejects_bad_parameters(kwargs, error, match):
    with pytest.raises(error, match=match):
        make_separable(**kwargs)


# --- make_hop_artificial ------------------------------------------------------------------


def test_hop_artificial_follows_the_paper():
    train, test = make_hop_artificial(0.0, n_train=400, n_test=300, seed=5)
    u = train.target
    assert train.X.shape == (400, 500) and test.X.shape == (300, 500)
    assert test.u is u
    # u in {-1, 0, +1}^500 / sqrt(50), first 50 entries nonzero
    np.testing.assert_allclose(np.abs(u[:50]), 1 / np.sqrt(50))
    assert not u[50:].any()
    for part in (train, test):
        np.testing.assert_allclose(np.linalg.norm(part.X, axis=1), 1.0)
        margins = part.y * (part.X @ u)
        assert margins.min() >= 0.005  # separable (eta = 0), rejected below gamma
        # instances uniform in the cube before normalisation: all coordinates used
        assert (np.abs(part.X[:, 50:]) > 0).all()


def test_hop_artificial_label_noise_hits_train_and_test():
    train, test = make_hop_artificial(0.1, n_train=3000, n_test=3000, seed=2)
    for part in (train, test):
        rate = np.mean(part.y * (part.X @ part.u) < 0)
        assert abs(rate - 0.1) < 0.02


def test_hop_artificial_rejects_bad_parameters():
    with pytest.raises(ValueError, match="n_relevant"):
        make_hop_artificial(0.0, n_features=10, n_relevant=11)
    with pytest.raises(ValueError, match="eta"):
        make_hop_artificial(1.5)


# --- make_unit_circle ---------------------------------------------------------------------


def test_unit_circle_clean_has_margin():
    X, y, u = make_unit_circle(2000, margin=0.15, seed=4)
    np.testing.assert_allclose(np.linalg.norm(X, axis=1), 1.0)
    np.testing.assert_allclose(np.linalg.norm(u), 1.0)
    margins = y * (X @ u)
    assert margins.min() >= 0.15 - 1e-12
    assert margins.min() < 0.16  # the margin is attained, not just respected
    assert 0.4 < np.mean(y > 0) < 0.6


def test_unit_circle_noise_levels_share_the_clean_points():
    clean = make_unit_circle(5000, seed=9)
    low = make_unit_circle(5000, label_noise=0.05, seed=9)
    high = make_unit_circle(5000, label_noise=0.2, seed=9)
    np.testing.assert_array_equal(clean.X, high.X)
    flipped_low = low.y != clean.y
    flipped_high = high.y != clean.y
    assert (flipped_high[flipped_low]).all()  # flipped sets nest as eta grows
    assert abs(flipped_high.mean() - 0.2) < 0.02
    noisy = make_unit_circle(5000, instance_noise=0.1, seed=9)
    np.testing.assert_array_equal(noisy.y, clean.y)
    assert abs(np.std(noisy.X - clean.X) - 0.1) < 0.005


# --- make_dominant_eigen ------------------------------------------------------------------


@pytest.mark.parametrize(("target", "axis"), [("dominant", 0), ("nondominant", 1)])
def test_dominant_eigen_spectrum_and_target(target, axis):
    X, y, u = make_dominant_eigen(20000, 6, 8.0, target=target, seed=1)
    eig = np.sort(np.linalg.eigvalsh(X.T @ X / X.shape[0]))
    assert abs(eig[-1] / np.median(eig[:-1]) - 8.0) < 0.6
    np.testing.assert_array_equal(u, np.eye(6)[axis])
    np.testing.assert_array_equal(y, np.where(X[:, axis] >= 0, 1.0, -1.0))


def test_dominant_eigen_rejects_bad_target():
    with pytest.raises(ValueError, match="target must be one of"):
        make_dominant_eigen(10, 3, 8.0, target="largest")


# --- load_data ----------------------------------------------------------------------------


def test_load_npz_round_trip(tmp_path):
    X, y, u = make_separable(20, 3, seed=0)
    path = tmp_path / "d.npz"
    np.savez(path, X=X, y=y, u=u)
    loaded = load_data(path)
    np.testing.assert_array_equal(loaded.X, X)
    np.testing.assert_array_equal(loaded.y, y)
    np.testing.assert_array_equal(loaded.target, u)


def test_load_svmlight_gives_csr(tmp_path):
    path = tmp_path / "d.svm"
    path.write_text("1 1:0.5 3:2\n-1 2:1.5\n")
    X, y, u = load_data(str(path), zero_based=False)  # LIBSVM: one-based
    assert sp.issparse(X) and X.format == "csr"
    np.testing.assert_array_equal(X.toarray(), [[0.5, 0, 2], [0, 1.5, 0]])
    np.testing.assert_array_equal(y, [1, -1])
    assert u is None


@pytest.mark.parametrize("header", ["", "a,b,label\n"])
def test_load_csv_last_column_is_label(tmp_path, header):
    path = tmp_path / "d.csv"
    path.write_text(header + "1,2,0\n3,4,1\n5,6,1\n")
    X, y, u = load_data(path)
    np.testing.assert_array_equal(X, [[1, 2], [3, 4], [5, 6]])
    np.testing.assert_array_equal(y, [0, 1, 1])
    assert u is None


@pytest.mark.parametrize(
    ("name", "content", "match"),
    [
        ("d.csv", "1,2,1\n3,x,1\n", "not a numeric CSV"),
        ("d.csv", "1\n2\n", "at least 2 columns"),
        ("d.csv", "1,nan,1\n2,3,-1\n", "NaN"),
        ("d.csv", "", "no data rows"),
        ("d.csv", "x1,x2,label\n", "no data rows"),
        ("d.svm", "this is not svmlight\n", "not a valid svmlight"),
        ("d.npz", "garbage", "not a valid .npz"),
        ("d.json", "{}", "unknown extension"),
    ],
)
def test_load_bad_files_one_line_error(tmp_path, name, content, match):
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(ValueError, match=match) as info:
        load_data(path)
    assert "\n" not in str(info.value)
    assert str(path) in str(info.value)


def test_load_npz_missing_arrays_and_shapes(tmp_path):
    path = tmp_path / "a.npz"
    np.savez(path, X=np.eye(3))
    with pytest.raises(ValueError, match="missing array"):
        load_data(path)
    np.savez(path, X=np.eye(3), y=np.ones(2))
    with pytest.raises(ValueError, match="one label per row"):
        load_data(path)
    np.savez(path, X=np.eye(3), y=np.ones(3), u=np.ones(2))
    with pytest.raises(ValueError, match="u must have shape"):
        load_data(path)


def test_load_missing_file(tmp_path):
    with pytest.raises(ValueError, match="no such file"):
        load_data(tmp_path / "absent.npz")
    with pytest.raises(ValueError, match="not a file"):
        load_data(tmp_path)


def test_load_npz_object_array(tmp_path):
    path = tmp_path / "o.npz"
    np.savez(path, X=np.eye(2), y=np.array([1, "a"], dtype=object))
    with pytest.raises(ValueError, match="non-object"):
        load_data(path)


def test_dominant_eigen_margin_rejects_close_points():
    for target in ("dominant", "nondominant"):
        X, y, u = make_dominant_eigen(500, 5, 8.0, target=target, margin=0.5, seed=2)
        assert (y * (X @ u)).min() >= 0.5
    with pytest.raises(ValueError, match="margin"):
        make_dominant_eigen(10, 3, 8.0, margin=4.0)


# --- load_data: CSV options ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "options"),
    [
        ("1,2,a\n3,4,b\n5,6,a\n", {}),
        ("x1;x2;y\n1;2;a\n3;4;b\n5;6;a\n", {}),
        ("1\t2\ta\n3\t4\tb\n5\t6\ta\n", {}),
        ("1  2 a\n3\t4   b\n5 6 a\n", {}),
        ("a,1,2\nb,3,4\na,5,6\n", {"label_column": "first"}),
        ("a,1,2\nb,3,4\na,5,6\n", {"label_column": 0}),
        ("1,a,2\n3,b,4\n5,a,6\n", {"label_column": 1}),
        ("1,a,2\n3,b,4\n5,a,6\n", {"label_column": -2}),
        ("1|2|a\n3|4|b\n5|6|a\n", {"delimiter": "|"}),
        ("1;2;a\n3;4;b\n5;6;a\n", {"delimiter": "semicolon"}),
        ("1\t2\ta\n3\t4\tb\n5\t6\ta\n", {"delimiter": "tab"}),
        ("1\t2\ta\n3\t4\tb\n5\t6\ta\n", {"delimiter": "\\t"}),
        ("1 2  a\n3 4 b\n5 6 a\n", {"delimiter": " "}),
        ('# comment\n"x1","x2","y"\n1,2,"a"\n3,4, b \n5,6,a\n', {}),
    ],
)
def test_load_csv_string_labels_columns_and_delimiters(tmp_path, content, options):
    path = tmp_path / "d.csv"
    path.write_text(content)
    X, y, u = load_data(path, **options)
    assert X.dtype == np.float64 and X.flags.c_contiguous
    np.testing.assert_array_equal(X, [[1, 2], [3, 4], [5, 6]])
    assert y.tolist() == ["a", "b", "a"]
    assert u is None


def test_load_csv_numeric_labels_in_any_column(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("label,x1,x2\n-1,0.5,2\n1,1.5,-3e-2\n")
    X, y, _ = load_data(path, label_column="first")
    np.testing.assert_array_equal(X, [[0.5, 2], [1.5, -0.03]])
    assert y.dtype == np.float64 and y.tolist() == [-1.0, 1.0]
    X, y, _ = load_data(path, label_column=1)
    np.testing.assert_array_equal(X, [[-1, 2], [1, -0.03]])
    assert y.tolist() == [0.5, 1.5]


def test_load_csv_string_labels_train_like_numbers(tmp_path):
    X, y, _ = make_separable(40, 3, seed=1)
    words = np.where(y > 0, "spam", "ham")
    path = tmp_path / "d.csv"
    rows = (";".join([word, *(repr(float(v)) for v in x)]) for word, x in zip(words, X,
                                                                             strict=True))
    path.write_text("\n".join(rows))
    loaded = load_data(path, label_column="first")
    np.testing.assert_array_equal(loaded.X, X)  # repr round-trips float64 exactly
    assert loaded.y.tolist() == words.tolist()
    from perceptron_bounds import run_online

    words_run = run_online("perceptron", loaded.X, loaded.y, epochs=2)
    numbers_run = run_online("perceptron", X, y, epochs=2)
    np.testing.assert_array_equal(words_run.mistake_trials, numbers_run.mistake_trials)
    assert words_run.classes.tolist() == ["ham", "spam"]


@pytest.mark.parametrize(
    ("content", "options", "message"),
    [
        ("1,2,a\n3,4\n", {}, "cannot detect the delimiter"),
        ("1,2,a\n3,4\n", {"delimiter": ","}, "not a CSV table with delimiter ','"),
        ("1,2,a\n3,q,b\n", {}, "'q' in data row 2, column 2 is not a number"),
        ("1,2,\n3,4,b\n", {}, "empty label in data row 1"),
        ("1,2,a\n3,4,b\n", {"label_column": 3}, "label column 3 is out of range for 3 columns"),
        ("1,2,a\n3,4,b\n", {"label_column": -4}, "out of range"),
        ("1,2,a\n3,4,b\n", {"label_column": "first"}, "'a' in data row 1, column 3"),
        ("x1,x2,y\n1,q,a\n2,3,b\n", {}, "'q' in data row 1, column 2"),
        ("1,2,a\n3,4,b\n", {"delimiter": ";"}, "got 1 with delimiter ';'"),
        ("1 2\n", {"delimiter": ","}, "at least 2 columns"),
        ("a,b\n1,2,3\n4,5,6\n", {"delimiter": ","}, "first row has 2 columns, the data 3"),
        ("# only a comment\n", {}, "no data rows"),
    ],
)
def test_load_csv_bad_tables_one_line_error(tmp_path, content, options, message):
    path = tmp_path / "d.csv"
    path.write_text(content)
    with pytest.raises(ValueError) as info:
        load_data(path, **options)
    assert message in str(info.value)
    assert str(info.value).startswith(f"{path}: ") and "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"label_column": "frist"}, ValueError,
         "label_column must be 'first', 'last' or a column index, got 'frist'; "
         "did you mean 'first'?"),
        ({"label_column": 1.0}, TypeError, "label_column must be 'first', 'last' or an integer"),
        ({"label_column": True}, TypeError, "got True (bool)"),
        ({"delimiter": ".."}, ValueError, "delimiter must be one character"),
        ({"delimiter": "."}, ValueError, "got '.'"),
        ({"delimiter": "x"}, ValueError, "got 'x'"),
        ({"delimiter": "tabs"}, ValueError, "got 'tabs'; did you mean 'tab'?"),
        ({"delimiter": 44}, TypeError, "delimiter must be a string, got int"),
    ],
)
def test_load_csv_options_checked_before_reading(tmp_path, options, error, message):
    with pytest.raises(error) as info:
        load_data(tmp_path / "absent.csv", **options)  # the options fail first
    assert message in str(info.value)


@pytest.mark.parametrize("name", ["d.npz", "d.svm"])
def test_csv_options_refused_for_other_formats(tmp_path, name):
    X, y, u = make_separable(10, 2, seed=0)
    path = tmp_path / name
    if name.endswith(".npz"):
        np.savez(path, X=X, y=y)
    else:
        path.write_text("1 1:0.5\n-1 2:1.5\n")
    with pytest.raises(ValueError, match=r"label_column applies to \.csv files only"):
        load_data(path, label_column="first")
    with pytest.raises(ValueError, match="label_column and delimiter apply"):
        load_data(path, label_column=0, delimiter=",")


# --- make_drifting (theory §4.14) ---------------------------------------------------------


@pytest.mark.parametrize("drift", ["abrupt", "gradual"])
@pytest.mark.parametrize("n_shifts", [0, 1, 7, 50])
def test_make_drifting_targets_label_their_own_trials(drift, n_shifts):
    data = make_drifting(600, 6, n_shifts=n_shifts, drift=drift, margin=0.2, seed=4)
    X, y, U = data
    assert isinstance(data, DriftingDataset)
    assert X.shape == U.shape == (600, 6) and X.flags.c_contiguous and U.flags.c_contiguous
    np.testing.assert_allclose(np.linalg.norm(X, axis=1), 1.0)
    np.testing.assert_allclose(np.linalg.norm(U, axis=1), 1.0)
    assert (y * np.einsum("ij,ij->i", X, U)).min() >= 0.2 - 1e-12
    steps = np.linalg.norm(np.diff(U, axis=0), axis=1)
    if drift == "abrupt":
        assert int((steps > 0).sum()) == n_shifts  # distinct switch times, fresh targets
        assert data.total_shift == pytest.approx(steps.sum())
    else:  # a turn of n_shifts quarter turns at constant speed: arc n_shifts * pi / 2
        np.testing.assert_allclose(steps, steps[0], rtol=1e-9, atol=1e-12)
        angle = np.arccos(np.clip(U[0] @ U[-1], -1, 1))
        if n_shifts == 1:
            assert angle == pytest.approx(np.pi / 2)
        step = n_shifts * (np.pi / 2) / 599  # chords of equal arcs
        assert data.total_shift == pytest.approx(599 * 2 * np.sin(step / 2), rel=1e-9, abs=1e-12)


def test_make_drifting_is_seeded_and_noisy_at_its_rate():
    a = make_drifting(4000, 5, n_shifts=3, label_noise=0.2, seed=1)
    b = make_drifting(4000, 5, n_shifts=3, label_noise=0.2, seed=1)
    clean = make_drifting(4000, 5, n_shifts=3, seed=1)
    for left, right in zip(a, b, strict=True):
        np.testing.assert_array_equal(left, right)
    np.testing.assert_array_equal(a.X, clean.X)  # noise drawn last: same points, same targets
    assert abs(np.mean(a.y != clean.y) - 0.2) < 0.03


@pytest.mark.parametrize("kwargs, error, match", [
    ({"n_shifts": 600}, ValueError, r"n_shifts must be in \[0, 599\], got 600"),
    ({"n_shifts": -1}, ValueError, "n_shifts"),
    ({"n_shifts": 2.5}, TypeError, "n_shifts must be an integer"),
    ({"drift": "sudden"}, ValueError, "drift"),
    ({"margin": 1.0}, ValueError, "margin"),
    ({"label_noise": 1.5}, ValueError, "label_noise"),
    ({"n_features": 1}, ValueError, "n_features"),
])
def test_make_drifting_rejects_bad_parameters(kwargs, error, match):
    with pytest.raises(error, match=match):
        make_drifting(600, **{"n_features": 4, **kwargs})
