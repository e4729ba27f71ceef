"""Figures of the experiments (smoke tests under Agg: structure, labels, rendering)."""

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from perceptron_bounds.datasets import make_hop_artificial, make_separable  # noqa: E402
from perceptron_bounds.experiments import (  # noqa: E402
    epochs_curve,
    noise_curve,
    radius_curve,
    sop_toy,
)
from perceptron_bounds.plots import (  # noqa: E402
    plot_epochs_curve,
    plot_noise_curve,
    plot_radius_curve,
    plot_sop_toy,
)
from perceptron_bounds.plots.curves import legend_label  # noqa: E402


def _render(fig, tmp_path):
    path = tmp_path / "figure.png"
    fig.savefig(path)
    assert path.stat().st_size > 1000


def _legend_texts(ax):
    return [text.get_text() for text in ax.get_legend().get_texts()]


def test_legend_label_uses_subscripts():
    assert legend_label("HO_4(0.4)") == "HO$_{4}$(0.4)"
    assert legend_label("SO(0.2)") == "SO(0.2)"


def test_plot_epochs_curve_two_by_two(tmp_path):
    records = []
    for eta in (0.0, 0.1):
        train, test = make_hop_artificial(
            eta, n_train=60, n_test=40, n_features=20, n_relevant=5, seed=0
        )
        specs = [("FO", "perceptron", {}), ("HO_2(0.0)", "pnorm_perceptron", {"p": 2.0})]
        rows = epochs_curve(specs, train, test, epochs=(1, 2, 3), seeds=[0, 1])
        records += [{"eta": eta, **row} for row in rows]
    fig = plot_epochs_curve(records)
    assert isinstance(fig, Figure)
    axes = fig.axes
    assert len(axes) == 4
    assert axes[0].get_title() == r"Training updates vs epochs ($\eta$ = 0.0)"
    assert axes[3].get_title() == r"Test error vs epochs ($\eta$ = 0.1)"
    assert _legend_texts(axes[0]) == ["FO", "HO$_{2}$(0.0)"]
    _render(fig, tmp_path)


def test_plot_noise_curve_marks_bound_equal_T(tmp_path):
    records = noise_curve("label", [0.0, 0.05], n=500) + noise_curve("instance", [0.0, 0.3], n=500)
    fig = plot_noise_curve(records)
    assert len(fig.axes) == 2
    texts = _legend_texts(fig.axes[0])
    assert "bound / T = 1" in texts and any("D_2" in t for t in texts)
    assert fig.axes[1].get_xlabel() == r"instance noise $\sigma$"
    _render(fig, tmp_path)


def test_plot_radius_curve(tmp_path):
    data = make_separable(300, 5, margin=0.02, label_noise=0.05, seed=0)
    fig = plot_radius_curve(radius_curve([0.0, 0.05, 0.1], data, seeds=[0, 1]))
    (ax,) = fig.axes
    assert ax.get_xlabel() == "radius r"
    assert len(_legend_texts(ax)) == 3  # mistakes, margin errors, Perceptron level
    _render(fig, tmp_path)


def test_plot_sop_toy(tmp_path):
    table = sop_toy(a_values=(1.0,), n_train=100, n_test=100, n_features=5, n_permutations=2)
    fig = plot_sop_toy(table)
    (ax,) = fig.axes
    assert _legend_texts(ax) == ["FO", "SO(1)"]
    assert len(ax.patches) == 4  # 2 algorithms x 2 data sets
    _render(fig, tmp_path)


@pytest.mark.parametrize(
    "plot", [plot_epochs_curve, plot_noise_curve, plot_radius_curve, plot_sop_toy]
)
def test_plots_reject_foreign_tables(plot):
    with pytest.raises(ValueError, match="no records"):
        plot([])
    with pytest.raises(ValueError, match="records lack"):
        plot([{"something": 1}])
