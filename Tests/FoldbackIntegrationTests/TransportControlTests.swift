// OSC starts and stops the record tap; a session without file players refuses player commands. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackRender
import Foundation
import XCTest

final class TransportControlTests: JACKServerTestCase {
    func testOSCStartsAndStopsATakeAndRefusesWhatIsNotThere() throws {
        let folder = try LiveControlRig.temporaryFolder()
        try LiveControlRig.writePreset(to: folder + "/show.toml", voxGainDB: 0)
        let takes = folder + "/takes"
        let rig = try LiveControlRig(
            server: serverName, arguments: [folder + "/show.toml", "--record", takes, "--record-paused"], testCase: self)
        defer { rig.close() }
        XCTAssertEqual(try rig.request("/foldback/record/start"), OSCMessage("/foldback/record", [.string("recording")]))
        try rig.waitForLog("recording started: ")
        _ = try rig.measuredGain()   // some signal through while the take runs
        XCTAssertEqual(try rig.request("/foldback/record/start"), OSCMessage("/foldback/record", [.string("already recording")]))
        XCTAssertEqual(try rig.request("/foldback/record/stop"), OSCMessage("/foldback/record", [.string("recording stopped")]))
        try rig.waitForLog("recording stopped: ")
        let files = try FileManager.default.contentsOfDirectory(atPath: takes)
        XCTAssertEqual(files.count, 1, "one take of the one bus: \(files)")
        let take = try AudioFileReader(url: URL(fileURLWithPath: takes).appendingPathComponent(files[0])).readAll()
        XCTAssertGreaterThan(take[0].count, 8_192, "the take holds at least the measured stretch")
        XCTAssertGreaterThan(take[0].map(abs).max() ?? 0, 0.01, "and the signal")

        let refused = try XCTUnwrap(try rig.request("/foldback/player/start"))
        XCTAssertEqual(refused.path, OSCServer.errorPath)
        XCTAssertEqual(refused.arguments.last?.text?.contains("no strip plays a file"), true, "\(refused)")
        let unknown = try XCTUnwrap(try rig.request("/foldback/record/pause"))
        XCTAssertEqual(unknown.arguments.last?.text?.contains("record commands: start, stop"), true, "\(unknown)")
    }
}
