"""The second- and higher-order estimators: the Second-Order and the Higher-Order
Perceptron (theory §2.4, §2.5)."""

from __future__ import annotations

from .base import OnlineClassifier


class SecondOrderPerceptron(OnlineClassifier):
    """The Second-Order Perceptron of Cesa-Bianchi, Conconi & Gentile, linear or with a kernel.

    With X_k the k mistaken instances so far, v_k = sum of y_i x_i over them
    and S_t = [X_k, x_t], trial t predicts the sign of (theory §2.4)

    * ``variant="inverse"``: v_k^T (a I + S_t S_t^T)^{-1} x_t (paper 003, Fig. 3);
    * ``variant="adaptive"``: the same with a = a_k = c R^2 k, k = mistakes so
      far + 1, R = max ||x_t|| (Fig. 4);
    * ``variant="pinv"``: v_k^T (S_t S_t^T)^+ x_t, 0 (a mistake) when x_t is
      outside the span of the past mistakes (Fig. 5).

    A mistake (y_t margin_t <= 0) adds x_t to X_k and y_t x_t to v_k.
    ``decision_function`` returns that margin for x as the next trial.

    Parameters
    ----------
    a : float, default=1.0
        a > 0 of ``variant="inverse"``; a large a is close to the Perceptron
        (other libraries use 1/a; this is the paper's a).
    variant : {"inverse", "adaptive", "pinv"}, default="inverse"
        Fixed a, adaptive a_k = c R^2 k, or the pseudoinverse.
    c : float, default=1.0
        c > 0 of ``variant="adaptive"``.
    R2 : float or None, default=None
        ``variant="adaptive"``: R^2 of a_k = c R^2 k given in advance, at least the
        largest squared norm of the instances (after the intercept's feature); None
        takes the largest seen so far.
    span_tol : float, default=1e-9
        ``variant="pinv"``: x is outside the span of the mistakes when
        ||x_perp||^2 > span_tol ||x||^2 (in the kernel's feature space).
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
        ``primal`` keeps an n_features x n_features inverse (O(n^2) per
        mistake, sparse X accepted), ``dual`` the inverse of the mistakes'
        Gram (needed by a non-linear kernel); ``auto`` picks one from the
        kernel and the data's shape, and ``run_.params["form"]`` says which.
    memory_budget : float, default=2 * 1024**3
        Bytes the primal form's n_features x n_features matrices may take:
        ``auto`` never picks a primal form over it and an explicit one is an
        error before anything is allocated.
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
        See ``OnlineClassifier``. ``coef_`` (linear kernel) is w with
        prediction sign(w . x): (a I + X_m X_m^T)^{-1} v_m, or
        (X_m X_m^T)^+ v_m for ``pinv``. ``run_.mistake_rows`` indexes X_m;
        ``run_.state`` holds ``a_k`` and ``R`` (adaptive) or ``rank`` and
        ``rank_growth`` (pinv), which the second-order bounds read.

    Notes
    -----
    ``partial_fit`` continues the run; with ``variant="adaptive"`` R becomes
    the largest norm seen so far, so a_k may jump at a batch boundary (unless
    ``R2`` is given).

    References
    ----------
    N. Cesa-Bianchi, A. Conconi and C. Gentile, "A second-order Perceptron
    algorithm", SIAM J. Computing 34 (2005) (paper 003), Fig. 2-4,
    Theorems 1-4.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import SecondOrderPerceptron
    >>> X = np.array([[1.0, 0.1], [0.2, 1.0], [-1.0, -0.1], [-0.1, -1.0]])
    >>> clf = SecondOrderPerceptron(protocol="paper", a=1.0, epochs=2).fit(X, [1, 1, 0, 0])
    >>> clf.mistakes_, clf.run_.params["form"]
    (1, 'primal')
    >>> clf.predict([[0.5, 0.5], [-0.3, -0.2]]).tolist()
    [1, 0]
    """

    _algorithm = "second_order"

    def __init__(
        self,
        *,
        a=1.0,
        variant="inverse",
        c=1.0,
        R2=None,
        span_tol=1e-9,
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
        self.a = a
        self.variant = variant
        self.c = c
        self.R2 = R2
        self.span_tol = span_tol
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


class HigherOrderPerceptron(OnlineClassifier):
    """The Higher-Order Perceptron HO_p(c) of Brotto, Gentile and Vitale (theory §2.5).

    With instances scaled to unit p-norm, B_0 = I, v_0 = 0 and
    g(theta) = grad ||theta||_p^2 / 2, the margin of x_t is
    g(B_{k-1} v_{k-1}) . B_{k-1} x_t; a mistake (margin times label <= 0)
    updates v_k = v_{k-1} + y_t x_t and B_k = B_{k-1} (I - rho_k x_t g(x_t)^T)
    with rho_k = c / k (paper 000, Figure 1 and sec. 2). ``c=0`` is the p-norm
    Perceptron (:class:`PNormPerceptron`), and with ``p=2`` the Perceptron.

    Parameters
    ----------
    c : float in [0, 1), default=0.4
        Scale of the schedule rho_k = c / k, k counting mistakes from 1.
    rho : array-like or None, default=None
        An explicit schedule rho_1, rho_2, ... in [0, 1) instead of c / k, with
        one value per possible mistake (at least the number of trials).
    p : float >= 2, default=2.0
        Norm of the dual-norm link g (g is the identity for p = 2).
    sparse : bool, default=False
        The sparse variant: rho_k = 0 (B not updated) when y_t v_{k-1} . x_t < 0.
    form : {"auto", "primal", "dual", "implicit"}, default="auto"
        Implementation (paper 000 sec. 2): primal (p = 2, A = B^T B), dual
        (p = 2, kernels), implicit (any p, B kept as its factors). All give the
        same margins up to rounding; "auto" picks dual for a non-linear kernel,
        primal for p = 2 with at most 1000 features and ``sparse=False``,
        implicit otherwise.
    normalize : bool, default=True
        Scale instances to unit p-norm (unit norm in the kernel's feature
        space), as the paper and Theorem 1 assume; new instances are scaled
        the same way by ``decision_function``. False uses the data as given.
    kernel : {"linear", "poly", "rbf"}, default="linear"
        Mercer kernel (theory §1.7); a non-linear kernel needs p = 2.
    degree, gamma, coef0
        Kernel parameters, scikit-learn's names and defaults (``gamma="scale"``
        is 1 / (n_features X.var()) on the data of ``fit``; ``"auto"`` and None
        are 1 / n_features).
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
    memory_budget : float, default=2 * 1024**3
        Bytes the primal form's n_features x n_features matrix A may take:
        ``auto`` never picks the primal form over it and an explicit one is an
        error before anything is allocated.
    multiclass : {None, "ovr"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest,
        one binary run per class, also on two classes (theory §2.6).

    Attributes
    ----------
    classes_, coef_, intercept_, run_, mistakes_, margin_errors_, n_features_in_
        See ``OnlineClassifier``. ``coef_`` is w = B^T g(B v), applied to
        normalised instances; ``run_.state`` holds the record the HO bound
        needs (rho_k, y_t v_{k-1} . x_t, r_k, matrix updates; see
        :mod:`perceptron_bounds.algorithms.higher_order`).

    References
    ----------
    C. Brotto, C. Gentile and F. Vitale, "On Higher-Order Perceptron
    Algorithms", NIPS 2007 (paper 000), Figure 1, sec. 2, Theorem 1.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import HigherOrderPerceptron
    >>> X = np.array([[1.0, 0.2], [0.3, 1.0], [-1.0, -0.1], [-0.2, -1.0]])
    >>> clf = HigherOrderPerceptron(protocol="paper", c=0.4, epochs=2)
    >>> clf = clf.fit(X, ["yes", "yes", "no", "no"])
    >>> clf.mistakes_, clf.run_.params["form"]
    (1, 'primal')
    >>> clf.predict([[0.5, 0.5], [-0.5, 0.1]]).tolist()
    ['yes', 'no']
    """

    _algorithm = "higher_order"

    def __init__(
        self,
        *,
        c=0.4,
        rho=None,
        p=2.0,
        sparse=False,
        form="auto",
        normalize=True,
        memory_budget=2 * 1024**3,
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
        self.c = c
        self.rho = rho
        self.p = p
        self.sparse = sparse
        self.form = form
        self.normalize = normalize
        self.memory_budget = memory_budget
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
