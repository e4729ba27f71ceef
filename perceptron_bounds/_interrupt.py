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
  or return after the conversion. The loops check only inside it (a switch
  they read by symbol name), so under another handler (a debugger's, a user's
  that does not raise) a loop never returns part of a run.

The same check reports progress (:func:`reporting`): the loops hold the GIL,
so no Python thread can watch them; instead a check whose trial index reaches
a due index calls a Python function through a C function pointer (a ctypes
callback, found by symbol name like the switch), about every
:data:`REPORT_EVERY` seconds of work.

A check costs a load and a compare (and, inside ``interruptible``, a call that
reads two words and one more load and compare): within noise on the
Perceptron's primal loop (``benchmarks/bench_perceptron.py``).
"""

from __future__ import annotations

import ctypes
import signal
import sys
import threading
import time
from contextlib import contextmanager

import llvmlite.binding as llvm
import llvmlite.ir as ir
from numba.core import cgutils, types
from numba.core.serialize import _numba_unpickle

from ._jit import intrinsic, jit

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

# Progress (see :func:`reporting`): with the switch on, a check of trial t >= _DUE calls _report(t)
# through the C function pointer at _REPORT_SYMBOL. _DUE is _NEVER outside ``reporting``.
_DUE_SYMBOL, _REPORT_SYMBOL = "perceptron_bounds_progress_due", "perceptron_bounds_progress_report"
_NEVER = 2**63 - 1
_DUE = ctypes.c_int64(_NEVER)
llvm.add_symbol(_DUE_SYMBOL, ctypes.addressof(_DUE))
#: Seconds of a loop's work between two reports.
REPORT_EVERY = 0.2


def _stop_flag_python(trial):
    """:func:`_stop_flag` with the JIT off; Python's own handler raises on Ctrl-C."""
    state = _SWITCH.value
    if state == _ON and trial >= _DUE.value:
        _report(trial)
    return int(state == _STOPPED)


@intrinsic(python=_stop_flag_python)
def _stop_flag(typingctx, trial):
    """1 if the loops must stop (see the switch above), else 0; reports ``trial`` when due."""

    def codegen(context, builder, signature, args):
        int32, int64 = ir.IntType(32), ir.IntType(64)
        module = builder.module

        def symbol(name, kind):  # a declaration: the address is found by name when linking
            found = module.globals.get(name)
            return ir.GlobalVariable(module, kind, name) if found is None else found

        switch = symbol(_SWITCH_SYMBOL, int32)
        state = builder.load(switch)
        result = cgutils.alloca_once_value(
            builder, builder.zext(builder.icmp_signed("==", state, int32(_STOPPED)), int32))
        with builder.if_then(builder.icmp_signed("==", state, int32(_ON))):
            occurred = cgutils.get_or_insert_function(
                module, ir.FunctionType(int32, []), "PyOS_InterruptOccurred")
            with builder.if_else(builder.icmp_signed("!=", builder.call(occurred, []),
                                                     int32(0))) as (stop, go_on):
                with stop:
                    builder.store(int32(_STOPPED), switch)
                    again = cgutils.get_or_insert_function(  # for the Python handler, too
                        module, ir.FunctionType(ir.VoidType(), []), "PyErr_SetInterrupt")
                    builder.call(again, [])
                    builder.store(int32(1), result)
                with go_on:  # progress: call the reporter once the trial reaches the next due
                    due = builder.load(symbol(_DUE_SYMBOL, int64))
                    with builder.if_then(builder.icmp_signed(">=", args[0], due)):
                        report_type = ir.FunctionType(ir.VoidType(), [int64])
                        report = builder.load(symbol(_REPORT_SYMBOL, report_type.as_pointer()))
                        builder.call(report, [args[0]])
        return builder.load(result)

    return types.int32(types.int64), codegen


@jit
def stop_requested(trial):
    """Whether a jitted loop should stop now: Ctrl-C was pressed.

    Called from jitted code only. A loop asks at the top of trial ``trial`` (every
    ``EVERY`` trials when a trial is cheap) and, when True, returns what it has (the
    trials before this one done); ``run_online`` then raises KeyboardInterrupt and
    returns no part of the run. The same check reports the trial to the progress bar
    of ``run_online(..., progress=True)`` now and then (``reporting``).

    Parameters
    ----------
    trial : int
        The 0-based index of the trial about to run.

    Returns
    -------
    bool
        True when the loop must return at once.
    """
    return _stop_flag(trial) != 0


class _Reporter:
    """Calls ``update(trial)`` about every REPORT_EVERY seconds of a loop (see :func:`reporting`).

    The next due trial is the last one plus the trials done in REPORT_EVERY at the
    last measured rate (at most twice the last step, so a loop that speeds up is still
    heard from).
    """

    def __init__(self, update):
        self.update, self.trial, self.time, self.step = update, 0, time.monotonic(), 1

    def __call__(self, trial):
        now = time.monotonic()
        if trial > self.trial:
            rate = (trial - self.trial) / max(now - self.time, 1e-9)
            self.step = max(1, min(2 * self.step, int(rate * REPORT_EVERY)))
        self.trial, self.time = trial, now
        _DUE.value = trial + self.step
        self.update(trial)


_ACTIVE: list[_Reporter] = []


def _report(trial):
    """What the loops call when a report is due: the innermost :func:`reporting`'s reporter."""
    if _ACTIVE:
        _ACTIVE[-1](trial)


_REPORT = ctypes.CFUNCTYPE(None, ctypes.c_int64)(_report)
_REPORT_ADDRESS = ctypes.c_void_p(ctypes.cast(_REPORT, ctypes.c_void_p).value)
llvm.add_symbol(_REPORT_SYMBOL, ctypes.addressof(_REPORT_ADDRESS))
_REPORTING = _report.__code__


@contextmanager
def reporting(update):
    """Inside, the running jitted loop calls ``update(trial)`` now and then (its trial index).

    About every :data:`REPORT_EVERY` seconds of work, at a loop's check for Ctrl-C, so
    only where that check is on (inside :func:`interruptible`, in the main thread);
    elsewhere a no-op. ``update`` runs while the loop waits, holding the GIL: it
    should only update a progress bar. Each loop starts again at trial 0: enter one
    ``reporting`` per loop to tell them apart.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _ACTIVE.append(_Reporter(update))
    previous, _DUE.value = _DUE.value, 0
    try:
        yield
    finally:
        _ACTIVE.pop()
        _DUE.value = previous if _ACTIVE else _NEVER


def _converting(frame) -> bool:
    """Whether ``frame`` runs inside Numba's conversion of a loop's results or a report."""
    while frame is not None:
        if frame.f_code is _UNPICKLE or frame.f_code is _REPORTING:
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
