"""The quantities of the first-order and p-norm bounds, on a whole run and on its prefixes.

Each provider is a :class:`~.declaration.Quantities` subclass with two
constructors: ``whole`` (scalars; D1, D2 from a :class:`~.quantities.HingeProfile`,
functions of a vector of gamma) and ``prefixes`` (arrays over the trials at one
gamma: running maxima of the norms, cumulative sums of the hinge losses).

* :class:`FirstOrderQuantities`: R = max ||x_t||, D1, D2, ``min_margin`` =
  min y_t u.x_t and the margin errors, over all trials (stated) or the update
  trials (tightened, theory §4.2); its native multiclass form is Kesler's
  construction (:class:`KeslerQuantities`, theory §4.5).

They are the bases of the theorems' providers: the ``"first_order"`` provider adds
the Ballseptron's ball to them (:mod:`.ballseptron`), the ``"p_norms"`` one measures
in a p-norm (:mod:`.pnorm`), and the other theorem modules subclass them.
"""

from __future__ import annotations

import numpy as np

from .declaration import Quantities
from .multiclass import KESLER_FACTOR, multiclass_margins
from .quantities import HingeProfile, hinge_losses

SCOPES = {False: "all", True: "updates"}


def is_trial(run, trials) -> np.ndarray:
    """Boolean mask over the run's T trials, True at ``trials``."""
    mask = np.zeros(run.n_trials, dtype=bool)
    mask[trials] = True
    return mask


def hinge(margins, gamma) -> np.ndarray:
    """l = max(0, gamma - margin) of each margin y u.x (``hinge_losses`` of the margins)."""
    return hinge_losses(margins[:, None], np.ones(margins.shape[0]), np.ones(1), gamma)


def cumulative_d2(losses) -> np.ndarray:
    """sqrt of the cumulative sums of losses^2, the losses divided by the largest one first so
    that no square underflows or overflows (D2 of every prefix, theory §4)."""
    top = float(np.max(losses, initial=0.0))
    if top == 0.0:
        return np.zeros_like(losses)
    return top * np.sqrt(np.cumsum((losses / top) ** 2))


def at_gamma(values):
    """A quantity of the prefixes at their fixed gamma, read as the function of gamma the
    closed forms call (D1(gamma), D2(gamma), D(gamma))."""
    return lambda gamma: values


def top_margin(profile) -> float:
    """The largest margin of a profile (0 for none): with the radius, the gamma search's end."""
    return float(profile.margins[-1]) if profile.size else 0.0


class FirstOrderQuantities(Quantities):
    """R, D1, D2, min_margin and margin_errors of a binary run (theory §4.1, §4.2).

    Attributes (besides those of :class:`~.declaration.Quantities`): ``R``, ``D1``,
    ``D2`` (functions of gamma), ``min_margin``, ``margin_errors``, ``m``, ``params`` (the
    run's resolved parameters, which the bound of an algorithm registered outside the
    package may read, e.g. ``q.params["tau"]``);
    texts ``which``, ``R_text``, ``r_text``, ``margin_text`` for the conditions' reasons.
    """

    factor = 1.0
    scopes = SCOPES
    which = {False: "every trial", True: "every update trial"}
    R_text, r_text, margin_text = "R", "r", "min y u.x"

    @classmethod
    def margins_of(cls, ctx, comp) -> np.ndarray:
        """The margin of every row of X under the comparator."""
        return ctx.y * comp.values(ctx.X)

    @classmethod
    def used_trials(cls, run):
        """The trials of the tightened variant."""
        return run.update_trials

    @classmethod
    def radius_trials(cls, run):
        """The trials R is taken over in the tightened variant (those of ``used_trials``)."""
        return cls.used_trials(run)

    @classmethod
    def norms_of(cls, ctx) -> np.ndarray:
        return ctx.norms

    @classmethod
    def _rows(cls, ctx, tightened):
        return ctx.run.sample_index[cls.used_trials(ctx.run)] if tightened else ctx.rows_all

    @classmethod
    def _common(cls, ctx, tightened, radius, n_used) -> dict:
        """What every row reports; ``radius`` is max ||x|| over the trials used."""
        return {"R": cls.factor * radius, "trials": cls.scopes[tightened],
                "n_trials_used": n_used}

    @classmethod
    def whole(cls, ctx, comp, tightened):
        run = ctx.run
        rows = cls._rows(ctx, tightened)
        profile = HingeProfile(cls.margins_of(ctx, comp)[rows])
        norms = cls.norms_of(ctx)
        within = ctx.run.sample_index[cls.radius_trials(run)] if tightened else rows
        radius = float(norms[within].max()) if within.shape[0] else 0.0
        return cls(tightened=tightened, params=run.params, margin_errors=run.margin_errors,
                   m=run.mistakes, which=cls.which[tightened],
                   D1=profile.d1, D2=profile.d2, min_margin=profile.min_margin,
                   margins=profile.margins,
                   common=cls._common(ctx, tightened, radius, profile.size),
                   **cls._radius(ctx, cls.factor * radius),
                   scale=max(cls.factor * radius, top_margin(profile)))

    @classmethod
    def _radius(cls, ctx, radius) -> dict:
        return {"R": radius}

    @classmethod
    def prefixes(cls, ctx, comp, gamma, tightened):
        run = ctx.run
        used = is_trial(run, cls.used_trials(run)) if tightened else np.ones(run.n_trials, bool)
        margins = cls.margins_of(ctx, comp)[ctx.rows_all]
        losses = np.where(used, hinge(margins, gamma), 0.0)
        within = is_trial(run, cls.radius_trials(run)) if tightened else used
        radius = np.maximum.accumulate(np.where(within, cls.norms_of(ctx)[ctx.rows_all], 0.0))
        q = cls(tightened=tightened, params=run.params,
                m=np.cumsum(is_trial(run, run.mistake_trials)),
                margin_errors=np.cumsum(is_trial(run, run.margin_error_trials)),
                D1=at_gamma(np.cumsum(losses)), D2=at_gamma(cumulative_d2(losses)),
                min_margin=np.minimum.accumulate(np.where(used, margins, np.inf)),
                **cls._radius(ctx, radius))
        return [(q, slice(None), None)]


class KeslerQuantities(FirstOrderQuantities):
    """The first-order quantities of a native multiclass run through Kesler's construction.

    The update vectors have norm sqrt(2) ||x||, so R = sqrt(2) max ||x_t|| (and a ball's
    radius is sqrt(2) r); the margins are the multiclass margins
    min_{q != y_t} (u^{y_t} - u^q).x_t of K prototypes (theory §4.5, paper 004 sec. 4).
    """

    factor = KESLER_FACTOR
    R_text, r_text = "R = sqrt2 max ||x||", "r' = sqrt2 r"
    margin_text = "min over trials of min_{q != y} (u^y - u^q).x"

    @classmethod
    def margins_of(cls, ctx, comp) -> np.ndarray:
        return multiclass_margins(comp.values(ctx.X), ctx.y)

    @classmethod
    def _common(cls, ctx, tightened, radius, n_used) -> dict:
        return {**super()._common(ctx, tightened, radius, n_used), "max_norm": radius}

    @classmethod
    def prefixes(cls, ctx, comp, gamma, tightened):
        raise ValueError("the prefixes of a native multiclass run are not evaluated")

    def source(self, text: str) -> str:
        return f"004 sec. 4 + Kesler (derived; {text})"
