"""The tracking estimators: Perceptrons that forget, for drifting data (theory §2.15, §2.16)."""

from __future__ import annotations

from .base import OnlineClassifier

_COMMON = """kernel : {"linear", "poly", "rbf"}, default="linear"
        K(x, z) (theory §1.7, scikit-learn's names); ``"linear"`` runs the primal form.
    degree : int, default=3
        Degree of the polynomial kernel.
    gamma : float, "scale", "auto" or None, default="scale"
        Kernel scale: ``"scale"`` is 1 / (n_features X.var()) on the data of
        ``fit``, as scikit-learn's SVC; ``"auto"`` and None are 1 / n_features.
    coef0 : float, default=1.0
        Constant of the polynomial kernel.
    protocol : {"sklearn", "paper"}, default="sklearn"
        Where ``fit_intercept``, ``epochs`` and ``shuffle`` left at None take
        their values (see ``OnlineClassifier``).
    fit_intercept : bool or None, default=None
        Append a constant feature 1 to every instance (linear kernel). None: from
        ``protocol``.
    epochs : int or None, default=None
        Passes over the training data in ``fit``; None: from ``protocol``.
    shuffle : bool or None, default=None
        Present each pass in a fresh random permutation; None: from ``protocol``.
    random_state : None, int or numpy.random.RandomState, default=None
        Source of the permutations (see ``OnlineClassifier``).
    multiclass : {None, "ovr"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest,
        one binary run per class, also on two classes (theory §2.6)."""


class ShiftingPerceptron(OnlineClassifier):
    """Cavallanti, Cesa-Bianchi & Gentile's shifting Perceptron: weights that decay.

    On a mistake (y_t w . x_t <= 0) after k updates,
    w <- (1 - lambda_k) w + y_t x_t with lambda_k = lambda / (lambda + k), from
    w = 0 (theory §2.15; shifting bound theory §4.15). ``partial_fit`` continues
    the schedule lambda_k.

    Parameters
    ----------
    decay : float, default=1.0
        lambda > 0: how fast old updates fade (lambda -> 0 is the Perceptron).
    {common}

    Attributes
    ----------
    classes_, coef_, intercept_, run_, mistakes_, n_features_in_
        See ``OnlineClassifier``; ``run_.state["updates"]`` is k.

    References
    ----------
    G. Cavallanti, N. Cesa-Bianchi and C. Gentile, "Tracking the best hyperplane
    with a simple budget Perceptron", Machine Learning 69 (2007).

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import ShiftingPerceptron
    >>> from perceptron_bounds.datasets import make_drifting
    >>> X, y, U = make_drifting(600, 5, n_shifts=2, margin=0.1, seed=0)
    >>> clf = ShiftingPerceptron(decay=2.0, protocol="paper").fit(X, y)
    >>> clf.mistakes_ == clf.run_.state["updates"]
    True
    """

    _algorithm = "shifting_perceptron"

    def __init__(self, *, decay=1.0, kernel="linear", degree=3, gamma="scale", coef0=1.0,
                 protocol="sklearn", fit_intercept=None, epochs=None, shuffle=None,
                 random_state=None, multiclass=None):
        self.decay = decay
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.protocol = protocol
        self.fit_intercept = fit_intercept
        self.epochs = epochs
        self.shuffle = shuffle
        self.random_state = random_state
        self.multiclass = multiclass


class ProjectedPerceptron(OnlineClassifier):
    """The Perceptron kept in a ball: every update is projected onto ||w|| <= D.

    On a mistake (y_t w . x_t <= 0), w <- P_D(w + y_t x_t), P_D the Euclidean
    projection onto the ball of radius D, after Herbster & Warmuth's
    projection (theory §2.16; shifting bound theory §4.15). The run depends on
    the scale of the data: choose D against the norms of the instances.

    Parameters
    ----------
    radius : float, default=10.0
        D > 0, finite: the largest norm the weights may take.
    {common}

    Attributes
    ----------
    classes_, coef_, intercept_, run_, mistakes_, n_features_in_
        See ``OnlineClassifier``; ``run_.state["projected"]`` counts the
        updates the projection shortened.

    References
    ----------
    M. Herbster and M. K. Warmuth, "Tracking the best linear predictor", JMLR 1
    (2001).

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import ProjectedPerceptron
    >>> from perceptron_bounds.datasets import make_drifting
    >>> X, y, U = make_drifting(600, 5, n_shifts=2, margin=0.1, seed=0)
    >>> clf = ProjectedPerceptron(radius=2.0, protocol="paper").fit(X, y)
    >>> bool(np.linalg.norm(clf.coef_) <= 2.0 + 1e-12)
    True
    """

    _algorithm = "projected_perceptron"

    def __init__(self, *, radius=10.0, kernel="linear", degree=3, gamma="scale", coef0=1.0,
                 protocol="sklearn", fit_intercept=None, epochs=None, shuffle=None,
                 random_state=None, multiclass=None):
        self.radius = radius
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.protocol = protocol
        self.fit_intercept = fit_intercept
        self.epochs = epochs
        self.shuffle = shuffle
        self.random_state = random_state
        self.multiclass = multiclass


for _cls in (ShiftingPerceptron, ProjectedPerceptron):
    _cls.__doc__ = _cls.__doc__.replace("{common}", _COMMON)
