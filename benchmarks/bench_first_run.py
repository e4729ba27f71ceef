"""The first run of the README's main job, ``perceptron-bounds compare``, with an empty Numba cache
(issue 32, "First run"), against the same run of a baseline commit's code.

Each run is a fresh process with ``NUMBA_CACHE_DIR`` pointed at an empty folder;
the baseline (``--baseline``, default ``main``) runs from ``git archive`` of that
commit in a temporary folder (its package shadows the installed one through
``PYTHONPATH``), right before this tree's run, on the same machine and load. Each
reports:

* the wall and CPU time to its first line of output (``compare`` prints its data
  line, the table's head and the first algorithm's rows when that run is done, the
  others as theirs are), and in all;
* how many jitted functions it compiled (dispatchers and the overloads compiled
  into them: the row-access helpers and the update rules of
  ``perceptron_bounds._jit``; Numba's own, e.g. the string formatting of an error
  message) and the five that took longest, each with its own time (without the
  functions it compiled on the way); a loop's own time includes optimising and
  compiling to machine code every jitted function it calls again (Numba links
  their code into the loop's).

Target (issue 32): the first output line within 15 s of compiling on 2 quiet
cores. The load of the machine (``os.getloadavg``) is printed beside the times:
on a shared machine a compile is slower by about the load over the cores, while
the CPU time moves less.

Run: ``python benchmarks/bench_first_run.py [--baseline REF | --no-baseline]``
(``--baseline 65d7dc7``: the code before the compile cuts the README's numbers compare
with).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

TARGET = 15.0
SLOWEST = 5
ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys, time
from numba.core import event

start, cpu_start = time.perf_counter(), time.process_time()
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
            first.append((time.perf_counter() - start, time.process_time() - cpu_start))
        return self.out.write(text)

    def __getattr__(self, name):
        return getattr(self.out, name)


sys.stdout = FirstLine(sys.stdout)
with event.install_listener("numba:compile", Clock()):
    import perceptron_bounds
    from perceptron_bounds.cli import main
    try:
        main(["compare"])
    except SystemExit:
        pass
total, cpu = time.perf_counter() - start, time.process_time() - cpu_start
sys.stdout = sys.stdout.out
print("RESULT" + json.dumps({"first": first[0] if first else None, "total": [total, cpu],
                             "count": count[0], "own": own,
                             "package": perceptron_bounds.__file__}))
"""


def first_run(source: Path | None) -> dict:
    """The child's result: ``source`` a folder holding the package, or None for this tree."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        if source is not None:
            env["PYTHONPATH"] = os.pathsep.join([str(source), env.get("PYTHONPATH", "")])
        done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                              env=env, check=True, cwd=source or ROOT)
    result = json.loads(done.stdout.split("RESULT", 1)[1])
    expected = (source or ROOT) / "perceptron_bounds" / "__init__.py"
    if Path(result["package"]).resolve() != expected.resolve():
        sys.exit(f"the run imported {result['package']}, not {expected}")
    return result


def report(name: str, result: dict) -> None:
    """Print one run's times and its slowest compiles."""
    (first, first_cpu), (total, cpu) = result["first"], result["total"]
    own = sorted(result["own"].items(), key=lambda item: -item[1])
    print(f"{name}: first output line after {first:.1f} s ({first_cpu:.1f} s CPU; "
          f"{'ok' if first <= TARGET else 'MISS'}, target <= {TARGET:g} s on 2 quiet cores); "
          f"whole job {total:.1f} s ({cpu:.1f} s CPU)")
    print(f"  {result['count']} compilations of {len(own)} functions, "
          f"{sum(result['own'].values()):.1f} s in all; the longest (own time):")
    for function, seconds in own[:SLOWEST]:
        print(f"    {seconds:6.2f} s  {function}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="main", metavar="REF",
                        help="the commit whose code runs first, for comparison (default main)")
    parser.add_argument("--no-baseline", action="store_true", help="run this tree only")
    args = parser.parse_args()
    runs = []
    with tempfile.TemporaryDirectory() as folder:
        if not args.no_baseline:
            archive = subprocess.run(["git", "archive", args.baseline], cwd=ROOT, check=True,
                                     capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
            runs.append((f"baseline {args.baseline}", Path(folder)))
        runs.append(("this tree", None))
        results = []
        for name, source in runs:
            load = os.getloadavg()
            results.append((name, first_run(source), load, os.getloadavg()))
    for name, result, before, after in results:
        print(f"load average {before[0]:.2f} before, {after[0]:.2f} after (1 min)")
        report(name, result)


if __name__ == "__main__":
    main()
