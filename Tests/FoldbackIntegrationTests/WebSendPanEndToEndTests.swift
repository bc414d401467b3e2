// A musician moves a send's pan and a stereo source's width on their page in Chromium; a JACK client measures the stereo bus's new left/right balance. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackTestSupport
import Foundation
import XCTest

final class WebSendPanEndToEndTests: JACKServerTestCase {
    func testAMusicianPansTheVocalInTheirStereoMix() throws {
        let browser = try WebDriverSession()
        defer { browser.close() }
        let (rig, port, tokens) = try LiveControlRig.web(server: serverName, testCase: self, extraStrip: """
              [[strip.send]]
              bus = "stage"
              pre_fader = true
              pan = 0.0
            [[strip]]
            name = "keys"
            channels = 2
              [[strip.send]]
              bus = "stage"
              width = 1.0
            [[bus]]
            name = "stage"
            channels = 2
            limiter = false
            """, recordFrom: ["stage_L", "stage_R"])
        defer { rig.close() }
        let centre = Double(0.5.squareRoot())
        XCTAssertEqual(try rig.measuredGain(channel: 0), centre, accuracy: 0.01, "centred: left at −3 dB")
        XCTAssertEqual(try rig.measuredGain(channel: 1), centre, accuracy: 0.01, "centred: right at −3 dB")

        try browser.open("http://127.0.0.1:\(port)/?token=\(try XCTUnwrap(tokens["stage"]))")
        let pan = #"document.querySelector('input[aria-label="strip/vox/send/stage/pan"]')"#
        try browser.wait(until: "return \(pan) !== null && !document.body.classList.contains('offline')", "the musician's pan control")
        try browser.run("const f = \(pan); f.value = -0.5; f.dispatchEvent(new Event('input')); f.dispatchEvent(new Event('change'));")
        try rig.waitForValue("/foldback/strip/vox/send/stage/pan", -0.5)
        // Constant power at −0.5: cos(π/8) left, sin(π/8) right.
        XCTAssertEqual(try rig.measuredGain(channel: 0), cos(Double.pi / 8), accuracy: 0.01, "left after the page's pan move")
        XCTAssertEqual(try rig.measuredGain(channel: 1), sin(Double.pi / 8), accuracy: 0.01, "right after the page's pan move")

        // The stereo keys have a width beside their pan (the mono vox none); the page narrows them to 50 %.
        let keysWidth = #"document.querySelector('input[aria-label="strip/keys/send/stage/width"]')"#
        try browser.wait(until: "return \(keysWidth) !== null", "the musician's width control for the stereo keys")
        XCTAssertEqual(try browser.run(#"return document.querySelector('input[aria-label="strip/vox/send/stage/width"]') === null"#) as? Bool, true,
                       "no width for a mono source")
        try browser.run("const f = \(keysWidth); f.value = 0.5; f.dispatchEvent(new Event('input')); f.dispatchEvent(new Event('change'));")
        try rig.waitForValue("/foldback/strip/keys/send/stage/width", 0.5)
        // And an engineer's OSC move shows on the musician's page.
        try rig.osc.send(OSCMessage("/foldback/strip/keys/send/stage/width", [.float(1.5)]))
        try browser.wait(until: "return \(keysWidth).value === '1.5'", timeout: 5, "the engineer's width move on the musician's page")
    }
}
