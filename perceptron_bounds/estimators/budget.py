"""The budget estimators: kernel Perceptrons whose support set is bounded (theory §2.11-2.13)."""

from __future__ import annotations

from .base import OnlineClassifier


class Forgetron(OnlineClassifier):
    """Dekel, Shalev-Shwartz & Singer's self-tuned Forgetron: a kernel Perceptron on a budget.

    On a mistake (y_t f(x_t) <= 0) x_t is added with coefficient y_t; past B
    supports every coefficient is multiplied by the self-tuned factor
    phi_t in (0, 1] and the oldest support is removed (theory §2.11; mistake
    bound theory §4.10).

    Parameters
    ----------
    budget : int, default=100
        B >= 1, the most supports the hypothesis keeps.
    kernel : {"rbf", "poly", "linear"}, default="rbf"
        K(x, z) (theory §1.7, scikit-learn's names); every kernel runs the dual form.
        The default is normalised (K(x, x) = 1), as the Forgetron's mistake bound
        (theory §4.10) assumes K(x, x) <= 1.
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
        one binary run per class, also on two classes (theory §2.6).

    Attributes
    ----------
    classes_, run_, mistakes_, n_features_in_
        See ``OnlineClassifier``; ``run_.support_vectors`` and ``run_.dual_coef``
        hold the at most B supports, ``run_.state`` what the budget did.

    References
    ----------
    O. Dekel, S. Shalev-Shwartz and Y. Singer, "The Forgetron: a kernel-based
    Perceptron on a budget", SIAM J. Comput. 37 (2008).

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import Forgetron
    >>> X = np.array([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    >>> clf = Forgetron(budget=3, protocol="paper", kernel="rbf", gamma=2.0,
    ...     epochs=10, random_state=0).fit(X, [0, 0, 1, 1])
    >>> clf.run_.support_vectors.shape[0] <= 3
    True
    """

    _algorithm = "forgetron"

    def __init__(self, *, budget=100, kernel="rbf", degree=3, gamma="scale", coef0=1.0,
                 protocol="sklearn", fit_intercept=None, epochs=None, shuffle=None,
                 random_state=None, multiclass=None):
        self.budget = budget
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


class RandomizedBudgetPerceptron(OnlineClassifier):
    """Cavallanti, Cesa-Bianchi & Gentile's Randomized Budget Perceptron.

    The kernel Perceptron with at most B supports: a mistake with B supports
    held first removes one drawn uniformly at random (theory §2.12; mistake
    bound in expectation theory §4.11).

    Parameters
    ----------
    budget : int, default=100
        B >= 1, the most supports the hypothesis keeps.
    kernel : {"poly", "rbf", "linear"}, default="poly"
        K(x, z) (theory §1.7, scikit-learn's names); every kernel runs the dual form.
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
        Source of the permutations and of the draws (an int makes ``fit``
        reproducible; see ``OnlineClassifier``).
    multiclass : {None, "ovr"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest,
        one binary run per class, also on two classes (theory §2.6).

    Attributes
    ----------
    classes_, run_, mistakes_, n_features_in_
        See ``OnlineClassifier``; ``run_.support_vectors`` and ``run_.dual_coef``
        hold the at most B supports, ``run_.state`` what the budget did.

    References
    ----------
    G. Cavallanti, N. Cesa-Bianchi and C. Gentile, "Tracking the best hyperplane
    with a simple budget Perceptron", Machine Learning 69 (2007).

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import RandomizedBudgetPerceptron
    >>> X = np.array([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    >>> clf = RandomizedBudgetPerceptron(budget=3, protocol="paper", kernel="rbf", gamma=2.0,
    ...     epochs=10, random_state=0).fit(X, [0, 0, 1, 1])
    >>> clf.run_.support_vectors.shape[0] <= 3
    True
    """

    _algorithm = "randomized_budget_perceptron"

    def __init__(self, *, budget=100, kernel="poly", degree=3, gamma="scale", coef0=1.0,
                 protocol="sklearn", fit_intercept=None, epochs=None, shuffle=None,
                 random_state=None, multiclass=None):
        self.budget = budget
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


class Projectron(OnlineClassifier):
    """Projectron and Projectron++ (Orabona, Keshet & Caputo): kernel Perceptrons on fewer supports.

    From f = 0, on a mistake the instance's projection error delta (its distance,
    in the kernel's space, to the span of the supports) decides: delta > eta adds
    it as a support with coefficient y_t, else f <- f + y_t P phi(x_t), which moves
    only the coefficients (theory §2.13). ``plus=True`` also updates on a margin
    error 0 < y_t f(x_t) < 1 whose loss l exceeds delta / eta, by
    tau y_t P phi(x_t), tau = min(l / ||P phi||^2, 1, 2 (l - delta / eta) / ||P phi||^2).

    Parameters
    ----------
    eta : float, default=0.1
        eta >= 0: the largest projection error of a projected update; the larger,
        the fewer supports (eta = 0 adds every instance outside the span).
    plus : bool, default=False
        The Projectron++: projected updates on margin errors too.
    kernel : {"linear", "poly", "rbf"}, default="linear"
        K(x, z) (theory §1.7, scikit-learn's names).
    degree : int, default=3
        Degree of the polynomial kernel.
    gamma : float, "scale", "auto" or None, default="scale"
        Kernel scale: ``"scale"`` is 1 / (n_features X.var()) on the data of
        ``fit``, as scikit-learn's SVC; ``"auto"`` and None are 1 / n_features.
    coef0 : float, default=1.0
        Constant of the polynomial kernel.
    form : {"auto", "dual"}, default="auto"
        Always the dual form (supports and the inverse of their Gram matrix).
    memory_budget : float, default=2 * 1024**3
        Bytes the inverse Gram matrix of the supports may take; the run stops with
        an error before it passes them.
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
        See ``OnlineClassifier``. ``run_.support_vectors`` are the added
        instances; ``run_.state`` records on each update whether it added a
        support (``"added"``), delta (``"delta"``) and tau (``"tau"``), which the
        Projectron's bounds read (theory §4.12).

    References
    ----------
    F. Orabona, J. Keshet and B. Caputo, "Bounded kernel-based online learning",
    JMLR 10 (2009) 2643-2666.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import Projectron
    >>> X = np.array([[1.0, 0.1], [0.2, 1.0], [-1.0, -0.1], [-0.1, -1.0]])
    >>> clf = Projectron(protocol="paper", eta=0.5, epochs=2).fit(X, [1, 1, 0, 0])
    >>> clf.mistakes_, clf.run_.support_vectors.shape[0]
    (1, 1)
    >>> clf.predict([[0.5, 0.5], [-0.3, -0.2]]).tolist()
    [1, 0]
    """

    _algorithm = "projectron"

    def __init__(
        self,
        *,
        eta=0.1,
        plus=False,
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
        self.eta = eta
        self.plus = plus
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
