"""The p-norm link and the p-norm Perceptron (theory §2.5).

The p-norm Perceptron (Grove, Littlestone and Schuurmans 2001; Gentile 2003)
keeps theta_k = sum of y_t x_t over its mistakes and predicts with the dual
weight vector w = g(theta), where, for p >= 2,

    g_i(theta) = sign(theta_i) |theta_i|^(p-1) / ||theta||_p^(p-2),   g(0) = 0,

is the gradient of ||theta||_p^2 / 2 (the identity for p = 2: the
Perceptron). With instances normalised to unit p-norm (``normalize=True``,
as paper 000 Figure 1 does) it is the Higher-Order Perceptron HO_p(0).

Parameters of ``run_online("pnorm", ...)``: ``p >= 2`` (default 2)
and ``normalize`` (default True: rows scaled to unit p-norm; a zero row stays
zero). ``run.state`` records ``theta`` (w = g(theta)) and ``normalized``.
Release 0.1.0 registered it as ``"pnorm_perceptron"``: that name is still
accepted, with a ``DeprecationWarning``, and saved runs that carry it load as
``"pnorm"``.

References
----------
A. J. Grove, N. Littlestone and D. Schuurmans, "General convergence results
for linear discriminant updates", Machine Learning 43 (2001). C. Gentile,
"The robustness of the p-norm algorithms", Machine Learning 53 (2003).
C. Brotto, C. Gentile and F. Vitale, "On Higher-Order Perceptron
Algorithms", NIPS 2007 (paper 000), sec. 2.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._jit import jit, rule
from .._linalg import normalize_rows, row_axpy, row_dot, rows
from .._validation import check_bool, check_real
from ..hypothesis import KernelHypothesis, LinearHypothesis
from ..registry import Algorithm, LoopResult, attach, register, register_hypothesis
from ._cases import MISTAKE, NO_UPDATE
from ._frame import online_loop


@jit
def link_into(theta, p, out):
    """out = g(theta) = grad ||theta||_p^2 / 2 (identity for p = 2; 0 at theta = 0).

    Uses g(a theta) = a g(theta) with a = max |theta_i| so that |theta_i|^p
    cannot overflow, and one power per entry (|z|^p = |z|^(p-1) |z|). ``out``
    must not be ``theta``.
    """
    n = theta.shape[0]
    if p == 2.0:
        for j in range(n):
            out[j] = theta[j]
        return
    top = 0.0
    for j in range(n):
        top = max(top, abs(theta[j]))
    if top == 0.0:
        for j in range(n):
            out[j] = 0.0
        return
    for j in range(n):
        out[j] = (abs(theta[j]) / top) ** (p - 1.0)
    s = 0.0
    for j in range(n):  # a loop that only reads: see perceptron_bounds._linalg, "Determinism"
        s += out[j] * (abs(theta[j]) / top)
    scale = top / s ** ((p - 2.0) / p)
    for j in range(n):
        out[j] *= np.sign(theta[j]) * scale


@jit
def _link_rows_loop(theta, p, out):
    """out[i] = g(theta[i]) for every row i of a 2-D array."""
    for i in range(theta.shape[0]):
        link_into(theta[i], p, out[i])


def link(theta, p: float) -> np.ndarray:
    """The p-norm link g(theta) = grad ||theta||_p^2 / 2, for a 1-D array or row by row.

    g_i(theta) = sign(theta_i) |theta_i|^(p-1) / ||theta||_p^(p-2), g(0) = 0,
    and g is the identity for p = 2 (theory §2.5; paper 000 sec. 2; Gentile 2003
    for the p-norm algorithms). Computed as g(theta) = a g(theta / a) with
    a = max |theta_i|, so that |theta_i|^p cannot overflow.

    Parameters
    ----------
    theta : array-like of shape (n,) or (m, n)
        A vector, or vectors as rows.
    p : float
        Norm parameter, p >= 2.

    Returns
    -------
    ndarray of the shape of ``theta``

    Examples
    --------
    >>> link([3.0, -4.0], 2.0).tolist()
    [3.0, -4.0]
    >>> g = link([3.0, -4.0], 4.0)
    >>> bool(np.isclose(g @ [3.0, -4.0], np.sum(np.abs([3.0, -4.0]) ** 4) ** 0.5))
    True
    """
    theta = np.array(theta, dtype=np.float64, order="C")  # a writeable copy: one loop signature
    out = np.empty_like(theta)
    if theta.ndim == 1:
        link_into(theta, float(p), out)
    else:
        _link_rows_loop(theta, float(p), out)
    return out


@rule
def _pnorm_step(X, y, i, t, u, arrays, state):
    """p-norm Perceptron on trial t: margin w . x_t with w = g(theta); a mistake adds y_t x_t
    to theta (dense or CSR row) and recomputes w. ``arrays`` is (theta, w), ``state`` (p,)."""
    theta, w = arrays
    (p,) = state
    s = row_dot(X, i, w)
    if y[i] * s <= 0.0:
        row_axpy(X, i, y[i], theta)
        link_into(theta, p, w)
        return s, MISTAKE, state
    return s, NO_UPDATE, state


_pnorm_primal_loop = online_loop(_pnorm_step)


def _resolve(params: dict, data) -> dict:
    return {"p": check_real("p", params["p"], low=2.0),
            "normalize": check_bool("normalize", params["normalize"])}


def _fit(data, order, params, margins, previous) -> LoopResult:
    p = params["p"]
    X = normalize_rows(data.X, p) if params["normalize"] else data.X
    theta = np.zeros(data.n_features) if previous is None else np.array(previous.state["theta"])
    w = link(theta, p)
    trials = _pnorm_primal_loop(rows(X), data.y, order, (theta, w), (p,), margins)[0]
    return LoopResult(trials, HigherOrderHypothesis(w, p, params["normalize"]),
                      state={"theta": theta, "normalized": params["normalize"]})


#: The legend's title wherever an HO_p(c) curve is drawn: what p and c are (paper 000, sec. 4).
HO_NOTATION = (
    "HO$_p$(c): Higher-Order Perceptron,\np-norm p, step $\\rho_k = c/k$ at mistake k;\n"
    "FO = HO$_2$(0)"
)

PNORM = register(
    Algorithm(
        name="pnorm",
        estimator="PNormPerceptron",
        former_names=("pnorm_perceptron",),
        defaults={"p": 2.0, "normalize": True},
        resolve=_resolve,
        fit=_fit,
        summary="p-norm Perceptron (Grove-Littlestone-Schuurmans; Gentile): HO_p(0)",
        # the first-order bounds at p = 2 only (their declared selector)
        bounds=("novikoff", "freund_schapire", "ballseptron_d1", "pnorm_separable",
                "pnorm_d2", "pnorm_d1"),
        instance_map=lambda X, params: (normalize_rows(X, params["p"])
                                        if params["normalize"] else X),
    )
)
attach(PNORM.name, "presentation",
       display_name="p-norm Perceptron",
       label_params=("p",),
       legend=lambda params: dict(text=f"p-norm Perceptron, p = {params['p']:g}", dashed=True,
                                  notation=HO_NOTATION))


@register_hypothesis
@dataclass(frozen=True, eq=False)
class HigherOrderHypothesis(LinearHypothesis):
    """Final Higher-Order (or p-norm) Perceptron: f(x) = w . x with w = B^T g(B v).

    ``weights`` is w = B_k^T g(B_k v_k) (paper 000 sec. 2 item 3; w = A_k v_k
    for p = 2), so f(x) = g(B v)^T B x is the HO margin. With
    ``normalize=True`` a new instance is first scaled to unit p-norm, as the
    training instances were (a zero row scores 0): the score of a training
    row is then the margin the run would give it, and the sign is unchanged
    by the scaling.
    """

    p: float = 2.0
    normalize: bool = True

    def decision_function(self, X) -> np.ndarray:
        if self.normalize:
            X = normalize_rows(X, self.p)
        return super().decision_function(X)


@register_hypothesis
@dataclass(frozen=True, eq=False)
class HigherOrderKernelHypothesis(KernelHypothesis):
    """Final dual-form Higher-Order Perceptron: f(x) = sum_i g_i K_n(x_i, x).

    K_n(x, z) = K(x, z) / sqrt(K(x, x) K(z, z)) when ``normalize=True``
    (instances normalised in feature space), K otherwise; g is the vector
    g_k of paper 000 sec. 2 item 2. ``dual_coef`` holds g_i / sqrt(K(x_i, x_i))
    (g_i without normalisation), so f(x) = (sum_i dual_coef_i K(x_i, x)) /
    sqrt(K(x, x)); a row with K(x, x) = 0 is not rescaled.
    """

    normalize: bool = True

    def _gram_scorer(self, X):
        """(G, rows) -> (G @ dual_coef) / sqrt(K(x, x)) for x in X[rows] (see KernelHypothesis)."""
        if not self.normalize:
            return super()._gram_scorer(X)

        def score(G, rows):
            out = G @ self.dual_coef
            diag = self.kernel.diagonal(X[rows])
            return np.divide(out, np.sqrt(np.maximum(diag, 0.0)), out=out, where=diag > 0)

        return score
