// Helpers for the feedback tests: short-time levels, test sources and measured figures. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackFeedback
import FoldbackFeedbackTesting
import FoldbackJACK
import FoldbackJACKTesting
import Foundation

enum StageMeasurements {
    /// RMS level in dBFS of `samples[range]`.
    static func levelDB(_ samples: [Float], _ range: Range<Int>) -> Double { StageLevels.levelDB(samples, range) }

    /// The loudest `window`-second RMS level in `samples` between `from` and `to` seconds.
    static func maxLevelDB(_ samples: [Float], sampleRate: Double, from: Double, to: Double, window: Double = 0.05) -> Double {
        StageLevels.maxLevelDB(samples, sampleRate: sampleRate, from: from, to: to, window: window)
    }

    /// The first time (seconds) after `from` at which a `window`-second RMS level reaches `threshold` dBFS, or nil.
    static func firstTime(_ samples: [Float], sampleRate: Double, from: Double, reaching threshold: Double, window: Double = 0.01) -> Double? {
        StageLevels.firstTime(samples, sampleRate: sampleRate, from: from, reaching: threshold, window: window)
    }

    /// Quiet room noise at the mic (the seed keeps runs comparable), `level` dBFS peak.
    static func roomNoise(sampleRate: Double, level: Double = -60) -> (Int) -> Float {
        let signal = TestSignal.noise(seed: 7, level: level)
        return { signal.sample(at: UInt32(truncatingIfNeeded: $0), sampleRate: sampleRate) }
    }

    /// A test signal as a source.
    static func source(_ signal: TestSignal, sampleRate: Double) -> (Int) -> Float {
        { signal.sample(at: UInt32(truncatingIfNeeded: $0), sampleRate: sampleRate) }
    }

    /// A sustained sung note: 220 Hz with 14 harmonics under a vowel-like tilt, 5.5 Hz vibrato of ±35 cents, `level` dBFS peak.
    static func sungNote(sampleRate: Double, frequency: Double = 220, level: Double = -12) -> (Int) -> Float {
        let amplitude = pow(10, level / 20) / 3
        return { frame in
            let time = Double(frame) / sampleRate
            let depth = 0.35 / 12 * log(2.0)                  // ±35 cents in natural-log frequency
            // phase of f(t) = f0·exp(depth·sin(2π·5.5t)), integrated to first order
            let base = 2 * Double.pi * frequency * time
            let vibrato = frequency * depth / 5.5 * (1 - cos(2 * Double.pi * 5.5 * time))
            let phase = base + vibrato
            var sum = 0.0
            for harmonic in 1...14 {
                let h = Double(harmonic)
                sum += sin(h * phase) / pow(h, 0.8)
            }
            let swell = min(time / 0.3, 1)
            return Float(amplitude * swell * sum)
        }
    }
}
