// `foldback run` facts checked on PipeWire's JACK (scripts/pipewire-tests.sh): latencies, stop signals with a take, restarts. Non-realtime.
import Foundation
import FoldbackJACK
import FoldbackRender
import XCTest

/// Written for `FOLDBACK_TEST_SERVER=pipewire` (a private headless PipeWire daemon, PipeWire's libjack);
/// the first two run on jackd as well, the restarts only on PipeWire (``ServerRestartTests`` covers jackd).
final class PipeWireServerTests: JACKServerTestCase {
    /// Each port's latency as `jack_lsp -l` shows it, with no hardware ports: `limited` (a safety limiter,
    /// 72 frames of lookahead at 48 kHz) captures 72 frames late, `direct` 0; `vox_in` feeds both (0 to 72
    /// frames to playback), `aux_in` only `direct` (0).
    func testEachPortsLatencyIsWhatJackLspShows() throws {
        let server = try serverName
        let name = "fb-pwlat-\(getpid())"
        let preset = try temporaryPreset(name: name, """
            [[bus]]
            name = "limited"
            channels = 1

            [[bus]]
            name = "direct"
            channels = 1
            limiter = false

            [[strip]]
            name = "vox"
              [[strip.send]]
              bus = "limited"
              [[strip.send]]
              bus = "direct"

            [[strip]]
            name = "aux"
              [[strip.send]]
              bus = "direct"
            """)
        defer { try? FileManager.default.removeItem(at: preset) }
        let run = try FoldbackRun(["run", preset.path, "--server", server, "--name", name, "--quiet"], testBundle: Bundle(for: Self.self))
        defer { run.stop() }
        try run.waitUntilRunning()
        let expected = ["\(name):limited": "72...72 / 0...0", "\(name):direct": "0...0 / 0...0",
                        "\(name):vox_in": "0...0 / 0...72", "\(name):aux_in": "0...0 / 0...0"]
        var listed: [String: String] = [:]
        do {
            try waitFor("jack_lsp -l shows the per-port latencies") {
                listed = Self.latencies(try JACKTools.run("jack_lsp", "-l", server: server))
                return expected.allSatisfy { listed[$0.key] == $0.value }
            }
        } catch {
            XCTFail("\(error): capture / playback latencies listed: \(listed)")
        }
    }

    /// SIGINT (Ctrl-C) and SIGTERM (what a service manager sends) each end a recording run with status 0
    /// and a finished take: the file's header counts every frame the recorder reports written, and that is
    /// every frame processed.
    func testSIGINTAndSIGTERMEachExitZeroWithAFinishedTake() throws {
        for (signal, label) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fb-pwstop-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let run = try FoldbackRun(
                ["run", Self.fixture("monitor-mix.toml"), "--server", try serverName, "--no-connect", "--quiet",
                 "--name", "fb-pwstop-\(getpid())", "--record", directory.path, "--record-buses", "main"],
                testBundle: Bundle(for: Self.self))
            defer { run.stop() }
            try run.waitUntilRunning()
            let file = try XCTUnwrap(try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil).first)
            try waitFor("\(label): a tenth of a second is on disk", timeout: 20) {
                ((try? AudioFileReader(url: file).frameCount) ?? 0) > 4_800
            }
            XCTAssertTrue(run.process.stop(signal: signal, within: 20), "\(label) ends the run")
            let log = run.standardError
            XCTAssertEqual(run.process.terminationStatus, 0, "\(label) exits 0:\n\(log)")
            let report = try XCTUnwrap(log.split(separator: "\n").first { $0.contains("recording stopped") }, "\(label):\n\(log)")
            let counts = report.split(separator: " ").compactMap { Int($0) }
            XCTAssertEqual(counts.count, 2, String(report))
            XCTAssertEqual(counts.first, counts.last, "\(label): frames written == frames processed: \(report)")
            let reader = try AudioFileReader(url: file)
            XCTAssertEqual(reader.frameCount, counts.first, "\(label): the header counts every frame written")
            XCTAssertEqual(try reader.readAll()[0].count, reader.frameCount, "\(label): every counted frame reads back")
        }
    }

    /// Three times: the PipeWire daemon stops (SIGTERM, as `systemctl --user restart pipewire`; SIGKILL in
    /// round 2, as a crash) while everything runs; foldback says it waits for the server; the daemon comes back
    /// under the same name and the peers (a player, a recorder, a MIDI sender) reopen. Each time, within 5 s,
    /// foldback has the same client name and ports, all five connections (two from the preset, three made by
    /// jack_connect) are back, and the outputs equal the inputs sample by sample. SIGINT then exits 0, and the audio
    /// thread made no allocation or free in the whole run.
    func testThreePipeWireRestartsRejoinPortsAndRestoreConnections() throws {
        guard TestJACKServers.isPipeWire else {
            throw XCTSkip("PipeWire restarts run under scripts/pipewire-tests.sh; ServerRestartTests covers jackd")
        }
        let serverName = JACKServerLauncher.uniqueServerName(prefix: "fbpwrestart")
        var server: (any TestJACKServer)? = try TestJACKServers.start(serverName: serverName)
        defer { server?.stop() }
        let rig = try ResilienceRig(serverName: serverName, name: "fb-pwrestart-\(getpid())", testBundle: Bundle(for: Self.self))
        var observer = try JACKClient(name: "fb-pwrestart-observer", serverName: serverName)
        try waitFor("the jack_connect connections") { rig.connections(seenBy: observer) == rig.expectedConnectionLines }
        try rig.assertAudioFlows("before any restart")
        let ports = Set(observer.portNames(matching: "^\(rig.name):"))
        XCTAssertEqual(ports.count, 5, "four audio ports and midi_in")

        for round in 1...3 {
            if round == 2 { server?.kill() } else { server?.stop() }
            observer.close()
            rig.closeClients()
            try waitFor("foldback waits for the server (round \(round))") {
                rig.run.standardError.components(separatedBy: "waiting for JACK server").count - 1 == round
            }
            XCTAssertTrue(rig.run.process.isRunning, "round \(round): foldback keeps running without a server")
            server = try TestJACKServers.start(serverName: serverName)
            let ready = Date()
            try rig.reopenClient()
            observer = try JACKClient(name: "fb-pwrestart-observer", serverName: serverName)
            do {
                try waitFor("round \(round): ports and connections restored", timeout: 5) {
                    rig.connections(seenBy: observer) == rig.expectedConnectionLines
                }
            } catch {
                XCTFail("\(error): \(rig.connections(seenBy: observer)); foldback:\n\(rig.run.standardError)")
                throw error
            }
            let elapsed = Date().timeIntervalSince(ready)
            XCTAssertLessThan(elapsed, 5, "round \(round): restored \(elapsed) s after the daemon was ready")
            XCTAssertEqual(Set(observer.portNames(matching: "^\(rig.name):")), ports, "round \(round): same client and ports")
            try rig.assertAudioFlows("round \(round)")
            print("PipeWire restart \(round): ports and connections back \(String(format: "%.2f", elapsed)) s after the daemon")
        }
        observer.close()
        let (status, log) = rig.stop()
        XCTAssertEqual(status, 0, "SIGINT exits 0 after three restarts:\n\(log)")
        XCTAssertEqual(log.components(separatedBy: "is back: reopened '\(rig.name)'").count - 1, 3, log)
        XCTAssertFalse(log.contains("will not be restored"), "nothing lost in a shutdown counts as a patchbay disconnect:\n\(log)")
        XCTAssertTrue(log.contains("audio path: 0 allocations, 0 frees"), "no malloc or free on the audio thread:\n\(log)")
    }

    /// First contact on a desktop's PipeWire (here scripts/pipewire-tests.sh's daemon at `$XDG_RUNTIME_DIR/pipewire-0`):
    /// with jackd's libjack, `foldback run` exits 1 naming the daemon and the `pw-jack` command; through PipeWire's
    /// libjack, with no server named, it runs on that daemon with all its ports, and SIGINT exits 0.
    func testOnAUsersPipeWireFoldbackRunsThroughPwJackAndPointsThereWithoutIt() throws {
        guard TestJACKServers.isPipeWire, PipeWirePresence.detect(scansProcesses: false) != nil else {
            throw XCTSkip("needs PipeWire's libjack and a daemon at $XDG_RUNTIME_DIR/pipewire-0 (scripts/pipewire-tests.sh)")
        }
        let arguments = ["run", Self.fixture("monitor-mix.toml"), "--no-connect", "--quiet", "--name", "fb-pwfirst-\(getpid())"]
        let withJackd = try FoldbackRun(arguments, testBundle: Bundle(for: Self.self), environment: ["LD_LIBRARY_PATH": "", "JACK_DEFAULT_SERVER": ""])
        XCTAssertTrue(withJackd.process.waitUntilExit(within: 20), "no JACK server ends the run")
        let told = withJackd.standardError
        XCTAssertEqual(withJackd.process.terminationStatus, 1, told)
        XCTAssertTrue(told.contains("No JACK server named 'default' is running"), told)
        XCTAssertTrue(told.contains("PipeWire runs for this user (its socket "), told)
        XCTAssertTrue(told.contains("\n    pw-jack "), told)

        let run = try FoldbackRun(arguments, testBundle: Bundle(for: Self.self), environment: ["JACK_DEFAULT_SERVER": ""])
        defer { run.stop() }
        try run.waitUntilRunning()
        let observer = try JACKClient(name: "fb-pwfirst-observer")
        defer { observer.close() }
        XCTAssertEqual(observer.portNames(matching: "^fb-pwfirst-\(getpid()):").count, 8, "three inputs, four outputs, midi_in")
        XCTAssertTrue(run.process.stop(signal: SIGINT, within: 20))
        XCTAssertEqual(run.process.terminationStatus, 0, run.standardError)
    }

    // MARK: Helpers

    private func temporaryPreset(name: String, _ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).toml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    private static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").appendingPathComponent(name).path
    }

    /// `jack_lsp -l` as port → "capture min...max / playback min...max".
    private static func latencies(_ listing: String) -> [String: String] {
        var result: [String: String] = [:]
        var port = ""
        var playback = ""
        for line in listing.split(separator: "\n").map(String.init) {
            guard line.hasPrefix("\t") || line.hasPrefix(" ") else {
                port = line
                continue
            }
            let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            guard numbers.count == 2 else { continue }
            if line.contains("playback latency") { playback = "\(numbers[0])...\(numbers[1])" }
            if line.contains("capture latency") { result[port] = "\(numbers[0])...\(numbers[1]) / \(playback)" }
        }
        return result
    }
}
