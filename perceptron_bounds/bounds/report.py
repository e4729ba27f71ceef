"""The result of :func:`perceptron_bounds.bounds.evaluate`: one row per bound and variant.

A binary or native multiclass run gets a :class:`BoundReport`; a one-vs-rest
run a :class:`MulticlassBoundReport`, one report per class and their sums.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

# Relative slack of the ``holds`` test, for the rounding of the bound's own arithmetic
# (e.g. novikoff(1, 0.1) = 100.00000000000001); far below one mistake.
HOLDS_RTOL = 1e-9


#: A bound in expectation held against the mean of several draws is exceeded only when
#: the mean passes it by more than this many standard errors (of the mean excess,
#: mistakes minus bound, over the draws); within them the excess is sampling error.
EXPECTATION_SIGMAS = 3.0


def holds(mistakes: int, value: float) -> bool:
    """mistakes <= value, up to the rounding of the bound's arithmetic (``HOLDS_RTOL``)."""
    return mistakes <= value * (1.0 + HOLDS_RTOL)


def holds_text(row) -> str:
    """The holds column of a printed report: ``yes``, ``NO`` (a violated bound), ``within
    sampling error`` (a bound in expectation whose mean over the draws passes it by at most
    ``EXPECTATION_SIGMAS`` standard errors), ``above, one draw`` (a bound in expectation
    that one draw exceeds: a bound on the mean is not held against one draw)."""
    if row.holds is None:
        return "above, one draw"
    if not row.holds:
        return "NO"
    return "within sampling error" if row.within_error else "yes"


@dataclass(frozen=True)
class BoundRow:
    """One bound in one variant, evaluated on a run.

    Attributes
    ----------
    name : str
        ``novikoff``, ``freund_schapire``, ``ballseptron_d1``,
        ``ballseptron_corrected_d2``, ``ballseptron_corrected_d1``,
        ``second_order``, ``second_order_adaptive``, ``second_order_pinv`` or
        ``higher_order``; in a one-vs-rest sum also ``smallest_per_class``.
    variant : str
        ``"stated"`` (theory §4.1) or ``"tightened"`` (theory §4.2); ``"any"`` for
        ``smallest_per_class``.
    source : str
        Paper and theorem, e.g. ``"001 Thm 2"``; ``"derived"`` is appended for the
        forms the theory page marks so (theory §4.1, §4.5).
    applies : bool
        Whether the theorem's conditions hold for some gamma (or the given one).
    reason : str or None
        Why it does not apply; None when it does.
    value : float or None
        The bound (None when it does not apply).
    gamma : float or None
        The margin used: given, or the minimiser of the search.
    mistakes : int or float
        The run's mistakes m; the mean over the runs of a report on several runs
        (``evaluate([run, ...], X, y)``).
    comparator : str or None
        How u was chosen (``"given"``, ``"target"``, ``"svm C=..."``, ``"kernel svm C=..."``,
        ``"crammer-singer svm C=..."``, ``"per class"`` for a one-vs-rest sum).
    quantities : dict
        The quantities the value was computed from (R, D1, D2, margin_errors, alpha, ...).
    expectation : bool, default=False
        The bound holds for the mistakes in expectation over the algorithm's draws
        (``Bound.expectation``, theory §4.13): printed "in expectation over the draws".
    draws : tuple of float, default=()
        For a report on several draws (``evaluate([run, ...], X, y)``): each draw's mistakes
        minus its bound, at this row's comparator and gamma, whose mean is ``mistakes -
        value`` and whose spread gives :attr:`stderr`; empty for one run.
    """

    name: str
    variant: str
    source: str
    applies: bool
    reason: str | None
    value: float | None
    gamma: float | None
    mistakes: int | float
    comparator: str | None = None
    quantities: dict = field(default_factory=dict)
    expectation: bool = False
    draws: tuple = ()

    @property
    def n_draws(self) -> int:
        """The number of draws (runs of different seeds) ``mistakes`` is the mean of."""
        return max(1, len(self.draws))

    @property
    def stderr(self) -> float | None:
        """The standard error of the mean excess (mistakes minus bound) over the draws,
        std / sqrt(n_draws) with the sample standard deviation; None for one run."""
        n = len(self.draws)
        if n < 2:
            return None
        mean = math.fsum(self.draws) / n
        return math.sqrt(math.fsum((d - mean) ** 2 for d in self.draws) / (n - 1) / n)

    @property
    def within_error(self) -> bool:
        """A bound in expectation that the mean over the draws exceeds by at most
        ``EXPECTATION_SIGMAS`` standard errors: not a violation, sampling error."""
        return bool(self.applies and self.expectation and self.stderr is not None
                    and not holds(self.mistakes, self.value)
                    and self.mistakes <= self.value * (1.0 + HOLDS_RTOL)
                    + EXPECTATION_SIGMAS * self.stderr)

    @property
    def cited(self) -> str:
        """The source as printed: with "in expectation over the draws" for such a bound."""
        return self.source + ("; in expectation over the draws" if self.expectation else "")

    @property
    def holds(self) -> bool | None:
        """mistakes <= value (None when the bound does not apply).

        A bound in expectation (theory §4.13): on the mean of several draws, True also
        :attr:`within_error` (False only beyond ``EXPECTATION_SIGMAS`` standard errors);
        on one run, None when the run exceeds it: one draw neither meets nor breaks a bound
        on the mean.
        """
        if not self.applies:
            return None
        if holds(self.mistakes, self.value) or self.within_error:
            return True
        return None if self.expectation and self.n_draws == 1 else False

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
            "ratio": self.ratio, "comparator": self.comparator, "expectation": self.expectation,
            "mean_mistakes": self.mistakes, "stderr": self.stderr, "n_draws": self.n_draws,
        }
        for key, value in self.quantities.items():
            record.setdefault(key, value)
        return record


@dataclass(frozen=True)
class BoundReport:
    """Every bound that applies to a run's algorithm, held against its mistakes.

    ``str(report)`` is an aligned table; :meth:`to_records` and :meth:`to_json`
    convert it for scripts.

    Attributes
    ----------
    algorithm, params
        The run's.
    n_trials, mistakes, margin_errors : int
        The run's counts; the rows bound ``mistakes``. A report on several runs
        (``evaluate([run, ...], X, y)``): the means over them (floats).
    rows : tuple of BoundRow
    notes : tuple of str
        How the comparator was chosen, and why no bound applies when none does.
    multiclass : str or None
        ``"native"`` for a native multiclass run (its bounds through Kesler's
        construction, theory §4.5), None for a binary run.
    n_runs : int, default=1
        The number of runs (of several seeds) the counts and the bounds are means over.
    """

    algorithm: str
    params: dict
    n_trials: int
    mistakes: int | float
    margin_errors: int | float
    rows: tuple
    notes: tuple = ()
    multiclass: str | None = None
    n_runs: int = 1

    @property
    def holds(self) -> bool:
        """True when no applicable row is violated (``BoundRow.holds`` False)."""
        return all(row.holds is not False for row in self.rows if row.applies)

    def to_records(self) -> list[dict]:
        """One dict per row (see :meth:`BoundRow.to_record`: with ``mean_mistakes``,
        ``stderr`` and ``n_draws`` for a mean over draws), with the algorithm's name."""
        return [{"algorithm": self.algorithm, **row.to_record()} for row in self.rows]

    def to_json(self, **kwargs) -> str:
        """The report as JSON: algorithm, params, counts, notes and the records."""
        payload = {
            "algorithm": self.algorithm, "params": self.params, "multiclass": self.multiclass,
            "n_trials": self.n_trials, "mistakes": self.mistakes,
            "margin_errors": self.margin_errors, "n_runs": self.n_runs,
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
        mode = f" ({self.multiclass} multiclass)" if self.multiclass else ""
        mean = f" (mean over {self.n_runs} runs)" if self.n_runs > 1 else ""
        head = (f"{self.algorithm}{mode}: {_count(self.mistakes)} mistakes{mean} in "
                f"{self.n_trials} trials" + (f", {_count(self.margin_errors)} margin errors"
                                             if self.margin_errors else ""))
        columns = ("bound", "variant", "value", "gamma", "mistakes/bound", "holds", "source")
        table = [columns]
        for row in self.rows:
            if row.applies:
                cells = (row.name, row.variant, f"{row.value:.6g}", f"{row.gamma:.4g}",
                         f"{row.ratio:.3g}" + _error(row), holds_text(row), row.cited)
            else:
                cells = (row.name, row.variant, "-", "-", "-", "-",
                         f"{row.cited}; not applicable: {row.reason}")
            table.append(cells)
        lines = [head, *aligned(table, ragged_last=True)]
        lines.extend(f"note: {note}" for note in self.notes)
        return "\n".join(lines)


@dataclass(frozen=True)
class MulticlassBoundReport:
    """The bounds of a one-vs-rest run: every binary bound per class, and their sums.

    Class k's run is the binary run "class k against the rest" (theory §2.6);
    :attr:`class_reports` holds its :class:`BoundReport`, each bound at the class's
    own best comparator and margin. Each summed row adds one bound (name and
    variant) over the classes: a bound on the run's :attr:`corrections`, the
    binary mistakes summed over the classes, and hence on its multiclass
    mistakes, which never exceed them (theory §4.5).

    ``str(report)`` is one table: a row per bound and variant, a column per
    class and the sum. :meth:`to_records` and :meth:`to_json` convert it.

    Attributes
    ----------
    algorithm, params
        The run's.
    classes : tuple
        The K labels; ``class_reports[k]`` is that of ``classes[k]``.
    n_trials : int
    mistakes : int
        The run's multiclass mistakes.
    corrections : int
        The class runs' mistakes, summed; what the summed rows bound.
    rows : tuple of BoundRow
        The summed rows (``mistakes`` = :attr:`corrections`, ``gamma`` None: each
        class has its own). The quantities hold ``class_values`` and
        ``class_gammas``; the row ``smallest_per_class`` (variant ``"any"``) adds
        each class's smallest applicable bound, named in ``class_bounds``.
    class_reports : tuple of BoundReport
    notes : tuple of str
    multiclass : str
        ``"ovr"``.
    n_runs : int, default=1
        The number of runs (of several seeds) whose means the counts and the bounds are;
        ``mistakes`` and ``corrections`` are then floats.
    """

    algorithm: str
    params: dict
    classes: tuple
    n_trials: int
    mistakes: int
    corrections: int
    rows: tuple
    class_reports: tuple
    notes: tuple = ()
    multiclass: str = "ovr"
    n_runs: int = 1

    @property
    def holds(self) -> bool:
        """True when every applicable row holds, summed and per class."""
        return (all(row.holds is not False for row in self.rows if row.applies)
                and all(report.holds for report in self.class_reports))

    def row(self, name: str, variant: str = "stated") -> BoundRow:
        """The summed row of bound ``name`` in ``variant``; KeyError if there is none."""
        for row in self.rows:
            if row.name == name and row.variant == variant:
                return row
        raise KeyError(f"no summed row {name!r} ({variant}) in the report of "
                       f"{self.algorithm!r} one-vs-rest")

    def class_report(self, label) -> BoundReport:
        """The :class:`BoundReport` of class ``label`` against the rest."""
        for value, report in zip(self.classes, self.class_reports, strict=True):
            if value == label:
                return report
        raise KeyError(f"no class {label!r}; the classes are {list(self.classes)}")

    def to_records(self) -> list[dict]:
        """One dict per row: the summed rows (``"class"`` None), then each class's rows.

        Each record is :meth:`BoundRow.to_record` with ``algorithm``, ``multiclass``
        and ``class`` (the label of the class, None for a sum over the classes).
        """
        head = {"algorithm": self.algorithm, "multiclass": self.multiclass}
        records = [{**head, "class": None, **row.to_record()} for row in self.rows]
        for label, report in zip(self.classes, self.class_reports, strict=True):
            records.extend({**head, "class": label, **row.to_record()} for row in report.rows)
        return records

    def to_json(self, **kwargs) -> str:
        """The report as JSON: algorithm, params, classes, counts, notes and the records."""
        payload = {
            "algorithm": self.algorithm, "params": self.params, "multiclass": self.multiclass,
            "classes": list(self.classes), "n_trials": self.n_trials,
            "mistakes": self.mistakes, "corrections": self.corrections, "n_runs": self.n_runs,
            "class_mistakes": [report.mistakes for report in self.class_reports],
            "notes": list(self.notes), "bounds": self.to_records(),
        }
        return json.dumps(_jsonable(payload), **kwargs)

    def __str__(self) -> str:
        mean = f" (means over {self.n_runs} draws)" if self.n_runs > 1 else ""
        head = (f"{self.algorithm} one-vs-rest over {len(self.classes)} classes: "
                f"{_count(self.mistakes)} multiclass mistakes, {_count(self.corrections)} "
                f"corrections (binary mistakes summed over the classes) in {self.n_trials} "
                f"trials{mean}")
        labels = [f"class {label}" for label in self.classes]
        table = [("bound", "variant", *labels, "sum", "corrections/sum", "holds", "source"),
                 ("(mistakes)", "", *(_count(r.mistakes) for r in self.class_reports),
                  _count(self.corrections), "", "", "")]
        for row in self.rows:
            values = row.quantities.get("class_values", [None] * len(self.classes))
            cells = [row.name, row.variant, *("-" if v is None else f"{v:.4g}" for v in values)]
            if row.applies:
                cells += [f"{row.value:.6g}", f"{row.ratio:.3g}" + _error(row), holds_text(row),
                          row.cited]
            else:
                cells += ["-", "-", "-", f"{row.cited}; not applicable: {row.reason}"]
            table.append(tuple(cells))
        lines = [head, *aligned(table, ragged_last=True)]
        lines.append("each class's bound is at its own comparator and margin: "
                     "report.class_reports[k] has them")
        lines.extend(f"note: {note}" for note in self.notes)
        return "\n".join(lines)


def _count(value) -> str:
    """A count as printed: an int as it is, a mean over runs to 6 significant digits."""
    return str(value) if isinstance(value, int) else f"{value:.6g}"


def _error(row) -> str:
    """`` (mean - bound = e +/- s)`` after the ratio of a mean over draws, else nothing."""
    if row.stderr is None:
        return ""
    return f" (mean - bound {row.mistakes - row.value:+.3g} +/- {row.stderr:.2g})"


def aligned(table, *, ragged_last: bool = False, widths=None) -> list[str]:
    """Rows of string cells as lines of left-aligned columns (the last one unpadded if asked).

    ``widths`` fixes the padded columns' widths (a longer cell shifts the rest of its line);
    by default each column is as wide as its longest cell.
    """
    padded = len(table[0]) - (1 if ragged_last else 0)
    if widths is None:
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
