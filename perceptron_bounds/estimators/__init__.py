"""scikit-learn estimators over :func:`perceptron_bounds.run_online`.

Every estimator is a thin layer on :class:`~.base.OnlineClassifier`: ``fit`` makes a
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

import importlib
import pkgutil

from ..registry import estimator_names, get
from .base import OnlineClassifier, estimator_class
from .generic import generic_estimator

# Each module of the package holds estimator classes (a family of algorithms), which
# OnlineClassifier records by name; the registrations name the ones exported.
for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
del _module
globals().update({name: estimator_class(name) for name in estimator_names()})

__all__ = ["OnlineClassifier", *sorted(estimator_names()), "estimator_of"]


def estimator_of(algorithm: str) -> type:
    """The estimator class of a registered algorithm.

    Parameters
    ----------
    algorithm : str
        A registered name (``perceptron_bounds.algorithms.available()``).

    Returns
    -------
    type
        The class named by the registration's ``estimator`` field (its first name: for
        the Perceptron, :class:`Perceptron`; :class:`KernelPerceptron` is its
        kernel-default twin); for an algorithm registered without one (e.g. from
        outside the package), a generic estimator whose parameters are its registered
        defaults (``generic.generic_estimator``).

    Raises
    ------
    ValueError
        An unknown name.

    Examples
    --------
    >>> estimator_of("second_order").__name__
    'SecondOrderPerceptron'
    """
    spec = get(algorithm)
    if spec.estimator is None:
        return generic_estimator(spec.name)
    return estimator_class(spec.estimator if isinstance(spec.estimator, str)
                           else spec.estimator[0])
