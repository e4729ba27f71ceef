"""Shared fixtures: small seeded data sets; the session-wide one-signature check."""

import importlib
import pkgutil

import numba
import numpy as np
import pytest

import perceptron_bounds


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


@pytest.fixture(scope="session", autouse=True)
def every_loop_compiles_for_one_signature():
    """After the whole session, each jitted function has at most one signature (STYLE 1)."""
    yield
    for info in pkgutil.walk_packages(perceptron_bounds.__path__, "perceptron_bounds."):
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            jitted = isinstance(obj, numba.core.registry.CPUDispatcher)
            if jitted and obj.__module__ == module.__name__:
                assert len(obj.signatures) <= 1, f"{module.__name__}.{name}: {obj.signatures}"


@pytest.fixture(autouse=True)
def compile_notice_already_shown():
    """The one-line compile notice is printed by whichever test first compiles a loop in a
    cold cache, so exact-stderr tests would depend on the order; ``test_progress`` tests it."""
    from perceptron_bounds import _progress

    _progress._CompileNotice.said = True
