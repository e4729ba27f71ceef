"""perceptron_bounds: Perceptron-family online learners and their mistake bounds.

The public entry points are :func:`run_online`, which runs any registered
algorithm and returns an :class:`OnlineRun`, :func:`run_file`, the same run over a data
file streamed in chunks (larger than memory), and the scikit-learn estimators. All are
imported when first used, so that ``import perceptron_bounds`` (and a subpackage, such as
the command line's, whose ``--help`` needs neither NumPy nor Numba) stays fast.
"""

from ._version import __version__  # noqa: F401  (the package version)

#: The names the package gives, and the module each is imported from when first used.
_ENTRY_POINTS = {"run_online": "online", "run_file": "streaming", "OnlineRun": "run",
                 "load_run": "run"}

_ESTIMATORS = ("Perceptron", "KernelPerceptron", "VotedPerceptron", "Ballseptron",
               "SecondOrderPerceptron", "HigherOrderPerceptron", "PNormPerceptron",
               "PassiveAggressive", "ALMA", "ROMMA", "AROW", "SelectivePerceptron",
               "SelectiveSecondOrderPerceptron", "Projectron", "Forgetron",
               "RandomizedBudgetPerceptron")

__all__ = ["OnlineRun", "load_run", "run_file", "run_online", *_ESTIMATORS]


def __getattr__(name):
    if name in _ENTRY_POINTS or name in _ESTIMATORS:
        import importlib

        module = importlib.import_module(f".{_ENTRY_POINTS.get(name, 'estimators')}", __name__)
        return getattr(module, name)
    raise AttributeError(f"module 'perceptron_bounds' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *__all__})
