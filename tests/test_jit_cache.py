"""Numba's on-disk cache never runs a loop with another module's old code.

A loop's machine code includes the jitted functions it calls from other
modules, but Numba keeps a cached function fresh while its own file is
unchanged: after an edit of ``kernel_engine.py`` alone the Perceptron's dual
loop ran the old engine. ``_jit.jit`` stamps every cache entry with the
sources of all the package's jitted modules. Checked on a two-module package
that uses a copy of ``_jit.py`` (its stamp covers the package it sits in).
"""

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import perceptron_bounds._jit

SOURCES = {
    "__init__.py": "",
    "a.py": """\
        from ._jit import jit


        @jit
        def value(x):
            return x + 1.0
        """,
    "b.py": """\
        from ._jit import jit
        from .a import value


        @jit
        def loop(x):
            return value(x) * 2.0
        """,
    "notes.py": """\
        NOTE = 'not jitted: editing it keeps the cache'
        """,
}
SHOW = "from pkg.b import loop; print(loop(1.0), sum(loop.stats.cache_hits.values()))"


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT", "0") != "0", reason="no JIT, no cache")
def test_editing_a_called_module_recompiles_the_caller(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    shutil.copy(perceptron_bounds._jit.__file__, package / "_jit.py")
    for name, source in SOURCES.items():
        (package / name).write_text(textwrap.dedent(source))
    env = {key: value for key, value in os.environ.items() if key != "NUMBA_CACHE_DIR"}

    def show():
        done = subprocess.run([sys.executable, "-c", SHOW], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120, check=True)
        result, hits = done.stdout.split()
        return float(result), int(hits)

    assert show() == (4.0, 0)  # compiled
    assert show() == (4.0, 1)  # from the cache
    edit(package / "notes.py", "keeps", "still keeps")
    assert show() == (4.0, 1)  # a module without jitted code does not count
    edit(package / "a.py", "x + 1.0", "x + 2.0")
    assert show() == (6.0, 0)  # b.py unchanged, but compiled again with the new a.value
    assert show() == (6.0, 1)


def edit(path: Path, old: str, new: str) -> None:
    path.write_text(path.read_text().replace(old, new))


def test_runs_with_the_jit_off():
    """The coverage run (README): with NUMBA_DISABLE_JIT=1 the loops run as Python, their
    intrinsics (the Ctrl-C check, the prefetch hint of the one-vs-rest loops) included."""
    code = textwrap.dedent("""\
        import numpy as np
        from perceptron_bounds import run_online
        X = np.random.default_rng(0).normal(size=(30, 4))
        binary = run_online("perceptron", X, np.sign(X[:, 0]))
        ovr = run_online("perceptron", X, np.digitize(X[:, 0], [-0.5, 0.5]), epochs=2)
        print(binary.mistakes, ovr.mistakes)
        """)
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    jitted = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=300, check=True)
    assert done.stdout == jitted.stdout
