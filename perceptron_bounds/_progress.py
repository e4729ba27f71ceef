"""Progress on long work: a tqdm bar, periodic lines off a terminal, a note while compiling.

* :func:`bar`: a tqdm bar (``tqdm.auto``: a widget in a notebook), or, under
  :func:`command_line` with stderr not a terminal (a log, a pipe), one line every
  :data:`LINE_EVERY` seconds and nothing for shorter work.
* :func:`announcing_compilation`: one line to stderr when Numba compiles the
  package's loops (a cold on-disk cache: the first run after an install or an
  edit). It listens to Numba's ``numba:compile`` event, which fires only when a
  loop is compiled, not when it is loaded from the cache, so a warm cache
  prints nothing.
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager

from numba.core import event

#: Seconds between two progress lines off a terminal.
LINE_EVERY = 10.0
#: Seconds before a bar appears: shorter work shows none.
BAR_DELAY = 1.0
COMPILING = "perceptron-bounds: compiling the loops (first run only, about 15 s) ..."

_LINES = [False]  # set by command_line(): progress lines instead of a bar


class _Lines:
    """The part of tqdm's interface the package uses, as a line every LINE_EVERY seconds."""

    def __init__(self, total, desc, unit, iterable):
        self.total, self.desc, self.unit, self.iterable, self.n = total, desc, unit, iterable, 0
        self.start = self.last = time.monotonic()
        self.printed = False

    def update(self, n=1):
        self.n += n
        now = time.monotonic()
        if now - self.last >= LINE_EVERY:
            self.last = now
            self._line(now)

    def _line(self, now):
        share = f" ({100.0 * self.n / self.total:.0f}%)" if self.total else ""
        print(f"{self.desc}: {self.n}/{self.total} {self.unit}s{share}, {now - self.start:.0f} s",
              file=sys.stderr, flush=True)
        self.printed = True

    def close(self):
        if self.printed:  # the last word of work that showed lines
            self._line(time.monotonic())
            self.printed = False

    def __iter__(self):  # tqdm's iterable form: results = bar(iterable, ...)
        for item in self.iterable:
            yield item
            self.update()
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def bar(total: int, desc: str, unit: str, iterable=None, delay: float = 0.0):
    """A progress bar over ``total`` units (see the module docstring); iterable as tqdm's."""
    if _LINES[0]:
        return _Lines(total, desc, unit, iterable)
    from tqdm.auto import tqdm

    return tqdm(iterable, total=total, desc=desc, unit=unit, delay=delay, file=sys.stderr)


@contextmanager
def command_line():
    """Inside: bars are periodic lines when stderr is not a terminal (the command line's way)."""
    previous = _LINES[0]
    _LINES[0] = not sys.stderr.isatty()
    try:
        yield
    finally:
        _LINES[0] = previous


class _CompileNotice(event.Listener):
    """Prints :data:`COMPILING` once, at the first compilation of a loop of the package."""

    said = False

    def on_start(self, ev):
        module = getattr(ev.data["dispatcher"].py_func, "__module__", "")
        if not _CompileNotice.said and module.startswith(("perceptron_bounds.algorithms",
                                                          "perceptron_bounds.bounds")):
            _CompileNotice.said = True
            print(COMPILING, file=sys.stderr, flush=True)

    def on_end(self, ev):
        pass


@contextmanager
def announcing_compilation():
    """Inside: a cold Numba cache is announced by one line (see the module docstring)."""
    with event.install_listener("numba:compile", _CompileNotice()):
        yield
