// A file source's play, stop and cue from MIDI and from the engineer's page, measured at the bus; the pages show whether it plays. Non-realtime.
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
        let folder = try Self.folderWithClick()
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
        func sourcePlays(_ state: [String: Any]) -> Bool? { Self.clickSource(state)?["playing"] as? Bool }
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

    /// A musician's page shows the sources in their mix (playing or stopped, position, length) only where the preset
    /// says `[web] musicians_see_sources = true`, and cannot run them: the musician's stop is refused, the source plays on.
    func testAMusiciansPageSeesTheSourcesInTheirMixOnlyWhereThePresetAllows() throws {
        let folder = try Self.folderWithClick()
        for allowed in [false, true] {
            let preset = folder + "/show-\(allowed).toml"
            try LiveControlRig.writePreset(to: preset, voxGainDB: -144, extra: """
                [[strip]]
                name = "click"
                source = { file = "click.wav", loop = true }
                send = [{ bus = "main" }]
                """ + (allowed ? "\n[web]\nmusicians_see_sources = true\n" : ""))
            let (rig, port, tokens) = try LiveControlRig.web(server: serverName, testCase: self, preset: preset)
            defer { rig.close() }
            let musician = try WebSocketTestClient(port: port, path: "/ws?token=\(try XCTUnwrap(tokens["main"]))")
            let state = try XCTUnwrap(musician.next("state"))
            let strips = (state["strips"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            XCTAssertTrue(strips.contains("click"), "the click is in the musician's mix")
            guard allowed else {
                XCTAssertNil(Self.clickSource(state), "not allowed: the musician's page is sent no source")
                continue
            }
            let source = try XCTUnwrap(Self.clickSource(state), "allowed: the musician's page is sent the source")
            XCTAssertEqual(source["playing"] as? Bool, true)
            XCTAssertEqual(source["duration_s"] as? Double, 1, "a 1 s file")
            XCTAssertNotNil(source["position_s"] as? Double)
            musician.send(#"{"command":"strip/click/source/stop"}"#)
            XCTAssertNotNil(musician.next("error"), "a musician's page runs no source command")
            let samples = try rig.client.record(frames: 9_600, settleFrames: 4_800, attempts: 5).channels[0]
            let level = decibels((samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot())
            XCTAssertEqual(level, decibels(0.25 / 2.0.squareRoot()), accuracy: 0.1, "the click plays on")
        }
    }

    /// A folder holding click.wav: 1 s of a 1 kHz sine of peak 0.25 at 48 kHz.
    private static func folderWithClick() throws -> String {
        let folder = try LiveControlRig.temporaryFolder()
        let writer = try AudioFileWriter(url: URL(fileURLWithPath: folder + "/click.wav"), sampleRate: 48_000, channelCount: 1)
        try writer.write(planar: [(0..<48_000).map { 0.25 * sinf(2 * .pi * 1_000 * Float($0) / 48_000) }])
        try writer.finish()
        return folder
    }

    /// The `click` strip's source in a pushed state, if any.
    private static func clickSource(_ state: [String: Any]) -> [String: Any]? {
        let strips = state["strips"] as? [[String: Any]] ?? []
        return strips.first { $0["name"] as? String == "click" }?["source"] as? [String: Any]
    }
}
