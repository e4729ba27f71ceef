"""The one place where Numba options are decided.

Every jitted loop of the package is decorated with :func:`jit`, so that the
options below hold everywhere:

* ``cache=True``: compiled machine code is kept on disk, so a fresh process
  with a warm cache starts in well under a second. The cache is Numba's, with
  one change (:func:`package_stamp`): an entry is fresh only while the
  sources of all the package's jitted modules are unchanged, not only its own
  function's file;
* ``fastmath={"reassoc"}``: the only fast-math flag. It lets LLVM reassociate
  the sums of a dot product and so vectorise it. ``nnan``/``ninf`` (assume
  finite values), ``afn`` (approximate functions) and ``arcp`` (approximate
  reciprocals) stay off: the loops rely on exact comparisons such as
  ``y * margin <= 0``;
* ``error_model="numpy"``: division by zero gives inf/nan as in NumPy instead
  of raising inside a loop (inputs are validated before any loop runs).

Loops receive only float64 C-contiguous arrays, int64 arrays and scalars, so
each compiles for exactly one signature.

Why the package-wide stamp: Numba keeps a cached function fresh while its
own source file is unchanged, but the machine code of a loop includes the
jitted functions it calls from other modules (the kernel engine's
``engine_row`` inside the Perceptron's dual loop). Edited alone, such a module
left the loops of the other modules running its old code from the cache.
"""

import functools
import hashlib
import re
from pathlib import Path

import numba
import numba.extending
from numba.core import caching

JIT_OPTIONS = {"cache": True, "fastmath": {"reassoc"}, "error_model": "numpy"}

_PACKAGE = Path(__file__).resolve().parent
# A module of jitted code imports this module or Numba.
_JITTED = re.compile(rb"^(?:from|import) +(?:\.+_jit\b|numba\b)", re.MULTILINE)


@functools.cache
def package_stamp() -> str:
    """sha256 of the sources of the package's jitted modules, read once per process.

    A module counts when it imports this module or Numba (every module whose
    code a loop can call or read); any change to one of them makes every
    cached loop of the package stale, so that it is compiled again.
    """
    digest = hashlib.sha256()
    for path in sorted(_PACKAGE.rglob("*.py")):
        source = path.read_bytes()
        if _JITTED.search(source):
            digest.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(source).digest())
    return digest.hexdigest()


class _PackageStamp:
    """A Numba cache locator's stamp, extended by :func:`package_stamp`."""

    def get_source_stamp(self):
        return super().get_source_stamp(), package_stamp()


class _CacheImpl(caching.CompileResultCacheImpl):
    # Numba's locators, in Numba's order, each with the package-wide stamp.
    _locator_classes = [type(cls.__name__, (_PackageStamp, cls), {})
                        for cls in caching.CompileResultCacheImpl._locator_classes]


class _Cache(caching.FunctionCache):
    _impl_class = _CacheImpl


def intrinsic(python):
    """``numba.extending.intrinsic``, or ``python`` when the JIT is off.

    With ``NUMBA_DISABLE_JIT=1`` (the coverage run, README "Development") the
    loops run as Python, which cannot call an intrinsic: ``python`` computes
    the same in Python instead.
    """

    def decorate(definition):
        return python if numba.config.DISABLE_JIT else numba.extending.intrinsic(definition)

    return decorate


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
    dispatcher = numba.njit(**JIT_OPTIONS)(func)
    if isinstance(dispatcher, numba.core.registry.CPUDispatcher):  # not NUMBA_DISABLE_JIT
        dispatcher._cache = _Cache(func)  # what ``cache=True`` set, with the package's stamp
    return dispatcher
