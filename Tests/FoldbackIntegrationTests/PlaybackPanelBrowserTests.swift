// The engineer's playback panel in headless Chromium on a real `foldback run`: a file source's tempo and key faders and the live/take buttons, read back over OSC and measured. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackRender
import Foundation
import XCTest

final class PlaybackPanelBrowserTests: JACKServerTestCase {
    /// A show with a file source `backing` and `vox` on a silent take: the page's tempo and key faders set the
    /// source (OSC reads the stream's setting back), `live` under vox brings its port back at 0 dB, `take` for all
    /// strips puts it back on the silent take.
    func testTempoKeyAndLiveTakeFromTheEngineersPage() throws {
        let (show, takes) = try SoundcheckControlTests.silentTakeOfVox(extra: """
            [[strip]]
            name = "backing"
            mute = true
            source = { file = "backing.wav", loop = true, engine = "faster" }
            send = [{ bus = "main" }]
            """)
        let writer = try AudioFileWriter(url: URL(fileURLWithPath: show).deletingLastPathComponent().appendingPathComponent("backing.wav"),
                                         sampleRate: 48_000, channelCount: 1)
        try writer.write(planar: [(0..<48_000).map { 0.25 * sinf(2 * .pi * 440 * Float($0) / 48_000) }])
        try writer.finish()
        let (rig, port, tokens) = try LiveControlRig.web(server: serverName, testCase: self, preset: show, options: ["--soundcheck", takes])
        defer { rig.close() }
        let browser = try WebDriverSession(width: 1_280, height: 800)
        defer { browser.close() }
        try browser.open("http://127.0.0.1:\(port)/?token=\(try XCTUnwrap(tokens["engineer"]))")
        let tempo = #"document.querySelector('input[aria-label="strip/backing/source/tempo"]')"#
        try browser.wait(until: "return \(tempo) !== null && !document.body.classList.contains('offline')", "the tempo fader")
        try browser.run("const f = \(tempo); f.value = 0.9; f.dispatchEvent(new Event('input')); f.dispatchEvent(new Event('change'));")
        try rig.waitForValue("/foldback/strip/backing/source/tempo", 0.9)
        let key = #"document.querySelector('input[aria-label="strip/backing/source/pitch_semitones"]')"#
        try browser.run("const f = \(key); f.value = -2; f.dispatchEvent(new Event('input')); f.dispatchEvent(new Event('change'));")
        try rig.waitForValue("/foldback/strip/backing/source/pitch_semitones", -2)

        XCTAssertLessThan(abs(try rig.measuredGain()), 0.001, "vox plays the silent take")
        try browser.run(#"document.querySelector('button.input.live[data-input="strip/vox/input"]').click()"#)
        try rig.waitForValue("/foldback/strip/vox/input", 0)
        XCTAssertEqual(try rig.measuredGain(), 1, accuracy: 0.01, "live: vox's port at 0 dB")
        try browser.wait(until: #"return document.querySelector('button.input.live[data-input="strip/vox/input"]').classList.contains('on')"#, "live lit")
        try browser.run(#"document.querySelector('button.input.take[data-input="soundcheck/input"]').click()"#)
        try rig.waitForValue("/foldback/soundcheck/input", 1)
        XCTAssertLessThan(abs(try rig.measuredGain()), 0.001, "all strips on the take again")
    }
}
