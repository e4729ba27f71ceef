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
  trial), and :func:`~perceptron_bounds.plots.save_animation` to write it as
  GIF, MP4 or HTML.

They are the public entry points: they check their input, compute the bound
curves when not given them, and leave the drawing to
:mod:`perceptron_bounds.plots.panels` and
:mod:`perceptron_bounds.plots.animation`, which take the curves computed.
"""

from __future__ import annotations

from .._validation import check_choice, check_int, check_real, check_X
from ..bounds.over_time import bounds_over_time
from ..bounds.quantities import RunData
from ..bounds.search import unit_comparator
from .animation import PER, animate
from .panels import RunPanel, draw_mistakes, new_axes, plane


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
    * budget runs (the Forgetron, the Randomized Budget Perceptron: ``Teaching.supports``):
      the supports held, ringed in green as opaque as their coefficients are
      large (the Forgetron's shrinking fades the oldest), and crossed the one
      the update removed (theory §2.11, §2.12);
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
    plane(check_X(X))
    comparator, gamma = _resolve_comparator(run, X, y, u, gamma)
    if ax is None:
        ax = new_axes(1, (5.6, 6.2))[0]
    snapshots = list(snapshots)
    panel = RunPanel(ax, run, X, y, comparator, gamma, snapshots[-1].matrix is not None)
    trial = snapshots[-1].trial
    panel.show(snapshots[-1], trial, snapshots[0] if step else None)
    return ax


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
        ax = new_axes(1, (6.4, 4.8))[0]
    return draw_mistakes(ax, run, curves)


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
        shown. Save it with
        :func:`~perceptron_bounds.plots.save_animation`.

    Notes
    -----
    The curves are computed here when not given (``bounds_over_time``), then
    drawn by :func:`~perceptron_bounds.plots.animation.animate`. The states
    are replayed once, up front (``run.snapshots``), and each frame
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
    per = check_choice("per", per, PER)
    interval = check_real("interval", interval, low=0.0, include_low=False)
    run.snapshots(X, y)  # checks run, X and y before the bounds
    plane(check_X(X))
    curves = bounds if hasattr(bounds, "mistakes") else bounds_over_time(
        run, X, y, bounds, u=u, gamma=gamma)
    return animate(run, X, y, curves, per=per, interval=interval)
