"""The documentation site, built once per test session for test_docs and test_docs_browser.

The build is the quick one (``PERCEPTRON_BOUNDS_DOCS_QUICK=1``: the gallery's scripts in
their quick mode, the lessons executed) with warnings as errors, into a temporary folder.
The gallery is made anew. Its generated sources (``docs/auto_examples``, ``docs/lessons/*.ipynb``,
``docs/api/generated``, ``docs/_build/gallery_src``) are written into ``docs/`` as any
build writes them; git ignores them.
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
