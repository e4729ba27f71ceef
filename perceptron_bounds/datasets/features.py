"""Transforms of the instances: a bias as a constant feature."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._validation import check_real, check_X


def add_bias(X, value: float = 1.0):
    """X with a constant feature ``value`` appended to every row.

    Every algorithm of the package is homogeneous: it starts from w = 0 and
    scores s_t = w . x_t, a hyperplane through the origin (theory §2). A
    threshold b, sign(w . x + b), is one more weight on one more feature:
    with x' = (x, value) and w' = (w, b / value), w' . x' = w . x + b. So a
    bias is learnt by running the algorithm on ``add_bias(X)`` (and
    predicting on ``add_bias`` of the new data).

    The bounds then see the augmented instances (theory §1.5, §4.1): every
    norm grows, ||x'||^2 = ||x||^2 + value^2, so R' = sqrt(R^2 + value^2);
    and a unit comparator u with offset b, y_t (u . x_t + b) >= gamma,
    becomes the unit u' = (u, b / value) / sqrt(1 + b^2 / value^2) of margin
    gamma' = gamma / sqrt(1 + b^2 / value^2). Novikoff's bound
    (R'/gamma')^2 = (R^2 + value^2)(1 + b^2 / value^2) / gamma^2 is smallest,
    ``((R + |b|) / gamma)^2``, for ``value^2 = R |b|``; ``value = R`` gives
    2 (R^2 + b^2) / gamma^2, at most 4 (R / gamma)^2 when ``|b| <= R``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features) or scipy.sparse matrix
        Instances, checked as ``run_online`` checks them.
    value : float, default=1.0
        The constant, > 0 (its sign is absorbed by the weight; 0 would add
        nothing).

    Returns
    -------
    ndarray or scipy.sparse.csr_matrix of shape (n_samples, n_features + 1)
        float64; CSR when X is sparse. The last column is ``value``.

    Raises
    ------
    TypeError, ValueError
        For X that ``run_online`` would reject, or ``value`` not a finite real > 0.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import run_online
    >>> from perceptron_bounds.datasets import add_bias
    >>> X = np.array([[2.0], [3.0], [-1.0], [0.0]])  # separable at x = 1, not at 0
    >>> y = [1, 1, -1, -1]
    >>> add_bias(X).tolist()
    [[2.0, 1.0], [3.0, 1.0], [-1.0, 1.0], [0.0, 1.0]]
    >>> run = run_online("perceptron", add_bias(X), y, epochs=10)
    >>> run.predict(add_bias(X)).tolist()
    [1, 1, -1, -1]
    """
    value = check_real("value", value, low=0.0, include_low=False)
    X = check_X(X)
    if sp.issparse(X):
        column = sp.csr_matrix(np.full((X.shape[0], 1), value))
        return check_X(sp.hstack([X, column], format="csr"))
    return np.hstack([X, np.full((X.shape[0], 1), value)])
