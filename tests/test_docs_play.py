"""The Play page (issue 27) in headless Chromium: the toolkit's algorithms and bounds in the page.

The page (``docs/play.md``, ``docs/_static/play/``) runs the algorithms in JavaScript. Here it
is opened from the quick site, which ``docs_site.build_site`` builds once per session, served
on 127.0.0.1 with every other request blocked, and from the built folder as files. Its
``window.pbLesson.run`` is held against the toolkit on generated point sets (the page's own
presets and random ones) for every algorithm and variant the page offers: the same mistaken
and update trials as ``run_online``, and the same stated bounds as ``evaluate`` and
``bounds_over_time`` at the same u and gamma, to 1e-9 relative. The controls are driven with
the mouse, the redraw time per trial is measured, and each preset is photographed
(``$PERCEPTRON_BOUNDS_PLAY_SCREENSHOTS`` names the folder; default a temporary one).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from docs_site import build_site, open_page

from perceptron_bounds import run_online
from perceptron_bounds.bounds import bounds_over_time, evaluate

pytestmark = [pytest.mark.docs, pytest.mark.browser]

PAGE = "play.html"
PRESETS = ("separable", "label_noise", "instance_noise", "ball", "sop_toy", "xor")
#: The redraw budget of one trial: one frame at 60 Hz.
FRAME_MS = 16.0


def _configs(k: int) -> list[tuple[str, dict]]:
    """Every algorithm and variant the page offers, parameters varied with the set ``k``."""
    return [
        ("perceptron", {}),
        ("perceptron", {"kernel": "poly", "degree": 2 + k % 2, "gamma": 1.0, "coef0": 1.0}),
        ("perceptron", {"kernel": "rbf", "gamma": (0.5, 2.0, 8.0)[k % 3]}),
        ("voted_perceptron", {}),
        ("ballseptron", {"r": (0.0, 0.02, 0.1)[k % 3]}),
        ("second_order", {"a": (0.1, 1.0, 10.0)[k % 3]}),
        *[("passive_aggressive", {"variant": v, "C": (0.1, 1.0, 10.0)[k % 3]})
          for v in ("pa", "pa1", "pa2")],
    ]


def _point_sets(page) -> list[tuple[np.ndarray, np.ndarray]]:
    """24 sets: each preset of the page at two seeds, and 12 random ones (some of unit rows,
    where PA's Thm 3 applies)."""
    sets = []
    for seed, name in enumerate(PRESETS * 2):
        made = page.evaluate(
            "([name, seed]) => { pbLesson.ui.setPreset(name, 30 + 7 * seed, seed);"
            " return pbLesson.ui.points(); }", [name, seed])
        sets.append((np.array(made["X"], dtype=np.float64), np.array(made["y"], dtype=np.float64)))
    rng = np.random.default_rng(27)
    for k in range(12):
        n = int(rng.integers(3, 70))
        X = rng.uniform(-1.0, 1.0, (n, 2)) * rng.uniform(0.2, 3.0)
        if k % 3 == 0:
            X /= np.linalg.norm(X, axis=1, keepdims=True)
        y = np.where(X @ rng.standard_normal(2) > 0, 1.0, -1.0)
        y[rng.random(n) < 0.15] *= -1
        sets.append((X, y))
    return sets


def _same(a, b) -> bool:
    """Equal within 1e-9 relative, or both not applicable (None / inf)."""
    a = None if a is None or not np.isfinite(a) else a
    b = None if b is None or not np.isfinite(b) else b
    return (a is None and b is None) or (
        a is not None and b is not None and abs(a - b) <= 1e-9 * abs(a))


@pytest.fixture(scope="module")
def play(browser, served_site):
    """The Play page served with the network blocked; fails on any problem while it loads."""
    _, base = served_site
    page, problems = open_page(browser, base, PAGE, block_network=True)
    assert page.evaluate("() => typeof pbLesson.run === 'function' && !!pbLesson.ui")
    yield page, problems
    page.close()
    assert problems == [], "\n".join(problems)


def test_play_page_is_in_the_site(play):
    page, problems = play
    assert "Play" in page.title()
    assert page.locator("#pb-plane").count() == 1 and page.locator("#pb-chart").count() == 1
    html, _ = build_site()
    lesson = (html / "lessons" / "06_play_in_class.html").read_text(encoding="utf-8")
    assert "../play.html" in lesson, "the lesson does not link the page"
    assert "play.html" in (html / "index.html").read_text(encoding="utf-8")
    assert problems == [], "\n".join(problems)


def test_play_page_works_from_files(browser):
    """The built site opened as local files (file://): the page runs and draws."""
    html, _ = build_site()
    page, problems = open_page(browser, (html / PAGE).as_uri(), "")
    try:
        out = page.evaluate("() => pbLesson.runPlain({algorithm: 'perceptron', X: [[1, 0], "
                            "[-1, 0.5]], y: [1, -1], epochs: 2, u: [1, 0], gamma: 0.5})")
        assert out["mistakeTrials"] == [0]  # w = (1, 0) then classifies (-1, 0.5) right
        assert out["bounds"]["novikoff"] == pytest.approx(((5 / 4) ** 0.5 / 0.5) ** 2)
        page.click("#pb-next")
        assert page.evaluate("() => pbLesson.ui.state.t") >= 0
        assert problems == [], "\n".join(problems)
    finally:
        page.close()


def test_play_controls(play):
    """Clicks add points, Step / Next mistake / Play / Rewind move the trial, the comparator's
    arrow drags, Best comparator finds one."""
    page, _ = play
    page.select_option("#pb-preset", "separable")
    n = page.evaluate("() => pbLesson.ui.state.X.length")
    box = page.locator("#pb-plane").bounding_box()
    page.locator("#pb-plane").click(position={"x": 40, "y": 40})
    page.locator("#pb-plane").click(position={"x": 60, "y": 40}, modifiers=["Shift"])
    state = page.evaluate("() => [pbLesson.ui.state.X.length, pbLesson.ui.state.y.slice(-2)]")
    assert state == [n + 2, [1, -1]]
    page.click("#pb-rewind")
    page.click("#pb-step")
    assert page.evaluate("() => pbLesson.ui.state.t") == 0
    assert "Trial 1 of" in page.inner_text("#pb-status")
    page.click("#pb-next")
    t = page.evaluate("() => pbLesson.ui.state.t")
    assert page.evaluate(f"() => pbLesson.ui.state.result.trace.cases[{t}]") == 1
    page.click("#pb-play-btn")
    page.wait_for_function(f"() => pbLesson.ui.state.t > {t}", timeout=5000)
    page.click("#pb-play-btn")
    assert not page.evaluate("() => pbLesson.ui.state.playing")
    tip = page.evaluate("() => pbLesson.ui.state.tip")
    scale = box["width"] / page.evaluate("() => document.getElementById('pb-plane').width")
    page.mouse.move(box["x"] + tip[0] * scale, box["y"] + tip[1] * scale)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 20, steps=5)  # straight up
    page.mouse.up()
    u = page.evaluate("() => pbLesson.ui.state.result.u")
    assert abs(u[0]) < 0.05 and u[1] > 0.99, u
    page.click("#pb-best")
    assert "Best:" in page.inner_text("#pb-note")
    page.select_option("#pb-algorithm", "voted_perceptron")
    page.select_option("#pb-method", "average")
    page.click("#pb-next")
    page.select_option("#pb-preset", "xor")  # a kernel run: regions, no bound
    page.click("#pb-next")
    assert page.locator("#pb-legend li").count() == 0
    assert "kernel" in page.inner_text("#pb-note")


def test_run_matches_the_toolkit(play):
    """pbLesson.run against run_online, evaluate and bounds_over_time on 24 sets x 9 runs."""
    page, _ = play
    rng = np.random.default_rng(2027)
    jobs, checked = [], 0
    for k, (X, y) in enumerate(_point_sets(page)):
        u = rng.standard_normal(2)
        gamma = float(rng.uniform(0.02, 0.6)) * float(np.linalg.norm(X, axis=1).max())
        epochs = 1 + k % 3
        for algorithm, params in _configs(k):
            jobs.append({"algorithm": algorithm, "X": X.tolist(), "y": y.tolist(),
                         "params": params, "epochs": epochs, "u": u.tolist(), "gamma": gamma})
    results = page.evaluate("jobs => jobs.map(job => pbLesson.runPlain(job))", jobs)
    for job, js in zip(jobs, results, strict=True):
        X, y, u, gamma = np.array(job["X"]), np.array(job["y"]), np.array(job["u"]), job["gamma"]
        what = f"{job['algorithm']} {job['params']} on {len(X)} points, {job['epochs']} epochs"
        run = run_online(job["algorithm"], X, y, epochs=job["epochs"], **job["params"])
        assert js["mistakeTrials"] == run.mistake_trials.tolist(), what
        assert js["updateTrials"] == run.update_trials.tolist(), what
        if job["algorithm"] == "voted_perceptron":
            assert js["counts"] == run.state["counts"].tolist(), what
        if job["params"].get("kernel", "linear") != "linear":
            assert js["bounds"] == {}, what  # a kernel run's comparator is no vector of the plane
            continue
        stated = {row.name: row.value for row in evaluate(run, X, y, u=u, gamma=gamma).rows
                  if row.variant == "stated"}
        assert set(js["bounds"]) == set(stated), what
        for name, value in stated.items():
            assert _same(value, js["bounds"][name]), f"{what}: {name} {value} {js['bounds'][name]}"
            checked += value is not None
        curves = bounds_over_time(run, X, y, list(stated), u=u, gamma=gamma)
        for name, curve in curves.items():
            page_curve = js["curves"][name]
            bad = [t for t in range(run.n_trials) if not _same(curve[t], page_curve[t])]
            assert not bad, f"{what}: {name} on trial {bad[0] + 1}: {curve[bad[0]]} " \
                            f"{page_curve[bad[0]]}"
    assert len(jobs) >= 20 * 9 and checked > 200, (len(jobs), checked)


def test_best_comparator_is_the_toolkits_search(play):
    """The page's SVM search and gamma search give evaluate(comparator="svm")'s bounds (its
    own SVM solver: to 1e-3 relative, not bit for bit)."""
    page, _ = play
    for name in ("label_noise", "instance_noise"):
        made = page.evaluate(f"() => {{ pbLesson.ui.setPreset('{name}', 60, 3); "
                             "return pbLesson.ui.points(); }")
        X, y = np.array(made["X"]), np.array(made["y"], dtype=np.float64)
        for algorithm, params in (("perceptron", {}), ("ballseptron", {"r": 0.01}),
                                  ("second_order", {"a": 1.0}),
                                  ("passive_aggressive", {"variant": "pa1", "C": 1.0})):
            js = page.evaluate("job => pbLesson.runPlain(job)", {
                "algorithm": algorithm, "X": X.tolist(), "y": y.tolist(), "params": params,
                "epochs": 2})
            run = run_online(algorithm, X, y, epochs=2, **params)
            for row in evaluate(run, X, y, comparator="svm").rows:
                if row.variant != "stated" or row.value is None:
                    continue
                mine = js["best"][row.name]["value"]
                assert abs(mine - row.value) <= 1e-3 * row.value, (algorithm, row.name, mine,
                                                                   row.value)


def test_stepping_redraws_within_a_frame(play):
    """500 points, stepped trial by trial: each redraw (plane, chart, text) under 16 ms."""
    page, _ = play
    timings = {}
    for algorithm, kernel in (("perceptron", "linear"), ("ballseptron", "linear"),
                              ("second_order", "linear"), ("perceptron", "rbf")):
        page.select_option("#pb-preset", "label_noise")
        page.evaluate("() => pbLesson.ui.setPreset('label_noise', 500, 1)")
        page.select_option("#pb-algorithm", algorithm)
        if algorithm == "perceptron":
            page.select_option("#pb-kernel", kernel)
        timings[f"{algorithm}/{kernel}"] = t = page.evaluate(
            "() => pbLesson.ui.measureStepping(500)")
        assert t["frames"] == 500
    print("redraw per trial, ms (mean / p95 / max):", {
        k: f"{t['mean']:.2f} / {t['p95']:.2f} / {t['max']:.2f}" for k, t in timings.items()})
    for name, t in timings.items():
        assert t["mean"] < FRAME_MS and t["p95"] < FRAME_MS, (name, t)


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_screenshots(play, preset, tmp_path):
    """Each preset after a few mistakes, photographed for a human to look at."""
    page, _ = play
    folder = Path(os.environ.get("PERCEPTRON_BOUNDS_PLAY_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    page.select_option("#pb-preset", preset)
    for _ in range(4):
        page.click("#pb-next")
    path = folder / f"play_{preset}.png"
    box = page.locator("#pb-play").bounding_box()
    scroll = page.evaluate("() => [window.scrollX, window.scrollY]")
    page.screenshot(path=str(path), full_page=True, clip={  # the whole widget, no sticky header
        "x": box["x"] + scroll[0], "y": box["y"] + scroll[1] - 8, "width": box["width"],
        "height": box["height"] + 16})
    import matplotlib.image as mpimg

    pixels = mpimg.imread(path)[..., :3]
    assert pixels.std() > 0.05, f"{path.name} looks blank"


def test_a_bound_that_does_not_apply_says_why_in_the_legend(play):
    """Issue 31, item 4: "PA general" said "does not apply" with no reason on presets whose
    points are not of unit norm; the legend now gives evaluate's reason."""
    page, _ = play
    page.select_option("#pb-preset", "separable")
    page.select_option("#pb-algorithm", "passive_aggressive")
    page.select_option("#pb-variant", "pa")
    text = page.inner_text("[data-bound='pa_general']")
    assert "does not apply: Thm 3 needs ||x_t|| = 1 on every trial" in text, text
