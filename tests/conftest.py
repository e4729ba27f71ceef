"""Shared fixtures: small seeded data sets; the session-wide one-signature check; the served
documentation site and a headless browser for the browser tests. How pytest-xdist shares the
tests out between processes (the README's test command)."""

import collections
import importlib
import pkgutil
import signal
import threading

import numba
import numpy as np
import pytest

import perceptron_bounds


def noisy_separable(n_samples=200, n_features=5, noise=0.1, seed=0):
    """Gaussian instances labelled by a random unit u, labels flipped with prob. ``noise``."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n_samples, n_features))
    u = rng.standard_normal(n_features)
    y = np.where(X @ u > 0, 1.0, -1.0)
    flip = rng.random(n_samples) < noise
    y[flip] = -y[flip]
    return X, y


def assert_warm_chain_is_one_run(algorithm, X, y, cuts, epochs=2, **params):
    """Warm starts chained over the pieces of X cut at ``cuts`` (``epochs`` passes over
    them, file order) give the run on X whole, bit for bit: mistakes, margin errors,
    margins, every entry of the state and the weights (issue 34: what streaming a file
    needs). Returns the run on X whole."""
    whole = perceptron_bounds.run_online(algorithm, X, y, epochs=epochs, record_margins=True,
                                         **params)
    edges = [0, *cuts, X.shape[0]]
    previous, mistakes, margin_errors, margins = None, [], [], []
    for epoch in range(epochs):
        for start, stop in zip(edges[:-1], edges[1:], strict=True):
            previous = perceptron_bounds.run_online(
                algorithm, X[start:stop], y[start:stop], classes=whole.classes,
                warm_start=previous, record_margins=True, **(params if previous is None else {}))
            offset = epoch * X.shape[0] + start
            mistakes.append(previous.mistake_trials + offset)
            margin_errors.append(previous.margin_error_trials + offset)
            margins.append(previous.margins)
    assert np.array_equal(np.concatenate(mistakes), whole.mistake_trials)
    assert np.array_equal(np.concatenate(margin_errors), whole.margin_error_trials)
    assert np.concatenate(margins).tobytes() == whole.margins.tobytes()
    assert previous.state.keys() == whole.state.keys()
    for name, value in whole.state.items():
        assert np.asarray(previous.state[name]).tobytes() == np.asarray(value).tobytes(), name
    assert previous.weights.tobytes() == whole.weights.tobytes()
    return whole


@pytest.fixture
def data():
    return noisy_separable()


#: The xdist group of the tests that read the documentation site, which one process builds.
DOCS_SITE = "docs-site"


def _needs_docs_site(item) -> bool:
    module = getattr(item, "module", None)
    return "served_site" in getattr(item, "fixturenames", ()) or hasattr(module, "build_site")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (``-n 2 --dist loadgroup``), the order in which test files are shared
    out: the documentation site's tests first (one build, minutes, in one process: the
    build writes its generated sources into ``docs/``), then the files with the most tests,
    so that a long file does not start last. Before xdist's own hook, which names the group."""
    if not hasattr(config, "workerinput"):
        return
    for item in items:
        if _needs_docs_site(item):
            item.add_marker(pytest.mark.xdist_group(DOCS_SITE))
    sizes = collections.Counter(item.path for item in items)
    items.sort(key=lambda item: (not _needs_docs_site(item), -sizes[item.path], str(item.path)))


#: ``-n auto`` starts at most this many processes: each compiles the loops its files use
#: (unless another has cached them) and holds its own data.
MAX_WORKERS = 8


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one process per CPU this process may use, at most :data:`MAX_WORKERS`."""
    import os

    return max(1, min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                      else os.cpu_count() or 1, MAX_WORKERS))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` with a test file as the unit of work, not a test: a process runs
    a file's tests together and compiles its loops once (the Numba cache on disk then serves
    them to the other process), and the documentation site's group is one unit."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class ByFile(LoadGroupScheduling):
        def _split_scope(self, nodeid):
            if nodeid.rfind("@") > nodeid.rfind("]"):
                return nodeid.split("@")[-1]
            return nodeid.split("::", 1)[0]

    config.option.loadscopereorder = False  # the order of pytest_collection_modifyitems
    return ByFile(config, log)


_DENSE_ROWS = numba.types.Array(numba.types.float64, 2, "C")
_CSR_ROWS = tuple(numba.types.Tuple((numba.types.Array(numba.types.float64, 1, "C"),
                                     *[numba.types.Array(index, 1, "C")] * 2))
                  for index in (numba.types.int32, numba.types.int64))
_INT32_ARRAY = numba.types.Array(numba.types.int32, 1, "C")


def _input_kind_free(signature):
    """``signature`` with its rows (a float64 C-contiguous 2-D array or the CSR tuple of
    ``perceptron_bounds._linalg.rows``, int32 or int64 index arrays) named alike, and an
    int32 array or number (CSR index arrays passed alone, an entry of them) as int64:
    signatures that differ only there differ by the input kind."""
    return tuple(_kind_free(arg) for arg in signature)


def _kind_free(arg):
    """``arg`` with rows named alike, also inside a tuple (the kernel engine's source)."""
    if arg == _DENSE_ROWS or arg in _CSR_ROWS:
        return "rows"
    if arg == _INT32_ARRAY:
        return numba.types.Array(numba.types.int64, 1, "C")
    if arg == numba.types.int32:
        return numba.types.int64
    if isinstance(arg, numba.types.BaseTuple):
        return tuple(_kind_free(item) for item in arg)
    return arg


@pytest.fixture(scope="session", autouse=True)
def every_loop_compiles_for_one_signature():
    """After the whole session, each jitted function has at most one signature per input
    kind, dense rows or CSR rows with int32 or int64 indices (README, "Development";
    perceptron_bounds/_jit.py: loops receive only float64 C-contiguous arrays, int64 arrays,
    CSR index arrays and scalars)."""
    yield
    for info in pkgutil.walk_packages(perceptron_bounds.__path__, "perceptron_bounds."):
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            jitted = isinstance(obj, numba.core.registry.CPUDispatcher)
            if jitted and obj.__module__ == module.__name__:
                kinds = {_input_kind_free(signature) for signature in obj.signatures}
                assert len(kinds) <= 1 and len(obj.signatures) <= 3, (
                    f"{module.__name__}.{name}: {obj.signatures}")


@pytest.fixture(autouse=True)
def parsed_files_cached_in_a_temporary_folder(tmp_path_factory, monkeypatch):
    """The cache of parsed files (``datasets.parsed_cache``) of a test is a folder of its
    own, never the user's data home."""
    from perceptron_bounds.datasets.parsed_cache import CACHE_ENV

    monkeypatch.setenv(CACHE_ENV, str(tmp_path_factory.mktemp("parsed")))


@pytest.fixture(autouse=True)
def sigint_handler_as_at_start():
    """Every test starts with Python's SIGINT handler (which raises KeyboardInterrupt),
    SIGINT unblocked. In the parallel run (9 of ``test_interrupt``'s Ctrl-C tests failed
    there, their child processes ignoring SIGINT) a test file run earlier in the same
    pytest-xdist process had left SIGINT ignored or blocked, which child processes
    inherit; and pytest started as a background job of a non-interactive shell starts
    with SIGINT ignored, where Python installs no handler of its own."""
    if threading.current_thread() is threading.main_thread():
        if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        if hasattr(signal, "pthread_sigmask"):  # a blocked SIGINT is inherited too
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    yield


@pytest.fixture(autouse=True)
def compile_notice_already_shown():
    """The one-line compile notice is printed by whichever test first compiles a loop in a
    cold cache, so exact-stderr tests would depend on the order; ``test_progress`` tests it."""
    from perceptron_bounds import _progress

    _progress._CompileNotice.said = True


@pytest.fixture(scope="module")
def served_site():
    """The quick documentation site served on 127.0.0.1: (Chromium's path, base URL).

    For the browser tests (``test_docs_browser``, ``test_docs_play``); skips without
    Chromium, Playwright or the docs extra. The site is built once per session.
    """
    import functools
    import http.server
    import threading

    from docs_site import build_site, chromium, missing_requirements

    path = chromium()
    if path is None:
        pytest.skip("no Chromium (apt-get install chromium, or set PERCEPTRON_BOUNDS_CHROMIUM)")
    pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    if missing_requirements():
        pytest.skip("the docs extra is not installed")
    html, done = build_site()
    if done.returncode != 0:
        pytest.fail("the site does not build; see test_docs.py")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(html)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield path, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser(served_site):
    """A headless Chromium (Playwright) for the pages of ``served_site``."""
    from docs_site import CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    path, _ = served_site
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
