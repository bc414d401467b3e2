// JACKClient, the launcher and the test clients against a real dummy server. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackJACK
import FoldbackJACKTesting
import XCTest

final class JACKClientTests: JACKServerTestCase {
    func testSecondClientWithTakenNameGetsAUniqueName() throws {
        let first = try JACKClient(name: "foldback", serverName: serverName)
        defer { first.close() }
        let second = try JACKClient(name: "foldback", serverName: serverName)
        defer { second.close() }
        XCTAssertEqual(first.actualName, "foldback")
        XCTAssertNotEqual(second.actualName, "foldback")
        XCTAssertTrue(second.actualName.hasPrefix("foldback"), second.actualName)
        XCTAssertEqual(second.requestedName, "foldback")
    }

    func testServerNotRunningIsOnePlainError() {
        let missing = "fbtest-absent-\(UInt32.random(in: 0...UInt32.max))"
        XCTAssertThrowsError(try JACKClient(name: "foldback", serverName: missing)) { error in
            XCTAssertEqual(error as? JACKError, .serverNotRunning(serverName: missing))
            let message = "\(error)"
            XCTAssertTrue(message.contains(missing), message)
            XCTAssertTrue(message.contains("--start-server dummy"), message)
        }
    }

    func testPortsAndPrettyNamesAreVisibleAndRemovedOnClose() throws {
        let owner = try JACKClient(name: "fb-meta", serverName: serverName)
        let port = try owner.registerAudioPort("vox_in", direction: .input, prettyName: "Vox in")
        XCTAssertEqual(port.name, "\(owner.actualName):vox_in")
        try owner.activate()
        let observer = try JACKClient(name: "fb-observer", serverName: serverName)
        defer { observer.close() }
        XCTAssertEqual(observer.portNames(matching: "^fb-meta:", direction: .input), [port.name])
        XCTAssertEqual(observer.prettyName(ofPort: port.name), "Vox in")
        XCTAssertTrue(try JACKTools.run("jack_lsp", server: serverName).contains(port.name))
        XCTAssertTrue(try JACKTools.run("jack_property", "-l", server: serverName).contains("Vox in"))
        owner.close()
        XCTAssertFalse(try JACKTools.run("jack_lsp", server: serverName).contains(port.name))
        XCTAssertFalse(
            try JACKTools.run("jack_property", "-l", server: serverName).contains("Vox in"),
            "metadata must be removed when the client closes")
    }

    func testMissingConnectTargetIsAWarningNamingIt() throws {
        let client = try JACKClient(name: "fb-connect", serverName: serverName)
        defer { client.close() }
        let port = try client.registerAudioPort("out", direction: .output)
        try client.activate()
        let warning = try XCTUnwrap(client.connect(from: port.name, to: "system:playback_99"))
        XCTAssertTrue("\(warning)".contains("system:playback_99"), "\(warning)")
        XCTAssertNil(client.connect(from: port.name, to: "system:playback_1"))
        XCTAssertNil(client.connect(from: port.name, to: "system:playback_1"), "already connected is not a warning")
        XCTAssertEqual(client.connections(ofPort: port.name), ["system:playback_1"])
    }

    /// The test tools themselves: player → recorder directly must be sample-exact at equal frame times.
    func testPlayerToRecorderIsSampleExactAtEqualFrameTimes() throws {
        let rig = try JACKTestClient(
            serverName: serverName, signals: [.noise(seed: 7, level: -6), .sine(frequency: 997, level: -3)],
            recordChannels: 2, capacity: 4_096, namePrefix: "fb-loop")
        defer { rig.close() }
        XCTAssertEqual(rig.connectPlayer(to: [rig.recorder.ports[0].name, rig.recorder.ports[1].name]), [])
        let recording = try rig.record(frames: 3_000, settleFrames: 2 * Self.period)
        XCTAssertEqual(recording.frameCount, 3_000)
        for channel in 0..<2 {
            let error = SignalCheck.maxError(recording, channel: channel) { rig.expectedSample(channel: channel, frameTime: $0) }
            XCTAssertEqual(error, 0, "channel \(channel)")
        }
    }
}
