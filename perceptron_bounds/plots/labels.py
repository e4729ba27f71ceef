"""The words of the plots: how a run, a curve of a figure and a bound are named.

What is particular to an algorithm (its display name, the parameters a label
shows, how a legend spells it out) is read from its presentation record
(:class:`~perceptron_bounds.plots.presentation.Presentation`, attached beside its
registration); nothing here tests an algorithm's name.
"""

from __future__ import annotations

from ..algorithms import Algorithm, get
from ..bounds import declared, declared_bounds
from .presentation import LegendEntry, presentation


def display_name(algorithm: Algorithm) -> str:
    """The name a figure shows for ``algorithm``: its presentation's ``display_name``, else its
    ``name``."""
    return presentation(algorithm.name).display_name or algorithm.name


def label_params(algorithm: Algorithm, params: dict) -> list[str]:
    """The parameters a label shows for a run with the resolved ``params``.

    Those its presentation declares (``label_params``), then the kernel's of a
    kernel run: ``kernel`` and ``gamma``, with ``degree`` and ``coef0`` for
    the polynomial kernel.
    """
    shown = presentation(algorithm.name).label_params
    shown = list(shown(params) if callable(shown) else shown)
    kernel = params.get("kernel", "linear")
    if kernel != "linear":
        shown += ["kernel", "gamma"] + (["degree", "coef0"] if kernel == "poly" else [])
    return shown


def format_params(params: dict, keys) -> str:
    """``"p = 2, c = 0.4"``: the ``keys`` of ``params``, floats in the shortest form (``:g``)."""
    return ", ".join(f"{key} = {params[key]:g}" if isinstance(params[key], float)
                     else f"{key} = {params[key]}" for key in keys)


def run_label(run) -> str:
    """``"Ballseptron (r = 0.1)"``: a run's algorithm and the parameters that set it apart."""
    algorithm = get(run.algorithm)
    values = format_params(run.params, label_params(algorithm, run.params))
    name = display_name(algorithm)
    return f"{name} ({values})" if values else name


def legend_entry(algorithm: str, params: dict) -> LegendEntry:
    """How a figure's legend spells out a run of ``algorithm`` with the resolved ``params``.

    Its presentation's ``legend``, or by default its display name followed by
    the parameters of :func:`label_params`. Parameters not given take the
    algorithm's defaults.

    Examples
    --------
    >>> legend_entry("second_order", {"a": 0.2, "variant": "inverse"}).text
    'Second-Order Perceptron, a = 0.2'
    """
    registration = get(algorithm)
    params = {**registration.defaults, **params}
    entry = presentation(registration.name).legend_entry(params)
    if entry is not None:
        return entry
    values = format_params(params, label_params(registration, params))
    return LegendEntry(", ".join(filter(None, [display_name(registration), values])))


def bound_label(name: str) -> str:
    """A bound's legend: the ``label`` of its declaration
    (:class:`~perceptron_bounds.bounds.Bound`, e.g. its name and closed form, theory §4.1);
    other names as they are.

    Examples
    --------
    >>> bound_label("higher_order")
    'higher_order (HO, Thm 1)'
    """
    return declared(name).label if name in declared_bounds() else name
