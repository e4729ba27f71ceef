"""Timing helpers shared by the benchmark scripts (run as ``python benchmarks/bench_*.py``)."""

from __future__ import annotations

import time

import numpy as np

CLOCKS = {"cpu": time.thread_time, "wall": time.perf_counter}


def race(contenders: dict, repeats: int, clock=time.perf_counter) -> dict:
    """Best time of each contender over ``repeats`` rounds, after one warm-up call each.

    The contenders take turns within a round, so that a burst of load from
    other processes on the machine slows them alike. ``clock`` is
    ``time.perf_counter`` (wall) or ``time.thread_time`` (CPU of this thread).
    """
    for func in contenders.values():
        func()
    best = dict.fromkeys(contenders, np.inf)
    for _ in range(repeats):
        for name, func in contenders.items():
            start = clock()
            func()
            best[name] = min(best[name], clock() - start)
    return best


def best_time(func, repeats: int, clock=time.perf_counter) -> float:
    """Best time of ``repeats`` calls of ``func``, after one untimed warm-up call."""
    return race({"f": func}, repeats, clock)["f"]
