"""The Play page's ``pbLesson.run`` (docs/_static/play/pblesson.js) in Node, against evaluate
(issue 31, item 4): quick, without Chromium or the docs site (test_docs_play.py has those).

Without u and gamma, run() held every bound at the comparator and gamma of the smallest one:
Novikoff came out null on separable data where evaluate gives its value; and a bound that
did not apply (PA's general bound on rows not of unit norm) had no reason.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from perceptron_bounds import run_online
from perceptron_bounds.bounds import evaluate

NODE = shutil.which("node")
SCRIPT = Path(__file__).resolve().parent.parent / "docs" / "_static" / "play" / "pblesson.js"
pytestmark = pytest.mark.skipif(NODE is None, reason="no Node.js (apt-get install nodejs)")


def page_run(job: dict) -> dict:
    """pbLesson.runPlain(job) in Node: the page's script as the page loads it."""
    code = (f"global.window = global; require({json.dumps(str(SCRIPT))});"
            f"process.stdout.write(JSON.stringify(pbLesson.runPlain({json.dumps(job)})));")
    done = subprocess.run([NODE, "-e", code], capture_output=True, text=True, timeout=60,
                          check=True)
    return json.loads(done.stdout)


def separable(seed: int, n: int = 30) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.0, 1.0, (n, 2))
    u = np.array([np.cos(seed), np.sin(seed)])
    margins = X @ u
    keep = np.abs(margins) > 0.1
    return X[keep], np.where(margins[keep] > 0, 1.0, -1.0)


@pytest.mark.parametrize("seed", range(4))
def test_without_u_and_gamma_every_bound_is_evaluates(seed):
    X, y = separable(seed)
    for algorithm, params in (("perceptron", {}), ("passive_aggressive", {"variant": "pa"})):
        js = page_run({"algorithm": algorithm, "X": X.tolist(), "y": y.tolist(),
                       "params": params, "epochs": 2})
        run = run_online(algorithm, X, y, epochs=2, **params)
        for row in evaluate(run, X, y, comparator="svm").rows:
            if row.variant != "stated":
                continue
            mine = js["bounds"][row.name]
            if row.value is None:
                assert mine is None, (algorithm, row.name, mine, row.reason)
                assert js["reasons"][row.name], (algorithm, row.name)
            else:
                assert mine is not None, (algorithm, row.name, js["reasons"].get(row.name))
                assert abs(mine - row.value) <= 1e-3 * row.value, (algorithm, row.name)


def test_pa_general_says_why_it_does_not_apply_on_rows_not_of_unit_norm():
    X, y = separable(0)
    js = page_run({"algorithm": "passive_aggressive", "X": X.tolist(), "y": y.tolist(),
                   "params": {"variant": "pa"}, "epochs": 2})
    run = run_online("passive_aggressive", X, y, variant="pa", epochs=2)
    row = evaluate(run, X, y, comparator="svm").row("pa_general")
    assert js["bounds"]["pa_general"] is None and row.value is None
    assert js["reasons"]["pa_general"] == row.reason
