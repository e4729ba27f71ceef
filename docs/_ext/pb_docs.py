"""Sphinx glue of the documentation site: the gallery's sections and runs, the lessons, titles.

The example scripts and the lesson notebooks live in ``examples/``, outside the
documentation sources, and nothing there is written for Sphinx. This module

* stages the scripts into ``docs/_build/gallery_src/<section>/`` so that
  sphinx-gallery shows them in sections (:func:`stage_examples`): a script in a
  subfolder of ``examples/`` named after a section goes there; a top-level script
  goes to the section :func:`section_of` picks from its name and its docstring;
* decides which scripts run during the build (:func:`run_pattern`) and with
  which arguments (:func:`reset_argv`: ``--quick`` in a quick build, for the
  scripts that offer it);
* collects what a script writes into its output folder, ``figures/`` beside the
  script (every example's default ``OUT_DIR``), as the example's images: PNG
  figures and GIF animations, the CSV files as downloads (:class:`OutputScraper`);
* copies the notebooks into ``docs/lessons/`` for myst-nb (:func:`stage_lessons`);
* gives each example page its first docstring line as the page title
  (:func:`title_examples`, the scripts' docstrings have no reST heading);
* reads ``|`` in docstrings as a character, not a reST substitution (:func:`escape_bars`),
  and links their citations of the theory page, "theory §2.4", to its sections
  (:func:`link_theory`);
* resolves references to a name's defining module by its documented public path
  (:func:`resolve_reexported`), and adds the API pages' directives: the registered
  algorithms (``pb-algorithms``), the public names no page lists (``pb-remaining``) and
  each submodule with its other names (``pb-modules``).
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import inspect
import os
import pkgutil
import re
import shutil
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective

#: The gallery's sections: folder name -> (title, introduction), in the order shown.
SECTIONS = {
    "papers": (
        "The papers' figures and tables",
        "One script per figure or table of the papers: each draws the figure, writes the "
        "numbers behind it (CSV) and prints what the paper states beside what we measure. "
        "A figure made in a quick build (reduced sizes) says so in its caption. The "
        "command-line twin of each is ``perceptron-bounds figure NAME`` or ``table NAME`` "
        "(see :doc:`/reproducing`).",
    ),
    "bounds": (
        "Bounds in practice",
        "The mistake bounds of the papers evaluated on runs over real and synthetic "
        "data: how tight each one is, and when its conditions fail.",
    ),
    "teaching": (
        "Teaching demos",
        "Runs drawn update by update on 2-D data, beside the bounds on the same trials; "
        "the animations are GIFs written by the scripts. The :doc:`/lessons/index` "
        "build on them.",
    ),
    "extending": (
        "Extending the package",
        "A new algorithm and its mistake bound registered from outside the package, with "
        "its public names only; :doc:`/adding_an_algorithm` explains each step.",
    ),
}

#: Top-level scripts placed by name, where the rule of :func:`section_of` would not.
SECTION_OF_SCRIPT: dict[str, str] = {"adding_an_algorithm.py": "extending"}

#: Scripts without a quick mode that take seconds at paper size (measured on 2 cores):
#: a quick build runs them as they are; other scripts without ``--quick`` are shown unrun.
FAST_AT_FULL_SIZE = {"adding_an_algorithm", "ballseptron_noise", "ballseptron_radius", "sop_toy",
                     "teaching_demo"}

_REAL_DATA = re.compile(r"load_(mnist|usps|rcv1_tasks)\b|[\"'](mnist|usps|rcv1(:\w+)?)[\"']"
                        r"|perceptron_bounds\.datasets\.real\b"
                        r"|import .*\b(fs_mnist|bounds_mnist|hop_ocr|hop_rcv1|"
                        r"ballseptron_radius_real)\b")
_IMAGES = (".png", ".gif")


def docstring_parts(path: Path) -> tuple[str, str]:
    """A script's title (its docstring's first line, or its reST heading) and first paragraph."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or path.stem
    paragraphs = [" ".join(p.split()) for p in doc.strip().split("\n\n")] + [""]
    title = re.sub(r"\s+[=\-~^]{3,}$", "", paragraphs[0])  # a heading's underline
    return title, paragraphs[1]


def section_of(path: Path) -> str:
    """The section of a top-level script: by :data:`SECTION_OF_SCRIPT`, else by its docstring.

    A title that starts with "Teaching" is a teaching demo. A title that names a figure or
    table ("... paper (authors, venue), Fig. 3", "...: Table 3"), or a first paragraph that
    opens with the paper ("Paper 004 (...), sec. 5, Fig. 3 top: ..."), is a paper's figure
    or table. Everything else shows the bounds in practice.
    """
    if path.name in SECTION_OF_SCRIPT:
        return SECTION_OF_SCRIPT[path.name]
    title, first = docstring_parts(path)
    if title.lower().startswith("teaching"):
        return "teaching"
    names_paper = re.search(r"\bpaper\b", title) and re.search(r"\b(Fig|Figure|Table|sec)\b",
                                                                 title)
    if names_paper or re.search(r"\b(Fig|Figure|Table)\.? ?\d", title) or re.match(
            r"Paper \d{3}\b", first):
        return "papers"
    return "bounds"


def offers_quick(path: Path) -> bool:
    """Whether a script has a quick mode (takes a ``--quick`` option)."""
    return '"--quick"' in path.read_text(encoding="utf-8")


def needs_real_data(path: Path) -> bool:
    """Whether a script reads the papers' real data sets (MNIST, USPS, RCV1)."""
    return _REAL_DATA.search(path.read_text(encoding="utf-8")) is not None


def example_scripts(examples: Path) -> list[tuple[str, Path]]:
    """Every example script as (section, path); subfolders named after a section count."""
    found = [(section_of(path), path) for path in sorted(examples.glob("*.py"))]
    for section in SECTIONS:
        found += [(section, path) for path in sorted((examples / section).glob("*.py"))]
    return found


def stage_examples(examples: Path, stage: Path) -> list[tuple[str, Path]]:
    """Copy the scripts into ``stage/<section>/`` (the gallery's sources); return them.

    Files are copied only when their content changed, so sphinx-gallery's checksums keep
    an unchanged script from running again; scripts gone from ``examples/`` are removed,
    and so is the ``figures/`` output folder of every section (a script that runs writes
    it anew, and :class:`OutputScraper` takes the files found there as its images).
    """
    scripts = example_scripts(examples)
    sections = [s for s in SECTIONS if any(section == s for section, _ in scripts)]
    stage.mkdir(parents=True, exist_ok=True)
    (stage / "GALLERY_HEADER.rst").write_text(
        "Gallery\n=======\n\nEvery script of ``examples/``, run when the site was built: "
        "its figures, animations and printed output below its code. Each also runs on its "
        "own from the repository, ``python examples/NAME.py`` (its docstring gives the "
        "options), and writes its files into ``./figures`` unless told otherwise. Scripts "
        "that read the papers' real data sets run only where the data are installed "
        "(``$PERCEPTRON_BOUNDS_DATA``); on a site built without them, their pages show "
        "the code alone.\n",
        encoding="utf-8",
    )
    for folder in list(stage.iterdir()):
        if folder.is_dir() and folder.name not in sections:
            shutil.rmtree(folder)
    for section in sections:
        title, intro = SECTIONS[section]
        folder = stage / section
        folder.mkdir(exist_ok=True)
        shutil.rmtree(folder / "figures", ignore_errors=True)
        header = f"{title}\n{'-' * len(title)}\n\n{intro}\n"
        _write_if_changed(folder / "GALLERY_HEADER.rst", header.encode())
        wanted = {path.name for s, path in scripts if s == section}
        for old in folder.glob("*.py"):
            if old.name not in wanted:
                old.unlink()
        for s, path in scripts:
            if s == section:
                _write_if_changed(folder / path.name, path.read_bytes())
    return scripts


def run_pattern(scripts: list[tuple[str, Path]], *, quick: bool, real_data: bool) -> str:
    """The ``filename_pattern`` of the scripts that run in this build.

    A full build runs every script; a quick build only those with a quick mode and those
    in :data:`FAST_AT_FULL_SIZE`. Scripts that read the papers' real data run only when
    ``real_data`` (the data home is set). The others are shown with their code, unrun.
    """
    names = [
        path.stem for _, path in scripts
        if (not quick or offers_quick(path) or path.stem in FAST_AT_FULL_SIZE)
        and (real_data or not needs_real_data(path))
    ]
    if not names:
        return r"^$"
    return r"[\\/](" + "|".join(sorted(re.escape(n) for n in names)) + r")\.py$"


def reset_gallery_if_mode_changed(gallery: Path, mode: str) -> None:
    """Remove the generated gallery when this build runs the scripts otherwise than the last.

    ``mode`` says how they run (quick or not, which scripts). sphinx-gallery skips a
    script whose checksum has not changed and keeps its old output: after a quick build,
    a full one would otherwise keep the quick figures.
    """
    stamp = gallery / ".build_mode"
    if stamp.exists() and stamp.read_text(encoding="utf-8") == mode:
        return
    shutil.rmtree(gallery, ignore_errors=True)
    gallery.mkdir(parents=True)
    stamp.write_text(mode, encoding="utf-8")


def reset_argv(gallery_conf, script_vars) -> list[str]:
    """The command-line arguments of a script run by the gallery: ``--quick`` in a quick
    build (``PERCEPTRON_BOUNDS_DOCS_QUICK=1``) for a script that offers it, else none, so
    that each script writes into its default ``./figures``."""
    path = Path(script_vars["src_file"])
    return ["--quick"] if quick_build() and offers_quick(path) else []


def quick_build() -> bool:
    """Whether this is a quick build (the environment variable ``PERCEPTRON_BOUNDS_DOCS_QUICK``)."""
    return os.environ.get("PERCEPTRON_BOUNDS_DOCS_QUICK", "") not in ("", "0")


class OutputScraper:
    """sphinx-gallery image scraper: the files a script wrote into ``figures/`` beside it.

    PNG and GIF files new since the last call become the example's images (PNG first, so
    that a figure, not an animation, makes the thumbnail); CSV files are linked for
    download below them.
    """

    def __init__(self):
        self.seen: set[tuple[str, int]] = set()

    def __repr__(self):
        return "OutputScraper"

    def __call__(self, block, block_vars, gallery_conf):
        from sphinx_gallery.scrapers import figure_rst

        out = Path(block_vars["src_file"]).parent / "figures"
        if not out.is_dir():
            return ""
        new = []
        for path in sorted(out.iterdir()):
            key = (str(path), path.stat().st_mtime_ns)
            if key not in self.seen:
                self.seen.add(key)
                new.append(path)
        images = sorted((p for p in new if p.suffix in _IMAGES), key=lambda p: p.suffix != ".png")
        targets = []
        for path, target in zip(images, block_vars["image_path_iterator"], strict=False):
            target = Path(target).with_suffix(path.suffix)
            shutil.copyfile(path, target)
            targets.append(str(target))
        # One image a row, each at its own size, named as the script wrote it.
        rst = "".join(
            figure_rst([target], gallery_conf["src_dir"])
            + f"\n``{path.name}``{' (animation)' if path.suffix == '.gif' else ''}\n\n"
            for path, target in zip(images, targets, strict=False)
        )
        tables = [p for p in new if p.suffix == ".csv"]
        if tables:
            image_dir = Path(block_vars["image_path_iterator"].image_path).parent
            links = []
            for path in tables:
                target = image_dir / f"{Path(block_vars['src_file']).stem}_{path.name}"
                shutil.copyfile(path, target)
                rel = os.path.relpath(target, Path(block_vars["target_file"]).parent)
                links.append(f":download:`{path.name} <{Path(rel).as_posix()}>`")
            rst += "\n\nThe numbers behind the figure: " + ", ".join(links) + ".\n\n"
        return rst


def stage_lessons(notebooks: Path, lessons: Path) -> list[Path]:
    """Copy the lesson notebooks into ``lessons`` (myst-nb reads them there); return them."""
    lessons.mkdir(parents=True, exist_ok=True)
    wanted = sorted(notebooks.glob("*.ipynb"))
    for old in lessons.glob("*.ipynb"):
        if old.name not in {path.name for path in wanted}:
            old.unlink()
    for path in wanted:
        _write_if_changed(lessons / path.name, path.read_bytes())
    return wanted


def prune_generated(api: Path) -> None:
    """Remove autosummary's pages of names the API pages no longer list (it never does)."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in api.glob("*.rst"))
    listed = set(re.findall(r"^\s+~?([\w.]+)\s*$", text, re.MULTILINE))
    for page in (api / "generated").glob("*.rst"):
        if not any(page.stem.endswith(name.lstrip("~")) for name in listed):
            page.unlink()


def _write_if_changed(path: Path, content: bytes) -> None:
    if not path.exists() or hashlib.sha256(path.read_bytes()).digest() != hashlib.sha256(
        content
    ).digest():
        path.write_bytes(content)


def title_examples(app, docname, source):
    """Give a generated example page a title, and say so on it when its script did not run.

    sphinx-gallery writes the script's docstring as the page's first text; a script that
    opens with a one-paragraph summary instead of a reST heading would leave the page
    without a title: the paragraph becomes the title. A page without output gets a note
    that says why its script was not run in this build.
    """
    gallery_dirs = app.config.sphinx_gallery_conf.get("gallery_dirs", [])
    if isinstance(gallery_dirs, str):
        gallery_dirs = [gallery_dirs]
    if not any(docname.startswith(d + "/") for d in gallery_dirs):
        return
    if docname.endswith("index") or docname.endswith("sg_execution_times"):
        return
    text = source[0]
    label = f".. _sphx_glr_{docname.replace('/', '_')}.py:"
    match = re.compile(r"\n+((?:[^\n]+\n)+)\n").match(text, text.find(label) + len(label))
    if label not in text or match is None:
        return
    lines = match.group(1).splitlines()
    if not lines[0].startswith(".."):
        if len(lines) >= 2 and re.fullmatch(r"([=\-~^\"'`#*+])\1{2,}", lines[1].strip()):
            end = match.start(1) + len(lines[0]) + len(lines[1]) + 2  # after the heading
        else:
            title = " ".join(line.strip() for line in lines).rstrip(".")
            text = text[: match.start(1)] + f"{title}\n{'=' * len(title)}\n" + text[
                match.end(1):]
            end = match.start(1) + 2 * len(title) + 2
        if "sphx-glr-script-out" not in text and "sphx-glr-single-img" not in text:
            text = text[:end] + "\n" + _unrun_note(app, docname) + text[end:]
    source[0] = text


def _unrun_note(app, docname) -> str:
    """The note on the page of a script that did not run in this build, saying why."""
    section, name = docname.split("/")[-2:]
    script = Path(app.confdir) / "_build" / "gallery_src" / section / f"{name}.py"
    if not app.config.sphinx_gallery_conf.get("plot_gallery", True):
        why = "this build ran no script (``plot_gallery=0``)"
    elif script.exists() and needs_real_data(script):
        why = ("it reads the papers' real data sets, and the machine that built this site "
               "had none in its data home (``$PERCEPTRON_BOUNDS_DATA``)")
    else:
        why = ("this was a quick build, and at the paper's size the script takes minutes "
               "without a quick mode")
    return f".. note::\n\n   This script was not run when this site was built: {why}. Run " \
           f"it from the repository to see its output and figures.\n\n"


#: Where the README's own sections are on this site, for its links "(#section)".
README_SECTIONS = {
    "a-short-tour": "/getting_started.md#a-short-tour",
    "real-data": "/api/datasets.rst",
    "teaching": "/auto_examples/teaching/index.rst",
    "lessons": "/lessons/index.md",
    "experiments-and-figures": "/reproducing.md",
    "documentation": "/index.md",
}


class ReadmePart(SphinxDirective):
    """``pb-readme``: the README's text between ``:start-after:`` and ``:end-before:``.

    Parsed as Markdown where it stands, with the README's links made the site's own:
    ``docs/X`` becomes ``X``, a README section (``#real-data``) the page that covers it
    (:data:`README_SECTIONS`), any other in-README link plain text; "theory §2.4" links
    to that section of the theory page.
    """

    option_spec = {"start-after": str, "end-before": str}

    def run(self):
        from docutils.statemachine import StringList

        readme = (Path(self.env.srcdir).parent / "README.md").read_text(encoding="utf-8")
        start = readme.index(self.options["start-after"]) + len(self.options["start-after"])
        text = readme[start:readme.index(self.options["end-before"], start)]

        def link(match):
            label, target = match.group(1), match.group(2)
            if target.startswith("#"):
                page = README_SECTIONS.get(target[1:])
                return f"[{label}]({page})" if page else label
            if target.startswith("docs/"):
                return f"[{label}](/{target[len('docs/'):]})"
            return match.group(0)

        text = re.sub(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)", link, text)
        text = "".join(  # "theory §2.4" in prose, not in code, links to the section
            part if k % 2 else re.sub(r"theory §(\d+(?:\.\d+)?)",
                                      r"{ref}`theory §\1 <theory-\1>`", part)
            for k, part in enumerate(re.split(r"(```.*?```|`[^`\n]*`)", text, flags=re.S)))
        self.env.note_dependency(str(Path(self.env.srcdir).parent / "README.md"))
        node = nodes.container()
        self.state.nested_parse(StringList(text.splitlines(), source="README.md"),
                                self.content_offset, node)
        return node.children


class AlgorithmTable(SphinxDirective):
    """``.. pb-algorithms::``: the algorithms the package registers, their summaries and
    parameters (not those a gallery script registered in this process, whose ``fit`` is
    its own)."""

    def run(self):
        from perceptron_bounds.algorithms import available, get

        lines = [".. list-table::", "   :header-rows: 1", "   :widths: 20 45 35", "",
                 "   * - name", "     - algorithm", "     - parameters (defaults)"]
        for name in available():
            algorithm = get(name)
            if not algorithm.fit.__module__.startswith("perceptron_bounds."):
                continue
            params = ", ".join(f"``{k}={v!r}``" for k, v in algorithm.defaults.items())
            lines += [f"   * - ``{name}``", f"     - {algorithm.summary}", f"     - {params}"]
        return self.parse_text_to_nodes("\n".join(lines))


def public_names(module) -> list[str]:
    """A package's public names: its ``__all__``, else the functions and classes it imports
    from its own modules."""
    if hasattr(module, "__all__"):
        return list(module.__all__)
    return sorted(
        name for name, obj in vars(module).items()
        if not name.startswith("_") and (inspect.isfunction(obj) or inspect.isclass(obj))
        and getattr(obj, "__module__", "").startswith(module.__name__)
    )


class RemainingNames(SphinxDirective):
    """``.. pb-remaining:: MODULE``: document the public names the page does not list.

    The API pages (the ``.rst`` files beside this page) list each package's names in
    sections; a name added to the package later appears here, under "More in MODULE",
    until a page lists it.
    """

    required_arguments = 1

    def run(self):
        name = self.arguments[0]
        module = importlib.import_module(name)
        page = Path(self.env.doc2path(self.env.docname))
        text = "\n".join(p.read_text(encoding="utf-8") for p in page.parent.glob("*.rst"))
        listed = set(re.findall(r"[\w.~]+", text))
        missing = [n for n in public_names(module)
                   if n not in listed and not any(w.endswith("." + n) for w in listed)]
        if not missing:
            return []
        lines = [f".. rubric:: More in ``{name}``", ""]
        for n in missing:
            obj = getattr(module, n)
            kind = "autoclass" if inspect.isclass(obj) else (
                "autofunction" if callable(obj) else "autodata")
            lines += [f".. {kind}:: {name}.{n}"]
            if kind == "autoclass":
                lines += ["   :members:"]
            lines += [""]
        return self.parse_text_to_nodes("\n".join(lines))


class SubModules(SphinxDirective):
    """``.. pb-modules:: PACKAGE``: each public submodule's docstring and its other names.

    A submodule's public functions and classes that no API page lists (by name, in the
    ``.rst`` files beside this page) and that the package does not re-export are
    documented under it, so that a docstring may point to any of them; a submodule that
    the package shadows with a name of its own (``bounds.evaluate``) is left out.
    """

    required_arguments = 1

    def run(self):
        name = self.arguments[0]
        package = importlib.import_module(name)
        page = Path(self.env.doc2path(self.env.docname))
        text = "\n".join(p.read_text(encoding="utf-8") for p in page.parent.glob("*.rst"))
        listed = {word.rsplit(".", 1)[-1] for word in re.findall(r"^\s+~?([\w.]+)\s*$", text,
                                                                  re.MULTILINE)}
        exported = set(public_names(package))
        lines = []
        for info in pkgutil.iter_modules(package.__path__):
            if info.name.startswith("_") or info.name in exported:
                continue
            module = importlib.import_module(f"{name}.{info.name}")
            constants = re.findall(r"^([A-Z][A-Z0-9_]*)\s*(?::[^=\n]+)?=", Path(
                module.__file__).read_text(encoding="utf-8"), re.MULTILINE)
            members = [n for n in public_names(module) if n not in listed | exported]
            lines += [f".. rubric:: ``{module.__name__}``", ""]
            lines += [f".. automodule:: {module.__name__}"]
            lines += [f"   :members: {', '.join(members)}"] if members else ["   :no-members:"]
            lines += [""]
            for constant in dict.fromkeys(constants):  # with or without a "#:" comment
                if constant not in listed | exported and hasattr(module, constant):
                    lines += [f".. autodata:: {module.__name__}.{constant}", ""]
        return self.parse_text_to_nodes("\n".join(lines))


def _import(name: str):
    """The object a dotted name imports to, or None: an attribute of its parent before a
    submodule of the same name (``bounds.evaluate`` is the function)."""
    parts = name.split(".")
    for split in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        try:
            for part in parts[split:]:
                obj = getattr(obj, part)
        except AttributeError:
            break
        return obj
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _described_attributes(cls) -> set[str]:
    """The names a class docstring's Attributes section describes."""
    from numpydoc.docscrape import ClassDoc

    names = set()
    for entry in ClassDoc(cls, config={"show_class_members": False})["Attributes"]:
        names.update(name.strip() for name in entry.name.split(","))
    return names


def _ancestors(node):
    while node is not None:
        yield node
        node = node.parent


def resolve_reexported(app, env, node, contnode):
    """Resolve a reference to a name's defining module by its documented public path.

    The reference documents names where users import them
    (``perceptron_bounds.bounds.transformed_instances``); docstrings may name the module
    that defines them (``perceptron_bounds.bounds.transformed.transformed_instances``),
    or a name relative to their own module. Such a reference is resolved to the
    documented object that is the same Python object; any other stays unresolved.
    """
    if node.get("refdomain") != "py" or not node["reftarget"].strip("~."):
        return None
    target = node["reftarget"].lstrip("~.")
    modules = [node.get("py:module") or ""]
    source = next((n.source for n in _ancestors(node) if n.source), "") or ""
    if "docstring of " in source:  # the module that defines the documented object
        documented = _import(source.rsplit("docstring of ", 1)[1])
        modules.append(getattr(documented, "__module__", None) or getattr(documented,
                                                                           "__name__", ""))
    candidates = [target]
    for module in modules:
        parts = module.split(".")
        candidates += [".".join(parts[:i] + [target]) for i in range(len(parts), 0, -1)]
    domain = env.get_domain("py")
    leaf = target.rsplit(".", 1)[-1]
    if node["reftype"] in ("attr", "obj") and "docstring of " in source:
        # An attribute that a class's docstring describes (numpydoc's Attributes section)
        # has no entry of its own: link to the class.
        documented = source.rsplit("docstring of ", 1)[1]
        for owner in (documented, documented.rsplit(".", 1)[0]):
            cls = _import(owner)
            if isinstance(cls, type) and leaf in _described_attributes(cls):
                for fullname in domain.objects:
                    if _import(fullname) is cls and domain.objects[fullname].objtype == "class":
                        return domain.resolve_xref(env, node["refdoc"], app.builder, "class",
                                                   fullname, node, contnode)
    for candidate in candidates:
        if not candidate.startswith("perceptron_bounds"):
            continue
        obj = _import(candidate)
        if obj is None or isinstance(obj, (str, int, float, bool, type(None))):
            continue
        for fullname in [candidate, *domain.objects]:
            if fullname in domain.objects and fullname.rsplit(".", 1)[-1] == leaf:
                if _import(fullname) is obj:
                    return domain.resolve_xref(env, node["refdoc"], app.builder,
                                               node["reftype"], fullname, node, contnode)
    return None


_LITERAL_SPAN = re.compile(r"(``.*?``|`[^`]*`)")
_THEORY_SECTION = re.compile(r"§(\d+(?:\.\d+)?)")


def _edit_prose(lines, edit):
    """Apply ``edit`` to the docstring's prose, in place: not to inline literals and roles,
    literal blocks after ``::``, or doctest blocks."""
    block_indent = None  # indentation of the paragraph that opened a literal block
    doctest = False
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if block_indent is not None:
            if not stripped or indent > block_indent:
                continue
            block_indent = None
        if stripped.startswith(">>>"):
            doctest = True
        if doctest:
            doctest = bool(stripped)
            continue
        parts = _LITERAL_SPAN.split(line)
        lines[i] = "".join(part if k % 2 else edit(part) for k, part in enumerate(parts))
        if stripped.rstrip().endswith("::"):
            block_indent = indent


def tidy_docstring(app, what, name, obj, options, lines):
    """Fit docstrings written for ``help()`` to a page of the site.

    A constant without a ``#:`` comment would show its type's docstring ("Built-in
    immutable sequence..."): it shows none. A module docstring's sections ("Warm start"
    over a dashed line) become rubrics, so that they do not crowd the page's contents.
    """
    if what == "data" and lines and "\n".join(lines).strip() == (type(obj).__doc__ or "").strip():
        lines.clear()
    if what == "module":
        for i in range(len(lines) - 1):
            title, rule = lines[i].strip(), lines[i + 1].strip()
            if title and re.fullmatch(r"-{3,}", rule) and len(rule) == len(title):
                lines[i], lines[i + 1] = f".. rubric:: {title}", ""


def escape_bars(app, what, name, obj, options, lines):
    """Read ``|`` in docstrings as a character (|x|, ||w||), never as a reST substitution.

    The docstrings write absolute values and norms in plain text; reST would take
    ``|x|`` for a substitution reference and fail.
    """
    _edit_prose(lines, lambda text: text.replace("|", "\\|"))


def link_theory(app, what, name, obj, options, lines):
    """Make each "§2.4" of a docstring (they cite the theory page) a link to that section.

    The labels ``theory-2.4`` are made from the theory page's numbered headings
    (:func:`label_theory_sections`); a docstring that cites a section the page does not
    have is a broken reference, an error of the build.
    """
    _edit_prose(lines, lambda text: _THEORY_SECTION.sub(r":ref:`§\1 <theory-\1>`", text))


def label_theory_sections(app, doctree):
    """Give each numbered heading of the theory page a label: "### 2.4 ..." is ``theory-2.4``."""
    if app.env.docname != "theory":
        return
    std = app.env.get_domain("std")
    for section in doctree.findall(nodes.section):
        match = re.match(r"(\d+(?:\.\d+)?)\s", section.next_node(nodes.title).astext())
        if match and section["ids"]:
            label = f"theory-{match.group(1)}"
            std.anonlabels[label] = ("theory", section["ids"][0])
            std.labels[label] = ("theory", section["ids"][0], f"theory §{match.group(1)}")


class RelativeModules(SphinxPostTransform):
    """Read ``:mod:`.name``` as Python reads ``.name``: a module of the same package.

    Sphinx looks a relative name up under the current module and then anywhere by its
    last component, which finds ``algorithms.ballseptron`` beside ``bounds.ballseptron``.
    Before references are resolved, such a name is made absolute: the current module's
    submodule if it is one (in a package's own docstring), else its sibling.
    """

    default_priority = 5  # before Sphinx's ReferencesResolver (10)

    def run(self, **kwargs):
        modules = self.env.get_domain("py").modules
        for node in self.document.findall(addnodes.pending_xref):
            if (node.get("refdomain"), node.get("reftype")) != ("py", "mod"):
                continue
            module = node.get("py:module")
            if not (node.get("refspecific") and module):
                continue
            for base in (module, module.rpartition(".")[0]):
                target = f"{base}.{node['reftarget']}"
                if base and target in modules:
                    node["reftarget"] = target
                    node["refspecific"] = False
                    break


def skip_member(app, what, name, obj, skip, options):
    """Leave out scikit-learn's generated metadata-routing methods (``set_*_request``)."""
    if re.fullmatch(r"set_\w+_request", name):
        return True
    return None


def setup(app):
    app.connect("source-read", title_examples)
    app.connect("missing-reference", resolve_reexported)
    app.connect("autodoc-skip-member", skip_member)
    app.connect("autodoc-process-docstring", tidy_docstring, priority=400)
    app.connect("autodoc-process-docstring", escape_bars, priority=600)
    app.connect("autodoc-process-docstring", link_theory, priority=601)
    app.connect("doctree-read", label_theory_sections)
    app.add_post_transform(RelativeModules)
    app.add_directive("pb-algorithms", AlgorithmTable)
    app.add_directive("pb-readme", ReadmePart)
    app.add_directive("pb-remaining", RemainingNames)
    app.add_directive("pb-modules", SubModules)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
