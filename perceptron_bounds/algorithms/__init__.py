"""Online algorithms of the Perceptron family, one module per family.

Importing this package registers every algorithm with ``run_online``;
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

from .._interrupt import EVERY, stop_requested
from .._jit import jit
from ..registry import (
    Algorithm,
    LegendEntry,
    LoopResult,
    Teaching,
    available,
    check_params,
    get,
    hypothesis_classes,
    register,
    register_hypothesis,
)
from . import (
    alma,  # noqa: F401  (registers "alma")
    arow,  # noqa: F401  (registers "arow")
    ballseptron,  # noqa: F401  (registers "ballseptron")
    budget_perceptron,  # noqa: F401  (registers "randomized_budget_perceptron")
    forgetron,  # noqa: F401  (registers "forgetron")
    higher_order,  # noqa: F401  (registers "higher_order")
    passive_aggressive,  # noqa: F401  (registers "passive_aggressive")
    perceptron,  # noqa: F401  (registers "perceptron")
    pnorm,  # noqa: F401  (registers "pnorm")
    projected_perceptron,  # noqa: F401  (registers "projected_perceptron")
    projectron,  # noqa: F401  (registers "projectron")
    romma,  # noqa: F401  (registers "romma")
    second_order,  # noqa: F401  (registers "second_order")
    shifting_perceptron,  # noqa: F401  (registers "shifting_perceptron")
    selective,  # noqa: F401  (registers "selective_perceptron", "selective_second_order")
    voted,  # noqa: F401  (registers "voted_perceptron")
)
from ._common import FORMS

__all__ = ["EVERY", "FORMS", "Algorithm", "LegendEntry", "LoopResult", "Teaching", "available",
           "check_params", "get", "hypothesis_classes", "jit", "register", "register_hypothesis",
           "stop_requested"]
