// A stretched or shifted output's 10 ms RMS envelope against its source's, scaled in time by 1/tempo: what a cut end or a soft start shows. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Compares `output`'s RMS envelope, window by window, with the envelope of `reference` played at `tempo`:
/// output window `w` (output frames `w·n ..< (w+1)·n`) against the reference frames that should make it
/// (the same span of time × tempo at the reference's rate). Every window of the expected length is judged,
/// the first and the last included; a window the output does not reach counts as silent.
public struct EnvelopeComparison: CustomStringConvertible {
    /// Windows judged: the expected output length (reference length ÷ tempo) in whole windows.
    public let windowCount: Int
    /// Output minus reference level per window, dB (nil where the reference changes level nearby: not judged).
    public let deviations: [Double?]
    /// Output and reference levels per window, dB RMS.
    public let outputLevels: [Double]
    public let referenceLevels: [Double]
    /// Windows whose output samples are all exactly zero.
    public let silentWindows: [Int]

    /// Compares; windows whose reference span lies within `margin` seconds (reference time) of one of `steps`
    /// (reference seconds where the level jumps) are not judged for level: a stretcher smears a step over its window.
    public init(
        output: [Float], outputRate: Double, reference: [Float], referenceRate: Double, tempo: Double,
        windowSeconds: Double = 0.01, steps: [Double] = [], margin: Double = 0
    ) {
        let window = Int((outputRate * windowSeconds).rounded())
        let expected = Double(reference.count) * outputRate / referenceRate / tempo
        windowCount = Int(expected) / window
        var deviations: [Double?] = [], outputLevels: [Double] = [], referenceLevels: [Double] = [], silent: [Int] = []
        for index in 0..<windowCount {
            let start = index * window, end = start + window
            let played = start < output.count ? output[start..<min(end, output.count)] : []
            if played.allSatisfy({ $0 == 0 }) { silent.append(index) }
            let from = Double(start) / outputRate * tempo, to = Double(end) / outputRate * tempo
            let span = Int(from * referenceRate)..<min(Int(to * referenceRate), reference.count)
            let level = Self.level(played, count: window), referenceLevel = Self.level(reference[span], count: span.count)
            outputLevels.append(level)
            referenceLevels.append(referenceLevel)
            let isNearStep = steps.contains { $0 > from - margin && $0 < to + margin }
            deviations.append(isNearStep ? nil : level - referenceLevel)
        }
        (self.deviations, self.outputLevels, self.referenceLevels, silentWindows) = (deviations, outputLevels, referenceLevels, silent)
    }

    /// dB RMS of `samples` over `count` frames (missing frames are silence); −200 for silence.
    private static func level(_ samples: ArraySlice<Float>, count: Int) -> Double {
        guard count > 0 else { return -200 }
        let energy = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return energy > 0 ? 10 * log10(energy / Double(count)) : -200
    }

    /// The judged window furthest from its reference, and by how much (dB).
    public var worst: (window: Int, deviation: Double) {
        deviations.enumerated().compactMap { index, deviation in deviation.map { (index, $0) } }
            .max { abs($0.1) < abs($1.1) } ?? (0, 0)
    }

    /// The deviation of the first and of the last window (nil if not judged).
    public var first: Double? { deviations.first ?? nil }
    public var last: Double? { deviations.last ?? nil }

    public var description: String {
        guard windowCount > 0 else { return "no window" }
        func level(_ index: Int) -> String { String(format: "%.1f dB (source %.1f)", outputLevels[index], referenceLevels[index]) }
        let (index, deviation) = worst
        return "first window \(level(0)), last \(level(windowCount - 1)), worst \(String(format: "%+.2f", deviation)) dB at window "
            + "\(index) of \(windowCount), \(silentWindows.count) silent"
    }
}
