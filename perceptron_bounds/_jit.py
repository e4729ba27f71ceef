"""The one place where Numba options are decided.

Every jitted loop of the package is decorated with :func:`jit`, so that the
options below hold everywhere:

* ``cache=True``: compiled machine code is kept on disk, so a fresh process
  with a warm cache starts in well under a second;
* ``fastmath={"reassoc"}``: the only fast-math flag. It lets LLVM reassociate
  the sums of a dot product and so vectorise it. ``nnan``/``ninf`` (assume
  finite values), ``afn`` (approximate functions) and ``arcp`` (approximate
  reciprocals) stay off: the loops rely on exact comparisons such as
  ``y * margin <= 0``;
* ``error_model="numpy"``: division by zero gives inf/nan as in NumPy instead
  of raising inside a loop (inputs are validated before any loop runs).

Loops receive only float64 C-contiguous arrays, int64 arrays and scalars, so
each compiles for exactly one signature.
"""

import numba

JIT_OPTIONS = {"cache": True, "fastmath": {"reassoc"}, "error_model": "numpy"}


def jit(func):
    """Compile ``func`` with the package's Numba options (see module docstring)."""
    return numba.njit(**JIT_OPTIONS)(func)
