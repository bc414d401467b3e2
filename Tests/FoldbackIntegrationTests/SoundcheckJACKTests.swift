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

    /// Judges `take` (one array per strip) period by period from take frame `first`: the frame time of take frame 0
    /// is found from strip 4 (a noise) in each period, searched after `after` for the first and on from the
    /// last one found by whole periods; a period is spoiled when strip 4 is not found or another strip misses
    /// (by more than −120 dB) what `expected(strip, frameTime)` says was played.
    static func alignment(
        of take: [[Float]], from first: Int, after: Int, period: Int, expected: @escaping (Int, Int) -> Float
    ) -> (periods: Int, spoiled: [(frame: Int, strips: [Int])], origins: [Int]) {
        let count = take[0].count
        let matches = { (strip: Int, start: Int, length: Int, origin: Int) in
            (start..<(start + length)).allSatisfy { abs(take[strip][$0] - expected(strip, origin + $0)) <= 1e-6 }
        }
        var origins: [Int] = [], spoiled: [(frame: Int, strips: [Int])] = [], periods = 0
        var start = first
        while start + period <= count {
            periods += 1
            let candidates: [Int] = origins.last.map { last in (0...400).map { last + $0 * period } }
                ?? Array((after - start)..<(after - start + count + 48_000 * 10))
            guard let origin = candidates.first(where: { matches(4, start, 32, $0) && matches(4, start, period, $0) }) else {
                spoiled.append((start, [4]))
                start += period
                continue
            }
            if origins.isEmpty {   // align the periods judged with the server's (frame times n × period)
                let offset = (period - (origin + start) % period) % period
                origins.append(origin)
                if offset > 0 { periods -= 1; start += offset; continue }
            } else if origin != origins.last { origins.append(origin) }
            let missing = (0..<take.count).filter { !matches($0, start, period, origin) }
            if !missing.isEmpty { spoiled.append((start, missing)) }
            start += period
        }
        return (periods, spoiled, origins)
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
        let xrunsBefore = client.player.xrunCount
        XCTAssertEqual(client.connectPlayer(to: names.map { "\(name):\($0)_in" }), [])
        let now = try client.record(frames: 256).frameTime(ofSample: 0)   // a frame time after the connections
        let file = { (strip: String) in try SoundcheckTake(at: inputs).files[strip] }
        let startFrames = (try? file("s0").map { try AudioFileReader(url: $0).frameCount }) ?? 0
        // A 30 ms stall of Foldback three seconds in (as a page fault storm or a preempted CPU would): JACK
        // skips its cycles, an xrun; the take must lose them on every strip alike.
        try waitFor("3 s of inputs on disk", timeout: 60) {
            ((try? file("s7").map { try AudioFileReader(url: $0).frameCount }) ?? 0) > startFrames + 48_000 * 3
        }
        kill(run.process.processIdentifier, SIGSTOP)
        usleep(30_000)
        kill(run.process.processIdentifier, SIGCONT)
        try waitFor("\(seconds) s of inputs on disk", timeout: 60) {
            ((try? file("s7").map { try AudioFileReader(url: $0).frameCount }) ?? 0) > startFrames + 48_000 * (self.seconds + 1)
        }
        XCTAssertTrue(run.process.stop(signal: SIGINT, within: 20))
        _ = try client.record(frames: 4_096, attempts: 1, requiresContinuity: false)   // the server's xrun notices arrive a little later
        let xruns = client.player.xrunCount - xrunsBefore
        let take = try names.map { try AudioFileReader(url: try XCTUnwrap(file($0))).readAll()[0] }
        XCTAssertEqual(Set(take.map(\.count)).count, 1, "every strip's file has the same frames")

        // The take's last five seconds (it holds seven, connected within the first), period by period against
        // what the client played: in each period noise strip s4 gives the frame time of take frame 0, and every
        // strip must null (≤ −120 dB) at that same frame time, so every pair of strips keeps its offset.
        // An xrun can cost the take whole cycles (every strip alike: the frame time moves on by whole periods)
        // or hand Foldback a period the client had not finished writing or was already rewriting (JACK's loss;
        // no client can undo it): each xrun the server reported may spoil up to two periods and move the frame
        // time once. With no xrun, every frame of every strip nulls at one frame time.
        let count = take[0].count, probe = count - 48_000
        let judged = Self.alignment(of: take, from: count - 48_000 * (seconds - 1), after: Int(now), period: Self.period) {
            client.expectedSample(channel: $0, frameTime: UInt32(truncatingIfNeeded: $1))
        }
        if !judged.spoiled.isEmpty || judged.origins.count > 1 {
            print("SoundcheckJACKTests: \(judged.spoiled.count) of \(judged.periods) periods spoiled (take frame: strips \(judged.spoiled.prefix(8).map { "\($0.frame): \($0.strips)" })), "
                + "\(judged.origins.count) frame-time origin(s) \(judged.origins.prefix(4)), \(xruns) xrun(s) reported to the client")
        }
        XCTAssertFalse(judged.origins.isEmpty, "s4's noise is in the take")
        XCTAssertLessThanOrEqual(judged.spoiled.count, 2 * xruns, "every strip nulls at one shared frame time outside xruns: offsets kept")
        XCTAssertLessThanOrEqual(judged.origins.count, 1 + xruns, "the take's clock moves only at an xrun")
        XCTAssertGreaterThanOrEqual(judged.origins.count, 2, "the stall cost the take whole cycles, every strip alike")
        XCTAssertGreaterThanOrEqual(judged.periods - judged.spoiled.count, judged.periods * 9 / 10, "nine periods in ten judged exact")
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
