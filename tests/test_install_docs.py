"""The README's install lines, the supported Python versions and the CLI options it documents."""

import re
import sys
import tomllib
from pathlib import Path

import pytest

from perceptron_bounds.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
VERSIONS = ("3.11", "3.12", "3.13")


def test_first_lines_use_the_plain_python3():
    block = re.search(r"```bash\n(.*?)```", README, re.S).group(1).splitlines()
    assert [line.split("   #")[-1].strip() for line in block] == ["main job", "tests"]
    for line in block:  # .ci/run runs these two lines as written
        assert line.startswith("python3 -m venv .venv && .venv/bin/pip install ")


def test_supported_versions_in_readme_and_classifiers():
    classifiers = PYPROJECT["project"]["classifiers"]
    listed = [c.rsplit(" :: ", 1)[1] for c in classifiers
              if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    assert tuple(listed) == VERSIONS
    assert PYPROJECT["project"]["requires-python"] == f">={VERSIONS[0]}"
    assert "Supported Python versions: 3.11, 3.12 and 3.13" in README
    assert f"{sys.version_info.major}.{sys.version_info.minor}" in VERSIONS


def test_console_script_is_the_cli_package():
    assert PYPROJECT["project"]["scripts"] == {"perceptron-bounds": "perceptron_bounds.cli:main"}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_readme_names_every_option_of_run_and_compare(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    options = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", capsys.readouterr().out)) - {"--help"}
    if command in ("figure", "atlas"):  # documented in the README's figures section
        section = README[README.index("## Experiments and figures"):]
    else:
        section = README[README.index("The command line:"):README.index("## Experiments")]
    assert sorted(option for option in options if option not in section) == []


def test_the_lessons_extra_installs_what_the_lessons_need():
    """No extra installed Jupyter or nbconvert, which the README tells a reader to use."""
    lessons = PYPROJECT["project"]["optional-dependencies"]["lessons"]
    names = {re.split(r"[<>=\[]", requirement)[0] for requirement in lessons}
    assert {"jupyter", "nbconvert", "ipywidgets"} <= names
    assert 'pip install ".[lessons]"' in README
    assert 'pip install ".[lessons]"' in (ROOT / "docs" / "lessons" / "index.md").read_text()
