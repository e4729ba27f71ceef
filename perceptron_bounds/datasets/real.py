"""The papers' real data sets: MNIST, USPS and the four RCV1 text tasks (theory §5).

Every loader reads its files from a *data home*: the ``data_home`` argument,
else the environment variable ``PERCEPTRON_BOUNDS_DATA``, else scikit-learn's
data home (:func:`sklearn.datasets.get_data_home`, ``~/scikit_learn_data``
unless ``SCIKIT_LEARN_DATA`` says otherwise). The image sets have one folder each in it
(``mnist/``, ``fashion-mnist/``: their files share their names), MNIST's files also
accepted directly in the data home as earlier releases kept them; the others sit directly
in it. When files are missing and ``download=True``, the loader fetches them:

- MNIST: ``train-images-idx3-ubyte.gz``, ``train-labels-idx1-ubyte.gz``,
  ``t10k-images-idx3-ubyte.gz``, ``t10k-labels-idx1-ubyte.gz`` (IDX, gzip). Fetched:
  OpenML's ``mnist_784``, written back as the four IDX files once their content matches
  the canonical SHA-256.
- Fashion-MNIST: the same four file names, in ``fashion-mnist/``. Fetched: OpenML's
  ``Fashion-MNIST``, written back likewise.
- USPS: LIBSVM's ``usps`` and ``usps.t`` (or ``usps.bz2``, ``usps.t.bz2`` as LIBSVM
  distributes them). Fetched: OpenML's data_id 41082, written back as ``usps`` and
  ``usps.t`` once the class counts match.
- RCV1: ``RCV1/``, the cache of :func:`sklearn.datasets.fetch_rcv1`, which fetches it
  (about 650 MB of downloads).

So a data set is fetched once and read from local files afterwards, also with
``download=False``. Tests never download: they monkeypatch scikit-learn's fetch
functions and write small files (:func:`write_idx`).
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import math
import os
import zlib
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .synthetic import Dataset

#: The environment variable naming the data home.
DATA_HOME_ENV = "PERCEPTRON_BOUNDS_DATA"


@dataclass(frozen=True)
class IdxFile:
    """One canonical IDX file: its name, the array it holds and the SHA-256 of its content.

    ``sha256`` is the digest of the *uncompressed* IDX bytes (header and data):
    mirrors compress the same content into different gzip bytes.
    """

    name: str
    shape: tuple[int, ...]
    sha256: str


#: The four MNIST files (Y. LeCun, C. Cortes, C. J. C. Burges), in the order train images,
#: train labels, test images, test labels.
MNIST_FILES = (
    IdxFile("train-images-idx3-ubyte.gz", (60000, 28, 28),
            "ba891046e6505d7aadcbbe25680a0738ad16aec93bde7f9b65e87a2fc25776db"),
    IdxFile("train-labels-idx1-ubyte.gz", (60000,),
            "65a50cbbf4e906d70832878ad85ccda5333a97f0f4c3dd2ef09a8a9eef7101c5"),
    IdxFile("t10k-images-idx3-ubyte.gz", (10000, 28, 28),
            "0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7"),
    IdxFile("t10k-labels-idx1-ubyte.gz", (10000,),
            "ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2"),
)
MNIST_URL = "https://yann.lecun.com/exdb/mnist/"

#: The four Fashion-MNIST files (H. Xiao, K. Rasul, R. Vollgraf, 2017), named and ordered as
#: MNIST's.
FASHION_MNIST_FILES = (
    IdxFile("train-images-idx3-ubyte.gz", (60000, 28, 28),
            "c59f468a2f672dc815687fe0f83887768d799fd8a3f3276145d20f83aa44d888"),
    IdxFile("train-labels-idx1-ubyte.gz", (60000,),
            "bad3541b69d912435c50bb6ba87bec294ff4f6a2e1246121d8633921760443d9"),
    IdxFile("t10k-images-idx3-ubyte.gz", (10000, 28, 28),
            "5b4141f0afbad91edebe8549f8fcffe087ea10ca49f1dbef5c9a5cd8815ce37b"),
    IdxFile("t10k-labels-idx1-ubyte.gz", (10000,),
            "0402a96d92fd2663957122ceb108a494c5af83dab82d92729df917d7dec38c34"),
)
FASHION_MNIST_URL = "https://github.com/zalandoresearch/fashion-mnist"
#: Fashion-MNIST's classes, labels 0..9.
FASHION_MNIST_CLASSES = ("T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal",
                         "Shirt", "Sneaker", "Bag", "Ankle boot")

#: LIBSVM's USPS files (training, test); each may also be bzip2-compressed, ``usps.bz2``.
USPS_FILES = ("usps", "usps.t")
#: Images of digits 0..9 in USPS's training (7,291) and test (2,007) parts.
USPS_CLASS_COUNTS = (
    (1194, 1005, 731, 658, 652, 556, 664, 645, 542, 644),
    (359, 264, 198, 166, 200, 160, 170, 147, 166, 177),
)
USPS_N_FEATURES = 256
USPS_OPENML_ID = 41082
USPS_URL = "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/multiclass.html#usps"

#: Paper 002, Task 2: the first 20,000 stories, split 10,000 / 10,000 in order.
RCV1_N_STORIES = 20000
RCV1_N_TRAIN = 10000
#: The paper's names x of its tasks RCV1_x, for the 2nd, 3rd, 4th and 5th most frequent
#: categories of those stories.
RCV1_TASKS = (70, 101, 4, 59)

_GZIP_MAGIC = b"\x1f\x8b"
_IDX_UBYTE = 0x08


@dataclass(frozen=True, eq=False)
class RealData:
    """A real data set's training and test parts, as the papers split them.

    Unpacks as ``train, test = data``, like :class:`~perceptron_bounds.datasets.TrainTest`.

    Attributes
    ----------
    train, test : Dataset
        ``(X, y, None)``: X float64 (dense, or CSR for text), y int64 labels.
    name : str
        What ``--data`` calls it on the command line: ``"mnist"``, ``"usps"``, ``"rcv1:70"``.
    description : str
        One line: the source, the sizes, the scale of X and the labels.
    feature_range : tuple of float
        The nominal range of X's entries: ``(0, 255)`` for MNIST's raw 8-bit grey values,
        ``(-1, 1)`` for USPS, ``(0, 1)`` for RCV1's unit-norm TF-IDF vectors.
    target_names : tuple of str
        What each label stands for, in increasing label order (``"0"``..``"9"``; a binary
        task's ``-1`` and ``+1``).
    source : str
        The files read.
    """

    train: Dataset
    test: Dataset
    name: str
    description: str
    feature_range: tuple[float, float]
    target_names: tuple[str, ...]
    source: str

    def __iter__(self):
        return iter((self.train, self.test))


def get_data_home(data_home=None) -> str:
    """The folder the loaders read from and fetch into.

    Parameters
    ----------
    data_home : str or os.PathLike, optional
        Used when given; else the environment variable ``PERCEPTRON_BOUNDS_DATA`` when set
        and not empty; else scikit-learn's data home, by :func:`sklearn.datasets.get_data_home`'s
        rule (``$SCIKIT_LEARN_DATA``, else ``~/scikit_learn_data``; created), found without
        importing scikit-learn (a second of start-up for a command that reads a file).

    Returns
    -------
    str
        An absolute path (``~`` expanded). It need not exist.

    Examples
    --------
    >>> import os
    >>> get_data_home("/tmp/data") == os.path.abspath("/tmp/data")
    True
    """
    if data_home is None:
        data_home = os.environ.get(DATA_HOME_ENV) or None
    if data_home is None:
        home = os.path.expanduser(os.environ.get("SCIKIT_LEARN_DATA",
                                                 os.path.join("~", "scikit_learn_data")))
        os.makedirs(home, exist_ok=True)
        return os.path.abspath(home)
    if not isinstance(data_home, (str, os.PathLike)):
        raise TypeError(f"data_home must be a str or os.PathLike, got {type(data_home).__name__}")
    return os.path.abspath(os.path.expanduser(os.fspath(data_home)))


def read_idx(path, *, shape=None, sha256=None) -> np.ndarray:
    """The unsigned-byte array of a gzip-compressed IDX file, checked.

    An IDX file is a 4-byte magic number ``0x0000 08 d`` (unsigned bytes, d
    dimensions), d big-endian 32-bit sizes, then the bytes of the array in C
    order (LeCun et al., the MNIST page).

    Parameters
    ----------
    path : str or os.PathLike
    shape : tuple of int, optional
        The shape the file must hold (and so its magic number, 2048 + len(shape)).
    sha256 : str, optional
        The hex SHA-256 the uncompressed content must have. The reader holds that content
        anyway, so the check costs one pass of :mod:`hashlib` (about 0.1 s for MNIST's
        47 MB of training images).

    Returns
    -------
    ndarray of uint8, read-only (a view of the decompressed bytes)

    Raises
    ------
    ValueError
        One line naming the file: not gzip, a truncated or corrupt gzip stream, a wrong
        magic number, a truncated header or body, bytes after the data, another shape,
        a checksum mismatch.

    Examples
    --------
    >>> import numpy as np, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "a-idx2-ubyte.gz")
    >>> write_idx(path, np.arange(6, dtype=np.uint8).reshape(2, 3))
    >>> read_idx(path, shape=(2, 3)).tolist()
    [[0, 1, 2], [3, 4, 5]]
    >>> read_idx(path, shape=(6,))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: ...: wrong IDX magic number 2050 (0x00000802); expected 2049 (0x00000801: ...)
    """
    path = os.fspath(path)
    with open(path, "rb") as handle:
        packed = handle.read()
    if packed[:2] != _GZIP_MAGIC:
        raise ValueError(f"{path}: not a gzip file (it starts with 0x{packed[:4].hex() or '-'}; "
                         "IDX files are read gzip-compressed, as distributed)")
    try:
        raw = gzip.decompress(packed)
    except EOFError:
        raise ValueError(f"{path}: truncated gzip stream (an interrupted download?)") from None
    except (OSError, zlib.error) as error:
        raise ValueError(f"{path}: corrupt gzip data ({error})") from None
    dims, start = _idx_header(path, raw, shape)
    size, have = math.prod(dims), len(raw) - start
    if have < size:
        raise ValueError(f"{path}: truncated: {have} of the {size} data bytes of shape {dims}")
    if have > size:
        raise ValueError(f"{path}: {have - size} bytes after the data of shape {dims}")
    if sha256 is not None:
        digest = hashlib.sha256(raw).hexdigest()
        if digest != sha256:
            raise ValueError(f"{path}: checksum mismatch: the SHA-256 of its uncompressed "
                             f"content is {digest}, expected {sha256} (a damaged or different "
                             "copy)")
    return np.frombuffer(raw, dtype=np.uint8, offset=start).reshape(dims)


def _idx_header(path: str, raw: bytes, shape) -> tuple[tuple[int, ...], int]:
    """``(dims, start)`` from the first bytes ``raw`` of an IDX file's content, checked
    against ``shape`` (when given): its sizes and where its data start."""
    magic = int.from_bytes(raw[:4], "big") if len(raw) >= 4 else None
    if magic is None:
        raise ValueError(f"{path}: truncated IDX header ({len(raw)} bytes)")
    ndim = raw[3]
    wanted = None if shape is None else (_IDX_UBYTE << 8) | len(shape)
    not_ubyte = raw[:3] != bytes((0, 0, _IDX_UBYTE)) or ndim == 0
    if not_ubyte or (wanted is not None and magic != wanted):
        expected = ("0x00000801..0x000008ff: unsigned bytes" if wanted is None else
                    f"{wanted} (0x{wanted:08x}: unsigned bytes in {len(shape)} dimension(s))")
        raise ValueError(f"{path}: wrong IDX magic number {magic} (0x{magic:08x}); "
                         f"expected {expected}")
    start = 4 + 4 * ndim
    if len(raw) < start:
        raise ValueError(f"{path}: truncated IDX header ({len(raw)} of {start} bytes)")
    dims = tuple(int.from_bytes(raw[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim))
    if shape is not None and dims != tuple(shape):
        raise ValueError(f"{path}: holds an array of shape {dims}, expected {tuple(shape)}")
    return dims, start


def idx_problem(path, shape) -> tuple[str, str] | None:
    """Why the gzip-compressed IDX file ``path`` cannot be read as an array of ``shape``:
    ``("truncated", detail)`` or ``("corrupt", detail)``; None when it can.

    The content is decompressed block by block and counted, not kept (about 0.1 s for
    MNIST's training images); the header's magic number and sizes must be those of
    ``shape`` and the content exactly as long as they say. The checksum is not computed
    (:func:`read_idx` does that when the file is loaded).

    Examples
    --------
    >>> import numpy as np, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "a-idx2-ubyte.gz")
    >>> write_idx(path, np.zeros((40, 30), dtype=np.uint8))
    >>> idx_problem(path, (40, 30)) is None
    True
    >>> with open(path, "r+b") as handle:
    ...     _ = handle.truncate(os.path.getsize(path) // 2)
    >>> idx_problem(path, (40, 30))[0]
    'truncated'
    """
    path = os.fspath(path)
    head, total = b"", 0
    stream = zlib.decompressobj(16 + zlib.MAX_WBITS)  # gzip: its CRC and length checked
    with open(path, "rb") as handle:
        if handle.read(2) != _GZIP_MAGIC:
            return "corrupt", "not a gzip file"
        handle.seek(0)
        try:
            while not stream.eof and (packed := handle.read(1 << 20)):
                block = stream.decompress(packed)
                head += block[:64 - len(head)]
                total += len(block)
        except zlib.error as error:
            return "corrupt", f"bad gzip data ({error})"
    ended = stream.eof  # else the stream stops early; the header says how much is missing
    try:
        dims, start = _idx_header(path, head, shape)
    except ValueError as error:
        problem = "truncated" if "truncated" in str(error) or not ended else "corrupt"
        return problem, str(error).removeprefix(f"{path}: ")
    expected = start + math.prod(dims)
    if total < expected or not ended:
        return "truncated", (f"{total} of {expected} bytes" if ended else
                             f"the gzip stream ends after {total} of {expected} bytes")
    if total > expected:
        return "corrupt", f"{total - expected} bytes after the data"
    return None


def write_idx(path, array) -> None:
    """Write a uint8 array as a gzip-compressed IDX file (atomically: a whole file or none).

    Examples
    --------
    >>> import numpy as np, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "labels-idx1-ubyte.gz")
    >>> write_idx(path, np.array([7, 2, 1], dtype=np.uint8))
    >>> read_idx(path).tolist()
    [7, 2, 1]
    """
    _write_atomic(os.fspath(path), gzip.compress(_idx_content(array), compresslevel=6, mtime=0))


def _idx_content(array) -> bytes:
    """The uncompressed IDX bytes of a uint8 array: magic, sizes, data."""
    array = np.asarray(array)
    if array.dtype != np.uint8 or array.ndim == 0:
        raise TypeError(f"array must be a uint8 array of at least 1 dimension, got "
                        f"{array.ndim}-D {array.dtype}")
    header = bytes((0, 0, _IDX_UBYTE, array.ndim))
    header += b"".join(int(size).to_bytes(4, "big") for size in array.shape)
    return header + np.ascontiguousarray(array).tobytes()


def _write_atomic(path: str, content: bytes) -> None:
    partial = f"{path}.part{os.getpid()}"
    with open(partial, "wb") as handle:
        handle.write(content)
    os.replace(partial, path)


def _check_download(download) -> bool:
    if not isinstance(download, (bool, np.bool_)):
        raise TypeError(f"download must be True or False, got {download!r}")
    return bool(download)


def _fetch_openml(home: str, what: str, instead: str, **query):
    """:func:`sklearn.datasets.fetch_openml` of ``query`` as arrays, cached in ``home``; a
    failed download is one line saying what to do ``instead``.

    The ARFF parser is pandas when installed (faster; not a dependency), else liac-arff.
    """
    from sklearn.datasets import fetch_openml

    parser = "pandas" if importlib.util.find_spec("pandas") else "liac-arff"
    try:
        return fetch_openml(**query, data_home=home, as_frame=False, parser=parser)
    except OSError as error:
        raise OSError(f"could not fetch {what} from OpenML into {home} ({error}); "
                      f"{instead}") from None


def load_mnist(data_home=None, download=True) -> RealData:
    """MNIST: 60,000 training and 10,000 test images of handwritten digits, raw pixels.

    Parameters
    ----------
    data_home : str or os.PathLike, optional
        The data home (see :func:`get_data_home`): the four IDX files are in its ``mnist/``
        folder, or directly in it (as earlier releases kept them) when ``mnist/`` holds
        none of them.
    download : bool, default=True
        When files are missing, fetch OpenML's ``mnist_784`` through
        :func:`sklearn.datasets.fetch_openml` (cached in ``data_home/openml``; its first
        60,000 rows are the training set), check it against the canonical checksums and
        write the missing IDX files where they belong (``data_home/mnist`` when the data
        home holds none). With False, missing files are an error.

    Returns
    -------
    RealData
        ``train``: X (60000, 784), ``test``: X (10000, 784), float64, the raw 8-bit grey
        values 0..255 of the 28 x 28 images row by row; y int64 digits 0..9.

    Raises
    ------
    FileNotFoundError
        Files missing and ``download=False``: the message names them and the folder.
    ValueError
        A file that is not gzip, is truncated, has a wrong magic number or shape or fails
        its checksum (the SHA-256 of the uncompressed content, :data:`MNIST_FILES`);
        OpenML data that differ from the canonical files.

    Notes
    -----
    Warm loads decode the files directly (about 1 s: gunzip, one SHA-256 pass, the float64
    copy); there is no other cache.

    Pixel scale. Freund and Schapire [FS99, sec. 5] take "each image as a vector in
    R^784" whose entries are "an 8-bit representation of a grey value" and expand it with
    the kernel (1 + x . z)^d of their eq. (1); they mention no rescaling. So the raw
    0..255 values returned here, with ``kernel="poly", gamma=1, coef0=1, degree=d``,
    reproduce the paper. Scaling matters only through the constant: for x' = x / 255,
    (1 + x . z)^d = 255^(2d) (1/255^2 + x' . z')^d, and a positive factor on the kernel
    changes no prediction, so raw pixels with coef0=1 are scaled pixels with
    coef0=1/65025, not with coef0=1. The Ballseptron experiments [SS05, sec. 5] centre
    and scale instead (:func:`~perceptron_bounds.datasets.center_and_scale`).

    Examples
    --------
    >>> train, test = load_mnist()  # doctest: +SKIP
    >>> train.X.shape, test.X.shape, train.X.max()  # doctest: +SKIP
    ((60000, 784), (10000, 784), 255.0)
    """
    files = _load_idx_set(get_data_home(data_home), _check_download(download), MNIST_FILES,
                          "mnist", "MNIST", MNIST_URL, "load_mnist", top_level=True,
                          name="mnist_784", version=1)
    train, test = files.parts
    return RealData(
        train=train, test=test, name="mnist",
        description=f"MNIST: {train.X.shape[0]} training and {test.X.shape[0]} test images of "
        f"{train.X.shape[1]} pixels, raw 8-bit grey values 0..255, labels 0..9",
        feature_range=(0.0, 255.0), target_names=tuple(str(digit) for digit in range(10)),
        source=files.source,
    )


def load_fashion_mnist(data_home=None, download=True) -> RealData:
    """Fashion-MNIST: 60,000 training and 10,000 test images of clothing, raw pixels.

    Zalando's drop-in replacement for MNIST [XRV17]: 28 x 28 grey images of ten kinds of
    clothing (:data:`FASHION_MNIST_CLASSES`), in MNIST's IDX format and file names, read
    from the folder ``fashion-mnist/`` of the data home.

    Parameters
    ----------
    data_home : str or os.PathLike, optional
        The data home (see :func:`get_data_home`); the four IDX files are in its
        ``fashion-mnist/`` folder.
    download : bool, default=True
        When files are missing, fetch OpenML's ``Fashion-MNIST`` through
        :func:`sklearn.datasets.fetch_openml` (cached in ``data_home/openml``; its first
        60,000 rows are the training set), check it against the canonical checksums and
        write the missing IDX files into ``data_home/fashion-mnist``. With False, missing
        files are an error.

    Returns
    -------
    RealData
        ``train``: X (60000, 784), ``test``: X (10000, 784), float64, the raw 8-bit grey
        values 0..255 row by row; y int64 classes 0..9, named in ``target_names``.

    Raises
    ------
    FileNotFoundError
        Files missing and ``download=False``: the message names them and the folder.
    ValueError
        A damaged file (as for :func:`load_mnist`, against :data:`FASHION_MNIST_FILES`),
        or OpenML data that differ from the canonical files.

    References
    ----------
    .. [XRV17] H. Xiao, K. Rasul, R. Vollgraf, "Fashion-MNIST: a Novel Image Dataset for
       Benchmarking Machine Learning Algorithms", arXiv:1708.07747, 2017.

    Examples
    --------
    >>> train, test = load_fashion_mnist()  # doctest: +SKIP
    >>> train.X.shape, test.target_names[9]  # doctest: +SKIP
    ((60000, 784), 'Ankle boot')
    """
    files = _load_idx_set(get_data_home(data_home), _check_download(download),
                          FASHION_MNIST_FILES, "fashion-mnist", "Fashion-MNIST",
                          FASHION_MNIST_URL, "load_fashion_mnist", name="Fashion-MNIST",
                          version=1)
    train, test = files.parts
    return RealData(
        train=train, test=test, name="fashion-mnist",
        description=f"Fashion-MNIST: {train.X.shape[0]} training and {test.X.shape[0]} test "
        f"images of {train.X.shape[1]} pixels, raw 8-bit grey values 0..255, labels 0..9 "
        "(T-shirt/top .. Ankle boot)",
        feature_range=(0.0, 255.0), target_names=FASHION_MNIST_CLASSES, source=files.source,
    )


def idx_folder(home: str, folder: str, entries, *, top_level: bool = False) -> str:
    """Where an IDX data set's files are: ``home/folder``, or with ``top_level`` the data
    home itself when it holds some of them and ``home/folder`` none (MNIST as earlier
    releases kept it); ``home/folder`` when neither holds any (where a download goes)."""
    own = os.path.join(home, folder)
    if top_level and not _holds_any(own, entries) and _holds_any(home, entries):
        return home
    return own


def _holds_any(folder: str, entries) -> bool:
    return any(os.path.isfile(os.path.join(folder, entry.name)) for entry in entries)


@dataclass(frozen=True)
class _IdxSet:
    parts: tuple
    source: str


def _load_idx_set(home: str, download: bool, entries, folder: str, what: str, url: str,
                  loader: str, *, top_level: bool = False, **query) -> _IdxSet:
    """The training and test Datasets of an IDX image set (MNIST's four files) from its
    folder of ``home`` (:func:`idx_folder`), fetched from OpenML's ``query`` when missing
    and ``download``."""
    where = idx_folder(home, folder, entries, top_level=top_level)
    paths = [os.path.join(where, entry.name) for entry in entries]
    missing = [entry.name for entry, path in zip(entries, paths, strict=True)
               if not os.path.isfile(path)]
    if missing and not download:
        raise FileNotFoundError(
            f"{what} is not in {where}: missing {', '.join(missing)}; put the four IDX files "
            f"({url} or a mirror) there, or call {loader}(download=True)"
        )
    if missing:
        _fetch_idx_set(home, where, missing, entries, what, url, **query)
    train_images, train_labels, test_images, test_labels = (
        read_idx(path, shape=entry.shape, sha256=entry.sha256)
        for entry, path in zip(entries, paths, strict=True)
    )
    parts = []
    for images, labels, path in ((train_images, train_labels, paths[1]),
                                 (test_images, test_labels, paths[3])):
        if labels.size and labels.max() > 9:
            raise ValueError(f"{path}: labels must be 0..9, got {int(labels.max())}")
        X = np.empty((images.shape[0], math.prod(images.shape[1:])))
        np.copyto(X, images.reshape(X.shape))  # no uint8 -> float64 temporary
        parts.append(Dataset(X, labels.astype(np.int64), None))
    return _IdxSet(tuple(parts), ", ".join(paths))


def _fetch_idx_set(home: str, where: str, missing: list[str], entries, what: str, url: str,
                   **query) -> None:
    """Fetch OpenML's ``query`` (cached in ``home``; 70,000 rows of 784 pixels, the first
    60,000 the training set) and write the ``missing`` IDX files into ``where``, content
    checked."""
    bunch = _fetch_openml(home, what, f"put the IDX files from {url} there instead", **query)
    images, target = np.asarray(bunch.data), np.asarray(bunch.target)
    train_shape, test_shape = entries[0].shape, entries[2].shape
    n_train, n_test, n_pixels = train_shape[0], test_shape[0], math.prod(train_shape[1:])
    openml = f"OpenML's {query.get('name')}"
    if images.shape != (n_train + n_test, n_pixels) or target.shape != (n_train + n_test,):
        raise ValueError(f"{openml} holds X of shape {images.shape}, expected "
                         f"({n_train + n_test}, {n_pixels}); nothing was written")
    pixels = images.astype(np.uint8)
    labels = target.astype(np.int64).astype(np.uint8)
    arrays = (pixels[:n_train].reshape(train_shape), labels[:n_train],
              pixels[n_train:].reshape(test_shape), labels[n_train:])
    contents = {}
    for entry, array in zip(entries, arrays, strict=True):
        content = _idx_content(array)
        digest = hashlib.sha256(content).hexdigest()
        if digest != entry.sha256:
            raise ValueError(f"{openml} differs from the canonical {entry.name} "
                             f"(SHA-256 {digest}, expected {entry.sha256}); nothing was written: "
                             f"put the IDX files from {url} in {where}")
        contents[entry.name] = content
    os.makedirs(where, exist_ok=True)
    for name in missing:
        _write_atomic(os.path.join(where, name),
                      gzip.compress(contents[name], compresslevel=6, mtime=0))


def load_usps(data_home=None, download=True) -> RealData:
    """USPS: 7,291 training and 2,007 test images of handwritten digits, 16 x 16 pixels.

    Parameters
    ----------
    data_home : str or os.PathLike, optional
        Where LIBSVM's ``usps`` and ``usps.t`` are (or ``usps.bz2``, ``usps.t.bz2``;
        see :func:`get_data_home`).
    download : bool, default=True
        When files are missing, fetch OpenML's USPS (data_id 41082, the data set
        scikit-learn's examples use; cached in ``data_home/openml``), whose 9,298 rows are
        read as LIBSVM's two files one after the other: the first 7,291 as the training
        set, the rest as the test set (checked: the class counts of both parts must be
        USPS's). The missing files are then written into ``data_home`` in LIBSVM's format.
        With False, missing files are an error.

    Returns
    -------
    RealData
        ``train``: X (7291, 256), ``test``: X (2007, 256), float64 grey values in [-1, 1]
        as LIBSVM distributes them; y int64 digits 0..9 (LIBSVM's and OpenML's labels
        1..10 minus 1).

    Raises
    ------
    FileNotFoundError
        Files missing and ``download=False``.
    ValueError
        A file that is not LIBSVM, labels outside 1..10, entries outside [-1, 1], or class
        counts other than USPS's (:data:`USPS_CLASS_COUNTS`).

    Notes
    -----
    The papers use USPS as distributed: the Ballseptron experiments [SS05, sec. 5] centre
    and scale it (:func:`~perceptron_bounds.datasets.center_and_scale`), the Higher-Order
    ones [BGV07, Table 3] run kernels on it one-vs-rest.

    Examples
    --------
    >>> train, test = load_usps()  # doctest: +SKIP
    >>> train.X.shape, test.X.shape  # doctest: +SKIP
    ((7291, 256), (2007, 256))
    """
    from sklearn.datasets import load_svmlight_files

    download = _check_download(download)
    home = get_data_home(data_home)
    paths = [usps_path(home, name) for name in USPS_FILES]
    missing = [name for name, path in zip(USPS_FILES, paths, strict=True) if path is None]
    if missing and not download:
        raise FileNotFoundError(
            f"USPS is not in {home}: missing {', '.join(missing)} (or {missing[0]}.bz2); put "
            f"LIBSVM's files ({USPS_URL}) there, or call load_usps(download=True)"
        )
    if missing:
        _fetch_usps(home, missing)
        paths = [usps_path(home, name) for name in USPS_FILES]
    parts = []
    for path, counts in zip(paths, USPS_CLASS_COUNTS, strict=True):
        try:
            X, y = load_svmlight_files([path], n_features=USPS_N_FEATURES, dtype=np.float64,
                                       zero_based=False)
        except (ValueError, OSError, EOFError, UnicodeDecodeError) as error:
            message = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise ValueError(f"{path}: not a LIBSVM file of {USPS_N_FEATURES} features "
                             f"({message})") from None
        digits = _usps_digits(path, y, counts)
        X = X.toarray()
        if X.size and (X.min() < -1.0 or X.max() > 1.0):
            raise ValueError(f"{path}: entries must lie in [-1, 1], got [{X.min():g}, "
                             f"{X.max():g}]")
        parts.append(Dataset(X, digits, None))
    train, test = parts
    return RealData(
        train=train, test=test, name="usps",
        description=f"USPS: {train.X.shape[0]} training and {test.X.shape[0]} test images of "
        f"{USPS_N_FEATURES} pixels, grey values in [-1, 1], labels 0..9",
        feature_range=(-1.0, 1.0), target_names=tuple(str(digit) for digit in range(10)),
        source=", ".join(paths),
    )


def usps_path(home: str, name: str) -> str | None:
    """The path of LIBSVM's file ``name`` (of :data:`USPS_FILES`) in the folder ``home``,
    plain or bzip2-compressed (``name.bz2``), or None when neither is there."""
    for candidate in (name, f"{name}.bz2"):
        path = os.path.join(home, candidate)
        if os.path.isfile(path):
            return path
    return None


def _usps_digits(source: str, labels: np.ndarray, counts) -> np.ndarray:
    """LIBSVM's labels 1..10 as digits 0..9 (int64), with USPS's class ``counts`` checked."""
    labels = np.asarray(labels, dtype=np.float64)
    bad = (labels != np.round(labels)) | (labels < 1) | (labels > 10)
    if bad.any():
        raise ValueError(f"{source}: labels must be 1..10 (digits 0..9 plus 1), got "
                         f"{labels[bad][0]:g}")
    digits = labels.astype(np.int64) - 1
    found = tuple(np.bincount(digits, minlength=10).tolist())
    if found != tuple(counts):
        raise ValueError(f"{source}: class counts {found} differ from USPS's {tuple(counts)}")
    return digits


def _fetch_usps(home: str, missing: list[str]) -> None:
    """Fetch OpenML's USPS and write the ``missing`` LIBSVM files, class counts checked."""
    from sklearn.datasets import dump_svmlight_file

    bunch = _fetch_openml(home, "USPS", f"put LIBSVM's usps, usps.t ({USPS_URL}) there instead",
                          data_id=USPS_OPENML_ID)
    X, target = np.asarray(bunch.data, dtype=np.float64), np.asarray(bunch.target)
    n_train, n_test = (sum(counts) for counts in USPS_CLASS_COUNTS)
    source = f"OpenML's USPS (data_id {USPS_OPENML_ID})"
    if X.shape != (n_train + n_test, USPS_N_FEATURES) or target.shape != (n_train + n_test,):
        raise ValueError(f"{source} holds X of shape {X.shape}, expected "
                         f"({n_train + n_test}, {USPS_N_FEATURES}); nothing was written")
    labels = target.astype(np.float64)
    parts = dict(zip(USPS_FILES, (slice(0, n_train), slice(n_train, None)), strict=True))
    for (name, rows), counts in zip(parts.items(), USPS_CLASS_COUNTS, strict=True):
        _usps_digits(f"{source}, rows of {name}", labels[rows], counts)
    os.makedirs(home, exist_ok=True)
    for name, rows in parts.items():
        if name in missing:
            path = os.path.join(home, name)
            partial = f"{path}.part{os.getpid()}"
            dump_svmlight_file(X[rows], labels[rows].astype(np.int64), partial,
                               zero_based=False,
                               comment=f"USPS {name}, written from {source}")
            os.replace(partial, path)


def load_rcv1_tasks(data_home=None, download=True) -> dict[int, RealData]:
    """The Higher-Order paper's four binary text tasks on RCV1 [BGV07, sec. 4, Task 2].

    Parameters
    ----------
    data_home : str or os.PathLike, optional
        Where :func:`sklearn.datasets.fetch_rcv1` keeps RCV1 (``data_home/RCV1``; see
        :func:`get_data_home`).
    download : bool, default=True
        Let ``fetch_rcv1`` download RCV1 when it is missing (about 650 MB). With False,
        a missing copy is an error.

    Returns
    -------
    dict of int to RealData
        Keyed by the paper's names 70, 101, 4, 59 (tasks RCV1_70 ... RCV1_59), in that
        order: the 2nd, 3rd, 4th and 5th most frequent categories among the first 20,000
        stories (ties broken by scikit-learn's category order), each against the rest.
        X: CSR float64 rows of 47,236 TF-IDF features of unit norm, as ``fetch_rcv1``
        gives them; y int64, +1 for a story in the category, -1 otherwise. ``train`` is
        stories 1..10,000, ``test`` 10,001..20,000, in order; the four tasks share these
        two matrices (same objects) and differ in y.

    Raises
    ------
    FileNotFoundError
        RCV1 not in the data home and ``download=False``.
    OSError
        The download failed.

    Notes
    -----
    Paper 002 (sec. 4, Task 2): "the first 20,000 newswire stories in RCV1", TF-IDF
    vectors normalised, "binarizing consecutive news stories against the four target
    categories 70, 101, 4, and 59. These are the 2nd, 3rd, 4th, and 5th most frequent
    categories", the most frequent left out for its overlap with the others. scikit-learn
    orders the stories by document id (the LYRL2004 training stories first), so its first
    20,000 are the oldest. The paper's numbers look like positions in the alphabetical
    list of the 103 topics (scikit-learn's ``target_names``: 4 is C15, 59 ECAT, 70 GCAT,
    and MCAT is 102 there): the categories are derived here by frequency, and each task's
    ``target_names[1]`` and ``description`` say which one it is.

    Examples
    --------
    >>> tasks = load_rcv1_tasks()  # doctest: +SKIP
    >>> tasks[70].target_names, tasks[70].train.X.shape  # doctest: +SKIP
    (('rest', 'GCAT'), (10000, 47236))
    """
    from sklearn.datasets import fetch_rcv1

    download = _check_download(download)
    home = get_data_home(data_home)
    folder = os.path.join(home, "RCV1")
    try:
        bunch = fetch_rcv1(data_home=home, download_if_missing=download)
    except OSError as error:
        if download:
            raise OSError(f"could not fetch RCV1 into {folder}: {error}") from None
        raise FileNotFoundError(
            f"RCV1 is not in {folder} (scikit-learn's fetch_rcv1 cache); call "
            "load_rcv1_tasks(download=True) once to fetch it (about 650 MB)"
        ) from None
    n_stories = bunch.data.shape[0]
    if n_stories < RCV1_N_STORIES:
        raise ValueError(f"{folder}: RCV1 has {n_stories} stories, fewer than the "
                         f"{RCV1_N_STORIES} the tasks need")
    X = sp.csr_matrix(bunch.data[:RCV1_N_STORIES], dtype=np.float64)
    topics = sp.csc_matrix(bunch.target[:RCV1_N_STORIES])
    names = [str(name) for name in bunch.target_names]
    if len(names) < 1 + len(RCV1_TASKS):
        raise ValueError(f"{folder}: RCV1 has {len(names)} categories, fewer than the "
                         f"{1 + len(RCV1_TASKS)} the tasks need")
    counts = np.asarray((topics != 0).sum(axis=0)).ravel()
    ranked = np.argsort(-counts, kind="stable")[1:1 + len(RCV1_TASKS)]
    X_train, X_test = X[:RCV1_N_TRAIN], X[RCV1_N_TRAIN:]
    tasks = {}
    for rank, (paper_name, column) in enumerate(zip(RCV1_TASKS, ranked, strict=True), start=2):
        y = np.where(topics[:, column].toarray().ravel() != 0, 1, -1).astype(np.int64)
        category = names[column]
        tasks[paper_name] = RealData(
            train=Dataset(X_train, y[:RCV1_N_TRAIN], None),
            test=Dataset(X_test, y[RCV1_N_TRAIN:], None),
            name=f"rcv1:{paper_name}",
            description=f"RCV1_{paper_name}: category {category} (rank {rank} by frequency, "
            f"{counts[column]} of the first {RCV1_N_STORIES} stories) against the rest; "
            f"{RCV1_N_TRAIN} training and {RCV1_N_STORIES - RCV1_N_TRAIN} test stories in "
            f"order, {X.shape[1]} TF-IDF features, rows of unit norm; labels -1, +1",
            feature_range=(0.0, 1.0), target_names=("rest", category), source=folder,
        )
    return tasks
