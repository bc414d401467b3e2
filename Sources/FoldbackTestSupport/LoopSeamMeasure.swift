// What a looped source's output does at a loop seam: a gap of zeros, a click (a sample step above the signal's own), a level dip. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Measures `output` within 50 ms either side of frame `seam` against the same signal in `reference` (a stretch of
/// the output away from any seam).
public struct LoopSeamMeasure: CustomStringConvertible {
    /// The longest run of exact zeros around the seam, frames.
    public let longestZeroRun: Int
    /// The largest step from one sample to the next around the seam, and in the reference stretch.
    public let largestStep: Float
    public let ownStep: Float
    /// The loudest minus the quietest 10 ms window around the seam, dB.
    public let levelSpread: Double

    /// Measures at `seam` (at least 50 ms inside `output`) at `rate` Hz.
    public init(output: [Float], seam: Int, reference: Range<Int>, rate: Double) {
        let half = Int(rate * 0.05), window = Int(rate * 0.01)
        let around = (seam - half)..<(seam + half)
        func steps(_ range: Range<Int>) -> Float { range.dropFirst().map { abs(output[$0] - output[$0 - 1]) }.max() ?? 0 }
        var run = 0, longest = 0
        for frame in around {
            run = output[frame] == 0 ? run + 1 : 0
            longest = max(longest, run)
        }
        let levels = stride(from: around.lowerBound, to: around.upperBound, by: window).map { start in
            10 * log10(max(output[start..<(start + window)].reduce(0.0) { $0 + Double($1 * $1) } / Double(window), 1e-20))
        }
        longestZeroRun = longest
        largestStep = steps(around)
        ownStep = steps(reference)
        levelSpread = (levels.max() ?? 0) - (levels.min() ?? 0)
    }

    public var description: String {
        String(format: "longest zero run %d, largest step %.5f (the signal's own %.5f), level spread %.2f dB", longestZeroRun, largestStep, ownStep, levelSpread)
    }
}
