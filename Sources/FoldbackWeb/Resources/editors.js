// Foldback web surface: a unit's editor built from the parameter tree's nodes (sliders, toggles, choices), with the eq's band handles, the geq's faders, the compressor's curve and gain reduction and the de-esser's (docs/web.md). Served after app.js.
// SPDX-License-Identifier: GPL-3.0-or-later
"use strict";
window.foldbackEditors = (() => {
  const F_MIN = 20, F_MAX = 20000, EQ_DB = 18, LEVEL_FLOOR = -60;
  let page = null, panel = null, prefix = "", gr = null, grKey = "", curve = null, drawn = "", fetching = false, notchList = null;
  const token = new URLSearchParams(location.search).get("token") || "";
  const svgNS = "http://www.w3.org/2000/svg";
  const svg = (tag, attrs = {}) => { const n = document.createElementNS(svgNS, tag); for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v); return n; };
  const key = (p) => p.path.slice(prefix.length);
  const show = (p, v) => p.type === "toggle" ? (v >= 0.5 ? "on" : "off") : (Math.abs(v) >= 1000 ? (v / 1000).toFixed(2) + "k" : +v.toFixed(2)) + (p.unit ? " " + p.unit : "");

  // A slider position (0…1000) for value `v` of node `p`, and back: log nodes spread by octaves.
  const lo = (p) => p.min ?? LEVEL_FLOOR, hi = (p) => p.max ?? 12;
  const isLog = (p) => p.curve === "log" && lo(p) > 0;
  const toPos = (p, v) => isLog(p) ? Math.log(v / lo(p)) / Math.log(hi(p) / lo(p)) * 1000 : (v - lo(p)) / (hi(p) - lo(p)) * 1000;
  const fromPos = (p, x) => {
    const v = isLog(p) ? lo(p) * Math.pow(hi(p) / lo(p), x / 1000) : lo(p) + (hi(p) - lo(p)) * x / 1000;
    const step = p.step || (p.type === "integer" ? 1 : 0);
    return +(step ? Math.round(v / step) * step : v).toPrecision(5);
  };

  // Sends `path` = `value` while a gesture runs (at most every 50 ms), and as one undoable move when it ends.
  function gesture(paths) {
    let before = null, timer = null, pending = {};
    const flush = () => { timer = null; for (const [path, v] of Object.entries(pending)) page.send({ path: page.root + path, value: v }); };
    return {
      set(values) {
        if (!before) before = Object.fromEntries(paths.map((path) => [path, (page.node(path) || {}).value]));
        Object.assign(pending, values);
        if (!timer) timer = setTimeout(flush, 50);
      },
      end() {
        clearTimeout(timer); timer = null;
        for (const [path, v] of Object.entries(pending)) page.move(path, v, before ? before[path] : undefined);
        before = null; pending = {};
      },
    };
  }

  // The generic control of node `p`: a toggle, a choice, a trigger or a slider (`vertical` for a fader bank).
  function control(p, vertical = false) {
    const { el } = page;
    const label = el("span", { class: "name small", title: p.label || "" }, key(p).replace(/_/g, " "));
    if (p.type === "toggle") return el("div", { class: "line" }, label, page.toggle(p.path, show(p, 1), p.value >= 0.5, ""));
    if (p.type === "trigger") return el("div", { class: "line" }, label, el("button", { onclick: () => page.send({ path: page.root + p.path, value: 1 }) }, "▶"));
    if (p.type === "choice") {
      const select = el("select", { "aria-label": p.path, onchange: () => page.move(p.path, Number(select.value)) });
      for (const c of p.choices || []) select.append(new Option(c.name, c.value, false, c.value === p.value));
      page.controls.set(p.path, { kind: "custom", set: (v) => { select.value = v; } });
      return el("div", { class: "line" }, label, select);
    }
    const out = el("span", { class: "value" }, show(p, p.value));
    const input = el("input", { type: "range", min: 0, max: 1000, step: 1, value: toPos(p, p.value), "aria-label": p.path, class: vertical ? "vertical" : "" });
    const move = gesture([p.path]);
    input.addEventListener("input", () => { const v = fromPos(p, Number(input.value)); out.textContent = show(p, v); move.set({ [p.path]: v }); });
    input.addEventListener("change", () => move.end());
    page.controls.set(p.path, { kind: "custom", set: (v) => { input.value = toPos(p, v); out.textContent = show(p, v); } });
    return el("div", { class: vertical ? "vfader" : "line" }, label, input, out);
  }

  // The eq: its response curve (computed by the engine's code: GET /response) with the bands as handles on a
  // log-frequency × dB plane (drag: frequency and gain), each band's Q and on/off below. The geq shows the curve alone.
  function eqView(nodes) {
    const W = 600, H = 240;
    const x = (hz) => Math.log(hz / F_MIN) / Math.log(F_MAX / F_MIN) * W, y = (db) => H / 2 - db / EQ_DB * (H / 2);
    const hz = (px) => F_MIN * Math.pow(F_MAX / F_MIN, px / W), db = (py) => (H / 2 - py) / (H / 2) * EQ_DB;
    const plane = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "eqplane", id: "eq-plane" });
    for (const f of [50, 100, 200, 500, 1000, 2000, 5000, 10000]) plane.append(svg("line", { x1: x(f), x2: x(f), y1: 0, y2: H, class: "grid" }));
    for (const d of [-12, -6, 0, 6, 12]) plane.append(svg("line", { x1: 0, x2: W, y1: y(d), y2: y(d), class: d === 0 ? "grid zero" : "grid" }));
    const label = (text, at) => { const t = svg("text", { ...at, class: "axis" }); t.textContent = text; plane.append(t); };
    for (const [f, text] of [[100, "100"], [1000, "1k"], [10000, "10k"]]) label(text, { x: x(f) + 3, y: H - 4 });
    for (const d of [-12, 12]) label((d > 0 ? "+" : "") + d + " dB", { x: 3, y: y(d) - 3 });
    curve = svg("polyline", { class: "curve", points: "" });
    const start = svg("polyline", { class: "curve start", points: "" });   // the curve the editor opened on
    plane.append(start, curve);
    curve.place = (points) => {
      const line = points.hz.map((f, i) => `${x(f).toFixed(1)},${y(Math.max(-EQ_DB - 6, Math.min(EQ_DB + 6, points.db[i]))).toFixed(1)}`).join(" ");
      if (!start.getAttribute("points")) start.setAttribute("points", line);
      curve.setAttribute("points", line);
    };
    drawn = "";
    const bands = [...new Set(nodes.map((p) => (key(p).match(/^band(\d+)_/) || [])[1]).filter(Boolean))];
    for (const n of bands) {   // a band without gain (a pass filter) drags along the frequency axis only
      const f = page.node(`${prefix}band${n}_freq_hz`), g = page.node(`${prefix}band${n}_gain_db`);
      if (!f) continue;
      const gain = () => g ? page.node(g.path).value : 0;
      const handle = svg("circle", { r: 11, cx: x(f.value), cy: y(gain()), class: "handle", "data-band": n });
      const text = svg("text", { x: x(f.value), y: y(gain()) + 4, class: "handle-label" });
      text.textContent = n;
      const move = gesture(g ? [f.path, g.path] : [f.path]);
      const place = (fv, gv) => { handle.setAttribute("cx", x(fv)); handle.setAttribute("cy", y(gv)); text.setAttribute("x", x(fv)); text.setAttribute("y", y(gv) + 4); };
      const drag = (event) => {
        const box = plane.getBoundingClientRect();
        const fv = Math.round(Math.min(f.max, Math.max(f.min, hz((event.clientX - box.left) / box.width * W))));
        const gv = g ? Math.round(Math.min(g.max, Math.max(g.min, db((event.clientY - box.top) / box.height * H))) * 10) / 10 : 0;
        place(fv, gv);
        move.set(g ? { [f.path]: fv, [g.path]: gv } : { [f.path]: fv });
      };
      handle.addEventListener("pointerdown", (event) => { event.preventDefault(); try { handle.setPointerCapture(event.pointerId); } catch (_) { /* a pointer no longer down */ } handle.onpointermove = drag; drag(event); });
      handle.addEventListener("pointerup", () => { handle.onpointermove = null; move.end(); });
      plane.append(handle, text);
      bandsPlaced.push(() => { if (!handle.onpointermove) place(page.node(f.path).value, gain()); });
    }
    return page.el("div", { class: "eqview" }, plane);
  }
  let bandsPlaced = [];

  // The compressor's static curve (input → output level, from the engine's own gain computer: GET /curve, knee,
  // expander and makeup included) and its live gain reduction.
  function compressorView() {
    const S = 200, LOW = -90, map = (d) => S - (Math.max(LOW, Math.min(12, d)) - LOW) / -LOW * S;
    const plot = svg("svg", { viewBox: `0 0 ${S} ${S}`, class: "compcurve", id: "comp-curve" });
    plot.append(svg("line", { x1: 0, y1: S, x2: S, y2: 0, class: "grid" }));
    curve = svg("polyline", { points: "", class: "curve" });
    curve.endpoint = "curve";
    curve.place = (points) => curve.setAttribute("points", points.in.map((i, n) => `${((i - LOW) / -LOW * S).toFixed(1)},${map(points.out[n]).toFixed(1)}`).join(" "));
    drawn = "";
    plot.append(curve);
    return page.el("div", { class: "compview" }, plot, ...reductionBar("gain reduction"));
  }

  // A live gain-reduction bar (the compressor's, the de-esser's band reduction), fed by the meter ticks.
  function reductionBar(label) {
    gr = page.el("div", { class: "grbar" }, page.el("div", { class: "fill" }));
    return [page.el("div", { class: "small" }, label), gr];
  }

  // The feedback unit's notches in place (number, frequency, depth), each with clear, and clear all.
  function feedbackView() {
    const { el } = page;
    notchList = el("div", { class: "notches", id: "notches" });
    notchList.shown = "";
    return el("div", {}, el("div", { class: "line" }, el("b", {}, "notches"),
      el("button", { onclick: () => (notchList.placed || []).forEach(([n]) => page.send({ command: `${prefix}notch/${n}/clear` })) }, "clear all")), notchList);
  }

  // The list is rebuilt when a notch comes, goes or deepens; ages (the 4th field, whole seconds) update in place.
  function showNotches(placed) {
    const text = JSON.stringify(placed.map((n) => n.slice(0, 3)));
    const age = (s) => s === undefined ? "" : s < 60 ? `${s} s` : s < 3600 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${Math.floor(s / 3600)} h ${Math.floor(s / 60) % 60} min`;
    if (!notchList) return;
    if (text !== notchList.shown) {
      notchList.shown = text; notchList.placed = placed;
      notchList.replaceChildren(...placed.map(([n, hz, depth]) => page.el("div", { class: "line" },
        page.el("span", { class: "name small" }, `#${n}`), page.el("span", { class: "small" }, `${hz.toFixed(0)} Hz  ${depth.toFixed(1)} dB`),
        page.el("span", { class: "small age", "data-age": n }, ""),
        page.el("button", { "data-notch": n, onclick: () => page.send({ command: `${prefix}notch/${n}/clear` }) }, "clear"))));
      if (!placed.length) notchList.append(page.el("span", { class: "small" }, "no notch in place"));
    }
    for (const [n, , , seconds] of placed) {
      const cell = notchList.querySelector(`[data-age="${n}"]`);
      if (cell) cell.textContent = age(seconds);
    }
  }

  function open(helpers, unitPrefix, type, title) {
    page = helpers; prefix = unitPrefix; bandsPlaced = []; gr = null; notchList = null;
    const { el } = page;
    close();
    const [kind, owner, , id] = prefix.split("/");
    grKey = kind === "bus" ? `bus/${owner}/${id}` : `${owner}/${id}`;   // how the meters name a unit
    const nodes = page.parameters(prefix).filter((p) => type !== "settings" || !key(p).startsWith("unit/"));
    const body = el("div", { class: "editor-body" });
    if (type === "eq" || type === "geq") body.append(eqView(type === "eq" ? nodes : []));
    if (type === "compressor") body.append(compressorView());
    if (type === "deesser") body.append(page.el("div", { class: "compview" }, ...reductionBar("band reduction")));
    if (type === "feedback") body.append(feedbackView());
    const outputs = window.foldbackOutputs && window.foldbackOutputs.view(page, prefix);   // outputs.js: a plugin's meters
    if (outputs) body.append(outputs);
    if (type === "geq") {
      const faders = nodes.filter((p) => /^g\d/.test(key(p)));
      body.append(el("div", { class: "geq" }, ...faders.map((p) => control(p, true))),
        el("button", { onclick: () => faders.forEach((p) => page.move(p.path, 0)) }, "flatten"));
      nodes.splice(0, nodes.length, ...nodes.filter((p) => !faders.includes(p)));
    }
    body.append(...nodes.filter((p) => !(type === "eq" && /_(freq_hz|gain_db)$/.test(key(p)) && key(p).startsWith("band"))).map((p) => control(p)));
    panel = el("div", { id: "editor", class: "editor", role: "dialog", "aria-label": title, "data-prefix": prefix },
      el("div", { class: "line" }, el("b", { class: "title" }, title),
        el("button", { onclick: () => page.undo() }, "↶ undo"), el("button", { class: "close", onclick: close }, "✕")), body);
    document.body.append(panel);
    refreshCurve();
  }

  function close() { if (panel) panel.remove(); panel = null; curve = null; }

  // Meter ticks: the open compressor's (or de-esser's) gain reduction; eq handles follow moves made elsewhere.
  function meters(m) {
    if (gr) gr.firstChild.style.width = Math.min(100, (m.gr[grKey] || 0) / 24 * 100) + "%";
    if (notchList) showNotches((m.notches || {})[grKey] || []);
    if (panel) for (const place of bandsPlaced) place();
    if (panel && window.foldbackOutputs) window.foldbackOutputs.meters(m);
    refreshCurve();
  }

  // Fetches the open eq's response (the compressor's curve) when its values changed since the last drawing.
  function refreshCurve() {
    if (!panel || !curve || fetching) return;
    const now = JSON.stringify(page.parameters(prefix).map((p) => p.value));
    if (now === drawn) return;
    fetching = true;
    fetch(`${curve.endpoint || "response"}?token=${encodeURIComponent(token)}&unit=${encodeURIComponent(prefix.slice(0, -1))}`)
      .then((answer) => answer.ok ? answer.json() : null)
      .then((points) => { if (points && curve) { curve.place(points); drawn = now; curve.closest("svg").dataset.drawn = "1"; } })
      .catch(() => {}).finally(() => { fetching = false; });
  }

  // The generic control of node `p` outside an editor (the console's limiter), labelled by its path after `under`.
  function inline(helpers, p, under) { page = helpers; const keep = prefix; prefix = under; const made = control(p); prefix = keep; return made; }

  return { open, close, meters, inline };
})();
