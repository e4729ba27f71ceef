"""The result of :func:`perceptron_bounds.bounds.evaluate`: one row per bound and variant."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

# Relative slack of the ``holds`` test, for the rounding of the bound's own arithmetic
# (e.g. novikoff(1, 0.1) = 100.00000000000001); far below one mistake.
HOLDS_RTOL = 1e-9


def holds(mistakes: int, value: float) -> bool:
    """mistakes <= value, up to the rounding of the bound's arithmetic (``HOLDS_RTOL``)."""
    return mistakes <= value * (1.0 + HOLDS_RTOL)


@dataclass(frozen=True)
class BoundRow:
    """One bound in one variant, evaluated on a run.

    Attributes
    ----------
    name : str
        ``novikoff``, ``freund_schapire``, ``ballseptron_d1``,
        ``ballseptron_corrected_d2``, ``ballseptron_corrected_d1``,
        ``second_order``, ``second_order_adaptive``, ``second_order_pinv`` or
        ``higher_order``.
    variant : str
        ``"stated"`` (SPEC 4.1) or ``"tightened"`` (SPEC 4.2).
    source : str
        Paper and theorem, e.g. ``"001 Thm 2"``; ``"derived"`` is appended for the
        forms SPEC 4.1 marks so.
    applies : bool
        Whether the theorem's conditions hold for some gamma (or the given one).
    reason : str or None
        Why it does not apply; None when it does.
    value : float or None
        The bound (None when it does not apply).
    gamma : float or None
        The margin used: given, or the minimiser of the search.
    mistakes : int
        The run's mistakes m.
    comparator : str or None
        How u was chosen (``"given"``, ``"target"``, ``"svm C=..."``, ``"kernel svm C=..."``).
    quantities : dict
        The quantities the value was computed from (R, D1, D2, margin_errors, alpha, ...).
    """

    name: str
    variant: str
    source: str
    applies: bool
    reason: str | None
    value: float | None
    gamma: float | None
    mistakes: int
    comparator: str | None = None
    quantities: dict = field(default_factory=dict)

    @property
    def holds(self) -> bool | None:
        """mistakes <= value (None when the bound does not apply)."""
        return holds(self.mistakes, self.value) if self.applies else None

    @property
    def ratio(self) -> float | None:
        """mistakes / value (None when the bound does not apply)."""
        if not self.applies:
            return None
        return self.mistakes / self.value if self.value > 0 else math.inf

    def to_record(self) -> dict:
        """A flat dict: the attributes, ``holds``, ``ratio`` and the quantities.

        The margin :attr:`gamma` is keyed ``margin_gamma``, apart from a kernel's ``gamma``
        (among the run's params, e.g. in :meth:`BoundReport.to_json`).
        """
        record = {
            "name": self.name, "variant": self.variant, "source": self.source,
            "value": self.value, "margin_gamma": self.gamma, "applies": self.applies,
            "reason": self.reason, "mistakes": self.mistakes, "holds": self.holds,
            "ratio": self.ratio, "comparator": self.comparator,
        }
        for key, value in self.quantities.items():
            record.setdefault(key, value)
        return record


@dataclass(frozen=True)
class BoundReport:
    """Every bound that applies to a run's algorithm, held against its mistakes.

    ``str(report)`` is an aligned table; :meth:`to_records` and :meth:`to_json`
    convert it for scripts.
    """

    algorithm: str
    params: dict
    n_trials: int
    mistakes: int
    margin_errors: int
    rows: tuple
    notes: tuple = ()

    def to_records(self) -> list[dict]:
        """One dict per row (see :meth:`BoundRow.to_record`), with the algorithm's name."""
        return [{"algorithm": self.algorithm, **row.to_record()} for row in self.rows]

    def to_json(self, **kwargs) -> str:
        """The report as JSON: algorithm, params, counts, notes and the records."""
        payload = {
            "algorithm": self.algorithm, "params": self.params, "n_trials": self.n_trials,
            "mistakes": self.mistakes, "margin_errors": self.margin_errors,
            "notes": list(self.notes), "bounds": self.to_records(),
        }
        return json.dumps(_jsonable(payload), **kwargs)

    def row(self, name: str, variant: str = "stated") -> BoundRow:
        """The row of bound ``name`` in ``variant``; KeyError if the report has none."""
        for row in self.rows:
            if row.name == name and row.variant == variant:
                return row
        raise KeyError(f"no row {name!r} ({variant}) in the report of {self.algorithm!r}")

    def __str__(self) -> str:
        head = (f"{self.algorithm}: {self.mistakes} mistakes in {self.n_trials} trials"
                + (f", {self.margin_errors} margin errors" if self.margin_errors else ""))
        columns = ("bound", "variant", "value", "gamma", "mistakes/bound", "holds", "source")
        table = [columns]
        for row in self.rows:
            if row.applies:
                cells = (row.name, row.variant, f"{row.value:.6g}", f"{row.gamma:.4g}",
                         f"{row.ratio:.3g}", "yes" if row.holds else "NO", row.source)
            else:
                cells = (row.name, row.variant, "-", "-", "-", "-",
                         f"{row.source}; not applicable: {row.reason}")
            table.append(cells)
        lines = [head, *aligned(table, ragged_last=True)]
        lines.extend(f"note: {note}" for note in self.notes)
        return "\n".join(lines)


def aligned(table, *, ragged_last: bool = False) -> list[str]:
    """Rows of string cells as lines of left-aligned columns (the last one unpadded if asked)."""
    padded = len(table[0]) - (1 if ragged_last else 0)
    widths = [max(len(line[i]) for line in table) for i in range(padded)]
    return ["  ".join([*(cell.ljust(width) for cell, width in zip(line[:padded], widths,
                                                                  strict=True)),
                       *line[padded:]]).rstrip() for line in table]


def _jsonable(value):
    """Replace numpy scalars/arrays, tuples and non-finite floats for ``json.dumps``."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "tolist"):
        return _jsonable(value.tolist())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
