"""Progress on long work: a tqdm bar, periodic lines off a terminal, a note while compiling.

* :func:`bar`: a tqdm bar (``tqdm.auto``: a widget in a notebook), or, under
  :func:`command_line` with stderr not a terminal (a log, a pipe), one line every
  :data:`LINE_EVERY` seconds and nothing for shorter work.
* :func:`announcing_compilation`: a line to stderr when Numba compiles the
  package's loops for more than :data:`NOTICE_AFTER` seconds (a cold on-disk cache:
  the first run after an install or an edit, or a first run on a new kind of input),
  then the count of loops compiled and the seconds so far as it goes (a status line on
  a terminal, a line every :data:`LINE_EVERY` seconds otherwise), and at the end the
  count and the time it took. It listens to Numba's ``numba:compile`` event, which
  fires only when a loop is compiled, not when it is loaded from the cache, so a warm
  cache prints nothing, and neither does a run that compiles a few small
  specialisations.
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
#: Seconds of compiling before the notice is printed: a run that compiles a few small
#: specialisations says nothing.
NOTICE_AFTER = 2.0
#: The notice. How long the compile takes depends on the commands and the machine (a
#: cold ``compare`` of every algorithm: tens of seconds, more on a loaded machine), so
#: the lines after it count the loops and the seconds as they go.
COMPILING = ("perceptron-bounds: compiling the loops with Numba (once: later runs on this "
             "kind of input load them from the cache) ...")

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


def _package_loop(ev) -> bool:
    """Whether a ``numba:compile`` event is of one of the package's jitted functions."""
    module = getattr(ev.data["dispatcher"].py_func, "__module__", "") or ""
    return module.startswith("perceptron_bounds")


class _CompileNotice(event.Listener):
    """Announces a long compilation of the package's loops and counts it (module docstring).

    ``said`` is the class's: the notice is printed once per process (the tests set it).
    """

    said = False

    def __init__(self):
        self.depth = 0  # compilations under way (a loop compiles the loops it calls)
        self.count = 0
        self.seconds = 0.0  # finished top-level compiling
        self.began = self.last = 0.0
        self.shown = False  # this command printed the notice: it also prints the count
        self.status = ""  # the status line on the terminal, until erased or ended

    def elapsed(self, now: float) -> float:
        return self.seconds + (now - self.began if self.depth else 0.0)

    def on_start(self, ev):
        if not _package_loop(ev):
            return
        now = time.monotonic()
        if self.depth == 0:
            self.began = now
        self.depth += 1
        self._progress(now)

    def on_end(self, ev):
        if not _package_loop(ev):
            return
        now = time.monotonic()
        self.depth -= 1
        self.count += 1
        if self.depth == 0:
            self.seconds += now - self.began
        self._progress(now)

    def _progress(self, now: float) -> None:
        seconds = self.elapsed(now)
        if not self.shown:
            if seconds < NOTICE_AFTER or _CompileNotice.said:
                return
            _CompileNotice.said = self.shown = True
            print(COMPILING, file=sys.stderr, flush=True)
            self.last = now
        if _LINES[0] or not sys.stderr.isatty():
            if now - self.last >= LINE_EVERY:
                self.last = now
                print(f"  {self.count} loops compiled, {seconds:.0f} s", file=sys.stderr,
                      flush=True)
        else:
            self.status = f"  {self.count} loops compiled, {seconds:.0f} s"
            print(f"\r{self.status}", end="", file=sys.stderr, flush=True)

    def erase(self) -> None:
        """Blank the status line on the terminal (the next count draws it again)."""
        if self.status:
            print("\r" + " " * len(self.status) + "\r", end="", file=sys.stderr, flush=True)
            self.status = ""

    def close(self) -> None:
        """The last word of a compilation that was announced: how many loops, how long."""
        if self.shown:
            if self.status:
                print(file=sys.stderr)
                self.status = ""
            print(f"perceptron-bounds: compiled {self.count} loops in "
                  f"{self.elapsed(time.monotonic()):.0f} s (cached for later runs)",
                  file=sys.stderr, flush=True)
            self.shown = False


@contextmanager
def announcing_compilation():
    """Inside: a long compilation of the package's loops (a cold Numba cache) is announced,
    counted as it goes and summed up at the end (see the module docstring). Nested (a run
    inside a command), the outer one reports."""
    if _ACTIVE:
        yield
        return
    notice = _CompileNotice()
    _ACTIVE.append(notice)
    try:
        with event.install_listener("numba:compile", notice):
            yield
    finally:
        _ACTIVE.remove(notice)
        notice.close()


_ACTIVE: list = []  # the listener of the outermost announcing_compilation()


def status_line_ended() -> None:
    """Before a command prints to stdout while its loops may still compile: the compile
    count's status line on a terminal is erased, so that the printed lines do not follow
    it (the next count draws it below them)."""
    for notice in _ACTIVE:
        notice.erase()
