// A running show's host-side tree nodes end to end: a file source's tempo and key set over OSC, a MIDI map and the web socket, read back from its stream, saved by preset/save. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackJACKTesting
import FoldbackPresets
import FoldbackRender
import FoldbackTestSupport
import Foundation
import XCTest

final class HostParameterEndToEndTests: JACKServerTestCase {
    /// `backing` plays a looped tone; OSC sets its tempo, CC 21 its key (−12…+12 st), the engineer's page its cents. Each is read
    /// back over OSC (the value the file player's stretcher holds), and `/foldback/preset/save` writes all three into the source.
    func testSourceTempoAndKeyFromOSCMIDIAndTheWebAreHeldByTheStreamAndSaved() throws {
        let folder = try LiveControlRig.temporaryFolder()
        let writer = try AudioFileWriter(url: URL(fileURLWithPath: folder + "/backing.wav"), sampleRate: 48_000, channelCount: 1)
        try writer.write(planar: [(0..<96_000).map { 0.25 * sinf(2 * .pi * 440 * Float($0) / 48_000) }])
        try writer.finish()
        let preset = folder + "/show.toml"
        try LiveControlRig.writePreset(to: preset, voxGainDB: 0, extra: """
            [[strip]]
            name = "backing"
            source = { file = "backing.wav", loop = true, engine = "faster" }
            send = [{ bus = "main" }]
            [[midi.cc]]
            cc = 21
            target = "strip.backing.source.pitch_semitones"
            min = -12
            max = 12
            """)
        let (rig, port, tokens) = try LiveControlRig.web(server: serverName, testCase: self, preset: preset)
        defer { rig.close() }
        let source = "/foldback/strip/backing/source/"
        XCTAssertEqual(try rig.request(source + "tempo/get"), OSCMessage(source + "tempo", [.float(1)]), "as recorded to start with")

        XCTAssertNil(try rig.request(source + "tempo", [.float(0.85)], timeout: 0.5), "a set has no reply")
        try rig.waitForValue(source + "tempo", 0.85)

        let sender = try JACKTestMIDISender(name: "\(rig.clientName)-midi", serverName: serverName)
        defer { sender.close() }
        XCTAssertNil(sender.connect(to: "\(rig.clientName):midi_in"))
        XCTAssertTrue(sender.send(.controlChange(channel: 1, controller: 21, value: 0)))
        XCTAssertTrue(sender.waitUntilSent())
        try rig.waitForValue(source + "pitch_semitones", -12)

        let page = try WebSocketTestClient(port: port, path: "/ws?token=\(try XCTUnwrap(tokens["engineer"]))")
        let tree = try XCTUnwrap(page.next("tree"))
        let paths = (tree["parameters"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? []
        XCTAssertTrue(paths.contains("strip/backing/source/cents"), "the page builds its controls from the tree: \(paths)")
        page.send(#"{"path":"/foldback/strip/backing/source/cents","value":25}"#)
        XCTAssertNotNil(page.next("ok"))
        try rig.waitForValue(source + "cents", 25)
        page.send(#"{"path":"/foldback/strip/backing/source/tempo","value":2.5}"#)
        XCTAssertNotNil(page.next("error"), "out of range on the page as over OSC")
        try rig.waitForValue(source + "tempo", 0.85)

        let saved = try XCTUnwrap(try rig.request("/foldback/preset/save"))
        XCTAssertEqual(saved.path, "/foldback/preset/saved", "\(saved)")
        let written = try XCTUnwrap(try PresetLoader.load(path: preset).strip(named: "backing")?.source)
        XCTAssertEqual([written.tempo, written.pitchSemitones, written.cents], [0.85, -12, 25], "the live moves are in the saved source")
    }
}
