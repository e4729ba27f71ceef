"""Online algorithms of the Perceptron family, one module per family.

Importing this package registers every algorithm with ``run_online``;
:func:`available` lists their names.
"""

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
    ballseptron,  # noqa: F401  (registers "ballseptron")
    higher_order,  # noqa: F401  (registers "higher_order")
    perceptron,  # noqa: F401  (registers "perceptron")
    pnorm,  # noqa: F401  (registers "pnorm_perceptron")
    second_order,  # noqa: F401  (registers "second_order")
    voted,  # noqa: F401  (registers "voted_perceptron")
)
from ._common import FORMS

__all__ = ["FORMS", "Algorithm", "LegendEntry", "LoopResult", "Teaching", "available",
           "check_params", "get", "hypothesis_classes", "register", "register_hypothesis"]
