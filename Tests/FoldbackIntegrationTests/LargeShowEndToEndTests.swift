// A 300-input show: `foldback check` and `foldback run` agree, the engine sizes itself to the preset, the last strip mixes. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackJACK
import FoldbackJACKTesting
import Foundation
import XCTest
import FoldbackTestSupport

final class LargeShowEndToEndTests: XCTestCase {
    /// 300 mono strips into one mono bus: `check` exits 0, `run` opens all 300 inputs, and a sine played
    /// into the 300th reaches the bus at its send level (−6 dB, sample for sample), and
    /// SIGINT ends it at once (exit 0).
    func testThreeHundredInputsCheckRunAndMix() throws {
        guard JACKServerLauncher.jackdPath() != nil else { throw XCTSkip("jackd is not installed") }
        let folder = try LiveControlRig.temporaryFolder()
        let preset = folder + "/large.toml"
        try LargeShow.preset(strips: 300, sendDB: -6).write(toFile: preset, atomically: true, encoding: .utf8)

        let check = try FoldbackRun(["check", preset], testBundle: Bundle(for: Self.self), standardOutput: .nullDevice)   // 300 strips of listing stay out of the test log
        XCTAssertTrue(check.process.waitUntilExit(within: 60), "foldback check ended")
        XCTAssertEqual(check.process.terminationStatus, 0, check.standardError)

        let show = try LargeShow([preset], prefix: "fb-large", testBundle: Bundle(for: Self.self))
        defer { show.close() }
        let (serverName, name, run) = (show.serverName, show.name, show.run)
        XCTAssertEqual(show.stripInputCount, 300)

        let client = try JACKTestClient(serverName: serverName, signals: [.sine(frequency: 440, level: -12)], recordChannels: 1,
                                        capacity: 16_384, namePrefix: "\(name)-t")
        defer { client.close() }
        XCTAssertEqual(client.connectPlayer(to: ["\(name):s300_in"]), [])
        XCTAssertEqual(client.connectRecorder(from: ["\(name):main"]), [])
        let recording = try client.record(frames: 4_096, settleFrames: 1_024, attempts: 5)
        let error = SignalCheck.maxError(recording, channel: 0) {
            Double(client.expectedSample(channel: 0, frameTime: $0)) * pow(10, -6.0 / 20)
        }
        XCTAssertLessThan(error, 1e-5, "s300 reaches main at −6 dB, sample for sample")

        // Closing a client of 300 ports with metadata must not wedge jackd (see JACKClient.close()).
        XCTAssertTrue(run.process.stop(within: 20), "foldback run exits after SIGINT")
        XCTAssertEqual(run.process.terminationStatus, 0, run.standardError)
        XCTAssertTrue(run.standardError.contains("s1_in s2_in"), "the start-up summary lists the first ports")
        XCTAssertTrue(run.standardError.contains("… (300 ports) …"), "and abbreviates the rest")
    }

    /// A setlist whose second song has 300 inputs: the engine is sized for the largest song at start, so
    /// `/foldback/setlist/next` switches to it (the first song has two) and all 300 ports appear.
    func testASetlistSizesTheEngineForItsLargestSong() throws {
        guard JACKServerLauncher.jackdPath() != nil else { throw XCTSkip("jackd is not installed") }
        let folder = try LiveControlRig.temporaryFolder()
        try LargeShow.preset(strips: 2).write(toFile: folder + "/small.toml", atomically: true, encoding: .utf8)
        try LargeShow.preset(strips: 300).write(toFile: folder + "/large.toml", atomically: true, encoding: .utf8)
        try "[[song]]\npreset = \"small.toml\"\n[[song]]\npreset = \"large.toml\"\n"
            .write(toFile: folder + "/show.toml", atomically: true, encoding: .utf8)

        let show = try LargeShow(["--setlist", folder + "/show.toml"], prefix: "fb-setl", testBundle: Bundle(for: Self.self))
        defer { show.close() }
        let run = show.run
        XCTAssertEqual(show.stripInputCount, 2)
        let osc = try OSCClient(serverPort: try run.announcedOSCPort())
        let reply = try osc.request(OSCMessage("/foldback/setlist/next"), timeout: 20) { $0.path.hasPrefix("/foldback/setlist") || $0.path.hasPrefix("/foldback/error") }
        XCTAssertEqual(reply?.path, "/foldback/setlist", "\(String(describing: reply)) \(run.standardError)")
        try waitFor("the 300 inputs of the second song", timeout: 20) { show.stripInputCount == 300 }
        XCTAssertTrue(run.process.stop(within: 20), "SIGINT ends the run")
        XCTAssertEqual(run.process.terminationStatus, 0, run.standardError)
    }
}

/// A private dummy jackd, `foldback run ARGUMENTS` on it (quiet, OSC on a free port) and a client that lists its
/// ports; ``close()`` ends all three.
private final class LargeShow {
    let serverName: String
    let name: String
    let run: FoldbackRun
    private let server: JACKServerLauncher
    private let lister: JACKClient

    /// Mono strips `s1`…`sN` into one mono bus `main` without a limiter, each sent at `sendDB`.
    static func preset(strips: Int, sendDB: Double = 0) -> String {
        "[[bus]]\nname = \"main\"\nchannels = 1\nlimiter = false\n"
            + (1...strips).map { "[[strip]]\nname = \"s\($0)\"\n  [[strip.send]]\n  bus = \"main\"\n  gain_db = \(sendDB)\n" }.joined()
    }

    init(_ arguments: [String], prefix: String, testBundle: Bundle) throws {
        serverName = JACKServerLauncher.uniqueServerName(prefix: prefix.replacingOccurrences(of: "-", with: ""))
        name = "\(prefix)-\(getpid())"
        server = try JACKServerLauncher(serverName: serverName, timeout: 20)
        do {
            run = try FoldbackRun(["run"] + arguments + ["--server", serverName, "--name", name, "--quiet", "--osc-port", "0"], testBundle: testBundle)
            try run.waitUntilRunning()
            lister = try JACKClient(name: "\(name)-lister", serverName: serverName)
        } catch {
            server.stop()
            throw error
        }
    }

    /// Foldback's strip input ports now.
    var stripInputCount: Int { lister.portNames(matching: "^\(name):s[0-9]+_in$").count }

    func close() {
        lister.close()
        run.stop()
        server.stop()
    }
}
