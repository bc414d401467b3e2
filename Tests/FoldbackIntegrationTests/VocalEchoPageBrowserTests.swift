// The singer's effects on the web pages in headless Chromium on presets/vocal-echo.toml: the de-esser's and the echo's editors and the tempo on the engineer's page, the tap button on the singer's page only where the preset allows it. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackJACKTesting
import Foundation
import XCTest

final class VocalEchoPageBrowserTests: JACKServerTestCase {
    /// The open editor's controls by their shown names (keys with spaces for underscores).
    private static let editorKeys = "return [...document.querySelectorAll('#editor .line > .name.small')].map(e => e.textContent)"

    /// presets/vocal-echo.toml (plus `extra`, written into a copy) running with its web pages, a voice into `vox_in`.
    private func start(extra: String = "") throws -> (rig: LiveControlRig, port: UInt16, tokens: [String: String]) {
        var preset = ConsolePageBrowserTests.presetPath("vocal-echo.toml")
        if !extra.isEmpty {
            let copy = try LiveControlRig.temporaryFolder() + "/vocal-echo.toml"
            try (try String(contentsOfFile: preset, encoding: .utf8) + "\n" + extra).write(toFile: copy, atomically: true, encoding: .utf8)
            preset = copy
        }
        let (rig, port, tokens) = try LiveControlRig.web(
            server: serverName, testCase: self, preset: preset, signals: [.sine(frequency: 1_000, level: -20)], playInto: ["vox_in"], recordFrom: ["iem_vox_L"])
        return (rig, port, tokens)
    }

    /// The engineer's console opens the de-esser's editor (its frequency, range and listen from the tree, the band-reduction
    /// bar) and the echo's (its note value and mode as choices, feedback and the loop's filters), and shows the tempo with its
    /// source beside the tap button; the singer's page, where the shipped preset does not allow it, has no tap button.
    func testTheEditorsShowTheDeesserAndTheEchoAndTheSingerCannotTap() throws {
        let (rig, port, tokens) = try start()
        defer { rig.close() }
        let browser = try WebDriverSession(width: 1_280, height: 800)
        defer { browser.close() }
        try browser.open("http://127.0.0.1:\(port)/?token=\(try XCTUnwrap(tokens["engineer"]))")
        try browser.wait(until: "return document.getElementById('tap') !== null && !document.body.classList.contains('offline')", "the tap button")
        XCTAssertEqual(try browser.run("return document.getElementById('tempo').textContent") as? String, "♩ 120.0 BPM (preset)", "the echo's own tempo, no setlist")
        let deesser = "strip/vox/unit/deesser/", echo = "bus/echo/unit/echo/"
        try browser.run("document.querySelector('button[data-editor=\"\(deesser)\"]').click()")
        try browser.wait(until: "const e = document.getElementById('editor'); return e !== null && e.dataset.prefix === '\(deesser)' && e.querySelector('.grbar') !== null",
                         "the de-esser's editor with its band-reduction bar")
        let deesserKeys = try XCTUnwrap(try browser.run(Self.editorKeys) as? [String])
        for key in ["frequency hz", "q", "threshold db", "range db", "listen"] { XCTAssertTrue(deesserKeys.contains(key), "the de-esser's \(key): \(deesserKeys)") }
        try browser.run("document.querySelector('button[data-editor=\"\(echo)\"]').click()")
        try browser.wait(until: "const e = document.getElementById('editor'); return e !== null && e.dataset.prefix === '\(echo)'", "the echo's editor")
        let sync = try XCTUnwrap(try browser.run("const s = document.querySelector(\"#editor select[aria-label='\(echo)sync']\"); return [...s.options].map(o => o.text)") as? [String])
        XCTAssertTrue(sync.contains("1/8.") && sync.contains("1/4") && sync.contains("1/8t"), "the note values: \(sync)")
        let mode = try XCTUnwrap(try browser.run("const s = document.querySelector(\"#editor select[aria-label='\(echo)mode']\"); return s.options[s.selectedIndex].text") as? String)
        XCTAssertEqual(mode, "ping_pong")
        let echoKeys = try XCTUnwrap(try browser.run(Self.editorKeys) as? [String])
        for key in ["sync", "mode", "feedback", "low cut hz", "high cut hz", "ducking db", "mix", "tempo bpm", "freeze"] {
            XCTAssertTrue(echoKeys.contains(key), "the echo's \(key): \(echoKeys)")
        }

        let singer = try WebDriverSession(width: 360, height: 640)
        defer { singer.close() }
        try singer.open("http://127.0.0.1:\(port)/?token=\(try XCTUnwrap(tokens["iem_vox"]))")
        try singer.wait(until: "return document.querySelector('h1.mine') !== null && !document.body.classList.contains('offline')", "the singer's page")
        XCTAssertEqual(try singer.run("return document.getElementById('tap') === null") as? Bool, true, "no tap button unless the preset allows it")
    }

    /// With `[web] musicians_tap_tempo = true` the singer's page shows the tempo and a tap button; two hits 600 ms apart
    /// (the page's own timer) set the show tempo and the echo to 100 BPM (±1.5), and the page shows `(tap)`.
    func testTheSingerTapsTheTempoWhereThePresetAllowsIt() throws {
        let (rig, port, tokens) = try start(extra: "[web]\nmusicians_tap_tempo = true\n")
        defer { rig.close() }
        let singer = try WebDriverSession(width: 360, height: 640)
        defer { singer.close() }
        try singer.open("http://127.0.0.1:\(port)/?token=\(try XCTUnwrap(tokens["iem_vox"]))")
        try singer.wait(until: "return document.getElementById('tap') !== null && !document.body.classList.contains('offline')", "the singer's tap button")
        XCTAssertEqual(try singer.run("return document.getElementById('tempo').textContent") as? String, "♩ 120.0 BPM (preset)")
        XCTAssertEqual(try singer.run("return document.documentElement.scrollWidth <= window.innerWidth") as? Bool, true, "nothing wider than the phone")
        try singer.run("""
            const tap = () => document.getElementById('tap').dispatchEvent(new PointerEvent('pointerdown'));
            tap(); setTimeout(tap, 600);
            """)
        let deadline = Date().addingTimeInterval(5)
        var bpm: Float = 120
        while abs(bpm - 100) > 1.5, Date() < deadline {
            bpm = try XCTUnwrap(try rig.request("/foldback/tempo/bpm/get")?.arguments.first?.number)
            usleep(20_000)
        }
        XCTAssertEqual(bpm, 100, accuracy: 1.5, "two taps 600 ms apart")
        try rig.waitForValue("/foldback/bus/echo/unit/echo/tempo_bpm", bpm)
        try singer.wait(until: "return document.getElementById('tempo').textContent.endsWith('BPM (tap)')", "the page shows the tapped tempo")
        print("VocalEchoPageBrowserTests: the singer's two taps 600 ms apart: \(bpm) BPM, page '\(try singer.run("return document.getElementById('tempo').textContent") ?? "")'")
    }
}
