// Eight strips of tones and noise from a JACK test client: `--record-inputs` holds each exactly at one shared frame time, and `--soundcheck` plays them back through the strips exactly and aligned. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackJACK
import FoldbackJACKTesting
import FoldbackRender
import XCTest
import FoldbackTestSupport

final class SoundcheckJACKTests: JACKServerTestCase {
    /// 6 s of signal, not the 30 s: two foldback runs on a shared CI machine; the offline
    /// `SoundcheckTakeTests` cover longer takes frame by frame. The whole take is compared on playback.
    private let seconds = 6
    private let names = (0..<8).map { "s\($0)" }

    private func preset(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("eight.toml").path
        let strips = names.map { "[[strip]]\nname = \"\($0)\"\n  [[strip.send]]\n  bus = \"main\"\n" }.joined(separator: "\n")
        try "[[bus]]\nname = \"main\"\nchannels = 1\nlimiter = false\n\n\(strips)".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The first `count` frames from `from` on that match `reference` (within −120 dB), searching `candidates`.
    private func firstMatch(_ candidates: Range<Int>, length: Int, _ sample: (Int) -> Float, _ reference: (Int) -> Float) -> Int? {
        candidates.first { start in (0..<length).allSatisfy { abs(sample(start + $0) - reference($0)) <= 1e-6 } }
    }

    func testEightStripsRecordExactlyAlignedAndPlayBackThroughTheStrips() throws {
        let server = try serverName
        let folder = URL(fileURLWithPath: try LiveControlRig.temporaryFolder())
        defer { try? FileManager.default.removeItem(at: folder) }
        let show = try preset(in: folder)
        let inputs = folder.appendingPathComponent("inputs"), played = folder.appendingPathComponent("played")
        let tones: [TestSignal] = (0..<4).map { (index: Int) -> TestSignal in .sine(frequency: 150.7 * Double(index + 1), level: -12) }
        let noises: [TestSignal] = (4..<8).map { (index: Int) -> TestSignal in .noise(seed: UInt32(50 + index), level: -18) }
        let signals = tones + noises

        let name = "fb-sc8-\(getpid())"
        let run = try FoldbackRun(
            ["run", show, "--server", server, "--no-connect", "--quiet", "--name", name, "--record-inputs", inputs.path], testBundle: Bundle(for: Self.self))
        defer { run.stop() }
        try run.waitUntilRunning()
        let client = try JACKTestClient(serverName: server, signals: signals, recordChannels: 1, capacity: 4_096, namePrefix: "\(name)-t")
        defer { client.close() }
        XCTAssertEqual(client.connectPlayer(to: names.map { "\(name):\($0)_in" }), [])
        let now = try client.record(frames: 256).frameTime(ofSample: 0)   // a frame time after the connections
        let file = { (strip: String) in try SoundcheckTake(at: inputs).files[strip] }
        let startFrames = (try? file("s0").map { try AudioFileReader(url: $0).frameCount }) ?? 0
        try waitFor("\(seconds) s of inputs on disk", timeout: 60) {
            ((try? file("s7").map { try AudioFileReader(url: $0).frameCount }) ?? 0) > (startFrames ?? 0) + 48_000 * (self.seconds + 1)
        }
        XCTAssertTrue(run.process.stop(signal: SIGINT, within: 20))
        let take = try names.map { try AudioFileReader(url: try XCTUnwrap(file($0))).readAll()[0] }
        XCTAssertEqual(Set(take.map(\.count)).count, 1, "every strip's file has the same frames")

        // The frame time of take frame 0, from noise strip s4's last second; then every strip must null there.
        let count = take[0].count, probe = count - 48_000
        // The probe frame was played after `now` and before the take ended, a few seconds later.
        let origin = try XCTUnwrap(firstMatch(Int(now)..<(Int(now) + count + 48_000 * 10), length: 32,
            { client.expectedSample(channel: 4, frameTime: UInt32($0)) }, { take[4][probe + $0] }), "s4's noise is in the take") - probe
        // The take's last second against what the client played then (frame time stays a take's clock only
        // between xruns, which a loaded CI machine may have earlier in the take).
        let lastSecond = probe..<count
        for (strip, audio) in take.enumerated() {
            let worst = lastSecond.map { abs(audio[$0] - client.expectedSample(channel: strip, frameTime: UInt32(origin + $0))) }.max() ?? 1
            XCTAssertLessThanOrEqual(20 * log10(max(Double(worst), 1e-30)), -120, "\(names[strip]) at the shared frame time: offsets kept")
        }
        client.close()

        let playback = try FoldbackRun(
            ["run", show, "--server", server, "--no-connect", "--quiet", "--name", "\(name)-2", "--soundcheck", inputs.path,
             "--record", played.path, "--record-strips", names.joined(separator: ",")], testBundle: Bundle(for: Self.self))
        defer { playback.stop() }
        try playback.waitUntilRunning()
        let playedFile = { (strip: String) in try FileManager.default.contentsOfDirectory(at: played, includingPropertiesForKeys: nil).first { $0.lastPathComponent.hasSuffix("strip-\(strip).wav") } }
        try waitFor("the take played", timeout: 60) { ((try? playedFile("s7").map { try AudioFileReader(url: $0).frameCount }) ?? 0) > count + 48_000 }
        XCTAssertTrue(playback.process.stop(signal: SIGINT, within: 20))
        let heard = try names.map { try AudioFileReader(url: try XCTUnwrap(playedFile($0))).readAll()[0] }
        // The take plays from the show's first cycle, the strip taps start a little later: heard frame n is take frame n − lag.
        let heardAt = { (strip: Int, frame: Int) -> Float in heard[strip].indices.contains(frame) ? heard[strip][frame] : .nan }
        let lag = try XCTUnwrap(firstMatch(-probe..<(heard[4].count - probe), length: 32, { heardAt(4, $0 + probe) }, { take[4][probe + $0] }), "s4's take is heard")
        for strip in 0..<8 {
            let worst = (0..<count).filter { heard[strip].indices.contains(lag + $0) }.map { abs(heard[strip][lag + $0] - take[strip][$0]) }.max() ?? 1
            XCTAssertLessThanOrEqual(20 * log10(max(Double(worst), 1e-30)), -120, "\(names[strip]) played back at s4's offset")
        }
    }
}
