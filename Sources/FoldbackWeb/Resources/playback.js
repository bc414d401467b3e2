// Foldback web surface: the engineer's playback panel: each file source's play/stop/cue, tempo and key, the sound-check take's live/take switches per strip and all at once (docs/web.md). Served after app.js.
// SPDX-License-Identifier: GPL-3.0-or-later
"use strict";
window.foldbackPlayback = (() => {
  // Two buttons, live and take, for an input switch of the tree (`strip/<name>/input`, `soundcheck/input`): 0 live, 1 take.
  function liveTake(page, path, label) {
    const { el } = page;
    const p = page.node(path) || { value: 0 };
    const live = el("button", { class: "input live", "data-input": path, onclick: () => page.move(path, 0) }, "live");
    const take = el("button", { class: "input take", "data-input": path, onclick: () => page.move(path, 1) }, "take");
    const set = (v) => {
      live.classList.toggle("on", v < 0.5); live.setAttribute("aria-pressed", String(v < 0.5));
      take.classList.toggle("on", v >= 0.5); take.setAttribute("aria-pressed", String(v >= 0.5));
    };
    set(p.value);
    page.controls.set(path, { kind: "custom", set });
    return el("span", { class: "line" }, el("span", { class: "name small" }, label), live, take);
  }

  // A file source's tempo and key controls, ranges from the tree, and its song position (kept up by app.js).
  function source(page, strip, text) {
    const { el } = page;
    const prefix = `strip/${strip.name}/source/`;
    const row = (key, label, step, show) => {
      const p = page.node(prefix + key);
      return el("div", { class: "line" }, el("span", { class: "name small" }, label), ...page.fader(prefix + key, p.value, p.min, p.max, step, show));
    };
    const signed = (unit) => (v) => (v > 0 ? "+" : "") + v.toFixed(0) + " " + unit;
    const command = (word) => el("button", { class: "transport", "data-transport": `${strip.name}/${word}`,
      onclick: () => page.send({ command: `strip/${strip.name}/source/${word}` }) }, { play: "▶ play", stop: "■ stop", cue: "⏮ cue" }[word]);
    return el("div", { class: "row", "data-source": strip.name },
      el("div", { class: "line" }, el("span", { class: "name" }, strip.name), el("span", { class: "small", id: `source/${strip.name}` }, text)),
      el("div", { class: "line" }, command("play"), command("stop"), command("cue")),
      row("tempo", "tempo", 0.01, (v) => "×" + v.toFixed(2)), row("pitch_semitones", "key", 1, signed("st")), row("cents", "cents", 1, signed("ct")));
  }

  // The panel for state `s` (nothing when no strip plays a file and no take is loaded); `sourceText` writes a source's line.
  function panel(s, page, sourceText) {
    const { el } = page;
    const sources = s.strips.filter((strip) => strip.source && page.node(`strip/${strip.name}/source/tempo`));
    const take = s.soundcheck ? s.strips.filter((strip) => s.soundcheck.strips.includes(strip.name) && page.node(`strip/${strip.name}/input`)) : [];
    const parts = [];
    if (sources.length) parts.push(el("h2", {}, "File sources"), ...sources.map((strip) => source(page, strip, sourceText(strip.source))));
    if (take.length) {
      parts.push(el("h2", {}, "Sound check"), el("div", { class: "row tools", id: "soundcheck" },
        liveTake(page, "soundcheck/input", "all strips"), ...take.map((strip) => liveTake(page, `strip/${strip.name}/input`, strip.name))));
    }
    return parts;
  }

  return { panel };
})();
