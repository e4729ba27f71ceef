"""Mistake bounds of the papers, evaluated on an ``OnlineRun`` (theory §4).

* :mod:`.declaration`: a bound as one declaration (:class:`Bound`: name, source,
  label, quantities, conditions, closed form), :func:`register_bound` for a new one,
  :func:`declared` to look one up; an algorithm lists its bounds in its registration;
* closed forms and their declarations, one module per paper: :mod:`.first_order` (001),
  :mod:`.ballseptron` (004), :mod:`.second_order` (003), :mod:`.higher_order` (000),
  :mod:`.pnorm` (the p-norm Perceptron: Grove-Littlestone-Schuurmans, Gentile),
  :mod:`.passive_aggressive` (PA, PA-I, PA-II: Crammer et al. 2006),
  :mod:`.alma` (ALMA_p, derived on the theory page §4.8),
  :mod:`.romma` (ROMMA: Li & Long),
  :mod:`.arow` (AROW, derived),
  :mod:`.projectron` (Projectron and Projectron++, derived),
  :mod:`.forgetron` (the self-tuned Forgetron, derived),
  :mod:`.budget_perceptron` (the Randomized Budget Perceptron, in expectation, derived);
* :mod:`.quantities`: hinge losses, D1/D2/R over sets of trials; :mod:`.providers`:
  the first-order quantities that the theorems' providers build on;
* :mod:`.spectra`: the spectra of the mistakes and lambda* (Second-Order, AROW, selective);
* :mod:`.transformed`: the Higher-Order bound's transformed sequence (and its p-norms);
  the HO transformed hinge loss and c_run are in :mod:`.higher_order`;
* :mod:`.search`: comparators u (target, SVM) and the gamma search;
* :mod:`.multiclass`: multiclass margins and hinge losses, the one-vs-rest sum, the
  native runs' quantities (Kesler's construction, theory §4.5);
* :func:`evaluate` and its :class:`BoundReport` (:class:`MulticlassBoundReport` for a
  one-vs-rest run);
* :func:`bounds_over_time`: each bound on every prefix of a run (:mod:`.over_time`).
"""

import importlib
import pkgutil

from .alma import alma_separable_updates, alma_theorems, alma_updates, step_sums
from .arow import arow_bound, arow_q
from .ballseptron import ballseptron_beta, ballseptron_corrected, ballseptron_d1
from .budget_perceptron import rbp_expected_mistakes
from .declaration import (
    Bound,
    GammaInterval,
    Quantities,
    Requirement,
    declared,
    declared_bounds,
    register_bound,
    register_provider,
)
from .evaluate import evaluate
from .first_order import freund_schapire, novikoff
from .forgetron import forgetron_gamma_min, forgetron_log_inverse, forgetron_mistakes
from .higher_order import higher_order_bound, hop_alpha, hop_c_run, hop_transformed_hinge
from .multiclass import multiclass_hinge_losses, multiclass_margins
from .over_time import BoundCurves, bounds_over_time
from .passive_aggressive import pa1_mistakes, pa2_mistakes, pa_general, pa_separable
from .pnorm import pnorm_d1, pnorm_d2, pnorm_separable
from .projectron import projectron_bound, projectron_d2
from .quantities import (
    HingeProfile,
    RunData,
    hinge_losses,
    run_quantities,
)
from .report import BoundReport, BoundRow, MulticlassBoundReport
from .second_order import (
    second_order_adaptive_bound,
    second_order_bound,
    second_order_pinv_bound,
)
from .selective import selective_perceptron_bound, selective_second_order_bound
from .spectra import mistake_spectrum, span_spectrum
from .transformed import transformed_instances, transformed_margins, transformed_norms

# Every module of the package, those above included: a theorem module declares its bounds
# and providers when imported, so a new one needs no line here (only to export names).
for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
del _module

__all__ = [
    "Bound",
    "GammaInterval",
    "Quantities",
    "Requirement",
    "declared",
    "declared_bounds",
    "register_bound",
    "register_provider",
    "BoundCurves",
    "BoundReport",
    "BoundRow",
    "HingeProfile",
    "MulticlassBoundReport",
    "RunData",
    "alma_separable_updates",
    "alma_theorems",
    "alma_updates",
    "arow_bound",
    "arow_q",
    "ballseptron_beta",
    "ballseptron_corrected",
    "ballseptron_d1",
    "bounds_over_time",
    "evaluate",
    "forgetron_gamma_min",
    "forgetron_log_inverse",
    "forgetron_mistakes",
    "freund_schapire",
    "higher_order_bound",
    "hinge_losses",
    "hop_alpha",
    "hop_c_run",
    "hop_transformed_hinge",
    "mistake_spectrum",
    "multiclass_hinge_losses",
    "multiclass_margins",
    "novikoff",
    "pa1_mistakes",
    "pa2_mistakes",
    "pa_general",
    "pa_separable",
    "pnorm_d1",
    "pnorm_d2",
    "pnorm_separable",
    "projectron_bound",
    "projectron_d2",
    "rbp_expected_mistakes",
    "run_quantities",
    "second_order_adaptive_bound",
    "second_order_bound",
    "second_order_pinv_bound",
    "selective_perceptron_bound",
    "selective_second_order_bound",
    "span_spectrum",
    "step_sums",
    "transformed_instances",
    "transformed_margins",
    "transformed_norms",
]
