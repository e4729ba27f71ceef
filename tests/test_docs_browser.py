"""The documentation site in a real browser (issue 15): headless Chromium, through Playwright.

The quick site (``docs_site.build_site``) is served on 127.0.0.1 and four pages are
opened: the index, the theory page (every formula typeset by the site's own MathJax,
none in error), a gallery page (its figure loaded) and the API page of ``run_online``.
Each must load without a console error, a page error or a failed request, and its
screenshot must not be blank. Chromium comes from Debian (``apt-get install chromium``)
or ``PERCEPTRON_BOUNDS_CHROMIUM``; without it, or without Playwright, the test skips.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from pathlib import Path

import numpy as np
import pytest
from docs_site import build_site, missing_requirements

pytestmark = [pytest.mark.docs, pytest.mark.browser]

CHROMIUM_ARGS = [  # offline machine: no background connections, no sandbox as root
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PAGES = {
    "index": "index.html",
    "theory": "theory.html",
    "gallery": "auto_examples/papers/hop_fig2.html",
    "run_online": "api/generated/perceptron_bounds.run_online.html",
}


def _chromium() -> str | None:
    for candidate in (os.environ.get("PERCEPTRON_BOUNDS_CHROMIUM"), "chromium",
                      "chromium-browser", "google-chrome"):
        if candidate and (path := shutil.which(candidate)):
            return path
    return None


@pytest.fixture(scope="module")
def served_site():
    chromium = _chromium()
    if chromium is None:
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
    yield chromium, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser(served_site):
    from playwright.sync_api import sync_playwright

    chromium, _ = served_site
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _open(browser, base: str, path: str):
    """Open a page; return it and the problems seen while it loaded."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems = []
    page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url} {r.failure}"))
    page.on("response", lambda r: r.status >= 400 and problems.append(f"{r.status}: {r.url}"))
    page.goto(base + path, wait_until="networkidle")
    return page, problems


def _not_blank(page, path: Path) -> None:
    """The screenshot has content: many distinct colours, not one flat field."""
    import matplotlib.image as mpimg

    page.screenshot(path=str(path))
    pixels = mpimg.imread(path)[..., :3]
    colours = np.unique((pixels * 255).astype(np.uint8).reshape(-1, 3), axis=0)
    assert len(colours) > 50 and pixels.std() > 0.05, f"{path.name} looks blank"


@pytest.mark.parametrize("name", list(PAGES))
def test_page_loads_cleanly(browser, served_site, name, tmp_path):
    _, base = served_site
    page, problems = _open(browser, base, PAGES[name])
    try:
        assert page.title(), "no title"
        if name == "theory":
            typeset = page.evaluate(
                "() => MathJax.startup.promise.then(() => ["
                "document.querySelectorAll('mjx-container').length,"
                "document.querySelectorAll('mjx-merror').length])")
            assert typeset[0] > 100, f"MathJax typeset only {typeset[0]} formulas"
            assert typeset[1] == 0, f"{typeset[1]} formulas failed to typeset"
        if name == "gallery":
            widths = page.eval_on_selector_all(
                "img.sphx-glr-single-img, img.sphx-glr-multi-img",
                "images => images.map(i => i.complete ? i.naturalWidth : 0)")
            assert widths and min(widths) > 100, f"gallery images not loaded: {widths}"
        if name == "run_online":
            assert page.locator("dt#perceptron_bounds\\.run_online").count() == 1
        _not_blank(page, tmp_path / f"{name}.png")
        assert problems == [], "\n".join(problems)
    finally:
        page.close()
