// Foldback web surface: the engineer's analyser panel: source selector, ⅓-octave bars, FFT line with peak hold, geq faders and feedback notches on one log frequency axis (docs/web.md). Served after app.js.
// SPDX-License-Identifier: GPL-3.0-or-later
"use strict";
window.foldbackAnalyser = (() => {
  const F_MIN = 20, F_MAX = 20000, DB_MIN = -100, DB_MAX = 0, GEQ_RANGE = 15;
  const LABELS = [[31.5, "31"], [63, "63"], [125, "125"], [250, "250"], [500, "500"], [1000, "1k"], [2000, "2k"], [4000, "4k"], [8000, "8k"], [16000, "16k"]];
  let selected = "off", changedAt = 0, canvas = null, select = null, readout = null, last = null, pending = false, frames = 0;

  const logX = (hz, width) => Math.log(hz / F_MIN) / Math.log(F_MAX / F_MIN) * width;
  const dbY = (db, height) => (DB_MAX - Math.max(DB_MIN, Math.min(DB_MAX, db))) / (DB_MAX - DB_MIN) * height;
  const geqY = (db, height) => height / 2 - db / GEQ_RANGE * height * 0.4;

  // The panel for state `s`; `send` sends one request. A source kept from before a rebuild is asked for again.
  function panel(s, send) {
    const sources = ["off", ...s.buses.map((b) => `bus/${b.name}`), ...s.strips.flatMap((x) => [`strip/${x.name}/pre`, `strip/${x.name}/post`])];
    if (!sources.includes(selected)) selected = "off";
    select = document.createElement("select");
    select.id = "analyser-source";
    select.setAttribute("aria-label", "analyser source");
    for (const source of sources) select.append(new Option(source === "off" ? "analyser off" : source, source, false, source === selected));
    select.addEventListener("change", () => { selected = select.value; changedAt = performance.now(); last = null; send({ analyser: selected }); draw(); });
    readout = document.createElement("span");
    readout.className = "small analyser-readout";
    canvas = document.createElement("canvas");
    canvas.id = "analyser";
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", "spectrum of the analyser's source");
    const row = document.createElement("div");
    row.className = "row analyser";
    const line = document.createElement("div");
    line.className = "line";
    line.append(select, readout);
    row.append(line, canvas);
    if (selected !== "off") send({ analyser: selected });
    requestAnimationFrame(draw);
    return row;
  }

  // A spectrum message: kept and drawn at the next animation frame. A source selected elsewhere (another page,
  // OSC) is followed, unless this page changed its own selection within the last second (frames still in flight).
  function frame(message) {
    if (message.source !== selected) {
      if (performance.now() - changedAt < 1000 || !select || ![...select.options].some((o) => o.value === message.source)) return;
      selected = message.source; select.value = selected;
    }
    last = message;
    frames += 1;
    if (!pending) { pending = true; requestAnimationFrame(() => { pending = false; draw(); }); }
  }

  function draw() {
    if (!canvas || !canvas.isConnected) return;
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth, height = canvas.clientHeight;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio); canvas.height = Math.round(height * ratio);
    }
    const g = canvas.getContext("2d");
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.fillStyle = "#0b0d10"; g.fillRect(0, 0, width, height);
    g.font = "11px system-ui, sans-serif"; g.lineWidth = 1;
    g.strokeStyle = "#26303a"; g.fillStyle = "#8a96a3";
    for (const [hz, label] of LABELS) {
      const x = logX(hz, width);
      g.beginPath(); g.moveTo(x, 0); g.lineTo(x, height); g.stroke();
      g.fillText(label, Math.min(x + 2, width - g.measureText(label).width - 2), height - 3);
    }
    for (let db = DB_MIN + 20; db < DB_MAX; db += 20) {
      const y = dbY(db, height);
      g.beginPath(); g.moveTo(0, y); g.lineTo(width, y); g.stroke();
      g.fillText(String(db), width - 26, y - 2);
    }
    const m = last;
    if (!m) { readout.textContent = selected === "off" ? "" : "waiting…"; return; }
    // ⅓-octave bars
    const edge = Math.pow(10, 1 / 20);
    g.fillStyle = "rgba(79, 179, 255, 0.35)";
    m.bands.forEach((db, i) => {
      const x0 = logX(m.bands_hz[i] / edge, width), x1 = logX(m.bands_hz[i] * edge, width), y = dbY(db, height);
      g.fillRect(x0 + 0.5, y, Math.max(1, x1 - x0 - 1), height - y);
    });
    // the FFT line and its peak hold
    const trace = (values, style, lineWidth) => {
      g.strokeStyle = style; g.lineWidth = lineWidth; g.beginPath();
      values.forEach((db, i) => {
        const hz = m.line_from_hz * Math.pow(m.line_to_hz / m.line_from_hz, i / (values.length - 1));
        const x = logX(hz, width), y = dbY(db, height);
        if (i === 0) g.moveTo(x, y); else g.lineTo(x, y);
      });
      g.stroke();
    };
    trace(m.hold, "rgba(255, 210, 79, 0.7)", 1);
    trace(m.line, "#e8ecf1", 1.5);
    // the source's geq faders (0 dB at mid-height, ±15 dB over 80 % of it) and feedback notches
    if ((m.geq || []).length) {
      g.strokeStyle = "rgba(255, 159, 67, 0.4)"; g.setLineDash([4, 4]); g.beginPath(); g.moveTo(0, height / 2); g.lineTo(width, height / 2); g.stroke();
      g.setLineDash([]); g.fillStyle = "#ff9f43"; g.fillText(`${m.geq.map((geq) => geq.unit).join(", ")} ±${GEQ_RANGE} dB`, 4, height / 2 - 4);
    }
    for (const geq of m.geq || []) {
      g.strokeStyle = "#ff9f43"; g.fillStyle = "#ff9f43"; g.lineWidth = 1.5; g.beginPath();
      geq.bands_db.forEach((db, i) => {
        const x = logX(m.bands_hz[i], width), y = geqY(db, height);
        if (i === 0) g.moveTo(x, y); else g.lineTo(x, y);
      });
      g.stroke();
      geq.bands_db.forEach((db, i) => { if (db !== 0) g.fillRect(logX(m.bands_hz[i], width) - 2, geqY(db, height) - 2, 4, 4); });
    }
    g.strokeStyle = "#ff5a4f"; g.fillStyle = "#ff5a4f"; g.lineWidth = 2;
    for (const notch of m.notches || []) {
      const x = logX(notch.freq_hz, width);
      g.beginPath(); g.moveTo(x, 0); g.lineTo(x, height * 0.25); g.stroke();
      g.fillText(`${Math.round(notch.freq_hz)} ${notch.depth_db.toFixed(0)}`, Math.min(x + 3, width - 60), 12);
    }
    const peak = m.peak_hz >= 1000 ? (m.peak_hz / 1000).toFixed(2) + " kHz" : Math.round(m.peak_hz) + " Hz";
    readout.textContent = `peak ${peak} ${m.peak_db.toFixed(1)} dBFS`;
    canvas.dataset.peakHz = String(m.peak_hz);
    canvas.dataset.source = m.source;
    canvas.dataset.frames = String(frames);
  }

  window.addEventListener("resize", () => requestAnimationFrame(draw));
  return { panel, frame };
})();
