"""The table of registered algorithms behind ``run_online``, and of their hypothesis classes.

A base module: the algorithm modules register themselves here when
:mod:`perceptron_bounds.algorithms` is imported (the package's ``__init__``
does so), and ``run_online`` and ``OnlineRun.hypothesis_at`` look them up by
name, so the record of a run can replay its algorithm without importing the
algorithms above it. :func:`check_params` is the one check of the parameters
given for an algorithm. The hypothesis classes a run may hold register
themselves with :func:`register_hypothesis` (those of
:mod:`perceptron_bounds.hypothesis` when it is imported); saved runs rebuild
only these.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._validation import did_you_mean

_EMPTY = np.empty(0, dtype=np.int64)


@dataclass(frozen=True, eq=False)
class LoopResult:
    """What an algorithm's ``fit`` hands back to ``run_online``.

    ``state`` holds algorithm-specific final state (what a warm start needs)
    and per-mistake records (what the bounds need); it is copied into
    ``OnlineRun.state``. ``queried_trials`` are the trials whose label a
    selective-sampling algorithm asked for (theory §2.14); None for an algorithm
    that reads every label.
    """

    mistake_trials: np.ndarray
    hypothesis: Any
    margin_error_trials: np.ndarray = field(default_factory=lambda: _EMPTY)
    state: dict = field(default_factory=dict)
    queried_trials: np.ndarray | None = None

    @property
    def update_trials(self) -> np.ndarray:
        """The trials that changed the state (:func:`update_trials`)."""
        return update_trials(self.mistake_trials, self.margin_error_trials, self.queried_trials)


def update_trials(mistake_trials, margin_error_trials, queried_trials=None) -> np.ndarray:
    """The sorted trials that changed an algorithm's state (theory §1.4).

    The mistakes and margin errors; for a selective-sampling algorithm (``queried_trials``
    not None, theory §2.14) only the mistakes whose label was queried, with the margin
    errors.
    """
    if queried_trials is not None:
        mistake_trials = np.intersect1d(mistake_trials, queried_trials)
    return np.union1d(mistake_trials, margin_error_trials)


@dataclass(frozen=True)
class Algorithm:
    """A registered algorithm.

    Attributes
    ----------
    name : str
        The name ``run_online`` takes: the shortest name that names the
        algorithm (``"perceptron"``, ``"pnorm"``, ``"second_order"``).
    defaults : dict
        Every parameter the algorithm takes, with its default.
    resolve : callable (params: dict, data: Data) -> dict
        Validates the parameters (all keys of ``defaults`` present) and returns
        them resolved (e.g. ``form="auto"`` replaced by the form used). Raises
        before any work starts.
    fit : callable (data, order, params, margins, previous) -> LoopResult
        Runs the online loop on the trial order ``order`` (int64 rows of X),
        writing per-trial margins into ``margins`` when it is not empty, and
        continuing from the final state of ``previous`` (an ``OnlineRun`` of the
        same algorithm and parameters) when it is not None.
    summary : str
        One line for listings.
    matrix : callable (result: LoopResult, params: dict, rows) -> ndarray or None, optional
        The n x n matrix that sets a second-order algorithm apart from the
        Perceptron (the Second-Order A_k of theory §2.4, the Higher-Order
        B_k^T B_k of theory §2.5), in the state ``result`` of a run from the zero
        state with the resolved ``params``; ``rows`` are the rows of X (as
        given) of its update trials, in order. None where the form keeps no such
        matrix. ``OnlineRun.hypothesis_at`` reports it as ``Snapshot.matrix``.
    fit_ovr : callable (data, order, params, margins, previous) -> list of LoopResult, optional
        One-vs-rest in one pass over the trials (theory §2.6). ``data.y`` holds
        the int64 class indices 0..K-1 of ``data.classes`` (K labels),
        ``margins`` is a (T, K) float64 array to fill with every class's
        margin (always given: the multiclass mistakes are read from it), and
        ``previous`` is the previous multiclass ``OnlineRun`` (one-vs-rest, same
        classes) or None. Result k must be exactly ``fit`` on the binary
        problem "class k (+1) against the rest (-1)" on the same ``order``,
        continued from ``previous.class_runs[k]``: the same mistake trials,
        the same state bit for bit. Without it ``run_online`` loops ``fit``
        over the K binary problems.
    fit_native : callable (data, order, params, margins, previous) -> LoopResult, optional
        The algorithm's own multiclass form (theory §2.6), ``multiclass="native"``;
        ``data`` as for ``fit_ovr``, ``margins`` (T, K) or empty (no
        ``record_margins``), ``previous`` a native multiclass ``OnlineRun`` or
        None. The result's ``mistake_trials`` are the multiclass mistakes and
        its hypothesis scores (n, K).
    bounds : tuple of str, optional
        Names of the declared mistake bounds (:func:`perceptron_bounds.bounds.register_bound`)
        that ``evaluate`` and ``bounds_over_time`` report for its binary runs, in
        order. A bound whose ``applies`` selector refuses the run's parameters (the
        Second-Order variant's bound, the first-order bounds of the p-norm
        Perceptron at p = 2 only) is left out of that run's report.
    native_bounds : tuple of str, optional
        The same for its native multiclass runs (through the bound provider's
        multiclass reduction, e.g. Kesler's construction, theory §4.5).
    instance_map : callable (X, params: dict) -> X, optional
        The rows as the algorithm sees them (the p-norm Perceptron's scaling to
        unit p-norm); the bounds measure R, the margins and the hinge losses on
        them. None: X as given.
    transformed_sequence : bool, default=False
        The run's state records the factors of the Higher-Order matrix B_k, so
        the transformed sequence of paper 000's bound can be rebuilt from it
        (:mod:`perceptron_bounds.bounds.transformed`).
    ball : str, optional
        The parameter whose value is the radius r of the ball around each
        instance (the Ballseptron's ``"r"``, theory §2.3): a right prediction
        within r of the hyperplane is a margin error and an update, the
        first-order bounds take the Ballseptron's conditions and corrections,
        and the teaching panels draw the ball. None (default): no ball.
    estimator : str or tuple of str, optional
        The name of its scikit-learn estimator class in
        ``perceptron_bounds.estimators`` (``"SecondOrderPerceptron"``), which
        :func:`perceptron_bounds.estimators.estimator_of` returns, or several names,
        the first that one (the Perceptron's ``KernelPerceptron`` is a twin with
        other defaults); None: ``estimator_of`` builds a generic estimator over the
        algorithm, its registered defaults as parameters.
    randomized : bool, default=False
        The algorithm draws at random (a budget's removals, a label query): its
        ``fit`` reads ``data.draws``, one uniform in [0, 1) per trial of ``order``,
        from a stream of the run's seed of its own (theory §1.2). ``run_online``
        draws a seed when none is given and records it, so the run replays exactly;
        every class run of a one-vs-rest run reads the same draws.
    tracking : tuple of str, default=()
        Names of its shifting bounds against a comparator sequence, in order
        (:mod:`perceptron_bounds.bounds.tracking`, theory §4.15): what ``evaluate``
        reports with a sequence ``u`` or ``pieces``.
    no_tracking : str, optional
        Why it has none, when more than "no shifting bound is proved for it"
        (the Forgetron's proof, theory §4.15).
    former_names : tuple of str, default=()
        Names of earlier releases: still accepted wherever a name is taken,
        with a ``DeprecationWarning`` naming ``name`` (``current_name``),
        and read as ``name`` in saved runs.
    """

    name: str
    defaults: dict
    resolve: Callable
    fit: Callable
    summary: str = ""
    matrix: Callable | None = None
    fit_ovr: Callable | None = None
    fit_native: Callable | None = None
    bounds: tuple = ()
    native_bounds: tuple = ()
    instance_map: Callable | None = None
    transformed_sequence: bool = False
    former_names: tuple[str, ...] = ()
    ball: str | None = None
    estimator: str | tuple[str, ...] | None = None
    randomized: bool = False
    tracking: tuple = ()
    no_tracking: str | None = None


_REGISTRY: dict[str, Algorithm] = {}
# A former name -> the current name of its algorithm.
_FORMER: dict[str, str] = {}


def register(algorithm: Algorithm) -> Algorithm:
    """Add ``algorithm`` to the table (names and former names are unique)."""
    for name in (algorithm.name, *algorithm.former_names):
        if name in _REGISTRY or name in _FORMER:
            raise ValueError(f"an algorithm named {name!r} is already registered")
    _REGISTRY[algorithm.name] = algorithm
    _FORMER.update(dict.fromkeys(algorithm.former_names, algorithm.name))
    return algorithm


# Records that the layers above attach to an algorithm by name: kind -> name -> fields.
_ATTACHED: dict[str, dict[str, dict]] = {}


def attach(name: str, kind: str, **fields) -> None:
    """Attach to the algorithm ``name`` a record of ``kind``, owned by a layer above this one.

    What is not computation stays out of :class:`Algorithm`: the layer that reads a kind of
    record defines its fields and checks them when it reads them (``"presentation"``: how
    figures name and decorate a run, :class:`perceptron_bounds.plots.presentation.Presentation`).
    An algorithm attaches its records beside its registration; attaching again replaces them.

    Examples
    --------
    >>> attach("my_perceptron", "presentation", display_name="My Perceptron")
    >>> attached("my_perceptron", "presentation")
    {'display_name': 'My Perceptron'}
    """
    if not isinstance(name, str) or not isinstance(kind, str):
        raise TypeError(f"name and kind must be str, got {name!r} and {kind!r}")
    _ATTACHED.setdefault(kind, {})[name] = dict(fields)


def attached(name: str, kind: str) -> dict:
    """The fields of the record of ``kind`` attached to the algorithm ``name`` (:func:`attach`);
    empty when none is."""
    return dict(_ATTACHED.get(kind, {}).get(current_name(name, warn=False), {}))


def available() -> list[str]:
    """Names of the registered algorithms, sorted."""
    return sorted(_REGISTRY)


def estimator_names() -> list[str]:
    """The estimator classes the registrations name (``Algorithm.estimator``), in the order of
    registration: what ``perceptron_bounds`` and ``perceptron_bounds.estimators`` export."""
    names = []
    for algorithm in _REGISTRY.values():
        named = algorithm.estimator
        names += [named] if isinstance(named, str) else list(named or ())
    return names


def current_name(name, *, warn: bool = True):
    """``name``, or the current name of the algorithm formerly called ``name``.

    A former name (see ``Algorithm.former_names``) gives a
    ``DeprecationWarning`` naming the current one, unless ``warn`` is False
    (a saved run, whose name is not the caller's to change). Any other value
    is returned as it is.
    """
    if not isinstance(name, str) or name not in _FORMER:
        return name
    if warn:
        warnings.warn(f"algorithm name {name!r} is deprecated; use {_FORMER[name]!r}",
                      DeprecationWarning, stacklevel=3)
    return _FORMER[name]


def get(name) -> Algorithm:
    """The registered algorithm called ``name``; ``ValueError`` naming the choices otherwise.

    A former name is accepted with a ``DeprecationWarning`` (``current_name``).
    """
    name = current_name(name)
    if not isinstance(name, str) or name not in _REGISTRY:
        raise ValueError(f"algorithm must be one of {', '.join(available())}; got {name!r}"
                         + did_you_mean(name, available()))
    return _REGISTRY[name]


def check_params(name, params, *, where: str = "") -> Algorithm:
    """The registered algorithm ``name``, once ``params`` are checked to be among its parameters.

    Parameters
    ----------
    name : str
        A registered algorithm's name (a ``ValueError`` naming the choices otherwise,
        as :func:`get`).
    params : mapping
        Parameters given for it; each key must be a key of its ``defaults``.
    where : str, default=""
        Prefix of the message, naming what gave the parameters (e.g. ``"spec 'FO': "``).

    Returns
    -------
    Algorithm

    Raises
    ------
    TypeError
        One line: the unexpected names, the parameters the algorithm takes and, for a
        name close to one of them, a "did you mean" hint.
    """
    algorithm = get(name)
    unknown = sorted(set(params) - set(algorithm.defaults))
    if unknown:
        hints = "".join(
            did_you_mean(key, algorithm.defaults) + (f" (for {key!r})" if len(unknown) > 1 else "")
            for key in unknown if did_you_mean(key, algorithm.defaults))
        raise TypeError(
            f"{where}{name!r} got unexpected parameter(s) {', '.join(unknown)}; "
            f"it takes: {', '.join(algorithm.defaults) or 'none'}{hints}"
        )
    return algorithm


_HYPOTHESES: dict[type, bool] = {}


def register_hypothesis(cls=None, *, multiclass: bool = False):
    """Class decorator: ``cls`` is a hypothesis class that saved runs may hold.

    :func:`~perceptron_bounds.persistence.read_run` rebuilds only the registered
    hypothesis classes (and ``Kernel``) from their dataclass fields, so an algorithm
    whose runs keep a hypothesis of a new class registers that class here, beside it.

    Parameters
    ----------
    cls : type, optional
        A dataclass whose ``__init__`` fields are its whole state (what is saved).
    multiclass : bool, default=False
        True for a hypothesis scoring K classes at once, shape (n, K) (theory §2.6),
        which a one-vs-rest hypothesis may not hold as a class's hypothesis.

    Returns
    -------
    type or callable
        ``cls`` itself; without ``cls``, the decorator to apply.
    """
    def add(cls):
        if cls.__name__ in {known.__name__ for known in _HYPOTHESES if known is not cls}:
            raise ValueError(f"a hypothesis class named {cls.__name__!r} is already registered")
        _HYPOTHESES[cls] = multiclass
        return cls

    return add if cls is None else add(cls)


def hypothesis_classes(*, binary: bool = False) -> tuple:
    """The registered hypothesis classes, in the order of registration (binary ones only
    with ``binary=True``)."""
    return tuple(cls for cls, multi in _HYPOTHESES.items() if not (binary and multi))
