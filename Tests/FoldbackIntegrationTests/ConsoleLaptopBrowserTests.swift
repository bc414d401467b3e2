// The engineer's console on a laptop in headless Chromium: strips and bus masters side by side at 1280 × 800, names whole, controls level, values with units; a pinned bus fader moved and measured. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackJACKTesting
import Foundation
import XCTest

/// presets/first-show.toml (five strips, four output buses and an effect bus) on the engineer's page; a JACK test
/// client plays a 1 kHz tone into the acoustic guitar and records the singer's left ear.
final class ConsoleLaptopBrowserTests: JACKServerTestCase {
    /// Rectangles of the page's parts, as `[left, top, right, bottom]` in CSS pixels.
    private func boxes(_ browser: WebDriverSession, _ selector: String) throws -> [[Double]] {
        let raw = try browser.run("return [...document.querySelectorAll(\"\(selector)\")].map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })")
        return try XCTUnwrap(raw as? [[Any]]).map { $0.compactMap { ($0 as? NSNumber)?.doubleValue } }
    }

    func testStripsAndBusMastersSitSideBySideAt1280By800() throws {
        let (rig, port, tokens) = try LiveControlRig.web(
            server: serverName, testCase: self, preset: ConsolePageBrowserTests.presetPath("first-show.toml"),
            signals: [.sine(frequency: 1_000, level: -20)], playInto: ["gtr_in"], recordFrom: ["iem_singer_L"])
        defer { rig.close() }
        let link = "http://127.0.0.1:\(port)/?token=\(try XCTUnwrap(tokens["engineer"]))"
        let browser = try WebDriverSession(width: 1_280, height: 800)
        defer { browser.close() }
        try browser.open(link)
        let busFader = #"document.querySelector('#buses input[aria-label="bus/iem_singer/gain_db"]')"#
        try browser.wait(until: "return \(busFader) !== null && !document.body.classList.contains('offline')", "the singer's bus master")

        let strips = try boxes(browser, "#strips"), buses = try boxes(browser, "#buses")
        let busFaders = try boxes(browser, "#buses .faderbox"), stripFaders = try boxes(browser, "#strips .faderbox")
        print("console at 1280 × 800: strips \(strips), buses \(buses)")
        XCTAssertEqual(busFaders.count, 5, "every bus master, the effect bus too")
        XCTAssertEqual(stripFaders.count, 5)
        XCTAssertLessThanOrEqual(strips[0][2], buses[0][0], "the buses beside the strips, to their right")
        XCTAssertEqual(strips[0][1], buses[0][1], accuracy: 1, "on the same row")
        XCTAssertLessThanOrEqual(buses[0][2], 1_280, "the buses within the window")
        XCTAssertTrue((busFaders + stripFaders).allSatisfy { $0[3] <= 800 && $0[2] <= 1_280 }, "every fader above the fold: \(busFaders)")
        XCTAssertEqual(Set((busFaders + stripFaders).map { ($0[1] * 2).rounded() }).count, 1, "every fader starts at one height: \(busFaders + stripFaders)")
        let pans = try boxes(browser, "#strips .panbox input")
        XCTAssertEqual(pans.count, 5)
        XCTAssertEqual(Set(pans.map { ($0[1] * 2).rounded() }).count, 1, "every pan slider at one height: \(pans)")
        XCTAssertEqual(try browser.run("return document.documentElement.scrollWidth <= window.innerWidth") as? Bool, true, "the page itself never scrolls sideways")
        XCTAssertEqual(try browser.run("return getComputedStyle(document.getElementById('strips')).overflowX") as? String, "auto", "the strips scroll in their row")

        let names = try XCTUnwrap(try browser.run("""
            return [...document.querySelectorAll('#console .strip > .name')].map(e => [e.textContent, e.title, e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1]);
            """) as? [[Any]])
        print("console names: \(names)")
        XCTAssertEqual(names.map { $0[0] as? String }, ["Vocal", "Acoustic", "Keys", "Bass", "Reverb", "Front of house", "Singer's ears", "Guitar's ears", "Keys and bass ears", "verb"])
        XCTAssertTrue(names.allSatisfy { $0[2] as? Bool == true }, "every name whole (wrapped, never cut)")
        XCTAssertEqual(names[6][1] as? String, "Singer's ears (bus iem_singer)", "the tooltip names the bus as OSC and the preset do")
        let values = try XCTUnwrap(try browser.run("return [...document.querySelectorAll('#console .strip > .value')].map(e => e.textContent)") as? [String])
        XCTAssertEqual(values.count, 10)
        XCTAssertTrue(values.allSatisfy { $0.range(of: #"^([+−]?[0-9]+\.[0-9]|−∞) dB$"#, options: .regularExpression) != nil }, "every fader's value in dB: \(values)")

        // The pinned bus master works: the singer's mix 6 dB down, measured in their left ear.
        let (before, after) = try ConsolePageBrowserTests.moveAndMeasure(browser, rig: rig, fader: busFader, path: "/foldback/bus/iem_singer/gain_db", to: -6)
        print("console bus master: Acoustic in iem_singer_L \(before) → \(after) dBFS")
        XCTAssertEqual(after - before, -6, accuracy: 0.1, "the pinned bus fader's −6 dB")
        try browser.wait(until: "return [...document.querySelectorAll('.meter.vertical .rms')].some(e => parseFloat(e.style.height) > 0)", "moving meters")
        if let shots = ProcessInfo.processInfo.environment["FOLDBACK_SCREENSHOTS"] {
            try browser.screenshot().write(to: URL(fileURLWithPath: shots + "/web-console-laptop.png"))
        }

        // A smaller laptop (1024 × 768): the strips scroll inside their row, the bus masters stay whole on the right.
        let small = try WebDriverSession(width: 1_024, height: 768)
        defer { small.close() }
        try small.open(link)
        try small.wait(until: "return \(busFader) !== null && !document.body.classList.contains('offline')", "the console at 1024 px")
        XCTAssertEqual(try small.run("const s = document.getElementById('strips'); return s.scrollWidth > s.clientWidth") as? Bool, true, "the strips scroll")
        XCTAssertTrue(try boxes(small, "#buses .faderbox").allSatisfy { $0[2] <= 1_024 }, "every bus master within the window")
        XCTAssertEqual(try small.run("return document.documentElement.scrollWidth <= window.innerWidth") as? Bool, true)
    }
}
