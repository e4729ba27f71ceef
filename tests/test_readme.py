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
