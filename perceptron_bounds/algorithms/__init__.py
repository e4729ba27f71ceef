"""Online algorithms of the Perceptron family, one module per family.

Importing this package registers every algorithm with ``run_online``;
:func:`available` lists their names.

A function registered as a hook of :class:`Algorithm` is named after the
field it fills: ``_fit`` (and ``_fit_ovr``, ...) in the algorithm's own
module, ``fit_ovr_<name>`` and ``fit_native_<name>`` in the modules shared by
several algorithms (:mod:`.ovr`, :mod:`.native`).
"""

from ..registry import Algorithm, LoopResult, available, get, register
from . import (
    ballseptron,  # noqa: F401  (registers "ballseptron")
    higher_order,  # noqa: F401  (registers "higher_order")
    perceptron,  # noqa: F401  (registers "perceptron")
    pnorm,  # noqa: F401  (registers "pnorm")
    second_order,  # noqa: F401  (registers "second_order")
    voted,  # noqa: F401  (registers "voted_perceptron")
)
from ._common import FORMS

__all__ = ["FORMS", "Algorithm", "LoopResult", "available", "get", "register"]
