"""scikit-learn estimators over :func:`perceptron_bounds.run_online`.

Every estimator is a thin layer on :class:`_OnlineClassifier`: ``fit`` makes a
fresh run over ``epochs`` passes, ``partial_fit`` makes one more pass over a
batch from the state of the previous run, and the fitted run is kept in
``run_`` (an :class:`~perceptron_bounds.OnlineRun`), so the bounds of
:mod:`perceptron_bounds.bounds` can read it directly.

Labels are any K >= 2 distinct values, sorted into ``classes_``. Two classes
make a binary run, mapped to -1/+1 in sorted order (theory §1.6;
``classes_[1]`` is the positive class); more make a one-vs-rest run, and the
``multiclass`` parameter chooses one-vs-rest or the native multiclass form
explicitly (theory §2.6; :func:`perceptron_bounds.run_online`).

Two protocols (the ``protocol`` parameter). The default, ``"sklearn"``, is what a
scikit-learn user expects of a linear classifier: an intercept (a constant
feature 1 appended to every instance, linear kernel only), 10 passes, each in a
fresh random permutation. ``protocol="paper"`` is the papers' protocol, the one
the mistake bounds describe: one pass over the rows in the order given, no
intercept, so ``fit`` is exactly ``run_online`` with its defaults. An explicit
``fit_intercept``, ``epochs`` or ``shuffle`` overrides either protocol.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ._validation import check_int
from .online import run_online
from .registry import get

_COMMON_PARAMS = ("protocol", "fit_intercept", "epochs", "shuffle", "random_state")

# What fit_intercept, epochs and shuffle left at None mean under each protocol.
_PROTOCOLS = {
    "sklearn": {"fit_intercept": True, "epochs": 10, "shuffle": True},
    "paper": {"fit_intercept": False, "epochs": 1, "shuffle": False},
}


class _OnlineClassifier(ClassifierMixin, BaseEstimator):
    """Base of the toolkit's estimators: a registered algorithm behind the scikit-learn API.

    Parameters common to every estimator (stored by the subclass ``__init__``):
    ``protocol``, ``fit_intercept`` (append a constant feature 1), ``epochs``
    (passes of ``fit``), ``shuffle`` (a fresh permutation of the rows every
    pass) and ``random_state`` (None, an int or a ``numpy.random.RandomState``;
    with ``shuffle=True`` or a randomized algorithm (the Randomized Budget Perceptron) an
    int is the ``run_online`` seed, and None or a
    RandomState gives a seed drawn from that generator, None meaning NumPy's
    global one). Every other ``__init__`` parameter is passed to
    ``run_online`` under its own name, except those listed in ``_predict_params``;
    among them ``multiclass`` (None, ``"ovr"`` or ``"native"``, default None:
    binary for two classes, one-vs-rest for more; see ``run_online``).

    ``fit_intercept``, ``epochs`` and ``shuffle`` default to None, which takes
    their values from ``protocol``:

    * ``protocol="sklearn"`` (the default): ``fit_intercept=True`` (linear
      kernel), ``epochs=10``, ``shuffle=True``; for accuracy, as scikit-learn's
      ``Perceptron()``;
    * ``protocol="paper"``: ``fit_intercept=False``, ``epochs=1``,
      ``shuffle=False``; the papers' online run, the one the bounds describe.

    With ``"sklearn"`` a non-linear kernel gets no intercept (the polynomial
    kernel's ``coef0`` already adds a constant term). With an intercept the run
    ``run_`` is on the instances [x, 1]: its weights have n_features + 1
    entries, and a bound read from it needs that X too.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The labels, sorted; binary: ``classes_[1]`` is the positive class.
    run_ : OnlineRun
        The record of the last ``fit`` or ``partial_fit`` call (final state,
        mistake trials, ...; ``run_.class_runs`` for one-vs-rest).
    mistakes_ : int
        Mistakes made by ``fit`` and every later ``partial_fit`` (multiclass
        mistakes for a multiclass run, theory §2.6).
    corrections_ : int
        Training corrections made by ``fit`` and every later ``partial_fit``:
        the binary mistakes summed over the classes for one-vs-rest
        (``OnlineRun.corrections``), else ``mistakes_``.
    margin_errors_ : int
        Margin errors (updates on trials that were not mistakes, e.g. the
        Ballseptron's) made by ``fit`` and every later ``partial_fit``; for
        one-vs-rest, summed over the class runs.
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The final weight vector, as in scikit-learn's linear models (one row
        per class for a multiclass run); only for linear-kernel runs
        (``AttributeError`` otherwise).
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The weight of the constant feature (zeros without an intercept);
        linear-kernel runs only.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of str
        Column names, when X had them.

    Notes
    -----
    To add an estimator for a registered algorithm ``"name"``:

    1. subclass ``_OnlineClassifier`` and set ``_algorithm = "name"``;
    2. write an ``__init__`` taking ``epochs``, ``shuffle``, ``random_state``
       and the algorithm's parameters under their ``run_online`` names, each
       stored unchanged as an attribute (scikit-learn's rule: no validation in
       ``__init__``; ``run_online`` validates them in ``fit``);
    3. list in ``_predict_params`` the parameters meant for the final
       hypothesis's ``decision_function`` rather than for the run (e.g. the
       voted Perceptron's ``method``);
    4. name it in the algorithm's registration (``estimator="ClassName"``, so that
       :func:`estimator_of` finds it), export it (``_ESTIMATORS`` in
       ``perceptron_bounds/__init__.py``) and
       run scikit-learn's ``check_estimator`` on it in a test, with
       ``parametrize_with_checks`` as ``tests/test_estimators.py`` does.

    Every estimator takes sparse X (as CSR, scikit-learn's ``accept_sparse="csr"``) in
    ``fit``, ``partial_fit``, ``predict`` and ``decision_function``: every form of every
    algorithm runs on CSR rows, the dual (kernel) forms included, whose support vectors
    are then CSR rows too (``run_.support_vectors``).
    """

    _algorithm: str
    _predict_params: tuple[str, ...] = ()

    def fit(self, X, y):
        """Run the algorithm for ``epochs`` passes over (X, y) from its initial state.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or sparse matrix
            Training instances.
        y : array-like of shape (n_samples,)
            Two or more distinct label values.

        Returns
        -------
        self
        """
        X, y = validate_data(self, X, y, accept_sparse="csr")
        self.classes_ = self._check_targets(y, None)
        self._intercept = self._setting("fit_intercept")
        self.mistakes_ = self.corrections_ = self.margin_errors_ = 0
        self._count(self._run(X, y, self._setting("epochs"), None))
        return self

    def partial_fit(self, X, y, classes=None):
        """One more pass over the batch (X, y), continuing from the current state.

        ``epochs`` is not used: every call is one pass (shuffled when
        ``shuffle`` is, which ``protocol="sklearn"`` makes the default). Without
        shuffling (``protocol="paper"``), calls on consecutive batches equal one
        run over their concatenation.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or sparse matrix
            A batch of the stream.
        y : array-like of shape (n_samples,)
            Its labels; a batch may show only some of the classes.
        classes : array-like of shape (n_classes,), optional
            Every label of the stream. Needed on the first call when that batch
            does not show them all (two for a binary stream, K for a
            multiclass one: the first call fixes the kind of run); later calls
            may omit it, and if given it must equal ``classes_``.

        Returns
        -------
        self
        """
        first = not hasattr(self, "run_")
        X, y = validate_data(self, X, y, accept_sparse="csr", reset=first)
        if first:
            self.classes_ = self._check_targets(y, classes)
            self._intercept = self._setting("fit_intercept")
            self.mistakes_ = self.corrections_ = self.margin_errors_ = 0
        else:
            self._check_targets(y, self.classes_)
            if classes is not None and not np.array_equal(np.unique(classes), self.classes_):
                raise ValueError(
                    f"classes={np.unique(classes).tolist()} differs from the classes_ "
                    f"{self.classes_.tolist()} of the earlier calls to partial_fit"
                )
        self._count(self._run(X, y, 1, None if first else self.run_))
        return self

    def decision_function(self, X):
        """Scores of the final hypothesis on the rows of X.

        Binary: one score per row, positive means ``classes_[1]``. More
        classes: one score per class (theory §2.6), the largest wins. A
        multiclass run on two classes (``multiclass="ovr"`` or ``"native"``)
        gives s_1 - s_0, which is positive exactly when ``classes_[1]`` wins,
        as scikit-learn's binary convention asks.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or sparse matrix

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes) for n_classes > 2
        """
        X = self._check_predict_input(X)
        scores = self.run_.decision_function(self._with_intercept(X), **self._predict_options())
        if scores.ndim == 2 and scores.shape[1] == 2:
            return scores[:, 1] - scores[:, 0]
        return scores

    def predict(self, X):
        """Label of each row of X.

        Binary: ``classes_[1]`` for a positive score, else ``classes_[0]``.
        Multiclass: the class of the largest score, the smallest index on ties.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or sparse matrix

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        X = self._check_predict_input(X)
        return self.run_.predict(self._with_intercept(X), **self._predict_options())

    @property
    def coef_(self) -> np.ndarray:
        """Final weights, shape (1, n_features), or (n_classes, n_features) multiclass.

        Linear-kernel runs only; row k of a multiclass run is class k's vector
        (its class run's for one-vs-rest, its prototype for the native form),
        without the intercept's weight.
        """
        return self._weights("coef_")[:, : self.n_features_in_]

    @property
    def intercept_(self) -> np.ndarray:
        """Weight of the constant feature, shape (1,) or (n_classes,); zeros without one."""
        weights = self._weights("intercept_")
        if not self._intercept:
            return np.zeros(weights.shape[0])
        return weights[:, -1]

    def _weights(self, name: str) -> np.ndarray:
        """The run's weights, one row per class, intercept column included."""
        check_is_fitted(self, "run_")
        weights = self.run_.weights
        if weights is None:
            raise AttributeError(
                f"{name} is only available for a linear kernel; this run used "
                f"kernel={self.run_.params.get('kernel')!r} (see run_.dual_coef and "
                "run_.support_vectors)"
            )
        return np.array(weights).reshape(-1, self.n_features_in_ + self._intercept)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def _count(self, run) -> None:
        """Add the run's mistakes, corrections and margin errors to the estimator's totals."""
        self.mistakes_ += run.mistakes
        self.corrections_ += run.corrections
        runs = run.class_runs if run.class_runs is not None else (run,)
        self.margin_errors_ += sum(r.margin_errors for r in runs)

    def _run_params(self) -> dict:
        """The estimator's parameters that ``run_online`` takes, by name."""
        skip = {*_COMMON_PARAMS, *self._predict_params}
        return {k: v for k, v in self.get_params(deep=False).items() if k not in skip}

    def _predict_options(self) -> dict:
        return {name: getattr(self, name) for name in self._predict_params}

    def _setting(self, name: str):
        """``fit_intercept``, ``epochs`` or ``shuffle``: its value, or the protocol's when None."""
        value = getattr(self, name)
        if value is not None:
            if name == "fit_intercept" and not isinstance(value, (bool, np.bool_)):
                raise TypeError(f"fit_intercept must be None, True or False, got {value!r}")
            return bool(value) if name == "fit_intercept" else value
        if self.protocol not in _PROTOCOLS:
            raise ValueError(
                f"protocol must be one of {sorted(_PROTOCOLS)}, got {self.protocol!r}"
            )
        if name == "fit_intercept" and getattr(self, "kernel", "linear") != "linear":
            return False
        return _PROTOCOLS[self.protocol][name]

    def _with_intercept(self, X):
        """X with a constant column 1 appended when the estimator fits an intercept."""
        if not self._intercept:
            return X
        ones = np.ones((X.shape[0], 1))
        if sp.issparse(X):
            return sp.hstack([X, ones], format="csr")
        return np.hstack([X, ones])

    def _random_seed(self) -> int:
        """An int seed from ``random_state`` (see the class docstring)."""
        state = self.random_state
        if isinstance(state, numbers.Integral) and not isinstance(state, bool):
            return check_int("random_state", state, low=0)
        if state is not None and not isinstance(state, np.random.RandomState):
            raise TypeError(
                "random_state must be None, a non-negative int or a numpy.random.RandomState, "
                f"got {state!r}"
            )
        return int(check_random_state(state).randint(np.iinfo(np.int32).max))

    def _run(self, X, y, epochs, warm_start):
        shuffle = self._setting("shuffle")
        self.run_ = run_online(
            self._algorithm,
            self._with_intercept(X),
            y,
            epochs=epochs,
            shuffle=shuffle,
            seed=self._random_seed() if shuffle or get(self._algorithm).randomized else None,
            classes=self.classes_,
            warm_start=warm_start,
            **self._run_params(),
        )
        return self.run_

    def _check_targets(self, y, classes) -> np.ndarray:
        """Class labels (scikit-learn's check; y is 1-D here); return the sorted classes."""
        check_classification_targets(y)
        if classes is None:
            classes = np.unique(y)
            if classes.shape[0] < 2:
                raise ValueError(
                    f"y has only one class ({classes.tolist()[0]!r}); a classifier needs at "
                    "least two (to start partial_fit on a one-class batch, pass classes=)"
                )
        return np.unique(classes)

    def _check_predict_input(self, X):
        check_is_fitted(self)
        return validate_data(self, X, accept_sparse="csr", reset=False)


class Perceptron(_OnlineClassifier):
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
        given order without an intercept (see ``_OnlineClassifier``).
    fit_intercept : bool or None, default=None
        Append a constant feature 1 to every instance; its weight is
        ``intercept_``. None: from ``protocol``.
    epochs : int or None, default=None
        Passes over the training data in ``fit``; None: from ``protocol``.
    shuffle : bool or None, default=None
        Present each pass in a fresh random permutation; None: from ``protocol``.
    random_state : None, int or numpy.random.RandomState, default=None
        Source of the permutations (see ``_OnlineClassifier``).
    multiclass : {None, "ovr", "native"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest,
        one binary run per class; ``"native"``: one prototype per class (paper 004
        sec. 4). Theory §2.6.

    Attributes
    ----------
    classes_, coef_, intercept_, run_, mistakes_, margin_errors_, n_features_in_
        See ``_OnlineClassifier``.

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


class KernelPerceptron(_OnlineClassifier):
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
        given order without an intercept (see ``_OnlineClassifier``).
    fit_intercept : bool or None, default=None
        Append a constant feature 1 to every instance; its weight is
        ``intercept_``. None: from ``protocol``.
    epochs : int or None, default=None
        Passes over the training data in ``fit``; None: from ``protocol``.
    shuffle : bool or None, default=None
        Present each pass in a fresh random permutation; None: from ``protocol``.
    random_state : None, int or numpy.random.RandomState, default=None
        Source of the permutations (see ``_OnlineClassifier``).
    multiclass : {None, "ovr", "native"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest,
        one binary run per class; ``"native"``: one prototype per class (paper 004
        sec. 4). Theory §2.6.

    Attributes
    ----------
    classes_, run_, mistakes_, margin_errors_, n_features_in_
        See ``_OnlineClassifier``; ``run_.support_vectors`` and
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


class VotedPerceptron(_OnlineClassifier):
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
        given order without an intercept (see ``_OnlineClassifier``).
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
        See ``_OnlineClassifier``; ``run_.state["counts"]`` holds c_1..c_{k+1}.
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


class Ballseptron(_OnlineClassifier):
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
        given order without an intercept (see ``_OnlineClassifier``).
    fit_intercept : bool or None, default=None
        Append a constant feature 1 to every instance; its weight is
        ``intercept_``. None: from ``protocol``.
    epochs : int or None, default=None
        Passes over the training data in ``fit``; None: from ``protocol``.
    shuffle : bool or None, default=None
        Present each pass in a fresh random permutation; None: from ``protocol``.
    random_state : None, int or numpy.random.RandomState, default=None
        Source of the permutations (see ``_OnlineClassifier``).
    multiclass : {None, "ovr", "native"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest,
        one binary run per class; ``"native"``: one prototype per class (paper 004
        sec. 4). Theory §2.6.

    Attributes
    ----------
    classes_, coef_, intercept_, run_, mistakes_, margin_errors_, n_features_in_
        See ``_OnlineClassifier``; ``margin_errors_`` counts the margin
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


class SecondOrderPerceptron(_OnlineClassifier):
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
        given order without an intercept (see ``_OnlineClassifier``).
    fit_intercept : bool or None, default=None
        Append a constant feature 1 to every instance; its weight is
        ``intercept_``. None: from ``protocol``.
    epochs : int or None, default=None
        Passes over the training data in ``fit``; None: from ``protocol``.
    shuffle : bool or None, default=None
        Present each pass in a fresh random permutation; None: from ``protocol``.
    random_state : None, int or numpy.random.RandomState, default=None
        Source of the permutations (see ``_OnlineClassifier``).
    multiclass : {None, "ovr"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest,
        one binary run per class, also on two classes (theory §2.6).

    Attributes
    ----------
    classes_, coef_, intercept_, run_, mistakes_, margin_errors_, n_features_in_
        See ``_OnlineClassifier``. ``coef_`` (linear kernel) is w with
        prediction sign(w . x): (a I + X_m X_m^T)^{-1} v_m, or
        (X_m X_m^T)^+ v_m for ``pinv``. ``run_.mistake_rows`` indexes X_m;
        ``run_.state`` holds ``a_k`` and ``R`` (adaptive) or ``rank`` and
        ``rank_growth`` (pinv), which the second-order bounds read.

    Notes
    -----
    ``partial_fit`` continues the run; with ``variant="adaptive"`` R becomes
    the largest norm seen so far, so a_k may jump at a batch boundary.

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


class HigherOrderPerceptron(_OnlineClassifier):
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
        given order without an intercept (see ``_OnlineClassifier``).
    fit_intercept : bool or None, default=None
        Append a constant feature 1 to every instance; its weight is
        ``intercept_``. None: from ``protocol``.
    epochs : int or None, default=None
        Passes over the training data in ``fit``; None: from ``protocol``.
    shuffle : bool or None, default=None
        Present each pass in a fresh random permutation; None: from ``protocol``.
    random_state : None, int or numpy.random.RandomState, default=None
        Source of the permutations (see ``_OnlineClassifier``).
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
        See ``_OnlineClassifier``. ``coef_`` is w = B^T g(B v), applied to
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


class PNormPerceptron(_OnlineClassifier):
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
        given order without an intercept (see ``_OnlineClassifier``).
    fit_intercept : bool or None, default=None
        Append a constant feature 1 to every instance; its weight is
        ``intercept_``. None: from ``protocol``.
    epochs : int or None, default=None
        Passes over the training data in ``fit``; None: from ``protocol``.
    shuffle : bool or None, default=None
        Present each pass in a fresh random permutation; None: from ``protocol``.
    random_state : None, int or numpy.random.RandomState, default=None
        Source of the permutations (see ``_OnlineClassifier``).
    multiclass : {None, "ovr"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest,
        one binary run per class, also on two classes (theory §2.6).

    Attributes
    ----------
    classes_, coef_, intercept_, run_, mistakes_, margin_errors_, n_features_in_
        See ``_OnlineClassifier``; ``coef_`` is g(theta), ``run_.state["theta"]``
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


class PassiveAggressive(_OnlineClassifier):
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
        their values (see ``_OnlineClassifier``).
    fit_intercept : bool or None, default=None
        Append a constant feature 1 to every instance; its weight is
        ``intercept_``. None: from ``protocol``.
    epochs : int or None, default=None
        Passes over the training data in ``fit``; None: from ``protocol``.
    shuffle : bool or None, default=None
        Present each pass in a fresh random permutation; None: from ``protocol``.
    random_state : None, int or numpy.random.RandomState, default=None
        Source of the permutations (see ``_OnlineClassifier``).
    multiclass : {None, "ovr", "native"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest;
        ``"native"``: one prototype per class, the paper's multi-prototype update
        (sec. 7, theory §2.7).

    Attributes
    ----------
    classes_, coef_, intercept_, run_, mistakes_, margin_errors_, n_features_in_
        See ``_OnlineClassifier``; ``margin_errors_`` counts the updates on correct
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


class ALMA(_OnlineClassifier):
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
        given order without an intercept (see ``_OnlineClassifier``).
    fit_intercept : bool or None, default=None
        Append a constant feature 1 to every instance; its weight is
        ``intercept_``. None: from ``protocol``.
    epochs : int or None, default=None
        Passes over the training data in ``fit``; None: from ``protocol``.
    shuffle : bool or None, default=None
        Present each pass in a fresh random permutation; None: from ``protocol``.
    random_state : None, int or numpy.random.RandomState, default=None
        Source of the permutations (see ``_OnlineClassifier``).
    multiclass : {None, "ovr"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest,
        one binary run per class, also on two classes (theory §2.6).

    Attributes
    ----------
    classes_, coef_, intercept_, run_, mistakes_, margin_errors_, n_features_in_
        See ``_OnlineClassifier``; ``margin_errors_`` counts the updates with the
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


class ROMMA(_OnlineClassifier):
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
        given order without an intercept (see ``_OnlineClassifier``).
    fit_intercept : bool or None, default=None
        Append a constant feature 1 to every instance; its weight is
        ``intercept_``. None: from ``protocol``.
    epochs : int or None, default=None
        Passes over the training data in ``fit``; None: from ``protocol``.
    shuffle : bool or None, default=None
        Present each pass in a fresh random permutation; None: from ``protocol``.
    random_state : None, int or numpy.random.RandomState, default=None
        Source of the permutations (see ``_OnlineClassifier``).
    multiclass : {None, "ovr"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest,
        one binary run per class, also on two classes (theory §2.6).

    Attributes
    ----------
    classes_, coef_, intercept_, run_, mistakes_, margin_errors_, n_features_in_
        See ``_OnlineClassifier``; ``margin_errors_`` counts the aggressive
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


class AROW(_OnlineClassifier):
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
        given order without an intercept (see ``_OnlineClassifier``).
    fit_intercept : bool or None, default=None
        Append a constant feature 1 to every instance; its weight is
        ``intercept_``. None: from ``protocol``.
    epochs : int or None, default=None
        Passes over the training data in ``fit``; None: from ``protocol``.
    shuffle : bool or None, default=None
        Present each pass in a fresh random permutation; None: from ``protocol``.
    random_state : None, int or numpy.random.RandomState, default=None
        Source of the permutations (see ``_OnlineClassifier``).
    multiclass : {None, "ovr"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest,
        one binary run per class, also on two classes (theory §2.6).

    Attributes
    ----------
    classes_, coef_, intercept_, run_, mistakes_, margin_errors_, n_features_in_
        See ``_OnlineClassifier``. ``coef_`` (linear kernel) is mu;
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


class Forgetron(_OnlineClassifier):
    """Dekel, Shalev-Shwartz & Singer's self-tuned Forgetron: a kernel Perceptron on a budget.

    On a mistake (y_t f(x_t) <= 0) x_t is added with coefficient y_t; past B
    supports every coefficient is multiplied by the self-tuned factor
    phi_t in (0, 1] and the oldest support is removed (theory §2.11; mistake
    bound theory §4.10).

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
        their values (see ``_OnlineClassifier``).
    fit_intercept : bool or None, default=None
        Append a constant feature 1 to every instance (linear kernel). None: from
        ``protocol``.
    epochs : int or None, default=None
        Passes over the training data in ``fit``; None: from ``protocol``.
    shuffle : bool or None, default=None
        Present each pass in a fresh random permutation; None: from ``protocol``.
    random_state : None, int or numpy.random.RandomState, default=None
        Source of the permutations (see ``_OnlineClassifier``).
    multiclass : {None, "ovr"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest,
        one binary run per class, also on two classes (theory §2.6).

    Attributes
    ----------
    classes_, run_, mistakes_, n_features_in_
        See ``_OnlineClassifier``; ``run_.support_vectors`` and ``run_.dual_coef``
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


class RandomizedBudgetPerceptron(_OnlineClassifier):
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
        their values (see ``_OnlineClassifier``).
    fit_intercept : bool or None, default=None
        Append a constant feature 1 to every instance (linear kernel). None: from
        ``protocol``.
    epochs : int or None, default=None
        Passes over the training data in ``fit``; None: from ``protocol``.
    shuffle : bool or None, default=None
        Present each pass in a fresh random permutation; None: from ``protocol``.
    random_state : None, int or numpy.random.RandomState, default=None
        Source of the permutations and of the draws (an int makes ``fit``
        reproducible; see ``_OnlineClassifier``).
    multiclass : {None, "ovr"}, default=None
        None: binary for two classes, one-vs-rest for more; ``"ovr"``: one-vs-rest,
        one binary run per class, also on two classes (theory §2.6).

    Attributes
    ----------
    classes_, run_, mistakes_, n_features_in_
        See ``_OnlineClassifier``; ``run_.support_vectors`` and ``run_.dual_coef``
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


def estimator_of(algorithm: str) -> type:
    """The estimator class of a registered algorithm, as its registration names it.

    Parameters
    ----------
    algorithm : str
        A registered name (``perceptron_bounds.algorithms.available()``).

    Returns
    -------
    type
        The class named by the registration's ``estimator`` field (for the
        Perceptron, :class:`Perceptron`; :class:`KernelPerceptron` is its
        kernel-default twin).

    Raises
    ------
    ValueError
        An unknown name, or an algorithm registered without an estimator.

    Examples
    --------
    >>> estimator_of("second_order").__name__
    'SecondOrderPerceptron'
    """
    spec = get(algorithm)
    if spec.estimator is None:
        raise ValueError(f"{spec.name!r} is registered without an estimator class")
    return globals()[spec.estimator]
