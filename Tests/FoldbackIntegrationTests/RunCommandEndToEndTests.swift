// `foldback run` as a user runs it: a monitor-mix preset on a dummy jackd, heard by a JACK test client. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackJACK
import FoldbackJACKTesting
import XCTest
import FoldbackTestSupport

/// Starts the real `foldback` binary on a JACK server (CI's own when `.ci/run` exports
/// FOLDBACK_CI_JACK_SERVER, else this class's private one), plays hashed noise into its ports, records
/// its buses and checks every sample against the preset's mix law: gains, pans, pre/post-fader sends to
/// 1e-6, delayed by exactly the latency Foldback reports to JACK (the buses' safety limiters' lookahead,
/// nothing else). Then stops it with SIGINT: exit 0, ports gone.
final class RunCommandEndToEndTests: JACKServerTestCase {
    private var runServer: String {
        get throws { try ProcessInfo.processInfo.environment["FOLDBACK_CI_JACK_SERVER"] ?? serverName }
    }

    func testAMonitorMixPresetMixesAsItStatesDelayedOnlyByTheReportedLimiterLatency() throws {
        try assertMixLaw(preset: fixturePath("monitor-mix.toml"), clientName: "fb-e2e-\(getpid())", inEarLimiterMs: 1.5)
    }

    /// The same mix on two render threads (the process thread and a JACK-created worker): every sample still
    /// follows the mix law to 1e-6 with the same latency, and foldback says how it renders.
    func testTwoRenderThreadsMixByTheSameLaw() throws {
        guard ProcessInfo.processInfo.activeProcessorCount >= 2 else { throw XCTSkip("one CPU: --threads 2 is refused here") }
        let report = try assertMixLaw(
            preset: fixturePath("monitor-mix.toml"), clientName: "fb-threads-\(getpid())", inEarLimiterMs: 1.5, arguments: ["--threads", "2"])
        XCTAssertTrue(report.contains("rendering on 2 threads: the JACK process thread and 1 worker"), report)
    }

    /// The same preset with `in_ear = true` on iem_vox: its limiter runs in zero-latency mode, so iem_vox is
    /// sample-aligned with the inputs (0 frames, JACK frame time, every sample to 1e-6) while main keeps its
    /// lookahead; both figures are what JACK reports and what `foldback run` prints.
    func testAnInEarBusHasAZeroLatencyLimiterAndPassesSignalWithNoDelay() throws {
        let fixture = try String(contentsOfFile: fixturePath("monitor-mix.toml"), encoding: .utf8)
        let inEar = FileManager.default.temporaryDirectory.appendingPathComponent("in-ear-\(getpid()).toml").path
        try fixture.replacingOccurrences(of: "name = \"iem_vox\"\n", with: "name = \"iem_vox\"\nin_ear = true\n")
            .write(toFile: inEar, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: inEar) }
        let report = try assertMixLaw(preset: inEar, clientName: "fb-iem-\(getpid())", inEarLimiterMs: 0)
        XCTAssertTrue(report.contains("iem_vox (in-ear): Foldback adds 0.00 ms (0 frames); round trip 0.00 ms (0 frames)"), report)
        XCTAssertTrue(report.contains("main: Foldback adds 1.50 ms (72 frames); round trip 1.50 ms (72 frames)"), report)
    }

    /// Plays noise through `preset` (Fixtures/monitor-mix.toml or a variant) and checks every recorded sample
    /// of the four outputs against the mix law, delayed by main's 1.5 ms limiter lookahead and by
    /// `inEarLimiterMs` on iem_vox, and that JACK reports exactly those latencies. Returns foldback's log.
    @discardableResult
    private func assertMixLaw(preset: String, clientName: String, inEarLimiterMs: Double, arguments: [String] = []) throws -> String {
        let rig = try wiredMonitorRig(
            preset: preset, clientName: clientName, arguments: arguments,
            signals: (0..<3).map { TestSignal.noise(seed: UInt32(11 + $0), level: -12) }, capacity: 8192)
        defer { rig.close() }   // keeps foldback and the clients alive to the end of the test
        let (foldback, probe, client) = (rig.run.process, rig.probe, rig.client)
        XCTAssertEqual(Set(probe.portNames(matching: "^\(clientName):")), Set(
            ["vox_in", "backing_in_L", "backing_in_R", "main_L", "main_R", "iem_vox_L", "iem_vox_R", "midi_in"].map { "\(clientName):\($0)" }))
        let recording = try client.record(frames: 4096, settleFrames: 2048)
        // The only latency is the bus limiters' lookahead, and JACK knows it (what `jack_lsp -l` shows).
        let delays = [1.5, 1.5, inEarLimiterMs, inEarLimiterMs].map { UInt32((0.001 * $0 * recording.sampleRate).rounded()) }
        for (port, delay) in zip(["main_L", "iem_vox_L"], [delays[0], delays[2]]) {
            let latency = try XCTUnwrap(probe.latencyRange(ofPort: "\(clientName):\(port)", mode: .capture))
            XCTAssertEqual(latency, Int(delay)...Int(delay), "capture latency of foldback:\(port)")
        }

        // Fixtures/monitor-mix.toml: vox trim +6 dB, centre pan (constant power), fader 0 dB;
        // backing fader −4 dB; main gets post-fader sends at 0 dB; iem_vox (bus −3 dB) gets vox pre-fader +3 dB
        // and backing pre-fader −10 dB.
        func gain(_ decibels: Double) -> Double { pow(10, decibels / 20) }
        let centre = 0.5.squareRoot()
        func played(_ channel: Int, _ time: UInt32, _ delay: UInt32) -> Double {
            Double(client.expectedSample(channel: channel, frameTime: time &- delay))
        }
        let expectations: [(String, (UInt32, UInt32) -> Double)] = [
            ("main_L", { played(0, $0, $1) * gain(6) * centre + played(1, $0, $1) * gain(-4) }),
            ("main_R", { played(0, $0, $1) * gain(6) * centre + played(2, $0, $1) * gain(-4) }),
            ("iem_vox_L", { played(0, $0, $1) * gain(6 + 3 - 3) * centre + played(1, $0, $1) * gain(-10 - 3) }),
            ("iem_vox_R", { played(0, $0, $1) * gain(6 + 3 - 3) * centre + played(2, $0, $1) * gain(-10 - 3) }),
        ]
        for (channel, (port, expected)) in expectations.enumerated() {
            let delay = delays[channel]
            let error = SignalCheck.maxError(recording, channel: channel) { expected($0, delay) }
            XCTAssertLessThan(error, 1e-6, "\(port): recorded vs expected, \(delay) frames earlier in JACK frame time")
            XCTAssertGreaterThan(SignalCheck.peak(recording, channel: channel), 0.05, "\(port) carries signal")
            let late = SignalCheck.maxError(recording, channel: channel) { expected($0, delay &+ 1) }
            XCTAssertGreaterThan(late, 1e-3, "\(port): a one-frame-off delay must not match: the check really measures latency")
        }

        XCTAssertTrue(foldback.stop(within: 20), "foldback ended within 20 s of SIGINT")
        XCTAssertEqual(foldback.terminationStatus, 0, "SIGINT deactivates, closes and exits 0")
        try waitFor("foldback's ports disappear", timeout: 10) { probe.portNames(matching: "^\(clientName):").isEmpty }
        return rig.run.standardError
    }

    func testTheShippedVocalMonitorSoundsOnEveryBusAndNeverPassesTheLimiterCeiling() throws {
        let clientName = "fb-vocal-\(getpid())"
        // Hot inputs: +6 dB over full scale on the mic, so the limiters have work to do.
        let rig = try wiredMonitorRig(
            preset: presetPath("vocal-monitor.toml"), clientName: clientName,
            signals: [TestSignal.noise(seed: 5, level: 6), .noise(seed: 6, level: -6), .noise(seed: 7, level: -6)], capacity: 48000)
        defer { rig.close() }
        let (foldback, client) = (rig.run.process, rig.client)
        XCTAssertEqual(rig.probe.portNames(matching: "^\(clientName):").count, 8, "7 audio ports and midi_in")
        let recording = try client.record(frames: 24000, settleFrames: 4800, requiresContinuity: false)
        let ceiling = pow(10, -1.0 / 20)
        for channel in 0..<4 {
            let samples = recording.channels[channel]
            XCTAssertTrue(samples.allSatisfy(\.isFinite), "output \(channel) is finite")
            XCTAssertGreaterThan(SignalCheck.peak(recording, channel: channel), 0.05, "output \(channel) sounds")
            XCTAssertLessThanOrEqual(SignalCheck.peak(recording, channel: channel), ceiling, "output \(channel): the −1 dBFS limiter ceiling holds")
        }
        XCTAssertTrue(foldback.stop(within: 20), "foldback ended within 20 s of SIGINT")
        XCTAssertEqual(foldback.terminationStatus, 0)
    }

    func testRunWithABrokenPresetExitsTwoAndNamesTheLine() throws {
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(getpid()).toml")
        try "[[bus]]\nname = \"main\"\n\n[[strip]]\nname = \"vox\"\npan = 3.0\n".write(to: broken, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: broken) }
        let run = try FoldbackRun(["run", broken.path, "--server", try runServer], testBundle: Bundle(for: Self.self))
        defer { run.stop() }
        let foldback = run.process
        XCTAssertTrue(foldback.waitUntilExit(within: 20), "a broken preset ends the run")
        let text = run.standardError
        XCTAssertEqual(foldback.terminationStatus, 2)
        XCTAssertTrue(text.contains("\(broken.path):6:"), text)
        XCTAssertTrue(text.contains("pan"), text)
    }

    func testServerShutdownIsReportedAndFoldbackWaitsForJACK() throws {
        let ownServer = try JACKServerLauncher(serverName: JACKServerLauncher.uniqueServerName(prefix: "fbshut"), timeout: 20)
        defer { ownServer.stop() }
        let run = try FoldbackRun(
            ["run", presetPath("passthrough.toml"), "--server", ownServer.serverName, "--no-connect", "--quiet"], testBundle: Bundle(for: Self.self))
        defer { run.stop() }   // keeps the run alive to the end of the test
        let foldback = run.process
        try run.waitUntilRunning()
        ownServer.stop()
        try waitFor("foldback says it waits for JACK", timeout: 20) { run.standardError.contains("waiting for JACK") }
        XCTAssertTrue(foldback.isRunning, "a server shutdown does not end the run")
        XCTAssertTrue(foldback.stop(within: 20), "foldback ended within 20 s of SIGINT")
        let text = run.standardError
        XCTAssertEqual(foldback.terminationStatus, 0, "SIGINT while waiting still exits 0: \(text)")
        XCTAssertTrue(text.contains("JACK server shut down"), text)
    }

    // MARK: Helpers

    /// foldback running `preset` (a vox strip, a stereo backing strip, `main` and `iem_vox` buses) on the
    /// run server, a port lister, and a test client playing `signals` into its three inputs and recording
    /// its four outputs.
    private struct MonitorRig {
        let run: FoldbackRun
        let probe: JACKClient
        let client: JACKTestClient

        func close() {
            client.close()
            probe.close()
            run.stop()
        }
    }

    private func wiredMonitorRig(
        preset: String, clientName: String, arguments: [String] = [], signals: [TestSignal], capacity: Int, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> MonitorRig {
        let server = try runServer
        let run = try FoldbackRun(
            ["run", preset, "--server", server, "--no-connect", "--quiet", "--name", clientName] + arguments, testBundle: Bundle(for: Self.self))
        try run.waitUntilRunning()
        let probe = try JACKClient(name: "\(clientName)-lister", serverName: server)
        let client = try JACKTestClient(serverName: server, signals: signals, recordChannels: 4, capacity: capacity, namePrefix: "\(clientName)-test")
        XCTAssertEqual(client.connectPlayer(to: ["vox_in", "backing_in_L", "backing_in_R"].map { "\(clientName):\($0)" }), [], file: file, line: line)
        XCTAssertEqual(client.connectRecorder(from: ["main_L", "main_R", "iem_vox_L", "iem_vox_R"].map { "\(clientName):\($0)" }), [], file: file, line: line)
        return MonitorRig(run: run, probe: probe, client: client)
    }

    private func fixturePath(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").appendingPathComponent(name).path
    }

    private func presetPath(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("presets").appendingPathComponent(name).path
    }


}
