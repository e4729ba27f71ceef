"""Ctrl-C (issue 20, item 5): every kind of run stops within 2 s, never with a crash.

Each test starts a Python process that compiles its loop on tiny data, prints
``started``, then makes a run that would take minutes; SIGINT is sent half a
second later. Before the fix a jitted loop ran to its end, and the
KeyboardInterrupt raised while Numba converted its results (a NULL in the
returned tuple) ended one-vs-rest kernel runs with a segmentation fault (-11).
"""

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from perceptron_bounds._files import replacing
from perceptron_bounds._interrupt import interruptible

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")

# A run interrupted inside the API prints "KeyboardInterrupt" and exits with 3.
API = """
import sys, numpy as np
from perceptron_bounds import run_online
rng = np.random.default_rng(0)
def data(n, d, classes=2):
    X = rng.standard_normal((n, d))
    y = rng.integers(0, classes, n) if classes > 2 else np.sign(X @ rng.standard_normal(d))
    if classes == 2:
        y[rng.random(n) < 0.2] *= -1
    return X, y
X0, y0 = data(40, {d}, {classes})
run_online({algorithm!r}, X0, y0, **{params!r})  # compiles (or loads) the loop
X, y = data({n}, {d}, {classes})
print("started", flush=True)
try:
    run_online({algorithm!r}, X, y, epochs={epochs}, **{params!r})
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
    sys.exit(3)
print("finished", flush=True)
"""


def _interrupt(code, *, ready=None, delay=0.5):
    """Run ``code`` in a child; SIGINT ``delay`` s after it prints ``started`` (or ``ready()``).

    Returns (returncode, stdout, stderr, seconds from SIGINT to exit).
    """
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env={**os.environ})
    try:
        if ready is None:
            line = child.stdout.readline()
            assert line == "started\n", line + child.stderr.read()
        else:
            deadline = time.monotonic() + 300
            while not ready():
                assert child.poll() is None and time.monotonic() < deadline, child.stderr.read()
                time.sleep(0.05)
        time.sleep(delay)
        assert child.poll() is None, "the run ended before it was interrupted"
        start = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
        return child.returncode, out, err, time.monotonic() - start
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


@pytest.mark.parametrize(("algorithm", "n", "d", "classes", "epochs", "params"), [
    # primal loop: 4e6 trials of 1,000 features
    ("perceptron", 2000, 1000, 2, 2000, {}),
    # the kernel-row engine's dual loop
    ("perceptron", 3000, 20, 2, 3000, {"kernel": "rbf", "gamma": 5.0}),
    # the Second-Order dual form: a k x k matrix, O(k^2) per trial
    ("second_order", 3000, 20, 2, 200, {"form": "dual", "kernel": "rbf", "gamma": 5.0}),
    # one-vs-rest kernel run (the segmentation fault of the issue)
    ("perceptron", 3000, 20, 4, 3000, {"kernel": "poly", "degree": 4, "gamma": 1.0}),
], ids=["primal", "kernel-dual", "second-order-dual", "ovr-kernel"])
def test_ctrl_c_stops_an_api_run(algorithm, n, d, classes, epochs, params):
    code = API.format(algorithm=algorithm, n=n, d=d, classes=classes, epochs=epochs,
                      params=params)
    returncode, out, err, seconds = _interrupt(code)
    assert returncode == 3 and out.endswith("KeyboardInterrupt\n"), (returncode, out, err)
    assert seconds < 2.0


BOUNDS = """
import sys, numpy as np
from perceptron_bounds import run_online
from perceptron_bounds.bounds import evaluate, span_spectrum
from perceptron_bounds.kernels import make_kernel
rng = np.random.default_rng(0)
def data(n, d):
    X = rng.standard_normal((n, d))
    y = np.sign(X[:, 0])
    y[rng.random(n) < 0.3] *= -1
    return X, y
X0, y0 = data(40, 5)
evaluate(run_online("second_order", X0, y0, variant="pinv", kernel="rbf"), X0, y0)  # compiles
{setup}
print("started", flush=True)
try:
    {call}
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
    sys.exit(3)
print("finished", flush=True)
"""


@pytest.mark.parametrize(("setup", "call", "delay"), [
    # a long kernel run: SVM comparators, then the span of 1,000 mistakes in R^3000
    ("X, y = data(1000, 3000); run = run_online('second_order', X, y, variant='pinv', "
     "kernel='rbf')", "evaluate(run, X, y)", 1.0),
    # its span alone, long enough (several seconds) to fail without the loop's check
    ("Xm, _ = data(2500, 2000); kernel = make_kernel('rbf', n_features=2000, X=Xm)",
     "span_spectrum(Xm, kernel)", 0.5),
], ids=["evaluate", "span_spectrum"])
def test_ctrl_c_stops_the_bounds(setup, call, delay):
    returncode, out, err, seconds = _interrupt(BOUNDS.format(setup=setup, call=call), delay=delay)
    assert returncode == 3 and out.endswith("KeyboardInterrupt\n"), (returncode, out, err)
    assert seconds < 2.0


CLI = """
import sys
from perceptron_bounds import run_online
from perceptron_bounds.cli import main
from perceptron_bounds.datasets import make_separable
X, y, _ = make_separable(40, 5, seed=0)
run_online("perceptron", X, y, kernel="rbf")
print("started", flush=True)
sys.exit(main(sys.argv[1:]))
"""


def test_ctrl_c_ends_a_cli_run_with_one_line_and_130():
    code = CLI + "\n"
    child_args = ["run", "--algorithm", "perceptron", "--param", "kernel=rbf", "--epochs",
                  "500"]
    returncode, out, err, seconds = _interrupt(
        code.replace("sys.argv[1:]", repr(child_args)))
    assert returncode == 130 and seconds < 2.0, (returncode, err)
    assert err == "perceptron-bounds run: interrupted\n" and out == ""  # no partial report


SWEEP = """
import sys
import pytest
sys.path.insert(0, {tests!r})
import real_fixtures
from perceptron_bounds.cli import main
from perceptron_bounds.datasets.real import DATA_HOME_ENV
from perceptron_bounds.papers import freund_schapire
patch = pytest.MonkeyPatch()
real_fixtures.N_TRAIN = 2500  # cells of about a second each
real_fixtures.mnist_home({home!r}, patch)
patch.setenv(DATA_HOME_ENV, {home!r})
patch.setitem(freund_schapire.FS_FULL, "epochs", (1, 2))
sys.exit(main(["figure", "fs-mnist", "--cache", {cache!r}, "--out", {out!r}]))
"""


def test_ctrl_c_keeps_the_finished_cells_of_a_sweep(tmp_path):
    cache = tmp_path / "cache"
    code = SWEEP.format(tests=os.path.dirname(__file__), home=str(tmp_path / "data"),
                        cache=str(cache), out=str(tmp_path / "out"))

    def cells():
        return sorted(cache.rglob("output.pkl"))

    returncode, out, err, seconds = _interrupt(code, ready=lambda: len(cells()) >= 1,
                                               delay=0.1)
    assert returncode == 130 and seconds < 2.0, (returncode, err)
    assert err.splitlines()[-1] == "perceptron-bounds figure: interrupted", err
    assert "Traceback" not in err and not (tmp_path / "out" / "fs-mnist.csv").exists()
    finished = {path: path.stat().st_mtime_ns for path in cells()}
    assert finished and not list(cache.rglob("*.tmp*"))
    # Started again: the finished cells are read back, not run again, and new ones follow.
    returncode, out, err, seconds = _interrupt(
        code, ready=lambda: len(cells()) > len(finished), delay=0.0)
    assert returncode == 130, err
    assert all(path.stat().st_mtime_ns == mtime for path, mtime in finished.items())


def test_interruptible_is_a_no_op_under_another_handler():
    calls = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: calls.append(signum))
    try:
        with interruptible():
            assert signal.getsignal(signal.SIGINT) is not signal.default_int_handler
            signal.raise_signal(signal.SIGINT)
        assert calls == [signal.SIGINT]
    finally:
        signal.signal(signal.SIGINT, previous)
    assert signal.getsignal(signal.SIGINT) is previous


def test_interruptible_restores_the_default_handler_and_raises():
    with pytest.raises(KeyboardInterrupt):
        with interruptible():
            assert signal.getsignal(signal.SIGINT) is not signal.default_int_handler
            signal.raise_signal(signal.SIGINT)
            time.sleep(1)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_replacing_leaves_no_partial_file(tmp_path):
    path = tmp_path / "table.csv"
    path.write_text("old")
    with pytest.raises(KeyboardInterrupt):
        with replacing(path) as temp:
            with open(temp, "w") as handle:
                handle.write("half")
            raise KeyboardInterrupt
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["table.csv"]
    with replacing(path) as temp:
        np.savetxt(temp, [1.0])
    assert path.read_text().strip() == "1.000000000000000000e+00"
    assert os.listdir(tmp_path) == ["table.csv"]

