"""The panels of the teaching plots: a run on 2-D data, and its mistakes against bounds over time.

They draw what they are given: a run, its data, a comparator and the bound
curves already computed (:func:`~perceptron_bounds.bounds.bounds_over_time`);
what is particular to the run's algorithm (its name, its ball, its matrix,
its margin errors) is read from its registration and its presentation
(:class:`~perceptron_bounds.plots.presentation.Presentation`).
:mod:`perceptron_bounds.plots.teaching` puts them together for the public
functions.
"""

from __future__ import annotations

import textwrap

import numpy as np
import scipy.sparse as sp

from .._validation import check_labels, check_X
from ..algorithms import get
from ..kernels import Kernel, kernel_of
from .labels import bound_label, run_label
from .presentation import presentation

#: Points per side of the grid on which a hypothesis' score is shaded.
GRID = 100
#: Colour and marker of the labels -1 and +1 (the shading uses lighter tones of them).
CLASS_STYLE = {-1: ("tab:orange", "s"), 1: ("tab:blue", "o")}
#: The largest semi-axis of the drawn A_k ellipse, as a fraction of the plot's half-width.
ELLIPSE_SCALE = 0.4

#: The mistakes panel's y axis ends at the largest bound value, at most this many times the
#: mistakes (a larger bound leaves through the top).
TOP_RATIO = 1000
#: Above this many times the mistakes, the mistakes panel's y axis is logarithmic (symlog:
#: linear from 0 to 1), so that the mistakes stay readable under a large bound.
LOG_RATIO = 10

#: Characters per line of the legend's note when no bound applies (the panel's width, size 7).
NOTE_WIDTH = 90


def plane(X):
    """The 2-D coordinates drawn of the instances ``X``, and the constant of a bias column.

    Parameters
    ----------
    X : ndarray or sparse matrix
        Two columns, or three whose last is one nonzero constant
        (:func:`~perceptron_bounds.datasets.add_bias`).

    Returns
    -------
    P : ndarray of shape (n_samples, 2)
        The first two columns.
    bias : float or None
        The constant of the third column; None for two columns.

    Raises
    ------
    ValueError
        Any other X.
    """
    X = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)
    if X.shape[1] == 2:
        return X, None
    if X.shape[1] == 3 and X[0, 2] != 0 and np.all(X[:, 2] == X[0, 2]):
        return X[:, :2], float(X[0, 2])
    raise ValueError(
        f"the teaching plots draw 2-D data: X must have 2 columns, or 3 whose last is a "
        f"constant bias feature (datasets.add_bias); got {X.shape[1]} columns"
    )


def _line_in_box(a, b, c, xlim, ylim):
    """The segment of {a x + b y + c = 0} inside the box, as (xs, ys); empty when none."""
    points = []
    if b != 0:
        for x in xlim:
            y = -(a * x + c) / b
            if ylim[0] <= y <= ylim[1]:
                points.append((x, y))
    if a != 0:
        for y in ylim:
            x = -(b * y + c) / a
            if xlim[0] <= x <= xlim[1]:
                points.append((x, y))
    if len(points) < 2:
        return [], []
    points = np.array(points)
    order = np.lexsort((points[:, 1], points[:, 0]))
    first, last = points[order[0]], points[order[-1]]
    return [first[0], last[0]], [first[1], last[1]]


class RunPanel:
    """The 2-D panel of a run: data and comparator drawn once, the state updated by ``show``.

    Parameters
    ----------
    ax : matplotlib Axes
        Where to draw.
    run : OnlineRun
        A binary run, not warm-started.
    X, y : array-like
        Its data, 2-D as :func:`plane` reads them.
    comparator : Comparator, optional
        Drawn as its line f(x) = 0 (dotted).
    gamma : float, optional
        With ``comparator``, its margin band |f(x)| < gamma is shaded grey.
    matrix : bool, default=False
        Draw ``Snapshot.matrix`` as an ellipse.

    Notes
    -----
    What the presentation of the run's algorithm declares decorates the panel
    (``Presentation.teaching``, ``Presentation.margin_error``; the ball of
    ``Algorithm.ball``): the ball around the
    example of the trial, the name of the matrix, the margin errors so far.
    """

    def __init__(self, ax, run, X, y, comparator=None, gamma=None, matrix=False):
        X = check_X(X, n_features=run.n_features)
        labels, _ = check_labels(y, X.shape[0], run.classes)
        self.ax, self.run = ax, run
        self.algorithm = get(run.algorithm)
        self.presentation = presentation(run.algorithm)
        self.P, self.bias = plane(X)
        self.linear = (kernel_of(run.params) if "kernel" in run.params else Kernel()).is_linear
        ball = self.algorithm.ball
        self.ball = run.params[ball] if ball is not None else None
        low, high = self.P.min(axis=0), self.P.max(axis=0)
        if self.bias is None:  # the hyperplanes pass through the origin: keep it in view
            low, high = np.minimum(low, 0.0), np.maximum(high, 0.0)
        centre, half = (low + high) / 2, max(float(np.max(high - low)) / 2, 1e-12) * 1.12
        self.xlim = (centre[0] - half, centre[0] + half)
        self.ylim = (centre[1] - half, centre[1] + half)
        self.half = half
        self.centre = np.zeros(2) if self.bias is None else self.P.mean(axis=0)
        xs = np.linspace(*self.xlim, GRID)
        ys = np.linspace(*self.ylim, GRID)
        grid = np.column_stack([np.repeat(xs[None, :], GRID, 0).ravel(),
                                np.repeat(ys[:, None], GRID, 1).ravel()])
        self.grid = self._lift(grid)
        self.grid_xy = (xs, ys)
        self._draw_static(labels, comparator, gamma, matrix)
        self._contours = []

    def _lift(self, points):
        """Plane points as instances of the run: the bias column appended when there is one."""
        if self.bias is None:
            return points
        return np.column_stack([points, np.full(points.shape[0], self.bias)])

    def _draw_static(self, labels, comparator, gamma, matrix):
        from matplotlib.colors import ListedColormap
        from matplotlib.patches import Circle, Ellipse

        ax, run = self.ax, self.run
        extent = (*self.xlim, *self.ylim)
        light = ListedColormap(["#fde9d4", "white", "#dde9f5"])  # -1, score 0, +1
        self.shade = ax.imshow(np.zeros((GRID, GRID)), extent=extent, origin="lower",
                               cmap=light, vmin=-1, vmax=1, interpolation="nearest", zorder=0)
        if comparator is not None:
            self._draw_comparator(comparator, gamma)
        for label in (1, -1):
            color, marker = CLASS_STYLE[label]
            value = run.classes[int(label > 0)]
            name = f"y = {label:+d}" + ("" if value == label else f" ({value})")
            points = self.P[labels == label]
            ax.scatter(points[:, 0], points[:, 1], s=22, c=color, marker=marker,
                       edgecolors="white", linewidths=0.4, zorder=3, label=name)
        empty = np.zeros((0, 2))
        self.mistakes = ax.scatter(empty[:, 0], empty[:, 1], s=90, facecolors="none",
                                   edgecolors="crimson", linewidths=1.3, zorder=8,
                                   label="mistaken so far")
        if self.presentation.margin_error is not None:
            self.margin_errors = ax.scatter(empty[:, 0], empty[:, 1], s=80, marker="D",
                                            facecolors="none", edgecolors="purple",
                                            linewidths=1.0, zorder=4,
                                            label="margin error so far")
        self.unqueried = None
        if run.queried_trials is not None:  # selective sampling (theory §2.14)
            self.unqueried = ax.scatter(empty[:, 0], empty[:, 1], s=70, marker="s",
                                        facecolors="none", edgecolors="0.3", linewidths=0.9,
                                        linestyle=":", zorder=4,
                                        label="label not queried (last shown)")
        self.previous, = ax.plot([], [], color="0.45", linestyle="--", linewidth=1.2, zorder=5,
                                 label="before this update")
        self.separator, = ax.plot([], [], color="k", linewidth=2.0, zorder=6,
                                  label="$w_k \\cdot x = 0$ after update k" if self.linear
                                  else "decision boundary after update k")
        self.separator.set_gid("separator")
        self.previous.set_gid("previous")
        self.current = ax.scatter(empty[:, 0], empty[:, 1], s=260, c="gold", edgecolors="k",
                                  linewidths=0.8, zorder=2.5, label="example of this trial")
        self.circle = None
        if self.ball is not None:
            radius = f"{self.algorithm.ball} = {self.ball:g}"
            self.circle = Circle((0, 0), self.ball, fill=False, color="purple", linewidth=1.2,
                                 zorder=6)
            ax.add_patch(self.circle)
            ax.plot([], [], marker="o", markersize=11, markerfacecolor="none", color="purple",
                    linestyle="none", label=f"ball of radius {radius} around it")
        self.supports = self.removed = None
        if self.presentation.teaching.supports:
            self.supports = ax.scatter(empty[:, 0], empty[:, 1], s=150, marker="o",
                                       facecolors="none", edgecolors="darkgreen",
                                       linewidths=1.6, zorder=7,
                                       label="supports (opacity: |coefficient|)")
            self.removed = ax.scatter(empty[:, 0], empty[:, 1], s=160, marker="x",
                                      c="darkgreen", linewidths=2.0, zorder=7,
                                      label="support removed by this update")
        self.ellipse = None
        if matrix:
            self.ellipse = Ellipse((0, 0), 0, 0, fill=False, color="seagreen", linewidth=1.5,
                                   zorder=5)
            ax.add_patch(self.ellipse)
            ax.plot([], [], marker="o", markersize=12, markerfacecolor="none", color="seagreen",
                    linestyle="none", label=self._matrix_name() + " as an ellipse (scaled)")
        self.matrix_text = ax.text(0.02, 0.02, "", transform=ax.transAxes, fontsize=7,
                                   color="seagreen", va="bottom", zorder=8,
                                   bbox={"facecolor": "white", "alpha": 0.7, "linewidth": 0})
        for label in (1, -1):
            ax.fill_between([], [], color=light(0.99 if label > 0 else 0.0),
                            label=f"shaded: predicted {label:+d}")
        ax.set_xlim(self.xlim)
        ax.set_ylim(self.ylim)
        ax.set_aspect("equal")
        ax.set_xlabel("$x_1$")
        ax.set_ylabel("$x_2$" + ("" if self.bias is None else
                                 f"   (bias feature $x_3$ = {self.bias:g})"))
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2, fontsize=7,
                  frameon=False)
        self.title = ax.set_title("", fontsize=9)

    def _matrix_name(self) -> str:
        """What ``Snapshot.matrix`` holds for the run (theory §2.4, §2.5), as registered."""
        name = self.presentation.teaching.matrix
        return "$A_k$" if name is None else name(self.run.params)

    def _draw_comparator(self, comparator, gamma):
        """The comparator's line f(x) = 0 and, with gamma, its band |f(x)| < gamma."""
        ax = self.ax
        f = comparator.values(self.grid).reshape(GRID, GRID)
        fx = "u \\cdot x" if comparator.u is not None else "f(x)"
        if gamma is not None:
            ax.contourf(*self.grid_xy, f, levels=[-gamma, gamma], colors=["0.6"], alpha=0.25,
                        zorder=1)
            ax.plot([], [], color="0.6", alpha=0.5, linewidth=6,
                    label=f"margin band $|{fx}| < \\gamma$ = {gamma:.3g}")
        if np.nanmin(f) < 0 < np.nanmax(f):
            ax.contour(*self.grid_xy, f, levels=[0.0], colors=["0.3"], linestyles=":",
                       linewidths=1.2, zorder=2)
            ax.plot([], [], color="0.3", linestyle=":",
                    label=f"comparator ${fx} = 0$ ({comparator.label})")

    def show(self, snapshot, trial, previous=None):
        """Draw the state ``snapshot`` at ``trial`` (0-based; -1: before the first trial).

        Parameters
        ----------
        snapshot : Snapshot
            The state drawn (``run.snapshots``).
        trial : int
            Its trial, 0-based; -1 before the first.
        previous : Snapshot, optional
            The state before ``trial``'s update, drawn dashed.
        """
        run = self.run
        scores = snapshot.decision_function(self.grid)
        self.shade.set_data(np.sign(scores).reshape(GRID, GRID))
        for contour in self._contours:
            contour.remove()
        self._contours = []
        if self.linear:
            self.separator.set_data(*self._line(snapshot.weights))
            self.previous.set_data(*(self._line(previous.weights) if previous is not None
                                     else ([], [])))
        else:
            self._contours.append(self._zero_contour(scores, "k", "-", 2.0))
            if previous is not None:
                self._contours.append(self._zero_contour(
                    previous.decision_function(self.grid), "0.45", "--", 1.2))
        mistakes = run.sample_index[run.mistake_trials[run.mistake_trials <= trial]]
        self.mistakes.set_offsets(self.P[np.unique(mistakes)].reshape(-1, 2))
        if self.presentation.margin_error is not None:
            errors = run.sample_index[run.margin_error_trials[run.margin_error_trials <= trial]]
            self.margin_errors.set_offsets(self.P[np.unique(errors)].reshape(-1, 2))
        if self.unqueried is not None:
            self.unqueried.set_offsets(self.P[_unqueried_rows(run, trial)].reshape(-1, 2))
        x = self.P[run.sample_index[trial]] if trial >= 0 else None
        self.current.set_offsets(np.reshape(x, (-1, 2)) if x is not None else np.zeros((0, 2)))
        if self.circle is not None:
            self.circle.set_visible(x is not None)
            if x is not None:
                self.circle.set_center(x)
        if self.ellipse is not None:
            self._show_matrix(snapshot)
        if self.supports is not None:
            self._show_supports(snapshot, previous)
        self.title.set_text(self._title(snapshot, trial))

    def _line(self, weights):
        if weights is None or not np.any(weights):
            return [], []
        offset = weights[2] * self.bias if self.bias is not None else 0.0
        return _line_in_box(weights[0], weights[1], offset, self.xlim, self.ylim)

    def _zero_contour(self, scores, color, style, width):
        scores = scores.reshape(GRID, GRID)
        if not scores.min() < 0 < scores.max():
            return _NoContour()
        return self.ax.contour(*self.grid_xy, scores, levels=[0.0], colors=[color],
                               linestyles=style, linewidths=width, zorder=6)

    def _show_supports(self, snapshot, previous):
        """The supports, as opaque as their coefficients are large; those just removed, crossed."""
        from matplotlib.colors import to_rgba

        held, coef = _supports(snapshot)
        colours = np.tile(to_rgba("darkgreen"), (held.shape[0], 1))
        if coef.size:
            colours[:, 3] = np.abs(coef) / np.abs(coef).max()
        self.supports.set_offsets(held[:, :2].reshape(-1, 2))
        self.supports.set_edgecolors(colours)
        before = _supports(previous)[0] if previous is not None else np.zeros((0, 2))
        now = {row.tobytes() for row in held}
        gone = np.array([row[:2] for row in before if row.tobytes() not in now])
        self.removed.set_offsets(gone.reshape(-1, 2))

    def _show_matrix(self, snapshot):
        matrix = snapshot.matrix
        if matrix is None:  # kernel (dual) forms keep no n x n matrix
            self.ellipse.set_visible(False)
            self.matrix_text.set_text("")
            return
        eigenvalues, vectors = np.linalg.eigh(matrix[:2, :2])
        eigenvalues = np.maximum(eigenvalues, 0.0)
        axes = np.sqrt(eigenvalues)
        scale = ELLIPSE_SCALE * self.half / axes[-1] if axes[-1] > 0 else 0.0
        self.ellipse.set_center(self.centre)
        self.ellipse.set_width(2 * axes[-1] * scale)
        self.ellipse.set_height(2 * axes[0] * scale)
        self.ellipse.set_angle(float(np.degrees(np.arctan2(vectors[1, -1], vectors[0, -1]))))
        self.ellipse.set_visible(axes[-1] > 0)
        block = "" if matrix.shape[0] == 2 else " ($x_1, x_2$ block)"
        self.matrix_text.set_text(
            f"$A_k${block}, k = {snapshot.k}: eigenvalues "
            + ", ".join(f"{value:.3g}" for value in eigenvalues[::-1]))

    def _title(self, snapshot, trial) -> str:
        run = self.run
        head = run_label(run)
        if trial < 0:
            return f"{head}\nbefore the first trial: w = 0 (update 0 of {run.n_updates})"
        if np.isin(trial, run.mistake_trials):
            what = "a mistake"
        elif np.isin(trial, run.margin_error_trials):
            what = "a margin error"
        else:
            what = "correct, no update"
        if run.queried_trials is not None:
            what += ("; label queried" if np.isin(trial, run.queried_trials)
                     else "; label not queried, no update")
        note = self.presentation.teaching.update_note
        if note is not None and np.isin(trial, run.update_trials):
            what = f"{what}, {note(run, trial)}"
        return (f"{head}\ntrial {trial + 1} of {run.n_trials}: {what} "
                f"(update {snapshot.k} of {run.n_updates})")


def _unqueried_rows(run, trial) -> np.ndarray:
    """The rows whose last showing up to ``trial`` was a trial whose label a selective-sampling
    run did not ask for (theory §2.14)."""
    shown = run.sample_index[:trial + 1]
    last = np.full(int(shown.max(initial=-1)) + 1, -1)
    np.maximum.at(last, shown, np.arange(shown.shape[0]))  # the last trial showing each row
    rows = np.flatnonzero(last >= 0)
    return rows[~np.isin(last[rows], run.queried_trials)]


def _supports(snapshot):
    """(support vectors as a dense array, their coefficients) of a snapshot's kernel hypothesis."""
    held = snapshot.support_vectors
    if held is None:  # the zero state before the first trial
        return np.zeros((0, 2)), np.zeros(0)
    held = held.toarray() if sp.issparse(held) else np.asarray(held, dtype=np.float64)
    return held, np.asarray(snapshot.dual_coef, dtype=np.float64)


class _NoContour:
    """Stands for a zero contour that does not cross the plot (the score has one sign)."""

    def remove(self):
        pass


def new_axes(ncols, size, width_ratios=None):
    """The ``ncols`` Axes, side by side, of a new constrained-layout Figure (no pyplot) at 80 dpi.

    Parameters
    ----------
    ncols : int
        How many Axes.
    size : (float, float)
        The figure's size in inches.
    width_ratios : sequence of float, optional
        Their relative widths.

    Returns
    -------
    list of matplotlib Axes
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=size, dpi=80, layout="constrained")
    return list(np.atleast_1d(fig.subplots(1, ncols, width_ratios=width_ratios)))


def draw_mistakes(ax, run, curves):
    """Draw the mistakes of trials 1..t of ``run`` against the bound ``curves``, on ``ax``.

    Parameters
    ----------
    ax : matplotlib Axes
        Where to draw.
    run : OnlineRun
        The run.
    curves : BoundCurves
        Its bounds over time, as :func:`~perceptron_bounds.bounds.bounds_over_time`
        returned them.

    Returns
    -------
    matplotlib Axes
        ``ax``, drawn as :func:`~perceptron_bounds.plots.plot_mistakes_over_time`
        describes.
    """
    from matplotlib.patches import Patch

    T = run.n_trials
    t = np.arange(1, T + 1)
    m = curves.mistakes
    peak = max((float(values[np.isfinite(values)].max()) for values in curves.values()
                if np.isfinite(values).any()), default=0.0)
    top = max(m[-1] + 1, 4, min(peak, TOP_RATIO * max(m[-1], 1)))
    ax.plot([0, T], [0, T], color="0.75", linewidth=1, linestyle="--", zorder=1,
            label="m = t: every trial a mistake", gid="trivial")
    ax.plot(np.r_[0, t], np.r_[0, m], drawstyle="steps-post", color="k", linewidth=2,
            zorder=5, label=f"mistakes m(t) (in all: {run.mistakes})", gid="mistakes")
    lanes = 0
    for i, (name, values) in enumerate(curves.items()):
        color = f"C{(i + 2) % 10}"
        finite = np.isfinite(values)
        final = f"{values[-1]:.3g}" if finite[-1] else "not applicable"
        above = " (above the axis)" if finite[-1] and values[-1] > top else ""
        # wider lines first: a bound equal to another (e.g. D = 0) still shows its colour
        width = 1.3 + 0.7 * (len(curves) - 1 - i)
        ax.plot(t, np.where(finite, values, np.nan), color=color, linewidth=width, zorder=4,
                label=f"{bound_label(name)}: {final} at t = {T}{above}", gid=name)
        if not finite.all():
            lanes += 1
            starts, stops = _stretches(~finite)
            ax.broken_barh([(a + 0.5, b - a) for a, b in zip(starts, stops, strict=True)],
                           (1.0 - 0.035 * lanes, 0.03), transform=ax.get_xaxis_transform(),
                           facecolors=color, alpha=0.35, hatch="///", edgecolor=color,
                           linewidth=0, zorder=3, gid=f"{name} not applicable")
    ax.set_xlim(0, T)
    ylabel = "mistakes on trials 1..t, and bounds"
    if top > LOG_RATIO * max(m[-1], 1):
        ax.set_yscale("symlog", linthresh=1.0, linscale=0.4)
        ylabel += " (log scale)"
    # headroom above the curves for the bars of the bounds that do not apply everywhere
    scale = ax.yaxis.get_transform()
    low, high = scale.transform(np.array([[0.0], [top]])).ravel()
    room = 1.0 - 0.035 * lanes - 0.04
    ax.set_ylim(0, float(scale.inverted().transform([[low + (high - low) / room]])[0, 0]))
    ax.set_xlabel("trial t")
    ax.set_ylabel(ylabel)
    variant = "tightened" if curves.variant == "tightened" else "as stated"
    what = ""
    if curves.comparator is not None and curves.gamma is not None:
        what = f"\nu: {curves.comparator.label}, $\\gamma$ = {curves.gamma:.3g}"
    ax.set_title(f"Mistakes against the bounds ({variant}) on trials 1..t{what}", fontsize=9)
    ax.grid(alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    if lanes:
        handles.append(Patch(facecolor="0.7", hatch="///", edgecolor="0.4", linewidth=0))
        labels.append("hatched bar at the top: the bound does not apply on those trials")
    if not curves:  # wrapped: the reasons of a bound that needs separation fill a line or two
        labels[-1] += "\n" + textwrap.fill("; ".join(curves.notes), NOTE_WIDTH)
    ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.14), fontsize=7,
              frameon=False)
    return ax


def _stretches(mask):
    """(starts, stops) of the runs of True in ``mask``: trials start + 1 .. stop (1-based)."""
    edges = np.diff(np.r_[0, mask.astype(np.int8), 0])
    return np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)


