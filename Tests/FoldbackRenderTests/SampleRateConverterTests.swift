// Tests of the libsamplerate converter: length, pitch, level and piecewise streaming.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackRender
import Foundation
import XCTest

final class SampleRateConverterTests: XCTestCase {
    private func sine(hz: Double, rate: Double, frames: Int, channels: Int = 1) -> [Float] {
        ToneMeasure.sine(hz: hz, rate: rate, frames: frames, channels: channels)
    }

    private func frequency(_ samples: [Float], channels: Int, channel: Int, rate: Double) -> Double {
        ToneMeasure.frequency(samples, channels: channels, channel: channel, rate: rate)
    }

    func testUpsamplingKeepsLengthPitchAndLevel() throws {
        for (from, to) in [(44100.0, 48000.0), (48000.0, 96000.0), (96000.0, 44100.0)] {
            let converter = try SampleRateConverter(channels: 2, inputRate: from, outputRate: to)
            var output: [Float] = []
            let frames = Int(from)   // one second
            let produced = try converter.convert(sine(hz: 1000, rate: from, frames: frames, channels: 2), isLastPiece: true, into: &output)
            XCTAssertEqual(Double(produced), to, accuracy: 2, "\(from)→\(to): one second stays one second (±2 frames)")
            XCTAssertEqual(frequency(output, channels: 2, channel: 0, rate: to), 1000, accuracy: 0.5, "\(from)→\(to): pitch")
            XCTAssertEqual(frequency(output, channels: 2, channel: 1, rate: to), 1000, accuracy: 0.5)
            let middle = output[(produced / 4 * 2)..<(3 * produced / 4 * 2)]
            let peak = middle.map { abs($0) }.max() ?? 0
            XCTAssertEqual(Double(peak), 0.5, accuracy: 0.005, "\(from)→\(to): level within 0.1 dB")
        }
    }

    func testConvertingInPiecesEqualsConvertingAtOnce() throws {
        let input = sine(hz: 440, rate: 44100, frames: 10_000)
        let whole = try SampleRateConverter(channels: 1, inputRate: 44100, outputRate: 48000)
        var expected: [Float] = []
        try whole.convert(input, isLastPiece: true, into: &expected)
        let pieces = try SampleRateConverter(channels: 1, inputRate: 44100, outputRate: 48000)
        var actual: [Float] = []
        var offset = 0
        for size in [1, 7, 253, 1024].cycled(upTo: input.count) {
            let end = min(offset + size, input.count)
            try pieces.convert(Array(input[offset..<end]), isLastPiece: end == input.count, into: &actual)
            offset = end
            if end == input.count { break }
        }
        XCTAssertEqual(actual.count, expected.count)
        let worst = zip(actual, expected).map { abs($0 - $1) }.max() ?? 1
        XCTAssertLessThan(worst, 1e-6, "piecewise streaming at block sizes 1, 7, 253, 1024 matches one call")
    }

    func testImpossibleRatiosAreRefused() {
        XCTAssertThrowsError(try SampleRateConverter(channels: 1, inputRate: 8000, outputRate: 8000 * 300))
        XCTAssertThrowsError(try SampleRateConverter(channels: 0, inputRate: 48000, outputRate: 44100))
    }
}

private extension Array where Element == Int {
    /// The sizes repeated until they add up to at least `total`.
    func cycled(upTo total: Int) -> [Int] {
        var result: [Int] = [], sum = 0
        while sum < total { for size in self { result.append(size); sum += size } }
        return result
    }
}
