// The echo's user parameters: values, ranges, note values against a tempo, modes and sanitising. Realtime-safe (plain value type).
// SPDX-License-Identifier: GPL-3.0-or-later

/// A note value an echo's time can follow, as a fraction of a whole note at the show tempo.
public enum EchoNoteValue: Int, Sendable, CaseIterable {
    /// Free time: ``EchoParameters/time`` in milliseconds.
    case off = 0
    case whole, half, dottedHalf, halfTriplet
    case quarter, dottedQuarter, quarterTriplet
    case eighth, dottedEighth, eighthTriplet
    case sixteenth, dottedSixteenth, sixteenthTriplet
    case thirtySecond

    /// The spelling in presets and on pages: `1/4`, `1/8.` (dotted), `1/8t` (triplet), `off`.
    public var name: String {
        switch self {
        case .off: return "off"
        case .whole: return "1/1"
        case .half: return "1/2"
        case .dottedHalf: return "1/2."
        case .halfTriplet: return "1/2t"
        case .quarter: return "1/4"
        case .dottedQuarter: return "1/4."
        case .quarterTriplet: return "1/4t"
        case .eighth: return "1/8"
        case .dottedEighth: return "1/8."
        case .eighthTriplet: return "1/8t"
        case .sixteenth: return "1/16"
        case .dottedSixteenth: return "1/16."
        case .sixteenthTriplet: return "1/16t"
        case .thirtySecond: return "1/32"
        }
    }

    /// Its length in quarter notes (a beat): 1/4 is 1, 1/8. is 0.75, 1/8t is 1/3; `off` is 0.
    public var beats: Double {
        switch self {
        case .off: return 0
        case .whole: return 4
        case .half: return 2
        case .dottedHalf: return 3
        case .halfTriplet: return 4.0 / 3
        case .quarter: return 1
        case .dottedQuarter: return 1.5
        case .quarterTriplet: return 2.0 / 3
        case .eighth: return 0.5
        case .dottedEighth: return 0.75
        case .eighthTriplet: return 1.0 / 3
        case .sixteenth: return 0.25
        case .dottedSixteenth: return 0.375
        case .sixteenthTriplet: return 1.0 / 6
        case .thirtySecond: return 0.125
        }
    }
}

/// How an echo's lines are fed and heard.
public enum EchoMode: Int, Sendable, CaseIterable {
    /// One line from the sum of the inputs, heard on both sides.
    case mono = 0
    /// Each input channel echoes on its own side (a stereo source keeps its image; a mono one sounds as `mono`).
    case stereo = 1
    /// The input feeds the left line, whose repeats feed the right and back: repeats alternate left, right, left…
    case pingPong = 2

    /// The spelling in presets: `mono`, `stereo`, `ping_pong`.
    public var name: String {
        switch self {
        case .mono: return "mono"
        case .stereo: return "stereo"
        case .pingPong: return "ping_pong"
        }
    }
}

/// How a change of echo time sounds.
public enum EchoTimeChange: Int, Sendable, CaseIterable {
    /// Two read heads crossfade over ``EchoParameters/crossfadeTime``: no pitch change.
    case crossfade = 0
    /// The read head glides to the new time, at most ``EchoParameters/glideRate`` (a tape-echo pitch bend).
    case glide = 1

    /// The spelling in presets: `crossfade`, `glide`.
    public var name: String { self == .crossfade ? "crossfade" : "glide" }
}

/// The settings of an ``EchoKernel``, each in its own unit (stated per property).
///
/// Values outside a range are clamped by ``sanitized``; NaN falls back to the default.
public struct EchoParameters: Sendable, Hashable {
    /// Echo time in milliseconds when ``sync`` is `off`.
    public var time: Float
    /// A note value against ``tempo``, or `off` for ``time``.
    public var sync: EchoNoteValue
    /// The show tempo in beats (quarter notes) per minute: what ``sync`` counts against.
    public var tempo: Float
    /// Each repeat's level relative to the previous one, in percent (0 … 95).
    public var feedback: Float
    /// The high-pass corner in the loop, in Hz; the range's bottom (20 Hz) is off.
    public var lowCut: Float
    /// The low-pass corner in the loop, in Hz; the range's top (20 kHz) is off.
    public var highCut: Float
    /// How the lines are fed and heard.
    public var mode: EchoMode
    /// Dry/wet balance 0…1, equal-power: dry gain cos(mix·π/2), wet gain sin(mix·π/2).
    public var mix: Float
    /// How far the echo ducks while the dry voice is above ``duckThreshold``, in dB (0 is off).
    public var ducking: Float
    /// The dry level above which the echo ducks, in dBFS.
    public var duckThreshold: Float
    /// Whether the loop holds what it has (no input, no loss) until released.
    public var isFrozen: Bool
    /// How a change of time sounds.
    public var timeChange: EchoTimeChange

    /// Allowed ``time`` values, in milliseconds.
    public static let timeRange: ClosedRange<Float> = 1...2000
    /// Allowed ``tempo`` values, in BPM.
    public static let tempoRange: ClosedRange<Float> = 20...300
    /// Allowed ``feedback`` values, in percent.
    public static let feedbackRange: ClosedRange<Float> = 0...95
    /// Allowed ``lowCut`` values, in Hz (the bottom is off).
    public static let lowCutRange: ClosedRange<Float> = 20...2000
    /// Allowed ``highCut`` values, in Hz (the top is off).
    public static let highCutRange: ClosedRange<Float> = 1000...20000
    /// Allowed ``ducking`` values, in dB.
    public static let duckingRange: ClosedRange<Float> = 0...40
    /// Allowed ``duckThreshold`` values, in dBFS.
    public static let duckThresholdRange: ClosedRange<Float> = -70...0
    /// Allowed ``mix`` values.
    public static let unitRange: ClosedRange<Float> = 0...1
    /// The length of a crossfade between the old and the new time, in seconds.
    public static let crossfadeTime = 0.030
    /// The fastest a glide moves the read head, in seconds of delay per second (0.25: at most ±25 % pitch).
    public static let glideRate = 0.25

    /// The defaults: a 375 ms stereo echo at 35 % feedback, 150 Hz to 6 kHz in the loop, mixed in at a quarter.
    public static let defaults = EchoParameters()

    /// Parameters with the given values (defaults for any omitted).
    public init(
        time: Float = 375, sync: EchoNoteValue = .off, tempo: Float = 120, feedback: Float = 35, lowCut: Float = 150,
        highCut: Float = 6000, mode: EchoMode = .stereo, mix: Float = 0.25, ducking: Float = 0, duckThreshold: Float = -40,
        isFrozen: Bool = false, timeChange: EchoTimeChange = .crossfade
    ) {
        self.time = time
        self.sync = sync
        self.tempo = tempo
        self.feedback = feedback
        self.lowCut = lowCut
        self.highCut = highCut
        self.mode = mode
        self.mix = mix
        self.ducking = ducking
        self.duckThreshold = duckThreshold
        self.isFrozen = isFrozen
        self.timeChange = timeChange
    }

    /// The echo time in seconds: ``time`` free, or ``sync``'s beats at ``tempo``, within ``timeRange``.
    public var seconds: Double {
        let safe = sanitized
        let milliseconds = safe.sync == .off ? Double(safe.time) : 60_000 / Double(safe.tempo) * safe.sync.beats
        return min(max(milliseconds, Double(Self.timeRange.lowerBound)), Double(Self.timeRange.upperBound)) / 1000
    }

    /// The echo time in whole frames at `sampleRate`: round(``seconds`` · fs).
    public func frames(sampleRate: Double) -> Int {
        Int((seconds * sampleRate).rounded())
    }

    /// A copy with every value clamped to its range; NaN becomes the default.
    public var sanitized: EchoParameters {
        let fallback = EchoParameters.defaults
        var copy = self
        copy.time = Self.timeRange.clamp(time, fallback: fallback.time)
        copy.tempo = Self.tempoRange.clamp(tempo, fallback: fallback.tempo)
        copy.feedback = Self.feedbackRange.clamp(feedback, fallback: fallback.feedback)
        copy.lowCut = Self.lowCutRange.clamp(lowCut, fallback: fallback.lowCut)
        copy.highCut = Self.highCutRange.clamp(highCut, fallback: fallback.highCut)
        copy.mix = Self.unitRange.clamp(mix, fallback: fallback.mix)
        copy.ducking = Self.duckingRange.clamp(ducking, fallback: fallback.ducking)
        copy.duckThreshold = Self.duckThresholdRange.clamp(duckThreshold, fallback: fallback.duckThreshold)
        return copy
    }
}
