"""Experiments and plots import cleanly, each on its own; plots sit below experiments.

Layers point one way: base modules <- algorithms <- experiments and
plots, and experiments may import plots but not the reverse; no private (underscore) names
are imported across modules.
"""

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import perceptron_bounds.experiments as experiments
import perceptron_bounds.plots as plots


def _modules(package) -> list[str]:
    return [package.__name__] + [
        f"{package.__name__}.{info.name}" for info in pkgutil.iter_modules(package.__path__)
    ]


LAYER_MODULES = _modules(experiments) + _modules(plots)


def test_every_module_imports_on_its_own():
    """A fresh interpreter imports each module first; the plots never pull in experiments."""
    code = "import sys, {}\nprint('perceptron_bounds.experiments' in sys.modules)"
    runs = {  # all at once: each interpreter spends its second importing NumPy and Numba
        module: subprocess.Popen(
            [sys.executable, "-c", code.format(module)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for module in LAYER_MODULES
    }
    for module, run in runs.items():
        out, err = run.communicate()
        assert run.returncode == 0, f"import {module} failed:\n{err}"
        assert out.strip() == str(module.startswith("perceptron_bounds.experiments")), module


def _imports(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            yield node.level, node.module or "", [alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            yield 0, "", [alias.name for alias in node.names]


@pytest.mark.parametrize("package", [experiments, plots], ids=["experiments", "plots"])
def test_no_private_names_cross_modules_and_plots_sit_below_experiments(package):
    for path in Path(package.__path__[0]).glob("*.py"):
        for level, module, names in _imports(path):
            private = [n for n in names if n.startswith("_") and not n.endswith("__")]
            assert not private, f"{path.name} imports private {private} from {module}"
            if package is plots:
                target = ".".join(filter(None, [module, *names])) if level == 0 else module
                assert "experiments" not in target, f"{path.name} imports {target}"
