// pdlogdoctor HTML report: draws the swimlane timeline from the JSON blob in #pdld-data.
// Marks closer than BIN_PX pixels in one lane are drawn as one mark with a count, so the
// number of SVG nodes depends on the screen, not on the number of events.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var LABEL_W = 190, LANE_H = 40, AXIS_H = 40, UNTIMED_W = 120, BIN_PX = 24, PAD = 14;
  var data = JSON.parse(document.getElementById("pdld-data").textContent);
  // Events arrive as compact rows (see timeline_data in html.py); give them names once.
  data.events = data.events.map(function (row) {
    var pattern = data.patterns[row[5]];
    return { lane: row[0], t: row[1], file: data.files[row[2]], line: row[3], text: row[4], pattern: pattern.id,
      meaning: pattern.meaning, kind: row[6], lines: row[7], root: row[8] === 1,
      context: row[9] >= 0 ? data.contexts[row[9]] : [], atLeast: row[10] === 1 };
  });
  var host = document.getElementById("lanes");
  var detail = document.getElementById("detail");
  var timed = data.events.filter(function (e) { return e.t !== null; });
  var untimed = data.events.filter(function (e) { return e.t === null; });
  var t0 = data.root_time;
  var tmin = Math.min.apply(null, timed.map(function (e) { return e.t; }).concat(t0 === null ? [] : [t0]));
  var tmax = Math.max.apply(null, timed.map(function (e) { return e.t; }).concat(t0 === null ? [] : [t0]));
  if (!isFinite(tmin)) { tmin = 0; tmax = 1; }
  if (tmax - tmin < 1) { tmin -= 0.5; tmax += 0.5; }
  var span = tmax - tmin;
  var view = { from: tmin - span * 0.04, to: tmax + span * 0.04 };
  var full = { from: view.from, to: view.to };
  var selected = null;

  function el(name, attrs, parent) {
    var node = document.createElementNS(SVG, name);
    for (var key in attrs) { node.setAttribute(key, attrs[key]); }
    if (parent) { parent.appendChild(node); }
    return node;
  }
  function width() { return Math.max(640, host.clientWidth || 1200); }
  function plotRight() { return width() - (untimed.length ? UNTIMED_W : PAD); }
  function x(t) { return LABEL_W + (t - view.from) / (view.to - view.from) * (plotRight() - LABEL_W); }
  function timeOf(px) { return view.from + (px - LABEL_W) / (plotRight() - LABEL_W) * (view.to - view.from); }
  function pad2(n) { return (n < 10 ? "0" : "") + n; }
  function clock(t) {
    var d = new Date(t * 1000);
    return pad2(d.getUTCHours()) + ":" + pad2(d.getUTCMinutes()) + ":" + pad2(d.getUTCSeconds());
  }
  // A time below a year after the epoch is one whose year no line told (model/moments.py): no year shown.
  function iso(t) {
    var text = new Date(t * 1000).toISOString().replace("T", " ").replace("Z", " UTC");
    return t < 366 * 86400 ? "--" + text.slice(5) : text;
  }
  function delta(t) {
    if (t0 === null || t === null) { return "?"; }
    var s = t - t0, a = Math.abs(s), sign = s < 0 ? "\u2212" : "+";
    if (a < 60) { return sign + a.toFixed(a < 10 ? 1 : 0) + "s"; }
    if (a < 3600) { return sign + (a / 60).toFixed(1) + "m"; }
    return sign + (a / 3600).toFixed(1) + "h";
  }
  function niceStep(range, count) {
    var raw = range / count, steps = [0.001, 0.01, 0.1, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800,
      3600, 7200, 14400, 21600, 43200, 86400];
    for (var i = 0; i < steps.length; i++) { if (steps[i] >= raw) { return steps[i]; } }
    return steps[steps.length - 1];
  }
  function kindClass(e) {
    if (e.root) { return "root"; }
    if (e.kind === "unrecognised") { return "unknown"; }
    return e.kind;
  }

  // Marks closer than BIN_PX in one lane merge into one (greedy, in time order), so marks never overlap.
  function bins() {
    var last = {}, list = [];
    timed.forEach(function (e) {
      var px = x(e.t);
      if (px < LABEL_W - BIN_PX || px > plotRight() + BIN_PX) { return; }
      var mark = last[e.lane];
      if (!mark || px - mark.x0 > BIN_PX) {
        mark = last[e.lane] = { lane: e.lane, x0: px, x: px, events: [] };
        list.push(mark);
      }
      mark.events.push(e);
    });
    untimed.forEach(function (e, i) {
      var px = plotRight() + 22 + (i % 4) * 22;
      var mark = { lane: e.lane, x: px, events: [e], untimed: true };
      list.push(mark);
    });
    list.forEach(function (m) {
      m.root = m.events.some(function (e) { return e.root; });
      m.kind = m.root ? "root" : kindClass(m.events.reduce(function (a, b) { return rank(b) > rank(a) ? b : a; }));
      // Each event carries its share of its kind's lines (html.py): the sum is the lines the mark stands for.
      m.count = m.events.reduce(function (n, e) { return n + e.lines; }, 0);
      m.atLeast = m.events.some(function (e) { return e.atLeast; });
    });
    return list;
  }
  function rank(e) { return { root: 5, cause: 4, unrecognised: 3, symptom: 2, context: 1 }[kindClass(e)] || 0; }

  function draw() {
    var w = width(), h = AXIS_H + data.lanes.length * LANE_H + 10;
    host.textContent = "";
    var svg = el("svg", { width: w, height: h, viewBox: "0 0 " + w + " " + h, role: "img",
      "aria-label": "timeline of the incident" }, host);
    var defs = el("defs", {}, svg);
    var marker = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "7",
      markerHeight: "7", orient: "auto-start-reverse" }, defs);
    el("path", { d: "M0,0 L10,5 L0,10 z", class: "arrowhead" }, marker);
    data.lanes.forEach(function (lane, i) {
      var y = AXIS_H + i * LANE_H;
      var g = el("g", { class: "lane lane-" + lane.role + (lane.quiet ? " quiet" : ""), "data-lane": String(i) }, svg);
      el("rect", { x: 0, y: y, width: w, height: LANE_H, class: i % 2 ? "band odd" : "band" }, g);
      var label = el("text", { x: 8, y: y + LANE_H / 2 + 4, class: "lane-label" }, g);
      label.textContent = lane.label.length > 26 ? lane.label.slice(0, 25) + "\u2026" : lane.label;
      var title = el("title", {}, label);
      title.textContent = lane.label + (lane.quiet ? " (read: no failure line)" : "");
    });
    drawAxis(svg, h);
    if (untimed.length) {
      var ux = plotRight() + 6;
      el("line", { x1: ux, x2: ux, y1: AXIS_H - 8, y2: h, class: "untimed-sep" }, svg);
      var ut = el("text", { x: ux + 6, y: AXIS_H - 12, class: "tick" }, svg);
      ut.textContent = "no timestamp";
    }
    var marks = bins();
    drawLinks(svg, marks);
    var layer = el("g", { class: "marks" }, svg);
    marks.forEach(function (m) { drawMark(layer, m); });
  }

  function drawAxis(svg, h) {
    var step = niceStep(view.to - view.from, Math.max(3, Math.floor((plotRight() - LABEL_W) / 120)));
    var first = Math.ceil(view.from / step) * step;
    for (var t = first; t <= view.to; t += step) {
      var px = x(t);
      el("line", { x1: px, x2: px, y1: AXIS_H - 6, y2: h, class: "grid" }, svg);
      var a = el("text", { x: px, y: 14, class: "tick", "text-anchor": "middle" }, svg);
      a.textContent = clock(t);
      var d = el("text", { x: px, y: 28, class: "tick delta", "text-anchor": "middle" }, svg);
      d.textContent = delta(t);
    }
    var cap = el("text", { x: 8, y: 14, class: "tick" }, svg);
    cap.textContent = "UTC";
    var cap2 = el("text", { x: 8, y: 28, class: "tick delta" }, svg);
    cap2.textContent = data.has_root ? "\u0394 from root" : "\u0394 from first event";
    if (data.has_root && t0 >= view.from && t0 <= view.to) {
      el("line", { x1: x(t0), x2: x(t0), y1: AXIS_H - 6, y2: h, class: "root-line" }, svg);
    }
  }

  function laneY(lane) { return AXIS_H + lane * LANE_H + LANE_H / 2; }

  function drawLinks(svg, marks) {
    var where = new Map();
    marks.forEach(function (m) { m.events.forEach(function (e) { where.set(e, m); }); });
    var drawn = {};
    var g = el("g", { class: "links" }, svg);
    data.links.forEach(function (pair) {
      var a = where.get(data.events[pair[0]]), b = where.get(data.events[pair[1]]);
      if (!a || !b || a === b) { return; }
      var key = a.lane + ":" + a.x + ">" + b.lane + ":" + b.x;
      if (drawn[key]) { return; }
      drawn[key] = true;
      var x1 = a.x, y1 = laneY(a.lane), x2 = b.x, y2 = laneY(b.lane);
      var bend = Math.max(18, Math.abs(x2 - x1) / 3);
      el("path", { d: "M" + x1 + "," + y1 + " C" + (x1 + bend) + "," + y1 + " " + (x2 - bend) + "," + y2 + " " +
        x2 + "," + y2, class: "link", "marker-end": "url(#arrow)", "data-link": "1" }, g);
    });
  }

  function drawMark(layer, m) {
    var y = laneY(m.lane);
    var g = el("g", { class: "mark k-" + m.kind + (m === selected ? " selected" : ""), tabindex: "0",
      "data-mark": "1", "data-kind": m.kind, "data-count": String(m.count), role: "button" }, layer);
    if (m.root) { g.setAttribute("data-root", "1"); }
    if (m.kind === "unknown") {
      el("rect", { x: m.x - 7, y: y - 7, width: 14, height: 14, transform: "rotate(45 " + m.x + " " + y + ")" }, g);
    } else {
      el("circle", { cx: m.x, cy: y, r: m.root ? 9 : 7 }, g);
    }
    if (m.count > 1 || m.atLeast) {
      var c = el("text", { x: m.x, y: y - 11, class: "count", "text-anchor": "middle" }, g);
      c.textContent = "\u00d7" + m.count + (m.atLeast ? "+" : "");
    }
    var tip = el("title", {}, g);
    tip.textContent = m.events.map(function (e) { return e.pattern + " " + e.file + ":" + e.line; }).join("\n");
    g.addEventListener("click", function () { select(m); });
    g.addEventListener("keydown", function (ev) { if (ev.key === "Enter" || ev.key === " ") { select(m); } });
  }

  function text(tag, value, cls) {
    var node = document.createElement(tag);
    node.textContent = value;
    if (cls) { node.className = cls; }
    return node;
  }

  function select(m) {
    selected = m;
    detail.textContent = "";
    var shown = m.events.slice(0, 50);
    shown.forEach(function (e) {
      var box = document.createElement("div");
      box.className = "event k-" + kindClass(e);
      var head = text("p", "", "where");
      head.appendChild(text("code", e.file + ":" + e.line));
      head.appendChild(document.createTextNode("  " + (e.t === null ? "no timestamp" : iso(e.t)) + "  \u0394 " +
        delta(e.t) +
        (e.lines > 1 ? "  (and " + (e.atLeast ? "at least " : "") + (e.lines - 1) + " more such lines)" : "")));
      box.appendChild(head);
      var what = text("p", "", "what");
      what.appendChild(text("code", e.pattern));
      if (e.root) { what.appendChild(text("strong", " root cause")); }
      if (e.meaning) { what.appendChild(document.createTextNode(" \u2014 " + e.meaning)); }
      box.appendChild(what);
      var pre = document.createElement("pre");
      var lines = e.context.length ? e.context : [[e.line, e.text]];
      lines.forEach(function (pair) {
        var row = text("span", (pair[0] === e.line ? "> " : "  ") + String(pair[0]).padStart(7) + " | " + pair[1] +
          "\n", pair[0] === e.line ? "hit" : "");
        pre.appendChild(row);
      });
      box.appendChild(pre);
      detail.appendChild(box);
    });
    if (m.events.length > shown.length) {
      detail.appendChild(text("p", (m.events.length - shown.length) + " more events in this mark: zoom in to separate them.",
        "hint"));
    }
    draw();
  }

  function zoom(factor, centre) {
    var c = centre === undefined ? (view.from + view.to) / 2 : centre;
    var from = c - (c - view.from) * factor, to = c + (view.to - c) * factor;
    if (to - from < 0.01) { return; }
    view.from = from; view.to = to;
    draw();
  }
  host.addEventListener("wheel", function (ev) {
    ev.preventDefault();
    var rect = host.getBoundingClientRect();
    zoom(ev.deltaY < 0 ? 0.8 : 1.25, timeOf(ev.clientX - rect.left));
  }, { passive: false });
  var drag = null;
  host.addEventListener("pointerdown", function (ev) {
    if (ev.target.closest && ev.target.closest("[data-mark]")) { return; }
    drag = { x: ev.clientX, from: view.from, to: view.to };
  });
  window.addEventListener("pointermove", function (ev) {
    if (!drag) { return; }
    var dt = (ev.clientX - drag.x) / (plotRight() - LABEL_W) * (drag.to - drag.from);
    view.from = drag.from - dt; view.to = drag.to - dt;
    draw();
  });
  window.addEventListener("pointerup", function () { drag = null; });
  document.querySelectorAll("[data-zoom]").forEach(function (button) {
    button.addEventListener("click", function () {
      var how = button.getAttribute("data-zoom");
      if (how === "in") { zoom(0.5); } else if (how === "out") { zoom(2); } else {
        view.from = full.from; view.to = full.to; draw();
      }
    });
  });
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var code = button.parentNode.querySelector("code.copied");
      if (code && navigator.clipboard) { navigator.clipboard.writeText(code.textContent); }
    });
  });
  window.addEventListener("resize", draw);
  draw();
})();
