"""Every figure a reader can read (issue 35): no legend clipped or longer than a column can
hold, no two series drawn alike, no tick label too small to read, no label on a line.

The checks are :mod:`figure_checks`; here they are shown to fail on figures made to break
them, then run on every figure the ``figure`` command makes (the synthetic ones in
tests/test_figures.py, which share its quick figures; the real-data ones here on tiny
data homes) and on the atlas's four views, from the CSV committed with the docs.
"""

import os

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from figure_checks import problems  # noqa: E402
from perceptron_bounds.bounds import declared_bounds  # noqa: E402
from perceptron_bounds.experiments import read_atlas_csv  # noqa: E402
from perceptron_bounds.papers import bounds_mnist, budget_mnist  # noqa: E402
from perceptron_bounds.papers.atlas import draw_atlas  # noqa: E402
from perceptron_bounds.plots.style import bound_style, label_points, series_style  # noqa: E402
from real_fixtures import mnist_home  # noqa: E402

ATLAS_CSV = os.path.join(os.path.dirname(__file__), "..", "docs", "atlas", "atlas.csv")


def _figure(size=(4, 3), layout="constrained"):
    fig = Figure(figsize=size, layout=layout)
    return fig, fig.subplots()


# --- the checks fail where they should -----------------------------------------------------


def test_a_clipped_legend_is_found():
    fig, ax = _figure(layout=None)
    for i in range(30):
        ax.plot([0, 1], [i, i], label=f"series {i}", **series_style(i))
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))  # taller than the figure
    assert any("legend clipped" in p for p in problems(fig))


def test_a_legend_too_long_for_one_column_is_found():
    fig, ax = _figure((6, 9))
    for i in range(30):
        ax.plot([0, 1], [i, i], label=f"s{i}", **series_style(i))
    fig.legend(loc="outside right upper", fontsize=5)
    assert any("legend of 30 entries" in p for p in problems(fig))


def test_two_series_drawn_alike_are_found_and_fill_tells_variants_apart():
    fig, ax = _figure()
    ax.plot([0, 1], [0, 1], marker="o", color="C0", label="one")
    ax.plot([0, 1], [1, 0], marker="o", color="C0", label="two")
    ax.legend()
    assert any("'two' drawn as 'one'" in p for p in problems(fig))
    fig, ax = _figure()
    ax.plot([0], [0], marker="o", color="C0", linestyle="none", label="stated")
    ax.plot([0], [1], marker="o", color="C0", markerfacecolor="none", linestyle="none",
            label="tightened")
    ax.legend()
    assert problems(fig) == []


def test_tiny_tick_labels_and_labels_on_lines_are_found():
    fig, ax = _figure()
    ax.plot([0, 1], [0, 1])
    ax.set_xticks([0, 1], ["a", "b"], fontsize=5)
    assert any("tick label 'a' at 5" in p for p in problems(fig))
    fig, ax = _figure()
    ax.plot([0, 1], [0, 1])
    ax.annotate("on it", (0.5, 0.5))
    assert any("'on it' on the line" in p for p in problems(fig))


def test_label_points_keeps_labels_off_the_lines():
    fig, ax = _figure()
    xs = np.linspace(0, 1, 6)
    ax.plot(xs, 1 - xs, marker="o")
    ax.plot(xs, 1.05 - xs, linestyle="--")  # a bound just above the curve
    ax.plot(xs, 0.95 - xs, linestyle=":")  # and one just below
    label_points(ax, [(f"b={x:g}", x, 1 - x) for x in xs[1:-1]])
    assert problems(fig) == []


def test_every_declared_bound_has_a_style_of_its_own():
    styles = [tuple(bound_style(name).values()) for name in declared_bounds()]
    assert len(set(styles)) == len(styles) >= 26
    assert all(bound_style(name)["color"] not in ("k", "black") for name in declared_bounds())
    assert len({tuple(series_style(i).values()) for i in range(80)}) == 80


# --- the figures ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    monkeypatch = pytest.MonkeyPatch()
    yield mnist_home(tmp_path_factory.mktemp("mnist"), monkeypatch)
    monkeypatch.undo()


def test_the_winners_colours_are_distinct_and_none_is_black_or_grey():
    """A winner drawn in tab:gray read as the grey of a cell where no bound applies (the
    Higher-Order Perceptron's rows of atlas-winners)."""
    from matplotlib.colors import to_rgb

    from perceptron_bounds.plots.atlas import WINNER_COLOURS

    rgb = [to_rgb(colour) for colour in WINNER_COLOURS]
    assert len(set(rgb)) == len(rgb) == 30
    assert all(max(c) - min(c) > 0.2 for c in rgb), [
        name for name, c in zip(WINNER_COLOURS, rgb, strict=True) if max(c) - min(c) <= 0.2]


def test_bounds_mnist_is_readable(home):
    _, fig, _ = bounds_mnist.bounds_mnist(quick=True, data_home=home)
    assert problems(fig) == []
    width, height = fig.get_size_inches() * 150
    assert width <= 2400 and height <= 1200  # 3285 x 660 px before, legend clipped


def test_budget_mnist_is_readable_with_every_budget_on_its_axis(home):
    records, fig, _ = budget_mnist.budget_mnist(quick=True, data_home=home)
    assert problems(fig) == []
    budgets = sorted({row["budget"] for row in records if row["budget"] is not None})
    for ax in fig.axes:
        assert [float(t.get_text()) for t in ax.get_xticklabels()] == budgets
    assert {row["order"] for row in records} == {"given"} and {row["seed"] for row in records} \
        == {0}


@pytest.mark.skipif(not os.path.exists(ATLAS_CSV), reason="no atlas CSV in this checkout")
def test_the_atlas_views_are_readable():
    records = read_atlas_csv(ATLAS_CSV)
    for name, fig in draw_atlas(records, {"quick": False}).items():
        assert problems(fig) == [], name
