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
    """Compile ``func`` with the package's Numba options: a decorator for an online loop.

    ``numba.njit(cache=True, fastmath={"reassoc"}, error_model="numpy")``: the
    compiled code is cached on disk; sums may be reassociated (vectorised dot
    products), but no other fast-math flag is on, so comparisons such as
    ``y * margin <= 0`` stay exact; a division by zero gives inf or nan as in NumPy.
    Pass the loop float64 C-contiguous arrays, int64 index arrays and scalars only,
    so that it compiles for one signature.

    Parameters
    ----------
    func : callable
        The loop, in the subset of Python and NumPy that Numba compiles.

    Returns
    -------
    numba dispatcher
        ``func`` compiled at its first call.
    """
    return numba.njit(**JIT_OPTIONS)(func)
