"""Teaching: the Projectron keeps a kernel Perceptron's accuracy on far fewer supports.

Data: 150 points of the plane in [-1, 1]^2 labelled by a circle of radius 0.6
around the origin, 5% of the labels flipped, shown three times in a fresh
order (seed 3). Every run uses the rbf kernel K(x, z) = exp(-2 ||x - z||^2).
The Projectron (theory §2.13) adds a mistaken instance as a support only when
its distance delta to the span of the supports exceeds eta; otherwise it
moves the coefficients by the projection, so that the supports stay. Left:
the Projectron with eta = 0.3 after its last update (the zero level of f,
its mistakes so far, its supports as black crosses); middle: the
Projectron++ with the same eta, which also updates on some margin errors
(diamonds); right: the supports (solid) and the
mistakes (dashed) over the trials for eta = 0 (the kernel Perceptron while
the instances are new), 0.3 and 0.6. Writes OUT_DIR/projectron.png and the
Projectron++ run as an animation, OUT_DIR/projectron.gif, and prints the runs
and their bounds (theory §4.12) against a kernel SVM comparator.

Usage: python examples/projectron.py [OUT_DIR] [--quick]   (default: ./figures; it takes
seconds either way)
"""

import argparse
import time
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from perceptron_bounds import __version__, run_online
from perceptron_bounds.bounds import evaluate
from perceptron_bounds.plots import animate_run, plot_run_2d, save_animation

SEED, ETA, ETAS = 3, 0.3, (0.0, 0.3, 0.6)
KERNEL = {"kernel": "rbf", "gamma": 2.0}


def circle_data(n, seed):
    """n points of [-1, 1]^2, +1 inside the circle of radius 0.6, 5% of the labels flipped."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.0, 1.0, size=(n, 2))
    y = np.where(np.linalg.norm(X, axis=1) < 0.6, 1.0, -1.0)
    y[rng.random(n) < 0.05] *= -1.0
    return X, y


def supports_over_time(run):
    """The number of supports after each trial: it grows only on the added updates."""
    grown = np.zeros(run.n_trials)
    grown[run.update_trials[run.state["added"]]] = 1.0
    return np.cumsum(grown)


def main(out: Path) -> None:
    start = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    X, y = circle_data(150, SEED)
    presentation = {"epochs": 3, "shuffle": True, "seed": SEED}
    plain = run_online("projectron", X, y, eta=ETA, **KERNEL, **presentation)
    plus = run_online("projectron", X, y, eta=ETA, plus=True, **KERNEL, **presentation)
    perceptron = run_online("perceptron", X, y, **KERNEL, **presentation)
    sweep = {eta: plain if eta == ETA else run_online("projectron", X, y, eta=eta, **KERNEL,
                                                       **presentation) for eta in ETAS}

    fig = Figure(figsize=(15.0, 5.0), dpi=80, layout="constrained")
    plain_ax, plus_ax, count_ax = fig.subplots(1, 3, width_ratios=[1.0, 1.0, 1.1])
    for run, ax in ((plain, plain_ax), (plus, plus_ax)):
        plot_run_2d(run, X, y, ax=ax)
        S = run.support_vectors
        ax.scatter(S[:, 0], S[:, 1], marker="+", s=120, color="black", zorder=5)
        ax.set_xlabel(ax.get_xlabel() + f"   (+: the {S.shape[0]} supports)")
    trials = np.arange(1, perceptron.n_trials + 1)
    count_ax.plot(trials, np.cumsum(np.isin(np.arange(perceptron.n_trials),
                                            perceptron.mistake_trials)),
                  color="black", label="kernel Perceptron: supports = mistakes")
    for (eta, run), color in zip(sweep.items(), ("tab:blue", "tab:orange", "tab:green"),
                                 strict=True):
        count_ax.plot(trials, supports_over_time(run), color=color,
                      label=f"Projectron, eta = {eta:g}: supports")
        mistakes = np.cumsum(np.isin(np.arange(run.n_trials), run.mistake_trials))
        count_ax.plot(trials, mistakes, color=color, linestyle="--",
                      label=f"Projectron, eta = {eta:g}: mistakes")
    count_ax.set_xlabel("trial t")
    count_ax.set_ylabel("count after trial t")
    count_ax.set_title("supports (solid) and mistakes (dashed)")
    count_ax.legend(fontsize="small")
    png = out / "projectron.png"
    fig.savefig(png)

    gif = save_animation(animate_run(plus, X, y), out / "projectron.gif")
    print(f"Projectron demo: {time.perf_counter() - start:.1f} s "
          f"(perceptron_bounds {__version__}, seed {SEED}, rbf gamma = {KERNEL['gamma']})")
    print(f"  kernel Perceptron: {perceptron.mistakes} mistakes, "
          f"{perceptron.support_vectors.shape[0]} supports, "
          f"training error {np.mean(perceptron.predict(X) != y):.3f}")
    for name, run in [*((f"Projectron, eta = {eta:g}", run) for eta, run in sweep.items()),
                      (f"Projectron++, eta = {ETA:g}", plus)]:
        added = int(run.state["added"].sum())
        print(f"  {name}: {run.mistakes} mistakes ({added} added, {run.mistakes - added} "
              f"projected), {run.margin_errors} margin-error updates, "
              f"{run.support_vectors.shape[0]} supports, training error "
              f"{np.mean(run.predict(X) != y):.3f}")
        if run in (plain, plus):  # the runs drawn: their bounds against a kernel SVM
            for row in evaluate(run, X, y).rows:
                value = (f"{row.value:.4g} at gamma = {row.gamma:.3g}" if row.applies
                         else row.reason)
                print(f"    {row.name} ({row.variant}): {value}")
    print(f"wrote {png}, {gif}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=Path("figures"), metavar="OUT_DIR",
                        help="folder of projectron.png and projectron.gif (default: ./figures)")
    parser.add_argument("--quick", action="store_true",
                        help="accepted for the docs' quick build; the demo is small already")
    main(parser.parse_args().out)
