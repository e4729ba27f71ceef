"""The one place where Numba options are decided.

Every jitted loop of the package is decorated with :func:`jit`, so that the
options below hold everywhere:

* ``cache=True``: compiled machine code is kept on disk, so a fresh process
  with a warm cache starts in well under a second. The cache is Numba's, with
  one change (:func:`package_stamp`): an entry is fresh only while the
  sources of all the package's jitted modules are unchanged, not only its own
  function's file;
* fast math chosen per access pattern, measured on this machine's AMD EPYC
  (``benchmarks/bench_perceptron.py``): :data:`CONTIGUOUS` (``reassoc``) for
  loops and the sums over contiguous memory, where reassociating lets LLVM
  vectorise a dot product (1.3-2x); :data:`GATHER` (none) for sums through an
  index array (a CSR row, ``w[indices[p]] * data[p]``), where ``reassoc``
  makes LLVM emit vector gathers, about 4x slower than the scalar loop (a
  100,000 x 262,144 CSR product with 80 nonzeros a row: 59 ms against 14 ms).
  ``nnan``/``ninf`` (assume finite values), ``afn`` (approximate functions)
  and ``arcp`` (approximate reciprocals) stay off: the loops rely on exact
  comparisons such as ``y * margin <= 0``;
* ``error_model="numpy"``: division by zero gives inf/nan as in NumPy instead
  of raising inside a loop (inputs are validated before any loop runs);
* ``no_cfunc_wrapper``: no C-callable wrapper, which only a jitted function
  passed as a first-class function value needs (none is); a loop's wrapper
  unboxes all its tuples, and it was a tenth of the code compiled on the first
  run of ``compare`` (``benchmarks/bench_first_run.py``).

Loops receive only float64 C-contiguous arrays, int64 arrays and scalars, so
each compiles for exactly one signature per input kind: the rows X are a 2-D
array or the CSR tuple ``(data, indices, indptr)`` (index arrays both int32, as
scipy makes them, or both int64: two kinds, each compiled when first given,
``_validation.INDEX_KINDS``), and a loop reads them only
through row-access helpers (:func:`row_kind`) that Numba picks by X's type
when it compiles. A loop's frame (the trial loop, the Ctrl-C check, margins
and the update log) is written once and specialised per update rule by
:func:`specialise`.

Why the package-wide stamp: Numba keeps a cached function fresh while its
own source file is unchanged, but the machine code of a loop includes the
jitted functions it calls from other modules (the kernel engine's
``engine_row`` inside the Perceptron's dual loop). Edited alone, such a module
left the loops of the other modules running its old code from the cache.
"""

import contextlib
import functools
import hashlib
import re
import types as pytypes
from pathlib import Path

import numba
import numba.extending
from numba.core import caching

#: Fast math of a sum over contiguous memory: reassociated, so vectorised.
CONTIGUOUS = frozenset({"reassoc"})
#: Fast math of a sum through an index array (a CSR row): none, a scalar loop.
GATHER = frozenset()
JIT_OPTIONS = {"cache": True, "fastmath": set(CONTIGUOUS), "error_model": "numpy",
               "no_cfunc_wrapper": True}

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

    def save_overload(self, sig, data):
        """Numba's save, by one process at a time for a function (a lock on its index).

        Numba reads a function's index, picks the first free data file number and writes
        both. Two processes saving two signatures of one function at once (the test
        run's processes, pytest-xdist) could both pick number 1, leaving the index naming
        one signature's file that holds the other's code.
        """
        with _locked(self._cache_file._index_path + ".lock"):
            super().save_overload(sig, data)


@contextlib.contextmanager
def _locked(path):
    """An exclusive ``flock`` on ``path`` while the block runs; no lock where ``fcntl`` is
    missing (Windows) or the file cannot be opened (Numba then reports its own error)."""
    try:
        import fcntl

        handle = open(path, "a")  # noqa: SIM115 (closed below)
    except (ImportError, OSError):
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield  # the lock goes with the file's closing


def intrinsic(python):
    """``numba.extending.intrinsic``, or ``python`` when the JIT is off.

    With ``NUMBA_DISABLE_JIT=1`` (the coverage run, README "Development") the
    loops run as Python, which cannot call an intrinsic: ``python`` computes
    the same in Python instead.
    """

    def decorate(definition):
        return python if numba.config.DISABLE_JIT else numba.extending.intrinsic(definition)

    return decorate


def jit(func=None, *, fastmath=CONTIGUOUS):
    """Compile ``func`` with the package's Numba options: a decorator for an online loop.

    ``numba.njit(cache=True, fastmath={"reassoc"}, error_model="numpy",
    no_cfunc_wrapper=True)``: the compiled code is cached on disk; sums may be
    reassociated (vectorised dot products), but no other fast-math flag is on, so
    comparisons such as ``y * margin <= 0`` stay exact; a division by zero gives inf
    or nan as in NumPy; it cannot be passed to jitted code as a first-class function.
    Pass the loop float64 C-contiguous arrays, int64 arrays (a CSR tuple's index arrays:
    both int32 or both int64) and scalars only, so that it compiles for one signature
    per input kind. ``@jit(fastmath=GATHER)`` compiles a
    function whose sums measure faster unvectorised (module docstring).

    Parameters
    ----------
    func : callable
        The loop, in the subset of Python and NumPy that Numba compiles.
    fastmath : frozenset
        ``CONTIGUOUS`` or ``GATHER``.

    Returns
    -------
    numba dispatcher
        ``func`` compiled at its first call.
    """
    if func is None:
        return functools.partial(jit, fastmath=fastmath)
    dispatcher = numba.njit(**{**JIT_OPTIONS, "fastmath": set(fastmath)})(func)
    if isinstance(dispatcher, numba.core.registry.CPUDispatcher):  # not NUMBA_DISABLE_JIT
        dispatcher._cache = _Cache(func)  # what ``cache=True`` set, with the package's stamp
    return dispatcher


def rule(func=None, *, returns_arrays=False, inline=False):
    """Compile an update rule ``func`` with the package's options, into every loop calling it.

    A rule runs once per trial. Compiled on its own and called, each trial would
    pay for the call and for reference counts on the arrays it is passed (twice
    the Perceptron's dense loop time on 1,000,000 x 20). So the rule is an
    overload of itself, compiled into the library of the loop that calls it
    (where LLVM inlines it) and cached with that loop, and, unless it
    ``returns_arrays`` (a dual rule's regrown buffers, a multiclass rule's
    scores), without Numba's reference counting (``_nrt=False``): it reads and
    writes the arrays it is given and may take views of them, but makes no new
    array and returns none.

    A rule that ``returns_arrays`` counts references anyway, so it is inlined
    instead at Numba's level (``inline="always"``): typed and compiled once, as
    part of its loop. As an overload it was compiled twice, on its own and again
    in its loop, each time with every function it calls (the kernel engine):
    on the first run of ``compare`` the Projectron's and the budget rules took
    as long as their loops (measured with ``benchmarks/bench_first_run.py``).

    LLVM inlines a rule only below its size threshold; a rule with a cold branch of its
    own (a rescaled step) can exceed it and be called on every trial (the
    Passive-Aggressive rule: 2.0-2.3x the read-once floor). With ``inline`` it is
    marked ``alwaysinline`` (Numba's ``forceinline``: an LLVM attribute, not Numba's
    own inlining of its IR).

    Use as ``@rule``, ``@rule(returns_arrays=True)`` or ``@rule(inline=True)``.
    """
    if func is None:
        return functools.partial(rule, returns_arrays=returns_arrays, inline=inline)
    if numba.config.DISABLE_JIT:
        return func
    if returns_arrays:
        options = dict(JIT_OPTIONS)
        del options["cache"]  # inlined into, and cached with, the loop that calls it
        return numba.njit(inline="always", **options)(func)

    @functools.wraps(func)
    def stub(*args):
        return func(*args)

    options = {**JIT_OPTIONS, "_nrt": False, "forceinline": inline}
    del options["cache"]  # compiled into, and cached with, the loop that calls it
    numba.extending.overload(stub, jit_options=options)(functools.wraps(func)(lambda *args: func))
    return stub


def row_kind(stub, dense, csr, *, csr_fastmath=GATHER, dense_fastmath=CONTIGUOUS,
             dense_inline=False):
    """Make ``stub(X, ...)`` run ``dense`` for a 2-D array X and ``csr`` for a CSR tuple X.

    The choice is made when a loop compiles (``numba.extending.overload``, one
    overload per kind), so a loop calling ``stub`` compiles once per input kind
    with no run-time test. ``dense`` is compiled with ``dense_fastmath``
    (:data:`CONTIGUOUS`, or :data:`GATHER` for a sum that must add its terms in
    column order, as a CSR row's sum does), ``csr`` with ``csr_fastmath``:
    :data:`GATHER` when it sums through the row's indices, :data:`CONTIGUOUS`
    when it sums the row's values alone. ``csr`` is always inlined (``forceinline``):
    unrolled, a CSR body exceeds LLVM's inlining threshold, and a call per row passes
    the CSR tuple's 21 words on the stack (the Perceptron's CSR loop: 30 ms against
    22 ms inlined on 100,000 rows of 80 nonzeros). ``dense`` is inlined with
    ``dense_inline``: for a body called many times a trial, where the call (its 13 words
    passed on the stack, its overlap test, an atomic reference count on each array
    passed) costs as much as the work (the one-vs-rest loop's axpy, up to K a trial).
    ``stub`` itself is what runs with the JIT off: it must call ``csr`` for a
    tuple and ``dense`` otherwise. The three take the same arguments, X first.

    Returns
    -------
    callable
        ``stub``.
    """
    if numba.config.DISABLE_JIT:
        return stub
    for kind, body, fastmath, inline in ((numba.types.Array, dense, dense_fastmath, dense_inline),
                                         (numba.types.BaseTuple, csr, csr_fastmath, True)):
        options = {**JIT_OPTIONS, "fastmath": set(fastmath), "forceinline": inline}
        del options["cache"]  # compiled into, and cached with, the loop that calls it

        def select(X, *args, kind=kind, body=body):
            return body if isinstance(X, kind) else None

        # Numba matches the selector's signature with the body's (``__wrapped__``).
        numba.extending.overload(stub, jit_options=options)(functools.wraps(body)(select))
    return stub


def specialise(frame, name, module, **bindings):
    """A jitted copy of the loop ``frame`` with some of its globals bound, cached as ``name``.

    ``frame`` is a module-level function that calls globals it does not define
    (an update rule ``step``, a check interval); the copy sees them bound to
    ``bindings``. Written once, a frame compiles into one loop per rule (and
    per input kind), each copy under its own qualified name, by which Numba's
    cache tells them apart.

    Parameters
    ----------
    frame : function
        The loop's source.
    name : str
        A name unique in ``frame``'s module.
    module : str
        The module the copy is reported in (its rule's).
    **bindings
        The globals to bind: jitted functions, constants.

    Returns
    -------
    numba dispatcher
        As :func:`jit` returns.
    """
    copy = pytypes.FunctionType(frame.__code__, {**frame.__globals__, **bindings}, name,
                                frame.__defaults__)
    copy.__qualname__ = name
    copy.__module__ = module
    copy.__doc__ = frame.__doc__
    return jit(copy)
