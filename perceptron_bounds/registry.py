"""The table of registered algorithms behind ``run_online``.

A base module: the algorithm modules register themselves here when
:mod:`perceptron_bounds.algorithms` is imported (the package's ``__init__``
does so), and ``run_online`` and ``OnlineRun.hypothesis_at`` look them up by
name, so the record of a run can replay its algorithm without importing the
algorithms above it.
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
    former_names: tuple[str, ...] = ()


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


def available() -> list[str]:
    """Names of the registered algorithms, sorted."""
    return sorted(_REGISTRY)


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
