"""The README's Python examples run as written (the Dask one needs a cluster and is skipped)."""

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_readme_has_examples():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index, tmp_path, monkeypatch):
    if "Client(" in BLOCKS[index]:
        pytest.skip("needs a Dask scheduler; tests/test_experiments.py runs a LocalCluster")
    monkeypatch.chdir(tmp_path)
    namespace = {}
    for block in BLOCKS[: index + 1]:
        if "Client(" not in block:
            exec(compile(block, f"README.md block {index}", "exec"), namespace)


def test_the_teaching_snippet_shows_the_cut_off_it_describes(tmp_path, monkeypatch):
    """With seed=7 no label was flipped, so Novikoff's bound never stopped applying."""
    import numpy as np

    (block,) = [b for b in BLOCKS if "plot_mistakes_over_time(run" in b]
    monkeypatch.chdir(tmp_path)
    namespace = {}
    exec(compile(block, "README.md teaching block", "exec"), namespace)
    X, y, u = namespace["X"], namespace["y"], namespace["u"]
    flipped = np.flatnonzero(np.sign(X @ u) != y)
    assert flipped.size >= 1
    novikoff = namespace["curves"]["novikoff"]
    assert np.isfinite(novikoff[: flipped[0]]).all() and np.isinf(novikoff[flipped[0]:]).all()


def test_the_higher_order_paper_has_one_number():
    """It was paper 000 in the README and theory page but paper 002 (the file number of a
    second extraction of the same paper) in ``table --help``, errors and reports."""
    from perceptron_bounds.cli import build_parser

    root = README.parent
    files = [README, *root.glob("docs/*.md"), *root.glob("perceptron_bounds/**/*.py"),
             *root.glob("examples/*.py")]
    assert [str(f) for f in files if "paper 002" in f.read_text(encoding="utf-8")] == []
    table = build_parser()._subparsers._group_actions[0].choices["table"]
    assert "paper 000" in table.format_help()


def test_the_mnist_kernel_commands_use_the_papers_kernel():
    """kernel=poly alone is gamma = 1/784 on MNIST, not paper 001's (1 + x.z)^d on raw pixels."""
    lines = [line for line in README.read_text().splitlines()
             if "--data mnist" in line and "kernel=poly" in line]
    assert lines and all("gamma=1 " in line for line in lines)
