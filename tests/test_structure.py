"""The package's structure: layers point one way, no cycles, no private names across modules.

Read from the source with ``ast``, deferred (function-level) imports included:
a cycle through a deferred import is still a sign that code sits in the
wrong module.
"""

import ast
import inspect
import io
import pkgutil
import subprocess
import sys
import textwrap
import tokenize
from pathlib import Path

import pytest

import perceptron_bounds
from perceptron_bounds.algorithms import available, get

PACKAGE = Path(perceptron_bounds.__file__).parent
MODULES = sorted(info.name for info in pkgutil.walk_packages([str(PACKAGE)], "perceptron_bounds."))

# Each module's layer: a module may import modules of its own layer or below, never above.
LAYERS = {
    "perceptron_bounds._": 0,  # _jit, _validation, _linalg, _sequence, _tables
    "perceptron_bounds.kernels": 0,
    "perceptron_bounds.kernel_engine": 0,
    "perceptron_bounds.registry": 0,
    "perceptron_bounds.hypothesis": 1,
    "perceptron_bounds.run": 1,
    "perceptron_bounds.persistence": 1,
    "perceptron_bounds.replay": 1,
    "perceptron_bounds.algorithms": 2,
    "perceptron_bounds.online": 3,
    "perceptron_bounds.estimators": 4,
    "perceptron_bounds.datasets": 4,
    "perceptron_bounds.streaming": 4,  # run_online over a file's chunks (datasets.chunks)
    "perceptron_bounds.bounds": 4,
    "perceptron_bounds.plots": 5,
    "perceptron_bounds.experiments": 6,
    "perceptron_bounds.papers": 7,
    "perceptron_bounds.cli": 8,
    "perceptron_bounds.__main__": 9,
}


def layer(module: str) -> int:
    best = max((prefix for prefix in LAYERS if module.startswith(prefix)), key=len)
    return LAYERS[best]


def source_path(module: str) -> Path:
    parts = module.split(".")[1:]
    path = PACKAGE.joinpath(*parts)
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def imports_of(module: str) -> list[tuple[str, list[str], int]]:
    """(imported module, imported names, line) of every import of the package's own modules."""
    path = source_path(module)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            if not target.startswith("perceptron_bounds"):
                continue
            names = [alias.name for alias in node.names]
            submodules = [f"{target}.{name}" for name in names if f"{target}.{name}" in MODULES]
            if len(submodules) < len(names):  # names of the target itself, not its submodules
                out.append((target, names, node.lineno))
            out.extend((sub, [], node.lineno) for sub in submodules)
        elif isinstance(node, ast.Import):
            out.extend((alias.name, [], node.lineno) for alias in node.names
                       if alias.name.startswith("perceptron_bounds"))
    return out


GRAPH = {module: {target for target, _, _ in imports_of(module)} for module in MODULES}


def test_the_module_list_is_complete():
    assert "perceptron_bounds.kernels" in MODULES
    assert "perceptron_bounds.bounds.second_order" in MODULES
    assert all(source_path(module).is_file() for module in MODULES)


@pytest.mark.parametrize("module", [m for m in MODULES if m != "perceptron_bounds"])
def test_layers_point_one_way(module):
    """Base modules import nothing above them; nothing imports the command line."""
    for target, names, line in imports_of(module):
        if target == "perceptron_bounds":  # its __init__ imports online: layer 3
            assert names == ["__version__"] or layer(module) >= 3, (
                f"{module}:{line} imports {names} from the package itself")
            continue
        assert layer(target) <= layer(module), f"{module}:{line} imports {target} from above"
        if module.startswith("perceptron_bounds.plots"):
            assert not target.startswith("perceptron_bounds.experiments"), f"{module}:{line}"


# The general bound machinery and the modules of particular theorems (issue 33): what only some
# theorems read is computed by their providers, so the machinery sits below every theorem.
GENERAL_BOUND_MODULES = ("declaration", "quantities", "providers", "search", "report", "evaluate",
                         "over_time")
THEOREM_MODULES = ("first_order", "ballseptron", "pnorm", "second_order", "higher_order",
                   "passive_aggressive", "romma", "alma", "arow", "forgetron",
                   "budget_perceptron", "projectron", "selective")


@pytest.mark.parametrize("module", GENERAL_BOUND_MODULES)
def test_the_general_bound_machinery_imports_no_theorem_module(module):
    """At module level or deferred, directly or through another module of the package."""
    theorems = {f"perceptron_bounds.bounds.{name}" for name in THEOREM_MODULES}
    seen, todo = set(), [f"perceptron_bounds.bounds.{module}"]
    while todo:
        current = todo.pop()
        for target in GRAPH.get(current, ()):
            assert target not in theorems, f"{module} imports {target} (through {current})"
            if target not in seen and target != "perceptron_bounds":
                seen.add(target)
                todo.append(target)


def third_party_imports(module: str) -> set[str]:
    """The top-level names of the modules outside the package that ``module`` imports."""
    found = set()
    for node in ast.walk(ast.parse(source_path(module).read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found.add((node.module or "").split(".")[0])
    return found - {"perceptron_bounds"}


@pytest.mark.parametrize("module", [m for m in MODULES
                                    if m.startswith("perceptron_bounds.experiments")])
def test_experiments_return_tables_and_draw_nothing(module):
    """Experiments import nothing from plots (nor the papers' reproductions) and no matplotlib:
    the figures of their tables are drawn in perceptron_bounds.papers."""
    for target, _, line in imports_of(module):
        assert not target.startswith(("perceptron_bounds.plots", "perceptron_bounds.papers")), (
            f"{module}:{line} imports {target}")
    assert "matplotlib" not in third_party_imports(module), module


def test_no_import_cycles():
    state = {}

    def visit(module, path):
        state[module] = "open"
        for target in sorted(GRAPH.get(module, ())):
            if target == "perceptron_bounds" or target not in GRAPH:
                continue
            if state.get(target) == "open":
                cycle = path[path.index(target):] + [target]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target, [*path, target])
        state[module] = "done"

    for module in MODULES:
        if module not in state:
            visit(module, [module])


@pytest.mark.parametrize("module", MODULES)
def test_no_private_names_imported_across_modules(module):
    for target, names, line in imports_of(module):
        private = [name for name in names if name.startswith("_") and name != "__version__"]
        assert not private, f"{module}:{line} imports {private} from {target}"


def test_every_module_imports_on_its_own_in_a_fresh_interpreter():
    """Each module first in a fresh package (third-party modules stay loaded, for speed)."""
    code = (
        "import importlib, sys\n"
        "import numba, numpy, scipy.sparse, sklearn.base, matplotlib\n"
        f"for name in {MODULES!r}:\n"
        "    for key in [k for k in sys.modules if k.startswith('perceptron_bounds')]:\n"
        "        del sys.modules[key]\n"
        "    importlib.import_module(name)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]


def test_a_submodule_is_not_shadowed_by_a_function():
    import perceptron_bounds.bounds.higher_order
    import perceptron_bounds.bounds.second_order

    assert inspect.ismodule(perceptron_bounds.bounds.second_order)
    assert inspect.ismodule(perceptron_bounds.bounds.higher_order)


def test_every_registered_algorithm_declares_its_bounds():
    assert sorted(name for name in available() if get(name).bounds) == available()


def test_dir_lists_the_lazily_imported_estimators():
    assert set(perceptron_bounds.__all__) <= set(dir(perceptron_bounds))
    assert "KernelPerceptron" in dir(perceptron_bounds)


# The estimators' defaults that differ from run_online's on purpose: scikit-learn's SVC
# scales its kernel with gamma="scale"; a KernelPerceptron without a kernel would be a
# Perceptron.
ESTIMATOR_DEFAULTS = {"gamma": "scale", ("KernelPerceptron", "kernel"): "poly"}


@pytest.mark.parametrize("name", perceptron_bounds._ESTIMATORS)
def test_estimator_defaults_are_the_registry_defaults(name):
    cls = getattr(perceptron_bounds, name)
    params = cls().get_params()
    defaults = get(cls._algorithm).defaults
    for key in sorted(set(params) & set(defaults)):
        expected = ESTIMATOR_DEFAULTS.get((name, key), ESTIMATOR_DEFAULTS.get(key, defaults[key]))
        assert params[key] == expected and type(params[key]) is type(expected), (name, key)


# The packages that read what is particular to an algorithm from its registration and never
# test its name, with the declarations whose ``name=`` is exempt: a bound named after its
# algorithm (second_order, higher_order) names the bound, not the algorithm.
NAME_FREE = {"bounds": ("Bound",), "plots": ()}


def name_literals(path: Path, declarations=()) -> list[tuple[int, str]]:
    """(line, value) of the string literals of ``path`` equal to a registered algorithm's name,
    outside docstrings and the ``name=`` of a call to one of ``declarations``."""
    tree = ast.parse(path.read_text())
    skipped = set()
    scopes = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    for node in ast.walk(tree):
        if isinstance(node, scopes) and ast.get_docstring(node, clean=False) is not None:
            skipped.add(id(node.body[0].value))
        if isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in declarations:
                skipped.update(id(kw.value) for kw in node.keywords if kw.arg == "name")
    names = set(available())
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and node.value in names and id(node) not in skipped]


@pytest.mark.parametrize("package", sorted(NAME_FREE))
def test_no_algorithm_name_decides_behaviour(package):
    """Bounds and plots read what applies to an algorithm, and how it is drawn, from its
    registration and the bound declarations (issue 21)."""
    found = [(path.relative_to(PACKAGE), line, value)
             for path in sorted((PACKAGE / package).rglob("*.py"))
             for line, value in name_literals(path, NAME_FREE[package])]
    assert not found, found


def test_the_count_of_algorithm_names_sees_literals(tmp_path):
    """The count finds a name outside docstrings, as a dict key or in a comparison too, and
    leaves out only a declaration's own name."""
    path = tmp_path / "probe.py"
    path.write_text('"""perceptron"""\nx = {"perceptron": 1}\ny = f"{z}" == "ballseptron"\n'
                    'def f():\n    """second_order"""\n'
                    '    return Bound(name="second_order", label="higher_order")\n')
    assert sorted(value for _, value in name_literals(path, ("Bound",))) == [
        "ballseptron", "higher_order", "perceptron"]
    assert len(name_literals(path)) == 4


@pytest.mark.parametrize("module", ["perceptron_bounds.plots.panels",
                                    "perceptron_bounds.plots.animation"])
def test_the_teaching_panels_draw_the_curves_they_are_given(module):
    """Only the public entry points (plots.teaching) compute bounds; the drawing takes them."""
    assert not [target for target in GRAPH[module] if target.startswith("perceptron_bounds.bounds")]


# A module over this many lines of code holds more than one thing: split it.
MAX_CODE_LINES = 450
_NOT_CODE = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
             tokenize.ENDMARKER}


def code_lines(source: str) -> int:
    """Lines holding code: not blank, not only a comment, not in a docstring."""
    docstrings = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                docstrings.update(range(first.lineno, first.end_lineno + 1))
    lines = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in _NOT_CODE:
            lines.update(range(token.start[0], token.end[0] + 1))
    return len(lines - docstrings)


def test_code_lines_leave_out_docstrings_comments_and_blank_lines():
    source = '''\
    """Module.

    docstring."""
    # a comment

    def f(x):  # code
        """Doc."""
        return (x +
                1)
    '''
    assert code_lines(textwrap.dedent(source)) == 3


@pytest.mark.parametrize("module", MODULES)
def test_no_module_over_450_lines_of_code(module):
    count = code_lines(source_path(module).read_text())
    assert count <= MAX_CODE_LINES, f"{module}: {count} lines of code"


def test_every_estimator_is_named_by_its_algorithms_registration():
    """The registration declares the estimator class, and the class runs that algorithm."""
    import perceptron_bounds.estimators as estimators

    classes = [cls for cls in vars(estimators).values() if isinstance(cls, type)
               and issubclass(cls, estimators.OnlineClassifier)
               and cls is not estimators.OnlineClassifier]
    assert {cls._algorithm for cls in classes} == set(available())
    for name in available():
        assert estimators.estimator_of(name)._algorithm == name


_CLOCKS = ("perf_counter", "monotonic", "time", "process_time", "thread_time")


def _reads_a_clock(node) -> bool:
    return any(isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute)
               and sub.func.attr in _CLOCKS and isinstance(sub.func.value, ast.Name)
               and sub.func.value.id == "time" for sub in ast.walk(node))


def _clock_names(tree) -> set:
    """Names a module assigns from a clock (``seconds = time.x() - start``), directly or through
    a function of the module that returns one (``code, seconds = timed_run()``)."""
    names, clocked_functions = set(), set()
    for _ in range(2):  # the functions' returns, then the names they are assigned to
        def clocked(value):
            return _reads_a_clock(value) or any(
                (isinstance(sub, ast.Name) and sub.id in names)
                or (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name)
                    and sub.func.id in clocked_functions) for sub in ast.walk(value))

        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) \
                    and node.value is not None and clocked(node.value):
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    names.update(sub.id for sub in ast.walk(target) if isinstance(sub, ast.Name))
            elif isinstance(node, ast.FunctionDef) and any(
                    isinstance(sub, ast.Return) and sub.value is not None and clocked(sub.value)
                    for sub in ast.walk(node)):
                clocked_functions.add(node.name)
    return names


def test_no_test_asserts_a_wall_time():
    """Speed lives in benchmarks/ as ratios (issue 31, item 12): an assert that reads a clock
    ends red on a loaded machine."""
    timed = []
    for path in sorted(Path(__file__).parent.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        clocked = _clock_names(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Assert) and (_reads_a_clock(node.test) or any(
                    isinstance(sub, ast.Name) and sub.id in clocked
                    for sub in ast.walk(node.test))):
                timed.append(f"{path.name}:{node.lineno}")
    assert not timed, timed
