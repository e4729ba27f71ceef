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


def _estimators() -> tuple[str, ...]:
    """The estimator classes the registrations name (importing the algorithms registers them)."""
    import importlib

    importlib.import_module(".algorithms", __name__)  # the registrations
    return tuple(importlib.import_module(".registry", __name__).estimator_names())


def __getattr__(name):
    import importlib

    if name == "_ESTIMATORS":
        return _estimators()
    if name == "__all__":
        return ["OnlineRun", "load_run", "run_file", "run_online", *_estimators()]
    if name in _ENTRY_POINTS:
        return getattr(importlib.import_module(f".{_ENTRY_POINTS[name]}", __name__), name)
    if name[:1].isupper() and name in _estimators():
        return getattr(importlib.import_module(".estimators", __name__), name)
    raise AttributeError(f"module 'perceptron_bounds' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *__getattr__("__all__")})
