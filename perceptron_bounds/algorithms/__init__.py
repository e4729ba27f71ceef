"""Online algorithms of the Perceptron family, one module per family.

Importing this package registers every algorithm with ``run_online``;
:func:`available` lists their names.
"""

from . import (
    ballseptron,  # noqa: F401  (registers "ballseptron")
    higher_order,  # noqa: F401  (registers "higher_order", "pnorm_perceptron")
    perceptron,  # noqa: F401  (registers "perceptron")
    second_order,  # noqa: F401  (registers "second_order")
    voted,  # noqa: F401  (registers "voted_perceptron")
)
from ._registry import Algorithm, LoopResult, available, get, register

__all__ = ["Algorithm", "LoopResult", "available", "get", "register"]
