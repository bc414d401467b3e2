// The engineer's console in headless Chromium on a real `foldback run`: sends on faders, the eq and geq editors, a plugin's output meters, measured by a JACK client. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackJACKTesting
import Foundation
import XCTest

/// Headless Chromium at 1280 × 800 on the engineer's page; a JACK test client plays tones and measures each
/// one's level on the buses (its amplitude at the tone's frequency, so delays and compensation do not matter).
final class ConsolePageBrowserTests: JACKServerTestCase {
    /// Frames per measurement: 0.2 s at 48 kHz, a whole number of periods of 1, 2.5 and 3 kHz.
    private static let frames = 9_600

    /// The level of the tone at `frequency` Hz on each recorded port, dBFS (amplitude by projection on sine and cosine).
    static func levels(_ rig: LiveControlRig, at frequency: Double) throws -> [Double] {
        let recording = try rig.client.record(frames: frames, settleFrames: 9_600, attempts: 5)
        return recording.channels.map { samples in
            var sine = 0.0, cosine = 0.0
            for (index, sample) in samples.enumerated() {
                let phase = 2 * Double.pi * frequency * Double(index) / 48_000
                sine += Double(sample) * sin(phase)
                cosine += Double(sample) * cos(phase)
            }
            return decibels(2 / Double(samples.count) * (sine * sine + cosine * cosine).squareRoot())
        }
    }

    /// presets/monitor-console.toml with a −30 dBFS 1 kHz tone in both guitar inputs, the client recording
    /// `iem_vox_L` and `foh_L`, the reverb return muted, and the engineer's page open (at 1280 × 800 unless `size` says).
    static func guitarOnTheConsole(
        server: String, testCase: JACKServerTestCase, size: (width: Int, height: Int) = (1_280, 800)
    ) throws -> (rig: LiveControlRig, browser: WebDriverSession) {
        let tone = TestSignal.sine(frequency: 1_000, level: -30)
        let (rig, port, tokens) = try LiveControlRig.web(
            server: server, testCase: testCase, preset: presetPath("monitor-console.toml"), signals: [tone, tone],
            playInto: ["gtr_in_L", "gtr_in_R"], recordFrom: ["iem_vox_L", "foh_L"])
        do {
            try rig.osc.send(OSCMessage("/foldback/strip/verb_ret/mute", [.float(1)]))   // no reverb return at the tone's frequency
            try rig.waitForValue("/foldback/strip/verb_ret/mute", 1)
            let browser = try WebDriverSession(width: size.width, height: size.height)
            do {
                try browser.open("http://127.0.0.1:\(port)/?token=\(try XCTUnwrap(tokens["engineer"]))")
            } catch {
                browser.close()
                throw error
            }
            return (rig, browser)
        } catch {
            rig.close()
            throw error
        }
    }

    /// Moves the page's range input `fader` (a JavaScript expression) to `value` as a touch drag ends (input, change),
    /// waits until OSC reads `value` at `path`, and returns the 1 kHz tone's level on the rig's first recorded port
    /// before and after the move, dBFS.
    static func moveAndMeasure(
        _ browser: WebDriverSession, rig: LiveControlRig, fader: String, path: String, to value: Float
    ) throws -> (before: Double, after: Double) {
        let before = try levels(rig, at: 1_000)[0]
        try browser.run("const f = \(fader); f.value = \(value); f.dispatchEvent(new Event('input')); f.dispatchEvent(new Event('change'));")
        try rig.waitForValue(path, value)
        return (before, try levels(rig, at: 1_000)[0])
    }

    static func presetPath(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("presets").appendingPathComponent(name).path
    }

    /// presets/monitor-console.toml: the engineer selects the `iem_vox` mix and raises the `gtr` fader, now the guitar's
    /// send into iem_vox, by 6 dB: the guitar in iem_vox rises 6 dB ±0.1 while front of house stays; Undo puts it back.
    func testSendsOnFadersMoveTheGuitarInTheSingersMixOnly() throws {
        let (rig, browser) = try Self.guitarOnTheConsole(server: serverName, testCase: self)
        defer { browser.close(); rig.close() }
        try browser.wait(until: "return document.getElementById('mix') !== null && !document.body.classList.contains('offline')", "the mix selector")
        let before = try Self.levels(rig, at: 1_000)

        try browser.run("const m = document.getElementById('mix'); m.value = 'iem_vox'; m.dispatchEvent(new Event('change'));")
        let fader = #"document.querySelector('#console input[aria-label="strip/gtr/send/iem_vox/gain_db"]')"#
        try browser.wait(until: "return \(fader) !== null", "the guitar's send into iem_vox on its fader")
        XCTAssertEqual(try browser.run(#"return document.querySelector('#console input[aria-label="strip/gtr/gain_db"]') === null"#) as? Bool, true,
                       "the strip's own fader gives way to its send")
        XCTAssertEqual(try browser.run(#"return document.querySelector('#console .strip.bus.selected[data-bus="iem_vox"]') !== null"#) as? Bool, true,
                       "the selected bus at the end of the row")
        XCTAssertEqual(try browser.run("return document.documentElement.scrollWidth <= window.innerWidth") as? Bool, true, "the console scrolls inside its row")
        try browser.run("const f = \(fader); f.value = -4; f.dispatchEvent(new Event('input')); f.dispatchEvent(new Event('change'));")
        try rig.waitForValue("/foldback/strip/gtr/send/iem_vox/gain_db", -4)
        let after = try Self.levels(rig, at: 1_000)
        print("console sends on faders: gtr in iem_vox \(before[0]) → \(after[0]) dBFS, in foh \(before[1]) → \(after[1]) dBFS")
        XCTAssertEqual(after[0] - before[0], 6, accuracy: 0.1, "the guitar's send into iem_vox moved by the fader's 6 dB")
        XCTAssertEqual(after[1] - before[1], 0, accuracy: 0.1, "front of house did not move")
        if let shots = ProcessInfo.processInfo.environment["FOLDBACK_SCREENSHOTS"] {
            try browser.wait(until: "return [...document.querySelectorAll('.meter.vertical .rms')].some(e => parseFloat(e.style.height) > 0)", "moving meters")
            try browser.screenshot().write(to: URL(fileURLWithPath: shots + "/web-console.png"))
        }
        try browser.run("document.getElementById('undo').click()")
        try rig.waitForValue("/foldback/strip/gtr/send/iem_vox/gain_db", -10)

        // Every unit opens an editor built from the tree; the special views where a unit has one.
        for (unit, view) in [("strip/vox/unit/comp/", ".compcurve[data-drawn='1']"), ("bus/wedge/unit/ring_out/", ".geq"), ("bus/wedge/unit/fbx/", "#notches"),
                             ("bus/verb/unit/plate/", "input[aria-label='bus/verb/unit/plate/decay_s']"), ("bus/foh/unit/tone/", "#eq-plane")] {
            try browser.run("document.querySelector('button[data-editor=\"\(unit)\"]').click()")
            try browser.wait(until: "const e = document.getElementById('editor'); return e !== null && e.dataset.prefix === '\(unit)' && e.querySelector(\"\(view)\") !== null",
                             "the editor of \(unit)")
        }
        XCTAssertEqual(try browser.run("return document.querySelectorAll('#editor circle.handle').length") as? Int, 2, "foh's tone eq: a handle per band")
        XCTAssertEqual(try browser.run("return document.querySelectorAll(\"#editor select[aria-label$='_type']\").length") as? Int, 2, "and a type selector per band")
        try browser.run("document.querySelector('button[data-editor=\"bus/wedge/unit/ring_out/\"]').click()")
        XCTAssertEqual(try browser.run("return document.querySelectorAll('#editor .geq input[type=range]').length") as? Int, 31, "the geq's 31 faders")
    }

    /// Keys with an eq (one flat bell) and a vocal into `iem`, whose geq is flat; a 3 kHz tone on the keys,
    /// 2.5 kHz on the vocal. The engineer drags the eq's band to −6 dB at 3 kHz and the geq's 2.5 kHz fader to −9 dB;
    /// each tone on `iem` falls by that ±0.2 dB. The eq editor on a phone is the docs' screenshot.
    func testTheEQBandAndTheGraphicEQFaderCutTheirTones() throws {
        let (rig, port, tokens) = try LiveControlRig.web(server: serverName, testCase: self, extraStrip: """
            [[strip]]
            name = "keys"
            send = [{ bus = "iem" }]
            unit = [{ type = "eq", id = "eq", band = [{ type = "peak", freq_hz = 1000.0, gain_db = 0.0, q = 1.0 }] }]
            """, signals: [.sine(frequency: 2_500, level: -20), .sine(frequency: 3_000, level: -20)], playInto: ["vox_in", "keys_in"], extraBus: """
              [[bus.unit]]
              type = "geq"
              id = "ring_out"
            """, recordFrom: ["iem"])
        defer { rig.close() }
        let link = "http://127.0.0.1:\(port)/?token=\(try XCTUnwrap(tokens["engineer"]))"
        let browser = try WebDriverSession(width: 1_280, height: 800)
        defer { browser.close() }
        try browser.open(link)
        let eqButton = #"document.querySelector('#console button[data-editor="strip/keys/unit/eq/"]')"#
        try browser.wait(until: "return \(eqButton) !== null && !document.body.classList.contains('offline')", "the keys' eq button")
        let flat3k = try Self.levels(rig, at: 3_000)[0], flat2k5 = try Self.levels(rig, at: 2_500)[0]

        try browser.run("\(eqButton).click()")
        try browser.wait(until: "return document.querySelector('#eq-plane circle[data-band=\"1\"]') !== null && document.getElementById('eq-plane').dataset.drawn === '1'",
                         "the eq editor with its band and the response curve")
        try browser.run("""
            const plane = document.getElementById('eq-plane'), handle = plane.querySelector('circle[data-band="1"]'), box = plane.getBoundingClientRect();
            const at = (hz, db) => ({ clientX: box.left + Math.log(hz / 20) / Math.log(1000) * box.width, clientY: box.top + (0.5 - db / 36) * box.height,
                                      bubbles: true, pointerId: 1 });
            handle.dispatchEvent(new PointerEvent('pointerdown', at(1000, 0)));
            handle.dispatchEvent(new PointerEvent('pointermove', at(2000, -3)));
            handle.dispatchEvent(new PointerEvent('pointermove', at(3000, -6)));
            handle.dispatchEvent(new PointerEvent('pointerup', at(3000, -6)));
            """)
        try rig.waitForValue("/foldback/strip/keys/unit/eq/band1_gain_db", -6)
        let frequency = try XCTUnwrap(try rig.request("/foldback/strip/keys/unit/eq/band1_freq_hz/get")?.arguments.first?.number)
        XCTAssertEqual(Double(frequency), 3_000, accuracy: 3, "the band dragged to 3 kHz")
        let cut3k = try Self.levels(rig, at: 3_000)[0], kept2k5 = try Self.levels(rig, at: 2_500)[0]

        try browser.run("document.querySelector('#editor .close').click()")
        let geqButton = #"document.querySelector('button[data-editor="bus/iem/unit/ring_out/"]')"#
        try browser.run("\(geqButton).click()")
        let geqFader = #"document.querySelector('#editor input[aria-label="bus/iem/unit/ring_out/g2k5"]')"#
        try browser.wait(until: "return \(geqFader) !== null", "the geq's 2.5 kHz fader")
        try browser.run("""
            const f = \(geqFader), p = window.foldbackPage.node(f.getAttribute('aria-label'));
            f.value = (-9 - p.min) / (p.max - p.min) * 1000; f.dispatchEvent(new Event('input')); f.dispatchEvent(new Event('change'));
            """)
        try rig.waitForValue("/foldback/bus/iem/unit/ring_out/g2k5", -9)
        let cut2k5 = try Self.levels(rig, at: 2_500)[0]
        print("console eq editors: 3 kHz \(flat3k) → \(cut3k) dBFS, 2.5 kHz \(flat2k5) → \(kept2k5) (eq moved) → \(cut2k5) dBFS (geq moved)")
        XCTAssertEqual(cut3k - flat3k, -6, accuracy: 0.2, "the eq band at −6 dB, 3 kHz")
        XCTAssertEqual(kept2k5 - flat2k5, 0, accuracy: 0.2, "the vocal does not pass the keys' eq")
        XCTAssertEqual(cut2k5 - flat2k5, -9, accuracy: 0.2, "the geq's 2.5 kHz fader at −9 dB")

        try browser.run("window.foldbackPage.undo()")
        try rig.waitForValue("/foldback/bus/iem/unit/ring_out/g2k5", 0)

        // The band's type from its list: a peak becomes a high shelf in the engine.
        try browser.run("\(eqButton).click()")
        let typeList = #"document.querySelector('#editor select[aria-label="strip/keys/unit/eq/band1_type"]')"#
        try browser.wait(until: "return \(typeList) !== null", "the band's type list")
        try browser.run("const s = \(typeList); s.value = [...s.options].find((o) => o.text === 'high_shelf').value; s.dispatchEvent(new Event('change'));")
        try rig.waitForValue("/foldback/strip/keys/unit/eq/band1_type", 2)

        if let shots = ProcessInfo.processInfo.environment["FOLDBACK_SCREENSHOTS"] {
            let phone = try WebDriverSession(width: 360, height: 780)
            defer { phone.close() }
            try phone.open(link)
            let stacked = #"document.querySelector('button[data-editor="strip/keys/unit/eq/"]')"#
            try phone.wait(until: "return \(stacked) !== null && !document.body.classList.contains('offline')", "the eq button on the phone")
            try phone.run("\(stacked).click()")
            try phone.wait(until: "return document.getElementById('eq-plane')?.dataset.drawn === '1'", "the phone's eq curve")
            XCTAssertEqual(try phone.run("return document.documentElement.scrollWidth <= window.innerWidth") as? Bool, true, "the editor fits the phone")
            try phone.screenshot().write(to: URL(fileURLWithPath: shots + "/web-eq-phone.png"))
        }
    }

    /// x42 darc on the keys, a −20 dBFS 1 kHz tone into them: its editor shows the plugin's `Signal Level` output
    /// as a meter, moving with the tone (a value well above the −80 dB floor it shows in silence).
    func testAPluginsOutputsAreMetersInItsEditor() throws {
        let (rig, port, tokens) = try LiveControlRig.web(server: serverName, testCase: self, extraStrip: """
            [[strip]]
            name = "keys"
            send = [{ bus = "iem" }]
            unit = [{ type = "lv2", id = "darc", uri = "http://gareus.org/oss/lv2/darc#mono" }]
            """, signals: [.sine(frequency: 1_000, level: -20), .sine(frequency: 1_000, level: -20)], playInto: ["vox_in", "keys_in"], recordFrom: ["iem"])
        defer { rig.close() }
        let browser = try WebDriverSession(width: 1_280, height: 800)
        defer { browser.close() }
        try browser.open("http://127.0.0.1:\(port)/?token=\(try XCTUnwrap(tokens["engineer"]))")
        let button = #"document.querySelector('#console button[data-editor="strip/keys/unit/darc/"]')"#
        try browser.wait(until: "return \(button) !== null && !document.body.classList.contains('offline')", "the keys' plugin button")
        try browser.run("\(button).click()")
        let meter = #"document.querySelector('#unit-outputs [data-output="strip/keys/unit/darc/rms"]')"#
        try browser.wait(until: "const m = \(meter); return m !== null && m.textContent.includes('Signal Level') && parseFloat(m.querySelector('.value').dataset.value) > -40",
                         "the plugin's Signal Level meter following the tone")
        let shown = try browser.run("return parseFloat(\(meter).querySelector('.value').dataset.value)") as? Double
        print("darc Signal Level in the editor: \(shown ?? .nan) dB for a −20 dBFS tone")
        XCTAssertEqual(shown ?? 0, -20, accuracy: 3, "about the tone's level")
    }
}
