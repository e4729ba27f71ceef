"""Tiny MNIST, USPS and RCV1 data homes for the real-data experiments' tests (issue 14).

The real loaders read them: the canonical sizes and checksums the loaders check are
patched to those of the tiny files (as tests/test_real_data.py does), and RCV1's
``fetch_rcv1`` is replaced by a function that returns a small bunch. Nothing is
downloaded. The digits are learnable: each class is a random prototype plus noise.
"""

from __future__ import annotations

import hashlib
import os

import numpy as np
import scipy.sparse as sp
import sklearn.datasets
from sklearn.datasets import dump_svmlight_file
from sklearn.preprocessing import normalize
from sklearn.utils import Bunch

from perceptron_bounds.datasets import real
from perceptron_bounds.datasets.real import IdxFile, write_idx

N_TRAIN, N_TEST = 300, 120
USPS_COUNTS = ((30, 25, 22, 20, 20, 18, 20, 20, 18, 20), (8, 6, 6, 5, 6, 5, 5, 5, 5, 5))
RCV1_STORIES, RCV1_TRAIN = 400, 200


def digits(n: int, n_pixels: int, rng, low: float, high: float, counts=None):
    """``n`` noisy copies of 10 class prototypes in [low, high], and their labels 0..9."""
    labels = (rng.permutation(np.repeat(np.arange(10), counts)) if counts is not None
              else rng.integers(0, 10, n))
    prototypes = np.random.default_rng(99).uniform(low, high, (10, n_pixels))
    noise = rng.uniform(low, high, (labels.size, n_pixels))
    return np.clip(0.7 * prototypes[labels] + 0.3 * noise, low, high), labels


def mnist_home(folder, monkeypatch) -> str:
    """A data home with four tiny IDX files; MNIST_FILES patched to their shapes and sums."""
    rng = np.random.default_rng(0)
    images, labels = digits(N_TRAIN, 784, rng, 0.0, 255.0)
    test_images, test_labels = digits(N_TEST, 784, rng, 0.0, 255.0)
    arrays = (images.astype(np.uint8).reshape(-1, 28, 28), labels.astype(np.uint8),
              test_images.astype(np.uint8).reshape(-1, 28, 28), test_labels.astype(np.uint8))
    files = []
    os.makedirs(folder, exist_ok=True)
    for entry, array in zip(real.MNIST_FILES, arrays, strict=True):
        write_idx(os.path.join(folder, entry.name), array)
        header = bytes((0, 0, 8, array.ndim)) + b"".join(
            int(size).to_bytes(4, "big") for size in array.shape)
        digest = hashlib.sha256(header + array.tobytes()).hexdigest()
        files.append(IdxFile(entry.name, array.shape, digest))
    monkeypatch.setattr(real, "MNIST_FILES", tuple(files))
    return str(folder)


def usps_home(folder, monkeypatch) -> str:
    """A data home with tiny LIBSVM files ``usps``, ``usps.t``; the class counts patched."""
    monkeypatch.setattr(real, "USPS_CLASS_COUNTS", USPS_COUNTS)
    rng = np.random.default_rng(1)
    os.makedirs(folder, exist_ok=True)
    for name, counts in zip(("usps", "usps.t"), USPS_COUNTS, strict=True):
        X, labels = digits(sum(counts), 256, rng, -1.0, 1.0, counts)
        dump_svmlight_file(np.round(X, 6), labels + 1, os.path.join(folder, name),
                           zero_based=False)
    return str(folder)


def rcv1_home(folder, monkeypatch) -> str:
    """A data home whose ``fetch_rcv1`` returns a small bunch (40 features, 6 topics)."""
    rng = np.random.default_rng(2)
    monkeypatch.setattr(real, "RCV1_N_STORIES", RCV1_STORIES)
    monkeypatch.setattr(real, "RCV1_N_TRAIN", RCV1_TRAIN)
    X = normalize(sp.random(RCV1_STORIES, 40, density=0.3, random_state=2, format="csr"))
    weights = rng.standard_normal((40, 6))
    scores = X @ weights
    topics = (scores > np.quantile(scores, [0.2, 0.5, 0.6, 0.7, 0.8, 0.9], axis=0)
              .diagonal()).astype(np.uint8)
    bunch = Bunch(data=X, target=sp.csr_matrix(topics),
                  target_names=np.array(list("ABCDEF"), dtype=object),
                  sample_id=np.arange(RCV1_STORIES))

    def fetch_rcv1(*, data_home=None, download_if_missing=True, **options):
        return bunch

    monkeypatch.setattr(sklearn.datasets, "fetch_rcv1", fetch_rcv1)
    os.makedirs(folder, exist_ok=True)
    return str(folder)
