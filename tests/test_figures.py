"""The papers' figures: what made them is recorded in the CSV and on the figure; the text fits."""

import csv

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402

import perceptron_bounds  # noqa: E402
from perceptron_bounds.papers import (  # noqa: E402
    FIGURES,
    provenance,
    provenance_line,
    save_figure,
)
from figure_checks import problems  # noqa: E402
from perceptron_bounds.plots.style import add_caption  # noqa: E402

# What each figure records besides its rows, at --quick sizes (the data's configuration).
QUICK_CONFIG = {
    "hop-fig2": {"n_seeds": "2", "n_features": "100", "n_relevant": "10", "margin": "0.005"},
    "ballseptron-noise": {"n_seeds": "2"},
    "ballseptron-radius": {
        "n_seeds": "2",
        "n_samples": "1000",
        "n_features": "20",
        "margin": "0.05",
        "label_noise": "0.05",
        "data_seed": "0",
    },
    "sop-toy": {"n_seeds": "3", "n_features": "20", "ratio": "8.0", "margin": "0.25"},
    "selective-sampling": {"n_seeds": "2", "n_samples": "600", "n_test": "300",
                           "n_features": "20", "margin": "0.05", "label_noise": "0.05",
                           "data_seed": "0"},
    "tracking": {"n_seeds": "1", "n_samples": "4000", "n_features": "10", "margin": "0.2",
                 "label_noise": "0.0"},
}


@pytest.fixture(scope="module")
def quick_figures(tmp_path_factory):
    """Every figure at --quick sizes, saved as the figure command saves it."""
    out = tmp_path_factory.mktemp("figures")
    made = {}
    for name, figure in FIGURES.items():
        records, fig = figure(quick=True)
        save_figure(name, records, fig, out)
        made[name] = (records, fig, out / f"{name}.csv")
    return made


def test_every_figure_has_a_known_configuration():
    assert set(QUICK_CONFIG) == set(FIGURES)


# --- the CSV ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(FIGURES))
def test_csv_records_version_quick_and_parameters(quick_figures, name):
    records, _, path = quick_figures[name]
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)  # a plain reader: no comment lines to skip
        rows = list(reader)
    expected = {
        "figure": name,
        "perceptron_bounds_version": perceptron_bounds.__version__,
        "quick": "True",
        **QUICK_CONFIG[name],
    }
    # The provenance leads every row, in this order, and is the same in every row.
    assert reader.fieldnames[: len(expected)] == list(expected)
    assert len(rows) == len(records) > 0
    for row in rows:
        assert {key: row[key] for key in expected} == expected
    # n_seeds is what the rows hold: that many seeds (permutations) per point.
    seed_key = "permutation" if name == "sop-toy" else "seed"
    assert len({row[seed_key] for row in rows}) == int(expected["n_seeds"])


def test_csv_parameters_match_the_rows(quick_figures):
    # The algorithm specs, epochs and sizes of hop-fig2 are in the rows themselves.
    _, _, path = quick_figures["hop-fig2"]
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert {row["label"] for row in rows} >= {"FO", "SO(0.2)", "HO_4(0.4)"}
    assert sorted({int(row["epochs"]) for row in rows}) == [1, 2, 3, 5]
    assert {(row["n_train"], row["n_test"]) for row in rows} == {("200", "200")}
    assert {row["eta"] for row in rows} == {"0.0", "0.1"}


def test_full_size_figures_say_so():
    meta = provenance("hop-fig2", quick=False, n_seeds=5, n_features=500)
    assert list(meta) == ["figure", "perceptron_bounds_version", "quick", "n_seeds", "n_features"]
    line = provenance_line(meta)
    version = perceptron_bounds.__version__
    assert line == f"perceptron_bounds {version} · hop-fig2 · seeds=5 · full size"
    assert "quick" not in line


@pytest.mark.parametrize("figure", list(FIGURES.values()))
def test_figures_check_quick_before_running(figure):
    with pytest.raises(TypeError, match="quick must be True or False, got 'yes'"):
        figure(quick="yes")


# --- the figure ---------------------------------------------------------------------------


def _texts(fig) -> list[str]:
    return [text.get_text() for text in fig.findobj(matplotlib.text.Text)]


@pytest.mark.parametrize("name", list(FIGURES))
def test_figure_caption_records_version_seeds_and_quick(quick_figures, name):
    _, fig, _ = quick_figures[name]
    captions = [text for text in fig.findobj(matplotlib.text.Text) if text.get_gid() == "caption"]
    assert len(captions) == 1
    caption = captions[0].get_text()
    seeds = QUICK_CONFIG[name]["n_seeds"]
    provenance_text = f"perceptron_bounds {perceptron_bounds.__version__} · {name} · seeds={seeds}"
    assert caption.splitlines()[-1].startswith(provenance_text)
    assert "quick" in caption.splitlines()[-1]
    assert caption.startswith(("Data", "Synthetic"))  # a sentence on what the data are
    assert captions[0].get_fontsize() < 8  # unobtrusive


def _extent(artist, renderer):
    return artist.get_window_extent(renderer)


@pytest.mark.parametrize("name", list(FIGURES))
def test_figure_text_fits_and_overlaps_nothing(quick_figures, name):
    """Rendered at the saved 150 dpi: titles, axis labels, legends and the caption lie inside
    the figure; legends and the caption cover no panel and not each other."""
    _, fig, _ = quick_figures[name]
    fig.set_dpi(150)
    FigureCanvasAgg(fig)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    (caption,) = [t for t in fig.findobj(matplotlib.text.Text) if t.get_gid() == "caption"]
    labels = [caption, *fig.legends]
    for ax in fig.axes:
        labels += [ax.title, ax.xaxis.label, ax.yaxis.label]
        if ax.get_legend() is not None:
            labels.append(ax.get_legend())
    for artist in labels:
        extent = _extent(artist, renderer)
        assert (
            extent.x0 >= box.x0 - 1
            and extent.y0 >= box.y0 - 1
            and extent.x1 <= box.x1 + 1
            and extent.y1 <= box.y1 + 1
        ), f"{name}: {artist} is clipped at {extent.bounds}"
    outside = [caption, *fig.legends]
    panels = [ax.get_window_extent(renderer) for ax in fig.axes]
    for i, artist in enumerate(outside):
        extent = _extent(artist, renderer)
        assert not any(extent.overlaps(panel) for panel in panels), f"{name}: {artist} on a panel"
        for other in outside[i + 1 :]:
            assert not extent.overlaps(_extent(other, renderer)), f"{name}: {artist} on {other}"


@pytest.mark.parametrize("name", list(FIGURES))
def test_figure_is_readable(quick_figures, name):
    """No legend clipped or too long, no two series alike, ticks readable, no label on a line
    (tests/figure_checks.py; the real-data figures: tests/test_figure_legibility.py)."""
    _, fig, _ = quick_figures[name]
    assert problems(fig) == [], name


def test_add_caption_wraps_to_the_figure_width():
    from matplotlib.figure import Figure

    fig = Figure(figsize=(4, 3), layout="constrained")
    fig.subplots()
    caption = add_caption(fig, "word " * 60, "perceptron_bounds 0.1.0 · quick")
    lines = caption.get_text().splitlines()
    assert len(lines) > 2 and lines[-1] == "perceptron_bounds 0.1.0 · quick"
    FigureCanvasAgg(fig)
    fig.canvas.draw()
    assert caption.get_window_extent().x1 <= fig.bbox.x1
