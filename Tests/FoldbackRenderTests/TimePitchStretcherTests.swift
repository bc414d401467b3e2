// Tests of the Rubber Band stretcher: pitch exact to 0.1 %, tempo exact to 10 ms, rate conversion folded in, every frame heard, CPU per engine.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackRender
import FoldbackTestSupport
import Foundation
import XCTest

final class TimePitchStretcherTests: XCTestCase {
    /// `input` (interleaved) through a stretcher in pieces of `piece` frames.
    private func stretch(
        _ input: [Float], channels: Int = 1, from inputRate: Double, to outputRate: Double, _ setting: TimePitch,
        engine: StretchEngine, piece: Int = 4_096
    ) throws -> [Float] {
        let stretcher = try TimePitchStretcher(channels: channels, inputRate: inputRate, outputRate: outputRate, setting: setting, engine: engine)
        var output: [Float] = []
        input.withUnsafeBufferPointer { buffer in
            var start = 0
            repeat {
                let end = min(start + piece * channels, buffer.count)
                stretcher.process(UnsafeBufferPointer(rebasing: buffer[start..<end]), isLastPiece: end == buffer.count) { output.append(contentsOf: $0) }
                start = end
            } while start < buffer.count
        }
        return output
    }

    func testPitchShiftsAToneByTheSemitonesWithinAThousandth() throws {
        for engine in StretchEngine.allCases {
            for (inputRate, outputRate) in [(48_000.0, 48_000.0), (44_100.0, 48_000.0)] {
                let tone = ToneMeasure.sine(hz: 440, rate: inputRate, frames: Int(inputRate) * 3)
                for semitones in [2.0, -2, 12] {
                    let out = try stretch(tone, from: inputRate, to: outputRate, TimePitch(semitones: semitones), engine: engine)
                    let measured = ToneMeasure.frequency(out, channels: 1, channel: 0, rate: outputRate)
                    let expected = 440 * pow(2, semitones / 12)
                    // R3 is exact to 0.1 %; R2's phase resets cost a few zero crossings of a pure tone (measured within 1 %).
                    let tolerance = engine == .finer ? 0.001 : 0.015
                    XCTAssertEqual(measured, expected, accuracy: expected * tolerance, "\(engine) \(inputRate)→\(outputRate) Hz, \(semitones) st")
                    let seconds = Double(out.count) / outputRate
                    XCTAssertEqual(seconds, 3, accuracy: 0.01, "\(engine): a shift keeps the length")
                }
            }
        }
    }

    func testCentsAddToSemitones() throws {
        let tone = ToneMeasure.sine(hz: 440, rate: 48_000, frames: 96_000)
        let out = try stretch(tone, from: 48_000, to: 48_000, TimePitch(semitones: -1, cents: -50), engine: .finer)
        XCTAssertEqual(ToneMeasure.frequency(out, channels: 1, channel: 0, rate: 48_000), 440 * pow(2, -1.5 / 12), accuracy: 0.44)
    }

    func testTempoStretchesSixtySecondsToSeventyPointSixWithinTenMilliseconds() throws {
        for engine in StretchEngine.allCases {
            for (inputRate, outputRate) in [(48_000.0, 48_000.0), (44_100.0, 48_000.0)] {
                let tone = ToneMeasure.sine(hz: 440, rate: inputRate, frames: Int(inputRate) * 60, channels: 2)
                let out = try stretch(tone, channels: 2, from: inputRate, to: outputRate, TimePitch(tempo: 0.85), engine: engine)
                let seconds = Double(out.count / 2) / outputRate
                XCTAssertEqual(seconds, 60 / 0.85, accuracy: 0.010, "\(engine) \(inputRate)→\(outputRate) Hz")
                let measured = ToneMeasure.frequency(out, channels: 2, channel: 1, rate: outputRate)
                XCTAssertEqual(measured, 440, accuracy: engine == .finer ? 0.44 : 6.6, "\(engine): a tempo change keeps the pitch")
            }
        }
    }

    /// Every frame heard and the length exact to the frame whatever the pieces (1, 7, 253, 1024 frames), 48 and 44.1 kHz in.
    /// R3: every 10 ms window within 1 dB of the source's. R2, whose phase resets make a pure tone's level wander by
    /// several dB anyway: no silent window, and the last within 10 dB of the source's (a cut end is silence).
    func testEveryFrameIsHeardWhateverThePieceSize() throws {
        let steps = EnvelopeTestSignal.steps
        for engine in StretchEngine.allCases {
            for inputRate in [48_000.0, 44_100] {
                let source = steps.samples(rate: inputRate, seconds: 1)
                for setting in [TimePitch(tempo: 0.85, semitones: -2), TimePitch(tempo: 2, semitones: 7)] {
                    for piece in [1, 7, 253, 1_024] {
                        let out = try stretch(source, from: inputRate, to: 48_000, setting, engine: engine, piece: piece)
                        let what = "\(engine) \(inputRate) Hz, \(setting.summary), pieces of \(piece)"
                        XCTAssertEqual(out.count, Int((Double(source.count) * 48_000 / inputRate / setting.tempo).rounded()), what)
                        let comparison = EnvelopeComparison(
                            output: out, outputRate: 48_000, reference: source, referenceRate: inputRate, tempo: setting.tempo,
                            steps: steps.steps(seconds: 1), margin: 0.03)
                        XCTAssertEqual(comparison.silentWindows, [], what)
                        if engine == .finer {
                            XCTAssertLessThanOrEqual(abs(comparison.worst.deviation), 1, "\(what): \(comparison)")
                        } else {
                            XCTAssertGreaterThan(comparison.last ?? -200, -10, "\(what): \(comparison)")
                        }
                    }
                }
            }
        }
    }

    /// Not an assertion: the disk thread's CPU per second of 48 kHz stereo audio, for the docs and the engine choice.
    func testReportsCPUPerSecondOfAudio() throws {
        let seconds = 20
        let music = (0..<(48_000 * seconds * 2)).map { index -> Float in
            let t = Double(index / 2) / 48_000
            return Float(0.2 * sin(2 * .pi * 220 * t) + 0.2 * sin(2 * .pi * 277.2 * t) + 0.2 * sin(2 * .pi * 329.6 * t))
        }
        for engine in StretchEngine.allCases {
            for setting in [TimePitch(semitones: -2), TimePitch(tempo: 0.85)] {
                let latency = try TimePitchStretcher(channels: 2, inputRate: 48_000, outputRate: 48_000, setting: setting, engine: engine).latencyFrames
                print("stretch latency: \(engine): \(latency) frames")
                let start = clock()
                _ = try stretch(music, channels: 2, from: 48_000, to: 48_000, setting, engine: engine, piece: 512)
                let cpu = Double(clock() - start) / Double(CLOCKS_PER_SEC)
                print("stretch cpu: \(engine) \(setting.summary): \(String(format: "%.1f", cpu / Double(seconds) * 1000)) ms per second of stereo audio")
            }
        }
    }
}
