"""The mistake bound of ROMMA and aggressive ROMMA (Li & Long, NIPS 1999, Thms 3 and 5).

Li & Long's Theorem 3: if y_t u.x_t >= 1 for every trial, ROMMA makes at most
R^2 ||u||^2 mistakes, R = max ||x_t||. With u' = gamma u unit (theory §4.7)
this is Novikoff's (R / gamma)^2 for a unit u' separating with margin gamma,
so the closed form is :func:`~.first_order.novikoff`'s; the declaration is
ROMMA's own only to cite Li & Long. For aggressive ROMMA the same bound on
the mistakes follows from the proof of Theorem 3 (Theorem 5 at delta = 1
counts only the trials with y_t w_t.x_t < 0; theory §4.7 proves the bound for
y_t w_t.x_t <= 0). The proof uses the separation on the update trials only
(the constraints ROMMA imposes) and R on the mistaken ones, which is the
tightened variant (provider ``"mistake_radius"``, theory §4.2, §4.7).

References
----------
Y. Li and P. M. Long, "The relaxed online maximum margin algorithm", NIPS 12
(1999), Theorems 3 and 5.
"""

from __future__ import annotations

from .declaration import Bound, register_bound, register_provider
from .first_order import SEPARATION, euclidean, novikoff
from .providers import FirstOrderQuantities


class MistakeRadiusQuantities(FirstOrderQuantities):
    """The first-order quantities with R over the mistaken trials in the tightened variant
    (the separation and the losses still over the update trials; theory §4.7)."""

    scopes = {False: "all", True: "updates (R: mistakes)"}

    @classmethod
    def radius_trials(cls, run):
        return run.mistake_trials


register_provider("mistake_radius", MistakeRadiusQuantities)


def _source(q) -> str:
    """Thm 3 for ROMMA; the proof of Thm 3 (theory §4.7) for aggressive ROMMA."""
    return ("Li & Long Thm 3 proof (aggressive, theory §4.7)" if q.params.get("aggressive")
            else "Li & Long Thm 3")


ROMMA_BOUND = register_bound(Bound(
    name="romma", label=r"romma $(R/\gamma)^2$ (Li & Long)", source=_source,
    value=lambda q, gamma: novikoff(q.R, gamma), quantities=("R", "min_margin"),
    conditions=(SEPARATION,), theory="§4.7", provider="mistake_radius", applies=euclidean))
