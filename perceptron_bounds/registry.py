"""The table of registered algorithms behind ``run_online``.

A base module: the algorithm modules register themselves here when
:mod:`perceptron_bounds.algorithms` is imported (the package's ``__init__``
does so), and ``run_online`` and ``OnlineRun.hypothesis_at`` look them up by
name, so the record of a run can replay its algorithm without importing the
algorithms above it.
"""

from __future__ import annotations

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
    ``OnlineRun.state``.
    """

    mistake_trials: np.ndarray
    hypothesis: Any
    margin_error_trials: np.ndarray = field(default_factory=lambda: _EMPTY)
    state: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Algorithm:
    """A registered algorithm.

    Attributes
    ----------
    name : str
        The name ``run_online`` takes.
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


_REGISTRY: dict[str, Algorithm] = {}


def register(algorithm: Algorithm) -> Algorithm:
    """Add ``algorithm`` to the table (names are unique)."""
    if algorithm.name in _REGISTRY:
        raise ValueError(f"an algorithm named {algorithm.name!r} is already registered")
    _REGISTRY[algorithm.name] = algorithm
    return algorithm


def available() -> list[str]:
    """Names of the registered algorithms, sorted."""
    return sorted(_REGISTRY)


def get(name) -> Algorithm:
    """The registered algorithm called ``name``; ``ValueError`` naming the choices otherwise."""
    if not isinstance(name, str) or name not in _REGISTRY:
        raise ValueError(f"algorithm must be one of {', '.join(available())}; got {name!r}"
                         + did_you_mean(name, available()))
    return _REGISTRY[name]
