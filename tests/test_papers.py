"""The papers' reproductions (issue 21): one declaration each, one registry, one writer."""

import doctest

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from perceptron_bounds.cli import figure, table  # noqa: E402
from perceptron_bounds.papers import (  # noqa: E402
    FIGURES,
    REPRODUCTIONS,
    Reproduction,
    common,
    save_figure,
)
from perceptron_bounds.papers.second_order import (  # noqa: E402
    draw_sop_toy,
    sop_toy_figure,
    sop_toy_records,
)

#: The options a reproduction may declare: those the commands know how to pass.
COMMAND_OPTIONS = {"data", "radii", "positive_class", "algorithms", "kernels", "cv",
                   "label_column", "delimiter"}


def test_docstring_examples():
    result = doctest.testmod(common)
    assert result.attempted > 0 and result.failed == 0


def test_the_commands_read_the_one_registry():
    assert set(figure.FIGURES) | set(table.TABLES) | {"ballseptron-radius-real",
                                                      "selective-sampling-real"} == set(
        REPRODUCTIONS)
    assert figure.SYNTHETIC == list(FIGURES) == ["hop-fig2", "ballseptron-noise",
                                                 "ballseptron-radius", "sop-toy",
                                                 "selective-sampling", "tracking"]
    assert list(table.TABLES) == ["hop-ocr", "hop-rcv1", "hop-dna"]


@pytest.mark.parametrize("key", list(REPRODUCTIONS))
def test_every_reproduction_is_one_declaration(key):
    rep = REPRODUCTIONS[key]
    assert isinstance(rep, Reproduction) and rep.kind in ("figure", "table")
    assert key in (rep.name, f"{rep.name}-real")
    assert set(rep.options) <= COMMAND_OPTIONS
    assert rep.real == (rep.markdown is not None)  # a real-data run reports beside the paper
    assert rep.quick, "its quick sizes are declared"


def test_a_reproduction_is_its_experiment_drawn(tmp_path):
    records = sop_toy_records(quick=True, seeds=1)
    made, fig = sop_toy_figure(quick=True, seeds=1)
    assert made == records and isinstance(fig, Figure)
    assert isinstance(draw_sop_toy(records), Figure)
    paths = save_figure("sop-toy", records, fig, tmp_path)
    assert [p.rsplit(".", 1)[1] for p in paths] == ["png", "pdf", "csv"]
    with_report = save_figure("sop-toy", records, fig, tmp_path / "md", "# report")
    assert with_report[-1].endswith("sop-toy.md")
    assert (tmp_path / "md" / "sop-toy.md").read_text() == "# report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["md", "sop-toy.csv", "sop-toy.pdf",
                                                           "sop-toy.png"]  # no temporary file
