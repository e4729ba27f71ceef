"""Adding an algorithm: the margin Perceptron and its mistake bound, from outside the package.

The worked example of the docs page "Adding an algorithm". With public names only,
it registers a new algorithm, the Perceptron with a fixed margin tau >= 0 (the
"margin Perceptron": ``w_1 = 0`` and ``w <- w + y_t x_t`` whenever
``y_t w . x_t <= tau``), and declares one mistake bound for it; then it runs it
(``run_online``), evaluates the bound (``evaluate``, ``bounds_over_time``), draws a
teaching plot, fits its scikit-learn estimator (``estimator_of``) and compares it with
the Perceptron on the command line's ``compare``.
Data: 120 unit vectors in the plane separated by a known unit u with margin 0.1
(``make_separable(120, 2, margin=0.1, seed=2)``), shown three times. Writes
OUT_DIR/adding_an_algorithm.png and prints what it measures.

The bound. If a unit u has ``y_t u . x_t >= gamma > 0`` on every trial and
``R = max ||x_t||``, the margin Perceptron makes at most ``(R^2 + 2 tau) / gamma^2``
updates, so at most as many mistakes. Proof (Novikoff's, with the margin)::

    On the k-th update (trial t, y_t w_k . x_t <= tau):
      u . w_{k+1} = u . w_k + y_t u . x_t >= u . w_k + gamma
      ||w_{k+1}||^2 = ||w_k||^2 + 2 y_t w_k . x_t + ||x_t||^2 <= ||w_k||^2 + 2 tau + R^2
    so after m updates, from w_1 = 0:
      m gamma <= u . w_{m+1} <= ||w_{m+1}|| <= sqrt(m (R^2 + 2 tau)),
    hence m <= (R^2 + 2 tau) / gamma^2.

Only the update trials enter the proof, so R and the margin condition may be taken
over them alone (the bound's tightened variant, theory §4.2). With tau = 0 this is
Novikoff's bound (theory §4.1, paper 001 Thm 1).

Usage: python examples/adding_an_algorithm.py [OUT_DIR]   (default: ./figures)
"""

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from perceptron_bounds import run_online
from perceptron_bounds.algorithms import (
    EVERY,
    Algorithm,
    LoopResult,
    available,
    jit,
    register,
    stop_requested,
)
from perceptron_bounds.bounds import (
    Bound,
    GammaInterval,
    bounds_over_time,
    declared_bounds,
    evaluate,
    register_bound,
)
from perceptron_bounds.cli import main as command_line
from perceptron_bounds.datasets import make_separable
from perceptron_bounds.estimators import estimator_of
from perceptron_bounds.hypothesis import LinearHypothesis
from perceptron_bounds.plots import plot_mistakes_over_time, plot_run_2d, register_presentation

NAME, TAU, MARGIN, SEED = "margin_perceptron", 0.5, 0.1, 2


# [loop]
@jit
def margin_perceptron_loop(X, y, order, tau, w, margins):
    """Margin Perceptron over dense rows: w += y x when y w.x <= tau. Updates w in place;
    returns (mistake trials, margin-error trials)."""
    n_trials, n = order.shape[0], X.shape[1]
    record = margins.shape[0] > 0
    mistakes = np.empty(n_trials, dtype=np.int64)
    errors = np.empty(n_trials, dtype=np.int64)
    m = e = 0
    for t in range(n_trials):
        if t % EVERY == 0 and stop_requested(t):  # Ctrl-C: return trials 0..t-1
            break
        i = order[t]
        s = 0.0
        for j in range(n):
            s += w[j] * X[i, j]
        if record:
            margins[t] = s
        if y[i] * s <= tau:  # an update: a mistake (y w.x <= 0) or a margin error
            for j in range(n):
                w[j] += y[i] * X[i, j]
            if y[i] * s <= 0.0:
                mistakes[m] = t
                m += 1
            else:
                errors[e] = t
                e += 1
    return mistakes[:m].copy(), errors[:e].copy()
# [/loop]


# [register]
def resolve(params, data):
    """The parameters checked before any trial runs: tau a finite number >= 0, X dense."""
    tau = params["tau"]
    if isinstance(tau, bool) or not isinstance(tau, (int, float)) or not 0 <= tau < np.inf:
        raise ValueError(f"{NAME}: tau must be a finite number >= 0, got {tau!r}")
    if data.sparse:
        raise ValueError(f"{NAME}: X must be dense (this example's loop reads dense rows), "
                         "got a sparse matrix")
    return {"tau": float(tau)}


def fit(data, order, params, margins, previous):
    """Run the loop from w = 0, or from the final weights of ``previous`` (a warm start)."""
    w = np.zeros(data.n_features) if previous is None else previous.weights.copy()
    mistakes, errors = margin_perceptron_loop(data.X, data.y, order, params["tau"], w, margins)
    return LoopResult(mistakes, LinearHypothesis(w), margin_error_trials=errors)


if NAME not in declared_bounds():  # the docs gallery may run this script twice in a process
    register_bound(Bound(
        name=NAME, label=r"margin_perceptron $(R^2 + 2\tau)/\gamma^2$",
        source="examples/adding_an_algorithm.py (Novikoff's proof with a margin)",
        value=lambda q, gamma: (q.R ** 2 + 2.0 * q.params["tau"]) / gamma ** 2,
        quantities=("R", "min_margin"),
        conditions=(GammaInterval(
            lambda q: f"u separates {q.which} with margin gamma: gamma <= min y u.x = "
                      f"{q.min_margin:.6g}", high="min_margin"),)))

if NAME not in available():
    register(Algorithm(
        name=NAME, defaults={"tau": 1.0}, resolve=resolve, fit=fit,
        summary="Perceptron with a fixed margin tau (the adding_an_algorithm example)",
        bounds=(NAME,)))
    # how figures name it and mark its margin errors (the plots' record, beside it)
    register_presentation(
        NAME, display_name="Margin Perceptron", label_params=("tau",),
        margin_error=(r"$0 < y\,w \cdot x \leq \tau$", r"$0 < y\,w \cdot x \leq \tau$"))
# [/register]


def main(out: Path) -> None:
    start = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    X, y, u = make_separable(120, 2, margin=MARGIN, seed=SEED)

    # [use]
    run = run_online(NAME, X, y, epochs=3, tau=TAU)
    report = evaluate(run, X, y, target=u)
    row = report.row(NAME)  # the stated variant, gamma searched (theory §4.3)
    curves = bounds_over_time(run, X, y, u=u, gamma=MARGIN)

    fig = Figure(figsize=(11.0, 5.0), dpi=80, layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=[1.0, 1.1])
    plot_run_2d(run, X, y, ax=left, u=u, gamma=MARGIN)
    plot_mistakes_over_time(run, X, y, curves, ax=right)
    fig.savefig(out / "adding_an_algorithm.png")

    # a scikit-learn estimator over it, its registered defaults as parameters
    clf = estimator_of(NAME)(protocol="paper", epochs=3, tau=TAU).fit(X, y)

    with tempfile.TemporaryDirectory() as folder:  # compare reads data from a file
        data = os.path.join(folder, "data.npz")
        np.savez(data, X=X, y=y, u=u)
        command_line(["compare", "--data", data, "--algorithms", f"perceptron,{NAME}",
                      "--epochs", "3", "--param", f"tau={TAU}"])
    # [/use]

    print(f"{NAME}: {run.mistakes} mistakes and {run.margin_errors} margin errors "
          f"({run.n_updates} updates) in {run.n_trials} trials, tau = {TAU}")
    print(f"evaluate: bound {row.value:.4g} at gamma = {row.gamma:.4g} (R = "
          f"{row.quantities['R']:.4g}); updates <= bound: {run.n_updates <= row.value}")
    values = curves[NAME]
    print(f"bounds_over_time at gamma = {MARGIN}: {values[-1]:.4g} at t = {run.n_trials}; "
          f"above the mistakes on every prefix: {bool((values >= curves.mistakes).all())}")
    print(f"estimator_of: {clf!r}, {clf.mistakes_} mistakes in fit (the run's: "
          f"{clf.mistakes_ == run.mistakes}), training accuracy {clf.score(X, y):.3f}")
    print(f"wrote {out / 'adding_an_algorithm.png'} in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=Path("figures"), metavar="OUT_DIR",
                        help="folder of adding_an_algorithm.png (default: ./figures)")
    main(parser.parse_args().out)
