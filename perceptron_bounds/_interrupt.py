"""Ctrl-C in a jitted loop: stop between trials, raise KeyboardInterrupt, never crash.

CPython handles a signal in two steps: its C handler only notes that SIGINT
arrived, and the Python handler (``signal.default_int_handler``, which raises
KeyboardInterrupt) runs at the next line of Python. A jitted loop runs no
Python, so a Ctrl-C waited for the loop's end; worse, Numba then converts the
loop's results to Python objects by calling a Python function
(``numba.core.serialize._numba_unpickle``, once per returned array) and does
not check it for an error: the KeyboardInterrupt raised there left a NULL in
the returned tuple, and the run ended with a segmentation fault.

Two pieces fix both:

* :func:`stop_requested`, called by the loops between trials, asks
  CPython whether SIGINT arrived (``PyOS_InterruptOccurred``, declared by name
  and resolved when the compiled code is linked, so Numba's on-disk cache stays
  valid). If so the loop returns at once what it has, and every loop after it
  returns at its first check.
* :func:`interruptible`, entered around the package's runs, replaces
  ``signal.default_int_handler`` by a handler that raises KeyboardInterrupt
  the same way, except while Numba converts a loop's results: there it only
  notes the signal, and KeyboardInterrupt is raised at the first Python call
  or return after the conversion. The loops check only inside it (a switch they read by symbol name),
  so under another handler (a debugger's, a user's that does not raise) a
  loop never returns part of a run.

A check costs a load and a compare (and a call that
reads two words while inside ``interruptible``): within noise on the
Perceptron's primal loop (``benchmarks/bench_perceptron.py``).
"""

from __future__ import annotations

import ctypes
import os
import secrets
import signal
import sys
import threading
from contextlib import contextmanager, suppress

import llvmlite.binding as llvm
import llvmlite.ir as ir
from numba.core import cgutils, types
from numba.core.serialize import _numba_unpickle
from numba.extending import intrinsic

from ._jit import jit

#: Trials between two checks in a loop whose trial costs O(n) or O(supports): at most a
#: few milliseconds of work. A loop whose trial costs O(n^2) or more checks every trial.
EVERY = 1024

# The loops' switch, read by them by symbol name: 0 off (no check), 1 on (inside
# :func:`interruptible`), 2 stopped (Ctrl-C seen: every loop returns at its next check, and
# :func:`interruptible` raises KeyboardInterrupt).
_OFF, _ON, _STOPPED = 0, 1, 2
# Keep the name: cached loops refer to it (Numba does not recompile them when this file changes).
_SWITCH_SYMBOL = "perceptron_bounds_interrupt_switch"
_SWITCH = ctypes.c_int32(_OFF)
llvm.add_symbol(_SWITCH_SYMBOL, ctypes.addressof(_SWITCH))
_UNPICKLE = _numba_unpickle.__code__


@intrinsic
def _stop_flag(typingctx):
    """1 if the loops must stop (see the switch above), else 0."""

    def codegen(context, builder, signature, args):
        int32 = ir.IntType(32)
        switch = builder.module.globals.get(_SWITCH_SYMBOL)
        if switch is None:  # a declaration: the address is found by name when linking
            switch = ir.GlobalVariable(builder.module, int32, _SWITCH_SYMBOL)
        state = builder.load(switch)
        result = cgutils.alloca_once_value(
            builder, builder.zext(builder.icmp_signed("==", state, int32(_STOPPED)), int32))
        with builder.if_then(builder.icmp_signed("==", state, int32(_ON))):
            occurred = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(int32, []), "PyOS_InterruptOccurred")
            with builder.if_then(builder.icmp_signed("!=", builder.call(occurred, []),
                                                     int32(0))):
                builder.store(int32(_STOPPED), switch)
                again = cgutils.get_or_insert_function(  # for the Python handler, too
                    builder.module, ir.FunctionType(ir.VoidType(), []), "PyErr_SetInterrupt")
                builder.call(again, [])
                builder.store(int32(1), result)
        return builder.load(result)

    return types.int32(), codegen


@jit
def stop_requested():
    """Whether the loop should stop now: Ctrl-C was pressed (see the module docstring).

    A loop asks at the top of a trial (every :data:`EVERY` trials when a trial
    is cheap) and, when True, returns what it has (the trials before this one
    done); :func:`interruptible` then raises KeyboardInterrupt.
    """
    return _stop_flag() != 0


def _converting(frame) -> bool:
    """Whether ``frame`` runs inside Numba's conversion of a loop's results."""
    while frame is not None:
        if frame.f_code is _UNPICKLE:
            return True
        frame = frame.f_back
    return False


def _handler(signum, frame):
    """``default_int_handler``, except inside Numba's conversion of results (see module doc).

    There the KeyboardInterrupt is raised by a profile function (:func:`sys.setprofile`) at
    the first Python call or return after the conversion, where it can propagate.
    """
    _SWITCH.value = _STOPPED
    if not _converting(frame):
        raise KeyboardInterrupt
    previous = sys.getprofile()

    def raise_after_conversion(frame, event, arg):
        if not _converting(frame):
            sys.setprofile(previous)
            raise KeyboardInterrupt

    sys.setprofile(raise_after_conversion)


@contextmanager
def interruptible():
    """Let the jitted loops inside stop on Ctrl-C with a KeyboardInterrupt (see module doc).

    Active in the main thread when SIGINT has Python's default handler; a
    no-op elsewhere (a worker thread, another handler). Inside another
    ``interruptible`` it raises when it ends, as the outer one would, so that
    no part of an interrupted run leaves it. Usable as a decorator.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    current = signal.getsignal(signal.SIGINT)
    if current is _handler:  # inside another interruptible: raise when this one ends, too
        with _raising():
            yield
        return
    if current is not signal.default_int_handler:
        yield
        return
    signal.signal(signal.SIGINT, _handler)
    _SWITCH.value = _ON
    try:
        with _raising():
            yield
    finally:
        _SWITCH.value = _OFF
        signal.signal(signal.SIGINT, signal.default_int_handler)


@contextmanager
def _raising():
    """KeyboardInterrupt at the end of the block once a loop stopped, whatever the block did with
    the part of the run it got back (even an error that part caused)."""
    try:
        yield
    except KeyboardInterrupt:
        raise
    except BaseException:
        if _SWITCH.value == _STOPPED:
            raise KeyboardInterrupt from None
        raise
    if _SWITCH.value == _STOPPED:
        raise KeyboardInterrupt


@contextmanager
def replacing(path):
    """Yield a temporary path beside ``path``; renamed over ``path`` only if the block ends well.

    An interrupted or failed write leaves ``path`` as it was (absent, or the
    old file whole) and no temporary file behind. The temporary name keeps
    the extension of ``path``, for writers that choose a format by it.
    """
    path = os.fspath(path)
    folder, name = os.path.split(path)
    temp = os.path.join(folder, f".{secrets.token_hex(6)}.{name}")
    try:
        yield temp
        os.replace(temp, path)
    except BaseException:
        with suppress(FileNotFoundError):
            os.remove(temp)
        raise
