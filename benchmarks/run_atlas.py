"""The bound atlas, full and quick, timed against its targets (issues 25, 35); not collected
by pytest.

Runs of ``perceptron-bounds atlas``, each in a process of its own, with the wall time
measured around it:

* ``full``: the atlas of issue 35, the synthetic (drifting included) and scikit-learn sets,
  MNIST and Fashion-MNIST from the data home (``PERCEPTRON_BOUNDS_DATA``; their binary task
  linear on all 60,000 rows, their kernel and 10-class tasks on 2,000), kernels linear, poly
  and rbf, every declared variant, one pass, on 2 workers: target under 60 minutes on 2
  cores (a one-line error naming the files when the data home lacks them).
* ``small``: the synthetic and scikit-learn sets only, the same kernels: a subset whose
  time, with the per-family estimates the command prints, estimates the full one.
* ``quick``: ``atlas --quick`` as a new user runs it, every set the data home holds
  (MNIST and Fashion-MNIST included when ``PERCEPTRON_BOUNDS_DATA`` has them), no cache:
  target under 30 s on a quiet 2-core machine (issue 35), printed split into start-up
  (the interpreter, imports and the data sets' loading, and the exit: the wall time less
  the two parts the command times), runs (the cells) and figures (the report and the views),
  with the CPU seconds of the command and its workers, and the load before and after: on a
  loaded machine the wall time says how loaded it was.

``full`` and ``small`` keep their cells in ``--cache`` (under the output folder), so a
killed run started again resumes; a second run of the script reads every cell back
(seconds). The atlas's CSV, report and figures go to ``OUT/<case>``; ``docs/atlas/``
holds the committed ones. Every bound that applies must hold: the script exits 1
otherwise.

Run: ``python benchmarks/run_atlas.py [OUT] [--cases full,small,quick] [--n-jobs 2]``.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import resource
import subprocess
import sys
import time

#: Per case: the command's options, the target in seconds, whether its cells are cached.
CASES = {
    "full": (["--data", "synthetic,scikit-learn,mnist,fashion-mnist", "--kernels",
              "linear,poly,rbf"], 3600, True),
    "small": (["--data", "synthetic,scikit-learn", "--kernels", "linear,poly,rbf"], 2400, True),
    "quick": (["--quick"], 30, False),
}
# The times the command prints last: "(... 27.1 s: data 2.3 s, runs 14.8 s, files 8.2 s)".
PARTS = re.compile(r"data ([\d.]+) s, runs ([\d.]+) s, files ([\d.]+) s\)")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="atlas-benchmark")
    parser.add_argument("--cases", default="full")
    parser.add_argument("--n-jobs", default="2")
    args = parser.parse_args()
    failed = False
    for case in args.cases.split(","):
        options, target, cached = CASES[case]
        out = os.path.join(args.out, case)
        command = [sys.executable, "-m", "perceptron_bounds", "atlas", *options, "--n-jobs",
                   args.n_jobs, "--out", out,
                   *(["--cache", os.path.join(out, "cache")] if cached else [])]
        load, cpu = os.getloadavg()[0], _children_cpu()
        start = time.perf_counter()
        done = subprocess.run(command, check=False, stdout=subprocess.PIPE, text=True)
        seconds = time.perf_counter() - start
        print(done.stdout, end="")
        if done.returncode:
            print(f"{case}: exit code {done.returncode} after {seconds:.0f} s")
            failed = True
            continue
        with open(os.path.join(out, "atlas.csv"), newline="") as handle:
            rows = list(csv.DictReader(handle))
        violated = sum(row["holds"] == "False" for row in rows)
        print(f"{case}: {len(rows)} rows, {violated} violated, {seconds:.1f} s "
              f"(target {target} s: {'met' if seconds <= target else 'MISSED'}); CPU "
              f"{_children_cpu() - cpu:.1f} s with its workers; load {load:.1f} -> "
              f"{os.getloadavg()[0]:.1f}")
        parts = PARTS.search(done.stdout)
        if parts:
            _, runs, files = map(float, parts.groups())
            print(f"{case}: start-up {seconds - runs - files:.1f} s, runs {runs:.1f} s, "
                  f"figures {files:.1f} s")
        failed |= violated > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
