// Test signals whose level envelope shows a cut end or a soft start: a steady tone and a tone in level steps. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A 440 Hz tone (starting at 0.7 rad, so its first sample is not a zero) whose level is either steady or steps
/// every `stepSeconds`, ending on a loud step: what a stretcher's envelope is measured on.
public enum EnvelopeTestSignal: Sendable, CaseIterable {
    /// −15 dB RMS throughout.
    case steady
    /// −18, −30, −12, −24 dB RMS … in turn, the last step at −15 dB.
    case steps

    /// The tempos and shifts a stretched source is judged at: four tempos, three shifts, and 0.85 with −2 semitones.
    public static let stretchSettings: [(tempo: Double, semitones: Double)] =
        [(0.5, 0), (0.85, 0), (1.25, 0), (2, 0), (1, -12), (1, -2), (1, 7), (0.85, -2)]

    /// Seconds between level steps.
    public static let stepSeconds = 0.25

    /// `seconds` of the signal at `rate`, mono.
    public func samples(rate: Double, seconds: Double) -> [Float] {
        let frames = Int(rate * seconds)
        let levels = [-18.0, -30, -12, -24]
        let lastStep = Int(seconds / Self.stepSeconds - 1e-9)
        return (0..<frames).map { frame in
            let time = Double(frame) / rate
            let step = Int(time / Self.stepSeconds)
            let rms = self == .steady || step == lastStep ? -15 : levels[step % levels.count]
            return Float(pow(10, rms / 20) * 2.0.squareRoot() * sin(2 * .pi * 440 * time + 0.7))
        }
    }

    /// Where the level steps, seconds into the signal.
    public func steps(seconds: Double) -> [Double] {
        self == .steady ? [] : Array(stride(from: Self.stepSeconds, to: seconds, by: Self.stepSeconds))
    }
}
