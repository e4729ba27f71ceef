"""Plain-NumPy reference implementations, written straight from ../shared/SPEC.md.

Slow and obvious on purpose: every jitted loop of the package is compared with
one of these. Each function takes X (dense ndarray), y in {-1, +1}, and the
presented order (rows of X, one per trial), and mirrors the paper's
pseudo-code line by line. A margin of exactly zero is a mistake (SPEC 1.1).
"""

import numpy as np


def kernel(name, a, b, degree=3, gamma=1.0, coef0=1.0):
    """SPEC 1.7: linear a.b, poly (gamma a.b + coef0)^degree, rbf exp(-gamma ||a-b||^2)."""
    if name == "linear":
        return float(a @ b)
    if name == "poly":
        return float((gamma * (a @ b) + coef0) ** degree)
    return float(np.exp(-gamma * np.sum((a - b) ** 2)))


def perceptron(X, y, order, w=None):
    """SPEC 2.1: w_1 = 0; on y_t w.x_t <= 0, w <- w + y_t x_t.

    Returns (mistake_trials, w, margins).
    """
    w = np.zeros(X.shape[1]) if w is None else np.array(w, dtype=float)
    mistakes, margins = [], []
    for t, i in enumerate(order):
        margin = w @ X[i]
        margins.append(margin)
        if y[i] * margin <= 0:
            w = w + y[i] * X[i]
            mistakes.append(t)
    return np.array(mistakes, dtype=np.int64), w, np.array(margins)


def kernel_perceptron(X, y, order, kernel_name="rbf", **kernel_params):
    """SPEC 2.1, kernel form: f = sum over mistakes of y_i K(x_i, .).

    Returns (mistake_trials, support_rows, dual_coef, margins).
    """
    support, coef, mistakes, margins = [], [], [], []
    for t, i in enumerate(order):
        margin = sum(c * kernel(kernel_name, X[s], X[i], **kernel_params)
                     for s, c in zip(support, coef))
        margins.append(margin)
        if y[i] * margin <= 0:
            support.append(i)
            coef.append(y[i])
            mistakes.append(t)
    return (np.array(mistakes, dtype=np.int64), np.array(support, dtype=np.int64),
            np.array(coef, dtype=float), np.array(margins))
