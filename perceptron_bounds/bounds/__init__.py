"""Mistake bounds of the papers, evaluated on an ``OnlineRun`` (SPEC sec. 4).

* closed forms, one module per paper: :mod:`.first_order` (001),
  :mod:`.ballseptron` (004), :mod:`.second_order` (003), :mod:`.higher_order` (000);
* :mod:`.quantities`: hinge losses, D1/D2/R over sets of trials, the HO transformed
  hinge loss and c_run, spectra, lambda*;
* :mod:`.search`: comparators u (target, SVM) and the gamma search;
* :func:`evaluate` and its :class:`BoundReport`.
"""

from .ballseptron import ballseptron_beta, ballseptron_corrected, ballseptron_d1
from .evaluate import evaluate
from .first_order import freund_schapire, novikoff
from .higher_order import higher_order, hop_alpha
from .quantities import (
    HingeProfile,
    RunData,
    hinge_losses,
    hop_c_run,
    hop_transformed_hinge,
    mistake_spectrum,
    run_quantities,
    span_spectrum,
)
from .report import BoundReport, BoundRow
from .second_order import second_order, second_order_adaptive, second_order_pinv

__all__ = [
    "BoundReport",
    "BoundRow",
    "HingeProfile",
    "RunData",
    "ballseptron_beta",
    "ballseptron_corrected",
    "ballseptron_d1",
    "evaluate",
    "freund_schapire",
    "higher_order",
    "hinge_losses",
    "hop_alpha",
    "hop_c_run",
    "hop_transformed_hinge",
    "mistake_spectrum",
    "novikoff",
    "run_quantities",
    "second_order",
    "second_order_adaptive",
    "second_order_pinv",
    "span_spectrum",
]
