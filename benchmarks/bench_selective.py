"""Speed of the selective-sampling Perceptron (theory §2.14) against the Perceptron (issue 24).

In one process, BLAS limited to one thread, best of ``--repeats`` rounds after a
warm-up call (the compile is excluded); CPU time of the calling thread by default
(``--clock wall`` for wall time), as ``bench_perceptron.py`` measures:

* ``primal``: the selective primal loop against the Perceptron's primal loop, one epoch
  of 100,000 x 100 dense unit-norm rows (labels sign(u . x), 5% flipped), both from
  w = 0, the selective one with b = 1 and the run's draws precomputed. Target <= 1.3x:
  the selective loop adds one uniform read, one division and one comparison per
  trial. The fractions of queried trials and of mistakes are reported (a queried
  mistake reads its row again, as the Perceptron's mistake does).
* ``run``: the same through ``run_online``, which also draws the T uniforms
  (``_sequence.trial_draws``); reported, no target.
* ``second_order``: ``selective_second_order`` against ``second_order`` (fixed a),
  primal, one epoch of 20,000 x 100 rows: the selective one needs A^{-1} x_t on every
  trial (an n x n product), the supervised one only on mistakes. Reported, no target.

The machine may be shared with other jobs: the contenders take turns within a round
(``_timing.race``), so a burst of load slows them alike, but ratios near the target
are worth a second run.

Run: ``python benchmarks/bench_selective.py [--cases primal,run,second_order] [--repeats 5]
[--clock cpu|wall]``.
"""

from __future__ import annotations

import argparse

import numpy as np
from _timing import CLOCKS, race
from bench_arow import unit_rows
from threadpoolctl import threadpool_limits

from perceptron_bounds import run_online
from perceptron_bounds._sequence import trial_draws
from perceptron_bounds.algorithms.perceptron import _perceptron_primal_loop
from perceptron_bounds.algorithms.selective import _selective_primal_loop, _split

TARGETS = {"primal": 1.3}


def case_primal(args, clock):
    X, y = unit_rows(100_000, 100, np.random.default_rng(0))
    order = np.arange(X.shape[0], dtype=np.int64)
    draws = trial_draws(0, X.shape[0])
    empty = np.empty(0)

    def selective():
        return _selective_primal_loop(X, y, order, (np.zeros(100), draws), (1.0,), empty)

    def perceptron():
        return _perceptron_primal_loop(X, y, order, (np.zeros(100),), (), empty)

    mistakes, queried = _split(*selective()[:2])
    t = race({"selective": selective, "perceptron": perceptron}, args.repeats, clock)
    return {"selective_s": t["selective"], "perceptron_s": t["perceptron"],
            "ratio": t["selective"] / t["perceptron"],
            "queried_fraction": queried.shape[0] / X.shape[0],
            "mistake_fraction": mistakes.shape[0] / X.shape[0],
            "perceptron_mistake_fraction": perceptron()[0].shape[0] / X.shape[0]}


def case_run(args, clock):
    X, y = unit_rows(100_000, 100, np.random.default_rng(0))
    t = race({"selective": lambda: run_online("selective_perceptron", X, y, b=1.0, seed=0),
              "perceptron": lambda: run_online("perceptron", X, y)}, args.repeats, clock)
    return {"selective_s": t["selective"], "perceptron_s": t["perceptron"],
            "ratio": t["selective"] / t["perceptron"]}


def case_second_order(args, clock):
    X, y = unit_rows(20_000, 100, np.random.default_rng(0))
    t = race({"selective": lambda: run_online("selective_second_order", X, y, b=1.0, seed=0,
                                              form="primal"),
              "supervised": lambda: run_online("second_order", X, y, form="primal")},
             args.repeats, clock)
    return {"selective_s": t["selective"], "supervised_s": t["supervised"],
            "ratio": t["selective"] / t["supervised"]}


CASES = {"primal": case_primal, "run": case_run, "second_order": case_second_order}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    args = parser.parse_args()
    with threadpool_limits(limits=1):
        for name in args.cases.split(","):
            result = CASES[name](args, CLOCKS[args.clock])
            target = TARGETS.get(name)
            verdict = "" if target is None else (
                f"  target <= {target}: {'met' if result['ratio'] <= target else 'NOT met'}")
            cells = ", ".join(f"{key}={value:.4g}" if isinstance(value, float)
                              else f"{key}={value}" for key, value in result.items())
            print(f"{name}: {cells}{verdict}", flush=True)


if __name__ == "__main__":
    main()
