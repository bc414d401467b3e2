// `foldback run --soundcheck` with a 44.1 kHz take on a 48 kHz JACK server: it plays, at the tone's frequency, its strips sample-aligned. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackJACKTesting
import FoldbackRender
import XCTest
import FoldbackTestSupport

final class SoundcheckRateJACKTests: JACKServerTestCase {
    /// Two strips, each into a mono bus of its own.
    private func preset(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("two.toml").path
        let text = (0..<2).map { "[[bus]]\nname = \"b\($0)\"\nchannels = 1\nlimiter = false\n" }.joined(separator: "\n")
            + (0..<2).map { "\n[[strip]]\nname = \"s\($0)\"\n  [[strip.send]]\n  bus = \"b\($0)\"\n" }.joined()
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Both strips of the 44.1 kHz take carry the same 1 kHz tone under a 3 Hz swell, so played in step they are
    /// equal sample for sample, and a strip a sample (or a tone period) late is not.
    private func writeTake(in directory: URL) throws {
        let rate = 44_100.0
        let tone = (0..<Int(rate) * 20).map { frame -> Float in
            let time = Double(frame) / rate
            return Float(0.3 * (0.6 + 0.4 * sin(2 * .pi * 3 * time)) * sin(2 * .pi * 1_000 * time))
        }
        for strip in 0..<2 {
            let writer = try AudioFileWriter(url: directory.appendingPathComponent("20260101-000000-input-s\(strip).wav"), sampleRate: 44_100, channelCount: 1)
            try writer.write(planar: [tone])
            try writer.finish()
        }
    }

    func testATake44kHzPlaysInA48kHzShowAtItsFrequencyWithItsStripsAligned() throws {
        let server = try serverName
        let folder = URL(fileURLWithPath: try LiveControlRig.temporaryFolder())
        defer { try? FileManager.default.removeItem(at: folder) }
        let show = try preset(in: folder)
        let take = folder.appendingPathComponent("take")
        try FileManager.default.createDirectory(at: take, withIntermediateDirectories: true)
        try writeTake(in: take)

        let name = "fb-scrate-\(getpid())"
        let run = try FoldbackRun(
            ["run", show, "--server", server, "--no-connect", "--quiet", "--name", name, "--soundcheck", take.path], testBundle: Bundle(for: Self.self))
        defer { run.stop() }
        try run.waitUntilRunning()
        let client = try JACKTestClient(serverName: server, signals: [.sine(frequency: 100, level: -60)], recordChannels: 2, capacity: 48_000,
                                        namePrefix: "\(name)-t")
        defer { client.close() }
        XCTAssertEqual(client.connectRecorder(from: ["\(name):b0", "\(name):b1"]), [])
        let recording = try client.record(frames: 24_000, settleFrames: 4_800)
        XCTAssertEqual(recording.sampleRate, 48_000)
        let (first, second) = (recording.channels[0], recording.channels[1])
        XCTAssertGreaterThan(first.map { abs($0) }.max() ?? 0, 0.1, "the take plays")

        var crossings: [Double] = []
        for index in first.indices.dropFirst() where first[index - 1] < 0 && first[index] >= 0 {
            crossings.append(Double(index - 1) + Double(-first[index - 1]) / Double(first[index] - first[index - 1]))
        }
        let (start, end) = (try XCTUnwrap(crossings.first), try XCTUnwrap(crossings.last))
        let frequency = Double(crossings.count - 1) / (end - start) * 48_000
        XCTAssertEqual(frequency / 1_000, 1, accuracy: 0.001, "the 1 kHz tone at \(frequency) Hz")
        let worst = zip(first, second).map { abs($0 - $1) }.max() ?? 1
        XCTAssertLessThan(worst, 1e-6, "both strips in step, sample for sample")
    }
}
