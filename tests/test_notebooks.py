"""Every lesson notebook and every example script runs top to bottom (issue 10).

The notebooks in ``examples/notebooks`` are executed with nbclient in a kernel
of this test's own Python (``ipykernel`` must be installed: the ``test``
extra brings it), each in a temporary working directory; a cell that raises,
or writes to stderr (a warning a student would see), fails the lesson. The
scripts in ``examples`` run as subprocesses, with ``--quick`` when a script
offers it, ``MPLBACKEND=Agg``, in a temporary working directory, so nothing
is written into the repository. A script without a quick mode runs at paper
size; those that then take minutes are listed in ``SLOW_SCRIPTS`` and marked
``slow``.

With the ``docs`` extra installed (the ``test`` extra brings it), the documentation
site's quick build (``tests/test_docs.py``) executes the lessons and the scripts it
runs, failing on an error and on a lesson's output to stderr; those are not run a
second time here (each took 10-50 s), and ``test_docs`` checks each one's output.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from docs_site import missing_requirements, runs_in_the_build
from nbclient import NotebookClient

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NOTEBOOKS = sorted((EXAMPLES / "notebooks").glob("*.ipynb"))
SCRIPTS = sorted(EXAMPLES.glob("*.py"))
KERNEL = "perceptron-bounds-tests"
# Seconds one cell may take before the lesson fails (a lesson should run in under a minute).
CELL_TIMEOUT = 120
SCRIPT_TIMEOUT = 600
# Scripts without --quick that take minutes at paper size (measured on 2 cores: hop_fig2 142 s;
# ballseptron_noise 10 s, ballseptron_radius 6 s and sop_toy 6 s run with the fast tests).
SLOW_SCRIPTS = {"hop_fig2"}


def _quick(script: Path) -> bool:
    """Whether the script offers a quick mode (a ``--quick`` option)."""
    return '"--quick"' in script.read_text(encoding="utf-8")


def test_examples_exist():
    """The lessons 01..05 are there (the globs see every notebook and script)."""
    assert {"01_", "02_", "03_", "04_", "05_"} <= {path.name[:3] for path in NOTEBOOKS}
    assert SCRIPTS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_is_committed_without_outputs(path):
    """Outputs stay out of the repository: the documentation build executes the lessons."""
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert not cell.outputs, f"cell {i} of {path.name} has outputs: clear them"
            assert cell.execution_count is None, f"cell {i} of {path.name} has an execution count"


@pytest.fixture(scope="module")
def jupyter_path(tmp_path_factory) -> str:
    """A Jupyter data directory whose only kernelspec starts ipykernel with this interpreter."""
    root = tmp_path_factory.mktemp("jupyter")
    (root / "kernels" / KERNEL).mkdir(parents=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "perceptron_bounds tests",
        "language": "python",
    }
    (root / "kernels" / KERNEL / "kernel.json").write_text(json.dumps(spec), encoding="utf-8")
    return str(root)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_runs(path, jupyter_path, tmp_path, monkeypatch):
    if not missing_requirements():
        pytest.skip("the documentation build executes the lessons (tests/test_docs.py)")
    monkeypatch.setenv("JUPYTER_PATH", jupyter_path)
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, kernel_name=KERNEL, timeout=CELL_TIMEOUT,
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()  # raises CellExecutionError, naming the cell, when one fails
    for i, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream" and output.get("name") == "stderr":
                pytest.fail(f"cell {i} of {path.name} wrote to stderr:\n{output['text']}")


def _script_case(script: Path):
    slow = script.stem in SLOW_SCRIPTS and not _quick(script)
    marks = (pytest.mark.slow,) if slow else ()
    return pytest.param(script, marks=marks, id=script.stem)


@pytest.mark.parametrize("script", [_script_case(s) for s in SCRIPTS])
def test_example_script_runs(script, tmp_path):
    if runs_in_the_build(script):
        pytest.skip("the documentation build executes it (tests/test_docs.py)")
    args = [sys.executable, str(script), *(["--quick"] if _quick(script) else [])]
    env = dict(os.environ, MPLBACKEND="Agg")
    done = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=SCRIPT_TIMEOUT, check=False)
    assert done.returncode == 0, f"{script.name} failed:\n{done.stdout}\n{done.stderr}"
    assert done.stdout.strip(), f"{script.name} printed nothing"
