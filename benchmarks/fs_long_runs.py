"""Freund and Schapire's long runs (paper 001 sec. 5, Table 1): T up to 30 epochs on MNIST.

One degree d per process: the one-vs-rest voted Perceptron with the kernel
(1 + x.z)^d on the 60,000 raw training images, one permutation (seed 0), the
checkpoints T = 0.1, 1, 2, 3, 4, 10, 30 of the paper's Table 1, the test error
of the seven predictions on the 10,000 test images; it prints the wall and CPU
time of every stretch between checkpoints (the machine may be shared), the
total, the peak resident memory and the load average, and writes the records
as JSON. This is what ``fs_mnist_records(degrees=[d], epochs=PAPER_EPOCHS)``
runs for one degree and one seed.

Run (the data home holding MNIST's IDX files):
``nice -n 10 python benchmarks/fs_long_runs.py --degree 4 --epochs 30 --cache-gib 8
--out fs_d4.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time

from perceptron_bounds import kernel_engine
from perceptron_bounds.datasets import load_mnist
from perceptron_bounds.experiments import voted_epochs, voted_epochs_curve
from perceptron_bounds.experiments.voted_epochs import PAPER_EPOCHS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--degree", type=int, required=True)
    parser.add_argument("--epochs", type=float, default=30.0, help="the last checkpoint")
    parser.add_argument("--cache-gib", type=float, default=8.0,
                        help="the kernel cache, GiB (kernel_engine.KERNEL_CACHE_ENTRIES)")
    parser.add_argument("--data-home", default=None)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    kernel_engine.KERNEL_CACHE_ENTRIES = int(args.cache_gib * 1024**3 / 8)
    train, test = load_mnist(args.data_home, download=False)
    checkpoints = [e for e in PAPER_EPOCHS if e <= args.epochs]
    start, cpu = time.perf_counter(), time.process_time()
    marks = []
    run_online = voted_epochs.run_online

    def timed_run(*a, **k):  # the time at the end of every stretch of the sequence
        run = run_online(*a, **k)
        marks.append((time.perf_counter() - start, time.process_time() - cpu,
                      os.getloadavg()[0]))
        print("{:8.1f} s wall {:8.1f} s CPU  load {:.1f}".format(*marks[-1]), flush=True)
        return run

    voted_epochs.run_online = timed_run
    rows = voted_epochs_curve(train, test, degrees=[args.degree], epochs=checkpoints, seeds=[0])
    total, total_cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2
    summary = {"degree": args.degree, "checkpoints": checkpoints, "seconds": total,
               "cpu_seconds": total_cpu,
               "peak_rss_gib": peak, "cache_gib": args.cache_gib, "marks": marks,
               "load_end": os.getloadavg(), "records": rows}
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump(summary, handle, indent=1)
    for row in rows:
        if row["prediction"] in ("vote", "last (unnorm)"):
            print(f"T={row['epochs']:<5g} {row['prediction']:<14} {100 * row['test_error']:.2f}%"
                  f"  supvec {row['supvec']}  mistakes {row['mistakes']}")
    print(f"total {total:.0f} s wall, {total_cpu:.0f} s CPU, peak RSS {peak:.2f} GiB, "
          f"cache {args.cache_gib} GiB")


if __name__ == "__main__":
    main()
