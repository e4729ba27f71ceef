"""Teaching plots (plots.teaching): the state drawn at step k is the run's, the curves are the
bounds', the animations have a frame per update (or trial) and save to every format."""

import matplotlib

matplotlib.use("Agg")

import doctest  # noqa: E402
import shutil  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.animation import FuncAnimation  # noqa: E402
from PIL import Image  # noqa: E402

from perceptron_bounds import run_online  # noqa: E402
from perceptron_bounds.algorithms import available  # noqa: E402
from perceptron_bounds.datasets import add_bias, make_separable  # noqa: E402
from perceptron_bounds.plots import (  # noqa: E402
    animate_run,
    plot_mistakes_over_time,
    plot_run_2d,
    save_animation,
    teaching,  # noqa: E402
)
from perceptron_bounds.plots.panels import RunPanel  # noqa: E402

# One run of every registered algorithm (and the forms whose panel differs), with what its
# 2-D panel shows: the line w . x = 0 (linear) or the zero level of the score (kernel), the
# Ballseptron's ball, and the matrix A_k as an ellipse (Second-/Higher-Order, primal).
PANELS = {
    "alma": ({"p": 3.0, "alpha": 0.5}, "line"),
    "alma rbf": ({"kernel": "rbf", "gamma": 2.0}, "contour"),
    "passive_aggressive": ({"variant": "pa1", "C": 0.5}, "line"),
    "passive_aggressive rbf": ({"kernel": "rbf", "gamma": 2.0}, "contour"),
    "arow": ({"r": 0.5}, "line ellipse"),
    "arow diagonal": ({"diagonal": True}, "line ellipse"),
    "arow rbf": ({"kernel": "rbf", "gamma": 2.0}, "contour"),
    "perceptron": ({}, "line"),
    "perceptron rbf": ({"kernel": "rbf", "gamma": 2.0}, "contour"),
    "voted_perceptron": ({}, "line"),
    "ballseptron": ({"r": 0.05}, "line ball"),
    "pnorm": ({"p": 4.0}, "line"),
    "second_order": ({"a": 0.5}, "line ellipse"),
    "second_order pinv": ({"variant": "pinv"}, "line ellipse"),
    "second_order rbf": ({"kernel": "rbf", "gamma": 2.0}, "contour"),
    "higher_order": ({"c": 0.4}, "line ellipse"),
    "higher_order dual": ({"c": 0.4, "form": "dual"}, "line"),
    "romma": ({"aggressive": True}, "line"),
    "romma rbf": ({"kernel": "rbf", "gamma": 2.0}, "contour"),
    "selective_perceptron": ({"b": 0.5, "seed": 1}, "line"),
    "selective_perceptron rbf": ({"b": 0.5, "seed": 1, "kernel": "rbf", "gamma": 2.0},
                                 "contour"),
    "selective_second_order": ({"b": 0.5, "seed": 1}, "line ellipse"),
    "projectron": ({"eta": 0.05}, "line"),
    "projectron plus rbf": ({"eta": 0.3, "plus": True, "kernel": "rbf", "gamma": 2.0}, "contour"),
    "forgetron": ({"budget": 4, "kernel": "rbf", "gamma": 2.0}, "contour supports"),
    "randomized_budget_perceptron": ({"budget": 4, "kernel": "rbf", "gamma": 2.0, "seed": 1},
                                     "contour supports"),
    "shifting_perceptron": ({"decay": 2.0}, "line"),
    "shifting_perceptron rbf": ({"decay": 2.0, "kernel": "rbf", "gamma": 2.0}, "contour"),
    "projected_perceptron": ({"radius": 1.5}, "line"),
    "projected_perceptron rbf": ({"radius": 1.5, "kernel": "rbf", "gamma": 2.0}, "contour"),
}


@pytest.fixture(scope="module")
def data():
    X, y, u = make_separable(30, 2, margin=0.1, label_noise=0.1, seed=4)
    return X, y, u


def _artist(ax, gid):
    found = [a for a in ax.get_children() if a.get_gid() == gid]
    assert len(found) == 1, gid
    return found[0]


def _line_points(ax):
    xs, ys = _artist(ax, "separator").get_data()
    return np.column_stack([xs, ys])


def test_every_registered_algorithm_has_a_panel():
    assert {name.split()[0] for name in PANELS} == set(available())


@pytest.mark.parametrize("name", PANELS)
def test_every_algorithm_draws_and_animates(name, data, tmp_path):
    params, shows = PANELS[name]
    X, y, u = data
    run = run_online(name.split()[0], X, y, epochs=2, **params)
    ax = plot_run_2d(run, X, y)
    patches = {type(patch).__name__ for patch in ax.patches if patch.get_visible()}
    assert ("Circle" in patches) == ("ball" in shows)
    assert ("Ellipse" in patches) == ("ellipse" in shows)
    assert (len(_line_points(ax)) == 2) == ("line" in shows)
    contours = [c for c in ax.collections if type(c).__name__ == "QuadContourSet"]
    assert bool(contours) == ("contour" in shows)
    supports = [c for c in ax.collections if c.get_label().startswith("supports")]
    assert bool(supports) == ("supports" in shows)
    ax.figure.savefig(tmp_path / "panel.png")
    anim = animate_run(run, X, y, interval=50)
    assert isinstance(anim, FuncAnimation)
    path = save_animation(anim, tmp_path / "run.gif")
    with Image.open(path) as gif:
        assert gif.n_frames == run.n_updates + 1


@pytest.mark.parametrize("name", ["perceptron", "ballseptron", "second_order", "higher_order",
                                  "voted_perceptron", "romma", "arow", "projectron"])
def test_the_line_at_step_k_is_the_hypothesis_after_k_updates(name, data):
    X, y, _ = data
    run = run_online(name, X, y, epochs=2)
    for k in range(run.n_updates + 1):
        ax = plot_run_2d(run, X, y, step=k)
        snapshot = run.hypothesis_at(k, X, y)
        points = _line_points(ax)
        if not np.any(snapshot.weights):
            assert len(points) == 0
            continue
        assert len(points) == 2 and np.linalg.norm(points[1] - points[0]) > 0.5
        unit = snapshot.weights / max(np.linalg.norm(snapshot.weights), 1.0)  # ROMMA's w: large
        np.testing.assert_allclose(points @ unit, 0.0, atol=1e-9)
        if k:  # the line before the update is dashed
            before = np.column_stack(_artist(ax, "previous").get_data())
            w = run.hypothesis_at(k - 1, X, y).weights
            np.testing.assert_allclose(before @ (w / max(np.linalg.norm(w), 1.0)), 0.0,
                                       atol=1e-9)
        assert f"(update {k} of {run.n_updates})" in ax.get_title()
        assert f"trial {snapshot.trial + 1} of {run.n_trials}" in ax.get_title()


def test_a_bias_column_is_drawn_in_the_first_two_coordinates(data):
    X, y, _ = data
    Xb = add_bias(X + np.array([0.7, 0.2]), value=2.0)
    run = run_online("perceptron", Xb, y, epochs=3)
    ax = plot_run_2d(run, Xb, y)
    w = run.weights
    points = _line_points(ax)
    assert len(points) == 2
    np.testing.assert_allclose(points @ w[:2] + 2.0 * w[2], 0.0, atol=1e-9)
    assert "bias feature" in ax.get_ylabel()


@pytest.mark.parametrize("X, match", [
    (np.ones((4, 1)), "got 1 columns"),
    (np.arange(12.0).reshape(4, 3), "got 3 columns"),  # a third column that is not constant
    (np.ones((4, 5)), "got 5 columns"),
])
def test_only_2d_data(X, match):
    y = np.array([1, -1, 1, -1])
    X = X + np.arange(4.0)[:, None] * np.array([1, -1, 0.5, 0.2, 0.1])[:X.shape[1]]
    run = run_online("perceptron", X, y)
    with pytest.raises(ValueError, match=match):
        plot_run_2d(run, X, y)
    with pytest.raises(ValueError, match=match):
        animate_run(run, X, y, bounds=[])


def test_mistakes_curve_ends_at_the_mistakes_and_bounds_stay_above(data):
    X, y, u = data
    run = run_online("ballseptron", X, y, epochs=3, r=0.02)
    ax = plot_mistakes_over_time(run, X, y, u=u, gamma=0.1)
    t, mistakes = _artist(ax, "mistakes").get_data()
    assert mistakes[-1] == run.mistakes and t[-1] == run.n_trials
    drawn = [line for line in ax.get_lines() if line.get_gid() not in ("mistakes", "trivial")]
    assert {line.get_gid() for line in drawn} >= {"freund_schapire", "ballseptron_d1"}
    for line in drawn:
        trials, values = line.get_data()
        np.testing.assert_array_equal(trials, np.arange(1, run.n_trials + 1))
        finite = np.isfinite(values)
        assert finite.any()
        assert np.all(values[finite] >= mistakes[1:][finite])


def test_stretches_where_a_bound_does_not_apply_are_marked(data):
    X, y, u = data
    run = run_online("perceptron", X, y, epochs=2)
    ax = plot_mistakes_over_time(run, X, y, ["novikoff", "freund_schapire"], u=u, gamma=0.1)
    values = _artist(ax, "novikoff").get_ydata()
    assert np.isnan(values).any()  # the noisy labels break Novikoff's condition
    bars = _artist(ax, "novikoff not applicable")
    covered = sum(np.ptp(path.vertices[:, 0]) for path in bars.get_paths())
    assert covered == pytest.approx(np.isnan(values).sum())
    assert "does not apply" in ax.get_legend().get_texts()[-1].get_text()
    assert not [a for a in ax.get_children() if a.get_gid() == "freund_schapire not applicable"]


def test_curves_from_bounds_over_time_are_drawn_as_given(data, tmp_path):
    from perceptron_bounds.bounds import bounds_over_time

    X, y, u = data
    run = run_online("second_order", X, y)
    curves = bounds_over_time(run, X, y, u=u, gamma=0.2, variant="tightened")
    ax = plot_mistakes_over_time(run, X, y, curves)
    np.testing.assert_allclose(_artist(ax, "second_order").get_ydata(), curves["second_order"])
    assert "tightened" in ax.get_title()
    anim = animate_run(run, X, y, bounds=curves)
    legend = [text.get_text() for text in anim._fig.axes[0].get_legend().get_texts()]
    assert "margin band $|u \\cdot x| < \\gamma$ = 0.2" in legend
    save_animation(anim, tmp_path / "run.html")


@pytest.mark.parametrize("per, frames", [("update", "n_updates"), ("trial", "n_trials")])
def test_frame_counts(per, frames, data, tmp_path):
    X, y, u = data
    run = run_online("perceptron", X, y)
    anim = animate_run(run, X, y, per=per, u=u, gamma=0.1)
    expected = run.n_updates + 1 if frames == "n_updates" else run.n_trials
    assert len(list(anim.new_frame_seq())) == expected
    html = Path(save_animation(anim, tmp_path / "run.html")).read_text(encoding="utf-8")
    assert html.count("data:image/png;base64") == expected
    assert "<script" in html and 'src="http' not in html  # self-contained


def test_html_keeps_every_frame_past_the_embed_limit_and_needs_no_network(data, tmp_path):
    """matplotlib's player dropped the frames past animation.embed_limit (20 MB: 149 of the
    README demo's 200) and drew its buttons with Font Awesome from a CDN (blank offline)."""
    import re

    X, y, u = data
    run = run_online("perceptron", X, y, epochs=2)
    anim = animate_run(run, X, y, per="trial", u=u, gamma=0.1)
    with matplotlib.rc_context({"animation.embed_limit": 0.05}):  # about one frame
        html = Path(save_animation(anim, tmp_path / "run.html")).read_text(encoding="utf-8")
    assert html.count("data:image/png;base64") == run.n_trials
    assert re.search(r"https?://", html) is None
    assert ".fa-play::before" in html and 'class="fa fa-play"' in html  # local glyphs


def test_the_animation_ends_on_the_last_state_and_cursor(data, tmp_path):
    X, y, u = data
    run = run_online("perceptron", X, y, epochs=2)
    anim = animate_run(run, X, y, u=u, gamma=0.1)
    save_animation(anim, tmp_path / "run.gif")
    fig = anim._fig
    ax = next(ax for ax in fig.axes if any(a.get_gid() == "separator" for a in ax.get_lines()))
    np.testing.assert_allclose(_line_points(ax) @ run.weights, 0.0, atol=1e-9)
    cursor = next(a for a in fig.get_children() if a.get_gid() == "cursor")
    assert cursor.get_xdata()[0] == run.update_trials[-1] + 1


def test_save_formats(data, tmp_path):
    X, y, u = data
    run = run_online("perceptron", X, y)
    anim = animate_run(run, X, y, bounds=[], u=u)
    with pytest.raises(ValueError, match=r"must end in \.gif, \.mp4, \.html; got .*run\.png"):
        save_animation(anim, tmp_path / "run.png")
    if shutil.which("ffmpeg"):
        path = save_animation(anim, tmp_path / "run.mp4")
        assert (tmp_path / "run.mp4").stat().st_size > 1000 and path.endswith(".mp4")
    else:
        with pytest.raises(RuntimeError, match="needs ffmpeg, which is not on the PATH"):
            save_animation(anim, tmp_path / "run.mp4")
    path = save_animation(anim, str(tmp_path / "run.GIF"))
    with Image.open(path) as gif:
        assert path.endswith("run.GIF") and gif.format == "GIF"


@pytest.mark.parametrize("kwargs, error, match", [
    ({"step": 99}, ValueError, r"step must be in \[0, "),
    ({"step": 1.5}, TypeError, "step must be an integer"),
    ({"gamma": 0.1}, ValueError, "gamma is the margin of a comparator: pass u"),
    ({"u": np.ones(3)}, ValueError, r"u must have shape \(2,\)"),
])
def test_plot_run_2d_errors(kwargs, error, match, data):
    X, y, _ = data
    run = run_online("perceptron", X, y)
    with pytest.raises(error, match=match):
        plot_run_2d(run, X, y, **kwargs)


def test_animate_run_errors(data):
    X, y, _ = data
    run = run_online("perceptron", X, y)
    with pytest.raises(ValueError, match="per must be one of 'update', 'trial', got 'step'"):
        animate_run(run, X, y, per="step")
    with pytest.raises(ValueError, match="interval must be in"):
        animate_run(run, X, y, interval=0)
    more = run_online("perceptron", X, y, warm_start=run)
    with pytest.raises(ValueError, match="warm start"):
        animate_run(more, X, y, bounds=[])


def test_a_kernel_run_takes_no_vector_comparator(data):
    X, y, u = data
    run = run_online("perceptron", X, y, kernel="rbf")
    with pytest.raises(ValueError, match="rbf"):
        plot_run_2d(run, X, y, u=u, gamma=0.1)


def test_docstring_examples():
    result = doctest.testmod(teaching)
    assert result.attempted and not result.failed


@pytest.mark.parametrize("dpi", [None, 120])
def test_the_static_panel_is_drawn_at_any_dpi(dpi, data, tmp_path):
    """Frames restore the bound panel's saved pixels; another dpi draws them as an image."""
    X, y, u = data
    run = run_online("perceptron", X, y)
    anim = animate_run(run, X, y, u=u, gamma=0.1)
    path = tmp_path / "frame.png"
    anim._fig.savefig(path, dpi=dpi)
    with Image.open(path) as image:
        pixels = np.asarray(image.convert("L"), dtype=float)
    right = pixels[:, pixels.shape[1] // 2:]
    assert (right < 100).mean() > 0.01  # the bound panel's curves, ticks and legend
    save_animation(anim, tmp_path / "run.gif")


@pytest.mark.parametrize("multiclass", ["native", "ovr"])
def test_a_multiclass_run_is_refused(multiclass):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 2))
    y = np.argmax(X @ rng.standard_normal((2, 3)), axis=1)
    run = run_online("perceptron", X, y, multiclass=multiclass)
    for call in (plot_run_2d, animate_run):
        with pytest.raises(ValueError, match="not available for multiclass runs"):
            call(run, X, y)
    with pytest.raises(ValueError, match="takes a binary run"):
        plot_mistakes_over_time(run, X, y)


def test_string_labels_are_shown_as_text_in_the_legend(data):
    """The legend showed y = +1 (np.str_('pos')): the label's repr, not the label."""
    X, y, _ = data
    labels = np.where(y > 0, "pos", "neg")
    ax = plot_run_2d(run_online("perceptron", X, labels), X, labels)
    legend = [text.get_text() for text in ax.get_legend().get_texts()]
    assert "y = +1 (pos)" in legend and "y = -1 (neg)" in legend


@pytest.mark.parametrize("name", ["selective_perceptron", "selective_second_order"])
def test_queried_and_unqueried_trials_are_drawn_differently(name, data, tmp_path):
    X, y, _ = data
    run = run_online(name, X, y, epochs=2, b=0.2, seed=3)
    assert 0 < run.queried < run.n_trials
    ax = plot_run_2d(run, X, y)
    [unqueried] = [c for c in ax.collections if c.get_label() == "label not queried (last shown)"]
    last = {}  # up to the trial of the last update, the one drawn
    for t, row in enumerate(run.sample_index[:run.update_trials[-1] + 1]):
        last[row] = t
    expected = sorted(row for row, t in last.items() if t not in set(run.queried_trials))
    np.testing.assert_array_equal(np.sort(unqueried.get_offsets()[:, 0]),
                                  np.sort(X[expected, 0]))
    assert "label queried" in ax.get_title()  # the last update's trial: a queried mistake
    unasked = int(np.setdiff1d(np.arange(run.n_trials), run.queried_trials)[0])
    panel = RunPanel(ax, run, X, y)  # what an animation per trial draws on that trial
    k = int(np.searchsorted(run.update_trials, unasked))
    panel.show(run.hypothesis_at(k, X, y), unasked)
    assert "label not queried, no update" in ax.get_title()
    assert "label" not in plot_run_2d(run_online("perceptron", X, y), X, y).get_title()
def test_the_forgetron_panel_shows_supports_fading_and_leaving(data):
    """At a removal the removed support is crossed, the held ones drawn as opaque as their
    coefficients are large (theory §2.11)."""
    X, y, _ = data
    run = run_online("forgetron", X, y, budget=3, kernel="rbf", gamma=2.0, epochs=2)
    k = int(np.flatnonzero(run.state["removed_trials"] >= 0)[-1]) + 1  # the last removal
    ax = plot_run_2d(run, X, y, step=k)
    (held,) = [c for c in ax.collections if c.get_label().startswith("supports")]
    (removed,) = [c for c in ax.collections if c.get_label().startswith("support removed")]
    assert held.get_offsets().shape == (3, 2) and removed.get_offsets().shape == (1, 2)
    born = run.state["removed_trials"][k - 1]
    np.testing.assert_array_equal(removed.get_offsets()[0], X[run.sample_index[born], :2])
    snapshot = run.hypothesis_at(k, X, y)
    alpha = held.get_edgecolors()[:, 3]
    np.testing.assert_allclose(alpha, np.abs(snapshot.dual_coef) / np.abs(snapshot.dual_coef).max())
    assert alpha.min() < 1.0
