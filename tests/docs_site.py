"""The documentation site, built once per test session for test_docs and the browser tests.

The build is the quick one (``PERCEPTRON_BOUNDS_DOCS_QUICK=1``: the gallery's scripts in
their quick mode, the lessons executed) with warnings as errors, into a temporary folder.
The gallery is made anew. The browser tests (``test_docs_browser``, ``test_docs_play``) open
it in headless Chromium through Playwright: :func:`chromium` finds it, :func:`open_page`
opens a page and collects what went wrong. The build's generated sources
(``docs/auto_examples``, ``docs/lessons/*.ipynb``, ``docs/api/generated``,
``docs/_build/gallery_src``) are written into ``docs/`` as any build writes them; git ignores
them.
"""

from __future__ import annotations

import atexit
import functools
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: What the ``docs`` extra installs, by module name.
REQUIRED = ("sphinx", "sphinx_gallery", "myst_nb", "numpydoc", "sphinxarg",
            "pydata_sphinx_theme", "sphinx-mathjax-offline")
BUILD_TIMEOUT = 900


def missing_requirements() -> list[str]:
    """The modules of the ``docs`` extra that are not installed."""
    return [name for name in REQUIRED if importlib.util.find_spec(name) is None]


def _pb_docs():
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        import pb_docs
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    return pb_docs


def runs_in_the_build(script: Path) -> bool:
    """Whether the quick build (this session's, with the ``docs`` extra) executes the example
    ``script``: it has a quick mode or runs fast at full size, and reads no real data set."""
    if missing_requirements():
        return False
    pb_docs = _pb_docs()
    return (pb_docs.offers_quick(script) or script.stem in pb_docs.FAST_AT_FULL_SIZE) and (
        not pb_docs.needs_real_data(script))


@functools.cache
def build_site() -> tuple[Path, subprocess.CompletedProcess]:
    """Build the site (quick, ``-W --keep-going``); return the HTML folder and the process."""
    out = Path(tempfile.mkdtemp(prefix="perceptron-bounds-docs-"))
    atexit.register(shutil.rmtree, out, ignore_errors=True)
    # The lessons run in a kernel of this interpreter, whatever kernels the user has.
    kernel = out / "jupyter" / "kernels" / "python3"
    kernel.mkdir(parents=True)
    spec = {"argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "Python 3", "language": "python"}
    (kernel / "kernel.json").write_text(json.dumps(spec), encoding="utf-8")
    env = dict(os.environ, PERCEPTRON_BOUNDS_DOCS_QUICK="1", MPLBACKEND="Agg",
               JUPYTER_PATH=str(out / "jupyter"))
    env.pop("PERCEPTRON_BOUNDS_DATA", None)  # the build must not depend on local data sets
    # Every script runs anew (sphinx-gallery would skip those whose text has not changed,
    # keeping figures made by an older version of the package).
    shutil.rmtree(DOCS / "auto_examples", ignore_errors=True)
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html",
               "-d", str(out / "doctrees"), str(DOCS), str(out / "html")]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=BUILD_TIMEOUT, check=False)
    return out / "html", done


CHROMIUM_ARGS = [  # offline machine: no background connections, no sandbox as root
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def chromium() -> str | None:
    """The Chromium to drive: ``$PERCEPTRON_BOUNDS_CHROMIUM`` or the first one on the PATH."""
    for candidate in (os.environ.get("PERCEPTRON_BOUNDS_CHROMIUM"), "chromium",
                      "chromium-browser", "google-chrome"):
        if candidate and (path := shutil.which(candidate)):
            return path
    return None


def open_page(browser, base: str, path: str, *, block_network: bool = False):
    """Open a page of the site; return it and the problems seen while it loaded.

    A problem is a console error, a page error, a failed request or an HTTP error. With
    ``block_network`` every request outside ``base`` is aborted and counted as a problem:
    the page must need nothing but the site.
    """
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems = []
    if block_network:
        def only_the_site(route):
            if route.request.url.startswith((base, "data:", "blob:")):
                route.continue_()
            else:
                problems.append(f"outside the site: {route.request.url}")
                route.abort()

        page.route("**/*", only_the_site)
    page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url} {r.failure}"))
    page.on("response", lambda r: r.status >= 400 and problems.append(f"{r.status}: {r.url}"))
    page.goto(base + path, wait_until="networkidle")
    return page, problems
