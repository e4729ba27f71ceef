"""A scikit-learn estimator for any registered algorithm, its registered defaults as parameters.

:func:`generic_estimator` builds, for an algorithm registered without an estimator class
of its own (one registered from outside the package, as in
``examples/adding_an_algorithm.py``), a subclass of
:class:`~.base.OnlineClassifier` whose ``__init__`` takes the parameters every estimator
takes (``protocol``, ``fit_intercept``, ``epochs``, ``shuffle``, ``random_state``,
``multiclass``) and the algorithm's registered ``defaults``, each stored unchanged
(scikit-learn's rule). It takes sparse X when the algorithm does (:func:`takes_sparse`).
:func:`~perceptron_bounds.estimators.estimator_of` returns it.
"""

from __future__ import annotations

from inspect import Parameter, Signature

import numpy as np
import scipy.sparse as sp

from .._validation import Data
from ..registry import get
from .base import OnlineClassifier

# The parameters of every estimator, with their defaults (see OnlineClassifier).
COMMON = {"protocol": "sklearn", "fit_intercept": None, "epochs": None, "shuffle": None,
          "random_state": None, "multiclass": None}

_BUILT: dict[str, type] = {}


class GenericEstimator(OnlineClassifier):
    """Base of the estimators :func:`generic_estimator` builds (one class per algorithm).

    Instances pickle by the algorithm's name: loading one rebuilds its class, so the
    algorithm must be registered in the loading process too.
    """

    _generated = True
    _defaults: dict = {}

    def __init__(self, **params):
        unknown = sorted(set(params) - set(self._defaults))
        if unknown:
            raise TypeError(f"{type(self).__name__} got unexpected parameter(s) "
                            f"{', '.join(unknown)}; it takes: {', '.join(self._defaults)}")
        for name, default in self._defaults.items():
            setattr(self, name, params.get(name, default))

    def __reduce__(self):
        return _blank, (self._algorithm,), self.__getstate__()


def _blank(algorithm: str):
    """An instance of the generic estimator of ``algorithm`` without ``__init__`` (unpickling)."""
    cls = generic_estimator(algorithm)
    return cls.__new__(cls)


def class_name(algorithm: str) -> str:
    """``"margin_perceptron"`` -> ``"MarginPerceptron"``."""
    return "".join(part[:1].upper() + part[1:] for part in algorithm.split("_"))


def generic_estimator(algorithm: str) -> type:
    """The generic estimator class of the registered ``algorithm`` (built once, rebuilt when the
    registration's defaults change).

    Parameters
    ----------
    algorithm : str
        A registered name.

    Returns
    -------
    type
        A subclass of :class:`GenericEstimator` named after the algorithm
        (``"margin_perceptron"``: ``MarginPerceptron``), whose keyword-only parameters are
        those of :data:`COMMON` and the registered ``defaults``, with their defaults.

    Raises
    ------
    ValueError
        An unknown name, or a registered parameter named as one of :data:`COMMON`.

    Examples
    --------
    >>> Estimator = generic_estimator("perceptron")
    >>> Estimator.__name__, sorted(Estimator().get_params())[:3]
    ('Perceptron', ['coef0', 'degree', 'epochs'])
    """
    spec = get(algorithm)
    clash = sorted(set(spec.defaults) & set(COMMON))
    if clash:
        raise ValueError(f"{spec.name!r}: its parameter(s) {', '.join(clash)} are the "
                         "estimators' own; rename them to give it an estimator")
    defaults = {**COMMON, **spec.defaults}
    built = _BUILT.get(spec.name)
    if built is not None and built._defaults == defaults and built._resolve is spec.resolve:
        return built
    name = class_name(spec.name)
    init = _signed(GenericEstimator.__init__, defaults)
    cls = type(name, (GenericEstimator,), {
        "__init__": init, "__module__": __name__, "__qualname__": name,
        "_algorithm": spec.name, "_defaults": defaults, "_resolve": spec.resolve,
        "_accept_sparse": "csr" if takes_sparse(spec) else False,
        "__doc__": f"{spec.summary or spec.name}: the registered algorithm {spec.name!r} "
                   "behind the scikit-learn API (a generic estimator; see OnlineClassifier "
                   f"for the parameters every estimator takes). Its own: "
                   f"{', '.join(spec.defaults) or 'none'}, defaults as registered."})
    _BUILT[spec.name] = cls
    return cls


def takes_sparse(spec) -> bool:
    """Whether the algorithm runs on CSR rows: its ``resolve`` accepts its defaults on two CSR
    rows (an algorithm that reads dense rows only refuses them there, before any work)."""
    data = Data(sp.csr_matrix((2, 1)), np.array([-1.0, 1.0]), np.array([-1, 1]))
    try:
        spec.resolve(dict(spec.defaults), data)
    except (TypeError, ValueError):
        return False
    return True


def _signed(function, defaults: dict):
    """``function`` (self, **params) under the signature (self, *, name=default, ...), which
    scikit-learn reads for ``get_params``."""

    def __init__(self, **params):
        function(self, **params)

    __init__.__signature__ = Signature(
        [Parameter("self", Parameter.POSITIONAL_OR_KEYWORD)]
        + [Parameter(name, Parameter.KEYWORD_ONLY, default=value)
           for name, value in defaults.items()])
    return __init__
