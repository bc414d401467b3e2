// Latency reporting, live port changes and server shutdown, at 48 kHz with period 1024. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackJACK
import XCTest
import FoldbackTestSupport

final class LatencyAndLifecycleTests: JACKServerTestCase {
    override class var period: Int { 1_024 }

    /// A unit with latency: the output lags by exactly that many frames, and JACK's capture and playback
    /// latency ranges through foldback grow by it.
    func testUnitLatencyDelaysOutputExactlyAndIsReportedToJACK() throws {
        let rig = try FoldbackRig(serverName: serverName, description: GraphDescription(
            strips: [StripDescription(name: "vox", channels: 1, units: [DelayTestUnit(frames: 100)], sends: [SendDescription(bus: 0)])],
            buses: [BusDescription(name: "out", channels: 1)]))
        defer { rig.close() }
        XCTAssertEqual(rig.layout.latencyFrames, 100)
        let recording = try rig.record()
        rig.assertOutput(recording, "out") { rig.input(0, $0 &- 100) }

        XCTAssertEqual(rig.host.connect(["vox_in": ["system:capture_1"], "out": ["system:playback_1"]]), [])
        let observer = rig.host.client
        let capture = try XCTUnwrap(observer.latencyRange(ofPort: "system:capture_1", mode: .capture))
        let playback = try XCTUnwrap(observer.latencyRange(ofPort: "system:playback_1", mode: .playback))
        XCTAssertGreaterThan(capture.upperBound, 0, "the dummy driver reports a capture latency")
        // The player (capture latency 0) and the recorder (playback latency 0) stay connected, so each
        // range spans from 0 to the system port's latency, plus foldback's 100 frames.
        try waitFor("capture latency at foldback:out") {
            observer.latencyRange(ofPort: "foldback:out", mode: .capture) == 100...capture.upperBound + 100
        }
        try waitFor("playback latency at foldback:vox_in") {
            observer.latencyRange(ofPort: "foldback:vox_in", mode: .playback) == 100...playback.upperBound + 100
        }
    }

    /// Installing a graph with other strips and calling updatePorts while running keeps surviving
    /// ports (and their connections), adds new ones and removes the rest.
    func testUpdatingPortsWhileRunning() throws {
        let rig = try FoldbackRig(serverName: serverName, description: GraphDescription(
            strips: [
                StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 0)]),
                StripDescription(name: "old", channels: 1, sends: [SendDescription(bus: 0)], isMuted: true),
            ],
            buses: [BusDescription(name: "out", channels: 1)]))
        defer { rig.close() }
        let next = try EngineGraph(GraphDescription(
            strips: [
                StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 0, gainDB: -6)]),
                StripDescription(name: "new", channels: 2, sends: [SendDescription(bus: 0)], isMuted: true),
            ],
            buses: [BusDescription(name: "out", channels: 1)]), sampleRate: rig.host.sampleRate, maxFrames: 1_024)
        try rig.engine.install(next)
        try rig.host.updatePorts(for: next.layout)
        let names = Set(rig.host.client.portNames(matching: "^foldback:"))
        XCTAssertEqual(names, ["foldback:vox_in", "foldback:new_in_L", "foldback:new_in_R", "foldback:out"])
        XCTAssertEqual(rig.host.client.connections(ofPort: "foldback:vox_in"), ["fb-rig-player:out_1"])
        let recording = try rig.probe.record(frames: 4_096, settleFrames: 4_800)
        rig.assertOutput(recording, "out") { rig.input(0, $0) * gain(-6) }
    }

    /// When the server goes away the host records it, for the owner to print and exit non-zero.
    func testServerShutdownIsRecorded() throws {
        let private_ = try JACKServerLauncher(serverName: JACKServerLauncher.uniqueServerName(prefix: "fbtest-down"), period: 1_024)
        let rig = try FoldbackRig(serverName: private_.serverName, description: GraphDescription(
            strips: [StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 0)])],
            buses: [BusDescription(name: "out", channels: 1)]))
        defer { rig.close() }
        XCTAssertNil(rig.host.shutdown)
        private_.stop()
        try waitFor("the shutdown notice") { rig.host.shutdown != nil }
        XCTAssertTrue("\(try XCTUnwrap(rig.host.shutdown))".contains("shut down"))
    }

    func testLauncherReportsAJackdThatCannotStart() {
        XCTAssertThrowsError(try JACKServerLauncher(serverName: "fbtest-bad-\(getpid())", driver: "no-such-driver")) { error in
            guard case .serverStartFailed(_, _, let log)? = error as? JACKError else { return XCTFail("\(error)") }
            XCTAssertTrue(FileManager.default.fileExists(atPath: log), log)
        }
    }

}
