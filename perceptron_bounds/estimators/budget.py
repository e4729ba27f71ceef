"""The budget estimators: kernel Perceptrons whose support set is bounded (theory §2.11-2.13)."""

from __future__ import annotations

from .base import OnlineClassifier


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
