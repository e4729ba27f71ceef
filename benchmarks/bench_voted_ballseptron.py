"""Speed of the Ballseptron loops and of voted-Perceptron scoring against named baselines.

Best of ``--repeats`` timings after a warm-up call (the compile is excluded),
all in one process:

* Ballseptron (r = 0.1), one epoch, against the Perceptron's loop on the same
  data and order: dense unit-norm rows, a CSR matrix (~50 non-zeros per
  row) and the kernel form (rbf). The ratio is the price of the margin-error
  test and updates (one extra square root per correct trial).
* Voted Perceptron scoring of test rows by ``method="vote"`` (every v_j . x
  by the recurrence v_{j+1} . x = v_j . x + y K(x_{i_j}, x): k kernel values
  a point) against (a) the Perceptron's final hypothesis (k kernel values, one
  vector: the floor) and (b) the naive O(k^2) scoring that forms each v_j . x
  as its own sum (a lower-triangular matrix product).

Run: ``python benchmarks/bench_voted_ballseptron.py [--repeats 3] [--small]``.
"""

from __future__ import annotations

import argparse

import numpy as np
import scipy.sparse as sp
from _timing import best_time

from perceptron_bounds import run_online


def labelled(n_samples, n_features, rng, sparse=False):
    if sparse:
        X = sp.random(n_samples, n_features, density=50 / n_features, format="csr",
                      random_state=rng, dtype=np.float64)
        norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
        X = sp.diags(1.0 / np.maximum(norms, 1e-12)) @ X
        X = sp.csr_matrix(X)
    else:
        X = rng.standard_normal((n_samples, n_features))
        X /= np.linalg.norm(X, axis=1)[:, None]
    u = rng.standard_normal(n_features)
    y = np.where(np.asarray(X @ u).ravel() > 0, 1.0, -1.0)
    flip = rng.random(n_samples) < 0.05
    y[flip] = -y[flip]
    return X, y


def ballseptron_rows(small, repeats, rng):
    scale = 10 if small else 1
    cases = [
        ("dense (100000, 100)", labelled(100_000 // scale, 100, rng), {}),
        ("CSR 100000 x 50000", labelled(100_000 // scale, 50_000, rng, sparse=True), {}),
        ("rbf kernel (4000, 20)", labelled(4000 // scale, 20, rng), {"kernel": "rbf"}),
    ]
    rows = []
    for name, (X, y), params in cases:
        ball = best_time(lambda X=X, y=y, p=params: run_online("ballseptron", X, y, r=0.1, **p),
                         repeats)
        perc = best_time(lambda X=X, y=y, p=params: run_online("perceptron", X, y, **p), repeats)
        run = run_online("ballseptron", X, y, r=0.1, **params)
        rows.append((name, ball, perc, ball / perc, run.mistakes, run.margin_errors))
    print(f"{'Ballseptron, 1 epoch':24s} {'ball s':>9s} {'perc s':>9s} {'ratio':>7s} "
          f"{'mistakes':>9s} {'m.errors':>9s}")
    for name, ball, perc, ratio, m, e in rows:
        print(f"{name:24s} {ball:9.4f} {perc:9.4f} {ratio:7.2f} {m:9d} {e:9d}")


def voted_rows(small, repeats, rng):
    n_train, n_test = (1000, 500) if small else (5000, 2000)
    X, y = labelled(n_train, 20, rng)
    Z, _ = labelled(n_test, 20, rng)
    voted = run_online("voted_perceptron", X, y, epochs=2, kernel="rbf")
    perceptron = run_online("perceptron", X, y, epochs=2, kernel="rbf")
    hyp = voted.hypothesis
    lower = np.tril(np.ones((hyp.labels.shape[0],) * 2)) * hyp.labels[None, :]

    def naive():
        # v_{j+1} . z = sum_{l <= j} y_l K(x_l, z), each formed from scratch: O(k^2) a point.
        V = hyp.kernel.gram(Z, hyp.support_vectors) @ lower.T
        return np.sign(V) @ hyp.counts[1:]

    np.testing.assert_allclose(naive(), voted.decision_function(Z, method="vote"))
    recurrence = best_time(lambda: voted.decision_function(Z, method="vote"), repeats)
    floor = best_time(lambda: perceptron.decision_function(Z), repeats)
    quadratic = best_time(naive, repeats)
    print(f"\nvoted scoring, rbf, k = {hyp.labels.shape[0]} support vectors, {n_test} test rows")
    print(f"{'method':36s} {'seconds':>9s} {'/ recurrence':>13s}")
    for name, seconds in [("vote by the recurrence (package)", recurrence),
                          ("Perceptron last vector (floor)", floor),
                          ("vote, naive O(k^2)", quadratic)]:
        print(f"{name:36s} {seconds:9.4f} {seconds / recurrence:13.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--small", action="store_true", help="shapes divided by 10")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    ballseptron_rows(args.small, args.repeats, rng)
    voted_rows(args.small, args.repeats, rng)


if __name__ == "__main__":
    main()
