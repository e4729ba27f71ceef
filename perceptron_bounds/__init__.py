"""perceptron_bounds: Perceptron-family online learners and their mistake bounds.

The public entry points are :func:`run_online`, which runs any registered
algorithm and returns an :class:`OnlineRun`, and the scikit-learn estimators
(imported lazily, so that ``import perceptron_bounds`` stays fast).
"""

from ._version import __version__  # noqa: F401  (the package version)
from .online import run_online
from .run import OnlineRun, load_run

_ESTIMATORS = ("Perceptron", "KernelPerceptron", "VotedPerceptron", "Ballseptron",
               "SecondOrderPerceptron", "HigherOrderPerceptron", "PNormPerceptron",
               "PassiveAggressive", "ALMA", "ROMMA", "AROW", "SelectivePerceptron",
               "SelectiveSecondOrderPerceptron", "Projectron", "Forgetron",
               "RandomizedBudgetPerceptron", "ShiftingPerceptron", "ProjectedPerceptron")

__all__ = ["OnlineRun", "load_run", "run_online", *_ESTIMATORS]


def __getattr__(name):
    if name in _ESTIMATORS:
        from . import estimators

        return getattr(estimators, name)
    raise AttributeError(f"module 'perceptron_bounds' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *__all__})
