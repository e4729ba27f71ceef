"""The selective-sampling estimators: the Perceptron and the Second-Order Perceptron that ask
for a label with probability b / (b + |p_t|) (theory §2.14)."""

from __future__ import annotations

from sklearn.utils.validation import check_is_fitted

from .base import OnlineClassifier


class SelectivePerceptron(OnlineClassifier):
    """The selective-sampling Perceptron (Cesa-Bianchi, Gentile & Zaniboni), with a kernel.

    On each trial, with margin p_t = w . x_t, it predicts sign(p_t) and asks for
    the label with probability b / (b + |p_t|) (a draw of ``random_state``); only
    a queried mistake updates, w <- w + y_t x_t (theory §2.14). Every mistake is
    counted, queried or not; ``queried_`` is the number of labels asked for.

    Parameters
    ----------
    b : float, default=1.0
        b > 0: the larger, the more labels are asked for (all of them as b grows
        without bound: the Perceptron).
    kernel : {"linear", "poly", "rbf"}, default="linear"
        K(x, z) (theory §1.7, scikit-learn's names).
    degree : int, default=3
        Degree of the polynomial kernel.
    gamma : float, "scale", "auto" or None, default="scale"
        Kernel scale, as scikit-learn's SVC (see :class:`AROW`).
    coef0 : float, default=1.0
        Constant of the polynomial kernel.
    form : {"auto", "primal", "dual"}, default="auto"
        ``primal`` keeps w (linear kernel), ``dual`` the updated instances;
        ``auto`` picks from the kernel.
    protocol : {"sklearn", "paper"}, default="sklearn"
        Where ``fit_intercept``, ``epochs`` and ``shuffle`` left at None take
        their values (see ``OnlineClassifier``).
    fit_intercept : bool or None, default=None
        Append a constant feature 1 to every instance; None: from ``protocol``.
    epochs : int or None, default=None
        Passes over the training data in ``fit``; None: from ``protocol``.
    shuffle : bool or None, default=None
        Present each pass in a fresh random permutation; None: from ``protocol``.
    random_state : None, int or numpy.random.RandomState, default=None
        Source of the permutations and of the query draws (an int: the run's seed).
    multiclass : {None, "ovr"}, default=None
        None: binary for two classes, one-vs-rest for more (theory §2.6).

    Attributes
    ----------
    classes_, coef_, intercept_, run_, mistakes_, margin_errors_, n_features_in_
        See ``OnlineClassifier``; ``run_.queried_trials`` are the trials whose
        label was asked for.
    queried_ : int
        Labels asked for in the last ``fit`` or ``partial_fit`` (``run_.queried``).

    References
    ----------
    N. Cesa-Bianchi, C. Gentile and L. Zaniboni, "Worst-case analysis of selective
    sampling for linear classification", JMLR 7 (2006).

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds.estimators import SelectivePerceptron
    >>> X = np.array([[1.0, 0.1], [0.2, 1.0], [-1.0, -0.1], [-0.1, -1.0]])
    >>> clf = SelectivePerceptron(protocol="paper", b=0.5, random_state=0).fit(X, [1, 1, 0, 0])
    >>> clf.b, clf.queried_ <= clf.run_.n_trials
    (0.5, True)
    >>> clf.predict([[0.5, 0.5], [-0.3, -0.2]]).tolist()
    [1, 0]
    """

    _algorithm = "selective_perceptron"

    def __init__(self, *, b=1.0, kernel="linear", degree=3, gamma="scale", coef0=1.0,
                 form="auto", protocol="sklearn", fit_intercept=None, epochs=None,
                 shuffle=None, random_state=None, multiclass=None):
        self.b = b
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.form = form
        self.protocol = protocol
        self.fit_intercept = fit_intercept
        self.epochs = epochs
        self.shuffle = shuffle
        self.random_state = random_state
        self.multiclass = multiclass

    @property
    def queried_(self) -> int:
        """Labels asked for in the last ``fit`` or ``partial_fit``."""
        check_is_fitted(self)
        return self.run_.queried


class SelectiveSecondOrderPerceptron(SelectivePerceptron):
    """The selective-sampling Second-Order Perceptron (fixed a), with a kernel.

    On each trial, with margin p_t = v^T (a I + S S^T + x_t x_t^T)^{-1} x_t (S the
    updated instances, v the sum of their y_i x_i), it predicts sign(p_t) and asks
    for the label with probability b / (b + |p_t|); only a queried mistake updates
    (S and v take x_t; theory §2.14).

    Parameters
    ----------
    a : float, default=1.0
        a > 0, the Second-Order Perceptron's parameter (theory §2.4).
    b : float, default=1.0
        b > 0: the larger, the more labels are asked for.
    kernel, degree, gamma, coef0, form
        As :class:`SelectivePerceptron`.
    protocol, fit_intercept, epochs, shuffle, random_state, multiclass
        As :class:`SelectivePerceptron`.
    memory_budget : float, default=2 * 1024**3
        Bytes the n x n (primal) or k x k (dual) inverse may take, as for
        :class:`SecondOrderPerceptron`.

    Attributes
    ----------
    classes_, coef_, intercept_, run_, mistakes_, margin_errors_, n_features_in_, queried_
        As :class:`SelectivePerceptron`.

    References
    ----------
    N. Cesa-Bianchi, C. Gentile and L. Zaniboni, "Worst-case analysis of selective
    sampling for linear classification", JMLR 7 (2006).

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds.estimators import SelectiveSecondOrderPerceptron
    >>> X = np.array([[1.0, 0.1], [0.2, 1.0], [-1.0, -0.1], [-0.1, -1.0]])
    >>> clf = SelectiveSecondOrderPerceptron(protocol="paper", a=1.0, b=2.0, random_state=0)
    >>> clf.fit(X, [1, 1, 0, 0]).predict([[0.5, 0.5], [-0.3, -0.2]]).tolist()
    [1, 0]
    """

    _algorithm = "selective_second_order"

    def __init__(self, *, a=1.0, b=1.0, kernel="linear", degree=3, gamma="scale", coef0=1.0,
                 form="auto", memory_budget=2 * 1024**3, protocol="sklearn",
                 fit_intercept=None, epochs=None, shuffle=None, random_state=None,
                 multiclass=None):
        self.a = a
        self.memory_budget = memory_budget
        super().__init__(b=b, kernel=kernel, degree=degree, gamma=gamma, coef0=coef0,
                         form=form, protocol=protocol, fit_intercept=fit_intercept,
                         epochs=epochs, shuffle=shuffle, random_state=random_state,
                         multiclass=multiclass)
