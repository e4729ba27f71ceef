"""The base every estimator shares: a registered algorithm behind the scikit-learn API
(:class:`OnlineClassifier`), and the two protocols."""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import check_int, check_X
from ..online import check_rows_in_range, run_online
from ..registry import get

_COMMON_PARAMS = ("protocol", "fit_intercept", "epochs", "shuffle", "random_state")

# What fit_intercept, epochs and shuffle left at None mean under each protocol.

_PROTOCOLS = {
    "sklearn": {"fit_intercept": True, "epochs": 10, "shuffle": True},
    "paper": {"fit_intercept": False, "epochs": 1, "shuffle": False},
}


# The estimator classes of the package, by class name (each subclass that sets _algorithm).
_CLASSES: dict[str, type] = {}


def estimator_class(name: str) -> type:
    """The estimator class called ``name`` (a subclass of :class:`OnlineClassifier` that sets
    ``_algorithm``); ``ValueError`` naming the known ones otherwise."""
    if name not in _CLASSES:
        raise ValueError(f"no estimator class named {name!r}; the known ones: "
                         f"{', '.join(sorted(_CLASSES))}")
    return _CLASSES[name]


class OnlineClassifier(ClassifierMixin, BaseEstimator):
    """Base of the toolkit's estimators: a registered algorithm behind the scikit-learn API.

    Parameters common to every estimator (stored by the subclass ``__init__``):
    ``protocol``, ``fit_intercept`` (append a constant feature 1), ``epochs``
    (passes of ``fit``), ``shuffle`` (a fresh permutation of the rows every
    pass) and ``random_state`` (None, an int or a ``numpy.random.RandomState``;
    with ``shuffle=True`` or a randomized algorithm (whose draws come from the seed,
    e.g. selective sampling) an int is the ``run_online`` seed, and None or a
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

    1. subclass ``OnlineClassifier`` and set ``_algorithm = "name"``;
    2. write an ``__init__`` taking ``epochs``, ``shuffle``, ``random_state``
       and the algorithm's parameters under their ``run_online`` names, each
       stored unchanged as an attribute (scikit-learn's rule: no validation in
       ``__init__``; ``run_online`` validates them in ``fit``);
    3. list in ``_predict_params`` the parameters meant for the final
       hypothesis's ``decision_function`` rather than for the run (e.g. the
       voted Perceptron's ``method``);
    4. name it in the algorithm's registration (``estimator="ClassName"``: then
       :func:`estimator_of` returns it, and ``perceptron_bounds`` and
       ``perceptron_bounds.estimators`` export it) and run scikit-learn's
       ``check_estimator`` on it in a test, with ``parametrize_with_checks`` as
       ``tests/test_estimators.py`` does.

    An algorithm registered without one gets a generic estimator from
    :func:`estimator_of` (module ``estimators.generic``), whose parameters are its registered defaults.

    Every estimator takes sparse X (as CSR, scikit-learn's ``accept_sparse=self._accept_sparse``) in
    ``fit``, ``partial_fit``, ``predict`` and ``decision_function``: every form of every
    algorithm runs on CSR rows, the dual (kernel) forms included, whose support vectors
    are then CSR rows too (``run_.support_vectors``).
    """

    _algorithm: str
    _predict_params: tuple[str, ...] = ()
    # What validate_data accepts: CSR (every algorithm of the package runs on it), or False.
    _accept_sparse: str | bool = "csr"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "_algorithm" in cls.__dict__ and not getattr(cls, "_generated", False):
            _CLASSES[cls.__name__] = cls

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
        X, y = validate_data(self, X, y, accept_sparse=self._accept_sparse)
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
        X, y = validate_data(self, X, y, accept_sparse=self._accept_sparse, reset=first)
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
        tags.input_tags.sparse = bool(self._accept_sparse)
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
        """X with a constant column 1 appended when the estimator fits an intercept.

        The rows' norms are checked before the column is appended
        (:func:`~perceptron_bounds.online.check_rows_in_range`, as ``run_online`` checks
        the rows it is given): beside the 1, a row of norm 1e-200 would leave its margins
        to the intercept alone and the run would learn nothing from its features."""
        if not self._intercept:
            return X
        params = {**get(self._algorithm).defaults, **self._run_params()}
        if params.get("kernel", "linear") == "linear":
            check_rows_in_range(get(self._algorithm), params, check_X(X))
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
            # a randomized algorithm's draws come from the seed too (theory §1.2)
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
        return validate_data(self, X, accept_sparse=self._accept_sparse, reset=False)
