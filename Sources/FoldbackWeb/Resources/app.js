// Foldback web surface: renders the pushed state, sends moves as {"path","value"} JSON, reconnects by itself (docs/web.md).
// SPDX-License-Identifier: GPL-3.0-or-later
"use strict";
(() => {
  const token = new URLSearchParams(location.search).get("token") || "";
  const view = document.getElementById("view");
  const root = "/foldback/";
  const FADER_MIN = -60, FADER_MAX = 12, METER_FLOOR = -60, HOLD_MS = 1500;
  let socket = null, role = null, bus = null, links = [], state = null, layout = "", retry = 500;
  let mix = "", cueFollows = false;   // the console's selected mix ("" = the strips' own faders) and whether the cue follows it
  const undo = [];                    // this page's moves, newest last: {path, previous}
  const narrow = matchMedia("(max-width: 600px)");   // a phone: the stacked page
  const controls = new Map();   // path -> {input, show}
  const meters = new Map();     // key -> {rms, peak, hold, holdAt}
  const grs = new Map();        // strip/unit -> element
  const loudness = new Map();   // bus -> its loudness line
  const dragging = new Set();

  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (key === "class") node.className = value; else if (key.startsWith("on")) node.addEventListener(key.slice(2), value); else node.setAttribute(key, value);
    }
    for (const child of children) node.append(child);
    return node;
  };

  // The state's parameter tree (docs/web.md): each control takes its range and step from its node.
  const node = (path) => ((state && state.parameters) || []).find((p) => p.path === path);
  const travel = (path) => { const p = node(path) || {}; return [p.min ?? -1, p.max ?? 1]; };

  // A number as people read it: a real minus sign, a plus on boosts; a level with its unit.
  const signed = (v, digits = 1) => (v > 0 ? "+" : v < 0 ? "−" : "") + Math.abs(v).toFixed(digits);
  const fmt = (db) => db <= FADER_MIN ? "−∞ dB" : signed(db) + " dB";
  // A strip's or bus's name on a page: the preset's `label` when it has one.
  const shownName = (x) => x.label || x.name;

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  // A parameter's live value: from the tree, else from the control showing it.
  const current = (path) => { const p = node(path); if (p) return p.value; const c = controls.get(path); return c && c.kind === "toggle" ? (c.button.classList.contains("on") ? 1 : 0) : undefined; };
  // A move made on this page: sent, and remembered (with the value before it) for Undo.
  function move(path, value, previous = current(path)) {
    if (previous !== undefined && previous !== value) undo.push({ path, previous });
    send({ path: root + path, value });
  }
  function undoLast() {
    const last = undo.pop();
    if (last) send({ path: root + last.path, value: last.previous });
  }

  // Faders send at most every 50 ms while moving, and their last value when let go.
  function fader(path, value, min = FADER_MIN, max = FADER_MAX, step = 0.5, show = fmt) {
    const out = el("span", { class: "value" }, show(value));
    const input = el("input", { type: "range", min, max, step, value, "aria-label": path });
    let timer = null;
    const toWire = () => { const v = Number(input.value); return min === FADER_MIN && v <= FADER_MIN ? -144 : v; };
    let before;   // the value when this gesture started, for Undo
    const push = () => { timer = null; send({ path: root + path, value: toWire() }); };
    input.addEventListener("input", () => { if (before === undefined) before = current(path); out.textContent = show(Number(input.value)); if (!timer) timer = setTimeout(push, 50); });
    input.addEventListener("change", () => { clearTimeout(timer); timer = null; move(path, toWire(), before); before = undefined; dragging.delete(path); });
    input.addEventListener("pointerdown", () => dragging.add(path));
    controls.set(path, { kind: "fader", input, out, show });
    return [input, out];
  }

  function toggle(path, label, on, cls) {
    const button = el("button", { class: cls + (on ? " on" : ""), "aria-pressed": String(on), "data-path": path, onclick: () => {
      move(path, button.classList.contains("on") ? 0 : 1);
    } }, label);
    controls.set(path, { kind: "toggle", button });
    return button;
  }

  // A sandboxed plugin's fault state: lit while its sandbox crashed, hung or gave garbage; pressed when lit, it re-enables the plugin (sends 0).
  function faultToggle(kind, owner, unit) {
    if (unit.faulted === undefined || unit.faulted === null) return [];
    return [toggle(`${kind}/${owner}/unit/${unit.id}/faulted`, `${unit.id} fault`, unit.faulted, "fault")];
  }

  function meter(key, vertical = false) {
    const rms = el("div", { class: "rms" }), peak = el("div", { class: "peak" });
    meters.set(key, { rms, peak, hold: METER_FLOOR, holdAt: 0, vertical });
    return el("div", { class: vertical ? "meter vertical" : "meter" }, rms, peak);
  }

  const panText = (v) => v === 0 ? "C" : (v < 0 ? "L" : "R") + Math.round(Math.abs(v) * 100);

  // A source in a musician's mix: its send level and, into a stereo bus, where it sits (the send's own pan) and,
  // for a stereo source, how wide (the send's width: 0 mono … 100 % as recorded … 200 %).
  function stripSend(strip, send) {
    const path = `strip/${strip.name}/send/${send.bus}/`;
    const present = (v) => v !== undefined && v !== null;
    const line = (name, ...control) => el("div", { class: "line" }, el("span", { class: "name small" }, name), ...control);
    const pan = present(send.pan) ? [line("pan", ...fader(path + "pan", send.pan, -1, 1, 0.05, panText))] : [];
    const width = present(send.width) ? [line("width", ...fader(path + "width", send.width, 0, 2, 0.05, (v) => Math.round(v * 100) + "%"))] : [];
    // A file source the engineer lets musicians see ([web] musicians_see_sources): playing or stopped, where, how long.
    const source = strip.source ? [el("div", { class: "small source", id: `source/${strip.name}` }, sourceText(strip.source))] : [];
    return el("div", { class: "row" },
      el("div", { class: "line" }, el("span", { class: "name", title: strip.name }, shownName(strip)), ...fader(path + "gain_db", send.gain_db)),
      ...source, ...pan, ...width, ...(window.foldbackStage ? window.foldbackStage.elevation(page, strip, send.bus) : []), meter("strip/" + strip.name));
  }

  function busRow(b, title, withUnits, muteLabel = "M") {
    const lufs = el("div", { class: "small lufs" }, "");
    loudness.set(b.name, lufs);
    const units = withUnits ? (b.units || []).flatMap((unit) => [editButton("bus", b.name, unit), toggle(`bus/${b.name}/unit/${unit.id}/bypass`, `${unit.id} byp`, unit.bypass, ""), ...faultToggle("bus", b.name, unit)]) : [];
    if (withUnits && state && state.cue) units.push(toggle(`cue/bus/${b.name}`, "cue", b.cue, "cue"));
    return el("div", { class: "row" },
      el("div", { class: "line" }, el("span", { class: "name", title: b.name }, title || shownName(b)), ...fader(`bus/${b.name}/gain_db`, b.gain_db),
        toggle(`bus/${b.name}/mute`, muteLabel, b.mute, "mute")),
      meter("bus/" + b.name), lufs, ...(units.length ? [el("div", { class: "tools" }, ...units)] : []));
  }

  // A musician's page in their words: their mix by its display name, its overall level, then what is in it.
  function renderMix(s) {
    const mine = s.buses.find((b) => b.name === bus);
    if (!mine) { view.append(el("p", {}, `This song has no mix called '${bus}'. It comes back when a song that has it starts.`)); return; }
    view.append(el("h1", { class: "mine", title: mine.name }, el("span", { class: "small" }, "Your mix"), " ", shownName(mine)),
      busRow(mine, "Whole mix", false, "Mute"));
    // The show tempo's tap button, where the preset lets musicians tap ([web] musicians_tap_tempo): hit it on the beat.
    if (s.tempo && s.musicians_tap) {
      view.append(el("div", { class: "row tools" },
        el("button", { id: "tap", onpointerdown: () => send({ command: "tempo/tap" }) }, "tap ♩"), el("span", { class: "small", id: "tempo" }, s.tempo)));
    }
    view.append(el("h2", {}, "In your mix"));
    // A binaural mix: the stage seen from above, each source a dot to drag around the listener (stage.js).
    if (window.foldbackStage && window.foldbackStage.isBinaural(page, bus)) view.append(window.foldbackStage.plot(page, s, bus));
    // Its room (`room = true`): how much of the small room around the listener they hear (editors.js's inline control).
    const room = node(`bus/${bus}/room_db`);
    if (room && window.foldbackEditors) view.append(el("div", { class: "row room" }, window.foldbackEditors.inline(page, room, `bus/${bus}/`)));
    for (const strip of s.strips) for (const send of strip.sends) if (send.bus === bus) view.append(stripSend(strip, send));
  }

  function renderEngineer(s) {
    view.append(el("h2", {}, "Show"), el("div", { class: "row tools" },
      ...[["◀ prev", "setlist/prev"], ["next ▶", "setlist/next"], ["reload", "preset/reload"], ["save", "preset/save"],
          ["rec ●", "record/start"], ["rec ■", "record/stop"]].map(([label, command]) => el("button", { onclick: () => send({ command }) }, label)),
      ...(s.tempo ? [el("button", { id: "tap", onpointerdown: () => send({ command: "tempo/tap" }) }, "tap ♩"), el("span", { class: "small", id: "tempo" }, s.tempo)] : []),
      el("span", { class: "small", id: "setlist" }, s.setlist || "")));
    if (narrow.matches) renderStacked(s); else window.foldbackConsole.render(s, page);   // console.js
    if (window.foldbackPlayback) view.append(...window.foldbackPlayback.panel(s, page, sourceText));   // playback.js: tempo, key, live/take
    if (window.foldbackStage) view.append(...window.foldbackStage.section(page, s));   // stage.js: binaural buses' source positions
    if (window.foldbackAnalyser) view.append(el("h2", {}, "Analyser"), window.foldbackAnalyser.panel(s, send));   // analyser.js
    if (links.length) {   // each musician's link; its QR code on demand ("show QR"), for a phone to scan
      const named = new Map(s.buses.map((b) => [b.name, shownName(b)]));
      const list = el("div", { class: "links", id: "links" }, ...links.map((link) => {
        const url = `${location.origin}/?token=${link.token}`;
        return el("figure", { class: "row", "data-bus": link.bus }, el("figcaption", {}, el("b", { title: link.bus }, named.get(link.bus) || link.bus), el("br"), el("a", { href: url }, url)));
      }));
      const showQR = el("button", { id: "show-qr", onclick: () => {
        for (const figure of list.querySelectorAll("figure")) {
          if (!figure.querySelector("img")) figure.prepend(el("img", { alt: `QR code of bus ${figure.dataset.bus}`, src: `qr.svg?token=${encodeURIComponent(token)}&bus=${encodeURIComponent(figure.dataset.bus)}` }));
        }
        showQR.remove();
      } }, "show QR codes");
      view.append(el("h2", {}, "Musicians' links"), el("div", { class: "tools" }, showQR), list);
    }
  }

  // The phone's engineer page: each strip with all its sends, then the cue and the buses, one column.
  function renderStacked(s) {
    view.append(el("h2", {}, "Strips"));
    for (const strip of s.strips) {
      const units = strip.units.map((unit) => {
        const gr = el("span", { class: "gr" }, "");
        grs.set(`${strip.name}/${unit.id}`, gr);
        return el("span", { class: "line" }, editButton("strip", strip.name, unit), toggle(`strip/${strip.name}/unit/${unit.id}/bypass`, `${unit.id} byp`, unit.bypass, ""), ...faultToggle("strip", strip.name, unit), gr);
      });
      view.append(el("div", { class: "row" },
        el("div", { class: "line" }, el("span", { class: "name", title: strip.name }, shownName(strip)), ...fader(`strip/${strip.name}/gain_db`, strip.gain_db),
          toggle(`strip/${strip.name}/mute`, "M", strip.mute, "mute"), toggle(`strip/${strip.name}/solo`, "S", strip.solo, "solo")),
        meter("strip/" + strip.name),
        el("div", { class: "line" }, el("span", { class: "name small" }, "pan"),
          ...fader(`strip/${strip.name}/pan`, strip.pan, ...travel(`strip/${strip.name}/pan`), 0.05, (v) => v === 0 ? "C" : (v < 0 ? "L" : "R") + Math.round(Math.abs(v) * 100))),
        ...strip.sends.map((send) => el("div", { class: "line" }, el("span", { class: "name small" }, "→ " + send.bus),
          ...fader(`strip/${strip.name}/send/${send.bus}/gain_db`, send.gain_db))),
        el("div", { class: "line" }, el("span", { class: "name small" }, "trim"), ...fader(`strip/${strip.name}/trim_db`, strip.trim_db, ...travel(`strip/${strip.name}/trim_db`))),
        el("div", { class: "tools" }, ...units,
          ...(s.cue ? [toggle(`cue/strip/${strip.name}/pfl`, "PFL", strip.pfl, "cue"), toggle(`cue/strip/${strip.name}/afl`, "AFL", strip.afl, "cue")] : []),
          ...(strip.talkback !== null && strip.talkback !== undefined ? talkButtons(strip) : []))));
    }
    if (window.foldbackGroups) view.append(...window.foldbackGroups.section(s, page, false));   // groups.js: DCAs, mute groups
    if (s.cue) {
      view.append(el("h2", {}, "Cue"), el("div", { class: "row" },
        el("div", { class: "line" }, el("span", { class: "name" }, "cue"), ...fader("cue/gain_db", s.cue.gain_db),
          el("button", { onclick: () => send({ command: "cue/clear" }) }, "clear"))));
    }
    view.append(el("h2", {}, "Buses"), ...s.buses.map((b) => busRow(b, null, true)));
  }

  // A file source's tempo, key and song position (the line beside playback.js's tempo and key faders).
  function sourceText(src) {
    const time = (t) => `${Math.floor(t / 60)}:${String(Math.floor(t % 60)).padStart(2, "0")}`;
    const shift = src.pitch_semitones + src.cents / 100;
    return `${src.playing ? "▶ playing" : "■ stopped"} · ${time(src.position_s)} / ${time(src.duration_s)} · tempo ${src.tempo.toFixed(2)} · key ${shift > 0 ? "+" : ""}${shift.toFixed(2)} st`;
  }

  // The button opening a unit's editor (editors.js).
  const editButton = (kind, owner, unit) => el("button", { class: "unit", "data-editor": `${kind}/${owner}/unit/${unit.id}/`,
    onclick: () => window.foldbackEditors.open(page, `${kind}/${owner}/unit/${unit.id}/`, unit.type, `${owner} · ${unit.id} (${unit.type})`) }, "✎ " + unit.id);

  // A talkback strip: hold to talk (released when the finger or the mouse lets go), or latch.
  function talkButtons(strip) {
    const path = `talkback/${strip.name}`;
    const hold = el("button", { class: "talk", "data-hold": path }, "hold to talk");
    const press = (on) => (event) => { event.preventDefault(); send({ path: root + path, value: on ? 1 : 0 }); };
    hold.addEventListener("pointerdown", press(true));
    for (const name of ["pointerup", "pointercancel", "pointerleave"]) hold.addEventListener(name, press(false));
    return [hold, toggle(path, "latch", strip.talkback, "talk")];
  }

  // Rebuild when the shape changes (a preset switch); otherwise update values in place.
  function applyState(s) {
    state = s;
    const take = s.soundcheck ? ` · take ${s.soundcheck.position_s ?? "stopped"}/${s.soundcheck.length_s} s, on take: ${s.soundcheck.playing.join(", ") || "none"}` : "";
    document.getElementById("preset").textContent = s.preset + (s.setlist ? " · " + s.setlist : "") + take;
    document.title = `Foldback · ${role === "engineer" ? "engineer" : shownName(s.buses.find((b) => b.name === bus) || { name: bus || "" })}`;
    const shape = JSON.stringify([role, bus, !!s.cue, mix, narrow.matches, (s.parameters || []).map((p) => p.path), s.strips.map((x) => [x.name, x.label, x.sends.map((y) => y.bus), x.units.map((u) => u.id), x.talkback === null || x.talkback === undefined]),
      s.buses.map((b) => [b.name, b.label, (b.units || []).map((u) => u.id)])]);
    if (shape !== layout) {
      layout = shape; view.textContent = ""; controls.clear(); meters.clear(); grs.clear(); loudness.clear();
      if (role === "engineer") renderEngineer(s); else renderMix(s);
      return;
    }
    const values = new Map((s.parameters || []).map((p) => [p.path, p.type === "toggle" ? p.value >= 0.5 : p.value]));
    for (const strip of s.strips) {
      const p = `strip/${strip.name}/`;
      values.set(p + "gain_db", strip.gain_db).set(p + "pan", strip.pan).set(p + "mute", strip.mute).set(p + "solo", strip.solo);
      for (const send of strip.sends) {
        values.set(`${p}send/${send.bus}/gain_db`, send.gain_db).set(`${p}send/${send.bus}/pan`, send.pan);
        if (send.width !== undefined && send.width !== null) values.set(`${p}send/${send.bus}/width`, send.width);
      }
      for (const unit of strip.units) {
        values.set(`${p}unit/${unit.id}/bypass`, unit.bypass);
        if (unit.faulted !== undefined && unit.faulted !== null) values.set(`${p}unit/${unit.id}/faulted`, unit.faulted);
      }
      values.set(p + "trim_db", strip.trim_db).set(`cue/strip/${strip.name}/pfl`, strip.pfl).set(`cue/strip/${strip.name}/afl`, strip.afl);
      if (strip.talkback !== null && strip.talkback !== undefined) values.set(`talkback/${strip.name}`, strip.talkback);
    }
    for (const b of s.buses) {
      values.set(`bus/${b.name}/gain_db`, b.gain_db).set(`bus/${b.name}/mute`, b.mute);
      for (const unit of b.units || []) {
        values.set(`bus/${b.name}/unit/${unit.id}/bypass`, unit.bypass);
        if (unit.faulted !== undefined && unit.faulted !== null) values.set(`bus/${b.name}/unit/${unit.id}/faulted`, unit.faulted);
      }
      values.set(`cue/bus/${b.name}`, b.cue);
    }
    for (const [path, control] of controls) {
      if (!values.has(path) || dragging.has(path)) continue;
      const value = values.get(path);
      if (control.kind === "fader") { control.input.value = value; control.out.textContent = control.show(Number(value)); }
      else if (control.kind === "custom") control.set(Number(value));
      else { control.button.classList.toggle("on", value); control.button.setAttribute("aria-pressed", String(value)); }
    }
    const setlist = document.getElementById("setlist");
    if (setlist) setlist.textContent = s.setlist || "";
    const tempo = document.getElementById("tempo");
    if (tempo) tempo.textContent = s.tempo || "";
    for (const strip of s.strips) {
      const line = strip.source && document.getElementById(`source/${strip.name}`);
      if (line) line.textContent = sourceText(strip.source);
    }
  }

  // One meter's [peak, rms] in dB, its peak held for HOLD_MS.
  function showLevel(key, reading, now) {
    const meter = meters.get(key);
    if (!meter || !reading) return;
    const pct = (db) => Math.max(0, Math.min(100, (db - METER_FLOOR) / -METER_FLOOR * 100)) + "%";
    meter.rms.style[meter.vertical ? "height" : "width"] = pct(reading[1]);
    if (reading[0] >= meter.hold || now - meter.holdAt > HOLD_MS) { meter.hold = reading[0]; meter.holdAt = now; }
    meter.peak.style[meter.vertical ? "bottom" : "left"] = pct(meter.hold);
  }

  // Levels as binary frames (docs/web.md): the page asks for 25 a second while its tab is visible, none while hidden;
  // each frame carries the meters that changed, by position in the last "meterkeys" message.
  let levelKeys = [], levelLayout = -1, holdTimer = null;
  const levels = new Map();   // key -> [peak, rms]
  const askMeters = () => send({ meters: document.hidden ? 0 : 25 });
  document.addEventListener("visibilitychange", askMeters);
  function applyLevels(buffer) {
    const frame = new DataView(buffer);
    if (frame.byteLength < 4 || frame.getUint8(0) !== 1 || frame.getUint16(2, true) !== levelLayout) return;
    for (let at = 4; at + 6 <= frame.byteLength; at += 6) {
      const key = levelKeys[frame.getUint16(at, true)];
      if (key !== undefined) levels.set(key, [frame.getInt16(at + 2, true) / 10, frame.getInt16(at + 4, true) / 10]);
    }
    showLevels();
  }
  function showLevels() {   // every meter, so a held peak falls back even while its level stands still
    const now = performance.now();
    for (const [key, reading] of levels) showLevel(key, reading, now);
    clearTimeout(holdTimer);
    holdTimer = setTimeout(showLevels, HOLD_MS + 50);
  }

  function applyMeters(m) {
    const now = performance.now();
    for (const [name, reading] of Object.entries(m.strips)) showLevel("strip/" + name, reading, now);
    for (const [name, reading] of Object.entries(m.buses)) showLevel("bus/" + name, reading, now);
    for (const [key, element] of grs) element.textContent = m.gr[key] > 0.05 ? "GR -" + m.gr[key].toFixed(1) : "";
    if (window.foldbackEditors) window.foldbackEditors.meters(m);   // editors.js: live gain reduction, notches
    for (const [name, element] of loudness) {
      const l = (m.loudness || {})[name], d = (m.dose || {})[name];
      element.textContent = l ? loudnessText(l, d, role === "engineer") : "";
      element.classList.toggle("warn", !!d && d[1] > 100);
    }
    document.getElementById("stats").textContent = role === "engineer" ? `DSP ${m.dsp.toFixed(1)}%   xruns ${m.xruns}` : "";
  }

  // A bus's loudness in words: how loud now (short-term, 3 s), its true peak, and for an in-ear mix today's ear
  // dose and where it ends at this level. The engineer's console columns get the same facts, shorter.
  function loudnessText(l, d, short) {
    const lu = (v, digits) => v <= -144 ? "−∞" : signed(v, digits);
    if (short) return `${lu(l[1], 1)} LUFS · peak ${lu(l[3], 1)} dB` + (d ? ` · dose ${d[0]} → ${d[1]} %` : "");
    const now = l[1] <= -144 ? "Quiet" : `Loudness ${lu(l[1], 0)} LUFS`;
    return `${now} · peak ${lu(l[3], 0)} dB` + (d ? ` · today's ear dose ${d[0]}\u00a0% (${d[1]}\u00a0% by the end at this level)` : "")
      + (d && d[1] > 100 ? " · too loud for the whole show" : "");
  }

  function setOnline(online) {
    document.body.classList.toggle("offline", !online);
    const link = document.getElementById("link");
    link.textContent = online ? "live" : "offline";
    link.classList.toggle("down", !online);
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws?token=${encodeURIComponent(token)}`);
    window.foldbackSocket = socket;   // for tests and the curious: the page's live connection
    socket.onopen = () => { retry = 500; setOnline(true); };
    socket.binaryType = "arraybuffer";
    socket.onmessage = (event) => {
      if (typeof event.data !== "string") { applyLevels(event.data); return; }
      const message = JSON.parse(event.data);
      if (message.type === "hello") { role = message.role; bus = message.bus || null; links = message.links || []; layout = ""; if (message.meters) askMeters(); }
      else if (message.type === "meterkeys") { levelKeys = message.keys; levelLayout = message.id; levels.clear(); }
      else if (message.type === "tree") window.foldbackTree.take(message);   // tree.js: the tree once, then values
      else if (message.type === "state") { if (window.foldbackTree.expand(message)) applyState(message); }
      else if (message.type === "meters") applyMeters(message);
      else if (message.type === "spectrum" && window.foldbackAnalyser) window.foldbackAnalyser.frame(message);
      else if (message.type === "error") console.warn("foldback refused:", message.reason);
    };
    socket.onclose = () => {
      setOnline(false);
      dragging.clear();
      setTimeout(connect, retry);   // the fresh state on reconnect replaces whatever the page showed
      retry = Math.min(retry * 2, 4000);
    };
  }

  // What console.js and editors.js build with: this page's helpers and its state.
  const page = {
    el, fader, toggle, meter, send, move, node, travel, fmt, signed, shownName, talkButtons, controls, grs, loudness, root, dragging,
    get state() { return state; }, get mix() { return mix; }, get cueFollows() { return cueFollows; },
    selectMix(name) {
      mix = name;
      if (cueFollows && state && state.cue) { send({ command: "cue/clear" }); if (name) send({ path: `${root}cue/bus/${name}`, value: 1 }); }
      layout = ""; applyState(state);
    },
    followCue(on) { cueFollows = on; },
    undo: undoLast, get undoDepth() { return undo.length; },
    parameters: (prefix) => ((state && state.parameters) || []).filter((p) => p.path.startsWith(prefix)),
  };
  window.foldbackPage = page;   // for tests and the curious
  narrow.addEventListener("change", () => { if (state) { layout = ""; applyState(state); } });

  setOnline(false);
  connect();
})();
