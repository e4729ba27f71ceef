"""How figures name and decorate the runs of an algorithm: its presentation record.

The plots own this record; an algorithm attaches its fields beside its registration,
``registry.attach(name, "presentation", display_name=..., ...)`` (the algorithm modules
of the package, which sit below the plots), or with :func:`register_presentation` (from
outside the package). An algorithm without one is drawn under its name, undecorated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields

from ..registry import attach, attached, get

KIND = "presentation"


@dataclass(frozen=True)
class LegendEntry:
    """How a figure's legend spells out a run, after the curve's label (``Presentation.legend``).

    Attributes
    ----------
    text : str
        What the run is, e.g. ``"Second-Order Perceptron, a = 0.2"``.
    dashed : bool, default=False
        Draw the curve dashed: a special case of an algorithm drawn beside it
        (the p-norm Perceptron, the Higher-Order Perceptron HO_p(0) of paper 000).
    notation : str, optional
        A note for the legend's title that explains the curves' short names
        (e.g. HO_p(c)); given once however many curves share it.
    """

    text: str
    dashed: bool = False
    notation: str | None = None


@dataclass(frozen=True)
class Teaching:
    """How the teaching panels decorate a run on 2-D data (``Presentation.teaching``).

    The ball of a margin-error algorithm is drawn from ``Algorithm.ball``.

    Attributes
    ----------
    matrix : callable (params: dict) -> str, optional
        The name, in mathtext, of the matrix ``Snapshot.matrix`` drawn as an
        ellipse (e.g. ``"$A_k = a I + X_k X_k^T$"``, theory §2.4) for the
        resolved ``params``; None: ``"$A_k$"``. The ellipse is drawn whenever
        the snapshots hold a matrix (``Algorithm.matrix``).
    band : bool, default=True
        Shade the comparator's margin band |u . x| < gamma in the plane of the
        instances. False where the algorithm's bounds measure gamma on
        transformed instances (the Higher-Order Perceptron, theory §4.1).
    update_note : callable (run, trial: int) -> str, optional
        What the update at ``trial`` (one of ``run.update_trials``) did, added to the
        panel's title after "a mistake" or "a margin error" (the Projectron's "added
        as a support" or "projected", theory §2.13); None: nothing added.
    supports : bool, default=False
        Draw the hypothesis' support vectors, each as opaque as its coefficient
        is large (|coef| / max |coef|), and cross the ones an update removed:
        a budget at work (the Forgetron's fading coefficients, theory §2.11).
    """

    matrix: Callable | None = None
    band: bool = True
    update_note: Callable | None = None
    supports: bool = False


@dataclass(frozen=True)
class Presentation:
    """How figures name and decorate the runs of one algorithm.

    Attributes
    ----------
    display_name : str, optional
        The name shown in figures' titles and legends (``"Second-Order
        Perceptron"``); default the algorithm's ``name``.
    label_params : sequence of str, or callable (params: dict) -> sequence of str, optional
        The parameters a label shows after the display name, e.g. the
        Ballseptron's ``("r",)``; a callable picks them from the resolved
        parameters (the Second-Order ``variant`` decides between ``a`` and
        ``c``). Default none. The plots add the kernel's parameters of a
        kernel run.
    legend : callable (params: dict) -> LegendEntry, str or dict, optional
        How a figure's legend spells out a run with the resolved ``params`` (the
        papers' short names FO, SO(a), HO_p(c) are labels that need it): a
        :class:`LegendEntry`, its text, or a dict of its fields (what a module
        below the plots can build); default the display name and the ``label_params``.
    margin_error : (str, str), optional
        What makes a margin error, in mathtext for legends: the condition on a
        binary trial and on a native multiclass trial (the Ballseptron's,
        theory §2.3, §2.6). None (default): the algorithm makes none.
    teaching : Teaching or dict, optional
        How the teaching panels decorate a run (the ellipse of a matrix, the margin
        band, a note on each update, the supports); a dict of :class:`Teaching`'s
        fields is read as one. Default no decorations, the band shaded.
    """

    display_name: str = ""
    label_params: tuple | Callable = ()
    legend: Callable | None = None
    margin_error: tuple[str, str] | None = None
    teaching: Teaching = Teaching()

    def __post_init__(self):
        if isinstance(self.teaching, dict):
            object.__setattr__(self, "teaching", Teaching(**self.teaching))
        if not isinstance(self.teaching, Teaching):
            raise TypeError(f"teaching must be a Teaching or a dict of its fields, got "
                            f"{self.teaching!r}")

    def legend_entry(self, params: dict) -> LegendEntry | None:
        """The registered ``legend`` of a run with the resolved ``params``, as a
        :class:`LegendEntry` (None without one)."""
        if self.legend is None:
            return None
        entry = self.legend(params)
        if isinstance(entry, dict):
            return LegendEntry(**entry)
        return entry if isinstance(entry, LegendEntry) else LegendEntry(str(entry))


_FIELDS = frozenset(field.name for field in fields(Presentation))


def register_presentation(name: str, **values) -> Presentation:
    """Attach to the registered algorithm ``name`` how figures name and decorate its runs.

    Parameters
    ----------
    name : str
        A registered algorithm's name.
    **values
        Fields of :class:`Presentation`, checked here.

    Returns
    -------
    Presentation

    See ``examples/adding_an_algorithm.py``.
    """
    get(name)
    record = Presentation(**values)  # a TypeError names an unknown field
    attach(name, KIND, **values)
    return record


def presentation(name: str) -> Presentation:
    """The presentation of the registered algorithm ``name`` (empty when none is attached).

    A ``TypeError`` names the fields attached that a :class:`Presentation` does not hold.

    Examples
    --------
    >>> presentation("ballseptron").label_params
    ('r',)
    """
    values = attached(get(name).name, KIND)
    unknown = sorted(set(values) - _FIELDS)
    if unknown:
        raise TypeError(f"the presentation of {name!r} has unknown field(s) "
                        f"{', '.join(unknown)}; it takes: {', '.join(sorted(_FIELDS))}")
    return Presentation(**values)
