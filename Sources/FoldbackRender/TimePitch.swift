// A file source's tempo and key (the seeds' AVAudioUnitTimePitch settings) and the stretcher engine choice. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// How a file plays: its tempo and its pitch, independent of each other.
public struct TimePitch: Sendable, Equatable {
    /// Speed: 1 as recorded, 0.5 … 2.0 (0.85 plays a 60 s file in 70.6 s).
    public var tempo: Double
    /// Pitch shift, semitones (−12 … +12).
    public var semitones: Double
    /// Fine pitch shift added to `semitones`, cents (−100 … +100).
    public var cents: Double
    /// Whether a shifted voice keeps its formants (its timbre) rather than moving them with the pitch.
    public var preservesFormant: Bool

    /// The tempo range, as a preset and OSC accept it.
    public static let tempoRange: ClosedRange<Double> = 0.5...2.0
    /// The pitch range, semitones.
    public static let semitoneRange: ClosedRange<Double> = -12...12
    /// The fine pitch range, cents.
    public static let centRange: ClosedRange<Double> = -100...100

    /// As recorded: tempo 1, no shift (the stretcher is skipped and the file plays bit for bit).
    public static let identity = TimePitch()

    /// A setting; values are clamped into their ranges.
    public init(tempo: Double = 1, semitones: Double = 0, cents: Double = 0, preservesFormant: Bool = false) {
        self.tempo = min(max(tempo, Self.tempoRange.lowerBound), Self.tempoRange.upperBound)
        self.semitones = min(max(semitones, Self.semitoneRange.lowerBound), Self.semitoneRange.upperBound)
        self.cents = min(max(cents, Self.centRange.lowerBound), Self.centRange.upperBound)
        self.preservesFormant = preservesFormant
    }

    /// Whether the file plays as recorded.
    public var isIdentity: Bool { tempo == 1 && semitones == 0 && cents == 0 }

    /// Frequency ratio of the shift: 2^((semitones + cents/100)/12).
    public var pitchScale: Double { pow(2, (semitones + cents / 100) / 12) }

    /// How `foldback check` and the status show it: `tempo 0.85, -2 st`.
    public var summary: String {
        var parts = [String(format: "tempo %.3g", tempo)]
        let shift = semitones + cents / 100
        if shift != 0 { parts.append(String(format: "%+.2f st", shift)) }
        if preservesFormant { parts.append("formant kept") }
        return parts.joined(separator: ", ")
    }
}

/// Rubber Band's two engines.
public enum StretchEngine: String, Sendable, CaseIterable {
    /// R3 ("finer"): the better sound, more CPU. Offline render always uses it.
    case finer
    /// R2 ("faster"): less CPU.
    case faster
}
