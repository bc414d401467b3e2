// A running show's file source transport over OSC: autostart = false, play, stop where it is, locate, cue to the top. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackRender
import FoldbackTestSupport
import Foundation
import XCTest

final class SourceTransportEndToEndTests: JACKServerTestCase {
    func testAClickTrackStartsStoppedPlaysStopsLocatesAndCues() throws {
        let folder = try LiveControlRig.temporaryFolder()
        let writer = try AudioFileWriter(url: URL(fileURLWithPath: folder + "/click.wav"), sampleRate: 48_000, channelCount: 1)
        try writer.write(planar: [(0..<480_000).map { $0 % 24_000 < 480 ? 0.5 : 0 }])   // 10 s, a click every half second
        try writer.finish()
        let preset = folder + "/show.toml"
        try LiveControlRig.writePreset(to: preset, voxGainDB: 0, extra: """
            [[strip]]
            name = "click"
            source = { file = "click.wav", autostart = false }
            send = [{ bus = "main" }]
            """)
        let rig = try LiveControlRig(server: serverName, arguments: [preset], testCase: self)
        defer { rig.close() }
        let address = "/foldback/strip/click/source"
        func command(_ word: String, _ arguments: [OSCArgument] = []) throws -> (state: String, position: Float) {
            let reply = try XCTUnwrap(try rig.request("\(address)/\(word)", arguments), word)
            XCTAssertEqual(reply.path, address, "\(reply)")
            return (reply.arguments.first?.text ?? "", reply.arguments.dropFirst().first?.number ?? -1)
        }
        let start = try command("stop")
        XCTAssertEqual(start.state, "stopped", "autostart = false")
        XCTAssertEqual(start.position, 0, accuracy: 1e-6)
        XCTAssertEqual(try command("play").state, "playing")
        let began = Date()
        Thread.sleep(forTimeInterval: 0.6)
        let stopped = try command("stop")
        let played = Float(Date().timeIntervalSince(began))
        XCTAssertEqual(stopped.state, "stopped")
        XCTAssertGreaterThan(stopped.position, 0.3, "it played")
        XCTAssertLessThan(stopped.position, played + 0.5, "about as long as it was let play")
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(try command("stop").position, stopped.position, accuracy: 1e-3, "stopped, it stays where it stopped")
        let located = try command("locate", [.float(7.5)])
        XCTAssertEqual(located.position, 7.5, accuracy: 1e-3)
        XCTAssertEqual(located.state, "stopped", "a locate keeps it stopped")
        let cued = try command("cue")
        XCTAssertEqual(cued.state, "stopped")
        XCTAssertEqual(cued.position, 0, accuracy: 1e-6, "cued to the top")
        XCTAssertEqual(try rig.request("\(address)/locate")?.path, OSCServer.errorPath)
        XCTAssertEqual(try rig.request("/foldback/strip/vox/source/play")?.path, OSCServer.errorPath, "vox plays no file")
    }
}
