// `foldback run` on a dummy jackd with stretched and shifted file sources: every 10 ms window of the file heard, a stretched loop's seams without a gap or a click. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackJACK
import FoldbackJACKTesting
import FoldbackRender
import FoldbackTestSupport
import XCTest

/// Strips at three tempos and keys at a time (each into its own bus) play a 1.5 s tone in level steps; with the last
/// group a fourth strip loops a 0.5 s tone at tempo 0.85, −2 semitones. The players are stopped with SIGUSR2, a take
/// is armed, and a second SIGUSR2 starts them from the top inside it: each bus's first non-zero sample is its file's
/// first frame. Three at a time, so a loaded 2-core machine keeps up with R3 (a take with an underrun or an xrun
/// reported is taken again, up to three times).
final class StretchedSourceLiveTests: JACKServerTestCase {
    private static let seconds = 1.5
    private static let loopFrames = 24_000
    private static let loopSetting = (tempo: 0.85, semitones: -2.0)

    func testEveryWindowOfAStretchedSourceIsHeardLiveAndItsLoopJoinsWithoutAGapOrAClick() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-stretch-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let steps = EnvelopeTestSignal.steps.samples(rate: 48_000, seconds: Self.seconds)
        let loop = EnvelopeTestSignal.steady.samples(rate: 48_000, seconds: Double(Self.loopFrames) / 48_000)   // 220 whole cycles
        for (name, samples) in [("steps.wav", steps), ("loop.wav", loop)] {
            let writer = try AudioFileWriter(url: directory.appendingPathComponent(name), sampleRate: 48_000, channelCount: 1, format: .float)
            try writer.write(planar: [samples])
            try writer.finish()
        }
        let settings = EnvelopeTestSignal.stretchSettings
        for first in stride(from: 0, to: settings.count, by: 3) {
            let group = Array(settings[first..<min(first + 3, settings.count)])
            let withLoop = first + 3 >= settings.count
            var recording: JACKRecording?
            for _ in 0..<3 where recording == nil {
                recording = try take(group + (withLoop ? [Self.loopSetting] : []), loops: withLoop, in: directory)
            }
            let buses = try XCTUnwrap(recording, "three takes with underruns or xruns reported").channels
            for (index, bus) in buses.enumerated() {
                XCTAssertEqual(bus.prefix(2_048).filter { $0 != 0 }.count, 0, "bus \(index): the take opens in the stop's silence")
            }
            for (index, setting) in group.enumerated() {
                let start = try XCTUnwrap(buses[index].firstIndex { $0 != 0 }, "tempo \(setting.tempo), \(setting.semitones) st played")
                let comparison = EnvelopeComparison(
                    output: Array(buses[index][start...]), outputRate: 48_000, reference: steps, referenceRate: 48_000, tempo: setting.tempo,
                    steps: EnvelopeTestSignal.steps.steps(seconds: Self.seconds), margin: 0.03)
                print("envelope live on JACK, tempo \(setting.tempo), \(setting.semitones) st: \(comparison)")
                XCTAssertEqual(comparison.silentWindows, [], "tempo \(setting.tempo), \(setting.semitones) st: windows of exact zeros")
                XCTAssertNotNil(comparison.first)
                XCTAssertNotNil(comparison.last)
                XCTAssertLessThanOrEqual(abs(comparison.worst.deviation), 1, "tempo \(setting.tempo), \(setting.semitones) st: \(comparison)")
            }
            guard withLoop else { continue }
            let looped = buses[group.count]
            let start = try XCTUnwrap(looped.firstIndex { $0 != 0 }, "the loop played")
            let period = Double(Self.loopFrames) / Self.loopSetting.tempo
            for seam in (1...4).map({ start + Int((Double($0) * period).rounded()) }) where seam + 2_400 < looped.count {
                let measure = LoopSeamMeasure(output: looped, seam: seam, reference: (start + 2_400)..<(start + Int(period) - 2_400), rate: 48_000)
                print("live loop seam at frame \(seam - start): \(measure)")
                XCTAssertLessThanOrEqual(measure.longestZeroRun, 1, "no gap of zeros at the seam")
                XCTAssertLessThanOrEqual(measure.largestStep, measure.ownStep * 1.05, "no sample step at the seam above the tone's own")
                XCTAssertLessThanOrEqual(measure.levelSpread, 1, "the level holds across the seam")
            }
        }
    }

    /// Runs foldback with one strip per setting (the last looping `loop.wav` when `loops`), and records each bus
    /// from before the players start; nil when foldback reported an underrun.
    private func take(_ settings: [(tempo: Double, semitones: Double)], loops: Bool, in directory: URL) throws -> JACKRecording? {
        var toml = ""
        for (index, setting) in settings.enumerated() {
            let isLoop = loops && index == settings.count - 1
            toml += """
                [[bus]]
                name = "b\(index)"
                channels = 1

                [[strip]]
                name = "s\(index)"
                channels = 1
                source = { file = "\(isLoop ? "loop" : "steps").wav", loop = \(isLoop), tempo = \(setting.tempo), pitch_semitones = \(setting.semitones) }
                send = [{ bus = "b\(index)" }]


                """
        }
        let preset = directory.appendingPathComponent("stretch.toml")
        try toml.write(to: preset, atomically: true, encoding: .utf8)
        let clientName = "fb-stretch-\(getpid())"
        let server = try serverName
        let run = try FoldbackRun(
            ["run", preset.path, "--server", server, "--no-connect", "--quiet", "--name", clientName], testBundle: Bundle(for: Self.self))
        defer { run.stop() }
        try run.waitUntilRunning()
        let client = try JACKTestClient(
            serverName: server, signals: [.silence], recordChannels: settings.count, capacity: 200_000, namePrefix: "\(clientName)-test")
        defer { client.close() }
        XCTAssertEqual(client.connectRecorder(from: settings.indices.map { "\(clientName):b\($0)" }), [])
        kill(run.process.processIdentifier, SIGUSR2)
        try waitFor("the file players stopping", timeout: 10) { run.standardError.contains("file player stopped") }
        // A stop is heard from the next cycle on, and a bus's limiter holds 72 frames more: a take armed at once could
        // open with the old audio (72 frames and more), taken for the restarted file's start (its "blip, then silence").
        let stoppedAt = client.recorder.client.frameTime
        try waitFor("the stop heard", timeout: 10) { client.recorder.client.frameTime &- stoppedAt >= 1_024 }
        let take = TakeResult()
        let xruns = client.recorder.xrunCount
        let reportedBefore = run.standardError.count   // underruns while the players started at launch are not this take's
        let armedAt = client.recorder.client.frameTime
        let recorder = Thread { take.set(Result { () throws(JACKError) in try client.recorder.record(frames: 192_000, timeout: 30) }) }
        recorder.start()
        try waitFor("the take under way", timeout: 10) { client.recorder.client.frameTime &- armedAt >= 2_048 }
        kill(run.process.processIdentifier, SIGUSR2)
        let recording = try take.wait().get()
        // An xrun (a cycle foldback missed: silence on its ports) or an underrun is a loaded machine's, reported: take it again.
        guard !run.standardError.dropFirst(reportedBefore).contains("could not keep up"), client.recorder.xrunCount == xruns else {
            print("take with underruns or xruns (\(client.recorder.xrunCount - xruns)), taken again: \(run.standardError)")
            return nil
        }
        return recording
    }
}
