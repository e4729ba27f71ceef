"""The papers' preprocessing of their real data (theory §5).

- Ballseptron [SS05, sec. 5]: :func:`center_and_scale`, the mean instance moved to 0 and
  the average norm scaled to 1, for MNIST and USPS.
- Higher-Order [BGV07]: :func:`normalize_rows`, every instance of unit norm (unit p-norm
  for the p-norm algorithms; theory §2.5).
- Freund and Schapire [FS99, sec. 5]: none. Their MNIST instances are the raw 8-bit grey
  values 0..255, as :func:`~perceptron_bounds.datasets.load_mnist` returns them, expanded
  by the kernel (1 + x . z)^d, which is ``kernel="poly", gamma=1, coef0=1, degree=d``.
  Rescaling the pixels by 1/255 would need ``coef0=1/255**2`` to give the same run
  (see the Notes of ``load_mnist``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .._linalg import normalize_rows as _unit_rows
from .._validation import check_real, check_X


@dataclass(frozen=True, eq=False)
class CenterScale:
    """The map x -> (x - mean) / scale that :func:`center_and_scale` fitted.

    Attributes
    ----------
    mean : ndarray of shape (n_features,)
        The mean instance of the data it was fitted on.
    scale : float
        The average norm of the centred instances, ``mean_t ||x_t - mean||_2 > 0``.
    """

    mean: np.ndarray
    scale: float

    def transform(self, X) -> np.ndarray:
        """Apply the fitted map to new instances (a test set), dense float64.

        Raises
        ------
        TypeError, ValueError
            Sparse X (see :func:`center_and_scale`), or X that ``run_online`` would
            reject, or a number of features other than the fitted one.
        """
        X = _dense(X, n_features=self.mean.shape[0])
        out = X - self.mean
        out /= self.scale
        return out


def _dense(X, n_features=None) -> np.ndarray:
    if sp.issparse(X):
        gigabytes = X.shape[0] * X.shape[1] * 8 / 1e9
        raise TypeError(
            f"X is sparse ({X.shape[0]} x {X.shape[1]}): centring subtracts the mean instance "
            f"from every row and makes X dense ({gigabytes:.2g} GB); pass X.toarray() if that "
            "fits, or use normalize_rows, which keeps X sparse"
        )
    return check_X(X, n_features=n_features)


def center_and_scale(X) -> tuple[np.ndarray, CenterScale]:
    """Shift the instances to mean zero and scale them to average norm 1 [SS05, sec. 5].

    The Ballseptron paper's MNIST and USPS experiments: "We shifted and scaled the
    instances so that the average instance becomes the zero vector and the average norm
    over all instances becomes 1". With m the mean instance and
    s = (1/T) sum_t ||x_t - m||_2, every x_t becomes (x_t - m) / s.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Dense instances (the training set). Sparse X is refused: centring makes it dense.

    Returns
    -------
    X_new : ndarray of shape (n_samples, n_features), float64
        The transformed instances (a new array; X is not modified).
    fitted : CenterScale
        The map, to apply the same shift and scale to a test set:
        ``fitted.transform(X_test)``.

    Raises
    ------
    TypeError
        Sparse X (the message gives the dense size), or X of the wrong kind.
    ValueError
        X that ``run_online`` would reject, or every instance equal (the average norm is
        0 after centring).

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds.datasets import center_and_scale
    >>> X = np.array([[1.0, 2.0], [3.0, 2.0], [2.0, 5.0]])
    >>> Z, fitted = center_and_scale(X)
    >>> np.allclose(Z.mean(axis=0), 0.0), round(float(np.linalg.norm(Z, axis=1).mean()), 12)
    (True, 1.0)
    >>> fitted.mean.tolist(), fitted.transform([[2.0, 3.0], [4.0, 3.0]]).round(4).tolist()
    ([2.0, 3.0], [[0.0, 0.0], [1.2426, 0.0]])
    """
    X = _dense(X)
    mean = X.mean(axis=0)
    out = X - mean
    scale = float(np.linalg.norm(out, axis=1).mean())
    if not scale > 0.0:
        raise ValueError("X: every instance equals the mean instance, so the average norm "
                         "after centring is 0 and cannot be scaled to 1")
    out /= scale
    return out, CenterScale(mean, scale)


def normalize_rows(X, p: float = 2.0):
    """Every instance scaled to unit p-norm, as the Higher-Order paper's instances [BGV07].

    Paper 000 (sec. 1 and Fig. 1) takes instances with ||x_t|| = 1, and for the p-norm
    algorithms normalises them "w.r.t. the p-norm" (theory §2.5): x_t / ||x_t||_p. The
    ``higher_order`` and ``pnorm`` algorithms already do it themselves
    (``normalize=True``, their default); this function is for the other algorithms and
    for looking at the data as those two see it. Zero rows stay zero.

    Parameters
    ----------
    X : array-like or scipy.sparse matrix of shape (n_samples, n_features)
    p : float, default=2.0
        The norm, >= 2 as in the p-norm algorithms (2 is the Euclidean norm).

    Returns
    -------
    ndarray or scipy.sparse.csr_matrix
        A float64 copy, CSR when X is sparse (sparsity kept).

    Raises
    ------
    TypeError, ValueError
        For X that ``run_online`` would reject, or p not a finite real >= 2.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds.datasets import normalize_rows
    >>> normalize_rows(np.array([[3.0, 4.0], [0.0, 0.0]])).round(12).tolist()
    [[0.6, 0.8], [0.0, 0.0]]
    >>> normalize_rows(np.array([[1.0, 1.0]]), p=4.0).round(6).tolist()  # 2 ** (-1/4)
    [[0.840896, 0.840896]]
    """
    p = check_real("p", p, low=2.0)
    return _unit_rows(check_X(X), p)
