/* The Play page: points on a plane, an online algorithm stepping through them, and its
 * mistakes against the bounds for a comparator the student drags (pblesson.js computes).
 *
 * Everything is drawn on two canvases with the 2-D API; no library, no network. The state of
 * the lesson is one object (state); every control changes it and calls rerun() (new data,
 * algorithm or parameters), recurve() (new comparator or margin) or draw() (new trial).
 * window.pbLesson.ui exposes the page's own functions for tests and scripted demos.
 */
(function () {
  "use strict";
  var L = window.pbLesson;
  var root = document.getElementById("pb-play");
  if (!L || !root) return;

  var COLORS = { pos: "#1f6fb4", neg: "#d95f02", posArea: [31, 111, 180], negArea: [217, 95, 2],
                 line: "#222", comparator: "#2e7d32", gold: "#e6a700", ellipse: "#2e8b57" };
  var BOUND_STYLE = {
    novikoff: ["#7b3294", "Novikoff (R/γ)²", []],
    freund_schapire: ["#c2185b", "Freund–Schapire ((R + D₂)/γ)²", [8, 4]],
    ballseptron_d1: ["#00838f", "Ballseptron D₁ ((R + √(γD₁))/γ)²", [2, 3]],
    ballseptron_corrected_d2: ["#ef6c00", "Ballseptron Cor. 1: D₂ bound − ε̃β", [10, 3, 2, 3]],
    ballseptron_corrected_d1: ["#5d4037", "Ballseptron eq. 17: D₁ bound − ε̃β", [4, 4]],
    second_order: ["#2e8b57", "Second-Order (CCG05 Thm 1)", []],
    pa_separable: ["#7b3294", "PA separable (R/γ)²", []],
    pa_general: ["#c2185b", "PA general ((1 + 2D₂)/γ)²", [8, 4]],
    pa1_mistakes: ["#00838f", "PA-I max(R², 1/C)(1/γ² + 2CD₁/γ)", []],
    pa2_mistakes: ["#ef6c00", "PA-II (R² + 1/2C)(1 + 2CD₂²)/γ²", []]
  };
  var GRID = 72;  // cells per side of the shaded decision regions

  /* ------------------------------------------------------------------ presets */

  function rng(seed) {  // mulberry32: the same points for the same seed in every browser
    var a = seed >>> 0;
    return function () {
      a = (a + 0x6D2B79F5) >>> 0;
      var t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  function gauss(r) {
    var u = 1 - r(), v = r();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
  function round4(v) { return Math.round(v * 1e4) / 1e4; }

  /* Each preset: its sliders' meaning and defaults, the algorithm it suggests, and how it
   * draws n points (with a known target u where there is one). */
  var PRESETS = {
    separable: {
      title: "Separable with a margin", noise: null, size: 40, margin: 0.15, noiseValue: 0,
      algorithm: "perceptron", params: {},
      text: "A line through the origin separates the classes with a gap of width 2 × margin.",
      make: function (n, margin, noise, r) { return linear(n, margin, 0, 0, r, 0.5); }
    },
    label_noise: {
      title: "Label noise", noise: "label flip rate", size: 60, margin: 0.1, noiseValue: 0.1,
      algorithm: "perceptron", params: {},
      text: "Separable points, then each label flipped with the given probability: Novikoff's " +
            "bound stops applying, the D₁ and D₂ bounds pay for the flipped points.",
      make: function (n, margin, noise, r) { return linear(n, margin, noise, 0, r, 0.5); }
    },
    instance_noise: {
      title: "Instance noise", noise: "noise std", size: 60, margin: 0.1, noiseValue: 0.15,
      algorithm: "perceptron", params: {},
      text: "Separable points moved by Gaussian noise after labelling: points cross the line.",
      make: function (n, margin, noise, r) { return linear(n, margin, 0, noise, r, 0.5); }
    },
    ball: {
      title: "Ballseptron's circle", noise: "label flip rate", size: 40, margin: 0.3,
      noiseValue: 0, algorithm: "ballseptron", params: { r: 0.1 },
      text: "Points on the unit circle (‖x‖ = 1 = R). The Ballseptron also updates on a right " +
            "prediction within r of its line (a margin error, ringed dashed); its bounds ask " +
            "r < (√2 − 1) γ.",
      make: function (n, margin, noise, r) {
        var u = [Math.cos(1.1), Math.sin(1.1)], X = [], y = [];
        while (X.length < n) {
          var th = 2 * Math.PI * r(), x = [Math.cos(th), Math.sin(th)];
          var m = u[0] * x[0] + u[1] * x[1];
          if (Math.abs(m) < margin) continue;
          X.push(x); y.push(flip(m > 0 ? 1 : -1, noise, r));
        }
        return { X: X, y: y, target: u };
      }
    },
    sop_toy: {
      title: "Second-Order paper's toy", noise: null, size: 60, margin: 0.05, noiseValue: 0,
      algorithm: "second_order", params: { a: 1.0 },
      text: "Gaussian points stretched along one direction (variance 8 : 1) and labelled by " +
            "the short one, as set 2 of CCG05 sec. 5: the Second-Order Perceptron learns the " +
            "stretch (its ellipse) and makes fewer mistakes than the Perceptron.",
      make: function (n, margin, noise, r) {
        var th = 0.5, c = Math.cos(th), s = Math.sin(th), u = [-s, c], X = [], y = [];
        while (X.length < n) {
          var a = Math.sqrt(8) * gauss(r) * 0.3, b = gauss(r) * 0.3;
          var x = [round4(c * a - s * b), round4(s * a + c * b)];
          var m = u[0] * x[0] + u[1] * x[1];
          if (Math.abs(m) < margin) continue;
          X.push(x); y.push(m > 0 ? 1 : -1);
        }
        return { X: X, y: y, target: u };
      }
    },
    xor: {
      title: "XOR (for kernels)", noise: "cluster std", size: 60, margin: 0.1, noiseValue: 0.15,
      algorithm: "perceptron", params: { kernel: "rbf", gamma: 2.0 },
      text: "Four clusters, + in two opposite corners and − in the others: no line separates " +
            "them. A kernel (rbf or poly, degree 2) does.",
      make: function (n, margin, noise, r) {
        var X = [], y = [];
        while (X.length < n) {
          var sx = r() < 0.5 ? -1 : 1, sy = r() < 0.5 ? -1 : 1;
          var x = [round4(0.6 * sx + noise * gauss(r)), round4(0.6 * sy + noise * gauss(r))];
          if (Math.abs(x[0]) < margin || Math.abs(x[1]) < margin) continue;
          X.push(x); y.push(x[0] * x[1] > 0 ? 1 : -1);
        }
        return { X: X, y: y, target: null };
      }
    }
  };

  function flip(label, p, r) { return r() < p ? -label : label; }

  function linear(n, margin, flipRate, std, r, angle) {
    var u = [Math.cos(angle), Math.sin(angle)], X = [], y = [];
    while (X.length < n) {
      var x = [2 * r() - 1, 2 * r() - 1], m = u[0] * x[0] + u[1] * x[1];
      if (Math.abs(m) < margin) continue;
      var label = flip(m > 0 ? 1 : -1, flipRate, r);
      X.push([round4(x[0] + std * gauss(r)), round4(x[1] + std * gauss(r))]);
      y.push(label);
    }
    return { X: X, y: y, target: u };
  }

  /* ------------------------------------------------------------------ the page */

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "class") node.className = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { node.appendChild(c); });
    return node;
  }
  function labelled(text, input, hint) {
    var lab = el("label", { class: "pb-field" }, [el("span", { text: text }), input]);
    if (hint) lab.title = hint;
    return lab;
  }
  function slider(id, min, max, step, value) {
    return el("input", { type: "range", id: id, min: min, max: max, step: step, value: value });
  }
  function select(id, options) {
    var s = el("select", { id: id });
    options.forEach(function (o) { s.appendChild(el("option", { value: o[0], text: o[1] })); });
    return s;
  }
  function button(id, text, title) {
    return el("button", { id: id, type: "button", class: "pb-btn", text: text, title: title });
  }
  function number(id, value, step, min) {
    return el("input", { type: "number", id: id, value: value, step: step, min: min });
  }

  var ui = {};
  function build() {
    var presetOptions = Object.keys(PRESETS).map(function (k) { return [k, PRESETS[k].title]; });
    ui.preset = select("pb-preset", presetOptions.concat([["empty", "Empty: click to add"]]));
    ui.size = slider("pb-size", 4, 500, 1, 40);
    ui.margin = slider("pb-margin", 0, 0.4, 0.01, 0.15);
    ui.noise = slider("pb-noise", 0, 0.5, 0.01, 0);
    ui.seed = number("pb-seed", 1, 1, 0);
    ui.sizeOut = el("output", { text: "40" });
    ui.marginOut = el("output", { text: "0.15" });
    ui.noiseOut = el("output", { text: "0" });
    ui.noiseName = el("span", { text: "noise" });
    ui.label = select("pb-label", [["1", "click adds +1"], ["-1", "click adds −1"]]);
    ui.clear = button("pb-clear", "Clear points", "Remove every point (then click to add)");
    ui.algorithm = select("pb-algorithm", Object.keys(L.ALGORITHMS).map(function (k) {
      return [k, L.ALGORITHMS[k].title];
    }));
    ui.kernel = select("pb-kernel", [["linear", "linear"], ["poly", "poly"], ["rbf", "rbf"]]);
    ui.degree = number("pb-degree", 2, 1, 1);
    ui.kgamma = number("pb-kgamma", 2, 0.1, 0.01);
    ui.coef0 = number("pb-coef0", 1, 0.5);
    ui.method = select("pb-method", [["vote", "vote"], ["average", "average"], ["last", "last"]]);
    ui.r = slider("pb-r", 0, 0.5, 0.01, 0.05);
    ui.rOut = el("output", { text: "0.05" });
    ui.a = select("pb-a", [["0.1", "0.1"], ["0.5", "0.5"], ["1", "1"], ["10", "10"],
                           ["50", "50"]]);
    ui.variant = select("pb-variant", [["pa", "PA"], ["pa1", "PA-I"], ["pa2", "PA-II"]]);
    ui.C = number("pb-C", 1, 0.1, 0.01);
    ui.epochs = number("pb-epochs", 1, 1, 1);
    ui.rewind = button("pb-rewind", "◀◀ Rewind", "Back to before the first trial (Home)");
    ui.back = button("pb-back", "◀ Back", "One trial back (←)");
    ui.step = button("pb-step", "Step ▶", "One trial (→)");
    ui.next = button("pb-next", "Next mistake ▶▶", "Run to the next mistake (m)");
    ui.play = button("pb-play-btn", "Play", "Play / pause (space)");
    ui.speed = slider("pb-speed", 1, 60, 1, 8);
    ui.scrub = slider("pb-scrub", -1, 0, 1, -1);
    ui.plane = el("canvas", { id: "pb-plane", width: 460, height: 460,
                              "aria-label": "the points and the algorithm's hypothesis" });
    ui.chart = el("canvas", { id: "pb-chart", width: 460, height: 460,
                              "aria-label": "mistakes over time against the bounds" });
    ui.gamma = slider("pb-gamma", 0.005, 1, 0.005, 0.1);
    ui.gammaOut = el("output", { text: "0.1" });
    ui.log = el("input", { type: "checkbox", id: "pb-log" });
    ui.log.checked = true;
    ui.best = button("pb-best", "Best comparator", "The SVM direction and γ of the smallest " +
                     "bound, searched as the toolkit's evaluate does (theory §4.3)");
    ui.target = button("pb-target", "Target", "The preset's own separating direction");
    ui.status = el("div", { class: "pb-status", id: "pb-status", "aria-live": "polite" });
    ui.legend = el("ul", { class: "pb-legend", id: "pb-legend" });
    ui.note = el("p", { class: "pb-note", id: "pb-note" });
    ui.presetText = el("p", { class: "pb-preset-text", id: "pb-preset-text" });

    ui.kernelBox = el("span", { class: "pb-group" }, [
      labelled("kernel", ui.kernel, "theory §1.7"), labelled("degree", ui.degree),
      labelled("kernel γ", ui.kgamma, "the kernel's gamma (not the margin γ)"),
      labelled("coef0", ui.coef0)]);
    ui.methodBox = el("span", { class: "pb-group" },
                      [labelled("prediction", ui.method, "theory §2.2")]);
    ui.rBox = el("span", { class: "pb-group" }, [labelled("r", ui.r, "the ball's radius"),
                                                  ui.rOut]);
    ui.aBox = el("span", { class: "pb-group" }, [labelled("a", ui.a, "theory §2.4")]);
    ui.paBox = el("span", { class: "pb-group" }, [labelled("variant", ui.variant),
                                                   labelled("C", ui.C, "aggressiveness")]);
    root.appendChild(el("div", { class: "pb-row" }, [
      labelled("Points", ui.preset),
      el("span", { class: "pb-group" }, [labelled("size", ui.size), ui.sizeOut]),
      el("span", { class: "pb-group" }, [labelled("margin", ui.margin), ui.marginOut]),
      el("span", { class: "pb-group", id: "pb-noise-box" },
         [el("label", { class: "pb-field" }, [ui.noiseName, ui.noise]), ui.noiseOut]),
      labelled("seed", ui.seed), ui.label, ui.clear]));
    root.appendChild(ui.presetText);
    root.appendChild(el("div", { class: "pb-row" }, [
      labelled("Algorithm", ui.algorithm), ui.kernelBox, ui.methodBox, ui.rBox, ui.aBox,
      ui.paBox, labelled("epochs", ui.epochs)]));
    root.appendChild(el("div", { class: "pb-row pb-transport" }, [
      ui.rewind, ui.back, ui.step, ui.next, ui.play, labelled("speed", ui.speed, "trials per second ×"),
      el("label", { class: "pb-field pb-scrub" }, [el("span", { text: "trial" }), ui.scrub])]));
    root.appendChild(el("div", { class: "pb-canvases" }, [ui.plane, ui.chart]));
    root.appendChild(el("div", { class: "pb-row" }, [
      el("span", { class: "pb-group" }, [labelled("margin γ", ui.gamma,
         "the margin asked of the comparator u (drag u's arrow to turn it)"), ui.gammaOut]),
      ui.best, ui.target, labelled("log scale", ui.log, "the chart's vertical axis")]));
    root.appendChild(ui.status);
    root.appendChild(ui.legend);
    root.appendChild(ui.note);
  }

  /* ------------------------------------------------------------------ state */

  var state = { X: [], y: [], target: null, preset: "separable", algorithm: "perceptron",
                t: -1, result: null, u: [Math.cos(0.5), Math.sin(0.5)], gamma: 0.1,
                playing: false, view: 1.2, gridKey: null, chartKey: null };
  var planeCtx, chartCtx, gridCanvas, gridImage, chartCache;

  function params() {
    var a = state.algorithm, p = {};
    if (a === "perceptron" || a === "voted_perceptron") {
      p.kernel = ui.kernel.value;
      if (p.kernel !== "linear") {
        p.gamma = parseFloat(ui.kgamma.value);
        if (p.kernel === "poly") { p.degree = parseInt(ui.degree.value, 10); p.coef0 = parseFloat(ui.coef0.value); }
      }
    } else if (a === "ballseptron") p.r = parseFloat(ui.r.value);
    else if (a === "second_order") p.a = parseFloat(ui.a.value);
    else if (a === "passive_aggressive") { p.variant = ui.variant.value; p.C = parseFloat(ui.C.value); }
    return p;
  }

  function showParamBoxes() {
    var a = state.algorithm, kernels = a === "perceptron" || a === "voted_perceptron";
    ui.kernelBox.hidden = !kernels;
    ui.degree.parentNode.hidden = ui.kernel.value !== "poly";
    ui.coef0.parentNode.hidden = ui.kernel.value !== "poly";
    ui.kgamma.parentNode.hidden = ui.kernel.value === "linear";
    ui.methodBox.hidden = a !== "voted_perceptron";
    ui.rBox.hidden = a !== "ballseptron";
    ui.aBox.hidden = a !== "second_order";
    ui.paBox.hidden = a !== "passive_aggressive";
  }

  function makePoints() {
    var name = ui.preset.value;
    state.preset = name;
    if (name === "empty") {
      state.X = []; state.y = []; state.target = null;
      ui.presetText.textContent = "Click on the plane to add points (the label picker says which).";
      return;
    }
    var pr = PRESETS[name];
    var made = pr.make(parseInt(ui.size.value, 10), parseFloat(ui.margin.value),
                       parseFloat(ui.noise.value), rng(parseInt(ui.seed.value, 10) || 0));
    state.X = made.X; state.y = made.y; state.target = made.target;
    ui.presetText.textContent = pr.text;
    ui.noiseName.textContent = pr.noise || "noise";
    ui.noise.disabled = !pr.noise;
  }

  function applyPreset() {  // a preset chosen: its slider values and its algorithm
    var pr = PRESETS[ui.preset.value];
    if (pr) {
      ui.size.value = pr.size; ui.margin.value = pr.margin; ui.noise.value = pr.noiseValue;
      ui.algorithm.value = pr.algorithm; state.algorithm = pr.algorithm;
      ui.kernel.value = pr.params.kernel || "linear";
      if (pr.params.gamma) ui.kgamma.value = pr.params.gamma;
      if (pr.params.r !== undefined) ui.r.value = pr.params.r;
      if (pr.params.a !== undefined) ui.a.value = String(pr.params.a);
    }
    makePoints();
    resetComparator();
    showParamBoxes();
    syncOutputs();
    rerun(true);
  }

  function resetComparator() {
    state.u = state.target ? state.target.slice() : [Math.cos(0.5), Math.sin(0.5)];
    state.gamma = Math.max(parseFloat(ui.margin.value), 0.02);
    ui.gamma.value = state.gamma;
  }

  function syncOutputs() {
    ui.sizeOut.textContent = ui.size.value;
    ui.marginOut.textContent = ui.margin.value;
    ui.noiseOut.textContent = ui.noise.value;
    ui.rOut.textContent = ui.r.value;
    ui.gammaOut.textContent = (+state.gamma).toFixed(3);
  }

  function fitView() {
    var m = 1.0;
    state.X.forEach(function (x) { m = Math.max(m, Math.abs(x[0]), Math.abs(x[1])); });
    state.view = Math.ceil(m * 1.1 * 4) / 4;
  }

  /* New data, algorithm or parameters: run again, keep the trial where it was if it still is. */
  function rerun(toStart) {
    fitView();
    state.gridKey = null; state.sgrid = null;
    state.error = null; state.bestText = "";
    if (!state.X.length) {
      state.result = null; state.t = -1;
    } else {
      try {
        state.result = L.run({ algorithm: state.algorithm, X: state.X, y: state.y,
                               params: params(), epochs: Math.max(1, parseInt(ui.epochs.value, 10) || 1),
                               u: state.u, gamma: state.gamma });
      } catch (e) {
        state.result = null; state.error = e.message;
      }
    }
    var T = state.result ? state.result.trace.T : 0;
    state.t = toStart ? -1 : Math.min(state.t, T - 1);
    ui.scrub.max = Math.max(T - 1, 0);
    ui.scrub.min = -1;
    state.chartKey = null;
    draw();
  }

  /* New comparator or margin: the bound curves again (the run is unchanged). */
  function recurve() {
    var r = state.result;
    syncOutputs();
    if (r && r.curves && (!r.params.kernel || r.params.kernel === "linear")) {
      var u = L.unit(state.u), c = L.curves(state.algorithm, r.data, r.params, r.trace, u, state.gamma);
      r.curves = c.curves; r.mistakesSoFar = c.mistakes; r.u = u; r.gamma = state.gamma;
    }
    state.chartKey = null;
    draw();
  }

  /* ------------------------------------------------------------------ drawing: the plane */

  function toPx(x0, x1) {
    var W = ui.plane.width, s = W / (2 * state.view);
    return [W / 2 + x0 * s, W / 2 - x1 * s];
  }
  function toWorld(px, py) {
    var W = ui.plane.width, s = W / (2 * state.view);
    return [(px - W / 2) / s, (W / 2 - py) / s];
  }

  /* The shaded regions: the sign of the score on a GRID x GRID image, drawn scaled. Linear
   * forms: w . x of the state after the last update. Kernel forms and the voted predictions:
   * sums over the supports (prediction vectors), kept per cell and extended support by
   * support as the run steps forward (rebuilt when it steps back), so that a step costs one
   * kernel value per cell at most (theory §2.2: v_{j+1} . x = v_j . x + y K(x_j, x)). */
  function cellCoords() {
    var v = state.view, xs = new Float64Array(2 * GRID * GRID);
    for (var i = 0; i < GRID; i++) {
      for (var j = 0; j < GRID; j++) {
        xs[2 * (i * GRID + j)] = -v + (2 * v) * (j + 0.5) / GRID;
        xs[2 * (i * GRID + j) + 1] = v - (2 * v) * (i + 0.5) / GRID;
      }
    }
    return xs;
  }

  function supportGrid(t) {
    var r = state.result, tr = r.trace, p = r.params.kernel ? r.params : { kernel: "linear" };
    var g = state.sgrid, cells = GRID * GRID;
    if (!g || g.result !== r || g.view !== state.view || g.t > t) {
      g = state.sgrid = { result: r, view: state.view, t: -1, k: 0, cells: cellCoords(),
                          f: new Float64Array(cells), vote: new Float64Array(cells),
                          avg: new Float64Array(cells), counts: L.votedCounts(tr, tr.T - 1) };
    }
    var X = r.data.x, c = g.cells;
    for (var s = g.t + 1; s <= t; s++) {
      if (tr.cases[s] !== 1) continue;
      var i = tr.rows[s], yi = r.data.y[i], x0 = X[2 * i], x1 = X[2 * i + 1], cnt = g.counts[g.k];
      for (var q = 0; q < cells; q++) {  // close v_{k+1} (its count is final), then add y K
        var f = g.f[q];
        g.vote[q] += cnt * Math.sign(f); g.avg[q] += cnt * f;
        g.f[q] = f + yi * L.kernelValue(p, x0, x1, c[2 * q], c[2 * q + 1]);
      }
      g.k += 1;
    }
    g.t = t;
    return g;
  }

  function drawRegions(ctx, t) {
    var r = state.result, tr = r.trace, lastUpdate = -1;
    for (var s = t; s >= 0; s--) if (tr.cases[s]) { lastUpdate = s; break; }
    var method = state.algorithm === "voted_perceptron" ? ui.method.value : "last";
    var key = [method === "last" ? lastUpdate : t, method, state.view].join("/");
    if (state.gridKey !== key) {
      state.gridKey = key;
      var data = gridImage.data, cells = GRID * GRID, score = new Float64Array(cells), q;
      if (tr.weights && method === "last") {
        var c = cellCoords();
        var w0 = lastUpdate >= 0 ? tr.weights[2 * lastUpdate] : 0;
        var w1 = lastUpdate >= 0 ? tr.weights[2 * lastUpdate + 1] : 0;
        for (q = 0; q < cells; q++) score[q] = w0 * c[2 * q] + w1 * c[2 * q + 1];
      } else {
        var g = supportGrid(t);
        var cur = currentCount(t);
        for (q = 0; q < cells; q++) {
          score[q] = method === "vote" ? g.vote[q] + cur * Math.sign(g.f[q])
            : method === "average" ? g.avg[q] + cur * g.f[q] : g.f[q];
        }
      }
      for (q = 0; q < cells; q++) {
        var col = score[q] > 0 ? COLORS.posArea : score[q] < 0 ? COLORS.negArea : null, o = 4 * q;
        data[o] = col ? col[0] : 255; data[o + 1] = col ? col[1] : 255;
        data[o + 2] = col ? col[2] : 255; data[o + 3] = col ? 38 : 0;
      }
      gridCanvas.getContext("2d").putImageData(gridImage, 0, 0);
    }
    ctx.imageSmoothingEnabled = true;
    ctx.drawImage(gridCanvas, 0, 0, ui.plane.width, ui.plane.height);
  }

  /* The survival count of the voted Perceptron's current vector after trial t (theory §2.2). */
  function currentCount(t) {
    var tr = state.result.trace, c = 0;
    for (var s = t; s >= 0; s--) { if (tr.cases[s] === 1) return c + 1; c++; }
    return c;
  }

  function lineThrough(ctx, w0, w1, offset, style, width, dash) {
    // the line w . x = offset across the view
    var v = state.view, pts = [];
    if (Math.abs(w1) > Math.abs(w0)) {
      pts = [[-v, (offset + w0 * v) / w1], [v, (offset - w0 * v) / w1]];
    } else {
      pts = [[(offset + w1 * v) / w0, -v], [(offset - w1 * v) / w0, v]];
    }
    var a = toPx(pts[0][0], pts[0][1]), b = toPx(pts[1][0], pts[1][1]);
    ctx.save();
    ctx.strokeStyle = style; ctx.lineWidth = width; ctx.setLineDash(dash || []);
    ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
    ctx.restore();
  }

  function drawAxes(ctx) {
    var W = ui.plane.width, o = toPx(0, 0);
    ctx.strokeStyle = "#d0d0d0"; ctx.lineWidth = 1;
    ctx.beginPath(); ctx.moveTo(0, o[1]); ctx.lineTo(W, o[1]); ctx.moveTo(o[0], 0);
    ctx.lineTo(o[0], W); ctx.stroke();
    ctx.fillStyle = "#888"; ctx.font = "11px sans-serif";
    ctx.fillText(String(state.view), W - 22, o[1] - 4);
    ctx.fillText("x₁", W - 14, o[1] + 14);
    ctx.fillText("x₂", o[0] + 5, 12);
  }

  function drawComparator(ctx) {
    var u = L.unit(state.u), g = state.gamma, v = state.view;
    // the margin band |u . x| < gamma, lightly hatched in grey
    ctx.save();
    ctx.fillStyle = "rgba(46, 125, 50, 0.08)";
    var n = [-u[1], u[0]], far = 3 * v;
    var p1 = toPx(u[0] * g + n[0] * far, u[1] * g + n[1] * far);
    var p2 = toPx(u[0] * g - n[0] * far, u[1] * g - n[1] * far);
    var p3 = toPx(-u[0] * g - n[0] * far, -u[1] * g - n[1] * far);
    var p4 = toPx(-u[0] * g + n[0] * far, -u[1] * g + n[1] * far);
    ctx.beginPath(); ctx.moveTo(p1[0], p1[1]); ctx.lineTo(p2[0], p2[1]); ctx.lineTo(p3[0], p3[1]);
    ctx.lineTo(p4[0], p4[1]); ctx.closePath(); ctx.fill();
    ctx.restore();
    lineThrough(ctx, u[0], u[1], g, "rgba(46, 125, 50, 0.5)", 1, [2, 3]);
    lineThrough(ctx, u[0], u[1], -g, "rgba(46, 125, 50, 0.5)", 1, [2, 3]);
    // the arrow u, its tip draggable
    var o = toPx(0, 0), tip = toPx(u[0] * 0.8 * v, u[1] * 0.8 * v);
    ctx.save();
    ctx.strokeStyle = COLORS.comparator; ctx.fillStyle = COLORS.comparator; ctx.lineWidth = 2;
    ctx.beginPath(); ctx.moveTo(o[0], o[1]); ctx.lineTo(tip[0], tip[1]); ctx.stroke();
    var ang = Math.atan2(tip[1] - o[1], tip[0] - o[0]);
    ctx.beginPath(); ctx.moveTo(tip[0], tip[1]);
    ctx.lineTo(tip[0] - 11 * Math.cos(ang - 0.35), tip[1] - 11 * Math.sin(ang - 0.35));
    ctx.lineTo(tip[0] - 11 * Math.cos(ang + 0.35), tip[1] - 11 * Math.sin(ang + 0.35));
    ctx.closePath(); ctx.fill();
    ctx.beginPath(); ctx.arc(tip[0], tip[1], 6, 0, 2 * Math.PI); ctx.globalAlpha = 0.25; ctx.fill();
    ctx.globalAlpha = 1; ctx.font = "bold 13px sans-serif";
    ctx.fillText("u", tip[0] + 8, tip[1] - 6);
    ctx.restore();
    state.tip = tip;
  }

  function drawPoints(ctx, t) {
    var r = state.result, tr = r ? r.trace : null, N = state.X.length;
    var ringed = new Uint8Array(N), cur = t >= 0 && tr ? tr.rows[t] : -1;
    if (tr) for (var s = 0; s <= t; s++) if (tr.cases[s]) ringed[tr.rows[s]] = Math.max(ringed[tr.rows[s]], tr.cases[s] === 1 ? 2 : 1);
    for (var i = 0; i < N; i++) {
      var p = toPx(state.X[i][0], state.X[i][1]), pos = state.y[i] > 0;
      ctx.fillStyle = pos ? COLORS.pos : COLORS.neg;
      ctx.beginPath();
      if (pos) ctx.arc(p[0], p[1], 4.2, 0, 2 * Math.PI);
      else ctx.rect(p[0] - 3.8, p[1] - 3.8, 7.6, 7.6);
      ctx.fill();
      if (ringed[i]) {
        ctx.strokeStyle = "#111"; ctx.lineWidth = 1.2;
        ctx.setLineDash(ringed[i] === 1 ? [2, 2] : []);
        ctx.beginPath(); ctx.arc(p[0], p[1], 7.5, 0, 2 * Math.PI); ctx.stroke();
        ctx.setLineDash([]);
      }
    }
    if (cur >= 0) {
      var c = toPx(state.X[cur][0], state.X[cur][1]);
      ctx.strokeStyle = COLORS.gold; ctx.lineWidth = 3;
      ctx.beginPath(); ctx.arc(c[0], c[1], 11, 0, 2 * Math.PI); ctx.stroke();
      if (state.algorithm === "ballseptron") {  // the ball of radius r around x_t
        var rad = r.params.r * ui.plane.width / (2 * state.view);
        ctx.fillStyle = "rgba(230, 167, 0, 0.25)"; ctx.strokeStyle = "rgba(170, 120, 0, 0.9)";
        ctx.lineWidth = 1.5; ctx.setLineDash([4, 3]);
        ctx.beginPath(); ctx.arc(c[0], c[1], rad, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
        ctx.setLineDash([]);
        ctx.fillStyle = "#333"; ctx.font = "12px sans-serif";
        ctx.fillText("dashed disc: the ball of radius r = " + r.params.r + " around xₜ", 8, 16);
      }
    }
  }

  function drawEllipse(ctx, t) {
    // A_k = a I + X_k X_k^T (theory §2.4) as an ellipse at the origin, its larger semi-axis
    // 0.35 of the half-width (as the toolkit's teaching panels draw it), axes sqrt(eigenvalues)
    var S = state.result.trace.spectra, a = state.result.params.a;
    var s11 = t >= 0 ? S[3 * t] : 0, s12 = t >= 0 ? S[3 * t + 1] : 0, s22 = t >= 0 ? S[3 * t + 2] : 0;
    var A11 = a + s11, A22 = a + s22, A12 = s12;
    var half = (A11 + A22) / 2, rad = Math.sqrt(Math.pow((A11 - A22) / 2, 2) + A12 * A12);
    var l1 = half + rad, l2 = half - rad, ang = 0.5 * Math.atan2(2 * A12, A11 - A22);
    var scale = 0.35 * ui.plane.width / 2 / Math.sqrt(l1), o = toPx(0, 0);
    ctx.save();
    ctx.strokeStyle = COLORS.ellipse; ctx.lineWidth = 1.8;
    ctx.beginPath();
    ctx.ellipse(o[0], o[1], Math.sqrt(l1) * scale, Math.sqrt(Math.max(l2, 0)) * scale, -ang, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.fillStyle = COLORS.ellipse; ctx.font = "12px sans-serif";
    ctx.fillText("A = aI + XₖXₖᵀ (scaled): λ = " + l1.toFixed(2) + ", " + l2.toFixed(2), 8, ui.plane.height - 10);
    ctx.restore();
  }

  function drawPlane() {
    var ctx = planeCtx, W = ui.plane.width, t = state.t, r = state.result;
    ctx.clearRect(0, 0, W, W);
    ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, W, W);
    if (r) drawRegions(ctx, t);
    drawAxes(ctx);
    if (!r || !r.params.kernel || r.params.kernel === "linear") drawComparator(ctx);
    else state.tip = null;
    if (r && r.trace.weights && t >= 0) {
      var w0 = r.trace.weights[2 * t], w1 = r.trace.weights[2 * t + 1];
      if (w0 !== 0 || w1 !== 0) {
        lineThrough(ctx, w0, w1, 0, COLORS.line, 2);
        if (state.algorithm === "voted_perceptron" && ui.method.value !== "last") {
          ctx.fillStyle = "#333"; ctx.font = "12px sans-serif";
          ctx.fillText("line: the current vector; shading: the " + ui.method.value, 8, 16);
        }
      }
    }
    if (r && state.algorithm === "second_order") drawEllipse(ctx, t);
    drawPoints(ctx, t);
    ctx.strokeStyle = "#999"; ctx.lineWidth = 1; ctx.strokeRect(0.5, 0.5, W - 1, W - 1);
  }

  /* ------------------------------------------------------------------ drawing: the chart */

  var PAD = { left: 52, right: 12, top: 14, bottom: 34 };

  function chartScale() {
    var r = state.result, T = r.trace.T, m = r.mistakeTrials.length, tight = Infinity;
    Object.keys(r.curves || {}).forEach(function (k) {
      var v = r.curves[k][T - 1];
      if (isFinite(v)) tight = Math.min(tight, v);
    });
    var W = ui.chart.width, H = ui.chart.height, log = ui.log.checked, top;
    var x = function (t) { return PAD.left + (W - PAD.left - PAD.right) * (t + 1) / T; };
    if (log) {  // from 0.5 to above the largest finite bound: mistakes and bounds both readable
      var high = Math.max(m, 1);
      Object.keys(r.curves || {}).forEach(function (k) {
        r.curves[k].forEach(function (v) { if (isFinite(v)) high = Math.max(high, v); });
      });
      top = high * 1.3;
      var l0 = Math.log(0.5), l1 = Math.log(top);
      return { T: T, top: top, log: true, x: x, y: function (v) {
        return H - PAD.bottom - (H - PAD.top - PAD.bottom) * (Math.log(Math.max(v, 0.5)) - l0) / (l1 - l0);
      } };
    }
    top = Math.max(m, isFinite(tight) ? tight : m, 1) * 1.15;
    return {
      T: T, top: top, log: false, x: x,
      y: function (v) { return H - PAD.bottom - (H - PAD.top - PAD.bottom) * Math.min(v, top * 1.02) / top; }
    };
  }

  function niceStep(span) {
    var raw = span / 5, p = Math.pow(10, Math.floor(Math.log10(raw))), f = raw / p;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
  }

  /* The static part of the chart (axes, every bound's curve, the whole run's mistakes, faint)
   * is drawn once per run and comparator into an offscreen canvas. */
  function drawChartCache(sc) {
    var ctx = chartCache.getContext("2d"), W = ui.chart.width, H = ui.chart.height, r = state.result;
    ctx.clearRect(0, 0, W, H);
    ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, W, H);
    ctx.strokeStyle = "#ccc"; ctx.fillStyle = "#555"; ctx.font = "11px sans-serif"; ctx.lineWidth = 1;
    var ticks = [], ys = niceStep(sc.top);
    if (sc.log) {
      for (var dec = 1; dec <= sc.top; dec *= 10) {
        [1, 2, 5].forEach(function (f) { if (dec * f <= sc.top) ticks.push(dec * f); });
      }
    } else {
      for (var v = 0; v <= sc.top; v += ys) ticks.push(v);
    }
    ctx.textAlign = "right";
    ticks.forEach(function (v) {
      var py = sc.y(v);
      ctx.beginPath(); ctx.moveTo(PAD.left, py); ctx.lineTo(W - PAD.right, py); ctx.stroke();
      ctx.fillText(String(Math.round(v * 100) / 100), PAD.left - 4, py + 4);
    });
    ctx.textAlign = "left";
    var xs = niceStep(sc.T);
    for (var t = 0; t <= sc.T; t += Math.max(1, Math.round(xs))) {
      var px = sc.x(t - 1);
      ctx.fillText(String(t), px - 6, H - PAD.bottom + 14);
    }
    ctx.fillText("trial t", W / 2 - 16, H - 6);
    ctx.save(); ctx.translate(11, H / 2 + 60); ctx.rotate(-Math.PI / 2);
    ctx.fillText("mistakes on trials 1..t" + (sc.log ? " (log scale)" : ""), 0, 0); ctx.restore();
    ctx.strokeStyle = "#888";
    ctx.strokeRect(PAD.left, PAD.top, W - PAD.left - PAD.right, H - PAD.top - PAD.bottom);
    Object.keys(r.curves || {}).forEach(function (name) {
      var c = r.curves[name], style = BOUND_STYLE[name][0];
      ctx.save();
      ctx.beginPath(); ctx.rect(PAD.left, PAD.top, W - PAD.left - PAD.right, H - PAD.top - PAD.bottom);
      ctx.clip();
      ctx.strokeStyle = style; ctx.lineWidth = 2; ctx.setLineDash(BOUND_STYLE[name][2]); ctx.beginPath();
      var down = false;
      for (var t2 = 0; t2 < sc.T; t2++) {
        if (!isFinite(c[t2])) { down = false; continue; }
        var X = sc.x(t2), Y = sc.y(c[t2]);
        if (down) ctx.lineTo(X, Y); else ctx.moveTo(X, Y);
        down = true;
      }
      ctx.stroke();
      ctx.restore();
    });
    stepLine(ctx, sc, sc.T - 1, "rgba(0, 0, 0, 0.18)", 1.5);
  }

  function stepLine(ctx, sc, upto, style, width) {
    var tr = state.result.trace, m = 0;
    ctx.strokeStyle = style; ctx.lineWidth = width; ctx.beginPath();
    ctx.moveTo(sc.x(-1), sc.y(0));
    for (var t = 0; t <= upto; t++) {
      if (tr.cases[t] === 1) {
        ctx.lineTo(sc.x(t - 1), sc.y(m)); m += 1; ctx.lineTo(sc.x(t - 1), sc.y(m));
      }
    }
    ctx.lineTo(sc.x(upto), sc.y(m));
    ctx.stroke();
    return m;
  }

  function drawChart() {
    var ctx = chartCtx, W = ui.chart.width, H = ui.chart.height, r = state.result;
    if (!r) {
      ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, W, H);
      ctx.fillStyle = "#555"; ctx.font = "14px sans-serif";
      ctx.fillText(state.error || "Add points (click the plane) or pick a preset.", 20, H / 2);
      return;
    }
    var sc = chartScale(), key = [r.trace.T, sc.top, sc.log, r.gamma, r.u && r.u.join()].join("/");
    if (state.chartKey !== key || state.chartCache !== r) {
      state.chartKey = key; state.chartCache = r;
      drawChartCache(sc);
    }
    ctx.drawImage(chartCache, 0, 0);
    if (state.t >= 0) {
      stepLine(ctx, sc, state.t, "#111", 2.4);
      ctx.strokeStyle = COLORS.gold; ctx.lineWidth = 1.5;
      ctx.beginPath(); ctx.moveTo(sc.x(state.t), PAD.top); ctx.lineTo(sc.x(state.t), H - PAD.bottom);
      ctx.stroke();
    }
  }

  /* ------------------------------------------------------------------ text */

  function fmt(v) { return v === null || !isFinite(v) ? "—" : v >= 100 ? v.toFixed(0) : v.toFixed(2); }

  function drawText() {
    var r = state.result, t = state.t;
    ui.legend.textContent = "";
    if (!r) { ui.status.textContent = state.error || "No points yet."; ui.note.textContent = ""; return; }
    var T = r.trace.T, m = 0, me = 0;
    for (var s = 0; s <= t; s++) { if (r.trace.cases[s] === 1) m++; if (r.trace.cases[s] === 2) me++; }
    var what = "";
    if (t >= 0) {
      var i = r.trace.rows[t], c = r.trace.cases[t];
      what = " — x = (" + state.X[i][0].toFixed(2) + ", " + state.X[i][1].toFixed(2) + "), y = " +
             (state.y[i] > 0 ? "+1" : "−1") + ": " +
             (c === 1 ? "a mistake (y s ≤ 0), update" : c === 2 ? "a margin error, update" : "correct, no update");
    }
    ui.status.textContent = "Trial " + (t + 1) + " of " + T + " (epoch " +
      (t >= 0 ? Math.floor(t / r.trace.N) + 1 : 1) + ")" + what + ". Mistakes so far: " + m +
      (state.algorithm === "ballseptron" || state.algorithm === "passive_aggressive" ? ", margin errors: " + me : "") +
      " (whole run: " + r.mistakeTrials.length + ").";
    ui.scrub.value = t;
    var names = Object.keys(r.curves || {});
    if (!names.length) {
      ui.note.textContent = r.params.kernel && r.params.kernel !== "linear"
        ? "A kernel run's comparator is a function of the kernel's feature space, not an " +
          "arrow of this plane: the page draws no bound for it (the toolkit compares a " +
          "kernel run with a kernel SVM, evaluate(run, X, y))."
        : "No bound applies to this run.";
      return;
    }
    var u = r.u, deg = Math.atan2(u[1], u[0]) * 180 / Math.PI;
    ui.note.textContent = "Comparator u = (" + u[0].toFixed(3) + ", " + u[1].toFixed(3) +
      "), at " + deg.toFixed(1) + "°, margin γ = " + r.gamma.toFixed(3) +
      (state.bestText ? ". " + state.bestText : "") +
      ". Drag the green arrow to turn u; a bound drawn as a gap does not apply on those trials.";
    names.forEach(function (name) {
      var v = t >= 0 ? r.curves[name][t] : NaN, end = r.curves[name][T - 1];
      var li = el("li", {}, [el("span", { class: "pb-swatch" })]);
      li.firstChild.style.background = BOUND_STYLE[name][0];
      li.appendChild(document.createTextNode(BOUND_STYLE[name][1] + ": " +
        (t < 0 ? "" : isFinite(v) ? fmt(v) + " at trial " + (t + 1) : "does not apply at trial " + (t + 1)) +
        (isFinite(end) ? " (whole run " + fmt(end) + ")" : " (whole run: does not apply" +
          (r.reasons && r.reasons[name] ? ": " + r.reasons[name] : "") + ")")));
      li.setAttribute("data-bound", name);
      ui.legend.appendChild(li);
    });
  }

  function draw() {
    drawPlane();
    drawChart();
    drawText();
  }

  /* ------------------------------------------------------------------ controls */

  function T() { return state.result ? state.result.trace.T : 0; }
  function go(t) { state.t = Math.max(-1, Math.min(t, T() - 1)); draw(); }
  function step() { if (state.t < T() - 1) go(state.t + 1); else pause(); }
  function nextMistake() {
    var tr = state.result && state.result.trace;
    if (!tr) return;
    for (var t = state.t + 1; t < tr.T; t++) if (tr.cases[t] === 1) return go(t);
    go(tr.T - 1);
  }
  var timer = null, last = 0, carry = 0;
  function frame(now) {
    if (!state.playing) return;
    carry += (now - last) * parseFloat(ui.speed.value) / 1000 * 2;
    last = now;
    var n = Math.floor(carry);
    if (n > 0) { carry -= n; go(Math.min(state.t + n, T() - 1)); }
    if (state.t >= T() - 1) return pause();
    timer = requestAnimationFrame(frame);
  }
  function play() {
    if (!state.result) return;
    if (state.t >= T() - 1) state.t = -1;
    state.playing = true; ui.play.textContent = "Pause"; last = performance.now(); carry = 1;
    timer = requestAnimationFrame(frame);
  }
  function pause() {
    state.playing = false; ui.play.textContent = "Play";
    if (timer) cancelAnimationFrame(timer);
    timer = null;
  }

  function addPoint(ev) {
    var rect = ui.plane.getBoundingClientRect();
    var px = (ev.clientX - rect.left) * ui.plane.width / rect.width;
    var py = (ev.clientY - rect.top) * ui.plane.height / rect.height;
    var w = toWorld(px, py), label = ev.shiftKey || ev.button === 2 ? -parseInt(ui.label.value, 10)
      : parseInt(ui.label.value, 10);
    state.X.push([round4(w[0]), round4(w[1])]); state.y.push(label);
    rerun(false);
  }

  function wire() {
    var dragging = false;
    ui.plane.addEventListener("contextmenu", function (ev) { ev.preventDefault(); });
    ui.plane.addEventListener("mousedown", function (ev) {
      var rect = ui.plane.getBoundingClientRect();
      var px = (ev.clientX - rect.left) * ui.plane.width / rect.width;
      var py = (ev.clientY - rect.top) * ui.plane.height / rect.height;
      if (state.tip && Math.hypot(px - state.tip[0], py - state.tip[1]) < 14) {
        dragging = true; return;
      }
      addPoint(ev);
    });
    window.addEventListener("mousemove", function (ev) {
      if (!dragging) return;
      var rect = ui.plane.getBoundingClientRect();
      var w = toWorld((ev.clientX - rect.left) * ui.plane.width / rect.width,
                      (ev.clientY - rect.top) * ui.plane.height / rect.height);
      if (Math.hypot(w[0], w[1]) > 1e-9) { state.u = w; state.bestText = ""; recurve(); }
    });
    window.addEventListener("mouseup", function () { dragging = false; });
    ui.preset.addEventListener("change", applyPreset);
    [ui.size, ui.margin, ui.noise, ui.seed].forEach(function (c) {
      c.addEventListener("input", function () {
        syncOutputs(); makePoints(); if (c === ui.margin) resetComparator(); rerun(true);
      });
    });
    ui.clear.addEventListener("click", function () {
      ui.preset.value = "empty"; makePoints(); rerun(true);
    });
    ui.algorithm.addEventListener("change", function () {
      state.algorithm = ui.algorithm.value; showParamBoxes(); rerun(false);
    });
    [ui.kernel, ui.degree, ui.kgamma, ui.coef0, ui.a, ui.variant, ui.C, ui.epochs, ui.r].forEach(function (c) {
      c.addEventListener(c.tagName === "SELECT" ? "change" : "input", function () {
        syncOutputs(); showParamBoxes(); rerun(false);
      });
    });
    ui.method.addEventListener("change", function () { state.gridKey = null; draw(); });
    ui.log.addEventListener("change", function () { state.chartKey = null; draw(); });
    ui.gamma.addEventListener("input", function () {
      state.gamma = parseFloat(ui.gamma.value); state.bestText = ""; recurve();
    });
    ui.best.addEventListener("click", best);
    ui.target.addEventListener("click", function () {
      if (state.target) { state.u = state.target.slice(); state.bestText = "u: the preset's target"; recurve(); }
    });
    ui.rewind.addEventListener("click", function () { pause(); go(-1); });
    ui.back.addEventListener("click", function () { pause(); go(state.t - 1); });
    ui.step.addEventListener("click", function () { pause(); step(); });
    ui.next.addEventListener("click", function () { pause(); nextMistake(); });
    ui.play.addEventListener("click", function () { if (state.playing) pause(); else play(); });
    ui.scrub.addEventListener("input", function () { pause(); go(parseInt(ui.scrub.value, 10)); });
    document.addEventListener("keydown", function (ev) {
      if (ev.target && /INPUT|SELECT|TEXTAREA/.test(ev.target.tagName)) return;
      var keys = { ArrowRight: step, ArrowLeft: function () { go(state.t - 1); },
                   Home: function () { go(-1); }, m: nextMistake,
                   " ": function () { if (state.playing) pause(); else play(); } };
      if (keys[ev.key] && root.getBoundingClientRect().bottom > 0) { ev.preventDefault(); keys[ev.key](); }
    });
  }

  /* The best comparator as the toolkit's evaluate(run, X, y, comparator="svm") finds it:
   * per bound, the smallest over the SVM directions and gamma; the smallest bound's u, gamma. */
  function best() {
    var r = state.result;
    if (!r || (r.params.kernel && r.params.kernel !== "linear")) return;
    var b = L.bestBounds(state.algorithm, r.data, r.params, r.trace), pick = null, name = null;
    Object.keys(b).forEach(function (k) { if (!pick || b[k].value < pick.value) { pick = b[k]; name = k; } });
    if (!pick) { state.bestText = "no bound applies for any SVM direction"; return draw(); }
    state.u = pick.u.slice(); state.gamma = pick.gamma;
    ui.gamma.value = Math.min(Math.max(pick.gamma, +ui.gamma.min), +ui.gamma.max);
    state.bestText = "Best: " + BOUND_STYLE[name][1].split(" ")[0] + " " + pick.value.toFixed(2) +
      " (" + pick.comparator + ", γ = " + pick.gamma.toFixed(4) + ")";
    recurve();
  }

  /* Redraw time per trial while stepping through the run (the responsiveness check). */
  function measureStepping(n) {
    pause();
    go(-1);
    var times = [], parts = { plane: 0, chart: 0, text: 0 };
    for (var i = 0; i < n && state.t < T() - 1; i++) {
      var t0 = performance.now();
      state.t += 1;
      drawPlane();
      var t1 = performance.now();
      drawChart();
      var t2 = performance.now();
      drawText();
      var t3 = performance.now();
      times.push(t3 - t0);
      parts.plane += t1 - t0; parts.chart += t2 - t1; parts.text += t3 - t2;
    }
    times.sort(function (a, b) { return a - b; });
    Object.keys(parts).forEach(function (k) { parts[k] /= times.length; });
    return { frames: times.length, max: times[times.length - 1],
             mean: times.reduce(function (a, b) { return a + b; }, 0) / times.length,
             p95: times[Math.floor(0.95 * (times.length - 1))], parts: parts };
  }

  build();
  planeCtx = ui.plane.getContext("2d");
  chartCtx = ui.chart.getContext("2d");
  gridCanvas = document.createElement("canvas");
  gridCanvas.width = GRID; gridCanvas.height = GRID;
  gridImage = gridCanvas.getContext("2d").createImageData(GRID, GRID);
  chartCache = document.createElement("canvas");
  chartCache.width = ui.chart.width; chartCache.height = ui.chart.height;
  wire();
  applyPreset();

  L.ui = {
    state: state, presets: PRESETS, step: step, nextMistake: nextMistake, go: go, play: play,
    pause: pause, best: best, measureStepping: measureStepping, rerun: rerun,
    setPreset: function (name, size, seed) {
      ui.preset.value = name; applyPreset();
      if (size !== undefined) ui.size.value = size;
      if (seed !== undefined) ui.seed.value = seed;
      syncOutputs(); makePoints(); rerun(true);
    },
    points: function () { return { X: state.X, y: state.y, target: state.target }; }
  };
})();
