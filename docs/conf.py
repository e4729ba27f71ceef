"""Sphinx configuration of the perceptron_bounds documentation site.

Build it with ``sphinx-build -W -b html docs docs/_build/html`` (the ``docs`` extra
installs what it needs). ``PERCEPTRON_BOUNDS_DOCS_QUICK=1`` makes a quick build, the one
the tests run: the gallery's scripts run in their quick mode, and those that have none
and take minutes are shown unrun (``pb_docs.run_pattern``). ``-D plot_gallery=0`` runs
no script at all. The lessons are executed at every build that finds them changed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from sphinx_gallery.sorting import ExplicitOrder

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(DOCS / "_ext"))

import pb_docs  # noqa: E402

import perceptron_bounds  # noqa: E402

project = "perceptron_bounds"
author = "the perceptron_bounds developers"
copyright = "the perceptron_bounds developers, BSD-3-Clause"  # noqa: A001
release = perceptron_bounds.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_nb",
    "sphinx_gallery.gen_gallery",
    "sphinxarg.ext",
    "sphinx-mathjax-offline",
    "pb_docs",
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "_ext", "**.ipynb_checkpoints", "atlas/atlas.md",
                    "auto_examples/**/*.ipynb",
                    "auto_examples/**/*.py", "auto_examples/**/*.zip"]
root_doc = "index"
smartquotes_action = "qe"  # curly quotes, but "--quick" stays two hyphens
highlight_language = "none"  # literal blocks of docstrings and usage lines are not Python
templates_path = ["_templates"]

# Every cross-reference must resolve. There is no network at build time, so no
# intersphinx: names of other projects are not linked and not checked.
nitpicky = True
_OTHER_PROJECTS = ["numpy", "np", "scipy", "sklearn", "matplotlib", "joblib", "dask", "numba",
                   *sorted(sys.stdlib_module_names)]
nitpick_ignore_regex = [
    (r"py:.*", rf"({'|'.join(_OTHER_PROJECTS)})(\..*)?"),
    # Private names (a component that starts with "_") and the numerical engine (the
    # kernel-row engine) are not part of the API: run_online takes kernels by name.
    # Docstrings name them for the reader of the code; those names are left unlinked.
    (r"py:.*", r"(.*\.)?_\w+(\..*)?"),
    (r"py:.*", r"perceptron_bounds\.(kernels|kernel_engine)(\..*)?"),
]

# --- theory page and notebooks (MyST) -------------------------------------------------
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
myst_heading_anchors = 3
myst_dmath_double_inline = True
nb_execution_mode = "cache"
nb_execution_timeout = 180
nb_execution_raise_on_error = True
nb_execution_in_temp = True
nb_execution_show_tb = True
nb_merge_streams = True
# a lesson that writes to stderr (a warning a student would see) fails the -W build
nb_output_stderr = "warn"

# --- gallery (sphinx-gallery) ----------------------------------------------------------
QUICK = pb_docs.quick_build()
REAL_DATA = bool(os.environ.get("PERCEPTRON_BOUNDS_DATA"))
GALLERY_SOURCE = DOCS / "_build" / "gallery_src"
_scripts = pb_docs.stage_examples(ROOT / "examples", GALLERY_SOURCE)
_run = pb_docs.run_pattern(_scripts, quick=QUICK, real_data=REAL_DATA)
pb_docs.stage_lessons(ROOT / "examples" / "notebooks", DOCS / "lessons")
pb_docs.prune_generated(DOCS / "api")
pb_docs.reset_gallery_if_mode_changed(DOCS / "auto_examples", f"quick={QUICK} {_run}")

sphinx_gallery_conf = {
    "examples_dirs": os.path.relpath(GALLERY_SOURCE, DOCS),
    "gallery_dirs": "auto_examples",
    "filename_pattern": _run,
    "ignore_pattern": r"__init__\.py",
    "subsection_order": ExplicitOrder(
        [os.path.relpath(GALLERY_SOURCE / name, DOCS) for name in pb_docs.SECTIONS]
    ),
    "within_subsection_order": "FileNameSortKey",
    "image_scrapers": ("matplotlib", pb_docs.OutputScraper()),
    "reset_argv": "pb_docs.reset_argv",
    "download_all_examples": False,
    "write_computation_times": False,
    "remove_config_comments": True,
    "show_memory": False,
    "min_reported_time": 1,
    "abort_on_example_error": True,
    "backreferences_dir": None,
    "capture_repr": (),
    "default_thumb_file": str(DOCS / "_static" / "thumb_unrun.png"),
}

# --- API reference (autodoc, autosummary, numpydoc) -----------------------------------
autosummary_generate = True
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()

# --- HTML -----------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"perceptron_bounds {release}"
html_favicon = "_static/favicon.svg"
html_static_path = ["_static"]
html_css_files = ["custom.css"]
html_theme_options = {
    "navbar_align": "left",
    "header_links_before_dropdown": 8,
    "show_toc_level": 2,
    "navigation_with_keys": False,
    # The Play page needs the width for its two canvases.
    "secondary_sidebar_items": {"**": ["page-toc"], "play": []},
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
# The pages without sub-pages need no section navigation.
html_sidebars = {page: [] for page in ("index", "getting_started", "theory", "cli", "reproducing",
                                        "adding_an_algorithm", "play")}
html_context = {"default_mode": "auto"}  # the theme logs an error for an empty mode
html_show_sourcelink = False
html_copy_source = False
