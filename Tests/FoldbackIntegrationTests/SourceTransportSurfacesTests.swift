// A file source's play, stop and cue from MIDI and from the engineer's page, measured at the bus; the page shows whether it plays. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackJACKTesting
import FoldbackRender
import FoldbackTestSupport
import Foundation
import XCTest

final class SourceTransportSurfacesTests: JACKServerTestCase {
    /// A looped 1 kHz sine of peak 0.25 (−15.05 dB RMS) on strip `click`, `autostart = false`, vox at −144 dB:
    /// silent at main until a MIDI press of CC 30 (`strip.click.source.play`), then −15.05 dB (±0.1); the page's
    /// stop silences it and its state says `"playing": false`; the page's cue (stopped at the top) and play bring it back.
    func testMIDIAndThePagePlayStopAndCueASource() throws {
        let folder = try LiveControlRig.temporaryFolder()
        let writer = try AudioFileWriter(url: URL(fileURLWithPath: folder + "/click.wav"), sampleRate: 48_000, channelCount: 1)
        try writer.write(planar: [(0..<48_000).map { 0.25 * sinf(2 * .pi * 1_000 * Float($0) / 48_000) }])
        try writer.finish()
        let preset = folder + "/show.toml"
        try LiveControlRig.writePreset(to: preset, voxGainDB: -144, extra: """
            [[strip]]
            name = "click"
            source = { file = "click.wav", loop = true, autostart = false }
            send = [{ bus = "main" }]
            [[midi.cc]]
            cc = 30
            target = "strip.click.source.play"
            """)
        let (rig, port, tokens) = try LiveControlRig.web(server: serverName, testCase: self, preset: preset)
        defer { rig.close() }
        func mainLevel() throws -> Double {
            let samples = try rig.client.record(frames: 9_600, settleFrames: 4_800, attempts: 5).channels[0]
            return decibels((samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot())
        }
        let playing = decibels(0.25 / 2.0.squareRoot())
        XCTAssertLessThan(try mainLevel(), -100, "autostart = false: silent")

        let sender = try JACKTestMIDISender(name: "\(rig.clientName)-midi", serverName: serverName)
        defer { sender.close() }
        XCTAssertNil(sender.connect(to: "\(rig.clientName):midi_in"))
        XCTAssertTrue(sender.send(.controlChange(channel: 1, controller: 30, value: 127)))
        XCTAssertTrue(sender.waitUntilSent())
        try rig.waitForLog("MIDI: click file player play: playing")
        XCTAssertEqual(try mainLevel(), playing, accuracy: 0.1, "played from MIDI")

        let page = try WebSocketTestClient(port: port, path: "/ws?token=\(try XCTUnwrap(tokens["engineer"]))")
        func sourcePlays(_ state: [String: Any]) -> Bool? {
            let strips = state["strips"] as? [[String: Any]] ?? []
            return (strips.first { $0["name"] as? String == "click" }?["source"] as? [String: Any])?["playing"] as? Bool
        }
        XCTAssertEqual(page.next("state").flatMap(sourcePlays), true)
        page.send(#"{"command":"strip/click/source/stop"}"#)
        XCTAssertNotNil(page.next("ok"))
        XCTAssertNotNil(page.next("state", timeout: 5) { sourcePlays($0) == false }, "the page shows it stopped")
        XCTAssertLessThan(try mainLevel(), -100, "stopped from the page")

        page.send(#"{"command":"strip/click/source/cue"}"#)
        XCTAssertNotNil(page.next("ok"))
        XCTAssertEqual(try rig.request("/foldback/strip/click/source/locate", [.float(0)])?.arguments.first, .string("stopped"), "cued: stopped")
        page.send(#"{"command":"strip/click/source/play"}"#)
        XCTAssertNotNil(page.next("ok"))
        XCTAssertEqual(try mainLevel(), playing, accuracy: 0.1, "played from the page")
    }
}
