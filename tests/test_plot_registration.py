"""The plots read what is particular to an algorithm from its registration (issue 21).

A presentation's display name, label parameters, legend entry, margin errors
and teaching decorations (attached beside the registration, issue 33) decide what
the figures show; an algorithm registered without one gets its name and no
decorations. The toy algorithms here reuse
registered loops under another name, so that nothing can come from the name.
"""

import dataclasses

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from perceptron_bounds import registry, run_online  # noqa: E402
from perceptron_bounds.algorithms import Algorithm, get  # noqa: E402
from perceptron_bounds.algorithms.ballseptron import BALLSEPTRON  # noqa: E402
from perceptron_bounds.bounds import bounds_over_time  # noqa: E402
from perceptron_bounds.datasets import make_separable  # noqa: E402
from perceptron_bounds.plots import plot_epochs_curve, plot_run_2d, save_animation  # noqa: E402
from perceptron_bounds.plots.animation import animate  # noqa: E402
from perceptron_bounds.plots.curves import curve_legend  # noqa: E402
from perceptron_bounds.plots.labels import legend_entry, run_label  # noqa: E402
from perceptron_bounds.plots.presentation import KIND, LegendEntry, Teaching  # noqa: E402


@pytest.fixture(scope="module")
def data():
    return make_separable(30, 2, margin=0.1, label_noise=0.1, seed=4)


def _register(monkeypatch, algorithm, **presentation):
    """Register ``algorithm`` for the test, with the fields of its presentation."""
    monkeypatch.setitem(registry._REGISTRY, algorithm.name, algorithm)
    monkeypatch.setitem(registry._ATTACHED.setdefault(KIND, {}), algorithm.name, presentation)
    return algorithm.name


def _legend(ax):
    return [text.get_text() for text in ax.get_legend().get_texts()]


def test_an_algorithm_registered_without_plot_facts_gets_its_name(data, monkeypatch):
    X, y, _ = data
    perceptron = get("perceptron")
    name = _register(monkeypatch, Algorithm(name="toy", defaults=perceptron.defaults,
                                            resolve=perceptron.resolve, fit=perceptron.fit))
    run = run_online(name, X, y)
    assert run_label(run) == "toy"
    assert legend_entry(name, {}) == LegendEntry("toy")
    assert curve_legend({"label": "T_1", "algorithm": name}) == LegendEntry("T$_{1}$: toy")
    ax = plot_run_2d(run, X, y)
    assert ax.get_title().splitlines()[0] == "toy"
    legend = _legend(ax)
    assert not [text for text in legend if "margin error" in text or "ball" in text
                or "ellipse" in text]


def test_the_panel_is_decorated_as_registered_not_by_name(data, monkeypatch):
    """A Ballseptron's loop under another name: the ball and margin errors follow the facts."""
    X, y, _ = data
    bare = dataclasses.replace(BALLSEPTRON, name="toy_ball", ball=None)
    name = _register(monkeypatch, bare, display_name="Toy", label_params=("r",),
                     margin_error=None, teaching=Teaching())
    run = run_online(name, X, y, r=0.3)
    assert run.margin_errors > 0
    ax = plot_run_2d(run, X, y)
    assert ax.get_title().splitlines()[0] == "Toy (r = 0.3)"
    assert not [text for text in _legend(ax) if "ball" in text or "margin error" in text]
    _register(monkeypatch, dataclasses.replace(bare, ball="r"), display_name="Toy",
              label_params=("r",), margin_error=("m", "m"))
    legend = _legend(plot_run_2d(run, X, y))
    assert "ball of radius r = 0.3 around it" in legend and "margin error so far" in legend


def test_the_matrix_and_the_band_are_drawn_as_registered(data, monkeypatch, tmp_path):
    X, y, u = data
    second_order = get("second_order")
    name = _register(monkeypatch, dataclasses.replace(second_order, name="toy_so"),
                     teaching=Teaching(matrix=lambda params: "$M_k$", band=False))
    run = run_online(name, X, y)
    curves = bounds_over_time(run_online("second_order", X, y), X, y, u=u, gamma=0.1)
    anim = animate(run, X, y, curves)
    legend = _legend(anim._fig.axes[0])
    save_animation(anim, tmp_path / "toy.gif")
    assert "$M_k$ as an ellipse (scaled)" in legend
    assert not [text for text in legend if text.startswith("margin band")]
    assert any(text.startswith("comparator") for text in legend)


def test_figure_legends_come_from_the_records_algorithm_not_the_label(monkeypatch):
    """A label in the papers' HO notation no longer makes a curve Higher-Order."""
    perceptron = get("perceptron")
    name = _register(monkeypatch, dataclasses.replace(perceptron, name="toy_fig"),
                     legend=lambda params: LegendEntry("toy", dashed=True,
                                                       notation="what toy is"))
    row = {"epochs": 1, "updates": 3, "test_error": 0.2}
    records = [{"label": "HO_2(0.4)", "algorithm": "perceptron", "params": {}, **row},
               {"label": "mine", "algorithm": name, "params": {}, **row}]
    fig = plot_epochs_curve(records)
    (legend,) = fig.legends
    assert [text.get_text() for text in legend.get_texts()] == [
        "HO$_{2}$(0.4): Perceptron (first order)", "mine: toy"]
    assert legend.get_title().get_text() == "what toy is"
    styles = [container.lines[0].get_linestyle() for container in fig.axes[0].containers]
    assert styles == ["-", "--"]


@pytest.mark.parametrize(("algorithm", "params", "label"), [
    ("second_order", {"variant": "adaptive", "c": 0.5}, "Second-Order Perceptron "
     "(variant = adaptive, c = 0.5)"),
    ("second_order", {"variant": "pinv"}, "Second-Order Perceptron (variant = pinv)"),
    ("higher_order", {"p": 3.0, "c": 0.2}, "Higher-Order Perceptron (p = 3, c = 0.2)"),
    ("perceptron", {"kernel": "poly", "gamma": 1.0}, "Perceptron (kernel = poly, gamma = 1, "
     "degree = 3, coef0 = 1)"),
])
def test_labels_show_the_registered_parameters(data, algorithm, params, label):
    X, y, _ = data
    assert run_label(run_online(algorithm, X, y, **params)) == label


def test_higher_order_with_c_zero_is_the_pnorm_perceptron_in_legends():
    """HO_p(0) is the p-norm Perceptron (paper 000): its legend entry, dashed."""
    entry = legend_entry("higher_order", {"p": 7.0, "c": 0.0})
    assert entry == legend_entry("pnorm", {"p": 7.0})
    assert entry.dashed and entry.text == "p-norm Perceptron, p = 7"
    assert not legend_entry("higher_order", {"p": 7.0, "c": 0.4}).dashed


@pytest.mark.parametrize(("params", "text"), [
    ({"a": 0.2}, "Second-Order Perceptron, a = 0.2"),
    ({"variant": "adaptive", "c": 0.5}, "Second-Order Perceptron, adaptive, c = 0.5"),
    ({"variant": "pinv"}, "Second-Order Perceptron, pseudoinverse"),
])
def test_a_second_order_legend_names_its_variants_parameter(params, text):
    assert legend_entry("second_order", params).text == text
