"""A mistake bound as one declaration, evaluated alike on a whole run and on its prefixes.

A :class:`Bound` holds a bound's name, source, label, the quantities it reads, its
conditions and its closed form. :func:`~perceptron_bounds.bounds.evaluate` and
:func:`~perceptron_bounds.bounds.bounds_over_time` read the same declaration:

* on the whole run the quantities are scalars (R, the margin errors, the
  smallest margin, ...) and gamma is a vector of candidates of the gamma search
  (theory §4.3); D1 and D2 are functions of gamma (a
  :class:`~.quantities.HingeProfile`);
* on every prefix of the trials (trials 1..t) the quantities are arrays over t and
  gamma is one number; D1 and D2 are cumulative sums of the hinge losses.

So the closed form, written with NumPy broadcasting, gives both. A
:class:`Quantities` provider computes the quantities from a run, a comparator and
the variant (``"stated"``: over all trials, theory §4.1; ``"tightened"``: over the
trials the proof uses, theory §4.2); a bound names its provider (``"first_order"``
by default: R, D1, D2, min_margin, margin_errors, r, m over the trials).

An algorithm lists the names of its bounds in its registration
(``Algorithm.bounds``, ``Algorithm.native_bounds``); a bound's ``applies`` selector
may leave it out of a run by the run's parameters.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .._validation import did_you_mean
from ..registry import get as get_algorithm


def _text(value, q) -> str:
    """A text: itself, or a callable of the quantities ``q``."""
    return value(q) if callable(value) else value


def _resolve(value, q):
    """``value`` read off the quantities ``q``: a quantity's name, a callable of q, or a number."""
    if isinstance(value, str):
        return getattr(q, value)
    return value(q) if callable(value) else value


@dataclass(frozen=True)
class GammaInterval:
    """A condition on the margin: low < gamma <= high.

    Parameters
    ----------
    text : str or callable (q) -> str
        The condition in words, reported when it fails (e.g.
        ``"gamma <= R = 1.5"``).
    low, high : float, str or callable (q) -> value, default 0 and inf
        The ends: a number, the name of a quantity (``"R"``, ``"min_margin"``) or
        a function of the quantities ``q``. Scalars on a whole run, arrays over
        the trials on its prefixes.
    when : callable (q) -> bool or ndarray, optional
        Where the condition is in force (e.g. only on a Ballseptron run, only for
        the stated variant); always when None.
    """

    text: str | Callable
    low: float | str | Callable = 0.0
    high: float | str | Callable = np.inf
    when: Callable | None = None

    def active(self, q):
        """Whether the condition is in force for the quantities ``q`` (bool or array)."""
        return True if self.when is None else self.when(q)

    def ends(self, q):
        """(low, high) for the quantities ``q``."""
        return _resolve(self.low, q), _resolve(self.high, q)

    def describe(self, q) -> str:
        """The condition's text for the quantities ``q``."""
        return _text(self.text, q)

    def holds(self, q, gamma):
        """True where the condition is not in force or low < gamma <= high."""
        low, high = self.ends(q)
        return np.logical_not(self.active(q)) | ((low < gamma) & (gamma <= high))


@dataclass(frozen=True)
class Requirement:
    """A condition that does not depend on gamma (unit instances, a step-size rule, ...).

    Parameters
    ----------
    holds : callable (q) -> bool or ndarray
        Whether it holds for the quantities ``q`` (per prefix on the prefixes).
    reason : str or callable (q) -> str
        Why the bound does not apply when it fails on the whole run.
    """

    holds: Callable
    reason: str | Callable

    def describe(self, q) -> str:
        """The reason for the quantities ``q``."""
        return _text(self.reason, q)


@dataclass(frozen=True)
class Bound:
    """A mistake bound: one declaration read by ``evaluate`` and ``bounds_over_time``.

    Parameters
    ----------
    name : str
        The report name (``BoundRow.name``, the key of ``BoundCurves``).
    source : str or callable (q) -> str
        Paper and theorem as reported (e.g. ``"001 Thm 2"``); a function of the
        quantities when it depends on the run (a Ballseptron run cites 004).
        ``" + theory §4.2"`` is appended for the tightened variant.
    value : callable (q, gamma) -> ndarray
        The closed form, from the quantities ``q`` (attributes named as in
        ``quantities``; D1, D2 and D are functions of gamma) and gamma, with NumPy
        broadcasting: ``q.tightened`` says which variant is asked for.
    quantities : tuple of str, default=()
        The quantities it reads, reported with its value in ``BoundRow.quantities``
        (array quantities, such as a spectrum, are read but not reported).
    conditions : tuple of GammaInterval or Requirement, default=()
        Where it holds; on the whole run the first failing one is the reason
        reported, on the prefixes the curve is ``inf`` where one fails.
    label : str, optional
        Its legend in plots and tables (default: ``name``).
    theory : str, default="§4.1"
        Its section of the theory page (docs/theory.md).
    provider : str, default="first_order"
        The :class:`Quantities` provider of its quantities (:func:`register_provider`).
    applies : callable (params: dict) -> bool, optional
        Whether it applies to a run with these parameters (e.g. the Second-Order
        variant's bound); always when None.
    expectation : bool, default=False
        It bounds the *expected* mistakes over the algorithm's draws (a randomized
        algorithm, ``Algorithm.randomized``; e.g. selective sampling, theory §4.13),
        and its quantities may be random too: the bound is the expectation of its
        value. Reports say "in expectation over the draws"; one run's mistakes may
        exceed it, the mean over runs of several seeds
        (``evaluate([run, ...], X, y)``) estimates both sides.

    Examples
    --------
    >>> from perceptron_bounds.bounds import Bound, GammaInterval
    >>> bound = Bound(name="half_novikoff", source="my note",
    ...               value=lambda q, gamma: 0.5 * (q.R / gamma) ** 2,
    ...               quantities=("R", "min_margin"),
    ...               conditions=(GammaInterval("gamma <= min y u.x", high="min_margin"),))
    >>> bound.label
    'half_novikoff'
    """

    name: str
    source: str | Callable
    value: Callable
    quantities: tuple = ()
    conditions: tuple = ()
    label: str | None = None
    theory: str = "§4.1"
    provider: str = "first_order"
    applies: Callable | None = None
    expectation: bool = False

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"name must be a non-empty str, got {self.name!r}")
        if not callable(self.value):
            raise TypeError(f"value must be a callable (q, gamma) -> bound, got {self.value!r}")
        for condition in self.conditions:
            if not isinstance(condition, (GammaInterval, Requirement)):
                raise TypeError(f"conditions must hold GammaInterval or Requirement, got "
                                f"{condition!r}")
        if not isinstance(self.expectation, bool):
            raise TypeError(f"expectation must be a bool, got {self.expectation!r}")
        object.__setattr__(self, "quantities", tuple(self.quantities))
        object.__setattr__(self, "conditions", tuple(self.conditions))
        if self.label is None:
            object.__setattr__(self, "label", self.name)

    def cites(self, q) -> str:
        """The source for the quantities ``q``."""
        return _text(self.source, q)

    def selected(self, params) -> bool:
        """Whether it applies to a run with the parameters ``params``."""
        return self.applies is None or bool(self.applies(params))


class Quantities:
    """The quantities a provider hands its bounds, as attributes (base class of the providers).

    A provider is a subclass with two constructors: :meth:`whole` (the whole run:
    scalars, D1/D2 functions of a vector of gamma) and :meth:`prefixes` (every
    prefix at one gamma: arrays over the trials). Both set ``tightened``; the
    whole run also ``margins`` (sorted, the gamma search's candidates), ``scale``
    (the search's upper end) and ``common`` (what every row reports).
    """

    failure = None
    leading = ()

    @classmethod
    def norm_exponent(cls, run) -> float:
        """p of the norm ||.||_p its theorems measure the instances of ``run`` in (comparators
        in the dual norm, q = p / (p - 1), theory §4.1): 2 here; the p-norm providers override
        it."""
        return 2.0

    def __init__(self, **values):
        self.__dict__.update(values)

    @classmethod
    def whole(cls, ctx, comp, tightened):
        """The quantities of the whole run ``ctx`` under the comparator ``comp``."""
        raise NotImplementedError

    @classmethod
    def prefixes(cls, ctx, comp, gamma, tightened):
        """A list of (quantities, at, take): the curve is ``value[take]`` (all of it when
        ``take`` is None) on the trials ``at``."""
        raise NotImplementedError

    @classmethod
    def memory(cls, run, sparse) -> list:
        """(count, rows, cols, what) of the dense matrices the quantities hold."""
        return []

    def source(self, text: str) -> str:
        """The source as reported (a reduction may name itself)."""
        return text

    def value_of(self, name, gamma):
        """The quantity ``name`` at the margin ``gamma`` (a function of gamma is called)."""
        value = getattr(self, name)
        return float(value(gamma)) if callable(value) else value

    def report(self, bound, gamma) -> dict:
        """``BoundRow.quantities`` of ``bound`` at ``gamma``."""
        out = {name: self.value_of(name, gamma) for name in self.leading}
        out.update(self.common)
        for name in bound.quantities:
            if name not in out:
                value = self.value_of(name, gamma)
                if np.ndim(value) == 0:
                    out[name] = value
        return out


_BOUNDS: dict[str, Bound] = {}
PROVIDERS: dict[str, tuple] = {}


def register_bound(bound: Bound) -> Bound:
    """Declare ``bound`` under its name, for the algorithms that list it (names are unique).

    Parameters
    ----------
    bound : Bound

    Returns
    -------
    Bound
        ``bound`` itself.
    """
    if not isinstance(bound, Bound):
        raise TypeError(f"bound must be a Bound, got {type(bound).__name__}")
    if bound.name in _BOUNDS:
        raise ValueError(f"a bound named {bound.name!r} is already declared")
    _BOUNDS[bound.name] = bound
    return bound


def register_provider(key: str, binary, native=None) -> None:
    """Register the :class:`Quantities` providers of ``key``: for binary runs, and for
    native multiclass runs (a reduction such as Kesler's construction) or None."""
    PROVIDERS[key] = (binary, native)


def declared(name) -> Bound:
    """The bound declared as ``name``; ``ValueError`` naming the choices otherwise.

    Examples
    --------
    >>> declared("ballseptron_d1").theory
    '§4.1'
    """
    if not isinstance(name, str) or name not in _BOUNDS:
        raise ValueError(f"bound must be one of {', '.join(declared_bounds())}; got {name!r}"
                         + did_you_mean(name, declared_bounds()))
    return _BOUNDS[name]


def declared_bounds() -> list[str]:
    """Names of the declared bounds, sorted."""
    return sorted(_BOUNDS)


def provider_of(bound: Bound, native: bool = False):
    """The :class:`Quantities` subclass that provides ``bound``'s quantities."""
    if bound.provider not in PROVIDERS:
        raise ValueError(f"bound {bound.name!r}: no quantities provider {bound.provider!r}")
    found = PROVIDERS[bound.provider][1 if native else 0]
    if found is None:
        raise ValueError(f"bound {bound.name!r}: its provider {bound.provider!r} has no "
                         "native multiclass form")
    return found


def bounds_of(run) -> list[Bound]:
    """The declared bounds of ``run``: its algorithm's (native) bounds that apply to its params."""
    spec = get_algorithm(run.algorithm)
    names = spec.native_bounds if run.multiclass == "native" else spec.bounds
    return [bound for bound in map(declared, names) if bound.selected(run.params)]


def norm_exponent(run) -> float:
    """p of the norm the bounds of ``run`` measure its instances in (``Quantities.norm_exponent``
    of their providers; 2 when it has none): the search scales comparators to unit dual norm.

    A ``ValueError`` when two of its bounds' providers disagree (a declaration error).
    """
    native = run.multiclass == "native"
    found = {provider_of(bound, native).norm_exponent(run) for bound in bounds_of(run)}
    if len(found) > 1:
        raise ValueError(f"the bounds of {run.algorithm!r} measure its instances in different "
                         f"norms (p = {sorted(found)}): declare them with one provider's norm")
    return found.pop() if found else 2.0


def by_provider(bounds) -> list[list[Bound]]:
    """``bounds`` grouped by provider, in order of first appearance."""
    groups: dict[str, list[Bound]] = {}
    for bound in bounds:
        groups.setdefault(bound.provider, []).append(bound)
    return list(groups.values())
