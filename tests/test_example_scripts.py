"""Every example script answers --help with its usage (five took "--help" for an output
folder and wrote their figures into it); the worked example of "Adding an algorithm" runs."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.py"))


def test_there_are_example_scripts():
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize("script", EXAMPLES, ids=lambda path: path.name)
def test_help_prints_the_usage_and_runs_nothing(script, tmp_path):
    done = subprocess.run([sys.executable, str(script), "--help"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage:") and "--help" in done.stdout
    assert list(tmp_path.iterdir()) == []  # no folder named --help, no figures


ADDING = next(path for path in EXAMPLES if path.name == "adding_an_algorithm.py")


def test_adding_an_algorithm_imports_no_private_name():
    """The worked example of the docs page "Adding an algorithm" uses public names only: no
    module or name that starts with "_" (not even a dunder such as __version__)."""
    tree = ast.parse(ADDING.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module.startswith("perceptron_bounds"):
            assert not any(part.startswith("_") for part in node.module.split(".")), node.module
            assert not any(alias.name.startswith("_") for alias in node.names), node.module
        elif isinstance(node, ast.Import):
            assert not any("._" in alias.name for alias in node.names)


def test_adding_an_algorithm_registers_runs_bounds_plots_and_compares(tmp_path):
    """The example registers the margin Perceptron and its bound from outside the package:
    its updates are within the bound, its curve is above the mistakes, compare lists it
    with its bound holding, and the teaching plot is written."""
    done = subprocess.run([sys.executable, str(ADDING), str(tmp_path / "out")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "updates <= bound: True" in out
    assert "above the mistakes on every prefix: True" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("margin_perceptron ")]
    assert [(row[2], row[3], row[-1]) for row in rows] == [
        ("margin_perceptron", "stated", "yes"), ("margin_perceptron", "tightened", "yes")]
    assert any(line.startswith("perceptron ") for line in out.splitlines())
    assert (tmp_path / "out" / "adding_an_algorithm.png").stat().st_size > 10_000
