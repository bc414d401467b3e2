// Foldback web surface: the engineer's groups: each DCA's fader and mute and each mute group's button, from the state's groups and the tree (docs/web.md). Served after app.js.
// SPDX-License-Identifier: GPL-3.0-or-later
"use strict";
window.foldbackGroups = (() => {
  // The "Groups" heading and row, or nothing without groups: columns beside each other on the console,
  // stacked rows on a phone. Moves go out as any parameter's, at the paths the state gives each group.
  function section(s, page, asColumns) {
    const groups = s.groups || [];
    if (!groups.length) return [];
    const { el } = page;
    const live = (path) => { const p = page.node(path); return p ? p.value : 0; };
    const members = (g) => el("div", { class: "small members", title: g.strips.join(", ") }, g.strips.join(", "));
    const dcas = groups.filter((g) => g.kind === "dca").map((g) => {
      const [input, out] = page.fader(g.gain, live(g.gain));
      const mute = page.toggle(g.mute, "M", live(g.mute) >= 0.5, "mute");
      if (!asColumns) {
        return el("div", { class: "row", "data-dca": g.name }, el("div", { class: "line" }, el("span", { class: "name" }, g.name), input, out, mute), members(g));
      }
      input.classList.add("vertical");
      return el("div", { class: "strip dca", "data-dca": g.name }, el("div", { class: "name", title: `DCA ${g.name}` }, g.name), el("div", { class: "small members" }, "DCA"),
        el("div", { class: "faderbox" }, input), out, mute, members(g));
    });
    const mutes = groups.filter((g) => g.kind === "mute_group").map((g) => {
      const button = page.toggle(g.mute, g.name, live(g.mute) >= 0.5, "mute");
      return el("div", { class: asColumns ? "mutegroup" : "line", "data-mute-group": g.name }, button, members(g));
    });
    const muteBox = mutes.length ? [el("div", { class: asColumns ? "strip mutegroups" : "row" }, el("div", { class: "name" }, "mute groups"), ...mutes)] : [];
    return [el("h2", {}, "Groups"), el("div", { class: asColumns ? "console groups" : "groups", id: "groups" }, ...dcas, ...muteBox)];
  }

  return { section };
})();
