// Music is not feedback: 60 s of voice, chord and noise and a sustained sung note through the unit place no notch deeper than −3 dB. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackFeedback
import Foundation
import XCTest

final class FalseNotchTests: XCTestCase {
    /// Runs `seconds` of `source` straight through a live unit (no loop) and returns its deepest notch, dB (0 if none).
    private func deepestNotch(_ source: (Int) -> Float, seconds: Double, sampleRate: Double, blockSize: Int) throws -> (Double, [FeedbackEvent]) {
        let unit = FeedbackUnit(runsWorker: false)
        let slot = try unit.prepare(channels: 1, sampleRate: sampleRate, maxFrames: blockSize)
        var input = [Float](repeating: 0, count: blockSize)
        var output = [Float](repeating: 0, count: blockSize)
        var frame = 0
        let total = Int(seconds * sampleRate)
        while frame < total {
            let count = min(blockSize, total - frame)
            for index in 0..<count { input[index] = source(frame + index) }
            input.withUnsafeBufferPointer { inputs in
                output.withUnsafeMutableBufferPointer { outputs in
                    var ins = [inputs.baseAddress!]
                    var outs = [outputs.baseAddress!]
                    slot.functions.process(slot.state, &ins, &outs, Int32(count))
                }
            }
            frame += count
            unit.analyzePending()
        }
        let events = unit.events
        return (events.map(\.notch.depthDB).min() ?? 0, events)
    }

    func testMusicPlacesNoNotches() throws {
        let sampleRate = 48_000.0
        let sources: [(String, (Int) -> Float, Double)] = [
            ("voice", StageMeasurements.source(.voice(level: -6), sampleRate: sampleRate), 60),
            ("chord", StageMeasurements.source(.chord(level: -6), sampleRate: sampleRate), 60),
            ("noise", StageMeasurements.source(.noise(seed: 3, level: -6), sampleRate: sampleRate), 60),
            ("sung note 220 Hz", StageMeasurements.sungNote(sampleRate: sampleRate), 60),
            ("sung note 587 Hz", StageMeasurements.sungNote(sampleRate: sampleRate, frequency: 587), 30),
        ]
        for (name, source, seconds) in sources {
            let (deepest, events) = try deepestNotch(source, seconds: seconds, sampleRate: sampleRate, blockSize: 253)
            print("\(name), \(Int(seconds)) s: deepest notch \(deepest) dB; \(events.count) notch changes",
                  events.prefix(6).map { "\(Int($0.notch.frequency)) Hz @\(fmt($0.time)) s" })
            XCTAssertGreaterThanOrEqual(deepest, -3, name)
        }
    }

    /// Speech from espeak-ng (22.05 kHz), looped to 60 s.
    func testSpeechPlacesNoNotches() throws {
        guard let samples = try ProgrammeSources.espeakSpeech() else { throw XCTSkip("espeak-ng is not installed") }
        XCTAssertGreaterThan(samples.count, 22050)
        let (deepest, events) = try deepestNotch({ samples[$0 % samples.count] }, seconds: 60, sampleRate: 22050, blockSize: 7)
        print("espeak-ng speech, 60 s at 22.05 kHz: deepest notch \(deepest) dB; \(events.count) notch changes")
        XCTAssertGreaterThanOrEqual(deepest, -3)
    }
}
