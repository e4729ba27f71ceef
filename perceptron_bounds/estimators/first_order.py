"""The first-order estimators: the Perceptron (linear and kernel), the voted Perceptron, the
Ballseptron and the p-norm Perceptron (theory §2.1-2.3, §2.5)."""

from __future__ import annotations

from .base import OnlineClassifier


class Perceptron(OnlineClassifier):
    """Rosenblatt's Perceptron (first order), linear.

    On trial t with instance x_t and label y_t in {-1, +1} the margin is
    w . x_t; a mistake (y_t w . x_t <= 0, a zero margin included) updates
    w <- w + y_t x_t, starting from w = 0 (theory §2.1).

    Parameters
    ----------
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
    multiclass : {None, "ovr", "native"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest,
        one binary run per class; ``"native"``: one prototype per class (paper 004
        sec. 4). Theory §2.6.

    Attributes
    ----------
    classes_, coef_, intercept_, run_, mistakes_, margin_errors_, n_features_in_
        See ``OnlineClassifier``.

    Notes
    -----
    With ``protocol="paper"`` it equals
    ``sklearn.linear_model.Perceptron(fit_intercept=False, shuffle=False,
    tol=None, eta0=1, alpha=0, max_iter=epochs)`` (both count a zero margin as
    a mistake). The default ``protocol="sklearn"`` is close to scikit-learn's
    ``Perceptron()``: an intercept, 10 shuffled passes (scikit-learn stops
    by a tolerance instead of a fixed count).

    References
    ----------
    F. Rosenblatt (1958); A. B. J. Novikoff (1962), the mistake bound
    (R / gamma)^2; Y. Freund and R. E. Schapire, Machine Learning 37 (1999),
    sec. 2 (paper 001).

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import Perceptron
    >>> X = np.array([[1.0, 0.2], [0.3, 1.0], [-1.0, -0.1], [-0.2, -1.0]])
    >>> clf = Perceptron(protocol="paper", epochs=2).fit(X, ["yes", "yes", "no", "no"])
    >>> clf.classes_.tolist(), clf.mistakes_, clf.coef_.tolist()
    (['no', 'yes'], 1, [[1.0, 0.2]])
    >>> clf.predict([[0.5, 0.5], [-0.5, 0.1]]).tolist()
    ['yes', 'no']

    Three classes make a one-vs-rest run (one score per class):

    >>> X3 = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
    >>> clf = Perceptron(protocol="paper", epochs=2).fit(X3, ["a", "b", "c"])
    >>> clf.decision_function(X3).shape, clf.predict(X3).tolist(), clf.corrections_
    ((3, 3), ['a', 'b', 'c'], 10)
    """

    _algorithm = "perceptron"

    def __init__(self, *, protocol="sklearn", fit_intercept=None, epochs=None, shuffle=None,
                 random_state=None, multiclass=None):
        self.protocol = protocol
        self.fit_intercept = fit_intercept
        self.epochs = epochs
        self.shuffle = shuffle
        self.random_state = random_state
        self.multiclass = multiclass


class KernelPerceptron(OnlineClassifier):
    """The Perceptron with a Mercer kernel (dual form).

    The hypothesis is f(x) = sum_i y_i K(x_i, x) over the mistaken instances
    x_i (with multiplicity); a trial with y_t f(x_t) <= 0 appends x_t
    (theory §2.1). ``kernel="linear"`` runs the primal form, with the same
    mistakes.

    Parameters
    ----------
    kernel : {"poly", "rbf", "linear"}, default="poly"
        K(x, z): ``poly`` (gamma x.z + coef0)^degree, ``rbf``
        exp(-gamma ||x - z||^2), ``linear`` x.z (theory §1.7, scikit-learn's names).
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
    multiclass : {None, "ovr", "native"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest,
        one binary run per class; ``"native"``: one prototype per class (paper 004
        sec. 4). Theory §2.6.

    Attributes
    ----------
    classes_, run_, mistakes_, margin_errors_, n_features_in_
        See ``OnlineClassifier``; ``run_.support_vectors`` and
        ``run_.dual_coef`` hold the hypothesis. ``coef_`` only with
        ``kernel="linear"``.

    References
    ----------
    M. A. Aizerman, E. M. Braverman and L. I. Rozonoer (1964); Y. Freund and
    R. E. Schapire, Machine Learning 37 (1999), sec. 3 (paper 001), whose
    kernel (1 + x.z)^d is ``kernel="poly", gamma=1, coef0=1, degree=d``.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import KernelPerceptron
    >>> X = np.array([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    >>> y = [0, 0, 1, 1]  # XOR: no linear separator through the origin
    >>> clf = KernelPerceptron(protocol="paper", degree=2, gamma=1.0, epochs=10).fit(X, y)
    >>> clf.predict(X).tolist()
    [0, 0, 1, 1]
    """

    _algorithm = "perceptron"

    def __init__(
        self,
        *,
        kernel="poly",
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


class VotedPerceptron(OnlineClassifier):
    """The voted Perceptron of Freund & Schapire, linear or with a Mercer kernel.

    Training is the Perceptron's (mistake when y_t v . x_t <= 0, then
    v <- v + y_t x_t); every prediction vector v_j is kept with its survival
    count c_j. ``method`` chooses the predictor (theory §2.2):
    ``vote`` sign(sum_j c_j sign(v_j . x)), ``average`` sign(sum_j c_j v_j . x),
    ``last`` sign(v_{k+1} . x), ``random`` the vector alive after a uniformly
    drawn number of rounds.

    Parameters
    ----------
    method : {"vote", "average", "last", "random"}, default="vote"
        Predictor used by ``predict`` and ``decision_function`` (which returns
        the sum inside the outer sign). ``random`` is a randomized predictor,
        one draw per test row: a row's prediction depends on its position in
        X, so scikit-learn's subset and sample-order invariance checks do not
        apply to it.
    normalize : bool, default=False
        Use v_j / ||v_j|| in place of v_j (paper 001 sec. 5); no effect on ``vote``.
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
        Passes over the training data in ``fit`` (paper 001 uses up to 30); None: from ``protocol``.
    shuffle : bool or None, default=None
        Present each pass in a fresh random permutation; None: from ``protocol``.
    random_state : None, int or numpy.random.RandomState, default=None
        Source of the permutations and, for ``method="random"``, of the
        rounds drawn at prediction (an int gives the same draws every call).
    multiclass : {None, "ovr"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest,
        one binary run per class, also on two classes (theory §2.6).

    Attributes
    ----------
    classes_, run_, mistakes_, margin_errors_, n_features_in_
        See ``OnlineClassifier``; ``run_.state["counts"]`` holds c_1..c_{k+1}.
    coef_ : ndarray of shape (1, n_features)
        The last vector v_{k+1} (the Perceptron's final weights), linear
        kernel only. It is the predictor of ``method="last"`` only.

    References
    ----------
    Y. Freund and R. E. Schapire, "Large margin classification using the
    Perceptron algorithm", Machine Learning 37 (1999), Fig. 1 and sec. 5
    (paper 001).

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import VotedPerceptron
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
    >>> clf = VotedPerceptron(protocol="paper", epochs=2).fit(X, [1, 1, -1, -1])
    >>> clf.run_.state["counts"].tolist(), clf.decision_function([[1.0, 1.0]]).tolist()
    ([0, 1, 7], [8.0])
    """

    _algorithm = "voted_perceptron"
    _predict_params = ("method", "normalize")

    def __init__(
        self,
        *,
        method="vote",
        normalize=False,
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
        self.method = method
        self.normalize = normalize
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

    def _predict_options(self) -> dict:
        options = super()._predict_options()
        if self.method == "random":
            options["seed"] = self._random_seed()
        return options


class Ballseptron(OnlineClassifier):
    """The Ballseptron of Shalev-Shwartz & Singer, linear or with a Mercer kernel.

    From w = 0, on each trial (theory §2.3; paper 004, Fig. 2): if
    y_t w . x_t <= 0, a mistake, w <- w + y_t x_t; else if
    y_t (w . x_t) / ||w|| <= r, a margin error, w <- w + y_t x_hat_t with
    x_hat_t = x_t - y_t r w / ||w||; else nothing. ``r = 0`` is the Perceptron.

    Parameters
    ----------
    r : float, default=0.1
        Radius of the ball around each instance, r >= 0.
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
    multiclass : {None, "ovr", "native"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest,
        one binary run per class; ``"native"``: one prototype per class (paper 004
        sec. 4). Theory §2.6.

    Attributes
    ----------
    classes_, coef_, intercept_, run_, mistakes_, margin_errors_, n_features_in_
        See ``OnlineClassifier``; ``margin_errors_`` counts the margin
        errors, which are not mistakes. ``coef_`` with a linear kernel only.

    References
    ----------
    S. Shalev-Shwartz and Y. Singer, "A new perspective on an old Perceptron
    algorithm", COLT 2005, Fig. 2 (paper 004).

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import Ballseptron
    >>> X = np.array([[1.0, 0.0], [0.8, 0.6], [-1.0, 0.0], [0.0, -1.0]])
    >>> clf = Ballseptron(protocol="paper", r=0.9, epochs=2).fit(X, [1, 1, -1, -1])
    >>> clf.mistakes_, clf.margin_errors_
    (1, 7)
    """

    _algorithm = "ballseptron"

    def __init__(
        self,
        *,
        r=0.1,
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
        self.r = r
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


class PNormPerceptron(OnlineClassifier):
    """The p-norm Perceptron, HO_p(0) (Grove, Littlestone and Schuurmans; Gentile).

    theta_1 = 0; the margin of x_t is g(theta) . x_t with
    g(theta) = grad ||theta||_p^2 / 2; a mistake adds y_t x_t to theta
    (theory §2.5 with c = 0). With ``p=2`` it is the Perceptron.

    Parameters
    ----------
    p : float >= 2, default=2.0
        Norm of the link g; p of order ln(n) behaves like a multiplicative
        (Winnow-like) algorithm.
    normalize : bool, default=True
        Scale instances to unit p-norm first (training and prediction), as
        the Higher-Order Perceptron does.
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
        See ``OnlineClassifier``; ``coef_`` is g(theta), ``run_.state["theta"]``
        is theta.

    References
    ----------
    A. J. Grove, N. Littlestone and D. Schuurmans, Machine Learning 43 (2001);
    C. Gentile, Machine Learning 53 (2003); paper 000 sec. 2 item 3 and sec. 4.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import PNormPerceptron
    >>> X = np.array([[1.0, 0.2], [0.3, 1.0], [-1.0, -0.1], [-0.2, -1.0]])
    >>> clf = PNormPerceptron(protocol="paper", p=4.0, epochs=2).fit(X, [1, 1, 0, 0])
    >>> clf.predict([[0.5, 0.5], [-0.5, 0.1]]).tolist()
    [1, 0]
    """

    _algorithm = "pnorm"

    def __init__(self, *, p=2.0, normalize=True, protocol="sklearn", fit_intercept=None,
                 epochs=None, shuffle=None, random_state=None, multiclass=None):
        self.p = p
        self.normalize = normalize
        self.protocol = protocol
        self.fit_intercept = fit_intercept
        self.epochs = epochs
        self.shuffle = shuffle
        self.random_state = random_state
        self.multiclass = multiclass
