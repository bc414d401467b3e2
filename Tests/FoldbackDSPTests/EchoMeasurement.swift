// Test helper: the echo unit driven through its render slot, with its parameter indices by key, impulses and single-frequency DFT levels.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import Foundation

enum EchoMeasurement {
    /// The index of the echo parameter `key`.
    static func index(_ key: String) -> Int {
        EchoUnit.liveParameters.firstIndex { $0.key == key }!
    }

    /// A prepared echo of `channels` input channels at `sampleRate` with `settings`.
    static func driver(_ settings: EchoParameters, channels: Int = 1, sampleRate: Double) throws -> UnitSlotDriver {
        try UnitSlotDriver(EchoUnit(settings: settings), channels: channels, sampleRate: sampleRate)
    }

    /// Wet only, filters off, no ducking: the loop is nothing but the feedback gain.
    static func bare(time: Float, feedback: Float, mode: EchoMode = .mono) -> EchoParameters {
        EchoParameters(time: time, feedback: feedback, lowCut: EchoParameters.lowCutRange.lowerBound,
                       highCut: EchoParameters.highCutRange.upperBound, mode: mode, mix: 1)
    }

    /// `length` zeros with a 1 at `index`.
    static func impulse(_ length: Int, at index: Int = 0) -> [Float] {
        var signal = [Float](repeating: 0, count: length)
        signal[index] = 1
        return signal
    }

    /// |Σ x[n] e^(−iωn)| of `signal` at `frequency` Hz.
    static func magnitude(_ signal: ArraySlice<Float>, frequency: Double, sampleRate: Double) -> Double {
        let omega = 2 * Double.pi * frequency / sampleRate
        var real = 0.0, imaginary = 0.0
        for (offset, sample) in signal.enumerated() {
            real += Double(sample) * cos(omega * Double(offset))
            imaginary -= Double(sample) * sin(omega * Double(offset))
        }
        return (real * real + imaginary * imaginary).squareRoot()
    }

    /// The largest |x[n] − x[n−1]| over `range`.
    static func largestStep(_ signal: [Float], in range: Range<Int>) -> Float {
        var largest: Float = 0
        for index in max(range.lowerBound, 1)..<range.upperBound { largest = max(largest, abs(signal[index] - signal[index - 1])) }
        return largest
    }
}
