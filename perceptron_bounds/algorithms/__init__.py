"""Online algorithms of the Perceptron family, one module per family.

Importing this package registers every algorithm with ``run_online``;
:func:`available` lists their names.
"""

from . import perceptron  # noqa: F401  (registers "perceptron")
from ._registry import Algorithm, LoopResult, available, get, register

__all__ = ["Algorithm", "LoopResult", "available", "get", "register"]
