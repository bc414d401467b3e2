// Foldback web surface: a unit's read-only outputs (an LV2 plugin's control outputs: gain reduction, levels) as meters in its editor, described by the state's `outputs` and valued by each meter tick's (docs/web.md). Served after editors.js.
// SPDX-License-Identifier: GPL-3.0-or-later
"use strict";
window.foldbackOutputs = (() => {
  let bars = new Map();

  // The meters of the outputs under editor prefix `prefix`, or null when the unit describes none.
  function view(page, prefix) {
    bars = new Map();
    const outputs = ((page.state && page.state.outputs) || []).filter((o) => o.path.startsWith(prefix));
    if (!outputs.length) return null;
    const rows = outputs.map((o) => {
      const fill = page.el("div", { class: "fill" }), value = page.el("span", { class: "value" }, "–");
      bars.set(o.path, { o, fill, value });
      return page.el("div", { class: "line output", "data-output": o.path },
        page.el("span", { class: "name small", title: o.path }, o.label || o.path.slice(prefix.length)), page.el("div", { class: "outbar" }, fill), value);
    });
    return page.el("div", { class: "outputs", id: "unit-outputs" }, page.el("b", {}, "outputs"), ...rows);
  }

  // A meter tick: each shown output's bar across its range, and its value.
  function meters(m) {
    for (const [path, { o, fill, value }] of bars) {
      const v = (m.outputs || {})[path];
      if (v === undefined) continue;
      const lo = o.min ?? 0, hi = o.max ?? Math.max(1, v);
      fill.style.width = Math.max(0, Math.min(100, (v - lo) / (hi - lo || 1) * 100)) + "%";
      value.textContent = (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(1)) + (o.unit ? " " + o.unit : "");
      value.dataset.value = v;
    }
  }

  return { view, meters };
})();
