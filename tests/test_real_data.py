"""Real data sets (issue 12): the IDX reader, the MNIST / USPS / RCV1 loaders, the papers'
preprocessing and the command line's ``--data mnist|usps|rcv1:TASK``, ``--positive-class``
and ``data list``.

Nothing is downloaded: as scikit-learn tests its OpenML fetcher, the fetch functions are
monkeypatched and the files are small ones written here (the expected sizes and checksums
are patched to theirs). The last tests read full MNIST when the environment variable
PERCEPTRON_BOUNDS_DATA names a folder holding the four IDX files, and skip otherwise.
"""

import argparse
import bz2
import doctest
import gzip
import hashlib
import json
import os
import time
import urllib.error

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn.datasets
from sklearn.datasets import dump_svmlight_file
from sklearn.preprocessing import normalize
from sklearn.utils import Bunch

from perceptron_bounds import _linalg, run_online
from perceptron_bounds.cli import main
from perceptron_bounds.cli._common import positive_class
from perceptron_bounds.cli.data import size_text
from perceptron_bounds.datasets import (
    Dataset,
    RealData,
    center_and_scale,
    get_data_home,
    load_fashion_mnist,
    load_mnist,
    load_rcv1_tasks,
    load_usps,
    make_separable,
    normalize_rows,
    real,
)
from perceptron_bounds.datasets import preprocessing as preprocessing_module
from perceptron_bounds.datasets.real import IdxFile, read_idx, write_idx

N_TRAIN, N_TEST = 12, 5


def one_line(error) -> str:
    text = str(error.value)
    assert "\n" not in text
    return text


def idx_bytes(array: np.ndarray) -> bytes:
    header = bytes((0, 0, 8, array.ndim)) + b"".join(n.to_bytes(4, "big") for n in array.shape)
    return header + array.tobytes()


def write_gz(path, content: bytes) -> None:
    with open(path, "wb") as handle:
        handle.write(gzip.compress(content))


# ---------------------------------------------------------------- the IDX reader


def test_idx_round_trip_shape_and_checksum(tmp_path):
    array = np.arange(24, dtype=np.uint8).reshape(2, 3, 4)
    path = tmp_path / "a-idx3-ubyte.gz"
    write_idx(path, array)
    digest = hashlib.sha256(idx_bytes(array)).hexdigest()
    out = read_idx(path, shape=(2, 3, 4), sha256=digest)
    assert out.dtype == np.uint8 and np.array_equal(out, array)
    assert gzip.decompress(path.read_bytes()) == idx_bytes(array)  # the canonical layout


def sizes(*dims):
    return b"".join(n.to_bytes(4, "big") for n in dims)


@pytest.mark.parametrize(
    "content, shape, match",
    [
        (b"\x00\x00", None, "truncated IDX header"),
        (b"\x00\x00\x08\x03" + sizes(2), None, "truncated IDX header"),
        (b"\x00\x00\x09\x01" + sizes(3) + b"abc", None, "wrong IDX magic number 2305"),
        (b"\x00\x00\x08\x03" + sizes(1, 1, 3) + b"abc", (3,),
         r"wrong IDX magic number 2051 \(0x00000803\); expected 2049"),
        (b"\x00\x00\x08\x01" + sizes(5) + b"abcde", (3,), r"holds an array of shape \(5,\)"),
        (b"\x00\x00\x08\x01" + sizes(3) + b"ab", (3,), "truncated: 2 of the 3 data bytes"),
        (b"\x00\x00\x08\x01" + sizes(3) + b"abcd", None, "1 bytes after the data"),
    ],
)
def test_idx_errors_name_the_file_in_one_line(tmp_path, content, shape, match):
    path = tmp_path / "bad.gz"
    write_gz(path, content)
    with pytest.raises(ValueError, match=match) as error:
        read_idx(path, shape=shape)
    assert one_line(error).startswith(f"{path}: ")


def test_idx_not_gzip_truncated_gzip_corrupt_gzip_and_checksum(tmp_path):
    array = np.arange(200, dtype=np.uint8)
    content = idx_bytes(array)
    plain = tmp_path / "plain.gz"
    plain.write_bytes(content)
    with pytest.raises(ValueError, match="not a gzip file") as error:
        read_idx(plain)
    one_line(error)
    packed = gzip.compress(content)
    cut = tmp_path / "cut.gz"
    cut.write_bytes(packed[: len(packed) // 2])
    with pytest.raises(ValueError, match="truncated gzip stream") as error:
        read_idx(cut)
    one_line(error)
    damaged = bytearray(packed)
    damaged[-6] ^= 0xFF  # the stored CRC-32
    bad = tmp_path / "crc.gz"
    bad.write_bytes(bytes(damaged))
    with pytest.raises(ValueError, match="corrupt gzip data") as error:
        read_idx(bad)
    one_line(error)
    good = tmp_path / "good.gz"
    write_idx(good, array)
    with pytest.raises(ValueError, match="checksum mismatch: the SHA-256") as error:
        read_idx(good, shape=(200,), sha256="0" * 64)
    one_line(error)


def test_write_idx_refuses_other_dtypes(tmp_path):
    with pytest.raises(TypeError, match="uint8"):
        write_idx(tmp_path / "x.gz", np.zeros(3))


# ---------------------------------------------------------------- MNIST


def tiny_mnist(seed=0):
    """Small MNIST-like arrays: (train images, train labels, test images, test labels)."""
    rng = np.random.default_rng(seed)
    return (rng.integers(0, 256, (N_TRAIN, 28, 28), dtype=np.uint8),
            rng.permutation(np.r_[0:10, 3, 7]).astype(np.uint8),  # every digit
            rng.integers(0, 256, (N_TEST, 28, 28), dtype=np.uint8),
            rng.integers(0, 10, N_TEST, dtype=np.uint8))


@pytest.fixture
def small_mnist(monkeypatch):
    """MNIST_FILES patched to the sizes and checksums of ``tiny_mnist()``."""
    arrays = tiny_mnist()
    files = tuple(IdxFile(entry.name, array.shape, hashlib.sha256(idx_bytes(array)).hexdigest())
                  for entry, array in zip(real.MNIST_FILES, arrays, strict=True))
    monkeypatch.setattr(real, "MNIST_FILES", files)
    return arrays


def write_mnist(folder, arrays):
    os.makedirs(folder, exist_ok=True)
    for entry, array in zip(real.MNIST_FILES, arrays, strict=True):
        write_idx(os.path.join(folder, entry.name), array)


def check_mnist(data, arrays):
    train_images, train_labels, test_images, test_labels = arrays
    assert isinstance(data, RealData) and data.name == "mnist"
    train, test = data  # unpacks like TrainTest
    assert train.X.shape == (N_TRAIN, 784) and test.X.shape == (N_TEST, 784)
    assert train.X.dtype == np.float64 and train.X.flags.c_contiguous
    assert np.array_equal(train.X, train_images.reshape(N_TRAIN, -1))
    assert np.array_equal(test.X, test_images.reshape(N_TEST, -1))
    assert train.y.dtype == np.int64 and np.array_equal(train.y, train_labels)
    assert np.array_equal(test.y, test_labels)
    assert train.u is None and data.feature_range == (0.0, 255.0)
    assert data.target_names == tuple("0123456789")


def test_load_mnist_from_files(tmp_path, small_mnist):
    write_mnist(tmp_path, small_mnist)
    check_mnist(load_mnist(tmp_path, download=False), small_mnist)


def test_data_home_argument_then_environment_then_scikit_learn(tmp_path, monkeypatch):
    monkeypatch.setenv(real.DATA_HOME_ENV, str(tmp_path / "env"))
    assert get_data_home() == str(tmp_path / "env")
    assert get_data_home(tmp_path / "arg") == str(tmp_path / "arg")
    monkeypatch.setenv(real.DATA_HOME_ENV, "")
    monkeypatch.setenv("SCIKIT_LEARN_DATA", str(tmp_path / "sk"))
    assert get_data_home() == str(tmp_path / "sk") == sklearn.datasets.get_data_home()
    with pytest.raises(TypeError, match="data_home must be a str"):
        get_data_home(3)


def test_load_mnist_reads_the_environment_variable(tmp_path, monkeypatch, small_mnist):
    write_mnist(tmp_path, small_mnist)
    monkeypatch.setenv(real.DATA_HOME_ENV, str(tmp_path))
    check_mnist(load_mnist(download=False), small_mnist)


def test_load_mnist_missing_files_without_download(tmp_path, small_mnist):
    write_mnist(tmp_path, small_mnist)
    os.remove(tmp_path / "t10k-labels-idx1-ubyte.gz")
    with pytest.raises(FileNotFoundError) as error:
        load_mnist(tmp_path, download=False)
    text = one_line(error)
    assert f"MNIST is not in {tmp_path}: missing t10k-labels-idx1-ubyte.gz;" in text
    assert "put the four IDX files" in text and "download=True" in text
    with pytest.raises(TypeError, match="download must be True or False"):
        load_mnist(tmp_path, download="no")


def test_load_mnist_checks_every_file(tmp_path, small_mnist):
    arrays = list(small_mnist)
    arrays[2] = arrays[2].copy()
    arrays[2][0, 0, 0] ^= 1  # one pixel of the test images
    write_mnist(tmp_path, arrays)
    with pytest.raises(ValueError, match="t10k-images-idx3-ubyte.gz: checksum mismatch"):
        load_mnist(tmp_path, download=False)
    write_gz(tmp_path / "t10k-images-idx3-ubyte.gz", idx_bytes(small_mnist[2])[:-10])
    with pytest.raises(ValueError, match="t10k-images-idx3-ubyte.gz: truncated"):
        load_mnist(tmp_path, download=False)


@pytest.fixture
def small_fashion(monkeypatch):
    """FASHION_MNIST_FILES patched to the sizes and checksums of ``tiny_mnist(1)``."""
    arrays = tiny_mnist(1)
    files = tuple(IdxFile(entry.name, array.shape, hashlib.sha256(idx_bytes(array)).hexdigest())
                  for entry, array in zip(real.FASHION_MNIST_FILES, arrays, strict=True))
    monkeypatch.setattr(real, "FASHION_MNIST_FILES", files)
    return arrays


def test_image_sets_have_a_folder_each_and_mnist_also_at_the_top(tmp_path, small_mnist,
                                                                  small_fashion):
    """The data home holds mnist/ and fashion-mnist/ (same file names); MNIST's files are
    still read from the top level when mnist/ holds none (issue 25)."""
    write_mnist(tmp_path / "fashion-mnist", small_fashion)
    with pytest.raises(FileNotFoundError, match=f"MNIST is not in {tmp_path / 'mnist'}"):
        load_mnist(tmp_path, download=False)  # never Fashion-MNIST's files for MNIST's
    write_mnist(tmp_path, small_mnist)
    check_mnist(load_mnist(tmp_path, download=False), small_mnist)
    write_mnist(tmp_path / "mnist", small_mnist)
    assert str(tmp_path / "mnist") in load_mnist(tmp_path, download=False).source
    fashion = load_fashion_mnist(tmp_path, download=False)
    assert fashion.name == "fashion-mnist" and fashion.target_names[9] == "Ankle boot"
    assert str(tmp_path / "fashion-mnist") in fashion.source
    assert np.array_equal(fashion.train.X, small_fashion[0].reshape(N_TRAIN, -1))
    assert np.array_equal(fashion.test.y, small_fashion[3])
    assert fashion.feature_range == (0.0, 255.0) and fashion.train.y.dtype == np.int64


def test_load_fashion_mnist_missing_files_and_checksums(tmp_path, small_fashion):
    with pytest.raises(FileNotFoundError) as error:
        load_fashion_mnist(tmp_path, download=False)
    text = one_line(error)
    assert f"Fashion-MNIST is not in {tmp_path / 'fashion-mnist'}: missing" in text
    assert "load_fashion_mnist(download=True)" in text
    arrays = list(small_fashion)
    arrays[0] = arrays[0].copy()
    arrays[0][0, 0, 0] ^= 1
    write_mnist(tmp_path / "fashion-mnist", arrays)
    with pytest.raises(ValueError, match="train-images-idx3-ubyte.gz: checksum mismatch"):
        load_fashion_mnist(tmp_path, download=False)


def test_load_fashion_mnist_fetches_openml_into_its_folder(tmp_path, monkeypatch,
                                                           small_fashion):
    fake = FakeOpenML(openml_mnist(small_fashion))
    monkeypatch.setattr(sklearn.datasets, "fetch_openml", fake)
    data = load_fashion_mnist(tmp_path)
    [(name, options)] = fake.calls
    assert name == "Fashion-MNIST" and options["data_home"] == str(tmp_path)
    for entry, array in zip(real.FASHION_MNIST_FILES, small_fashion, strict=True):
        assert gzip.decompress((tmp_path / "fashion-mnist" / entry.name).read_bytes()) == (
            idx_bytes(array))
    assert np.array_equal(load_fashion_mnist(tmp_path, download=False).train.X, data.train.X)
    assert len(fake.calls) == 1


def test_the_canonical_fashion_mnist_checksums_are_of_the_shared_copy():
    """The SHA-256 of the uncompressed content of the original files (Debian's
    dataset-fashion-mnist, the same as the authors'), checked when the data home has them."""
    folder = os.path.join(os.environ.get(real.DATA_HOME_ENV, ""), "fashion-mnist")
    if not os.environ.get(real.DATA_HOME_ENV) or not os.path.isdir(folder):
        pytest.skip(f"{real.DATA_HOME_ENV} names no folder with Fashion-MNIST")
    for entry in real.FASHION_MNIST_FILES:
        with gzip.open(os.path.join(folder, entry.name)) as handle:
            assert hashlib.sha256(handle.read()).hexdigest() == entry.sha256


class FakeOpenML:
    """Stands for ``sklearn.datasets.fetch_openml``: records its calls, returns ``bunch``."""

    def __init__(self, bunch):
        self.bunch = bunch
        self.calls = []

    def __call__(self, name=None, **options):
        self.calls.append((name, options))
        return self.bunch


def openml_mnist(arrays):
    train_images, train_labels, test_images, test_labels = arrays
    X = np.vstack([train_images.reshape(N_TRAIN, -1), test_images.reshape(N_TEST, -1)])
    y = np.concatenate([train_labels, test_labels]).astype(str)  # OpenML's labels are strings
    return Bunch(data=X.astype(np.float64), target=y)


def test_load_mnist_fetches_openml_into_the_data_home(tmp_path, monkeypatch, small_mnist):
    fake = FakeOpenML(openml_mnist(small_mnist))
    monkeypatch.setattr(sklearn.datasets, "fetch_openml", fake)
    home = tmp_path / "home"
    check_mnist(load_mnist(home), small_mnist)
    [(name, options)] = fake.calls
    assert name == "mnist_784" and options["version"] == 1
    assert options["data_home"] == str(home) and options["as_frame"] is False
    for entry, array in zip(real.MNIST_FILES, small_mnist, strict=True):  # canonical files
        assert gzip.decompress((home / "mnist" / entry.name).read_bytes()) == idx_bytes(array)
    check_mnist(load_mnist(home, download=False), small_mnist)  # read back, no fetch
    assert len(fake.calls) == 1
    assert not [name for name in os.listdir(home / "mnist") if ".part" in name]


def test_openml_mnist_that_differs_writes_nothing(tmp_path, monkeypatch, small_mnist):
    bunch = openml_mnist(small_mnist)
    bunch.data[0, 0] = (bunch.data[0, 0] + 1) % 256
    monkeypatch.setattr(sklearn.datasets, "fetch_openml", FakeOpenML(bunch))
    with pytest.raises(ValueError, match="OpenML's mnist_784 differs from the canonical "
                       "train-images-idx3-ubyte.gz") as error:
        load_mnist(tmp_path)
    assert "nothing was written" in one_line(error)
    assert os.listdir(tmp_path) == []
    monkeypatch.setattr(sklearn.datasets, "fetch_openml",
                        FakeOpenML(Bunch(data=np.zeros((3, 784)), target=np.zeros(3))))
    with pytest.raises(ValueError, match=r"holds X of shape \(3, 784\), expected \(17, 784\)"):
        load_mnist(tmp_path)


# ---------------------------------------------------------------- USPS

USPS_COUNTS = ((2, 1, 1, 1, 1, 1, 1, 1, 1, 3), (1, 1, 1, 1, 1, 1, 1, 1, 1, 1))


@pytest.fixture
def small_usps(monkeypatch):
    """USPS_CLASS_COUNTS patched to small counts; returns (X_train, digits, X_test, digits)."""
    monkeypatch.setattr(real, "USPS_CLASS_COUNTS", USPS_COUNTS)
    rng = np.random.default_rng(1)
    parts = []
    for counts in USPS_COUNTS:
        digits = rng.permutation(np.repeat(np.arange(10), counts))
        X = np.round(rng.uniform(-1, 1, (digits.size, 256)), 6)
        X[:, 5] = 0.0  # a column of zeros: LIBSVM leaves it out
        parts += [X, digits]
    return tuple(parts)


def write_usps(folder, parts, names=("usps", "usps.t")):
    for name, X, digits in zip(names, parts[::2], parts[1::2], strict=True):
        path = os.path.join(folder, name)
        if name.endswith(".bz2"):
            with bz2.open(path, "wb") as handle:
                dump_svmlight_file(X, digits + 1, handle, zero_based=False)
        else:
            dump_svmlight_file(X, digits + 1, path, zero_based=False)


def check_usps(data, parts):
    assert data.name == "usps" and data.feature_range == (-1.0, 1.0)
    for dataset, X, digits in zip(data, parts[::2], parts[1::2], strict=True):
        assert isinstance(dataset.X, np.ndarray) and dataset.X.dtype == np.float64
        assert np.array_equal(dataset.X, X)
        assert dataset.y.dtype == np.int64 and np.array_equal(dataset.y, digits)


@pytest.mark.parametrize("names", [("usps", "usps.t"), ("usps.bz2", "usps.t.bz2")])
def test_load_usps_from_libsvm_files(tmp_path, small_usps, names):
    write_usps(tmp_path, small_usps, names)
    check_usps(load_usps(tmp_path, download=False), small_usps)


def test_load_usps_errors(tmp_path, small_usps):
    with pytest.raises(FileNotFoundError) as error:
        load_usps(tmp_path, download=False)
    text = one_line(error)
    assert f"USPS is not in {tmp_path}: missing usps, usps.t" in text and "LIBSVM" in text
    X, digits, X_test, digits_test = small_usps
    write_usps(tmp_path, (X, digits, X_test, np.zeros_like(digits_test)))
    with pytest.raises(ValueError, match=r"usps.t: class counts \(10, 0,") as error:
        load_usps(tmp_path, download=False)
    one_line(error)
    dump_svmlight_file(X_test, digits_test + 11, str(tmp_path / "usps.t"), zero_based=False)
    with pytest.raises(ValueError, match="usps.t: labels must be 1..10"):
        load_usps(tmp_path, download=False)
    (tmp_path / "usps.t").write_text("1 0:0.5 x\n")
    with pytest.raises(ValueError, match="usps.t: not a LIBSVM file of 256 features") as error:
        load_usps(tmp_path, download=False)
    one_line(error)
    write_usps(tmp_path, (X, digits, X_test * 2, digits_test))
    with pytest.raises(ValueError, match=r"usps.t: entries must lie in \[-1, 1\]"):
        load_usps(tmp_path, download=False)


def test_load_usps_fetches_openml_41082(tmp_path, monkeypatch, small_usps):
    X, digits, X_test, digits_test = small_usps
    labels = np.concatenate([digits, digits_test]) + 1
    fake = FakeOpenML(Bunch(data=np.vstack([X, X_test]), target=labels.astype(str)))
    monkeypatch.setattr(sklearn.datasets, "fetch_openml", fake)
    check_usps(load_usps(tmp_path), small_usps)
    [(name, options)] = fake.calls
    assert name is None and options["data_id"] == 41082 and options["data_home"] == str(tmp_path)
    written = (tmp_path / "usps").read_text()
    assert "# USPS usps, written from OpenML's USPS (data_id 41082)" in written
    check_usps(load_usps(tmp_path, download=False), small_usps)  # the written LIBSVM files
    assert len(fake.calls) == 1


def test_openml_usps_in_another_order_writes_nothing(tmp_path, monkeypatch, small_usps):
    X, digits, X_test, digits_test = small_usps
    labels = np.concatenate([digits_test, digits]) + 1  # test rows first: counts differ
    monkeypatch.setattr(sklearn.datasets, "fetch_openml", FakeOpenML(
        Bunch(data=np.vstack([X_test, X]), target=labels.astype(str))))
    with pytest.raises(ValueError, match=r"OpenML's USPS \(data_id 41082\), rows of usps: "
                       "class counts"):
        load_usps(tmp_path)
    assert os.listdir(tmp_path) == []


# ---------------------------------------------------------------- RCV1

#: Stories per category among the first 40 (the tasks' stories): ranks CCAT-like 0, then
#: 2, 3, 4, 5 (tasks 70, 101, 4, 59), a tie between 6 and 7 broken by index.
RCV1_COUNTS = (30, 5, 25, 20, 15, 10, 3, 3)
RCV1_NAMES = np.array(["A", "B", "C", "D", "E", "F", "G", "H"], dtype=object)


def fake_rcv1_bunch(seed=2):
    rng = np.random.default_rng(seed)
    n_total, n_features = 60, 30
    topics = np.zeros((n_total, len(RCV1_COUNTS)), dtype=np.uint8)
    for column, count in enumerate(RCV1_COUNTS):
        topics[rng.choice(40, size=count, replace=False), column] = 1
    topics[40:, 1] = 1  # later stories, all in B: B must not rank among the first 40's
    X = normalize(sp.random(n_total, n_features, density=0.2, random_state=seed, format="csr"))
    return Bunch(data=X, target=sp.csr_matrix(topics), target_names=RCV1_NAMES,
                 sample_id=np.arange(n_total))


@pytest.fixture
def small_rcv1(monkeypatch):
    monkeypatch.setattr(real, "RCV1_N_STORIES", 40)
    monkeypatch.setattr(real, "RCV1_N_TRAIN", 20)
    bunch = fake_rcv1_bunch()
    calls = []

    def fake_fetch_rcv1(**options):
        calls.append(options)
        return bunch

    monkeypatch.setattr(sklearn.datasets, "fetch_rcv1", fake_fetch_rcv1)
    return bunch, calls


def test_rcv1_tasks_are_the_2nd_to_5th_categories_of_the_first_stories(tmp_path, small_rcv1):
    bunch, calls = small_rcv1
    tasks = load_rcv1_tasks(tmp_path)
    assert calls == [{"data_home": str(tmp_path), "download_if_missing": True}]
    assert list(tasks) == [70, 101, 4, 59]
    assert [task.target_names for task in tasks.values()] == [
        ("rest", "C"), ("rest", "D"), ("rest", "E"), ("rest", "F")]
    topics = bunch.target.toarray()
    for (paper_name, task), column in zip(tasks.items(), (2, 3, 4, 5), strict=True):
        assert task.name == f"rcv1:{paper_name}" and task.feature_range == (0.0, 1.0)
        assert f"category {RCV1_NAMES[column]} (rank" in task.description
        assert f"{RCV1_COUNTS[column]} of the first 40 stories" in task.description
        train, test = task
        assert sp.isspmatrix_csr(train.X) and train.X.dtype == np.float64
        assert train.X.shape == (20, 30) and test.X.shape == (20, 30)
        assert (train.X != bunch.data[:20]).nnz == 0 and (test.X != bunch.data[20:40]).nnz == 0
        expected = np.where(topics[:40, column] == 1, 1, -1)
        assert train.y.dtype == np.int64
        assert np.array_equal(np.concatenate([train.y, test.y]), expected)


def test_rcv1_missing_without_download_and_failed_download(tmp_path, monkeypatch):
    def not_there(**options):
        raise FileNotFoundError(2, "No such file or directory", "samples_py3.pkl")

    monkeypatch.setattr(sklearn.datasets, "fetch_rcv1", not_there)
    with pytest.raises(FileNotFoundError) as error:
        load_rcv1_tasks(tmp_path, download=False)
    assert f"RCV1 is not in {tmp_path / 'RCV1'}" in one_line(error)

    def offline(**options):
        raise OSError("<urlopen error [Errno -3] Temporary failure in name resolution>")

    monkeypatch.setattr(sklearn.datasets, "fetch_rcv1", offline)
    with pytest.raises(OSError, match="could not fetch RCV1 into .*name resolution") as error:
        load_rcv1_tasks(tmp_path)
    one_line(error)


def test_rcv1_too_few_stories(tmp_path, small_rcv1, monkeypatch):
    monkeypatch.setattr(real, "RCV1_N_STORIES", 100)
    with pytest.raises(ValueError, match="RCV1 has 60 stories, fewer than the 100"):
        load_rcv1_tasks(tmp_path)


# ---------------------------------------------------------------- preprocessing


def test_center_and_scale(data):
    X, _ = data
    X = X + 3.0
    before = X.copy()
    Z, fitted = center_and_scale(X)
    assert np.array_equal(X, before)  # not modified
    assert np.allclose(Z.mean(axis=0), 0.0, atol=1e-12)
    assert np.isclose(np.linalg.norm(Z, axis=1).mean(), 1.0, rtol=1e-12)
    assert np.allclose(fitted.transform(X), Z, rtol=0, atol=1e-14)
    test = X[:7] * 2.0
    assert np.allclose(fitted.transform(test), (test - X.mean(axis=0)) / fitted.scale)
    with pytest.raises(ValueError, match="features"):
        fitted.transform(X[:, :2])


def test_center_and_scale_refuses_sparse_and_constant_data():
    X = sp.random(1000, 2000, density=0.01, format="csr", random_state=0)
    with pytest.raises(TypeError, match=r"X is sparse \(1000 x 2000\): centring .* dense "
                       r"\(0.016 GB\); pass X.toarray\(\)"):
        center_and_scale(X)
    with pytest.raises(ValueError, match="every instance equals the mean instance"):
        center_and_scale(np.ones((4, 3)))


@pytest.mark.parametrize("p", [2.0, 4.0])
def test_normalize_rows_dense_and_sparse(data, p):
    X, _ = data
    X = X.copy()
    X[3] = 0.0
    out = normalize_rows(X, p=p)
    norms = (np.abs(out) ** p).sum(axis=1) ** (1 / p)
    assert np.allclose(np.delete(norms, 3), 1.0) and not out[3].any()
    assert np.array_equal(out, _linalg.normalize_rows(X, p))  # the algorithms' own
    sparse = normalize_rows(sp.csr_matrix(X), p=p)
    assert sp.issparse(sparse) and np.allclose(sparse.toarray(), out, rtol=0, atol=1e-15)
    with pytest.raises(ValueError, match="p must be"):
        normalize_rows(X, p=1.0)


@pytest.mark.parametrize("module", [real, preprocessing_module])
def test_docstring_examples_run(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


# ---------------------------------------------------------------- full MNIST (optional)

MNIST_HOME = os.environ.get(real.DATA_HOME_ENV, "")
HAS_MNIST = bool(MNIST_HOME) and all(
    os.path.isfile(os.path.join(real.idx_folder(MNIST_HOME, "mnist", real.MNIST_FILES,
                                                top_level=True), entry.name))
    for entry in real.MNIST_FILES)


@pytest.mark.skipif(not HAS_MNIST, reason=f"{real.DATA_HOME_ENV} names no folder with MNIST")
def test_full_mnist_shapes_class_counts_and_load_time(capsys):
    times = []
    for _ in range(2):
        wall, cpu = time.perf_counter(), time.process_time()
        train, test = load_mnist(download=False)
        times.append((time.perf_counter() - wall, time.process_time() - cpu))
        del train, test
    train, test = load_mnist(download=False)
    assert train.X.shape == (60000, 784) and test.X.shape == (10000, 784)
    assert train.X.dtype == np.float64 and train.X.min() == 0.0 and train.X.max() == 255.0
    assert np.bincount(train.y).tolist() == [5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265,
                                             5851, 5949]
    assert np.bincount(test.y).tolist() == [980, 1135, 1032, 1010, 982, 892, 958, 1028, 974,
                                            1009]
    with capsys.disabled():
        print(f"\nload_mnist from {MNIST_HOME}: "
              + ", ".join(f"{wall:.2f} s ({cpu:.2f} s CPU)" for wall, cpu in times))


# ---------------------------------------------------------------- the command line


def cli(argv, capsys):
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_cli_run_on_mnist_reports_the_test_part(tmp_path, monkeypatch, small_mnist, capsys):
    write_mnist(tmp_path, small_mnist)
    monkeypatch.setenv(real.DATA_HOME_ENV, str(tmp_path))
    code, out, _ = cli(["run", "--algorithm", "perceptron", "--data", "mnist",
                        "--positive-class", "3", "--epochs", "2", "--json"], capsys)
    assert code == 0
    record = json.loads(out)
    train_images, train_labels, test_images, test_labels = small_mnist
    y = np.where(train_labels == 3, 1, -1)
    run = run_online("perceptron", train_images.reshape(N_TRAIN, -1).astype(float), y,
                     epochs=2)
    errors = int((run.predict(test_images.reshape(N_TEST, -1).astype(float))
                  != np.where(test_labels == 3, 1, -1)).sum())
    assert record["data"] == "mnist" and record["classes"] == [-1, 1]
    assert record["n_trials"] == 2 * N_TRAIN and record["mistakes"] == run.mistakes
    assert record["held_out"] == {"source": f"the test part of mnist: {N_TEST} samples",
                                  "n_samples": N_TEST, "errors": errors,
                                  "error": errors / N_TEST}
    code, out, _ = cli(["run", "--algorithm", "perceptron", "--data", "mnist", "--test", "mnist",
                        "--positive-class", "3", "--epochs", "2"], capsys)
    assert code == 0 and f"test error:    {errors / N_TEST:.4f} ({errors} of {N_TEST}" in out
    code, out, _ = cli(["run", "--algorithm", "perceptron", "--data", "mnist", "--positive-class",
                        "3", "--test-fraction", "0.25"], capsys)
    assert code == 0 and "held out:      the last 3 of 12 rows" in out


def test_cli_run_on_fashion_mnist(tmp_path, monkeypatch, small_fashion, capsys):
    """``--data fashion-mnist`` reads fashion-mnist/ of the data home (issue 25)."""
    write_mnist(tmp_path / "fashion-mnist", small_fashion)
    monkeypatch.setenv(real.DATA_HOME_ENV, str(tmp_path))
    code, out, _ = cli(["run", "--algorithm", "perceptron", "--data", "fashion-mnist",
                        "--positive-class", "6", "--json"], capsys)
    assert code == 0
    record = json.loads(out)
    y = np.where(small_fashion[1] == 6, 1, -1)
    run = run_online("perceptron", small_fashion[0].reshape(N_TRAIN, -1).astype(float), y)
    assert record["data"] == "fashion-mnist" and record["mistakes"] == run.mistakes


def test_cli_data_names_and_positive_class_errors(tmp_path, monkeypatch, small_mnist, capsys):
    write_mnist(tmp_path, small_mnist)
    monkeypatch.setenv(real.DATA_HOME_ENV, str(tmp_path))

    def offline(*args, **options):
        raise urllib.error.URLError("offline")

    monkeypatch.setattr(sklearn.datasets, "fetch_openml", offline)
    for argv, message in [
        (["--data", "minst"], "minst: no such file, nor a data set name; did you mean 'mnist'? "
         "(mnist, fashion-mnist, usps, rcv1:TASK, drifting)"),
        (["--data", "mnist", "--positive-class", "11"],
         "--positive-class 11: not among the labels (0, 1, 2,"),
        (["--data", "mnist", "--positive-class", "nine"],
         "--positive-class nine: the labels are numbers"),
        (["--data", "mnist", "--delimiter", ";"], "--label-column and --delimiter describe a "
         "CSV file, not mnist"),
        (["--data", "rcv1:7"], "rcv1:7: the RCV1 tasks are rcv1:70, rcv1:101, rcv1:4, rcv1:59"),
        (["--data", "usps", "--download"], f"could not fetch USPS from OpenML into {tmp_path} (<urlopen "
         "error offline>); put LIBSVM's usps, usps.t (https://"),
    ]:
        code, out, err = cli(["run", "--algorithm", "perceptron", *argv], capsys)
        assert code == 2 and out == "", argv
        assert err.startswith(f"perceptron-bounds run: error: {message}"), err
        assert err.count("\n") == 1


def test_cli_rcv1_task_by_number_or_category(tmp_path, monkeypatch, small_rcv1, capsys):
    monkeypatch.setenv(real.DATA_HOME_ENV, str(tmp_path))
    code, out, _ = cli(["run", "--algorithm", "perceptron", "--data", "rcv1:d", "--json"], capsys)
    by_name = json.loads(out)
    code, out, _ = cli(["run", "--algorithm", "perceptron", "--data", "rcv1:101", "--json"],
                       capsys)
    by_number = json.loads(out)
    assert code == 0 and by_number["data"] == "rcv1:101"
    assert by_number["held_out"]["source"] == "the test part of rcv1:101: 20 samples"
    for record in by_name, by_number:
        del record["data"], record["held_out"]["source"]
    assert by_number == by_name
    assert by_name["n_trials"] == 20 and by_name["held_out"]["n_samples"] == 20
    code, _, err = cli(["run", "--algorithm", "perceptron", "--data", "rcv1:G"], capsys)
    assert code == 2 and "rcv1:G: no RCV1 task 'G'; the tasks are rcv1:70, rcv1:101, rcv1:4, " \
        "rcv1:59 (C, D, E, F)" in err


def test_cli_compare_on_usps_one_against_the_rest(tmp_path, monkeypatch, small_usps, capsys):
    write_usps(tmp_path, small_usps)
    monkeypatch.setenv(real.DATA_HOME_ENV, str(tmp_path))
    code, out, _ = cli(["compare", "--data", "usps", "--positive-class", "9", "--algorithms",
                        "perceptron", "--json"], capsys)
    assert code == 0 and json.loads(out)


def test_positive_class_keeps_a_binary_target(tmp_path):
    X, y, u = make_separable(30, 3, seed=0)
    args = argparse.Namespace(positive_class="-1")
    flipped = positive_class(Dataset(X, y, u), args.positive_class)
    assert np.array_equal(flipped.y, np.where(y == -1, 1, -1))
    assert np.array_equal(flipped.u, -u) and (flipped.y * (X @ flipped.u) > 0).all()
    assert np.array_equal(positive_class(Dataset(X, y, u), "1").u, u)
    labels = np.array(["spam", "ham", "eggs"])
    relabelled = positive_class(Dataset(X[:3], labels, None), "ham")
    assert relabelled.y.tolist() == [-1, 1, -1] and relabelled.u is None
    assert positive_class(Dataset(X[:3], labels, u), "ham").u is None  # 3 classes: no target


def test_cli_data_list(tmp_path, small_mnist, capsys):
    write_mnist(tmp_path, small_mnist)
    (tmp_path / "usps.bz2").write_bytes(b"x" * 2500)
    code, out, _ = cli(["data", "list", "--data-home", str(tmp_path)], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"data home: {tmp_path} (from --data-home)"
    assert "--data mnist: available" in lines
    size = os.path.getsize(tmp_path / "train-images-idx3-ubyte.gz")
    assert f"  {'train-images-idx3-ubyte.gz':<28} {size / 1e3:.1f} kB" in lines
    assert [size_text(n) for n in (370, 28902, 9630634, 2.5e9)] == [
        "370 B", "28.9 kB", "9.6 MB", "2.5 GB"]
    assert any(line.startswith("--data usps: not available (--data usps fetches OpenML's")
               for line in lines)
    assert f"  {'usps.bz2':<28} 2.5 kB" in lines and f"  {'usps.t':<28} missing" in lines
    assert f"  {'RCV1/samples_py3.pkl':<28} missing" in lines
    code, out, _ = cli(["data", "list", "--data-home", str(tmp_path / "none")], capsys)
    assert out.splitlines()[0].endswith("(from --data-home), not there")
