// Foldback on netjack2 slaves of a dummy master over 127.0.0.1: level, round trip, two slaves aligned, master restarts. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackJACK
import FoldbackTestSupport
import XCTest

final class NetJACKTests: XCTestCase {
    override func setUpWithError() throws {
        guard JACKServerLauncher.jackdPath() != nil else { throw XCTSkip("jackd is not installed") }
    }

    /// Two mixing machines on one stage box: two slaves, each running Foldback on the same input with its own
    /// bus. At the master each path is unity (0 ± 0.05 dB, in fact sample-exact), its delay equals the network
    /// latency its slave reports to the frame ((2 + 1) × 128), and both slaves' outputs are frame-aligned.
    func testTwoSlavesAreUnityExactlyAsLateAsReportedAndFrameAligned() throws {
        let rig = try NetJACKRig(slaveNames: ["foh\(getpid())", "iem\(getpid())"], testBundle: Bundle(for: Self.self))
        let client = try XCTUnwrap(rig.client)
        let recording = try client.record(frames: 4_800, settleFrames: 4_800, attempts: 5)
        var lags: [Int] = []
        for (index, name) in rig.slaveNames.enumerated() {
            let reported = try rig.reportedLatency(slave: index)
            XCTAssertEqual(reported, 3 * rig.period, "\(name): (latency 2 + 1) periods")
            let lag = try XCTUnwrap(rig.lag(of: recording, channel: index), "\(name): the recording is the played noise, delayed")
            XCTAssertEqual(lag, reported, "\(name): round trip at the master = the latency the slave reports")
            XCTAssertEqual(rig.gainDB(of: recording, channel: index, lag: lag), 0, accuracy: 0.05, "\(name): unity through Foldback")
            lags.append(lag)
            print("\(name): round trip \(lag) frames at the master, slave reports \(reported)")
        }
        XCTAssertEqual(Set(lags).count, 1, "both slaves' outputs reach the master frame-aligned: \(lags)")
        let iem = rig.slaves[1].standardError
        XCTAssertTrue(iem.contains("(in-ear): Foldback adds 0.00 ms (0 frames); round trip 8.00 ms (384 frames)"), iem)
        XCTAssertTrue(iem.contains("the network adds 8.00 ms (384 frames) to each bus's round trip"), iem)
        XCTAssertTrue(iem.contains("in-ear bus '\(rig.slaveNames[1])' has a round trip of 8.00 ms, over the 5 ms"), "the in-ear warning counts the network:\n\(iem)")
    }

    /// The master is killed (SIGKILL) and started again three times: each time Foldback says it waits for JACK,
    /// keeps running, and within 5 s of the master being back its audio reaches the master again (unity, as
    /// late as before) with both its connections to the slave's system ports restored.
    func testMasterKilledThreeTimesFoldbackAudioBackWithin5Seconds() throws {
        let name = "stage\(getpid())"
        let rig = try NetJACKRig(slaveNames: [name], testBundle: Bundle(for: Self.self))
        let run = rig.slaves[0]
        let latency = try rig.reportedLatency(slave: 0)
        // libjack serves one server per process (the master here): jack_lsp reads the slave's connections.
        let wiring = { () throws -> [String] in
            let lines = try JACKTools.run("jack_lsp", "-c", "\(name):", server: "\(name)-slave").split(separator: "\n")
            return lines.filter { $0.hasPrefix(" ") || $0.hasPrefix("\t") }.map { $0.trimmingCharacters(in: .whitespaces) }.sorted()
        }
        do {
            try waitFor("foldback's connections to the slave's system ports") { try wiring() == ["system:capture_1", "system:playback_1"] }
        } catch {
            throw NetRigFailure("\(error): \(try wiring()); foldback:\n\(run.standardError)")
        }
        var slowest = 0.0
        for round in 1...3 {
            rig.killMaster()
            let waits = run.standardError.components(separatedBy: "waiting for JACK:").count - 1
            do {
                try waitFor("round \(round): foldback waits for JACK", timeout: 10) {
                    run.standardError.components(separatedBy: "waiting for JACK:").count - 1 > waits
                }
            } catch {
                throw NetRigFailure("\(error); foldback:\n\(run.standardError)")
            }
            XCTAssertTrue(run.process.isRunning, "round \(round): foldback keeps running without a master")
            try rig.startMaster()
            let back = Date()
            try rig.openClient(timeout: 5)
            let client = try XCTUnwrap(rig.client)
            var lag: Int?
            do {
                try waitFor("round \(round): audio through foldback at the master", timeout: 5) {
                    lag = rig.lag(of: try client.record(frames: 1_024, settleFrames: 0, attempts: 1, timeout: 2), channel: 0)
                    return lag != nil
                }
            } catch {
                throw NetRigFailure("\(error); foldback:\n\(run.standardError)")
            }
            XCTAssertEqual(lag, latency, "round \(round): as late as before")
            let elapsed = Date().timeIntervalSince(back)
            slowest = max(slowest, elapsed)
            XCTAssertLessThan(elapsed, 5, "round \(round)")
            XCTAssertEqual(try wiring(), ["system:capture_1", "system:playback_1"], "round \(round): connections restored")
        }
        print("master restarts: Foldback's audio back at the master within \(String(format: "%.2f", slowest)) s of the master starting")
        run.stop()
        XCTAssertEqual(run.process.terminationStatus, 0, run.standardError)
        XCTAssertGreaterThanOrEqual(run.standardError.components(separatedBy: "is running again after").count - 1, 3, run.standardError)
        XCTAssertFalse(run.standardError.contains("will not be restored"), "nothing the slave dropped counts as a patchbay disconnect:\n\(run.standardError)")
    }
}
