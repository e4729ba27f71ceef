"""The same run gives the same bits wherever the allocator puts its arrays.

With reassociation allowed, a loop that sums and also writes to an array is
compiled twice (vectorised, and scalar for arrays that might overlap) and the
version is chosen by the arrays' addresses; small arrays allocated one after
the other can take either, and the sum's order, hence its last bits, would
follow (perceptron_bounds._linalg, "Determinism"). Runs on few features, with
the heap disturbed between them, must agree bit for bit.
"""

import numpy as np
import pytest

from perceptron_bounds import run_online

rng = np.random.default_rng(4)
X = rng.standard_normal((50, 4))
Y = np.where(X @ [1.0, -2.0, 0.5, 0.0] + 0.4 * rng.standard_normal(50) > 0, 1, -1)

RUNS = [
    ("pnorm", {"p": 4.0, "normalize": False}),
    ("pnorm", {"p": 7.0}),
    ("higher_order", {"p": 3.0, "form": "implicit"}),
    ("higher_order", {"form": "primal"}),
    ("higher_order", {"form": "primal", "sparse": True}),
    ("higher_order", {"kernel": "rbf", "gamma": 0.5}),
    ("second_order", {"form": "primal"}),
    ("second_order", {"form": "dual"}),
    ("second_order", {"form": "primal", "variant": "pinv"}),
    ("ballseptron", {"r": 0.3}),
]


@pytest.mark.parametrize("algorithm, params", RUNS)
def test_a_run_does_not_depend_on_where_its_arrays_sit(algorithm, params):
    first = run_online(algorithm, X, Y, epochs=3, record_margins=True, **params)
    keep = []
    for size in range(1, 40):
        keep.append(np.empty(size))  # moves the next allocations around the heap
        again = run_online(algorithm, X, Y, epochs=3, record_margins=True, **params)
        np.testing.assert_array_equal(again.mistake_trials, first.mistake_trials)
        np.testing.assert_array_equal(again.margins, first.margins)
        np.testing.assert_array_equal(again.decision_function(X), first.decision_function(X))
