// The engineer's groups row in headless Chromium on a real `foldback run`: a DCA fader and mute and a mute group, measured by a JACK client. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackJACKTesting
import Foundation
import XCTest

/// presets/monitor-console.toml: DCA "band" holds vox and gtr, mute group "between_songs" both mics. A 1 kHz tone
/// plays into the stereo guitar; the client records front of house (the guitar's post-fader send) and the
/// singer's in-ear (its pre-fader send).
final class ConsoleGroupsBrowserTests: JACKServerTestCase {
    func testTheDCAFaderMovesTheGuitarInFrontOfHouseAndNotInTheInEar() throws {
        let (rig, browser) = try ConsolePageBrowserTests.guitarOnTheConsole(server: serverName, testCase: self)
        defer { browser.close(); rig.close() }
        let dcaFader = #"document.querySelector('#groups input[aria-label="dca/band/gain_db"]')"#
        try browser.wait(until: "return \(dcaFader) !== null && !document.body.classList.contains('offline')", "the DCA's fader in the groups row")
        XCTAssertEqual(try browser.run(#"return document.querySelector('#groups [data-dca="band"] .members[title]').textContent"#) as? String, "vox, gtr")
        let before = try ConsolePageBrowserTests.levels(rig, at: 1_000)

        try browser.run("const f = \(dcaFader); f.value = -6; f.dispatchEvent(new Event('input')); f.dispatchEvent(new Event('change'));")
        try rig.waitForValue("/foldback/dca/band/gain_db", -6)
        let moved = try ConsolePageBrowserTests.levels(rig, at: 1_000)
        print("console DCA: gtr in foh \(before[1]) → \(moved[1]) dBFS, in iem_vox (pre-fader) \(before[0]) → \(moved[0]) dBFS")
        XCTAssertEqual(moved[1] - before[1], -6, accuracy: 0.1, "front of house follows the DCA's −6 dB")
        XCTAssertEqual(moved[0] - before[0], 0, accuracy: 0.1, "the pre-fader in-ear send does not move")
        if let shots = ProcessInfo.processInfo.environment["FOLDBACK_SCREENSHOTS"] {
            try browser.run("document.getElementById('groups').scrollIntoView({ block: 'center' })")
            try browser.wait(until: "return [...document.querySelectorAll('.meter.vertical .rms')].some(e => parseFloat(e.style.height) > 0)", "moving meters")
            try browser.screenshot().write(to: URL(fileURLWithPath: shots + "/web-console-groups.png"))
        }

        // A move elsewhere (OSC) reaches the page's fader; the DCA's mute closes front of house only.
        try rig.osc.send(OSCMessage("/foldback/dca/band/gain_db", [.float(-3)]))
        try browser.wait(until: "return Number(\(dcaFader).value) === -3", "the page's DCA fader at the OSC move")
        try browser.run(#"document.querySelector('#groups button[data-path="dca/band/mute"]').click()"#)
        try rig.waitForValue("/foldback/dca/band/mute", 1)
        let dcaMuted = try ConsolePageBrowserTests.levels(rig, at: 1_000)
        XCTAssertLessThan(dcaMuted[1], before[1] - 60, "the DCA's mute silences the guitar in front of house")
        XCTAssertEqual(dcaMuted[0] - before[0], 0, accuracy: 0.1, "and leaves the in-ear")
        try browser.run(#"document.querySelector('#groups button[data-path="dca/band/mute"]').click()"#)
        try rig.waitForValue("/foldback/dca/band/mute", 0)

        // The mute group mutes the members as their own mute does: every mix.
        try browser.run(#"document.querySelector('#groups button[data-path="mute_group/between_songs/mute"]').click()"#)
        try rig.waitForValue("/foldback/mute_group/between_songs/mute", 1)
        let grouped = try ConsolePageBrowserTests.levels(rig, at: 1_000)
        XCTAssertLessThan(grouped[0], before[0] - 60, "the mute group silences the guitar in the in-ear")
        XCTAssertLessThan(grouped[1], before[1] - 60, "and in front of house")
        try browser.wait(until: #"return document.querySelector('#groups button[data-path="mute_group/between_songs/mute"]').classList.contains('on')"#,
                         "the mute group's button lit")
    }

    /// On a phone the engineer's page stacks the groups under the strips; the mute group's button works there too.
    func testThePhonePageStacksTheGroups() throws {
        let (rig, browser) = try ConsolePageBrowserTests.guitarOnTheConsole(server: serverName, testCase: self, size: (360, 740))
        defer { browser.close(); rig.close() }
        let button = #"document.querySelector('#groups button[data-path="mute_group/between_songs/mute"]')"#
        try browser.wait(until: "return \(button) !== null && document.getElementById('console') === null && !document.body.classList.contains('offline')",
                         "the stacked page's groups")
        XCTAssertEqual(try browser.run(#"return document.querySelector('#groups [data-dca="band"] input[aria-label="dca/band/gain_db"]') !== null"#) as? Bool, true)
        XCTAssertEqual(try browser.run("return document.documentElement.scrollWidth <= window.innerWidth") as? Bool, true, "no sideways scrolling")
        try browser.run("\(button).click()")
        try rig.waitForValue("/foldback/mute_group/between_songs/mute", 1)
    }
}
