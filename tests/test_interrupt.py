"""Ctrl-C (issue 20, item 5): every kind of run stops promptly, never with a crash.

Each test starts a Python process that compiles its loop on tiny data, then makes a
run that would take minutes (or hours) to finish. The child records the run's
progress through :func:`~perceptron_bounds._interrupt.reporting` (the trial index
its loop reports about every 0.2 s of work) and says ``started`` at the first
report; SIGINT follows a fixed delay later. Promptness is read from how far the
loop got, not from a clock (no test asserts a wall time: on a loaded machine a
clock says nothing): the loop must stop before half its trials, which a loop that
ignores Ctrl-C and runs to its end never does (its last reports come near its
end). The sizes are such that the trials done by the time SIGINT arrives are a
small fraction of the whole even on a quiet machine several times faster than
ours; a loaded machine only does fewer. Before the fix a jitted loop ran to its
end, and the KeyboardInterrupt raised while Numba converted its results (a NULL
in the returned tuple) ended one-vs-rest kernel runs with a segmentation fault
(-11).
"""

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from perceptron_bounds._files import replacing
from perceptron_bounds._interrupt import interruptible

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")

#: The child's first lines: ``report``, given to ``reporting`` (or called by the progress
#: bar's reporter), keeps the loop's trial indices and prints ``started`` at the first.
PROGRESS = """
import sys
from perceptron_bounds import _interrupt
seen = []
def report(trial):
    if not seen:
        print("started", flush=True)
    seen.append(trial)
"""
#: How a child that stopped on Ctrl-C ends its output (``stopped`` below reads it).
STOPPED = "stopped at trial {} of {}"

# A run interrupted inside the API prints STOPPED and exits with 3.
API = PROGRESS + """
import numpy as np
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
try:
    with _interrupt.reporting(report):
        run_online({algorithm!r}, X, y, epochs={epochs}, **{params!r})
except KeyboardInterrupt:
    print({stopped!r}.format(seen[-1], {n} * {epochs}), flush=True)
    sys.exit(3)
print("finished", flush=True)
"""


def _interrupt(code, *, ready=None, delay=0.5):
    """Run ``code`` in a child; SIGINT ``delay`` s after it prints ``started`` (or ``ready()``).

    Returns (returncode, stdout, stderr, the value of ``ready()`` when SIGINT was sent).
    A child that never starts fails the test after 10 minutes, one that does not exit
    after SIGINT after 2 minutes: limits on a broken run, far above any working one.
    """
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env={**os.environ})
    deadline = time.monotonic() + 600
    try:
        if ready is None:
            lines = queue.Queue()
            threading.Thread(target=lambda: lines.put(child.stdout.readline()),
                             daemon=True).start()
            try:
                line = lines.get(timeout=600)
            except queue.Empty:
                pytest.fail("the child's loop never reported a trial")
            assert line == "started\n", line + child.stderr.read()
        else:
            while not ready():
                if child.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the child never got ready: {child.stderr.read()}")
                time.sleep(0.05)
        time.sleep(delay)
        assert child.poll() is None, "the run ended before it was interrupted"
        at_signal = None if ready is None else ready()
        child.send_signal(signal.SIGINT)
        try:
            out, err = child.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            pytest.fail("the child ran on for 2 minutes after SIGINT")
        return child.returncode, out, err, at_signal
    finally:
        if child.poll() is None:
            child.kill()
        child.communicate()


def stopped(out) -> tuple[int, int]:
    """(last trial reported, trials of the run) of a child whose whole output after
    ``started`` is STOPPED."""
    found = re.fullmatch(STOPPED.format(r"(\d+)", r"(\d+)") + "\n", out)
    assert found, out
    return int(found[1]), int(found[2])


def assert_stopped_early(last, total):
    """The loop stopped before half its trials: a loop run to its end reports near its end."""
    assert 0 <= last < total // 2, f"the loop ran on to trial {last} of {total} after Ctrl-C"


@pytest.mark.parametrize(("algorithm", "n", "d", "classes", "epochs", "params"), [
    # primal loop: 4e6 trials of 100,000 features (X 80 MB, read from memory: minutes)
    ("perceptron", 100, 100_000, 2, 40_000, {}),
    # the kernel-row engine's dual loop
    ("perceptron", 3000, 20, 2, 3000, {"kernel": "rbf", "gamma": 5.0}),
    # the Second-Order dual form: a k x k matrix, O(k^2) per trial
    ("second_order", 3000, 20, 2, 200, {"form": "dual", "kernel": "rbf", "gamma": 5.0}),
    # one-vs-rest kernel run (the segmentation fault of the issue)
    ("perceptron", 3000, 20, 4, 3000, {"kernel": "poly", "degree": 4, "gamma": 1.0}),
], ids=["primal", "kernel-dual", "second-order-dual", "ovr-kernel"])
def test_ctrl_c_stops_an_api_run(algorithm, n, d, classes, epochs, params):
    code = API.format(algorithm=algorithm, n=n, d=d, classes=classes, epochs=epochs,
                      params=params, stopped=STOPPED)
    returncode, out, err, _ = _interrupt(code)
    assert returncode == 3, (returncode, out, err)
    assert_stopped_early(*stopped(out))


BOUNDS = PROGRESS + """
import numpy as np
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
try:
    with _interrupt.reporting(report):
        {call}
except KeyboardInterrupt:
    print({stopped!r}.format(seen[-1], {total}), flush=True)
    sys.exit(3)
print("finished", flush=True)
"""


@pytest.mark.parametrize(("setup", "call", "total"), [
    # a kernel run's bounds: the span of its 1,000 mistakes in R^12000, the first loop of
    # evaluate that reports (the comparators before it are Python and LAPACK calls)
    ("X, y = data(1000, 12000); run = run_online('second_order', X, y, variant='pinv', "
     "kernel='rbf')", "evaluate(run, X, y)", "run.mistakes"),
    # its span alone: 2,500 rows in R^2000
    ("Xm, _ = data(2500, 2000); kernel = make_kernel('rbf', n_features=2000, X=Xm)",
     "span_spectrum(Xm, kernel)", "Xm.shape[0]"),
], ids=["evaluate", "span_spectrum"])
def test_ctrl_c_stops_the_bounds(setup, call, total):
    # The span loop's trial k costs O(k): its first half is a quarter of its work, so SIGINT
    # comes 0.1 s (a few percent of the loop's work) after it started.
    code = BOUNDS.format(setup=setup, call=call, total=total, stopped=STOPPED)
    returncode, out, err, _ = _interrupt(code, delay=0.1)
    assert returncode == 3, (returncode, out, err)
    assert_stopped_early(*stopped(out))


CLI = PROGRESS + """
from perceptron_bounds import run_online
from perceptron_bounds.cli import main
from perceptron_bounds.datasets import make_separable
X, y, _ = make_separable(40, 5, seed=0)
run_online("perceptron", X, y, kernel="rbf")
update = _interrupt._Reporter.__call__
def recorded(reporter, trial):  # the command's progress bar's reporter: keep its trials too
    report(trial)
    update(reporter, trial)
_interrupt._Reporter.__call__ = recorded
code = main({argv!r})
print({stopped!r}.format(seen[-1], {total}), flush=True)
sys.exit(code)
"""


def test_ctrl_c_ends_a_cli_run_with_one_line_and_130():
    from perceptron_bounds.cli._common import BUILTIN_DATA

    epochs = 500
    argv = ["run", "--algorithm", "perceptron", "--param", "kernel=rbf", "--epochs", str(epochs)]
    code = CLI.format(argv=argv, total=BUILTIN_DATA["n_samples"] * epochs, stopped=STOPPED)
    returncode, out, err, _ = _interrupt(code)
    assert returncode == 130, (returncode, err)
    assert err == "perceptron-bounds run: interrupted\n"
    assert_stopped_early(*stopped(out))  # and nothing else printed: no partial report


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

    returncode, out, err, at_signal = _interrupt(code, ready=lambda: len(cells()), delay=0.1)
    assert returncode == 130, (returncode, err)
    assert err.splitlines()[-1] == "perceptron-bounds figure: interrupted", err
    assert "Traceback" not in err and not (tmp_path / "out" / "fs-mnist.csv").exists()
    finished = {path: path.stat().st_mtime_ns for path in cells()}
    # The cell running at SIGINT stopped: no cell (of the sweep's 6) finished after it.
    assert len(finished) == at_signal < 6 and not list(cache.rglob("*.tmp*"))
    # Started again: the finished cells are read back, not run again, and new ones follow.
    returncode, out, err, _ = _interrupt(
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

