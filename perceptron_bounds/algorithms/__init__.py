"""Online algorithms of the Perceptron family, one module per family.

Importing this package imports each of its modules, and so registers every algorithm
with ``run_online`` (a new module needs no line here);
:func:`available` lists their names. A new algorithm registers itself with
:func:`register` from anywhere; its loop is compiled with :func:`jit` (the package's
Numba options) and checks :func:`stop_requested` every :data:`EVERY` trials, so that
Ctrl-C stops it and ``progress=True`` shows a bar (see the docs page "Adding an
algorithm").


A function registered as a hook of :class:`Algorithm` is named after the
field it fills: ``_fit`` (and ``_fit_ovr``, ...) in the algorithm's own
module, ``fit_ovr_<name>`` and ``fit_native_<name>`` in the modules shared by
several algorithms (:mod:`.ovr`, :mod:`.native`).
"""

import importlib
import pkgutil

from .._interrupt import EVERY, stop_requested
from .._jit import jit
from ..registry import (
    Algorithm,
    LoopResult,
    attach,
    attached,
    available,
    check_params,
    get,
    hypothesis_classes,
    register,
    register_hypothesis,
)
from ._common import FORMS

# Every module of the package: the algorithm modules register their algorithms when imported.
for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
del _module

__all__ = ["EVERY", "FORMS", "Algorithm", "LoopResult", "attach", "attached", "available",
           "check_params", "get", "hypothesis_classes", "jit", "register", "register_hypothesis",
           "stop_requested"]
