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

from ..registry import get
from .base import OnlineClassifier
from .budget import Forgetron, Projectron, RandomizedBudgetPerceptron
from .first_order import Ballseptron, KernelPerceptron, Perceptron, PNormPerceptron, VotedPerceptron
from .large_margin import ALMA, AROW, ROMMA, PassiveAggressive
from .second_order import HigherOrderPerceptron, SecondOrderPerceptron
from .selective import SelectivePerceptron, SelectiveSecondOrderPerceptron
from .tracking import ProjectedPerceptron, ShiftingPerceptron

__all__ = [
    "ALMA", "AROW", "Ballseptron", "Forgetron", "HigherOrderPerceptron", "KernelPerceptron",
    "OnlineClassifier", "PNormPerceptron", "PassiveAggressive", "Perceptron",
    "ProjectedPerceptron", "Projectron", "ROMMA", "RandomizedBudgetPerceptron",
    "ShiftingPerceptron",
    "SecondOrderPerceptron", "SelectivePerceptron", "SelectiveSecondOrderPerceptron",
    "VotedPerceptron", "estimator_of",
]



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
