"""The large-margin estimators: Passive-Aggressive, ROMMA, ALMA_p and AROW (theory
§2.7-2.10)."""

from __future__ import annotations

from .base import OnlineClassifier


class PassiveAggressive(OnlineClassifier):
    """The Passive-Aggressive classifiers PA, PA-I and PA-II of Crammer et al., linear or
    with a Mercer kernel.

    From w = 0, on each trial (theory §2.7; Crammer et al. 2006, Fig. 1): with the loss
    l_t = max(0, 1 - y_t w . x_t), nothing if l_t = 0, else
    w <- w + tau_t y_t x_t with tau_t = l_t / ||x_t||^2 (PA),
    min(C, l_t / ||x_t||^2) (PA-I) or l_t / (||x_t||^2 + 1/(2C)) (PA-II).
    An update with y_t w . x_t > 0 is a margin error, not a mistake.

    Parameters
    ----------
    variant : {"pa", "pa1", "pa2"}, default="pa1"
        The step rule; ``"pa1"`` is scikit-learn's ``PassiveAggressiveClassifier``
        default (``loss="hinge"``).
    C : float, default=1.0
        Aggressiveness C > 0 of PA-I and PA-II (PA ignores it).
    kernel : {"linear", "poly", "rbf"}, default="linear"
        K(x, z) (theory §1.7, scikit-learn's names); ``linear`` runs the primal
        form.
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
        Append a constant feature 1 to every instance; its weight is
        ``intercept_``. None: from ``protocol``.
    epochs : int or None, default=None
        Passes over the training data in ``fit``; None: from ``protocol``.
    shuffle : bool or None, default=None
        Present each pass in a fresh random permutation; None: from ``protocol``.
    random_state : None, int or numpy.random.RandomState, default=None
        Source of the permutations (see ``OnlineClassifier``).
    multiclass : {None, "ovr", "native"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest;
        ``"native"``: one prototype per class, the paper's multi-prototype update
        (sec. 7, theory §2.7).

    Attributes
    ----------
    classes_, coef_, intercept_, run_, mistakes_, margin_errors_, n_features_in_
        See ``OnlineClassifier``; ``margin_errors_`` counts the updates on correct
        predictions (0 < l_t < 1). ``coef_`` with a linear kernel only.

    References
    ----------
    K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz and Y. Singer, "Online
    Passive-Aggressive Algorithms", JMLR 7 (2006), Fig. 1.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import PassiveAggressive
    >>> X = np.array([[2.0, 0.0], [1.0, 1.0], [-2.0, 0.0]])
    >>> clf = PassiveAggressive(protocol="paper", variant="pa").fit(X, [1, 1, -1])
    >>> clf.mistakes_, clf.margin_errors_, clf.coef_.tolist()
    (1, 1, [[0.75, 0.25]])
    """

    _algorithm = "passive_aggressive"

    def __init__(
        self,
        *,
        variant="pa1",
        C=1.0,
        kernel="linear",
        degree=3,
        gamma="scale",
        coef0=1.0,
        protocol="sklearn",
        fit_intercept=None,
        epochs=None,
        shuffle=None,
        random_state=None,
        multiclass=None,
    ):
        self.variant = variant
        self.C = C
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


class ROMMA(OnlineClassifier):
    """Li & Long's Relaxed Online Maximum Margin Algorithm, linear or with a Mercer kernel.

    From w = 0, on a mistake (y_t w . x_t <= 0; ``aggressive=True``: whenever
    y_t w . x_t < 1) w becomes the minimum-norm vector with
    w . w_t >= ||w_t||^2 and y_t w . x_t >= 1: y_t x_t / ||x_t||^2 on the first
    update, else w <- c w + d x_t by eq. (5) of the paper (theory §2.8).

    Parameters
    ----------
    aggressive : bool, default=False
        Update also on right predictions with y_t w . x_t < 1 (margin errors).
    kernel : {"linear", "poly", "rbf"}, default="linear"
        K(x, z) (theory §1.7, scikit-learn's names); ``linear`` runs the primal
        form.
    degree : int, default=3
        Degree of the polynomial kernel.
    gamma : float, "scale", "auto" or None, default="scale"
        Kernel scale: ``"scale"`` is 1 / (n_features X.var()) on the data of
        ``fit``, as scikit-learn's SVC; ``"auto"`` and None are 1 / n_features.
    coef0 : float, default=1.0
        Constant of the polynomial kernel.
    protocol : {"sklearn", "paper"}, default="sklearn"
        Where ``fit_intercept``, ``epochs`` and ``shuffle`` left at None take
        their values: ``"sklearn"`` fits an intercept (linear kernel only),
        makes 10 passes and shuffles each, as scikit-learn's linear models do;
        ``"paper"`` is the papers' protocol, one pass over the rows in the
        given order without an intercept (see ``OnlineClassifier``).
    fit_intercept : bool or None, default=None
        Append a constant feature 1 to every instance; its weight is
        ``intercept_``. None: from ``protocol``.
    epochs : int or None, default=None
        Passes over the training data in ``fit``; None: from ``protocol``.
    shuffle : bool or None, default=None
        Present each pass in a fresh random permutation; None: from ``protocol``.
    random_state : None, int or numpy.random.RandomState, default=None
        Source of the permutations (see ``OnlineClassifier``).
    multiclass : {None, "ovr"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest,
        one binary run per class, also on two classes (theory §2.6).

    Attributes
    ----------
    classes_, coef_, intercept_, run_, mistakes_, margin_errors_, n_features_in_
        See ``OnlineClassifier``; ``margin_errors_`` counts the aggressive
        updates that were not mistakes. ``coef_`` with a linear kernel only.

    References
    ----------
    Y. Li and P. M. Long, "The relaxed online maximum margin algorithm",
    NIPS 12 (1999), sec. 2.1 and eq. (5).

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import ROMMA
    >>> X = np.array([[2.0, 0.0], [0.0, 1.0], [-1.0, -0.2], [0.3, 2.0]])
    >>> clf = ROMMA(protocol="paper", aggressive=True, epochs=2).fit(X, [1, 1, 0, 1])
    >>> clf.predict([[1.0, 0.5], [-2.0, 0.0]]).tolist()
    [1, 0]
    """

    _algorithm = "romma"

    def __init__(self, *, aggressive=False, kernel="linear", degree=3, gamma="scale", coef0=1.0,
                 protocol="sklearn", fit_intercept=None, epochs=None, shuffle=None,
                 random_state=None, multiclass=None):
        self.aggressive = aggressive
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


class ALMA(OnlineClassifier):
    """Gentile's ALMA_p, approximate large-margin classification with the p-norm link.

    Instances scaled to unit p-norm (in feature space for a kernel); theta_1 = 0,
    w = g(theta) the p-norm link; the k-th update happens on a trial with
    y_t w . x_hat_t <= (1 - alpha) gamma_k, gamma_k = B sqrt(p - 1) / sqrt(k):
    theta <- theta + eta_k y_t x_hat_t with eta_k = C / (sqrt(p - 1) sqrt(k)), then
    theta <- theta / max(1, ||theta||_p) (theory §2.9). The rule follows the LIBOL
    manual and DOGMA's ``k_alma2_train.m``; the paper could not be read here.

    Parameters
    ----------
    p : float >= 2, default=2.0
        Norm of the link; a kernel needs p = 2.
    alpha : float in (0, 1], default=0.9
        The update threshold's fraction (1 - alpha) of gamma_k; alpha = 1 updates
        on mistakes only.
    B : float > 0 or None, default=None
        Scale of the margin schedule gamma_k; None: 1 / alpha (LIBOL's default).
    C : float > 0, default=sqrt(2)
        Scale of the step eta_k.
    kernel : {"linear", "poly", "rbf"}, default="linear"
        K(x, z) (theory §1.7, scikit-learn's names); ``linear`` runs the primal
        form.
    degree : int, default=3
        Degree of the polynomial kernel.
    gamma : float, "scale", "auto" or None, default="scale"
        Kernel scale: ``"scale"`` is 1 / (n_features X.var()) on the data of
        ``fit``, as scikit-learn's SVC; ``"auto"`` and None are 1 / n_features.
    coef0 : float, default=1.0
        Constant of the polynomial kernel.
    protocol : {"sklearn", "paper"}, default="sklearn"
        Where ``fit_intercept``, ``epochs`` and ``shuffle`` left at None take
        their values: ``"sklearn"`` fits an intercept (linear kernel only),
        makes 10 passes and shuffles each, as scikit-learn's linear models do;
        ``"paper"`` is the papers' protocol, one pass over the rows in the
        given order without an intercept (see ``OnlineClassifier``).
    fit_intercept : bool or None, default=None
        Append a constant feature 1 to every instance; its weight is
        ``intercept_``. None: from ``protocol``.
    epochs : int or None, default=None
        Passes over the training data in ``fit``; None: from ``protocol``.
    shuffle : bool or None, default=None
        Present each pass in a fresh random permutation; None: from ``protocol``.
    random_state : None, int or numpy.random.RandomState, default=None
        Source of the permutations (see ``OnlineClassifier``).
    multiclass : {None, "ovr"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest,
        one binary run per class, also on two classes (theory §2.6).

    Attributes
    ----------
    classes_, coef_, intercept_, run_, mistakes_, margin_errors_, n_features_in_
        See ``OnlineClassifier``; ``margin_errors_`` counts the updates with the
        right sign; ``coef_`` (linear kernel) is g(theta).

    References
    ----------
    C. Gentile, "A new approximate maximal margin classification algorithm",
    JMLR 2 (2001); the LIBOL manual, sec. 2.1.2; DOGMA, ``k_alma2_train.m``.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import ALMA
    >>> X = np.array([[1.0, 0.2], [0.3, 1.0], [-1.0, -0.1], [-0.2, -1.0]])
    >>> clf = ALMA(protocol="paper", p=3.0, epochs=2).fit(X, [1, 1, 0, 0])
    >>> clf.predict([[0.5, 0.5], [-0.5, 0.1]]).tolist()
    [1, 0]
    """

    _algorithm = "alma"

    def __init__(self, *, p=2.0, alpha=0.9, B=None, C=2.0**0.5, kernel="linear",
                 degree=3, gamma="scale", coef0=1.0, protocol="sklearn", fit_intercept=None,
                 epochs=None, shuffle=None, random_state=None, multiclass=None):
        self.p = p
        self.alpha = alpha
        self.B = B
        self.C = C
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


class AROW(OnlineClassifier):
    """AROW, adaptive regularization of weight vectors (Crammer, Kulesza & Dredze), with a kernel.

    From mu = 0 and Sigma = I, on each trial with l = max(0, 1 - y_t mu . x_t)
    (theory §2.10; the LIBOL manual's Algorithm 10, DOGMA's ``arow_train.m``):
    if l > 0, beta = 1 / (x^T Sigma x + r), mu <- mu + l beta y_t Sigma x_t and
    Sigma <- Sigma - beta (Sigma x_t)(Sigma x_t)^T. A trial with
    y_t mu . x_t <= 0 is a mistake; an update on a right prediction is a margin
    error. ``diagonal=True`` keeps Sigma diagonal (DOGMA's ``arow_diag_train.m``).

    Parameters
    ----------
    r : float, default=1.0
        r > 0: the larger, the smaller the steps and the slower Sigma shrinks.
    diagonal : bool, default=False
        Keep only the diagonal of Sigma (its inverse grows by x_i^2 / r): O(nnz)
        per trial, primal form and linear kernel only; no bound is proved for it.
    kernel : {"linear", "poly", "rbf"}, default="linear"
        K(x, z) (theory §1.7, scikit-learn's names).
    degree : int, default=3
        Degree of the polynomial kernel.
    gamma : float, "scale", "auto" or None, default="scale"
        Kernel scale: ``"scale"`` is 1 / (n_features X.var()) on the data of
        ``fit``, as scikit-learn's SVC; ``"auto"`` and None are 1 / n_features.
    coef0 : float, default=1.0
        Constant of the polynomial kernel.
    form : {"auto", "primal", "dual"}, default="auto"
        ``primal`` keeps the n_features x n_features Sigma (O(n^2) per update,
        sparse X accepted), ``dual`` the inverse of r I plus the updates' Gram
        (needed by a non-linear kernel); ``auto`` picks one from the kernel and
        the data's shape, and ``run_.params["form"]`` says which.
    memory_budget : float, default=2 * 1024**3
        Bytes the full covariance may take (n x n primal, k x k dual): ``auto``
        never picks a primal form over it, an explicit one is an error before
        anything is allocated, and the dual form stops with one before it passes.
    protocol : {"sklearn", "paper"}, default="sklearn"
        Where ``fit_intercept``, ``epochs`` and ``shuffle`` left at None take
        their values: ``"sklearn"`` fits an intercept (linear kernel only),
        makes 10 passes and shuffles each, as scikit-learn's linear models do;
        ``"paper"`` is the papers' protocol, one pass over the rows in the
        given order without an intercept (see ``OnlineClassifier``).
    fit_intercept : bool or None, default=None
        Append a constant feature 1 to every instance; its weight is
        ``intercept_``. None: from ``protocol``.
    epochs : int or None, default=None
        Passes over the training data in ``fit``; None: from ``protocol``.
    shuffle : bool or None, default=None
        Present each pass in a fresh random permutation; None: from ``protocol``.
    random_state : None, int or numpy.random.RandomState, default=None
        Source of the permutations (see ``OnlineClassifier``).
    multiclass : {None, "ovr"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest,
        one binary run per class, also on two classes (theory §2.6).

    Attributes
    ----------
    classes_, coef_, intercept_, run_, mistakes_, margin_errors_, n_features_in_
        See ``OnlineClassifier``. ``coef_`` (linear kernel) is mu;
        ``run_.state`` holds y_t mu_t . x_t (``"m"``) and x_t^T Sigma_t x_t
        (``"chi"``) on each update, which the AROW bound reads (theory §4.9).

    References
    ----------
    K. Crammer, A. Kulesza and M. Dredze, "Adaptive regularization of weight
    vectors", NIPS 22 (2009); the LIBOL manual, sec. 2.2.4.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import AROW
    >>> X = np.array([[1.0, 0.1], [0.2, 1.0], [-1.0, -0.1], [-0.1, -1.0]])
    >>> clf = AROW(protocol="paper", r=1.0, epochs=2).fit(X, [1, 1, 0, 0])
    >>> clf.mistakes_, clf.margin_errors_, clf.run_.params["form"]
    (1, 7, 'primal')
    >>> clf.predict([[0.5, 0.5], [-0.3, -0.2]]).tolist()
    [1, 0]
    """

    _algorithm = "arow"

    def __init__(
        self,
        *,
        r=1.0,
        diagonal=False,
        kernel="linear",
        degree=3,
        gamma="scale",
        coef0=1.0,
        form="auto",
        memory_budget=2 * 1024**3,
        protocol="sklearn",
        fit_intercept=None,
        epochs=None,
        shuffle=None,
        random_state=None,
        multiclass=None,
    ):
        self.r = r
        self.diagonal = diagonal
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.form = form
        self.memory_budget = memory_budget
        self.protocol = protocol
        self.fit_intercept = fit_intercept
        self.epochs = epochs
        self.shuffle = shuffle
        self.random_state = random_state
        self.multiclass = multiclass
