"""``perceptron-bounds demo``: animate one algorithm on 2-D data beside its mistakes and bounds.

``demo ALGORITHM [--param NAME=VALUE ...] [--data FILE] [--noise ETA] [--seed S]
[--epochs E] [--per update|trial] [--out demo.gif|demo.mp4|demo.html]`` writes the
animation of :func:`perceptron_bounds.plots.animation.animate` (the run beside the bound
curves it computes) and prints its path.
"""

from __future__ import annotations

import argparse
import math
import os

from .. import run_online
from ..algorithms import available
from ..bounds import bounds_over_time
from ..datasets import make_separable
from ..plots.animation import FORMATS, PER, animate, save_animation
from ._commands import HELP
from ._common import (
    UsageError,
    add_data_arguments,
    algorithm_name,
    check_run_options,
    choice,
    format_params,
    positive_class,
    read_file,
)

#: The built-in 2-D data: unit instances separated by a random u with a visible margin;
#: ``--noise`` flips labels, ``--seed`` draws them (the default draws a sequence on which
#: every algorithm updates a few times).
DEMO_DATA = {"n_samples": 100, "n_features": 2, "margin": 0.1}
DEMO_SEED = 2


def add_parser(subparsers, name: str) -> argparse.ArgumentParser:
    """Register the command ``name`` on the main parser's subparsers."""
    parser = subparsers.add_parser(
        name, help=HELP[name],
        description="Run one algorithm on 2-D data and write an animation: left, the data, the "
        "mistakes so far and the hypothesis after each update (with the Ballseptron's ball and "
        "the Second-/Higher-Order matrix as an ellipse); right, the mistakes on trials 1..t "
        "against each bound on the same trials. Without --data it uses built-in 2-D data, "
        "separable by a known u with margin 0.1 (100 points on the unit circle), and holds the "
        "bounds at that u and gamma = 0.1 (searched when no bound holds there). Prints the "
        "path written.",
    )
    parser.add_argument("algorithm", type=algorithm_name, metavar="ALGORITHM",
                        help="one of: " + ", ".join(available()))
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="an algorithm parameter, e.g. --param r=0.05 --param kernel=rbf "
                        "(repeatable)")
    add_data_arguments(parser)
    parser.add_argument("--noise", type=float, default=0.0, metavar="ETA",
                        help="built-in data: flip each label with probability ETA in [0, 1] "
                        "(default 0: separable)")
    parser.add_argument("--seed", type=int, default=DEMO_SEED, metavar="S",
                        help=f"seed of the built-in data (default {DEMO_SEED})")
    parser.add_argument("--epochs", type=int, default=2, metavar="E",
                        help="passes over the data, in order (default 2)")
    parser.add_argument("--per", type=choice(PER, "frame kind"), default="update",
                        metavar="update|trial",
                        help="one frame per update (default) or one per trial")
    parser.add_argument("--out", default="demo.gif", metavar="FILE",
                        help="the animation: .gif, .html (one self-contained page) or .mp4 "
                        "(needs ffmpeg); default demo.gif")
    parser.set_defaults(handler=demo_command, shuffle=False)
    return parser


def check_out(path: str) -> None:
    """``--out`` must name a format :func:`save_animation` writes, in an existing folder."""
    extension = os.path.splitext(path)[1].lower()
    if extension not in FORMATS:
        raise UsageError(f"--out {path}: the file must end in {', '.join(FORMATS)}")
    if extension == ".mp4":
        from matplotlib import animation

        if not animation.writers.is_available("ffmpeg"):
            raise UsageError(f"--out {path}: writing .mp4 needs ffmpeg, which is not on the "
                             "PATH; write .gif or .html instead")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise UsageError(f"--out {path}: no folder {folder}")


def demo_command(args) -> int:
    """``demo``: run the algorithm, animate it, save the animation, print its path."""
    params, _ = check_run_options(args, [args.algorithm])
    check_out(args.out)
    if not 0.0 <= args.noise <= 1.0 or math.isnan(args.noise):
        raise UsageError(f"--noise must be in [0, 1], got {args.noise}")
    if args.data is not None:
        if args.noise:
            raise UsageError("--noise flips the labels of the built-in data: give it without "
                             "--data")
        X, y, target = read_file(args.data, args)
        source = args.data
    else:
        if args.label_column is not None or args.delimiter is not None:
            raise UsageError("--label-column and --delimiter describe a CSV file: give --data "
                             "FILE")
        X, y, target = positive_class(
            make_separable(**DEMO_DATA, label_noise=args.noise, seed=args.seed),
            args.positive_class)
        source = (f"built-in make_separable({DEMO_DATA['n_samples']}, 2, margin="
                  f"{DEMO_DATA['margin']}, label_noise={args.noise}, seed={args.seed})")
    if X.shape[1] not in (2, 3):
        raise UsageError(f"the demo draws 2-D data; {source} has {X.shape[1]} features")
    run = run_online(args.algorithm, X, y, epochs=args.epochs, **params)
    linear = run.params.get("kernel", "linear") == "linear"
    u = target if linear else None
    curves = None
    if u is not None and args.data is None:
        # the data's own margin, unless no bound holds there (the Ballseptron's stated bounds
        # need r < (sqrt 2 - 1) gamma): then the one evaluate finds best
        curves = bounds_over_time(run, X, y, u=u, gamma=DEMO_DATA["margin"])
    if not curves:
        curves = bounds_over_time(run, X, y, u=u)
    anim = animate(run, X, y, curves, per=args.per)
    path = save_animation(anim, args.out)
    frames = run.n_updates + 1 if args.per == "update" else run.n_trials
    print(f"{path}: {run.algorithm}({format_params(run.params)}) on {source}: "
          f"{run.mistakes} mistakes, {run.n_updates} updates in {run.n_trials} trials; "
          f"{frames} frames")
    return 0
