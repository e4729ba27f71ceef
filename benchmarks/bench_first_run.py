"""The first run of the README's main job, ``perceptron-bounds compare``, with an empty Numba cache
(issue 32, "First run").

A fresh process (``NUMBA_CACHE_DIR`` pointed at an empty folder) runs the job
and reports:

* the wall time to its first line of output (the table's first row), and in all;
* how many jitted functions it compiled (dispatchers and the overloads compiled
  into them: the row-access helpers and the update rules of
  ``perceptron_bounds._jit``), and the ten that took longest, each with its own
  time (without the functions it compiled on the way, which are listed apart).

Target (issue 32): the first output line within 15 s of compiling on 2 quiet
cores. The load of the machine (``os.getloadavg``) is printed beside the times:
on a shared machine a compile is slower by about the load over the cores.

Run: ``python benchmarks/bench_first_run.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

TARGET = 15.0

CHILD = r"""
import json, sys, time
from numba.core import event

start = time.perf_counter()
first = []
stack, own, count = [], {}, [0]


class Clock(event.Listener):
    def on_start(self, ev):
        stack.append([time.perf_counter(), 0.0])

    def on_end(self, ev):
        began, inner = stack.pop()
        spent = time.perf_counter() - began
        if stack:
            stack[-1][1] += spent
        d = ev.data["dispatcher"]
        name = f"{getattr(d.py_func, '__module__', '?')}.{d.py_func.__qualname__}"
        own[name] = own.get(name, 0.0) + spent - inner
        count[0] += 1


class FirstLine:
    def __init__(self, out):
        self.out = out

    def write(self, text):
        if text.strip() and not first:
            first.append(time.perf_counter() - start)
        return self.out.write(text)

    def __getattr__(self, name):
        return getattr(self.out, name)


sys.stdout = FirstLine(sys.stdout)
with event.install_listener("numba:compile", Clock()):
    from perceptron_bounds.cli import main
    try:
        main(["compare"])
    except SystemExit:
        pass
total = time.perf_counter() - start
sys.stdout = sys.stdout.out
print("RESULT" + json.dumps({"first": first[0] if first else None, "total": total,
                             "count": count[0], "own": own}))
"""


def main():
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as cache:
        done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                              env={**os.environ, "NUMBA_CACHE_DIR": cache}, check=True)
    result = json.loads(done.stdout.split("RESULT", 1)[1])
    own = sorted(result["own"].items(), key=lambda item: -item[1])
    first = result["first"]
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (1, 5, 15 min)")
    print(f"first output line after {first:.1f} s "
          f"({'ok' if first <= TARGET else 'MISS'}, target <= {TARGET:g} s on 2 quiet cores); "
          f"whole job {result['total']:.1f} s")
    print(f"{result['count']} compilations of {len(own)} functions, "
          f"{sum(result['own'].values()):.1f} s in all; the longest (own time):")
    for name, seconds in own[:10]:
        print(f"  {seconds:6.2f} s  {name}")


if __name__ == "__main__":
    main()
