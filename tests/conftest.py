"""Shared fixtures: small seeded data sets."""

import numpy as np
import pytest


def noisy_separable(n_samples=200, n_features=5, noise=0.1, seed=0):
    """Gaussian instances labelled by a random unit u, labels flipped with prob. ``noise``."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n_samples, n_features))
    u = rng.standard_normal(n_features)
    y = np.where(X @ u > 0, 1.0, -1.0)
    flip = rng.random(n_samples) < noise
    y[flip] = -y[flip]
    return X, y


@pytest.fixture
def data():
    return noisy_separable()
