// A running `foldback run` survives reloads of text the TOML parser once aborted on (SIGHUP, --watch, OSC). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import Foundation
import XCTest

final class LiveReloadSafetyTests: JACKServerTestCase {
    /// `[[[strip]]` (one bracket too many) used to end the process inside toml++ with SIGABRT, taking the
    /// mix down. Every live way to reload it is refused with the file's line and column; the old preset plays on.
    func testAPresetThatCrashedTheParserIsRefusedLiveAndTheOldOneKeepsPlaying() throws {
        let (rig, preset) = try LiveControlRig.watchingLivePreset(server: serverName, testCase: self)
        defer { rig.close() }
        let folder = (preset as NSString).deletingLastPathComponent
        let typo = "[[bus]]\nname = \"main\"\nchannels = 1\nlimiter = false\n[[[strip]]\nname = \"vox\"\n"

        // Saved with the typo: --watch refuses it.
        try typo.write(toFile: preset, atomically: true, encoding: .utf8)
        try rig.waitForLog("not reloading \(preset) (the file changed)")
        XCTAssertTrue(rig.run.standardError.contains("\(preset):5:3: error: TOML syntax error"), rig.run.standardError)

        // SIGHUP reloads the same file: refused again, still running.
        kill(rig.run.process.processIdentifier, SIGHUP)
        try rig.waitForLog("not reloading \(preset) (SIGHUP)")
        XCTAssertTrue(rig.run.process.isRunning, "foldback must survive the reload")

        // OSC loads another file with the typo in a curve-like header: an error reply, nothing changes.
        let other = folder + "/other.toml"
        try "[[bus]]\nname = \"main\"\n[[[band]]]\n".write(toFile: other, atomically: true, encoding: .utf8)
        let reply = try XCTUnwrap(try rig.request("/foldback/preset/load", [.string(other)]))
        XCTAssertEqual(reply.path, "/foldback/error")
        XCTAssertTrue(reply.arguments.last?.text?.contains("\(other):3:3") == true, "\(reply)")

        XCTAssertTrue(rig.run.process.isRunning, "foldback must survive every reload")
        XCTAssertEqual(decibels(try rig.measuredGain()), -2, accuracy: 0.1, "the old preset plays on")
        XCTAssertEqual(try rig.request("/foldback/preset/get"), OSCMessage("/foldback/preset", [.string("vox -2.0 dB"), .string(preset)]))

        // Fixed, the file loads as usual.
        try LiveControlRig.writePreset(to: preset, voxGainDB: -5)
        try rig.waitForLog("reloaded \(preset) (the file changed)")
        XCTAssertEqual(decibels(try rig.measuredGain()), -5, accuracy: 0.1, "the fixed preset is live")
    }
}
