"""Triangular solves and Cholesky factors for the second-order loops (jitted).

The Second-Order Perceptron's and AROW's loops keep a covariance or its inverse
through a triangular factor; these are the substitutions and updates they share.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit


@jit
def solve_lower(L, b, k, out):
    """out[:k] = L^{-1} b for lower-triangular L."""
    for i in range(k):
        s = b[i]
        for j in range(i):
            s -= L[i, j] * out[j]
        out[i] = s / L[i, i]


@jit
def solve_lower_t(L, b, k, out):
    """out[:k] = L^{-T} b for lower-triangular L."""
    for i in range(k - 1, -1, -1):
        s = b[i]
        for j in range(i + 1, k):
            s -= L[j, i] * out[j]
        out[i] = s / L[i, i]


@jit
def upper_solve_t(R, b, n, out):
    """out[:n] = R^{-T} b for upper-triangular R (forward substitution by rows of R).

    Row r of R is read once, contiguously: out[r] is final once the rows above
    have been subtracted from b's copy.
    """
    for i in range(n):
        out[i] = b[i]
    for r in range(n):
        o = out[r] / R[r, r]
        out[r] = o
        row, rest = R[r, r + 1:n], out[r + 1:n]
        for j in range(n - r - 1):
            rest[j] -= o * row[j]


@jit
def upper_solve(R, b, n, out):
    """out[:n] = R^{-1} b for upper-triangular R (back substitution, each sum read-only)."""
    for r in range(n - 1, -1, -1):
        row, done = R[r, r + 1:n], out[r + 1:n]
        s = 0.0
        for j in range(n - r - 1):
            s += row[j] * done[j]
        out[r] = (b[r] - s) / R[r, r]


@jit
def cholesky_update(R, v, n):
    """R <- the upper Cholesky factor of R^T R + v v^T, by Givens rotations; v is overwritten.

    Orthogonal rotations (|c|, |s| <= 1): the factor of a matrix that only grows
    stays accurate at any scale of v, with no subtraction of nearly equal
    numbers (unlike a rank-one downdate of its inverse); O(n^2), reading the
    rows of R in order.
    """
    for k in range(n):
        h = np.hypot(R[k, k], v[k])
        c, s = R[k, k] / h, v[k] / h  # the rotation that zeroes v[k] against R[k, k]
        R[k, k] = h
        row, rest = R[k, k + 1:n], v[k + 1:n]
        for j in range(n - k - 1):
            e = row[j]
            row[j] = c * e + s * rest[j]
            rest[j] = c * rest[j] - s * e


@jit
def shifted_cholesky(M, k, a):
    """Lower Cholesky factor of a I + M[:k, :k]."""
    A = np.empty((k, k))
    for i in range(k):
        for j in range(k):
            A[i, j] = M[i, j]
        A[i, i] += a
    return np.linalg.cholesky(A)


@jit
def cholesky_solve(L, b, k, tmp, out):
    """out[:k] = (L L^T)^{-1} b."""
    solve_lower(L, b, k, tmp)
    solve_lower_t(L, tmp, k, out)
