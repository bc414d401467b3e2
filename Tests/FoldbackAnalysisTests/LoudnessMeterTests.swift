// EBU Tech 3341 conformance of the loudness meter (its published sine cases), the channel layouts and true peak. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackAnalysis
import Foundation
import XCTest

final class LoudnessMeterTests: XCTestCase {
    /// A 1 kHz sine segment: `seconds` at a peak level of `dBFS`, the same on every channel.
    struct Segment {
        var dBFS: Double
        var seconds: Double
    }

    /// Feeds the segments (interleaved, `channels` channels, continuous phase) in blocks of `block` frames.
    private func measure(
        _ segments: [Segment], channels: Int = 2, sampleRate: Int = 48_000, layout: LoudnessChannelLayout = .stereo,
        block: Int = 1_024, frequency: Double = 1_000
    ) throws -> LoudnessReading {
        let meter = try XCTUnwrap(LoudnessMeter(channels: channels, sampleRate: sampleRate, layout: layout))
        var samples: [Float] = []
        var frame = 0
        for segment in segments {
            let amplitude = pow(10, segment.dBFS / 20)
            for _ in 0..<Int((segment.seconds * Double(sampleRate)).rounded()) {
                let value = Float(amplitude * sin(2 * .pi * frequency * Double(frame) / Double(sampleRate)))
                for _ in 0..<channels { samples.append(value) }
                frame += 1
            }
        }
        samples.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < frame {
                let count = min(block, frame - start)
                meter.add(interleaved: buffer.baseAddress! + start * channels, frames: count)
                start += count
            }
        }
        return meter.read()
    }

    /// Tech 3341 cases 1 and 2: a stereo 1 kHz sine at −23 and −33 dBFS reads −23.0 and −33.0 LUFS,
    /// momentary, short-term and integrated, within ±0.1 LU, at 44.1, 48 and 96 kHz and odd block sizes.
    func testCases1And2SteadySines() throws {
        for (rate, block) in [(44_100, 253), (48_000, 1_024), (96_000, 7)] {
            for level in [-23.0, -33.0] {
                let reading = try measure([Segment(dBFS: level, seconds: 20)], sampleRate: rate, block: block)
                XCTAssertEqual(reading.momentaryLUFS, level, accuracy: 0.1, "M at \(rate) Hz")
                XCTAssertEqual(reading.shortTermLUFS, level, accuracy: 0.1, "S at \(rate) Hz")
                XCTAssertEqual(reading.integratedLUFS, level, accuracy: 0.1, "I at \(rate) Hz")
            }
        }
    }

    /// Tech 3341 cases 3, 4 and 5: level steps whose gated integrated loudness is −23.0 LUFS ±0.1 LU.
    func testCases3To5GatedIntegratedLoudness() throws {
        let cases: [[Segment]] = [
            [Segment(dBFS: -36, seconds: 10), Segment(dBFS: -23, seconds: 60), Segment(dBFS: -36, seconds: 10)],
            [Segment(dBFS: -72, seconds: 10), Segment(dBFS: -36, seconds: 10), Segment(dBFS: -23, seconds: 60),
             Segment(dBFS: -36, seconds: 10), Segment(dBFS: -72, seconds: 10)],
            [Segment(dBFS: -26, seconds: 20), Segment(dBFS: -20, seconds: 20.1), Segment(dBFS: -26, seconds: 20)],
        ]
        for (index, segments) in cases.enumerated() {
            XCTAssertEqual(try measure(segments).integratedLUFS, -23, accuracy: 0.1, "Tech 3341 case \(index + 3)")
        }
    }

    /// A mono wedge counts its one channel once (3 dB under the same sine on two channels); a mono in-ear
    /// mix, heard by both ears, counts it twice (dual mono) and reads like the stereo sine.
    func testMonoLayouts() throws {
        let wedge = try measure([Segment(dBFS: -23, seconds: 5)], channels: 1, layout: .mono)
        let inEar = try measure([Segment(dBFS: -23, seconds: 5)], channels: 1, layout: .dualMono)
        XCTAssertEqual(wedge.momentaryLUFS, -26.01, accuracy: 0.1)
        XCTAssertEqual(inEar.momentaryLUFS, -23, accuracy: 0.1)
    }

    /// The inter-sample peak: a sine at fs/4 sampled 45° off its crests has sample peaks 3 dB under its true
    /// peak. A −6.02 dBFS (peak 0.5) one reads −6.02 dBTP within Tech 3341's +0.2 / −0.4 dB.
    func testTruePeakFindsTheInterSamplePeak() throws {
        let meter = try XCTUnwrap(LoudnessMeter(channels: 2, sampleRate: 48_000, layout: .stereo))
        let frames = 48_000
        var samples = [Float](repeating: 0, count: frames * 2)
        for frame in 0..<frames {
            let value = Float(0.5 * sin(Double.pi / 2 * Double(frame) + Double.pi / 4))
            samples[frame * 2] = value
            samples[frame * 2 + 1] = value
        }
        XCTAssertEqual(Double(samples.map(abs).max() ?? 0), 0.5 / 2.0.squareRoot(), accuracy: 1e-6, "samples at −9.03 dBFS")
        samples.withUnsafeBufferPointer { meter.add(interleaved: $0.baseAddress!, frames: frames) }
        let reading = meter.read()
        let expected = 20 * log10(0.5)
        XCTAssertLessThanOrEqual(reading.truePeakDBTP, expected + 0.2)
        XCTAssertGreaterThanOrEqual(reading.truePeakDBTP, expected - 0.4)
        XCTAssertEqual(reading.maximumTruePeakDBTP, reading.truePeakDBTP)
        XCTAssertEqual(meter.read().truePeakDBTP, -.infinity, "a reading starts a new true-peak window")
    }

    /// Silence reads −∞ everywhere; nonsense formats are refused.
    func testSilenceAndRefusedFormats() throws {
        let reading = try measure([Segment(dBFS: -.infinity, seconds: 1)])
        XCTAssertEqual(reading.momentaryLUFS, -.infinity)
        XCTAssertEqual(reading.integratedLUFS, -.infinity)
        XCTAssertNil(LoudnessMeter(channels: 0, sampleRate: 48_000, layout: .stereo))
        XCTAssertNil(LoudnessMeter(channels: 2, sampleRate: 0, layout: .stereo))
    }
}
