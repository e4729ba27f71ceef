/* perceptron_bounds in the page: the online algorithms and mistake bounds of the Play lesson.
 *
 * Plain JavaScript, no dependency: loaded by play.html from the site's _static folder, it
 * works from a static host and from the built site opened as files. It defines
 * window.pbLesson, whose run({algorithm, X, y, params, epochs, u, gamma}) gives the
 * toolkit's results on 2-D data (the tests hold it against run_online, evaluate and
 * bounds_over_time):
 *
 *   - the update rules of theory §2 (§1.1: a mistake is y s <= 0, the zero score included;
 *     trials count from 0 in the order rows 0..N-1, epoch after epoch, §1.2-1.3), with the
 *     same floating-point operations as the toolkit's primal loops;
 *   - the stated bounds of theory §4.1 and §4.6 for a unit comparator u and a margin gamma,
 *     on the whole run and on every prefix (bounds_over_time), with their conditions
 *     (null / Infinity where a bound does not apply);
 *   - the comparator search of theory §4.3: normalised linear SVM directions (squared hinge,
 *     no intercept, as LinearSVC) for C in {0.01, 0.1, 1, 10, 100}, and per bound the gamma
 *     that minimises it over the positive margins and a log grid, refined between the
 *     neighbours of the best candidate. The SVMs are solved here by dual coordinate descent
 *     to a tighter tolerance than liblinear's, so this comparator is the toolkit's up to its
 *     solver tolerance, not bit for bit.
 */
(function (global) {
  "use strict";

  var SQRT2_MINUS_1 = Math.SQRT2 - 1.0;
  var KERNEL_DEFAULTS = { kernel: "linear", degree: 3, gamma: null, coef0: 1.0 };
  var FIRST_ORDER = ["novikoff", "freund_schapire", "ballseptron_d1"];
  var BALL_BOUNDS = FIRST_ORDER.concat(["ballseptron_corrected_d2", "ballseptron_corrected_d1"]);
  var PA_BOUNDS = { pa: ["pa_separable", "pa_general"], pa1: ["pa1_mistakes"],
                    pa2: ["pa2_mistakes"] };
  var SVM_C = [0.01, 0.1, 1.0, 10.0, 100.0];
  var GRID_POINTS = 128, GRID_DECADES = 6, UNIT_TOLERANCE = 1e-12;

  /* The algorithms offered: the toolkit's registered names, parameters and defaults. */
  var ALGORITHMS = {
    perceptron: { title: "Perceptron", defaults: Object.assign({}, KERNEL_DEFAULTS),
                  kernels: true, theory: "§2.1" },
    voted_perceptron: { title: "Voted / averaged Perceptron",
                        defaults: Object.assign({}, KERNEL_DEFAULTS), kernels: true,
                        theory: "§2.2" },
    ballseptron: { title: "Ballseptron", defaults: { r: 0.1 }, theory: "§2.3" },
    second_order: { title: "Second-Order Perceptron", defaults: { a: 1.0 }, theory: "§2.4" },
    passive_aggressive: { title: "Passive-Aggressive", defaults: { variant: "pa1", C: 1.0 },
                          theory: "§2.7" }
  };

  function fail(message) { throw new Error(message); }

  function checkReal(name, value, low, includeLow) {
    if (typeof value !== "number" || !isFinite(value)) {
      fail(name + " must be a finite number, got " + JSON.stringify(value));
    }
    if (low !== undefined && (includeLow ? value < low : value <= low)) {
      fail(name + " must be " + (includeLow ? ">= " : "> ") + low + ", got " + value);
    }
    return value;
  }

  /* Validate the data: X a list of [x1, x2] pairs of finite numbers, y of +1 / -1. */
  function checkData(X, y) {
    if (!Array.isArray(X) || !Array.isArray(y)) fail("X and y must be arrays");
    if (X.length !== y.length) fail("X has " + X.length + " rows but y has " + y.length);
    if (X.length === 0) fail("X is empty: add points first");
    var xs = new Float64Array(2 * X.length), ys = new Float64Array(X.length);
    for (var i = 0; i < X.length; i++) {
      var row = X[i];
      if (!row || row.length !== 2 || !isFinite(row[0]) || !isFinite(row[1])) {
        fail("X[" + i + "] must be a pair of finite numbers, got " + JSON.stringify(row));
      }
      if (y[i] !== 1 && y[i] !== -1) fail("y[" + i + "] must be +1 or -1, got " + y[i]);
      xs[2 * i] = +row[0]; xs[2 * i + 1] = +row[1]; ys[i] = y[i];
    }
    return { x: xs, y: ys, n: X.length };
  }

  /* The run's parameters: the algorithm's defaults overridden by params (unknown names refused). */
  function resolveParams(algorithm, params, data) {
    var spec = ALGORITHMS[algorithm];
    if (!spec) {
      fail("unknown algorithm " + JSON.stringify(algorithm) + "; the page offers " +
           Object.keys(ALGORITHMS).join(", "));
    }
    var out = Object.assign({}, spec.defaults);
    Object.keys(params || {}).forEach(function (key) {
      if (!(key in out)) {
        fail(algorithm + " takes no parameter " + JSON.stringify(key) + "; its parameters: " +
             Object.keys(out).join(", "));
      }
      out[key] = params[key];
    });
    if (spec.kernels) {
      if (["linear", "poly", "rbf"].indexOf(out.kernel) < 0) {
        fail("kernel must be linear, poly or rbf, got " + JSON.stringify(out.kernel));
      }
      if (!Number.isInteger(out.degree) || out.degree < 1) {
        fail("degree must be an integer >= 1, got " + out.degree);
      }
      out.gamma = kernelGamma(out.gamma, data);
      checkReal("coef0", out.coef0);
    }
    if (algorithm === "ballseptron") checkReal("r", out.r, 0.0, true);
    if (algorithm === "second_order") checkReal("a", out.a, 0.0, false);
    if (algorithm === "passive_aggressive") {
      if (!(out.variant in PA_BOUNDS)) {
        fail("variant must be pa, pa1 or pa2, got " + JSON.stringify(out.variant));
      }
      checkReal("C", out.C, 0.0, false);
    }
    return out;
  }

  /* The kernel's gamma as make_kernel resolves it (theory §1.7): "auto" / null is
   * 1 / n_features, "scale" 1 / (n_features Var(X)) over all entries (1 for zero variance). */
  function kernelGamma(gamma, data) {
    if (gamma === null || gamma === undefined || gamma === "auto") return 0.5;
    if (gamma === "scale") {
      var m = 0.0, n = data.x.length, i;
      for (i = 0; i < n; i++) m += data.x[i];
      m /= n;
      var v = 0.0;
      for (i = 0; i < n; i++) v += (data.x[i] - m) * (data.x[i] - m);
      v /= n;
      return v > 0.0 ? 1.0 / (2 * v) : 1.0;
    }
    return checkReal("gamma", gamma, 0.0, false);
  }

  /* K(a, b) for the kernel of resolved params, a and b given by their coordinates. */
  function kernelValue(p, a0, a1, b0, b1) {
    if (p.kernel === "rbf") {
      var d0 = a0 - b0, d1 = a1 - b1;
      return Math.exp(-p.gamma * (d0 * d0 + d1 * d1));
    }
    var g = a0 * b0 + a1 * b1;
    if (p.kernel === "linear") return g;
    var base = p.gamma * g + p.coef0, out = 1.0;
    for (var d = 0; d < p.degree; d++) out *= base;
    return out;
  }

  /* ------------------------------------------------------------------ the algorithms */

  /* Run the algorithm over epochs passes of the rows, in order. Returns the trace: per trial
   * the row, the score and the case (0 nothing, 1 mistake, 2 margin error), and the states
   * the page draws (the weights after every trial for the linear forms; the supports for the
   * kernel form, whose count after every trial is kept). */
  function trace(algorithm, data, p, epochs) {
    var N = data.n, T = N * epochs, X = data.x, Y = data.y;
    var rows = new Int32Array(T), scores = new Float64Array(T), cases = new Uint8Array(T);
    var W = new Float64Array(2 * T);  // w after trial t (linear forms)
    var out = { rows: rows, scores: scores, cases: cases, weights: W, T: T, N: N };
    var t, i, x0, x1, yi, s;
    for (t = 0; t < T; t++) rows[t] = t % N;
    if ((algorithm === "perceptron" || algorithm === "voted_perceptron") &&
        p.kernel !== "linear") {
      var supports = [], coef = [], kept = new Int32Array(T);
      for (t = 0; t < T; t++) {
        i = rows[t]; x0 = X[2 * i]; x1 = X[2 * i + 1]; yi = Y[i];
        s = 0.0;
        for (var j = 0; j < supports.length; j++) {
          s += coef[j] * kernelValue(p, X[2 * supports[j]], X[2 * supports[j] + 1], x0, x1);
        }
        scores[t] = s;
        if (yi * s <= 0.0) { supports.push(i); coef.push(yi); cases[t] = 1; }
        kept[t] = supports.length;
      }
      out.supports = supports; out.coef = coef; out.kept = kept; out.weights = null;
      return out;
    }
    var w0 = 0.0, w1 = 0.0;
    if (algorithm === "perceptron" || algorithm === "voted_perceptron") {
      for (t = 0; t < T; t++) {
        i = rows[t]; x0 = X[2 * i]; x1 = X[2 * i + 1]; yi = Y[i];
        s = w0 * x0 + w1 * x1;
        scores[t] = s;
        if (yi * s <= 0.0) { w0 += yi * x0; w1 += yi * x1; cases[t] = 1; }
        W[2 * t] = w0; W[2 * t + 1] = w1;
      }
    } else if (algorithm === "ballseptron") {
      var normSq = 0.0, r = p.r;
      for (t = 0; t < T; t++) {
        i = rows[t]; x0 = X[2 * i]; x1 = X[2 * i + 1]; yi = Y[i];
        s = w0 * x0 + w1 * x1;
        scores[t] = s;
        var a = 1.0, ys = yi * s;
        if (ys <= 0.0) {
          cases[t] = 1;
        } else {
          var norm = Math.sqrt(normSq);
          if (ys / norm <= r) { cases[t] = 2; a = 1.0 - r / norm; }
        }
        if (cases[t]) {
          w0 = a * w0 + yi * x0; w1 = a * w1 + yi * x1;
          normSq = w0 * w0 + w1 * w1;
        }
        W[2 * t] = w0; W[2 * t + 1] = w1;
      }
    } else if (algorithm === "second_order") {
      // Theory §2.4, primal form: A^{-1} by Sherman-Morrison, its last rank-one change kept
      // pending until the next mistake (the toolkit's loop, operation for operation).
      var M = [1.0 / p.a, 0.0, 0.0, 1.0 / p.a], pend0 = 0.0, pend1 = 0.0;
      var S = new Float64Array(3 * T);  // X_k X_k^T after trial t: s11, s12, s22
      var s11 = 0.0, s12 = 0.0, s22 = 0.0;
      for (t = 0; t < T; t++) {
        i = rows[t]; x0 = X[2 * i]; x1 = X[2 * i + 1]; yi = Y[i];
        s = w0 * x0 + w1 * x1;
        if (yi * s <= 0.0) {
          var pi0 = 1.0 * pend0, pi1 = 1.0 * pend1;
          M[0] -= pi0 * pend0; M[1] -= pi0 * pend1;
          var z0 = M[0] * x0 + M[1] * x1;
          M[2] -= pi1 * pend0; M[3] -= pi1 * pend1;
          var z1 = M[2] * x0 + M[3] * x1;
          var d = 1.0 + (x0 * z0 + x1 * z1);
          var c = (yi - s) / d, rr = 1.0 / Math.sqrt(d);
          w0 += c * z0; pend0 = z0 * rr;
          w1 += c * z1; pend1 = z1 * rr;
          scores[t] = s / d;
          cases[t] = 1;
          s11 += x0 * x0; s12 += x0 * x1; s22 += x1 * x1;
        } else {
          scores[t] = s;  // the sign of the score; the scale is not drawn
        }
        W[2 * t] = w0; W[2 * t + 1] = w1;
        S[3 * t] = s11; S[3 * t + 1] = s12; S[3 * t + 2] = s22;
      }
      out.spectra = S;
    } else if (algorithm === "passive_aggressive") {
      var v = p.variant, C = p.C;
      for (t = 0; t < T; t++) {
        i = rows[t]; x0 = X[2 * i]; x1 = X[2 * i + 1]; yi = Y[i];
        s = w0 * x0 + w1 * x1;
        var xx = x0 * x0 + x1 * x1;
        scores[t] = s;
        var loss = 1.0 - yi * s;
        if (loss > 0.0) {
          cases[t] = yi * s <= 0.0 ? 1 : 2;
          if (xx > 0.0) {  // a zero instance leaves w as it is (theory §2.7)
            var tau = v === "pa" ? loss / xx
              : v === "pa1" ? Math.min(C, loss / xx) : loss / (xx + 0.5 / C);
            var cc = yi * tau;
            w0 += cc * x0; w1 += cc * x1;
          }
        }
        W[2 * t] = w0; W[2 * t + 1] = w1;
      }
    }
    return out;
  }

  /* The voted Perceptron's survival counts c_1..c_{k+1} (theory §2.2) on trials 0..t. */
  function votedCounts(tr, t) {
    var counts = [0];
    for (var s = 0; s <= t; s++) {
      if (tr.cases[s] === 1) counts.push(1); else counts[counts.length - 1] += 1;
    }
    return counts;
  }

  /* ------------------------------------------------------------------ the bounds */

  function boundNames(algorithm, p) {
    if (algorithm === "ballseptron") return BALL_BOUNDS.slice();
    if (algorithm === "second_order") return ["second_order"];
    if (algorithm === "passive_aggressive") return PA_BOUNDS[p.variant].slice();
    return FIRST_ORDER.slice();
  }

  /* The unit comparator (theory §4.3: a given u is scaled to unit norm). */
  function unit(u) {
    if (!u || u.length !== 2 || !isFinite(u[0]) || !isFinite(u[1])) {
      fail("u must be a pair of finite numbers, got " + JSON.stringify(u));
    }
    var n = Math.sqrt(u[0] * u[0] + u[1] * u[1]);
    if (!(n > 0)) fail("u must be nonzero");
    return [u[0] / n, u[1] / n];
  }

  /* a sum_i ln(1 + lambda_i / a) over the eigenvalues of [[s11, s12], [s12, s22]]. */
  function aLogTerm(s11, s12, s22, a) {
    var half = 0.5 * (s11 + s22), diff = 0.5 * (s11 - s22);
    var rad = Math.sqrt(diff * diff + s12 * s12);
    var big = half + rad;
    var small = big > 0 ? (s11 * s22 - s12 * s12) / big : 0.0;
    var total = 0.0;
    [big, small].forEach(function (lam) {
      lam = Math.max(lam, 0.0);
      var x = lam / a;
      total += x > 0 ? lam * (Math.log1p(x) / x) : lam;
    });
    return total;
  }

  /* One bound's value from the quantities of a set of trials (q), or Infinity when one of its
   * conditions fails there (theory §4.1, §4.6; a GammaInterval is low < gamma <= high). */
  function boundValue(name, q, g, p, ball) {
    var r = ball ? p.r : 0.0;
    var ballOk = !ball || (g > r / SQRT2_MINUS_1 && g <= q.R);
    var beta = 0.5 - r / g - 0.5 * (r / g) * (r / g);
    var fs = Math.pow((q.R + q.D2) / g, 2);
    var d1 = Math.pow((q.R + Math.sqrt(g * q.D1)) / g, 2);
    switch (name) {
      case "novikoff":
        return ballOk && g <= q.minMargin ? Math.pow(q.R / g, 2) : Infinity;
      case "freund_schapire":
        return ballOk ? fs : Infinity;
      case "ballseptron_d1":
        return ballOk && g <= q.R ? d1 : Infinity;
      case "ballseptron_corrected_d2":
        return ballOk ? fs - q.marginErrors * beta : Infinity;
      case "ballseptron_corrected_d1":
        return ballOk ? d1 - q.marginErrors * beta : Infinity;
      case "second_order":
        return q.D1 / g + Math.sqrt((1.0 + q.energy / p.a) * aLogTerm(q.s11, q.s12, q.s22, p.a)) / g;
      case "pa_separable":
        return g <= q.minMargin ? Math.pow(q.R / g, 2) : Infinity;
      case "pa_general":
        if (!(q.unitError <= UNIT_TOLERANCE)) return Infinity;
        var ratio = q.R > 0 ? q.R / q.Rmin : 0.0;
        var derived = Math.pow(ratio * (q.D2 + Math.hypot(q.D2, q.Rmin)) / g, 2);
        return Math.max(Math.pow((1.0 + 2.0 * q.D2) / g, 2), derived);
      case "pa1_mistakes":
        return Math.max(Math.pow(q.R / g, 2), 1.0 / (p.C * g * g)) * (1.0 + 2.0 * p.C * g * q.D1);
      case "pa2_mistakes":
        return (Math.pow(q.R / g, 2) + 0.5 / (p.C * g * g)) * (1.0 + 2.0 * p.C * q.D2 * q.D2);
    }
    fail("unknown bound " + name);
  }

  /* Every bound of the run on every prefix of trials 1..t (bounds_over_time, stated), for the
   * unit u and margin gamma: R, D1, D2, the smallest margin, the margin errors and the
   * mistakes' matrix X_k X_k^T are running quantities. */
  function curves(algorithm, data, p, tr, u, g) {
    var names = boundNames(algorithm, p), ball = algorithm === "ballseptron";
    var out = {}, T = tr.T, n, k;
    names.forEach(function (name) { out[name] = new Float64Array(T); });
    var q = { R: 0.0, D1: 0.0, D2: 0.0, sq: 0.0, minMargin: Infinity, marginErrors: 0,
              energy: 0.0, s11: 0.0, s12: 0.0, s22: 0.0, Rmin: Infinity, unitError: 0.0 };
    var mistakes = new Int32Array(T), m = 0;
    for (var t = 0; t < T; t++) {
      var i = tr.rows[t], x0 = data.x[2 * i], x1 = data.x[2 * i + 1];
      var norm = Math.sqrt(x0 * x0 + x1 * x1);
      var margin = data.y[i] * (u[0] * x0 + u[1] * x1);
      var loss = Math.max(0.0, g - margin);
      q.R = Math.max(q.R, norm);
      q.Rmin = Math.min(q.Rmin, norm);
      q.unitError = Math.max(q.unitError, Math.abs(norm - 1.0));
      q.D1 += loss; q.sq += loss * loss; q.D2 = Math.sqrt(q.sq);
      q.minMargin = Math.min(q.minMargin, margin);
      if (tr.cases[t] === 2) q.marginErrors += 1;
      if (tr.cases[t] === 1) {
        m += 1;
        var f = u[0] * x0 + u[1] * x1;
        q.energy += f * f;
        q.s11 += x0 * x0; q.s12 += x0 * x1; q.s22 += x1 * x1;
      }
      mistakes[t] = m;
      for (k = 0; k < names.length; k++) {
        n = names[k];
        var value = boundValue(n, q, g, p, ball);
        out[n][t] = isNaN(value) ? Infinity : value;
      }
    }
    return { curves: out, mistakes: mistakes, quantities: q };
  }

  /* ------------------------------------------------------------- the comparator search */

  /* Normalised linear SVM directions, one per C (LinearSVC: squared hinge, no intercept),
   * by dual coordinate descent (Hsieh et al. 2008) over the distinct rows. */
  function svmDirections(data) {
    var n = data.n, X = data.x, Y = data.y, has = { "1": false, "-1": false };
    for (var i = 0; i < n; i++) has[Y[i]] = true;
    if (!has["1"] || !has["-1"]) return [];
    var out = [];
    SVM_C.forEach(function (C) {
      var alpha = new Float64Array(n), w0 = 0.0, w1 = 0.0, Dii = 0.5 / C;
      for (var it = 0; it < 2000; it++) {
        var worst = 0.0;
        for (var j = 0; j < n; j++) {
          var x0 = X[2 * j], x1 = X[2 * j + 1], yj = Y[j];
          var G = yj * (w0 * x0 + w1 * x1) - 1.0 + Dii * alpha[j];
          var pg = alpha[j] === 0.0 ? Math.min(G, 0.0) : G;
          worst = Math.max(worst, Math.abs(pg));
          if (pg !== 0.0) {
            var Q = x0 * x0 + x1 * x1 + Dii, old = alpha[j];
            alpha[j] = Math.max(old - G / Q, 0.0);
            var step = (alpha[j] - old) * yj;
            w0 += step * x0; w1 += step * x1;
          }
        }
        if (worst < 1e-10) break;
      }
      var norm = Math.sqrt(w0 * w0 + w1 * w1);
      if (norm > 0) out.push({ label: "svm C=" + C, u: [w0 / norm, w1 / norm] });
    });
    return out;
  }

  /* Sorted gamma candidates in (low, high] (search.gamma_candidates): the positive margins,
   * a log grid of 128 points over 6 decades below min(high, scale), and that top. */
  function gammaCandidates(margins, low, high, scale) {
    var top = Math.min(high, scale);
    if (!(top > Math.max(low, 0.0))) return [];
    var bottom = Math.max(low, top * Math.pow(10, -GRID_DECADES)), c = [], i;
    for (i = 0; i < GRID_POINTS; i++) {
      c.push(bottom * Math.pow(top / bottom, i / (GRID_POINTS - 1)));
    }
    for (i = 0; i < margins.length; i++) {
      if (margins[i] > low && margins[i] <= top) c.push(margins[i]);
    }
    c.push(top);
    c.sort(function (a, b) { return a - b; });
    return c.filter(function (v, k) { return v > low && (k === 0 || v !== c[k - 1]); });
  }

  /* Minimise f over the candidates, then refine between the best one's neighbours (golden
   * section, kept only if it improves). Returns [gamma, value]. */
  function minimiseOverGamma(f, cands) {
    var best = -1, val = Infinity;
    for (var i = 0; i < cands.length; i++) {
      var v = f(cands[i]);
      if (v < val) { val = v; best = i; }
    }
    if (best < 0) return [NaN, Infinity];
    var g = cands[best], lo = cands[Math.max(best - 1, 0)];
    var hi = cands[Math.min(best + 1, cands.length - 1)], phi = (Math.sqrt(5) - 1) / 2;
    var a = lo, b = hi, c1 = b - phi * (b - a), c2 = a + phi * (b - a);
    var f1 = f(c1), f2 = f(c2);
    for (var k = 0; k < 60 && b - a > 1e-10 * hi; k++) {
      if (f1 < f2) { b = c2; c2 = c1; f2 = f1; c1 = b - phi * (b - a); f1 = f(c1); }
      else { a = c1; c1 = c2; f1 = f2; c2 = a + phi * (b - a); f2 = f(c2); }
    }
    if (Math.min(f1, f2) < val) return f1 < f2 ? [c1, f1] : [c2, f2];
    return [g, val];
  }

  /* The whole-run quantities of a comparator, with the hinge sums as functions of gamma
   * (sorted margins and prefix sums: one evaluation costs a binary search). */
  function profile(data, tr, u) {
    var T = tr.T, margins = new Float64Array(T), R = 0.0, Rmin = Infinity, unitError = 0.0;
    var energy = 0.0, s11 = 0.0, s12 = 0.0, s22 = 0.0, me = 0;
    for (var t = 0; t < T; t++) {
      var i = tr.rows[t], x0 = data.x[2 * i], x1 = data.x[2 * i + 1];
      var norm = Math.sqrt(x0 * x0 + x1 * x1), f = u[0] * x0 + u[1] * x1;
      margins[t] = data.y[i] * f;
      R = Math.max(R, norm); Rmin = Math.min(Rmin, norm);
      unitError = Math.max(unitError, Math.abs(norm - 1.0));
      if (tr.cases[t] === 2) me += 1;
      if (tr.cases[t] === 1) { energy += f * f; s11 += x0 * x0; s12 += x0 * x1; s22 += x1 * x1; }
    }
    var sorted = Float64Array.from(margins).sort();
    var c1 = new Float64Array(T + 1), c2 = new Float64Array(T + 1);
    for (var k = 0; k < T; k++) { c1[k + 1] = c1[k] + sorted[k]; c2[k + 1] = c2[k] + sorted[k] * sorted[k]; }
    function at(g) {
      var lo = 0, hi = T;  // count of margins below g
      while (lo < hi) { var mid = (lo + hi) >> 1; if (sorted[mid] < g) lo = mid + 1; else hi = mid; }
      var D1 = Math.max(lo * g - c1[lo], 0.0);
      var sq = Math.max(lo * g * g - 2 * g * c1[lo] + c2[lo], 0.0);
      return { R: R, Rmin: Rmin, unitError: unitError, D1: D1, D2: Math.sqrt(sq),
               minMargin: T ? sorted[0] : Infinity, marginErrors: me, energy: energy,
               s11: s11, s12: s12, s22: s22 };
    }
    return { margins: sorted, at: at, R: R };
  }

  /* The gamma interval a bound's conditions allow (theory §4.3), beyond which the search
   * does not go: gamma <= max(R, largest margin). */
  function gammaRange(name, prof, p, ball) {
    var low = 0.0, high = Math.max(prof.R, prof.margins[prof.margins.length - 1] || 0);
    var scale = high;
    if (ball && name !== "second_order") { low = p.r / SQRT2_MINUS_1; high = Math.min(high, prof.R); }
    if (name === "ballseptron_d1") high = Math.min(high, prof.R);
    if (name === "novikoff" || name === "pa_separable") high = Math.min(high, prof.margins[0]);
    return [low, high, scale];
  }

  /* Why a bound does not apply to the whole run at comparator u, in the words of evaluate's
   * report (theory §4.1): the unit-norm condition of PA's Thm 3, a comparator that does not
   * separate the data for the separable bounds, else the gamma conditions. */
  function whyNot(name, data, tr, u, p, ball, g) {
    var prof = profile(data, tr, u), q = prof.at(prof.R || 1.0);
    var separable = name === "novikoff" || name === "pa_separable";
    if (name === "pa_general" && !(q.unitError <= UNIT_TOLERANCE)) {
      return "Thm 3 needs ||x_t|| = 1 on every trial: max | ||x_t|| - 1 | = " +
        Number(q.unitError.toPrecision(3)) + " (> 1e-12)";
    }
    var condition = "u separates every trial with margin gamma: gamma <= min y u.x = " +
      Number(q.minMargin.toPrecision(6));
    if (separable && !(q.minMargin > 0)) return "no gamma > 0 meets " + condition;
    if (separable && g !== undefined && g > q.minMargin) {
      return "at gamma = " + Number(g.toPrecision(6)) + ": needs " + condition;
    }
    if (ball && name !== "second_order") {
      return "no gamma meets 0 < gamma <= R and r < (sqrt(2) - 1) gamma at this comparator";
    }
    return "no gamma > 0 meets its conditions at this comparator";
  }

  /* For each bound, the smallest value over the SVM directions and gamma (theory §4.3). */
  function bestBounds(algorithm, data, p, tr) {
    var names = boundNames(algorithm, p), ball = algorithm === "ballseptron", best = {};
    var comps = svmDirections(data);
    comps.forEach(function (comp) {
      var prof = profile(data, tr, comp.u);
      names.forEach(function (name) {
        var range = gammaRange(name, prof, p, ball);
        var cands = gammaCandidates(prof.margins, range[0], range[1], range[2]);
        var res = minimiseOverGamma(function (g) {
          var v = boundValue(name, prof.at(g), g, p, ball);
          return isNaN(v) ? Infinity : v;
        }, cands);
        if (isFinite(res[1]) && (!best[name] || res[1] < best[name].value)) {
          best[name] = { value: res[1], gamma: res[0], u: comp.u, comparator: comp.label };
        }
      });
    });
    return best;
  }

  /* ------------------------------------------------------------------ the API */

  /* run({algorithm, X, y, params, epochs, u, gamma}): the toolkit's run_online on 2-D data.
   * Returns {mistakeTrials, updateTrials, marginErrorTrials, bounds, curves, u, gamma,
   * params, reasons}: bounds maps each stated bound of the algorithm (evaluate's report
   * names) to its value at u and gamma, null where it does not apply, and reasons says why
   * in evaluate's words (a kernel run has none: its comparator is a function of the feature
   * space); curves are bounds_over_time's. Without u and gamma, each bound is at its own
   * best SVM direction and searched gamma, as evaluate reports it, and the curves at those
   * of the smallest bound. */
  function run(options) {
    options = options || {};
    var algorithm = options.algorithm || "perceptron";
    var data = checkData(options.X, options.y);
    var epochs = options.epochs === undefined ? 1 : options.epochs;
    if (!Number.isInteger(epochs) || epochs < 1) fail("epochs must be an integer >= 1, got " + epochs);
    var p = resolveParams(algorithm, options.params, data);
    var tr = trace(algorithm, data, p, epochs);
    var result = { mistakeTrials: [], updateTrials: [], marginErrorTrials: [], bounds: {},
                   curves: {}, u: null, gamma: null, params: p, trace: tr, data: data };
    for (var t = 0; t < tr.T; t++) {
      if (tr.cases[t]) result.updateTrials.push(t);
      if (tr.cases[t] === 1) result.mistakeTrials.push(t);
      if (tr.cases[t] === 2) result.marginErrorTrials.push(t);
    }
    if (algorithm === "voted_perceptron") result.counts = votedCounts(tr, tr.T - 1);
    if (p.kernel && p.kernel !== "linear") return result;
    var u = options.u ? unit(options.u) : null, g = options.gamma, best = null;
    var searched = g === undefined || g === null;
    if (!u || searched) {
      var pick = null;
      best = bestBounds(algorithm, data, p, tr);
      Object.keys(best).forEach(function (name) {
        if (!pick || best[name].value < pick.value) pick = best[name];
      });
      result.best = best;
      // the SVM direction as the search used it (normalising it again moves its margins by
      // an ulp, enough to put a gamma at the smallest margin just above it)
      if (pick) { u = u || pick.u; g = searched ? pick.gamma : g; }
    }
    var ball = algorithm === "ballseptron";
    result.reasons = {};
    if (!u) {  // no bound applies at any SVM direction
      var first = svmDirections(data)[0];
      boundNames(algorithm, p).forEach(function (name) {
        result.bounds[name] = null;
        result.reasons[name] = first ? whyNot(name, data, tr, first.u, p, ball)
          : "no SVM comparator could be fitted";
      });
      return result;
    }
    checkReal("gamma", g, 0.0, false);
    var c = curves(algorithm, data, p, tr, u, g);
    result.u = u; result.gamma = g; result.curves = c.curves; result.mistakesSoFar = c.mistakes;
    Object.keys(c.curves).forEach(function (name) {
      var v = c.curves[name][tr.T - 1];
      // without u and gamma, each bound at its own best comparator and gamma, as evaluate
      var mine = best && !options.u && searched ? best[name] : null;
      result.bounds[name] = mine ? mine.value : best && !options.u && searched ? null
        : isFinite(v) ? v : null;
      if (result.bounds[name] === null || !isFinite(v)) {
        result.reasons[name] = whyNot(name, data, tr, u, p, ball, g);
      }
    });
    return result;
  }

  /* JSON-friendly form of run() for tests and scripts (typed arrays as plain arrays). */
  function runPlain(options) {
    var r = run(options), out = {};
    ["mistakeTrials", "updateTrials", "marginErrorTrials", "bounds", "reasons", "u", "gamma",
     "params", "counts"].forEach(function (k) { if (r[k] !== undefined) out[k] = r[k]; });
    out.curves = {};
    Object.keys(r.curves).forEach(function (k) {
      out.curves[k] = Array.from(r.curves[k], function (v) { return isFinite(v) ? v : null; });
    });
    if (r.best) {
      out.best = {};
      Object.keys(r.best).forEach(function (k) {
        out.best[k] = { value: r.best[k].value, gamma: r.best[k].gamma, u: r.best[k].u };
      });
    }
    return out;
  }

  global.pbLesson = Object.assign(global.pbLesson || {}, {
    ALGORITHMS: ALGORITHMS, SVM_C: SVM_C, run: run, runPlain: runPlain, trace: trace,
    curves: curves, bestBounds: bestBounds, boundNames: boundNames, resolveParams: resolveParams,
    checkData: checkData, kernelValue: kernelValue, votedCounts: votedCounts, unit: unit
  });
})(window);
