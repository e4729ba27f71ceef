"""Seeded synthetic data sets of the papers (theory §5).

Every generator takes ``seed`` (None or a non-negative int) and draws from
``numpy.random.default_rng(seed)`` only, so the same seed gives the same data.
Each returns the target ``u`` (a unit vector) that generated the labels, so
the bounds can be evaluated against the true separator.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._sequence import check_seed
from .._validation import check_choice, check_int, check_real


class Dataset(NamedTuple):
    """Instances, labels and the unit target that labelled them.

    Unpacks as ``X, y, u = dataset``.

    Attributes
    ----------
    X : ndarray of shape (n_samples, n_features), float64
    y : ndarray of shape (n_samples,), float64 in {-1.0, +1.0}
    u : ndarray of shape (n_features,), float64, ``||u||_2 = 1``, or None
        The separator that generated the labels before any noise (None for
        data read from a file that does not store one).
    """

    X: np.ndarray
    y: np.ndarray
    u: np.ndarray | None

    @property
    def target(self) -> np.ndarray | None:
        """The generating separator ``u`` (alias)."""
        return self.u


class TrainTest(NamedTuple):
    """A training and a test :class:`Dataset` drawn from the same target."""

    train: Dataset
    test: Dataset

    @property
    def target(self) -> np.ndarray:
        """The generating separator ``u`` shared by both parts."""
        return self.train.u


def _flip(y: np.ndarray, eta: float, rng: np.random.Generator) -> np.ndarray:
    """Flip each label independently with probability ``eta`` (one uniform per label)."""
    flip = rng.random(y.shape[0]) < eta
    return np.where(flip, -y, y)


def _rejection_sample(n: int, draw, keep) -> np.ndarray:
    """The first n rows, in order, of batches ``draw(n)`` filtered by the mask ``keep(batch)``."""
    kept: list[np.ndarray] = []
    n_kept = 0
    while n_kept < n:
        batch = draw(n)
        batch = batch[keep(batch)]
        kept.append(batch)
        n_kept += batch.shape[0]
    return np.concatenate(kept)[:n]


def _signs(s: np.ndarray) -> np.ndarray:
    return np.where(s >= 0.0, 1.0, -1.0)


def _push_from_hyperplane(Z, s, u, margin):
    """Unit rows ``Z`` moved away from the hyperplane(s) ``u`` (one unit vector, or one per
    row) to margin gamma: the component ``s = u . z`` becomes
    ``s' = sign(s) (gamma + (1 - gamma)|s|)`` and the orthogonal part keeps unit norm.
    Returns (rows, s')."""
    orth = Z - s[:, None] * u
    orth_norm = np.linalg.norm(orth, axis=1, keepdims=True)
    s_new = _signs(s) * (margin + (1.0 - margin) * np.abs(s))
    scale = np.sqrt(np.maximum(1.0 - s_new**2, 0.0))[:, None]
    X = s_new[:, None] * u + np.divide(
        orth * scale, orth_norm, out=np.zeros_like(orth), where=orth_norm > 0
    )
    return X, s_new


def make_separable(
    n_samples: int = 1000,
    n_features: int = 20,
    margin: float = 0.1,
    label_noise: float = 0.0,
    seed: int | None = None,
) -> Dataset:
    """Unit-norm instances separated by a random unit ``u`` with a given margin.

    The general-purpose generator (the default data of the command line).

    Parameters
    ----------
    n_samples : int, default=1000
        Number of instances, >= 1.
    n_features : int, default=20
        Dimension n, >= 2.
    margin : float, default=0.1
        gamma in [0, 1): every instance has ``|u . x| >= margin`` before noise.
    label_noise : float, default=0.0
        eta in [0, 1]: each label is flipped independently with probability eta.
    seed : int or None, default=None
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    Dataset
        ``(X, y, u)``; ``||x_t|| = 1`` for every row, so R = 1.

    Notes
    -----
    ``u`` is uniform on the unit sphere. Each instance starts uniform on the
    sphere, ``z = g/||g||`` with Gaussian g; its component along u,
    ``s = u . z``, is pushed away from the hyperplane,
    ``s' = sign(s) (gamma + (1 - gamma)|s|)``, and the orthogonal part is
    rescaled to norm ``sqrt(1 - s'^2)``. Then ``y = sign(s')`` (+1 at 0) and
    labels are flipped with probability eta. With eta = 0 the data are
    separable by u with margin gamma: D1 = D2 = 0 and the Novikoff bound is
    ``1/gamma^2`` (paper 001, Thm 1).

    Examples
    --------
    >>> from perceptron_bounds.datasets import make_separable
    >>> X, y, u = make_separable(100, 5, margin=0.2, seed=0)
    >>> bool((y * (X @ u) >= 0.2 - 1e-12).all())
    True
    """
    n_samples = check_int("n_samples", n_samples, low=1)
    n_features = check_int("n_features", n_features, low=2)
    margin = check_real("margin", margin, low=0.0, high=1.0, include_high=False)
    label_noise = check_real("label_noise", label_noise, low=0.0, high=1.0)
    rng = np.random.default_rng(check_seed(seed))
    u = rng.standard_normal(n_features)
    u /= np.linalg.norm(u)
    Z = rng.standard_normal((n_samples, n_features))
    Z /= np.linalg.norm(Z, axis=1, keepdims=True)
    X, s_new = _push_from_hyperplane(Z, Z @ u, u, margin)
    y = _flip(_signs(s_new), label_noise, rng)
    return Dataset(np.ascontiguousarray(X), y, u)


def make_hop_artificial(
    eta: float,
    n_train: int = 1000,
    n_test: int = 1000,
    n_features: int = 500,
    n_relevant: int = 50,
    gamma: float = 0.005,
    seed: int | None = None,
) -> TrainTest:
    """The "Artificial eta" sparse-target problem of the Higher-Order Perceptron paper.

    Parameters
    ----------
    eta : float
        Label-noise rate in [0, 1] (the paper uses 0.0 and 0.1); applied to the
        training and the test labels alike.
    n_train, n_test : int, default=1000
        Sizes of the two parts (>= 1).
    n_features : int, default=500
        Dimension n.
    n_relevant : int, default=50
        Number of nonzero target entries, in [1, n_features].
    gamma : float, default=0.005
        Margin: instances with ``|u . x| < gamma`` are rejected and redrawn.
    seed : int or None, default=None
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    TrainTest
        ``(train, test)``, two :class:`Dataset` sharing the target u.

    Notes
    -----
    Paper 000, sec. 4, Task 1: ``u in {-1, 0, +1}^n`` with the first
    ``n_relevant`` entries independent uniform signs and the rest 0, then
    normalised; instances uniform in ``[-1, 1]^n`` then normalised
    (``||x||_2 = 1``); an instance with ``|u . x| < gamma`` is rejected and a
    new one drawn; ``y = sign(u . x)``, flipped with probability eta.

    Examples
    --------
    >>> from perceptron_bounds.datasets import make_hop_artificial
    >>> train, test = make_hop_artificial(0.0, n_train=50, n_test=20, seed=1)
    >>> train.X.shape, test.X.shape, int((train.target != 0).sum())
    ((50, 500), (20, 500), 50)
    """
    eta = check_real("eta", eta, low=0.0, high=1.0)
    n_train = check_int("n_train", n_train, low=1)
    n_test = check_int("n_test", n_test, low=1)
    n_features = check_int("n_features", n_features, low=1)
    n_relevant = check_int("n_relevant", n_relevant, low=1, high=n_features)
    gamma = check_real("gamma", gamma, low=0.0, high=1.0, include_high=False)
    rng = np.random.default_rng(check_seed(seed))
    u = np.zeros(n_features)
    u[:n_relevant] = rng.choice(np.array([-1.0, 1.0]), size=n_relevant)
    u /= np.linalg.norm(u)
    n_total = n_train + n_test

    def draw(size):
        batch = rng.uniform(-1.0, 1.0, size=(size, n_features))
        return batch / np.linalg.norm(batch, axis=1, keepdims=True)

    X = _rejection_sample(n_total, draw, lambda batch: np.abs(batch @ u) >= gamma)
    y = _flip(_signs(X @ u), eta, rng)
    return TrainTest(
        Dataset(np.ascontiguousarray(X[:n_train]), y[:n_train], u),
        Dataset(np.ascontiguousarray(X[n_train:]), y[n_train:], u),
    )


def make_unit_circle(
    n: int = 10000,
    margin: float = 0.15,
    label_noise: float = 0.0,
    instance_noise: float = 0.0,
    seed: int | None = None,
) -> Dataset:
    """Points on the unit circle separated with a margin, then label or instance noise.

    Parameters
    ----------
    n : int, default=10000
        Number of instances.
    margin : float, default=0.15
        gamma in [0, 1): before noise every point has ``|u . x| >= gamma``.
    label_noise : float, default=0.0
        eta in [0, 1]: each label flipped independently with probability eta.
    instance_noise : float, default=0.0
        sigma >= 0: ``N(0, sigma^2 I)`` noise added to every instance.
    seed : int or None, default=None
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    Dataset
        ``(X, y, u)`` with ``X`` of shape (n, 2).

    Notes
    -----
    Paper 004, sec. 5 (Fig. 3 bottom): 10,000 instances on the unit circle in
    R^2, labelled by a unit u with margin 0.15, then labels flipped with
    probability eta or Gaussian noise of covariance ``sigma^2 I`` added.
    Here u is a uniform random direction and the angles are uniform over the
    part of the circle where ``|u . x| >= gamma``. The random numbers are
    drawn in a fixed order (points, then one uniform per label, then the
    Gaussian noise), so for one seed the clean points are the same at every
    noise level and the flipped set grows with eta.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds.datasets import make_unit_circle
    >>> X, y, u = make_unit_circle(500, seed=0)
    >>> bool(np.allclose(np.linalg.norm(X, axis=1), 1.0)), bool((y * (X @ u) >= 0.15).all())
    (True, True)
    """
    n = check_int("n", n, low=1)
    margin = check_real("margin", margin, low=0.0, high=1.0, include_high=False)
    label_noise = check_real("label_noise", label_noise, low=0.0, high=1.0)
    instance_noise = check_real("instance_noise", instance_noise, low=0.0)
    rng = np.random.default_rng(check_seed(seed))
    phi = rng.uniform(0.0, 2.0 * np.pi)
    u = np.array([np.cos(phi), np.sin(phi)])
    # Angle from u: |cos(theta)| >= gamma  <=>  theta in [0, a] or [pi - a, pi], a = arccos(gamma).
    half = np.arccos(margin)
    side = rng.random(n) < 0.5
    theta = rng.uniform(0.0, half, size=n)
    theta = np.where(side, theta, np.pi - theta) * np.where(rng.random(n) < 0.5, 1.0, -1.0)
    angle = phi + theta
    X = np.column_stack([np.cos(angle), np.sin(angle)])
    y = _flip(_signs(np.cos(theta)), label_noise, rng)
    X = X + instance_noise * rng.standard_normal((n, 2))
    return Dataset(np.ascontiguousarray(X), y, u)


def make_dominant_eigen(
    n_samples: int,
    n_features: int,
    ratio: float,
    target: str = "dominant",
    seed: int | None = None,
    *,
    margin: float = 0.0,
) -> Dataset:
    """Gaussian data with one dominant correlation eigenvalue, labelled by an eigenvector.

    Parameters
    ----------
    n_samples : int
        Number of instances.
    n_features : int
        Dimension n, >= 2.
    ratio : float
        lambda_max / lambda_other > 0: the first coordinate has variance
        ``ratio``, the others variance 1.
    target : {"dominant", "nondominant"}, default="dominant"
        Label by the dominant eigenvector ``e_1`` or by the next eigenvector in
        the natural ordering of the coordinates, ``e_2`` (a non-dominant one).
    seed : int or None, default=None
        Seed of ``numpy.random.default_rng``.
    margin : float, default=0.0
        gamma in [0, 3]: instances with ``|u . x| < gamma`` are rejected and
        redrawn, so u separates the data with margin gamma (at most 3 standard
        deviations of a unit-variance axis, so that rejection stays cheap).

    Returns
    -------
    Dataset
        ``(X, y, u)`` with ``y = sign(u . x)`` (separable by u, no noise).

    Notes
    -----
    Paper 003, sec. 5 (toy problem): the correlation matrix
    ``E[x x^T] = diag(ratio, 1, ..., 1)`` has one eigenvalue ``ratio`` times
    the others. With the same margin gamma for both targets, the Perceptron's
    bound ``(R/gamma)^2`` is the same on both; the Second-Order bound depends on
    ``u^T X_m X_m^T u``, small when u is a non-dominant eigenvector, so SO is
    expected to beat the Perceptron on the non-dominant target only.

    Examples
    --------
    >>> from perceptron_bounds.datasets import make_dominant_eigen
    >>> X, y, u = make_dominant_eigen(200, 10, 8.0, target="nondominant", seed=0)
    >>> u.tolist()[:3], bool((y == ((X[:, 1] >= 0) * 2.0 - 1.0)).all())
    ([0.0, 1.0, 0.0], True)
    """
    n_samples = check_int("n_samples", n_samples, low=1)
    n_features = check_int("n_features", n_features, low=2)
    ratio = check_real("ratio", ratio, low=0.0, include_low=False)
    check_choice("target", target, ("dominant", "nondominant"))
    rng = np.random.default_rng(check_seed(seed))
    margin = check_real("margin", margin, low=0.0, high=3.0)
    axis = 0 if target == "dominant" else 1
    scale = np.ones(n_features)
    scale[0] = np.sqrt(ratio)
    X = _rejection_sample(
        n_samples,
        lambda size: rng.standard_normal((size, n_features)) * scale,
        lambda batch: np.abs(batch[:, axis]) >= margin,
    )
    u = np.zeros(n_features)
    u[axis] = 1.0
    return Dataset(np.ascontiguousarray(X), _signs(X[:, axis]), u)


class DriftingDataset(NamedTuple):
    """Instances, labels and the target of every trial, for data that drift.

    Unpacks as ``X, y, U = dataset``.

    Attributes
    ----------
    X : ndarray of shape (n_samples, n_features), float64
    y : ndarray of shape (n_samples,), float64 in {-1.0, +1.0}
    U : ndarray of shape (n_samples, n_features), float64
        Row t is the unit target that labelled row t of X (before noise): the
        comparator sequence of the shifting bounds (theory §4.14).
    """

    X: np.ndarray
    y: np.ndarray
    U: np.ndarray

    @property
    def total_shift(self) -> float:
        """The sequence's total shift ``sum_t ||u_{t+1} - u_t||`` (theory §4.14)."""
        return float(np.linalg.norm(np.diff(self.U, axis=0), axis=1).sum())


def _unit_rows(rng: np.random.Generator, n_rows: int, n_features: int) -> np.ndarray:
    rows = rng.standard_normal((n_rows, n_features))
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def make_drifting(
    n_samples: int = 2000,
    n_features: int = 20,
    *,
    n_shifts: int = 10,
    drift: str = "abrupt",
    margin: float = 0.05,
    label_noise: float = 0.0,
    seed: int | None = None,
) -> DriftingDataset:
    """Unit-norm instances labelled by a target that moves: abrupt switches or a slow turn.

    Parameters
    ----------
    n_samples : int, default=2000
        Number of instances T, >= 1.
    n_features : int, default=20
        Dimension n, >= 2.
    n_shifts : int, default=10
        ``"abrupt"``: the number of switches, in [0, n_samples - 1];
        ``"gradual"``: the number of quarter turns of the target over the run, >= 0.
    drift : {"abrupt", "gradual"}, default="abrupt"
        How the target moves.
    margin : float, default=0.05
        gamma in [0, 1): every instance has ``|u_t . x_t| >= margin`` before noise.
    label_noise : float, default=0.0
        eta in [0, 1]: each label is flipped independently with probability eta.
    seed : int or None, default=None
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    DriftingDataset
        ``(X, y, U)``, ``||x_t|| = 1`` (R = 1) and ``||u_t|| = 1`` for every t.

    Notes
    -----
    Theory §4.14. *Abrupt*: the switch times are ``n_shifts`` distinct trials
    drawn uniformly from 2..T (0-based rows 1..T-1), and each of the
    ``n_shifts + 1`` segments has its own uniform unit target. *Gradual*:
    ``u_t = cos(theta_t) a + sin(theta_t) b`` with (a, b) a random orthonormal
    pair and ``theta_t`` growing linearly from 0 to ``n_shifts * pi / 2``.
    Each instance is drawn as in :func:`make_separable`, against its own
    trial's target: uniform on the sphere, its component along ``u_t`` pushed
    to ``sign(s) (gamma + (1 - gamma)|s|)``, the orthogonal part rescaled to
    keep unit norm; ``y_t = sign(u_t . x_t)`` (+1 at 0), then flipped with
    probability eta. With eta = 0 the sequence U has zero hinge loss at margin
    gamma, and its total shift is about 1.4 (abrupt) or 1.57 (gradual) per shift.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds.datasets import make_drifting
    >>> X, y, U = make_drifting(500, 5, n_shifts=3, margin=0.1, seed=0)
    >>> U.shape, int((np.abs(np.diff(U, axis=0)).sum(axis=1) > 0).sum())
    ((500, 5), 3)
    >>> bool((y * np.einsum("ij,ij->i", X, U) >= 0.1 - 1e-12).all())
    True
    """
    n_samples = check_int("n_samples", n_samples, low=1)
    n_features = check_int("n_features", n_features, low=2)
    check_choice("drift", drift, ("abrupt", "gradual"))
    n_shifts = check_int("n_shifts", n_shifts, low=0,
                         high=n_samples - 1 if drift == "abrupt" else None)
    margin = check_real("margin", margin, low=0.0, high=1.0, include_high=False)
    label_noise = check_real("label_noise", label_noise, low=0.0, high=1.0)
    rng = np.random.default_rng(check_seed(seed))
    if drift == "abrupt":
        targets = _unit_rows(rng, n_shifts + 1, n_features)
        switches = np.sort(rng.choice(np.arange(1, n_samples), size=n_shifts, replace=False))
        segment = np.searchsorted(switches, np.arange(n_samples), side="right")
        U = targets[segment]
    else:
        basis = np.linalg.qr(rng.standard_normal((n_features, 2)))[0].T
        theta = n_shifts * (np.pi / 2) * np.arange(n_samples) / max(n_samples - 1, 1)
        U = np.cos(theta)[:, None] * basis[0] + np.sin(theta)[:, None] * basis[1]
        U /= np.linalg.norm(U, axis=1, keepdims=True)
    Z = _unit_rows(rng, n_samples, n_features)
    X, s_new = _push_from_hyperplane(Z, np.einsum("ij,ij->i", Z, U), U, margin)
    y = _flip(_signs(s_new), label_noise, rng)
    return DriftingDataset(np.ascontiguousarray(X), y, np.ascontiguousarray(U))
