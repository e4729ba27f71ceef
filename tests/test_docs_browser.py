"""The documentation site in a real browser (issue 15): headless Chromium, through Playwright.

The quick site (``docs_site.build_site``) is served on 127.0.0.1 (the ``served_site`` and
``browser`` fixtures of ``conftest.py``, shared with ``test_docs_play.py``) and four pages are
opened: the index, the theory page (every formula typeset by the site's own MathJax,
none in error), a gallery page (its figure loaded) and the API page of ``run_online``.
Each must load without a console error, a page error or a failed request, and its
screenshot must not be blank. Chromium comes from Debian (``apt-get install chromium``)
or ``PERCEPTRON_BOUNDS_CHROMIUM``; without it, or without Playwright, the test skips.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from docs_site import open_page

pytestmark = [pytest.mark.docs, pytest.mark.browser]

PAGES = {
    "index": "index.html",
    "theory": "theory.html",
    "gallery": "auto_examples/papers/hop_fig2.html",
    "run_online": "api/generated/perceptron_bounds.run_online.html",
}


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
    page, problems = open_page(browser, base, PAGES[name])
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
