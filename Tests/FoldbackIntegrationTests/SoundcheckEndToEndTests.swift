// `foldback run --record-inputs` then `--soundcheck` on a dummy jackd: a raw-input take of every port-fed strip, played back through the strips. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackJACK
import FoldbackJACKTesting
import FoldbackRender
import XCTest
import FoldbackTestSupport

final class SoundcheckEndToEndTests: JACKServerTestCase {
    /// A client plays noise into `vox` and the stereo `backing` while the show records its inputs: one file per
    /// strip, same length, holding the noise; a second run plays that take with nothing connected and its
    /// `main` bus carries the mix.
    func testRecordedInputsPlayBackThroughTheStrips() throws {
        let server = try serverName
        let directory = URL(fileURLWithPath: try LiveControlRig.temporaryFolder())
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputs = directory.appendingPathComponent("inputs")
        let clientName = "fb-sc-\(getpid())"
        let run = try FoldbackRun(
            ["run", fixture("monitor-mix.toml"), "--server", server, "--no-connect", "--quiet", "--name", clientName, "--record-inputs", inputs.path],
            testBundle: Bundle(for: Self.self))
        defer { run.stop() }
        try run.waitUntilRunning()
        let client = try JACKTestClient(
            serverName: server, signals: (0..<3).map { .noise(seed: UInt32(31 + $0), level: -12) }, recordChannels: 2,
            capacity: 48_000, namePrefix: "\(clientName)-test")
        defer { client.close() }
        XCTAssertEqual(client.connectPlayer(to: ["vox_in", "backing_in_L", "backing_in_R"].map { "\(clientName):\($0)" }), [])
        let files = { (try? FileManager.default.contentsOfDirectory(at: inputs, includingPropertiesForKeys: nil)) ?? [] }
        try waitFor("two seconds of inputs on disk", timeout: 30) {
            files().count == 2 && files().allSatisfy { ((try? AudioFileReader(url: $0).frameCount) ?? 0) > 96_000 }
        }
        XCTAssertTrue(run.process.stop(signal: SIGINT, within: 20), "Ctrl-C ends the take")
        client.close()
        let take = try SoundcheckTake(at: inputs)
        XCTAssertEqual(Set(take.files.keys), ["vox", "backing"], "every port-fed strip, one file each")
        let vox = try AudioFileReader(url: try XCTUnwrap(take.files["vox"])), backing = try AudioFileReader(url: try XCTUnwrap(take.files["backing"]))
        XCTAssertEqual(vox.channelCount, 1)
        XCTAssertEqual(backing.channelCount, 2)
        XCTAssertEqual(vox.frameCount, backing.frameCount, "one shared start and end frame")
        let voxAudio = try vox.readAll()[0]
        XCTAssertGreaterThan(voxAudio.suffix(48_000).map { abs($0) }.max() ?? 0, 0.05, "the raw input holds the client's noise")

        let mix = directory.appendingPathComponent("mix")
        let playback = try FoldbackRun(
            ["run", fixture("monitor-mix.toml"), "--server", server, "--no-connect", "--quiet", "--name", "\(clientName)-2",
             "--soundcheck", inputs.path, "--record", mix.path, "--record-buses", "main"],
            testBundle: Bundle(for: Self.self))
        defer { playback.stop() }
        try playback.waitUntilRunning()
        let mixFiles = { (try? FileManager.default.contentsOfDirectory(at: mix, includingPropertiesForKeys: nil)) ?? [] }
        let takeFrames = vox.frameCount   // the whole take (its start may be silent: the client connects after the show starts)
        try waitFor("the take played on main", timeout: 30) { ((mixFiles().first.flatMap { try? AudioFileReader(url: $0).frameCount }) ?? 0) > takeFrames }
        XCTAssertTrue(playback.process.stop(signal: SIGINT, within: 20))
        let main = try AudioFileReader(url: try XCTUnwrap(mixFiles().first)).readAll()
        XCTAssertGreaterThan(main[0].map { abs($0) }.max() ?? 0, 0.02, "the take sounds on main with no port connected")
        XCTAssertFalse(playback.standardError.contains("error"), playback.standardError)
    }

    private func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").appendingPathComponent(name).path
    }
}
