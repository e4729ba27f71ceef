"""The documentation site (issue 15): it builds warning-free, every page and public name is
there, and every docstring example runs.

The site is built once (``docs_site.build_site``: the quick build, warnings as errors,
every cross-reference checked) and read here as HTML; ``test_docs_browser.py`` opens it in
a headless browser. The build needs the ``docs`` extra (the ``test`` extra includes it);
without it these tests skip.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
import re
import sys
from pathlib import Path

import pytest
from docs_site import ROOT, build_site, missing_requirements, runs_in_the_build

import perceptron_bounds

pytestmark = pytest.mark.docs

EXAMPLES = ROOT / "examples"
#: The public packages and modules whose every name the API reference documents.
PUBLIC = ("perceptron_bounds", "perceptron_bounds.algorithms", "perceptron_bounds.bounds",
          "perceptron_bounds.datasets", "perceptron_bounds.experiments",
          "perceptron_bounds.papers", "perceptron_bounds.plots", "perceptron_bounds.estimators")


@pytest.fixture(scope="module")
def site() -> Path:
    missing = missing_requirements()
    if missing:
        pytest.skip(f"the docs extra is not installed (missing {', '.join(missing)})")
    html, done = build_site()
    log = done.stdout + done.stderr
    assert done.returncode == 0, "the site does not build warning-free:\n" + "\n".join(
        line for line in log.splitlines() if "WARNING" in line or "ERROR" in line
    ) + "\n" + log[-1500:]
    return html


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_site_builds_without_warnings(site):
    for page in ("index", "getting_started", "theory", "cli", "reproducing",
                 "auto_examples/index", "lessons/index", "api/index"):
        assert (site / f"{page}.html").is_file(), page


def test_every_example_script_has_a_gallery_page_with_its_output(site):
    scripts = sorted(EXAMPLES.glob("*.py")) + sorted(EXAMPLES.glob("*/*.py"))
    pages = {path.stem: path for path in (site / "auto_examples").glob("*/*.html")}
    assert {s.stem for s in scripts} <= set(pages), "a script has no gallery page"
    index = _text(site / "auto_examples" / "index.html")
    for script in scripts:
        assert f"{script.stem}.html" in index, f"{script.stem} is not in the gallery index"
    ran = [p for p in pages.values() if "sphx-glr-script-out" in _text(p)]
    assert ran, "no script ran in the quick build"
    for page in ran:  # a script that ran shows what it printed and the figures it wrote
        images = re.findall(r'<img[^>]+src="([^"]+)"', _text(page))
        figures = [src for src in images if "sphx_glr_" in src and "thumb" not in src]
        assert figures, f"{page.name}: no figure"
        for src in figures:
            assert (page.parent / src).is_file(), f"{page.name}: {src} missing"


def test_the_build_ran_every_script_it_should_and_each_printed(site):
    """The scripts the quick build executes (in place of ``test_notebooks``) ran and printed."""
    due = [path for path in sorted(EXAMPLES.glob("*.py")) if runs_in_the_build(path)]
    assert due
    pages = {path.stem: path for path in (site / "auto_examples").glob("*/*.html")}
    for script in due:
        assert "sphx-glr-script-out" in _text(pages[script.stem]), f"{script.stem} did not run"


def test_every_lesson_was_executed_without_stderr(site):
    """Each lesson's page shows its cells' outputs (the build executed it; a cell writing to
    stderr fails the build: ``nb_output_stderr = "warn"`` under ``-W``)."""
    lessons = sorted((EXAMPLES / "notebooks").glob("*.ipynb"))
    assert lessons
    for lesson in lessons:
        page = _text(site / "lessons" / f"{lesson.stem}.html")
        assert "cell_output" in page, f"{lesson.stem} was not executed"


def test_teaching_animation_is_embedded(site):
    page = _text(site / "auto_examples" / "teaching" / "teaching_demo.html")
    assert re.search(r'<img[^>]+src="[^"]+\.gif"', page), "the teaching GIF is not on its page"


def test_gallery_sections(site):
    index = _text(site / "auto_examples" / "index.html")
    assert "The papers’ figures and tables" in index
    assert "Teaching demos" in index


def test_lessons_are_rendered_with_their_outputs(site):
    notebooks = sorted((EXAMPLES / "notebooks").glob("*.ipynb"))
    assert notebooks
    for notebook in notebooks:
        page = _text(site / "lessons" / f"{notebook.stem}.html")
        assert "cell_output" in page, f"{notebook.name}: no outputs"
        assert re.search(r'<img[^>]+src="[^"]+\.png"', page), f"{notebook.name}: no figure"
        assert "Traceback" not in page, f"{notebook.name}: a cell failed"


def test_theory_page_has_its_formulas(site):
    page = _text(site / "theory.html")
    assert page.count('class="math notranslate nohighlight"') > 50
    assert "$$" not in re.sub(r"<[^>]+>", "", page), "display math left as text"
    assert 'src="_static/mathjax/tex-chtml.js' in page, "MathJax is not the local copy"
    assert (site / "_static" / "mathjax" / "tex-chtml.js").is_file()


def test_site_loads_nothing_from_the_network(site):
    """Every script, style sheet and image is served by the site itself (MathJax too)."""
    for page in site.rglob("*.html"):
        remote = re.findall(r'<(?:script|link|img)[^>]+(?:src|href)="((?:https?:)?//[^"]+)"',
                            _text(page))
        assert not remote, f"{page.relative_to(site)} loads {remote}"


def _documented_ids(site: Path) -> set[str]:
    ids = set()
    for page in (site / "api").rglob("*.html"):
        ids.update(re.findall(r'id="(perceptron_bounds[\w.]*)"', _text(page)))
    return ids


@pytest.mark.parametrize("module", PUBLIC)
def test_every_public_name_is_documented(site, module):
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    from pb_docs import _import, public_names  # what the API pages' directive lists

    package = importlib.import_module(module)
    names = getattr(package, "__all__", None) or public_names(package)
    if module == "perceptron_bounds.estimators":
        names = [n for n in vars(package) if not n.startswith("_")
                 and isinstance(getattr(package, n), type)
                 and getattr(package, n).__module__ == module]
    ids = _documented_ids(site)
    by_leaf: dict[str, list[str]] = {}
    for anchor in ids:
        by_leaf.setdefault(anchor.rsplit(".", 1)[-1], []).append(anchor)
    undocumented = [
        name for name in names
        if not any(_import(anchor) is getattr(package, name) for anchor in by_leaf.get(name, []))
    ]
    assert undocumented == [], f"{module}: no API entry for {undocumented}"


def test_estimator_pages_document_the_inherited_api(site):
    """fit, partial_fit, predict and decision_function come from the shared base class."""
    from perceptron_bounds import estimators

    for name in perceptron_bounds._ESTIMATORS:
        assert hasattr(estimators, name)
        page = _text(site / "api" / "generated" / f"perceptron_bounds.{name}.html")
        for method in ("fit", "partial_fit", "predict", "decision_function", "coef_"):
            assert f'id="perceptron_bounds.{name}.{method}"' in page, f"{name}.{method}"


def test_cli_page_documents_every_command(site):
    from perceptron_bounds.cli import COMMANDS

    page = re.sub(r"<[^>]+>", "", _text(site / "cli.html"))
    for command in COMMANDS:
        assert f"perceptron-bounds {command}" in page, command


def test_readme_links_the_documentation():
    readme = _text(ROOT / "README.md")
    section = readme[readme.index("## Documentation"):]
    assert "sphinx-build -W -b html docs docs/_build/html" in section
    assert '".[docs]"' in section
    for target in re.findall(r"\]\((docs/[^)#]+)", section):
        assert (ROOT / target).exists(), target


def _modules_with_examples() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(perceptron_bounds.__path__, "perceptron_bounds."):
        spec = importlib.util.find_spec(info.name)
        if spec.origin and ">>>" in Path(spec.origin).read_text(encoding="utf-8"):
            names.append(info.name)
    return names


@pytest.mark.parametrize("module", _modules_with_examples())
def test_docstring_examples_run(module):
    """Every Examples section of the package runs (doctest), in every module."""
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
