// `foldback run` reports each bus's latency (Foldback's part, JACK's round trip) at start and over OSC, and warns for in-ear buses over 5 ms. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackJACK
import Foundation
import XCTest
import FoldbackTestSupport

final class LatencyReportEndToEndTests: JACKServerTestCase {
    /// An in-ear bus (zero-latency limiter) fed by a strip with a 2 ms lookahead compressor, wired from
    /// system:capture_1 to system:playback_1 on a dummy server at 256 frames: Foldback adds 96 frames, and
    /// the round trip is the dummy driver's capture latency + 96 + its playback latency, as JACK reports
    /// them for the system ports. That is over 5 ms, so foldback warns; OSC answers the same figures.
    func testRoundTripIsJACKsCaptureAndPlaybackPlusFoldbacksPartAndAnInEarBusOverBudgetWarns() throws {
        let folder = try LiveControlRig.temporaryFolder()
        let preset = folder + "/in-ear.toml"
        try """
            [[bus]]
            name = "main"
            channels = 1
            in_ear = true
            connect = ["system:playback_1"]
            [[strip]]
            name = "vox"
            connect = ["system:capture_1"]
              [[strip.unit]]
              type = "compressor"
              lookahead_ms = 2.0
              [[strip.send]]
              bus = "main"
            """.write(toFile: preset, atomically: true, encoding: .utf8)
        let rig = try LiveControlRig(server: serverName, arguments: [preset], testCase: self)
        defer { rig.close() }
        XCTAssertNil(rig.lister.connect(from: "system:capture_1", to: "\(rig.clientName):vox_in"))
        XCTAssertNil(rig.lister.connect(from: "\(rig.clientName):main", to: "system:playback_1"))

        let added = Int((0.002 * Double(Self.sampleRate)).rounded())
        let capture = try XCTUnwrap(rig.lister.latencyRange(ofPort: "system:capture_1", mode: .capture)).upperBound
        let playback = try XCTUnwrap(rig.lister.latencyRange(ofPort: "system:playback_1", mode: .playback)).upperBound
        let roundTrip = capture + added + playback
        XCTAssertGreaterThan(Double(roundTrip) * 1000 / Double(Self.sampleRate), 5, "the dummy server's periods alone pass the budget")

        // JACK recomputes port latencies after the connections, asynchronously: wait until Foldback has heard it.
        var reply = try XCTUnwrap(try rig.request("/foldback/bus/main/latency/get"))
        try waitFor("JACK's new latencies reach foldback", timeout: 10) {
            reply = try XCTUnwrap(try rig.request("/foldback/bus/main/latency/get"))
            return reply.arguments.count == 4 && reply.arguments[3] == .int(Int32(roundTrip))
        }
        XCTAssertEqual(reply.path, "/foldback/bus/main/latency")
        XCTAssertEqual(reply.arguments.count, 4)
        XCTAssertEqual(Double(reply.arguments[0].number ?? -1), Double(added) * 1000 / Double(Self.sampleRate), accuracy: 1e-3)
        XCTAssertEqual(Double(reply.arguments[1].number ?? -1), Double(roundTrip) * 1000 / Double(Self.sampleRate), accuracy: 1e-3)
        XCTAssertEqual(reply.arguments[2], .int(Int32(added)))
        XCTAssertEqual(reply.arguments[3], .int(Int32(roundTrip)))
        XCTAssertEqual(try rig.request("/foldback/bus/nope/latency/get")?.path, "/foldback/error")

        // At start (run with --no-connect by the rig) only Foldback's part and the capture side were known;
        // the warning needs the playback side too, so start a second run that makes the preset's connections.
        let connected = try FoldbackRun(["run", preset, "--server", serverName, "--quiet", "--name", "\(rig.clientName)-2"],
                                        testBundle: Bundle(for: Self.self))
        defer { connected.stop() }
        try connected.waitUntilRunning()
        // The latency block follows the start-up lines once JACK has settled the connected ports' latencies.
        try? waitFor("the in-ear warning") { connected.standardError.contains("warning: in-ear bus 'main'") }
        let text = connected.standardError
        let milliseconds = { (frames: Int) in String(format: "%.2f", Double(frames) * 1000 / Double(Self.sampleRate)) }
        XCTAssertTrue(text.contains("main (in-ear): Foldback adds \(milliseconds(added)) ms (\(added) frames); round trip \(milliseconds(roundTrip)) ms (\(roundTrip) frames)"), text)
        XCTAssertTrue(text.contains("warning: in-ear bus 'main' has a round trip of \(milliseconds(roundTrip)) ms, over the 5 ms"), text)
    }
}
