// OSC moves a running show's strips between their ports and a sound-check take (`--soundcheck`). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackRender
import Foundation
import XCTest

final class SoundcheckControlTests: JACKServerTestCase {
    /// A silent take of `vox` played by a running show: the played noise is not heard on `main` while vox is on
    /// the take, is heard at the strip's 0 dB after `/foldback/soundcheck/all live`, and is gone again after
    /// `strip/vox take`; a strip not on the take is refused.
    func testOSCMovesAStripBetweenItsPortAndTheTake() throws {
        let folder = try LiveControlRig.temporaryFolder()
        try LiveControlRig.writePreset(to: folder + "/show.toml", voxGainDB: 0)
        let takes = URL(fileURLWithPath: folder).appendingPathComponent("take")
        try FileManager.default.createDirectory(at: takes, withIntermediateDirectories: true)
        let writer = try AudioFileWriter(
            recordingTo: takes.appendingPathComponent("20260101-120000-input-vox.wav"), sampleRate: 48_000, channelCount: 1, format: .wav)
        try [Float](repeating: 0, count: 48_000 * 60).withUnsafeBufferPointer { try writer.write(interleaved: $0) }
        try writer.finish()
        let rig = try LiveControlRig(server: serverName, arguments: [folder + "/show.toml", "--soundcheck", takes.path], testCase: self)
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
}
