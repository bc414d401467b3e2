// OSC and the engineer's page move a running show's strips between their ports and a sound-check take (`--soundcheck`). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackRender
import FoldbackTestSupport
import Foundation
import XCTest

final class SoundcheckControlTests: JACKServerTestCase {
    /// A silent take of `vox` played by a running show: the played noise is not heard on `main` while vox is on
    /// the take, is heard at the strip's 0 dB after `/foldback/soundcheck/all live`, and is gone again after
    /// `strip/vox take`; a strip not on the take is refused.
    func testOSCMovesAStripBetweenItsPortAndTheTake() throws {
        let (show, takes) = try Self.silentTakeOfVox()
        let rig = try LiveControlRig(server: serverName, arguments: [show, "--soundcheck", takes], testCase: self)
        defer { rig.close() }
        XCTAssertLessThan(abs(try rig.measuredGain()), 0.001, "vox plays the silent take, not its port")
        let live = try XCTUnwrap(try rig.request("/foldback/soundcheck/all", [.string("live")]))
        XCTAssertEqual(live.path, "/foldback/soundcheck")
        XCTAssertEqual(live.arguments.first?.text?.hasSuffix("on take: none"), true, "\(live)")
        XCTAssertEqual(try rig.measuredGain(), 1, accuracy: 0.01, "live again: the port at 0 dB")
        let back = try XCTUnwrap(try rig.request("/foldback/soundcheck/strip/vox", [.string("take")]))
        XCTAssertEqual(back.arguments.first?.text?.hasSuffix("on take: vox"), true, "\(back)")
        XCTAssertLessThan(abs(try rig.measuredGain()), 0.001, "back on the take")
        let refused = try XCTUnwrap(try rig.request("/foldback/soundcheck/strip/drums", [.string("take")]))
        XCTAssertEqual(refused.path, OSCServer.errorPath)
    }

    /// The same switches as tree nodes from the engineer's page: `strip/vox/input` = 0 (live) brings the port back at 0 dB,
    /// `soundcheck/input` = 1 (take, every strip at once) puts vox back on the silent take; OSC reads the page's moves.
    func testTheEngineersPageMovesAStripAndAllStripsBetweenLiveAndTake() throws {
        let (show, takes) = try Self.silentTakeOfVox()
        let (rig, port, tokens) = try LiveControlRig.web(server: serverName, testCase: self, preset: show, options: ["--soundcheck", takes])
        defer { rig.close() }
        XCTAssertLessThan(abs(try rig.measuredGain()), 0.001, "vox plays the silent take, not its port")
        let page = try WebSocketTestClient(port: port, path: "/ws?token=\(try XCTUnwrap(tokens["engineer"]))")
        let tree = try XCTUnwrap(page.next("tree"))
        let inputs = (tree["parameters"] as? [[String: Any]])?.compactMap { $0["path"] as? String }.filter { $0.hasSuffix("input") }
        XCTAssertEqual(inputs, ["strip/vox/input", "soundcheck/input"])
        page.send(#"{"path":"/foldback/strip/vox/input","value":0}"#)
        XCTAssertNotNil(page.next("ok"))
        XCTAssertEqual(try rig.measuredGain(), 1, accuracy: 0.01, "live: the port at 0 dB")
        XCTAssertEqual(try rig.request("/foldback/strip/vox/input/get"), OSCMessage("/foldback/strip/vox/input", [.float(0)]))
        page.send(#"{"path":"/foldback/soundcheck/input","value":1}"#)
        XCTAssertNotNil(page.next("ok"))
        XCTAssertLessThan(abs(try rig.measuredGain()), 0.001, "every strip on the take again")
        XCTAssertEqual(try rig.request("/foldback/soundcheck/input/get"), OSCMessage("/foldback/soundcheck/input", [.float(1)]))
    }

    /// A preset with strip `vox` (and `extra` TOML) and a folder holding a minute of silence recorded for vox: (preset path, take folder).
    static func silentTakeOfVox(extra: String = "") throws -> (String, String) {
        let folder = try LiveControlRig.temporaryFolder()
        try LiveControlRig.writePreset(to: folder + "/show.toml", voxGainDB: 0, extra: extra)
        let takes = URL(fileURLWithPath: folder).appendingPathComponent("take")
        try FileManager.default.createDirectory(at: takes, withIntermediateDirectories: true)
        let writer = try AudioFileWriter(
            recordingTo: takes.appendingPathComponent("20260101-120000-input-vox.wav"), sampleRate: 48_000, channelCount: 1, format: .wav)
        try [Float](repeating: 0, count: 48_000 * 60).withUnsafeBufferPointer { try writer.write(interleaved: $0) }
        try writer.finish()
        return (folder + "/show.toml", takes.path)
    }
}
