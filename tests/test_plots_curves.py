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
from perceptron_bounds.plots.curves import (  # noqa: E402
    HO_NOTATION,
    NOISE_NOTATION,
    describe_label,
    legend_label,
)


def _render(fig, tmp_path):
    path = tmp_path / "figure.png"
    fig.savefig(path)
    assert path.stat().st_size > 1000


def _legend_texts(legend):
    return [text.get_text() for text in legend.get_texts()]


def test_legend_label_uses_subscripts():
    assert legend_label("HO_4(0.4)") == "HO$_{4}$(0.4)"
    assert legend_label("SO(0.2)") == "SO(0.2)"


@pytest.mark.parametrize(
    ("label", "entry"),
    [
        ("FO", "FO: Perceptron (first order)"),
        ("SO(0.2)", "SO(0.2): Second-Order Perceptron, a = 0.2"),
        ("HO_2(0.4)", "HO$_{2}$(0.4): p = 2, c = 0.4"),
        ("HO_7(0.0)", "HO$_{7}$(0.0): p-norm Perceptron, p = 7"),
        ("HO_7(0)", "HO$_{7}$(0): p-norm Perceptron, p = 7"),
        ("HO_7(0.05)", "HO$_{7}$(0.05): p = 7, c = 0.05"),
        ("my_run", "my$_{run}$"),
    ],
)
def test_describe_label_spells_out_the_papers_names(label, entry):
    assert describe_label(label) == entry


def test_plot_epochs_curve_two_by_two(tmp_path):
    records = []
    for eta in (0.0, 0.1):
        train, test = make_hop_artificial(
            eta, n_train=60, n_test=40, n_features=20, n_relevant=5, seed=0
        )
        specs = [("FO", "perceptron", {}), ("HO_2(0.0)", "pnorm", {"p": 2.0})]
        rows = epochs_curve(specs, train, test, epochs=(1, 2, 3), seeds=[0, 1])
        records += [{"eta": eta, **row} for row in rows]
    fig = plot_epochs_curve(records)
    assert isinstance(fig, Figure)
    axes = fig.axes
    assert len(axes) == 4
    assert axes[0].get_title() == r"Training updates (label noise rate $\eta$ = 0.0)"
    assert axes[3].get_title() == r"Test error (label noise rate $\eta$ = 0.1)"
    assert axes[0].get_xlabel() == "training epochs (passes over the training set)"
    # One legend for the four panels, beside them, that says what HO_p(c) is.
    (legend,) = fig.legends
    assert all(ax.get_legend() is None for ax in axes)
    assert _legend_texts(legend) == [
        "FO: Perceptron (first order)",
        "HO$_{2}$(0.0): p-norm Perceptron, p = 2",
    ]
    assert legend.get_title().get_text() == HO_NOTATION
    assert "Higher-Order Perceptron" in HO_NOTATION and r"$\rho_k = c/k$" in HO_NOTATION
    assert "FO = HO$_2$(0)" in HO_NOTATION
    styles = [container.lines[0].get_linestyle() for container in axes[0].containers]
    assert styles == ["-", "--"]  # c = 0, the p-norm Perceptron, dashed
    _render(fig, tmp_path)


def test_plot_epochs_curve_without_ho_has_no_ho_title():
    records = [
        {"label": "FO", "epochs": 1, "updates": 3, "test_error": 0.2},
        {"label": "SO(1)", "epochs": 1, "updates": 2, "test_error": 0.1},
    ]
    (legend,) = plot_epochs_curve(records).legends
    assert legend.get_title().get_text() == ""
    assert _legend_texts(legend)[1] == "SO(1): Second-Order Perceptron, a = 1"


def test_plot_noise_curve_marks_bound_equal_T(tmp_path):
    records = noise_curve("label", [0.0, 0.05], n=500) + noise_curve("instance", [0.0, 0.3], n=500)
    fig = plot_noise_curve(records)
    assert len(fig.axes) == 2
    (legend,) = fig.legends
    texts = _legend_texts(legend)
    assert "bound / T = 1 (above: vacuous)" in texts
    assert any(t.startswith("$D_2$-bound") and "Freund–Schapire, squared hinge" in t for t in texts)
    assert any(t.startswith("$D_1$-bound") and "Ballseptron Thm 2, hinge" in t for t in texts)
    # The legend's title defines the hinge loss, D1 and D2 and both bounds.
    assert legend.get_title().get_text() == NOISE_NOTATION
    for symbol in (r"\ell_t", r"D_1 = \sum_t \ell_t", r"D_2 = \sqrt{\sum_t \ell_t^2}"):
        assert symbol in NOISE_NOTATION
    assert fig.axes[0].get_xlabel() == r"label noise rate $\eta$ (fraction of labels flipped)"
    assert fig.axes[1].get_xlabel() == r"instance noise $\sigma$ (std. of Gaussian noise on x)"
    _render(fig, tmp_path)


def test_plot_radius_curve(tmp_path):
    data = make_separable(300, 5, margin=0.02, label_noise=0.05, seed=0)
    fig = plot_radius_curve(radius_curve([0.0, 0.05, 0.1], data, seeds=[0, 1]))
    (ax,) = fig.axes
    assert ax.get_xlabel() == "Ballseptron radius r (r = 0 is the Perceptron)"
    assert len(_legend_texts(ax.get_legend())) == 3  # mistakes, margin errors, Perceptron level
    _render(fig, tmp_path)


def test_plot_sop_toy(tmp_path):
    table = sop_toy(a_values=(1.0,), n_train=100, n_test=100, n_features=5, n_permutations=2)
    fig = plot_sop_toy(table)
    (ax,) = fig.axes
    (legend,) = fig.legends
    assert _legend_texts(legend) == [
        "FO: Perceptron (first order)",
        "SO(1): Second-Order Perceptron, a = 1",
    ]
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


def test_plots_import_without_experiments():
    """Plots sit below experiments: importing any plots module first, in a fresh package,
    leaves perceptron_bounds.experiments unimported (tests/test_structure.py checks the
    import graph of the whole package)."""
    import pkgutil
    import subprocess
    import sys

    import perceptron_bounds.plots as plots

    names = ["perceptron_bounds.plots"] + [
        f"perceptron_bounds.plots.{info.name}" for info in pkgutil.iter_modules(plots.__path__)
    ]
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    for key in [k for k in sys.modules if k.startswith('perceptron_bounds')]:\n"
        "        del sys.modules[key]\n"
        "    importlib.import_module(name)\n"
        "    assert 'perceptron_bounds.experiments' not in sys.modules, name\n"
        "print(len(sys.modules) > 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "True"
    assert {"perceptron_bounds.plots.curves", "perceptron_bounds.plots.style"} <= set(names)


def test_mistakes_vs_bounds_legend_defines_d1_and_d2():
    from perceptron_bounds import run_online
    from perceptron_bounds.bounds import evaluate
    from perceptron_bounds.plots import mistakes_vs_bounds

    X, y, u = make_separable(200, 5, margin=0.05, label_noise=0.05, seed=6)
    perceptron = evaluate(run_online("perceptron", X, y), X, y, target=u)
    title = mistakes_vs_bounds([perceptron]).get_legend().get_title().get_text()
    assert title.splitlines()[0] == r"hinge loss $\ell_t = \max(0, \gamma - y_t\,u \cdot x_t)$"
    assert "freund_schapire: $D_2$-bound" in title and r"$D_2 = \sqrt{\sum_t \ell_t^2}$" in title
    assert "ballseptron_d1: $D_1$-bound" in title and r"$D_1 = \sum_t \ell_t$" in title
    second_order = evaluate(run_online("second_order", X, y), X, y, target=u)
    assert mistakes_vs_bounds([second_order]).get_legend().get_title().get_text() == ""


def test_the_radius_legend_states_the_multiclass_margin_error_on_a_multiclass_run(tmp_path):
    """The multiclass run counted w^y.x - w^y~.x <= r ||w^y - w^y~||, not y w.x/||w|| <= r."""
    import numpy as np

    from perceptron_bounds.papers.ballseptron import RADII, ballseptron_radius

    X, _, _ = make_separable(120, 4, margin=0.05, seed=1)
    X = 40.0 * X  # instances of norm 40: radii of 0.5 and less would leave the curve flat
    y = np.digitize(X[:, 0], [-10.0, 10.0])
    records, fig = ballseptron_radius(data=(X, y), seeds=1, quick=True)
    assert sorted({row["r"] for row in records}) == pytest.approx([40.0 * r for r in RADII[::3]])
    legend = _legend_texts(fig.axes[0].get_legend())
    assert any(r"w^y \cdot x - w^{\tilde y}" in text for text in legend)
    assert not any(r"y\,w \cdot x / \|w\|" in text for text in legend)
    assert "mean instance norm 40" in " ".join(text.get_text() for text in fig.texts)
    chosen, _ = ballseptron_radius(data=(X, y), seeds=1, quick=True, radii=[0.0, 5.0])
    assert sorted({row["r"] for row in chosen}) == [0.0, 5.0]
    _render(fig, tmp_path)


@pytest.mark.parametrize("low, labelled", [(1e-4, ["0.0001", "0.001", "0.01", "0.1", "1"]),
                                           (0.2, ["0.2", "0.3", "0.4", "0.5", "0.6", "0.7",
                                                  "0.8", "0.9", "1"])])
def test_bound_ratio_ticks_are_readable(low, labelled):
    """On four decades the minor ticks were labelled too and piled up at every decade."""
    from perceptron_bounds.plots import plot_bound_ratios

    records = [{"label": "perceptron", "name": name, "variant": "stated", "applies": True,
                "ratio": ratio} for name, ratio in (("novikoff", low), ("freund_schapire", 0.95))]
    fig = plot_bound_ratios(records)
    fig.canvas.draw()
    ax = fig.axes[0]
    low_y, high_y = ax.get_ylim()
    shown = [(tick.get_text(), value) for tick, value in
             [*zip(ax.yaxis.get_ticklabels(), ax.yaxis.get_ticklocs(), strict=True),
              *zip(ax.yaxis.get_ticklabels(minor=True), ax.yaxis.get_minorticklocs(),
                   strict=True)]
             if tick.get_text() and low_y <= value <= high_y]
    assert sorted(text for text, _ in shown) == sorted(labelled)
