// Foldback web surface: the engineer's console on a laptop or tablet: strips as columns, the mix selector (sends on faders), the buses, Undo (docs/web.md). Served after app.js.
// SPDX-License-Identifier: GPL-3.0-or-later
"use strict";
window.foldbackConsole = (() => {
  let page = null;

  // A vertical fader beside its meter, its value under them.
  function faderBox(path, value, meterKey) {
    const [input, out] = page.fader(path, value);
    input.classList.add("vertical");
    return [page.el("div", { class: "faderbox" }, input, page.meter(meterKey, true)), out];
  }

  // A button opening the editor of `prefix` (a unit, a bus's limiter, a strip's own settings).
  const editorButton = (label, prefix, type, title, cls = "unit") =>
    page.el("button", { class: cls, "data-editor": prefix, onclick: () => window.foldbackEditors.open(page, prefix, type, title) }, label);

  function unitButtons(kind, owner, units) {
    return units.map((unit) => {
      const gr = page.el("span", { class: "gr" }, "");
      page.grs.set(kind === "bus" ? `bus/${owner}/${unit.id}` : `${owner}/${unit.id}`, gr);
      return page.el("span", { class: "unitline" },
        editorButton(unit.id, `${kind}/${owner}/unit/${unit.id}/`, unit.type, `${owner} · ${unit.id} (${unit.type})`, "unit" + (unit.bypass ? " bypassed" : "")), gr);
    });
  }

  // A column's name: the preset's label (else its name) on up to two lines, the name and label in full as its tooltip.
  const columnName = (x, kind) => page.el("div", { class: "name", title: x.label ? `${x.label} (${kind} ${x.name})` : `${kind} ${x.name}` }, page.shownName(x));

  function stripColumn(s, strip) {
    const { el } = page;
    const name = `strip/${strip.name}`;
    const send = page.mix ? strip.sends.find((x) => x.bus === page.mix) : null;
    const column = el("div", { class: "strip", "data-strip": strip.name });
    column.append(columnName(strip, "strip"));
    if (page.mix && !send) {   // the same boxes as a fader's, so the buttons below stay level with the other columns'
      column.append(el("div", { class: "faderbox" }, el("div", { class: "small nosend" }, `no send to ${page.mix}`), page.meter(name, true)), el("span", { class: "value" }, ""));
    }
    else column.append(...faderBox(send ? `${name}/send/${page.mix}/gain_db` : `${name}/gain_db`, send ? send.gain_db : strip.gain_db, name));
    column.append(el("div", { class: "pair" }, page.toggle(`${name}/mute`, "M", strip.mute, "mute"), page.toggle(`${name}/solo`, "S", strip.solo, "solo")));
    if (!page.mix) {
      column.append(page.el("div", { class: "panbox" }, ...page.fader(`${name}/pan`, strip.pan, ...page.travel(`${name}/pan`), 0.05,
        (v) => v === 0 ? "C" : (v < 0 ? "L" : "R") + Math.round(Math.abs(v) * 100))));
    }
    column.append(editorButton("⚙ strip", `${name}/`, "settings", `${strip.name}: trim, pan, sends`, "settings"), ...unitButtons("strip", strip.name, strip.units));
    if (s.cue) column.append(el("div", { class: "pair" }, page.toggle(`cue/strip/${strip.name}/pfl`, "PFL", strip.pfl, "cue"), page.toggle(`cue/strip/${strip.name}/afl`, "AFL", strip.afl, "cue")));
    if (strip.talkback !== null && strip.talkback !== undefined) column.append(...page.talkButtons(strip));
    return column;
  }

  // A bus: its level, mute, units, limiter and room; in the buses' section also the button selecting its mix.
  function busColumn(s, b, selected) {
    const { el } = page;
    const name = `bus/${b.name}`;
    const lufs = el("div", { class: "small lufs" }, "");
    page.loudness.set(b.name, lufs);
    const column = el("div", { class: "strip bus" + (selected ? " selected" : ""), "data-bus": b.name }, columnName(b, "bus"),
      ...faderBox(`${name}/gain_db`, b.gain_db, name), page.toggle(`${name}/mute`, "M", b.mute, "mute"), ...unitButtons("bus", b.name, b.units || []));
    column.append(editorButton("⚙ bus", `${name}/`, "settings", `${b.name}: level, limiter, room`, "settings"));
    if (selected) {
      const inline = [...page.parameters(`${name}/limiter_`), ...page.parameters(`${name}/room_`)];
      column.append(...inline.map((p) => window.foldbackEditors.inline(page, p, `${name}/`)));
    }
    if (s.cue) column.append(page.toggle(`cue/bus/${b.name}`, "cue", b.cue, "cue"));
    if (!selected) column.append(el("button", { class: "select", "data-mix": b.name, onclick: () => page.selectMix(b.name) }, "mix"));
    column.append(lufs);
    return column;
  }

  // The mix selector: the strips' own faders, or one bus's sends on the faders; the cue may follow; Undo.
  function selector(s) {
    const { el } = page;
    const choose = el("select", { id: "mix", "aria-label": "mix on the faders", onchange: () => page.selectMix(choose.value) });
    choose.append(new Option("strips (their own faders)", "", false, page.mix === ""));
    for (const b of s.buses) choose.append(new Option(`sends on faders: ${page.shownName(b)}`, b.name, false, page.mix === b.name));
    const follow = el("input", { type: "checkbox", id: "cue-follows", onchange: () => page.followCue(follow.checked) });
    follow.checked = page.cueFollows;
    return el("div", { class: "row line mixbar" }, el("span", { class: "name" }, "mix"), choose,
      ...(s.cue ? [el("label", { class: "small" }, follow, " cue follows")] : []),
      el("button", { id: "undo", onclick: () => page.undo() }, "↶ undo"));
  }

  // The desk: the strips scrolling sideways on the left, every bus master pinned on the right (the selected mix's
  // first, with its limiter), so a laptop shows both at once.
  function render(s, helpers) {
    page = helpers;
    const { el } = page;
    const view = document.getElementById("view");
    const mine = s.buses.find((b) => b.name === page.mix);
    view.append(el("h2", {}, mine ? `Console · sends on faders: ${page.shownName(mine)}` : "Console"), selector(s));
    const strips = el("div", { class: "console strips", id: "strips" }, ...s.strips.map((strip) => stripColumn(s, strip)));
    const buses = el("div", { class: "console buses", id: "buses" }, ...(mine ? [busColumn(s, mine, true)] : []),
      ...s.buses.filter((b) => b !== mine).map((b) => busColumn(s, b, false)));
    view.append(el("div", { class: "desk", id: "console" }, strips, buses));
    if (window.foldbackGroups) view.append(...window.foldbackGroups.section(s, page, true));   // groups.js: DCAs, mute groups
    if (s.cue) {
      view.append(el("div", { class: "row line" }, el("span", { class: "name" }, "cue"), ...page.fader("cue/gain_db", s.cue.gain_db),
        el("button", { onclick: () => page.send({ command: "cue/clear" }) }, "clear")));
    }
  }

  return { render };
})();
