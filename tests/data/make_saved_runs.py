"""Write the saved runs of earlier releases that tests/test_persistence.py loads.

Run with the code of the release to record, from the repository root:

    PYTHONPATH=<checkout of that release> python tests/data/make_saved_runs.py LABEL [CASE ...]

It writes ``LABEL_CASE.npz`` for each case (default: all). The files here:
``v3_*`` by perceptron_bounds 0.1.0 at commit 726e6b7 (format version 3, with the
data fingerprint), ``v2_perceptron`` and ``v2_ovr`` by commit 4163777, the release
before the fingerprint (a binary run saved as format 1, a one-vs-rest run as format
2), ``v4_selective`` by the selective-sampling release (format version 4: the queried
trials of a one-vs-rest selective Perceptron run). The data are small integers, so every update is exact and a run made today must
equal the saved one bit for bit.
"""

import sys
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from perceptron_bounds import run_online

X = np.array([[2, 1, 0], [-1, 2, 1], [1, -2, 2], [-2, -1, 1], [0, 3, -1], [3, 0, 1],
              [-1, -1, -2], [1, 1, 3], [-3, 1, 0], [2, -1, -1], [0, -2, 2], [1, 2, -2]],
             dtype=float)
Y = np.array([1, -1, 1, -1, -1, 1, -1, 1, -1, 1, 1, -1])
Y3 = np.array(["a", "b", "c", "a", "b", "c", "c", "a", "b", "a", "c", "b"])
CASES = {
    "perceptron": (("perceptron", X, Y), {"epochs": 2, "record_margins": True}),
    "ovr": (("perceptron", X, Y3), {"epochs": 2, "multiclass": "ovr"}),
    "voted_csr": (("voted_perceptron", sp.csr_matrix(X), np.where(Y > 0, "yes", "no")),
                  {"epochs": 2, "shuffle": True, "seed": 5}),
    "native": (("ballseptron", X, Y3), {"multiclass": "native", "r": 0.5, "record_margins": True}),
    "higher_order": (("higher_order", X, Y), {"rho": [0.5, 0.25] * 12, "epochs": 2}),
    "selective": (("selective_perceptron", X, Y3), {"b": 0.5, "epochs": 2, "seed": 3}),
}

if __name__ == "__main__":
    label, names = sys.argv[1], sys.argv[2:] or list(CASES)
    for name in names:
        args, options = CASES[name]
        run_online(*args, **options).save(Path(__file__).parent / f"{label}_{name}.npz")
