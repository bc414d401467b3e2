// Test signals and measurements shared by the engine tests: sines, DC, noise, largest steps, ramp lengths.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import Foundation

enum TestSignal {
    /// `frames` samples of a sine of `amplitude` at `frequency` Hz.
    static func sine(frames: Int, frequency: Double = 997, sampleRate: Double, amplitude: Float = 1, phase: Double = 0) -> [Float] {
        (0..<frames).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / sampleRate + phase)) }
    }

    /// `frames` samples of the constant `value`.
    static func dc(frames: Int, value: Float = 1) -> [Float] { [Float](repeating: value, count: frames) }

    /// Deterministic white noise in −amplitude…+amplitude (a linear congruential generator, seeded).
    static func noise(frames: Int, seed: UInt32 = 1, amplitude: Float = 0.5) -> [Float] {
        var state = seed
        return (0..<frames).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return amplitude * (Float(state >> 8) / Float(1 << 23) - 1)
        }
    }

    /// Largest |x[n] − x[n−1]| over `range` (frames counted from 1).
    static func largestStep(_ samples: [Float], in range: Range<Int>? = nil) -> Float {
        let span = range ?? 1..<samples.count
        var largest: Float = 0
        for frame in span where frame >= 1 { largest = max(largest, abs(samples[frame] - samples[frame - 1])) }
        return largest
    }

    /// The largest per-sample change a click-free ramp of `delta` over `frames` frames may make: the ideal
    /// slope plus 10 % (float ramps drift a little; the strict Δ/frames + 1e-6 bound is asserted in
    /// ParameterSmoothingTests and LinearSmootherTests).
    static func clickFreeStep(delta: Float, frames: Int) -> Float { abs(delta) / Float(frames) * 1.1 + 1e-6 }

    /// Round(seconds · sampleRate), as the engine computes ramp and fade lengths.
    static func frames(seconds: Double, sampleRate: Double) -> Int { Int((seconds * sampleRate).rounded()) }

    /// RMS level of `samples` in dB (relative to 1).
    static func rmsDB<Samples: Collection<Float>>(_ samples: Samples) -> Double {
        10 * log10(samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count))
    }

    static func linear(_ decibels: Float) -> Float { Decibels.linearGain(fromDecibels: decibels) }
}
