"""Every example script answers --help with its usage (five took "--help" for an output
folder and wrote their figures into it)."""

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
