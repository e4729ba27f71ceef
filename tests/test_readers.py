"""The compiled text readers (datasets._parse) and the cache of parsed files (issue 34).

The parsers must give exactly what the library readers of before gave (scikit-learn's
svmlight reader, numpy.loadtxt) on what they accept, and leave the rest to them (so that
errors read as before); the cache must never return what an earlier content parsed into.
"""

import bz2
import gzip
import os
import struct

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file, load_svmlight_file

from perceptron_bounds.cli import main
from perceptron_bounds.datasets import _parse, load_data, loaders, parsed_cache


def tricky_numbers(n, seed=0):
    """Decimal strings of every shape: repr of doubles, 19- and 20-digit mantissas, exponents
    near the overflow and subnormal ranges, halfway cases, zeros with signs."""
    rng = np.random.default_rng(seed)
    doubles = rng.integers(0, 2 ** 63 - 2 ** 52, n, dtype=np.int64).view(np.float64)
    texts = [repr(float(v)) for v in doubles[np.isfinite(doubles)]]
    texts += [f"{rng.integers(1, 10 ** 18)}{rng.integers(0, 10)}e{rng.integers(-340, 300)}"
              for _ in range(n)]
    texts += [f"{rng.integers(1, 10 ** 18)}{rng.integers(10, 100)}.5e{rng.integers(-20, 20)}"
              for _ in range(n // 10)]
    texts += ["%.17g" % struct.unpack("d", struct.pack("Q", (1 << 52) * k + 1))[0]
              for k in range(1, 40)]
    texts += ["9007199254740993", "9007199254740992.5", "2.2250738585072011e-308",
              "4.9e-324", "1e-400", "1e400", "-0", "+0.0", "0.000", ".5", "5.", "-.25e+3",
              "1.7976931348623157e308", "1.7976931348623159e308", "00012.5000"]
    return texts


def test_numbers_are_read_exactly_as_float_reads_them(tmp_path):
    texts = tricky_numbers(3000)
    text = np.frombuffer("".join(f"{t} 0:{t}\n" for t in texts).encode(), dtype=np.uint8)
    X, y, _ = loaders._parse_svmlight("n.svm", text)  # before the check for infinities
    expected = np.array([float(t) for t in texts])
    np.testing.assert_array_equal(y.view(np.uint64), expected.view(np.uint64))
    column = X.data  # one value per row (toarray would add -0.0 to 0.0)
    np.testing.assert_array_equal(column.view(np.uint64), expected.view(np.uint64))


def refuse_library_readers(monkeypatch):
    """The library readers fail the test when called: the compiled parser read the file."""
    def refused(*args, **kwargs):
        raise AssertionError("the library reader was called")

    monkeypatch.setattr(np, "loadtxt", refused)
    import sklearn.datasets

    monkeypatch.setattr(sklearn.datasets, "load_svmlight_file", refused)


@pytest.mark.parametrize("compression", ["", ".gz", ".bz2"])
def test_svmlight_as_scikit_learn_reads_it(tmp_path, monkeypatch, compression):
    rng = np.random.default_rng(1)
    X = sp.random(300, 50, density=0.1, format="csr", random_state=2)
    X.data = rng.standard_normal(X.data.shape[0]) * 10.0 ** rng.integers(-5, 5, X.data.shape[0])
    y = rng.choice([-1.0, 1.0], 300)
    plain = tmp_path / "d.svm"
    dump_svmlight_file(X, y, str(plain), zero_based=True, comment="c")
    text = plain.read_bytes().replace(b"\n", b"  # note\n", 3).replace(b"\n", b"\r\n", 5)
    text = text.replace(b"\n", b"\n\n# a comment line\n", 2)
    text = text.replace(b" ", b" qid:7 ", 1)
    path = tmp_path / f"e.svm{compression}"
    path.write_bytes({"": bytes, ".gz": gzip.compress, ".bz2": bz2.compress}[compression](text))
    (tmp_path / "e.svm").write_bytes(text)
    want_X, want_y = load_svmlight_file(str(tmp_path / "e.svm"), zero_based=True)
    refuse_library_readers(monkeypatch)
    got_X, got_y, _ = load_data(path)
    np.testing.assert_array_equal(got_y, want_y)
    assert got_X.shape == want_X.shape and (got_X != want_X).nnz == 0


@pytest.mark.parametrize(("delimiter", "suffix", "header"), [
    (",", ".csv", ""), (";", ".csv", "a;b;c;d;label\n"), ("\t", ".tsv", ""),
    (" ", ".csv", ""), ("\t", ".csv.gz", "x\tx\tx\tx\ty\n"), (",", ".csv.bz2", "")])
def test_csv_as_loadtxt_reads_it(tmp_path, monkeypatch, delimiter, suffix, header):
    rng = np.random.default_rng(3)
    table = rng.standard_normal((200, 5)) * 10.0 ** rng.integers(-8, 8, (200, 5))
    table[:, -1] = rng.choice([0.0, 1.0], 200)
    lines = [delimiter.join(repr(float(v)) for v in row) for row in table]
    lines[3] = " " + lines[3].replace(delimiter, f" {delimiter}  ") if delimiter != " " else (
        "  " + lines[3].replace(" ", "   \t"))
    lines[5] += "   # a comment"
    text = ("# a comment first\n" + header + "\n".join(lines[:10]) + "\r\n\n"
            + "\n".join(lines[10:]) + "\n")
    data = text.encode()
    path = tmp_path / f"d{suffix}"
    path.write_bytes(gzip.compress(data) if suffix.endswith(".gz") else
                     bz2.compress(data) if suffix.endswith(".bz2") else data)
    refuse_library_readers(monkeypatch)
    X, y, _ = load_data(path)
    np.testing.assert_array_equal(X, table[:, :-1])
    np.testing.assert_array_equal(y, table[:, -1])


def test_declined_files_keep_the_library_errors_and_results(tmp_path):
    """NaN, short rows, bad tokens, quotes: the compiled parsers decline, the errors are
    the library readers' as before (test_datasets and test_misreads hold the messages)."""
    cases = {
        "a.svm": ("1 1:2 3:inf\n-1 2:1\n", "inf at data row 1, feature index 3"),
        "b.svm": ("1 1:2 x\n", "not a valid svmlight"),
        "c.csv": ("1,2,1\n3,4\n5,6,1\n", "line 2 has 2 fields, expected 3"),
        "d.csv": ("1,2,1\n3,nan,1\n", "nan at data row 2, column 2"),
        "e.csv.gz": (None, "not a valid gzip file"),
    }
    for name, (content, message) in cases.items():
        path = tmp_path / name
        if content is None:
            path.write_bytes(b"not gzip")
        else:
            path.write_text(content)
        with pytest.raises(ValueError) as info:
            load_data(path, **({"zero_based": False} if name.endswith(".svm") else {}))
        assert message in str(info.value) and "\n" not in str(info.value), str(info.value)
    quoted = tmp_path / "q.csv"
    quoted.write_text('"1","2","a"\n3,4,b\n')
    X, y, _ = load_data(quoted)  # quotes and string labels: numpy.loadtxt, as before
    assert X.tolist() == [[1, 2], [3, 4]] and y.tolist() == ["a", "b"]


@pytest.mark.parametrize(("delimiter", "suffix", "header", "first"), [
    (",", ".csv", "", False), (";", ".csv", "a;b;c;label\n", True), ("\t", ".tsv", "", False),
    (" ", ".csv", "", True), ("\t", ".csv.gz", "x\tx\tx\ty\n", False)])
def test_csv_string_labels_as_loadtxt_reads_them(tmp_path, monkeypatch, delimiter, suffix,
                                                  header, first):
    """Text in the label column: the compiled parser reads it (no library reader), the
    labels stripped as numpy.loadtxt(dtype=str) and numpy.char.strip give them."""
    rng = np.random.default_rng(4)
    table = rng.standard_normal((150, 3)) * 10.0 ** rng.integers(-8, 8, (150, 3))
    names = ["spam", "ham", "eggs-é", "1"] if delimiter != " " else ["spam", "ham", "1.5"]
    labels = [names[k] for k in rng.integers(0, len(names), 150)]
    blank = "" if delimiter == " " else " "
    lines = [delimiter.join([blank + label + blank, *map(repr, row.tolist())]) if first
             else delimiter.join([*map(repr, row.tolist()), blank + label + blank])
             for label, row in zip(labels, table, strict=True)]
    lines[7] += "  # a comment"
    data = ("# first\n" + header + "\n".join(lines) + "\n").encode()
    path = tmp_path / f"s{suffix}"
    path.write_bytes(gzip.compress(data) if suffix.endswith(".gz") else data)
    refuse_library_readers(monkeypatch)
    X, y, _ = load_data(path, label_column="first" if first else None, cache=False)
    np.testing.assert_array_equal(X, table)
    assert y.dtype.kind == "U" and y.tolist() == labels


def test_labels_the_text_parse_leaves_to_the_library_reader(tmp_path):
    """Labels that are all numbers to float() (nan, 1_0), or quoted: read as before."""
    cases = {"n.csv": ("1,2,nan\n3,4,1\n", "y contains NaN or infinity"),
             "u.csv": ("1,2,1_0\n3,4,2\n", None)}
    for name, (content, message) in cases.items():
        path = tmp_path / name
        path.write_text(content)
        if message is None:
            assert load_data(path, cache=False)[1].tolist() == ["1_0", "2"]  # loadtxt's
            continue
        with pytest.raises(ValueError, match=message):
            load_data(path, cache=False)


def test_unknown_extension_names_the_compressions(tmp_path):
    path = tmp_path / "d.json.gz"
    path.write_bytes(gzip.compress(b"{}"))
    with pytest.raises(ValueError, match=r"unknown extension '.json'.*\.gz, \.bz2"):
        load_data(path)


# --- the cache of parsed files ------------------------------------------------------------


def test_cache_returns_the_parse_and_never_a_stale_one(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    path = tmp_path / "d.svm"
    path.write_text("1 1:0.5 3:2\n-1 2:1.5\n")
    first = load_data(path, zero_based=False, cache=cache)
    assert len(parsed_cache.entries(str(cache))) == 1
    calls = []
    monkeypatch.setattr(loaders, "_parse_svmlight", lambda *a: calls.append(a))
    again = load_data(path, zero_based=False, cache=cache)  # from the cache: no parse
    assert not calls and (again.X != first.X).nnz == 0 and again.y.tolist() == [1, -1]
    monkeypatch.undo()
    # new content of the same size and modification time: the hash tells them apart
    status = os.stat(path)
    path.write_text("1 1:0.7 3:2\n-1 2:1.5\n")
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert os.stat(path).st_size == status.st_size
    changed = load_data(path, zero_based=False, cache=cache)
    assert changed.X[0, 0] == 0.7
    assert len(parsed_cache.entries(str(cache))) == 1  # the earlier content's entry replaced


def test_cache_keeps_csv_options_apart_and_string_labels(tmp_path):
    cache = tmp_path / "cache"
    path = tmp_path / "d.csv"
    path.write_text("1,2,3\n4,5,6\n")
    first = load_data(path, label_column="first", cache=cache)
    other = load_data(path, label_column=1, cache=cache)
    assert first.y.tolist() == [1, 4] and other.y.tolist() == [2, 5]
    assert load_data(path, label_column="first", cache=cache).X.tolist() == [[2, 3], [5, 6]]
    words = tmp_path / "w.csv"
    words.write_text("a,1,2\nb,3,4\n")
    for _ in range(2):
        assert load_data(words, label_column="first", cache=cache).y.tolist() == ["a", "b"]
    assert len(parsed_cache.entries(str(cache))) == 3


def test_cache_index_base_decided_after_the_cache(tmp_path):
    """The cache holds the zero-based read; the base (and its warning) is decided each time."""
    cache = tmp_path / "cache"
    path = tmp_path / "d.svm"
    path.write_text("1 1:0.5\n-1 2:1.5\n")
    for _ in range(2):
        with pytest.warns(UserWarning, match="no feature index 0"):
            X, _, _ = load_data(path, cache=cache)
        assert X.shape == (2, 2)
    assert load_data(path, zero_based=True, cache=cache).X.shape == (2, 3)


def test_cache_off_and_bad_option(tmp_path, monkeypatch):
    monkeypatch.setenv(parsed_cache.CACHE_ENV, "off")
    assert parsed_cache.folder() is None
    path = tmp_path / "d.csv"
    path.write_text("1,2,1\n3,4,-1\n")
    load_data(path)
    with pytest.raises(TypeError, match="cache must be True, False or a folder"):
        load_data(path, cache=3)


def test_data_list_shows_the_cache_and_clear_cache_empties_it(tmp_path, capsys, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv(parsed_cache.CACHE_ENV, str(cache))
    path = tmp_path / "d.csv"
    path.write_text("1,2,1\n3,4,-1\n")
    load_data(path)
    assert main(["data", "list", "--data-home", str(tmp_path / "home")]) == 0
    out = capsys.readouterr().out
    assert f"parsed files: {cache} (1 file(s)" in out and str(path) in out
    assert main(["data", "clear-cache"]) == 0
    assert "deleted 1 parsed file(s)" in capsys.readouterr().out
    assert parsed_cache.entries(str(cache)) == []
    monkeypatch.delenv(parsed_cache.CACHE_ENV)  # the default: parsed/ in the data home
    home = tmp_path / "home"
    load_data(path, cache=parsed_cache.folder(None, home))
    assert main(["data", "list", "--data-home", str(home)]) == 0
    assert f"parsed files: {home / 'parsed'} (1 file(s)" in capsys.readouterr().out
    assert main(["data", "clear-cache", "--data-home", str(home)]) == 0
    assert "deleted 1 parsed file(s)" in capsys.readouterr().out


def test_the_parsers_compile_for_one_signature():
    """conftest checks every jitted function; the parsers are called here with both kinds."""
    text = np.frombuffer(b"1 0:1\n", dtype=np.uint8)
    assert _parse.svmlight(text, _parse.powers_of_five())[0]
    for text_labels in (False, True):
        assert _parse.csv(np.frombuffer(b"1,2\n", dtype=np.uint8), 0, 44, 2, 1,
                          _parse.powers_of_five(), text_labels)[0]
