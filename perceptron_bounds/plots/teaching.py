"""Teaching plots: a run on 2-D data update by update, its mistakes against the bounds over time,
and animations of both.

Every function takes a run and its data, draws on a given Axes (or a new
Figure, without pyplot) and returns it; none calls ``plt.show()``.

* :func:`plot_run_2d`: the data, the mistakes so far, the hypothesis after the
  k-th update (its line w . x = 0 and the sign of its score), the example of
  that update, the Ballseptron's ball, the Second-/Higher-Order matrix as an
  ellipse, and a comparator's margin band;
* :func:`plot_mistakes_over_time`: the mistakes of trials 1..t as a step
  curve, with each bound on the same prefix (:func:`~perceptron_bounds.bounds.bounds_over_time`);
* :func:`animate_run`: both panels side by side, one frame per update (or per
  trial), and :func:`save_animation` to write it as GIF, MP4 or HTML.
"""

from __future__ import annotations

import os

import numpy as np
import scipy.sparse as sp

from .._validation import check_choice, check_int, check_real, check_X
from ..bounds.over_time import bounds_over_time
from ..bounds.quantities import RunData
from ..bounds.search import unit_comparator

#: Frames of :func:`animate_run`: one per update (k = 0..n_updates) or one per trial.
PER = ("update", "trial")
#: The files :func:`save_animation` writes, by extension.
FORMATS = (".gif", ".mp4", ".html")
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

#: Display names of the algorithms; another registered algorithm shows its own name.
ALGORITHM_NAMES = {
    "perceptron": "Perceptron",
    "voted_perceptron": "Voted Perceptron",
    "ballseptron": "Ballseptron",
    "pnorm": "p-norm Perceptron",
    "second_order": "Second-Order Perceptron",
    "higher_order": "Higher-Order Perceptron",
}

#: The bounds' closed forms for the legend (theory §4.1); D sums the hinge losses.
BOUND_LABELS = {
    "novikoff": r"novikoff $(R/\gamma)^2$",
    "freund_schapire": r"freund_schapire $((R + D_2)/\gamma)^2$",
    "ballseptron_d1": r"ballseptron_d1 $((R + \sqrt{\gamma D_1})/\gamma)^2$",
    "ballseptron_corrected_d2": r"ballseptron_corrected_d2: D$_2$ bound $- \tilde\varepsilon\beta$",
    "ballseptron_corrected_d1": r"ballseptron_corrected_d1: D$_1$ bound $- \tilde\varepsilon\beta$",
    "second_order": "second_order (SO, Thm 1)",
    "second_order_adaptive": "second_order_adaptive (SO, Thm 3)",
    "second_order_pinv": "second_order_pinv (SO, Thm 4)",
    "higher_order": "higher_order (HO, Thm 1)",
}


def _algorithm_label(run) -> str:
    """``"Ballseptron (r = 0.1)"``: the name and the parameters that set the run apart."""
    params = run.params
    shown = {"ballseptron": ["r"], "pnorm": ["p"], "higher_order": ["p", "c"]}.get(
        run.algorithm, [])
    if run.algorithm == "second_order":
        shown = [key for key in ("variant", {"inverse": "a", "adaptive": "c"}.get(
            params["variant"])) if key]
    if run.algorithm == "higher_order" and params.get("rho") is not None:
        shown = ["p", "rho"]
    kernel = params.get("kernel", "linear")
    if kernel != "linear":
        shown += ["kernel", "gamma"] + (["degree", "coef0"] if kernel == "poly" else [])
    values = ", ".join(f"{key} = {params[key]:g}" if isinstance(params[key], float)
                       else f"{key} = {params[key]}" for key in shown)
    name = ALGORITHM_NAMES.get(run.algorithm, run.algorithm)
    return f"{name} ({values})" if values else name


def _plane(X):
    """(P, bias): the 2-D coordinates drawn, and the constant of a third bias column or None.

    X has two columns, or three whose last is one nonzero constant (``add_bias``);
    anything else is a ValueError.
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


class _RunPanel:
    """The 2-D panel: static data and comparator drawn once, the state updated per frame."""

    def __init__(self, ax, run, X, y, comparator=None, gamma=None, matrix=False):
        data = RunData(run, X, y)
        self.ax, self.run = ax, run
        self.P, self.bias = _plane(data.X_raw)
        self.linear = data.kernel.is_linear
        self.ball = run.params.get("r") if run.algorithm == "ballseptron" else None
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
        self._draw_static(data.y, comparator, gamma, matrix)
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
        if run.algorithm == "ballseptron":
            self.margin_errors = ax.scatter(empty[:, 0], empty[:, 1], s=80, marker="D",
                                            facecolors="none", edgecolors="purple",
                                            linewidths=1.0, zorder=4,
                                            label="margin error so far")
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
            self.circle = Circle((0, 0), self.ball, fill=False, color="purple", linewidth=1.2,
                                 zorder=6)
            ax.add_patch(self.circle)
            ax.plot([], [], marker="o", markersize=11, markerfacecolor="none", color="purple",
                    linestyle="none", label=f"ball of radius r = {self.ball:g} around it")
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
        """What ``Snapshot.matrix`` holds for the run (theory §2.4, §2.5)."""
        if self.run.algorithm == "higher_order":
            return "$A_k = B_k^T B_k$"
        a = {"pinv": "", "adaptive": "a_{k+1} I + "}.get(self.run.params["variant"], "a I + ")
        return f"$A_k = {a}X_k X_k^T$"

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

        ``previous`` is the state before ``trial``'s update (drawn dashed), or None.
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
        if run.algorithm == "ballseptron":
            errors = run.sample_index[run.margin_error_trials[run.margin_error_trials <= trial]]
            self.margin_errors.set_offsets(self.P[np.unique(errors)].reshape(-1, 2))
        x = self.P[run.sample_index[trial]] if trial >= 0 else None
        self.current.set_offsets(np.reshape(x, (-1, 2)) if x is not None else np.zeros((0, 2)))
        if self.circle is not None:
            self.circle.set_visible(x is not None)
            if x is not None:
                self.circle.set_center(x)
        if self.ellipse is not None:
            self._show_matrix(snapshot)
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
        head = _algorithm_label(run)
        if trial < 0:
            return f"{head}\nbefore the first trial: w = 0 (update 0 of {run.n_updates})"
        if np.isin(trial, run.mistake_trials):
            what = "a mistake"
        elif np.isin(trial, run.margin_error_trials):
            what = "a margin error"
        else:
            what = "correct, no update"
        return (f"{head}\ntrial {trial + 1} of {run.n_trials}: {what} "
                f"(update {snapshot.k} of {run.n_updates})")


class _NoContour:
    """Stands for a zero contour that does not cross the plot (the score has one sign)."""

    def remove(self):
        pass


def _resolve_comparator(run, X, y, u, gamma):
    """The comparator ``u`` as a unit Comparator (None without u) and gamma, checked."""
    if gamma is not None:
        gamma = check_real("gamma", gamma, low=0.0, include_low=False)
        if u is None:
            raise ValueError("gamma is the margin of a comparator: pass u with it")
    if u is None:
        return None, None
    data = RunData(run, X, y)
    return unit_comparator(u, run.n_features, "given", data.kernel), gamma


def plot_run_2d(run, X, y, step=None, ax=None, *, u=None, gamma=None):
    """Draw a run on 2-D data after its k-th update.

    Parameters
    ----------
    run : OnlineRun
        A run of any registered algorithm, not warm-started.
    X, y : array-like
        The run's data: 2 columns, or 3 whose last is a constant bias feature
        (:func:`~perceptron_bounds.datasets.add_bias`), drawn in its first two
        coordinates.
    step : int, optional
        The number of updates k, 0..``run.n_updates`` (mistakes and margin
        errors, theory §1.4); default the last.
    ax : matplotlib Axes, optional
        Where to draw; a new Figure (no pyplot) is made when None.
    u : ndarray of shape (n_features,), optional
        A comparator (linear runs): its line u . x = 0 is drawn dotted.
    gamma : float, optional
        With ``u``, its margin: the band ``|u . x| < gamma`` is shaded grey.

    Returns
    -------
    matplotlib.axes.Axes

    Notes
    -----
    What is drawn, from ``run.hypothesis_at(step, X, y)`` (a Snapshot):

    * the points, coloured by label; ringed in red, those mistaken on a trial up
      to the step's (purple diamonds: the Ballseptron's margin errors);
    * the background, shaded by the sign of the hypothesis' score (its
      ``decision_function``; white where it is 0);
    * linear runs: the line w_k . x = 0 of the weights after the update (solid)
      and before it (dashed). With a bias column x_3 = b it is the line
      w_1 x_1 + w_2 x_2 + w_3 b = 0. Kernel runs: the zero level of the
      score, after and before;
    * the example of the k-th update (on a gold disc) and, for the Ballseptron, the
      ball of radius r around it (theory §2.3; with a bias column, its slice
      by the drawn plane);
    * Second-Order and Higher-Order runs in primal form: the matrix A_k of
      ``Snapshot.matrix`` (theory §2.4, §2.5; its x_1, x_2 block with a bias
      column) as the ellipse z^T A_k^{-1} z = const, centred at the origin, its
      semi-axes proportional to the square roots of the eigenvalues and scaled
      to the plot, the eigenvalues printed in the corner;
    * the title: the algorithm, the trial of the update and k of K.

    Examples
    --------
    >>> from perceptron_bounds import run_online
    >>> from perceptron_bounds.datasets import make_separable
    >>> X, y, u = make_separable(40, 2, margin=0.2, seed=0)
    >>> run = run_online("perceptron", X, y)
    >>> ax = plot_run_2d(run, X, y, step=1, u=u, gamma=0.2)
    >>> ax.get_title().splitlines()[1]
    'trial 1 of 40: a mistake (update 1 of 2)'
    """
    step = run.n_updates if step is None else check_int("step", step, low=0, high=run.n_updates)
    snapshots = run.snapshots(X, y, [step - 1, step] if step else [0])  # checks run, X and y
    _plane(check_X(X))
    comparator, gamma = _resolve_comparator(run, X, y, u, gamma)
    if ax is None:
        ax = _new_axes(1, (5.6, 6.2))[0]
    snapshots = list(snapshots)
    panel = _RunPanel(ax, run, X, y, comparator, gamma, snapshots[-1].matrix is not None)
    trial = snapshots[-1].trial
    panel.show(snapshots[-1], trial, snapshots[0] if step else None)
    return ax


def _new_axes(ncols, size, width_ratios=None):
    from matplotlib.figure import Figure

    fig = Figure(figsize=size, dpi=80, layout="constrained")
    return list(np.atleast_1d(fig.subplots(1, ncols, width_ratios=width_ratios)))


def plot_mistakes_over_time(run, X, y, bounds=None, *, u=None, gamma=None, ax=None):
    """Cumulative mistakes against the trial t, with each bound evaluated on trials 1..t.

    Parameters
    ----------
    run : OnlineRun
    X, y : array-like
        The run's data (any dimension).
    bounds : sequence of str or BoundCurves, optional
        Bound names (default: those of the run's algorithm that apply to some
        prefix, see :func:`~perceptron_bounds.bounds.bounds_over_time`), or the
        curves it returned.
    u : ndarray, optional
        The comparator of every bound; default that of the smallest bound of
        ``evaluate`` on the whole run.
    gamma : float, optional
        The margin of every bound; default, likewise, chosen on the whole run.
    ax : matplotlib Axes, optional
        Where to draw; a new Figure (no pyplot) is made when None.

    Returns
    -------
    matplotlib.axes.Axes

    Notes
    -----
    The mistakes m(t) of trials 1..t are a black step curve; it ends at
    ``run.mistakes``. Each bound is a coloured line, finite where it applies
    to the prefix: it stays above the step curve, as every prefix of a run is
    a run (theory §4.4). Where a bound does not apply (its condition fails,
    e.g. Novikoff after a trial that u does not separate with margin gamma),
    the line stops and a hatched bar in its colour marks those trials along the
    top of the panel. The y axis ends at the largest value of a bound, at most
    ``TOP_RATIO`` times the mistakes: a larger bound leaves through the top (its final
    value is in the legend). When it ends above ``LOG_RATIO`` times the mistakes
    it is logarithmic (symlog, linear from 0 to 1), so that the mistakes stay
    readable under the bounds; the axis label says so. The grey diagonal m = t
    is the trivial bound: below it a bound says something.

    Examples
    --------
    >>> from perceptron_bounds import run_online
    >>> from perceptron_bounds.datasets import make_separable
    >>> X, y, u = make_separable(100, 2, margin=0.2, label_noise=0.05, seed=0)
    >>> run = run_online("perceptron", X, y)
    >>> ax = plot_mistakes_over_time(run, X, y, u=u, gamma=0.2)
    >>> [line.get_gid() for line in ax.get_lines()]
    ['trivial', 'mistakes', 'novikoff', 'freund_schapire', 'ballseptron_d1']
    >>> int(ax.get_lines()[1].get_ydata()[-1]) == run.mistakes
    True
    """
    curves = bounds if hasattr(bounds, "mistakes") else bounds_over_time(
        run, X, y, bounds, u=u, gamma=gamma)
    if ax is None:
        ax = _new_axes(1, (6.4, 4.8))[0]
    _draw_bounds(ax, run, curves)
    return ax


def _draw_bounds(ax, run, curves):
    """The mistakes-over-time panel from BoundCurves (see plot_mistakes_over_time)."""
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
                label=f"{BOUND_LABELS.get(name, name)}: {final} at t = {T}{above}", gid=name)
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
    if not curves:
        labels[-1] += "; " + "; ".join(curves.notes)
    ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.14), fontsize=7,
              frameon=False)
    return ax


def _stretches(mask):
    """(starts, stops) of the runs of True in ``mask``: trials start + 1 .. stop (1-based)."""
    edges = np.diff(np.r_[0, mask.astype(np.int8), 0])
    return np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)


def _frame_canvas_class():
    """An Agg canvas whose ``draw_idle`` does nothing (defined when matplotlib is imported).

    Saving an animation draws every frame twice: once on ``draw_idle`` and once
    to grab it. With this canvas it is drawn once, by one renderer that keeps
    the sizes of the texts it measured (a canvas borrowed per frame, as a
    Figure without pyplot gets, would measure them all again).
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    class FrameCanvas(FigureCanvasAgg):
        def draw_idle(self, *args, **kwargs):
            pass

    return FrameCanvas


def animate_run(run, X, y, *, per="update", bounds=None, u=None, gamma=None, interval=200):
    """Animate a run on 2-D data beside its mistakes and bounds over time.

    Parameters
    ----------
    run : OnlineRun
        A run of any registered algorithm, not warm-started.
    X, y : array-like
        Its data, 2-D as for :func:`plot_run_2d`.
    per : {"update", "trial"}, default="update"
        One frame per update, k = 0..``run.n_updates`` (``n_updates + 1``
        frames), or one per trial (``run.n_trials`` frames).
    bounds : sequence of str or BoundCurves, optional
        The bounds drawn (default: those of the run's algorithm that apply to
        some prefix; ``[]`` for none), or the curves
        :func:`~perceptron_bounds.bounds.bounds_over_time` returned (then ``u``
        and ``gamma`` are theirs).
    u : ndarray, optional
        The comparator of the bounds, also drawn in the 2-D panel with its margin
        band; default the one :func:`~perceptron_bounds.bounds.bounds_over_time`
        chooses on the whole run.
    gamma : float, optional
        The margin; default likewise.
    interval : float, default=200
        Milliseconds between frames.

    Returns
    -------
    matplotlib.animation.FuncAnimation
        Over a new Figure (no pyplot): left :func:`plot_run_2d`'s panel, right
        :func:`plot_mistakes_over_time`'s with a red vertical line at the trial
        shown. Save it with :func:`save_animation`.

    Notes
    -----
    The states are replayed once, up front (``run.snapshots``), and each frame
    updates the artists in place. A frame per trial shows the state after
    that trial; when the trial updated, the state before it is drawn dashed.

    Examples
    --------
    >>> from perceptron_bounds import run_online
    >>> from perceptron_bounds.datasets import make_separable
    >>> X, y, u = make_separable(30, 2, margin=0.2, seed=0)
    >>> run = run_online("perceptron", X, y)
    >>> anim = animate_run(run, X, y, u=u, gamma=0.2)
    >>> len(list(anim.new_frame_seq())) == run.n_updates + 1
    True
    >>> html = anim.to_jshtml()
    """
    from matplotlib.animation import FuncAnimation

    per = check_choice("per", per, PER)
    interval = check_real("interval", interval, low=0.0, include_low=False)
    snapshots = run.snapshots(X, y)  # checks run, X and y
    _plane(check_X(X))
    curves = bounds if hasattr(bounds, "mistakes") else bounds_over_time(
        run, X, y, bounds, u=u, gamma=gamma)
    ax_run, ax_bounds = _new_axes(2, (11.0, 6.0), width_ratios=[1.0, 1.1])
    # The Higher-Order bound measures gamma on the transformed instances (theory §4.1), not
    # on the drawn ones: its comparator is drawn without a band.
    band = curves.gamma if run.algorithm != "higher_order" else None
    snapshots = list(snapshots)
    panel = _RunPanel(ax_run, run, X, y, curves.comparator, band,
                      snapshots[-1].matrix is not None)
    _draw_bounds(ax_bounds, run, curves)
    updates = run.update_trials
    if per == "update":
        frames = [(k, int(updates[k - 1]) if k else -1, k > 0) for k in range(run.n_updates + 1)]
    else:
        done = np.searchsorted(updates, np.arange(run.n_trials), side="right")
        updated = np.isin(np.arange(run.n_trials), updates)
        frames = [(int(done[t]), t, bool(updated[t])) for t in range(run.n_trials)]
    fig = ax_run.figure
    cursor = _static_background(fig, panel, ax_bounds, lambda: panel.show(
        snapshots[-1], frames[-1][1], snapshots[-2] if len(snapshots) > 1 else None))

    def draw(i):
        k, trial, updated = frames[i]
        panel.show(snapshots[k], trial, snapshots[k - 1] if updated else None)
        cursor.set_xdata([trial + 1, trial + 1])

    return FuncAnimation(fig, draw, frames=len(frames), interval=interval, blit=False,
                         cache_frame_data=False)


def _static_background(fig, panel, ax_bounds, widest):
    """Draw what no frame changes once, under the frames; return the cursor.

    The figure is laid out once, in the state ``widest()`` draws (every mistake
    ringed), and keeps that layout. Then the bound panel, the 2-D panel's axes
    and legend are drawn once, on a canvas of the figure's own
    (:func:`_frame_canvas_class`), and hidden; a background artist
    (:func:`_background_class`) puts those pixels back under every frame. A
    frame then draws only the 2-D panel's data, its title and the cursor, a
    vertical line at the trial shown on the bound panel: about 4 times less
    than the whole figure.
    """
    from matplotlib import rc_context
    from matplotlib.axes import Axes
    from matplotlib.lines import Line2D
    from matplotlib.transforms import blended_transform_factory

    canvas = _frame_canvas_class()(fig)
    widest()
    fig.draw_without_rendering()
    with rc_context({"figure.autolayout": False, "figure.constrained_layout.use": False}):
        fig.set_layout_engine(None)
    panel.title.set_text("")
    canvas.draw()
    region = canvas.copy_from_bbox(fig.bbox)
    image = Axes(fig, (0.0, 0.0, 1.0, 1.0))  # not added: drawn only by the background
    image.set_axis_off()
    image.imshow(np.array(canvas.buffer_rgba()), aspect="auto", interpolation="none")
    for artist in (ax_bounds, panel.ax.xaxis, panel.ax.yaxis, panel.ax.get_legend()):
        artist.set_visible(False)
    fig.add_artist(_background_class()(region, canvas.get_width_height(physical=True), image))
    cursor = Line2D([0, 0], [0, 1], color="crimson", linewidth=1.2, zorder=6, gid="cursor",
                    transform=blended_transform_factory(ax_bounds.transData,
                                                       ax_bounds.transAxes))
    fig.add_artist(cursor)
    return cursor


def _background_class():
    """The artist that draws a figure's static parts from their saved pixels.

    On an Agg renderer of the size they were drawn at (every frame that
    ``save_animation`` and ``to_jshtml`` grab) it copies the pixels back
    (``restore_region``, a copy of the buffer); on any other renderer (another
    dpi, a vector format) it draws them as an image scaled to the figure.
    """
    from matplotlib.artist import Artist
    from matplotlib.backends.backend_agg import RendererAgg

    class Background(Artist):
        zorder = -1

        def __init__(self, region, size, image):
            super().__init__()
            self.region, self.size, self.image = region, size, image

        def draw(self, renderer):
            if not self.get_visible():
                return
            if isinstance(renderer, RendererAgg) and \
                    (int(renderer.width), int(renderer.height)) == self.size:
                renderer.restore_region(self.region)
            else:
                self.image.draw(renderer)

    return Background


def _gif_writer_class():
    """A GIF writer (Pillow) that gives each frame its palette as it is grabbed.

    Matplotlib's ``PillowWriter`` leaves that to Pillow's GIF encoder, whose
    median-cut quantizer takes most of the time of a frame; the fast octree
    quantizer, enough for the few flat colours of a plot, is about 7 times
    faster.
    """
    from io import BytesIO

    from matplotlib.animation import AbstractMovieWriter
    from PIL import Image

    class GifWriter(AbstractMovieWriter):
        def setup(self, fig, outfile, dpi=None):
            super().setup(fig, outfile, dpi=dpi)
            self._frames = []

        def grab_frame(self, **savefig_kwargs):
            buffer = BytesIO()
            self.fig.savefig(buffer, **{**savefig_kwargs, "format": "rgba", "dpi": self.dpi})
            frame = Image.frombuffer("RGBA", self.frame_size, buffer.getbuffer(), "raw", "RGBA",
                                     0, 1)
            self._frames.append(frame.convert("RGB").quantize(
                method=Image.Quantize.FASTOCTREE))

        def finish(self):
            self._frames[0].save(self.outfile, save_all=True, append_images=self._frames[1:],
                                 duration=int(1000 / self.fps), loop=0)

    return GifWriter


def save_animation(anim, path) -> str:
    """Write an animation to ``path``: ``.gif`` (Pillow), ``.mp4`` (ffmpeg) or ``.html``.

    Parameters
    ----------
    anim : matplotlib.animation.Animation
        E.g. from :func:`animate_run`; its interval sets the frame rate.
    path : str or os.PathLike
        The file; its extension picks the format. ``.html`` is one self-contained
        page (matplotlib's ``HTMLWriter`` player: every frame embedded as PNG,
        whatever its size, with play controls that need no network).

    Returns
    -------
    str
        The path written.

    Raises
    ------
    ValueError
        Another extension.
    RuntimeError
        ``.mp4`` without an ``ffmpeg`` program on the PATH.
    """
    from matplotlib import animation

    path = os.fspath(path)
    extension = os.path.splitext(path)[1].lower()
    if extension not in FORMATS:
        raise ValueError(f"path must end in {', '.join(FORMATS)}; got {path!r}")
    if extension == ".gif":
        anim.save(path, writer=_gif_writer_class()(fps=1000.0 / anim.event_source.interval))
    elif extension == ".mp4":
        if not animation.writers.is_available("ffmpeg"):
            raise RuntimeError(f"writing {path!r} needs ffmpeg, which is not on the PATH: "
                               "install it, or save as .gif or .html")
        anim.save(path, writer=animation.FFMpegWriter(fps=1000.0 / anim.event_source.interval))
    else:
        _save_html(anim, path)
    return path


#: Matplotlib's player styles its buttons with Font Awesome from a CDN; these text
#: glyphs take its place, so that the page needs no network.
_PLAYER_ICONS = """<style>
.anim-buttons .fa { font-style: normal; font-family: sans-serif; }
.fa-minus::before { content: "\\2212"; }
.fa-plus::before { content: "+"; }
.fa-fast-backward::before { content: "|\\25C0\\25C0"; }
.fa-step-backward::before { content: "|\\25C0"; }
.fa-play::before { content: "\\25B6"; }
.fa-flip-horizontal { display: inline-block; transform: scaleX(-1); }
.fa-pause::before { content: "\\275A\\275A"; }
.fa-step-forward::before { content: "\\25B6|"; }
.fa-fast-forward::before { content: "\\25B6\\25B6|"; }
</style>"""


def _save_html(anim, path: str) -> None:
    """Write the animation as one page that holds every frame and loads nothing.

    Matplotlib's ``HTMLWriter`` drops the frames past ``animation.embed_limit``
    (20 MB by default) with a log message only; here there is no limit, and the
    page is checked to hold every frame of the animation. Its Font Awesome link
    is replaced by ``_PLAYER_ICONS``. Nothing is written to ``path`` on an error.
    """
    import math
    import re
    from tempfile import TemporaryDirectory

    from matplotlib.animation import HTMLWriter

    writer = HTMLWriter(fps=1000.0 / anim.event_source.interval, embed_frames=True,
                        default_mode="loop", embed_limit=math.inf)
    with TemporaryDirectory() as folder:
        draft = os.path.join(folder, "animation.html")
        anim.save(draft, writer=writer)
        with open(draft, encoding="utf-8") as file:
            html = file.read()
    link = r'<link rel="stylesheet"\s+href="https?://[^"]*">'
    html, links = re.subn(link, lambda _: _PLAYER_ICONS, html)
    expected = len(list(anim.new_frame_seq()))
    kept = len(re.findall(r"^  frames\[\d+\] = ", html, flags=re.MULTILINE))
    if links != 1 or kept != expected or re.search(r"https?://", html):
        raise RuntimeError(f"{path}: matplotlib's HTML player changed: the page holds {kept} of "
                           f"{expected} frames or links to the network; save as .gif instead")
    with open(path, "w", encoding="utf-8") as file:
        file.write(html)
