"""Wrapper-side helpers the algorithm modules share: forms, kernel resolution, warm-start buffers.

Every algorithm runs in one of the :data:`FORMS`: ``primal`` keeps the weight
vector (or matrix) in feature space, ``dual`` keeps support vectors and their
coefficients and reaches the data only through a Mercer kernel, ``implicit``
(Higher-Order Perceptron only) keeps the factors of its matrix. Each
algorithm names the forms it has when it registers; ``form="auto"`` picks
one from the kernel and the data.
"""

from __future__ import annotations

import math

import numpy as np

from .._linalg import rows_buffer
from .._validation import check_choice, check_real
from ..kernels import Kernel, check_kernel_range, make_kernel

FORMS = ("primal", "dual", "implicit")

# The default memory_budget: the most, in bytes, that a form's dense n_features x n_features
# matrices may take (theory §2.4, §2.5: the primal forms of the second- and higher-order
# algorithms keep such matrices).
MEMORY_BUDGET = 2 * 1024**3


def check_memory_budget(value) -> float:
    """``memory_budget`` checked: a number of bytes > 0."""
    return check_real("memory_budget", value, low=0.0, include_low=False)


def dense_matrices_fit(n_features: int, count: int, budget: float) -> bool:
    """Whether ``count`` float64 matrices of n_features x n_features fit within ``budget`` bytes."""
    return 8.0 * count * n_features * n_features <= budget


def over_budget(form: str, n_features: int, count: int, budget: float, instead: str) -> str:
    """The one-line error of a form whose dense matrices exceed the memory budget."""
    size = 8.0 * count * n_features * n_features
    return (f"form={form!r} keeps {count} dense {n_features} x {n_features} float64 "
            f"matri{'x' if count == 1 else 'ces'} ({size / 1024**3:.3g} GiB), over "
            f"memory_budget={budget / 1024**3:.3g} GiB; use {instead}, or raise memory_budget")


def max_supports(count: int, budget: float) -> int:
    """The most supports k whose ``count`` k x k float64 matrices fit within ``budget`` bytes.

    A dual form keeps as many k x k matrices as its primal form keeps n x n
    ones, k the supports, which grow with the mistakes; its loop stops before
    a support beyond this count.
    """
    return math.isqrt(int(min(budget / (8.0 * count), 2.0**62)))


def check_dual_stop(stop: int, k: int, count: int, budget: float) -> None:
    """The one-line ``ValueError`` of a dual loop that keeps ``count`` k x k matrices, stopped
    at trial ``stop`` (-1: it did not) by :func:`max_supports`, holding k supports."""
    if stop >= 0:
        raise ValueError(over_budget(
            "dual", k + 1, count, budget,
            f"fewer trials (the matrices grow with the supports; trial {stop} would add "
            f"support {k + 1})"))


def check_form(value, forms) -> str:
    """``form`` checked against ``forms`` (a subset of :data:`FORMS`) or ``"auto"``."""
    return check_choice("form", value, (*forms, "auto"))


def resolve_kernel(params: dict, data) -> Kernel:
    """The run's :class:`~perceptron_bounds.kernels.Kernel`, gamma resolved against the data.

    Raises before any work when a ``poly`` kernel would overflow on X
    (:func:`~perceptron_bounds.kernels.check_kernel_range`).
    """
    kernel = make_kernel(params["kernel"], params["degree"], params["gamma"], params["coef0"],
                         n_features=data.n_features, X=data.X)
    check_kernel_range(kernel, data.X)
    return kernel


def resolve_kernel_form(params: dict, data) -> dict:
    """Resolve the kernel parameters and ``form`` of an algorithm with primal and dual forms.

    ``form="auto"`` is ``"primal"`` for the linear kernel and ``"dual"``
    otherwise; ``"primal"`` with a non-linear kernel is a ``ValueError``. Returns a dict with the
    resolved ``kernel``, ``degree``, ``gamma``, ``coef0`` and ``form``.
    """
    form = check_form(params["form"], ("primal", "dual"))
    kernel = resolve_kernel(params, data)
    if form == "auto":
        form = "primal" if kernel.is_linear else "dual"
    if form == "primal" and not kernel.is_linear:
        raise ValueError(f"form='primal' needs kernel='linear', got kernel={kernel.name!r}")
    return {**kernel.params(), "form": form}


def support_set(previous):
    """The final support vectors of ``previous`` (a dual ``OnlineRun``) to start from, or None."""
    return None if previous is None else previous.support_vectors


def dual_buffer(previous) -> np.ndarray:
    """A coefficient buffer starting with the dual coefficients of ``previous`` (empty if None)."""
    return np.empty(16) if previous is None else rows_buffer(previous.dual_coef)


def scaled_start(previous, n_features: int) -> tuple[np.ndarray, float]:
    """The (v, scale) that a primal loop keeping w = scale * v starts from.

    Zeros and 1 for a fresh run; for a warm start the v and scale the ``previous`` run's
    loop ended with (``state["v"]``, ``state["scale"]``, see :func:`scaled_state`), so that
    a chain of warm starts makes the roundings of one run: its w = scale * v multiplied
    out and started again from scale 1 would round each later update differently. A run
    saved by perceptron_bounds before it kept them starts from its weights and scale 1.
    """
    if previous is None:
        return np.zeros(n_features), 1.0
    if "v" not in previous.state:
        return np.array(previous.weights, dtype=np.float64), 1.0
    return np.array(previous.state["v"], dtype=np.float64), float(previous.state["scale"])


def scaled_state(v: np.ndarray, scale: float) -> dict:
    """The state entries of a primal loop's final w = scale * v that :func:`scaled_start`
    continues from: ``v`` and ``scale``."""
    return {"v": v, "scale": float(scale)}
