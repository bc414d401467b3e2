// Foldback web surface: a binaural bus's stage seen from above, each send a dot around the listener, dragged to set its azimuth and distance (docs/binaural.md). Served after app.js.
// SPDX-License-Identifier: GPL-3.0-or-later
"use strict";
window.foldbackStage = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const SIZE = 300, CENTRE = SIZE / 2, RADIUS = 135, HEAD = 12;
  const svg = (tag, attrs) => { const n = document.createElementNS(NS, tag); for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v); return n; };

  // Whether `bus` is binaural: the tree gives its sends a position (`strip/<s>/send/<bus>/azimuth_deg`) instead of a pan.
  const isBinaural = (page, bus) => page.parameters("strip/").some((p) => p.path.endsWith(`/send/${bus}/azimuth_deg`));

  // Distance ↔ radius on the plot: logarithmic over the tree's range (0.2 … 20 m), so near sources stay apart; the nearest
  // sits just outside the head.
  function scale(range) {
    const [lo, hi] = range, span = Math.log(hi / lo);
    return {
      radius: (d) => HEAD + (RADIUS - HEAD) * Math.log(Math.min(Math.max(d, lo), hi) / lo) / span,
      distance: (r) => lo * Math.exp(span * Math.min(Math.max((r - HEAD) / (RADIUS - HEAD), 0), 1)),
    };
  }

  // The plot of `bus`: one dot per send (its strip's name beside it), dragged with a finger or the mouse (pointer
  // events). While dragging, a move goes out at most every 50 ms, as a fader's; the last one on release, through
  // page.move (so Undo takes it back). Values the engine pushes move the dots unless this page is dragging them.
  function plot(page, s, bus) {
    const { el } = page;
    const sends = s.strips.filter((strip) => strip.sends.some((x) => x.bus === bus));
    const area = svg("svg", { viewBox: `0 0 ${SIZE} ${SIZE}`, class: "stage", "data-stage": bus, role: "img", "aria-label": `where each source sits around you in ${bus}` });
    area.style.touchAction = "none";   // a drag moves a dot, not the page
    for (const r of [1, 3, 10]) area.append(svg("circle", { cx: CENTRE, cy: CENTRE, class: "ring", "data-m": r }));
    area.append(svg("path", { d: `M ${CENTRE - 7} ${CENTRE - HEAD + 2} L ${CENTRE} ${CENTRE - HEAD - 8} L ${CENTRE + 7} ${CENTRE - HEAD + 2} Z`, class: "nose" }),
      svg("circle", { cx: CENTRE, cy: CENTRE, r: HEAD, class: "head" }));
    let rings = null;
    for (const strip of sends) {
      const base = `strip/${strip.name}/send/${bus}/`, az = base + "azimuth_deg", dist = base + "distance_m";
      const a = page.node(az), d = page.node(dist);
      if (!a || !d) continue;
      const map = scale([d.min, d.max]);
      if (!rings) { rings = map; for (const ring of area.querySelectorAll(".ring")) ring.setAttribute("r", map.radius(Number(ring.dataset.m))); }
      const dot = svg("circle", { r: 11, class: "source", "data-send": base, tabindex: "0" });
      const label = svg("text", { class: "source-name" });
      label.textContent = page.shownName(strip);
      const where = { azimuth: a.value, distance: d.value };
      const draw = () => {
        const rad = where.azimuth * Math.PI / 180, r = map.radius(where.distance);
        const x = CENTRE + r * Math.sin(rad), y = CENTRE - r * Math.cos(rad);
        dot.setAttribute("cx", x.toFixed(1)); dot.setAttribute("cy", y.toFixed(1));
        label.setAttribute("x", (x + 14).toFixed(1)); label.setAttribute("y", (y + 4).toFixed(1));
        dot.setAttribute("aria-label", `${strip.name}: ${Math.round(where.azimuth)}°, ${where.distance.toFixed(1)} m`);
      };
      draw();
      page.controls.set(az, { kind: "custom", set: (v) => { where.azimuth = v; draw(); } });
      page.controls.set(dist, { kind: "custom", set: (v) => { where.distance = v; draw(); } });
      // The pointer's place on the plot, in the plot's own units, as an azimuth (−180 … 180, 0 ahead) and a distance.
      const toPosition = (event) => {
        const box = area.getBoundingClientRect();
        const x = (event.clientX - box.left) * SIZE / box.width - CENTRE, y = (event.clientY - box.top) * SIZE / box.height - CENTRE;
        const azimuth = Math.round(Math.atan2(x, -y) * 180 / Math.PI);
        return { azimuth: azimuth === -180 ? 180 : azimuth, distance: Math.round(map.distance(Math.hypot(x, y)) * 100) / 100 };
      };
      let before = null, timer = null;
      const push = () => { timer = null; page.send({ path: page.root + az, value: where.azimuth }); page.send({ path: page.root + dist, value: where.distance }); };
      dot.addEventListener("pointerdown", (event) => {
        event.preventDefault();
        dot.setPointerCapture(event.pointerId);
        before = { ...where };
        page.dragging.add(az); page.dragging.add(dist);
        dot.classList.add("held");
      });
      dot.addEventListener("pointermove", (event) => {
        if (!before) return;
        Object.assign(where, toPosition(event)); draw();
        if (!timer) timer = setTimeout(push, 50);
      });
      const release = () => {
        if (!before) return;
        clearTimeout(timer); timer = null;
        page.move(az, where.azimuth, before.azimuth); page.move(dist, where.distance, before.distance);
        before = null;
        page.dragging.delete(az); page.dragging.delete(dist);
        dot.classList.remove("held");
      };
      dot.addEventListener("pointerup", release);
      dot.addEventListener("pointercancel", release);
      area.append(dot, label);
    }
    return el("div", { class: "row stagebox" }, area);
  }

  // A send's elevation (−40 … 90°) on a binaural bus, beside its level: a fader with the tree's range.
  function elevation(page, strip, bus) {
    const path = `strip/${strip.name}/send/${bus}/elevation_deg`, p = page.node(path);
    if (!p) return [];
    return [page.el("div", { class: "line" }, page.el("span", { class: "name small" }, "height"),
      ...page.fader(path, p.value, p.min, p.max, 1, (v) => `${Math.round(v)}°`))];
  }

  // The engineer's view: every binaural bus's plot, each with its sends' elevations.
  function section(page, s) {
    const buses = s.buses.filter((b) => isBinaural(page, b.name));
    if (!buses.length) return [];
    return [page.el("h2", {}, "Binaural stages"), ...buses.flatMap((b) => [
      page.el("h3", { title: b.name }, page.shownName(b)), plot(page, s, b.name),
      ...s.strips.filter((strip) => strip.sends.some((x) => x.bus === b.name)).map((strip) =>
        page.el("div", { class: "row" }, page.el("div", { class: "line" }, page.el("span", { class: "name", title: strip.name }, page.shownName(strip))),
          ...elevation(page, strip, b.name))),
    ])];
  }

  return { isBinaural, plot, elevation, section };
})();
