// Measurements on a simulated stage's output: short-time levels, when a level is first reached, a ring's exact frequency. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// The figures the stage tests and the stage sweep measure on a wedge's output.
public enum StageLevels {
    /// RMS level in dBFS of `samples[range]`.
    public static func levelDB(_ samples: [Float], _ range: Range<Int>) -> Double {
        var sum = 0.0
        for index in range { sum += Double(samples[index]) * Double(samples[index]) }
        return 10 * log10(max(sum / Double(max(range.count, 1)), 1e-20))
    }

    /// The loudest `window`-second RMS level in `samples` between `from` and `to` seconds (windows overlapping by half).
    public static func maxLevelDB(_ samples: [Float], sampleRate: Double, from: Double, to: Double, window: Double = 0.05) -> Double {
        let size = Int(window * sampleRate)
        var best = -200.0
        var start = Int(from * sampleRate)
        while start + size <= min(Int(to * sampleRate), samples.count) {
            best = max(best, levelDB(samples, start..<start + size))
            start += size / 2
        }
        return best
    }

    /// The first time (seconds) after `from` at which a `window`-second RMS level reaches `threshold` dBFS, or nil.
    public static func firstTime(_ samples: [Float], sampleRate: Double, from: Double, reaching threshold: Double, window: Double = 0.01) -> Double? {
        let size = Int(window * sampleRate)
        var start = Int(from * sampleRate)
        while start + size <= samples.count {
            if levelDB(samples, start..<start + size) >= threshold { return Double(start + size) / sampleRate }
            start += size / 2
        }
        return nil
    }

    /// Where a ring near `near` Hz really was: in the 170 ms of `samples` ending at `end` (Hann window, its
    /// spectrum scanned every 0.25 Hz over ±5 %), the local maximum nearest `near` among those within 30 dB of
    /// the strongest.
    public static func peakFrequency(_ samples: [Float], end: Int, near: Double, sampleRate: Double) -> Double {
        let count = min(Int(0.17 * sampleRate), end)
        let start = end - count
        let windowed = (0..<count).map { (0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(count))) * Double(samples[start + $0]) }
        let frequencies = Array(stride(from: 0.95 * near, through: 1.05 * near, by: 0.25))
        let powers = frequencies.map { frequency in
            let omega = 2 * Double.pi * frequency / sampleRate
            let (stepCos, stepSin) = (cos(omega), sin(omega))
            var (re, im, c, s) = (0.0, 0.0, 1.0, 0.0)
            for x in windowed {
                re += x * c
                im -= x * s
                (c, s) = (c * stepCos - s * stepSin, s * stepCos + c * stepSin)
            }
            return re * re + im * im
        }
        let strongest = powers.max() ?? 0
        let maxima = powers.indices.dropFirst().dropLast().filter {
            powers[$0] >= powers[$0 - 1] && powers[$0] > powers[$0 + 1] && powers[$0] >= 1e-3 * strongest
        }
        return maxima.map { frequencies[$0] }.min { abs($0 - near) < abs($1 - near) } ?? near
    }
}
