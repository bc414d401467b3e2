// `foldback run` facts checked on PipeWire's JACK (scripts/pipewire-tests.sh): stop signals with a take, first contact. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackJACK
import FoldbackRender
import XCTest

/// Written for `FOLDBACK_TEST_SERVER=pipewire` (a private headless PipeWire daemon, PipeWire's libjack);
/// the stop signals run on jackd as well, first contact only on PipeWire.
final class PipeWireServerTests: JACKServerTestCase {
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

    private static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").appendingPathComponent(name).path
    }
}
