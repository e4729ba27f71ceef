"""Progress (issue 20, item 10): a note while compiling, bars or periodic lines on long work.

Before, the first command compiled for 13-16 s and printed nothing, and run,
compare, the API and sweeps off a terminal were silent on long runs.
"""

import numba
import numpy as np
import pytest

from perceptron_bounds import _progress, online, run_online
from perceptron_bounds._interrupt import interruptible, reporting
from perceptron_bounds._progress import COMPILING, announcing_compilation, command_line
from perceptron_bounds.cli import main
from perceptron_bounds.experiments._cells import run_cells


def _data(n, d, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.sign(X[:, 0] + 0.5 * rng.standard_normal(n))
    return X, y


@pytest.mark.parametrize(("algorithm", "n", "epochs", "params"), [
    ("perceptron", 2000, 400, {}),  # the primal loop, checked every EVERY trials
    ("second_order", 1500, 1, {"form": "dual", "kernel": "rbf", "gamma": 5.0}),  # O(k^2)/trial
], ids=["primal", "second-order-dual"])
def test_a_long_loop_reports_its_trials_while_it_runs(algorithm, n, epochs, params, monkeypatch):
    X, y = _data(n, 50)
    run_online(algorithm, X[:40], y[:40], **params)  # compiled (or loaded) outside the timing
    monkeypatch.setattr("perceptron_bounds._interrupt.REPORT_EVERY", 0.01)
    seen = []
    with interruptible(), reporting(seen.append):
        run = run_online(algorithm, X, y, epochs=epochs, **params)
    assert len(seen) >= 3 and seen == sorted(seen)
    assert 0 < seen[-2] < run.n_trials  # reported from inside the loop, before its end


def test_run_online_progress_is_off_by_default_and_a_bar_when_asked(capsys, monkeypatch):
    X, y = _data(300, 5)
    run_online("perceptron", X, y, epochs=3)
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(online, "BAR_DELAY", 0.0)
    quiet = run_online("pnorm", X, np.arange(300) % 3, epochs=3)
    shown = run_online("pnorm", X, np.arange(300) % 3, epochs=3, progress=True)
    err = capsys.readouterr().err
    # one-vs-rest without a one-pass form: a loop per class, one bar over all of them
    assert "pnorm" in err and "2700/2700" in err
    np.testing.assert_array_equal(quiet.mistake_trials, shown.mistake_trials)
    with pytest.raises(TypeError, match="progress"):
        run_online("perceptron", X, y, progress="yes")


def test_off_a_terminal_the_command_line_prints_a_line_every_few_seconds(capsys, monkeypatch):
    monkeypatch.setattr(_progress, "LINE_EVERY", 0.0)
    with command_line():  # capsys: stderr is not a terminal
        run_cells(lambda i: [{"i": i}], [{"i": i} for i in range(3)], n_jobs=1, progress=True,
                  desc="cells")
    lines = capsys.readouterr().err.splitlines()
    assert lines[:3] == ["cells: 1/3 runs (33%), 0 s", "cells: 2/3 runs (67%), 0 s",
                         "cells: 3/3 runs (100%), 0 s"]
    monkeypatch.setattr(_progress, "LINE_EVERY", 60.0)
    with command_line():  # short work: nothing at all
        run_cells(lambda i: [{"i": i}], [{"i": 0}], n_jobs=1, progress=True, desc="cells")
    assert capsys.readouterr().err == ""


def test_compiling_is_announced_once_and_a_warm_loop_is_silent(capsys):
    def _loop(x):
        return x + 1.0

    _loop.__module__ = "perceptron_bounds.algorithms.fresh"  # a loop of the package, never compiled
    loop = numba.njit(_loop)
    _progress._CompileNotice.said = False
    with announcing_compilation():
        loop(1.0)
        loop(2.0)
    assert capsys.readouterr().err == ""  # under NOTICE_AFTER seconds: nothing (issue 31)
    _loop.__qualname__ = _loop.__name__ = "_other"
    loop = numba.njit(_loop)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_progress, "NOTICE_AFTER", 0.0)
        with announcing_compilation():
            loop(1.0)
            loop(2.0)
    assert capsys.readouterr().err.splitlines()[0] == COMPILING
    assert main(["run", "--algorithm", "perceptron"]) == 0  # its loops compiled or cached
    capsys.readouterr()
    _progress._CompileNotice.said = False
    assert main(["run", "--algorithm", "perceptron"]) == 0
    assert capsys.readouterr().err == ""  # a warm cache: no note


def test_the_compile_notice_says_what_is_true_and_counts_as_it_goes(capsys, monkeypatch):
    """Issue 31, item 10: it said "about 15 s" where a cold compare compiled for 33-50 s, and
    it came back on later runs that compiled a few new specialisations."""
    assert "15 s" not in COMPILING and "once" in COMPILING
    event = numba.core.event.Event("numba:compile", "START", {"dispatcher": main_loop()})
    clock = iter([0.0, 1.0, 3.0, 14.0, 30.0, 33.0])
    monkeypatch.setattr(_progress, "LINE_EVERY", 10.0)
    _progress._CompileNotice.said = False
    notice = _progress._CompileNotice()
    with command_line():
        monkeypatch.setattr(_progress.time, "monotonic", lambda: next(clock))
        notice.on_start(event)  # 0 s
        notice.on_end(event)    # 1 s of compiling: under NOTICE_AFTER, quiet
        notice.on_start(event)  # 3 s (running, not compiling, in between)
        notice.on_end(event)    # 14 s: 12 s of compiling: the notice
        notice.on_start(event)  # 30 s: LINE_EVERY after the notice, a count
        notice.close()          # 33 s: the sum
        monkeypatch.undo()
    assert capsys.readouterr().err.splitlines() == [
        COMPILING, "  2 loops compiled, 12 s",
        "perceptron-bounds: compiled 2 loops in 15 s (cached for later runs)"]


def test_printed_lines_do_not_follow_the_compile_status_line(capsys, monkeypatch):
    """Issue 32: compare prints a run's rows while the next loops compile; on a terminal
    the count's status line is erased first and drawn again by the next count."""
    event = numba.core.event.Event("numba:compile", "START", {"dispatcher": main_loop()})
    clock = iter([0.0, 3.0, 4.0, 5.0])
    _progress._CompileNotice.said = False
    notice = _progress._CompileNotice()
    monkeypatch.setattr(_progress.sys.stderr, "isatty", lambda: True)
    monkeypatch.setattr(_progress.time, "monotonic", lambda: next(clock))
    _progress._ACTIVE.append(notice)
    try:
        notice.on_start(event)
        notice.on_end(event)  # 3 s: the notice and the status line
        _progress.status_line_ended()
        print("a row")
        notice.on_start(event)  # 4 s: the count drawn again (3 s of compiling so far)
        notice.close()
    finally:
        _progress._ACTIVE.remove(notice)
    status = "  1 loops compiled, 3 s"
    captured = capsys.readouterr()
    assert captured.out == "a row\n"
    assert captured.err == (f"{COMPILING}\n\r{status}\r{' ' * len(status)}\r"
                            f"\r{status}\n"
                            "perceptron-bounds: compiled 1 loops in 4 s (cached for later runs)\n")


def main_loop():
    """A stand-in dispatcher of a package loop, for the compile events."""
    def loop(x):
        return x

    loop.__module__ = "perceptron_bounds.algorithms.stand_in"
    return numba.njit(loop)
