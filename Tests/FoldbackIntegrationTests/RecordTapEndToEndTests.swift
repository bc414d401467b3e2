// `foldback run --record` live on a dummy jackd: the take equals what a JACK client heard, no frame is lost, a SIGKILLed take is readable. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackJACK
import FoldbackJACKTesting
import FoldbackRender
import XCTest
import FoldbackTestSupport

final class RecordTapEndToEndTests: JACKServerTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-rec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
        try super.tearDownWithError()
    }

    /// A take started and stopped with SIGUSR1 while a test client plays noise into the mix and records
    /// the `main` bus ports: the file holds every frame processed, and the client's 1 s recording appears
    /// in it sample for sample.
    func testASignalledTakeHoldsEveryFrameAndEqualsWhatTheBusPortsCarried() throws {
        let clientName = "fb-rec-\(getpid())"
        let server = try serverName
        let run = try FoldbackRun(
            ["run", fixture("monitor-mix.toml"), "--server", server, "--no-connect", "--quiet", "--name", clientName,
             "--record", directory.path, "--record-buses", "main", "--record-paused"],
            testBundle: Bundle(for: Self.self))
        defer { run.stop() }
        try run.waitUntilRunning()
        let client = try JACKTestClient(
            serverName: server, signals: (0..<3).map { .noise(seed: UInt32(21 + $0), level: -12) }, recordChannels: 2,
            capacity: 48_000, namePrefix: "\(clientName)-test")
        defer { client.close() }
        XCTAssertEqual(client.connectPlayer(to: ["vox_in", "backing_in_L", "backing_in_R"].map { "\(clientName):\($0)" }), [])
        XCTAssertEqual(client.connectRecorder(from: ["main_L", "main_R"].map { "\(clientName):\($0)" }), [])

        kill(run.process.processIdentifier, SIGUSR1)
        try waitFor("the take starts", timeout: 10) { run.standardError.contains("recording started") }
        let heard = try client.record(frames: 48_000, settleFrames: 4_800)
        kill(run.process.processIdentifier, SIGUSR1)
        try waitFor("the take stops", timeout: 10) { run.standardError.contains("recording stopped") }

        let report = try XCTUnwrap(run.standardError.split(separator: "\n").first { $0.contains("recording stopped") })
        let counts = report.split(separator: " ").compactMap { Int($0) }
        XCTAssertEqual(counts.count, 2, String(report))
        XCTAssertEqual(counts.first, counts.last, "frames written == frames processed: \(report)")
        XCTAssertFalse(report.contains("lost"), String(report))

        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        XCTAssertEqual(files.count, 1, "\(files)")
        let reader = try AudioFileReader(url: try XCTUnwrap(files.first))
        XCTAssertEqual(reader.frameCount, counts.first)
        XCTAssertEqual(reader.channelCount, 2)
        let take = try reader.readAll()
        XCTAssertGreaterThan(take[0].count, heard.frameCount)
        // Align on the first heard sample (noise: a 32-bit float match is unique in practice), then compare all.
        let first = heard.channels[0][0]
        let offsets = take[0].indices.filter { take[0][$0] == first && $0 + heard.frameCount <= take[0].count }
        let offset = try XCTUnwrap(offsets.first { index in (0..<64).allSatisfy { take[0][index + $0] == heard.channels[0][$0] } },
            "the client's recording appears in the take")
        for channel in 0..<2 {
            var worst: Float = 0
            for frame in 0..<heard.frameCount { worst = max(worst, abs(take[channel][offset + frame] - heard.channels[channel][frame])) }
            XCTAssertEqual(worst, 0, "main channel \(channel): the take equals the bus port sample for sample")
        }
        XCTAssertGreaterThan(SignalCheck.peak(heard, channel: 0), 0.05, "the bus carried signal")
    }

    /// A recording killed with SIGKILL mid-take is a valid file with the frames written up to the kill
    /// (the header is rewritten after every write), for WAV and W64.
    func testASIGKILLedRecordingIsReadableUpToTheKill() throws {
        for format in ["wav", "w64"] {
            let subdirectory = directory.appendingPathComponent(format)
            let run = try FoldbackRun(
                ["run", fixture("monitor-mix.toml"), "--server", try serverName, "--no-connect", "--quiet", "--name", "fb-kill-\(format)-\(getpid())",
                 "--record", subdirectory.path, "--record-strips", "vox", "--record-format", format],
                testBundle: Bundle(for: Self.self))
            defer { run.stop() }
            try run.waitUntilRunning()
            let file = try XCTUnwrap(try FileManager.default.contentsOfDirectory(at: subdirectory, includingPropertiesForKeys: nil).first)
            try waitFor("a second is on disk", timeout: 20) { ((try? AudioFileReader(url: file).frameCount) ?? 0) > 48_000 }
            let before = try AudioFileReader(url: file).frameCount
            run.process.stop(signal: SIGKILL, within: 10)
            let reader = try AudioFileReader(url: file)
            XCTAssertGreaterThanOrEqual(reader.frameCount, before, "\(format): every frame on disk before the kill is still counted")
            let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
            let dataBytes = reader.frameCount * reader.channelCount * 4
            XCTAssertLessThan(size - dataBytes, 4_096, "\(format): the header counts all but at most a header's worth of the \(size) bytes")
            XCTAssertEqual(try reader.readAll()[0].count, reader.frameCount, "\(format): every counted frame reads back")
        }
    }

    /// Bad recording and source input exits 2 naming the value (or the preset line) before touching JACK.
    func testBadRecordOptionsAndAnUnreadableSourceExitTwoNamingTheProblem() throws {
        let server = try serverName
        for (arguments, expected) in [
            (["--record", directory.path, "--record-buses", "main,mian"], "--record-buses: there is no bus named 'mian'"),
            (["--record", directory.path, "--record-strips", "drums"], "--record-strips: there is no strip named 'drums'"),
            (["--record-strips", "vox"], "need --record DIR"),
        ] {
            let run = try FoldbackRun(["run", fixture("monitor-mix.toml"), "--server", server, "--no-connect"] + arguments, testBundle: Bundle(for: Self.self))
            XCTAssertTrue(run.process.waitUntilExit(within: 30), "bad options end the run")
            XCTAssertEqual(run.process.terminationStatus, 2, run.standardError)
            XCTAssertTrue(run.standardError.contains(expected), run.standardError)
        }
        let notAudio = directory.appendingPathComponent("notes.wav")
        try "not audio".write(to: notAudio, atomically: true, encoding: .utf8)
        let preset = directory.appendingPathComponent("p.toml")
        try "[[bus]]\nname = \"main\"\n\n[[strip]]\nname = \"b\"\nsource = { file = \"notes.wav\" }\n".write(to: preset, atomically: true, encoding: .utf8)
        let run = try FoldbackRun(["run", preset.path, "--server", server, "--no-connect"], testBundle: Bundle(for: Self.self))
        XCTAssertTrue(run.process.waitUntilExit(within: 30), "an unreadable source ends the run")
        XCTAssertEqual(run.process.terminationStatus, 2, run.standardError)
        XCTAssertTrue(run.standardError.contains("\(preset.path):6:19: error: Cannot open audio file"), run.standardError)
    }

    private func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").appendingPathComponent(name).path
    }

}
