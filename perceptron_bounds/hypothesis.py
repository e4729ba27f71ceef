"""Final hypotheses of online runs: what ``OnlineRun.decision_function`` evaluates.

A hypothesis is a small picklable object holding the final state needed for
prediction. ``decision_function`` takes validated input (see
:func:`perceptron_bounds._validation.check_X`) and returns real scores; the
sign is the prediction (a zero score predicts the negative class, as in
scikit-learn).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .algorithms.kernels import Kernel

# Rows of a test block are scored in chunks so that a (chunk x support) kernel
# block stays near this many entries.
_BLOCK_ENTRIES = 1 << 22


def kernel_blocks(X, n_support: int):
    """Yield row slices of X such that each (slice x n_support) block stays small."""
    step = max(1, _BLOCK_ENTRIES // max(n_support, 1))
    for start in range(0, X.shape[0], step):
        yield slice(start, min(start + step, X.shape[0]))


@dataclass(frozen=True, eq=False)
class LinearHypothesis:
    """f(x) = w . x."""

    weights: np.ndarray

    def decision_function(self, X) -> np.ndarray:
        return np.asarray(X @ self.weights, dtype=np.float64).ravel()


@dataclass(frozen=True, eq=False)
class KernelHypothesis:
    """f(x) = sum_i dual_coef[i] K(support_vectors[i], x)."""

    support_vectors: np.ndarray
    dual_coef: np.ndarray
    kernel: Kernel

    @property
    def weights(self) -> np.ndarray | None:
        """The primal vector sum_i dual_coef[i] x_i (linear kernel only)."""
        if not self.kernel.is_linear:
            return None
        return self.dual_coef @ self.support_vectors

    def decision_function(self, X) -> np.ndarray:
        out = np.zeros(X.shape[0])
        if self.dual_coef.shape[0] == 0:
            return out
        for rows in kernel_blocks(X, self.dual_coef.shape[0]):
            out[rows] = self.kernel.gram(X[rows], self.support_vectors) @ self.dual_coef
        return out
