// The parameters of one parametric-EQ band (type, frequency, gain, Q, slope) and their ranges. Value types, realtime-safe.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The filter shape of an EQ band, spelt as in presets (`"low_shelf"`).
public enum EQBandType: String, Sendable, Hashable, CaseIterable {
    /// A bell: `gainDB` at the centre frequency, `q` sets the width.
    case peak
    /// Boosts or cuts below the corner; `gainDB` is the shelf level, half of it at the corner.
    case lowShelf = "low_shelf"
    /// Boosts or cuts above the corner; `gainDB` is the shelf level, half of it at the corner.
    case highShelf = "high_shelf"
    /// Removes lows: 12 or 24 dB/octave below the corner (−3 dB at the corner when Butterworth).
    case highPass = "high_pass"
    /// Removes highs: 12 or 24 dB/octave above the corner (−3 dB at the corner when Butterworth).
    case lowPass = "low_pass"
    /// A zero at the centre frequency; `q` sets the width.
    case notch
    /// Passes a band around the centre (0 dB at the centre), 6 dB/octave either side.
    case bandPass = "band_pass"
    /// Unity gain at every frequency; the phase turns through 360° around the centre.
    case allPass = "all_pass"

    /// The type whose ``choiceValue`` is `value` (rounded), nil for none. Realtime-safe: no array.
    public init?(choiceValue value: Float) {
        guard value.isFinite, value >= -0.5, value < 7.5 else { return nil }
        switch Int(value.rounded()) {
        case 0: self = .peak
        case 1: self = .lowShelf
        case 2: self = .highShelf
        case 3: self = .highPass
        case 4: self = .lowPass
        case 5: self = .notch
        case 6: self = .bandPass
        default: self = .allPass
        }
    }

    /// The number a band's `type` parameter takes for this type: its place in ``allCases``.
    public var choiceValue: Float {
        switch self {
        case .peak: 0
        case .lowShelf: 1
        case .highShelf: 2
        case .highPass: 3
        case .lowPass: 4
        case .notch: 5
        case .bandPass: 6
        case .allPass: 7
        }
    }

    /// Whether `gainDB` shapes the response (peaks and shelves); other types ignore it.
    public var usesGain: Bool { self == .peak || self == .lowShelf || self == .highShelf }

    /// Whether the type has a 12/24 dB-per-octave choice (high- and low-pass).
    public var hasSlope: Bool { self == .highPass || self == .lowPass }

    /// The Q a band of this type gets when none is given.
    public var defaultQ: Double {
        switch self {
        case .peak, .bandPass: return 1
        case .notch: return 4
        case .lowShelf, .highShelf, .highPass, .lowPass, .allPass: return EQBand.butterworthQ
        }
    }
}

/// One band of a parametric EQ: what the ``EQKernel`` filters with and ``EQResponse`` plots.
///
/// Frequencies are in Hz, gains in dB. High- and low-pass bands at 24 dB/octave are fourth-order
/// Butterworth (two sections, Q 0.5412 and 1.3066) and ignore `q`; at 12 dB/octave `q` is the section's
/// Q (0.7071 is Butterworth).
public struct EQBand: Sendable, Hashable {
    /// The filter shape.
    public var type: EQBandType
    /// Centre or corner frequency, in Hz.
    public var frequency: Double
    /// Peak or shelf gain, in dB (used by peaks and shelves only).
    public var gainDB: Double
    /// Quality factor: centre frequency over bandwidth (peaks, notches, band-passes), the corner's
    /// resonance (shelves, 12 dB/octave high/low-pass), the phase-turn rate (all-pass).
    public var q: Double
    /// 12 or 24 (high- and low-pass only; other types ignore it).
    public var slopeDBPerOctave: Int
    /// Whether the band filters; a disabled band passes the signal untouched.
    public var isEnabled: Bool

    /// A band; `q` defaults to the type's ``EQBandType/defaultQ``.
    public init(
        type: EQBandType, frequency: Double, gainDB: Double = 0, q: Double? = nil,
        slopeDBPerOctave: Int = 12, isEnabled: Bool = true
    ) {
        self.type = type
        self.frequency = frequency
        self.gainDB = gainDB
        self.q = q ?? type.defaultQ
        self.slopeDBPerOctave = slopeDBPerOctave
        self.isEnabled = isEnabled
    }

    /// The Q of a second-order Butterworth section, 1/√2.
    public static let butterworthQ = 0.5.squareRoot()
    /// The Qs of the two sections of a fourth-order Butterworth filter: 1/(2 cos(π/8)), 1/(2 cos(3π/8)).
    public static let fourthOrderButterworthQ = (1 / (2 * cos(Double.pi / 8)), 1 / (2 * cos(3 * Double.pi / 8)))
    /// The frequencies a band may have, in Hz: 10 Hz up to 0.49 × 48 kHz. At other sample rates the
    /// top is 0.49 × the rate (see ``maximumFrequency(sampleRate:)``).
    public static let frequencyRange: ClosedRange<Double> = 10...23_520
    /// The gains a peak or shelf may have, in dB.
    public static let gainRange: ClosedRange<Double> = -24...24
    /// The Qs a band may have.
    public static let qRange: ClosedRange<Double> = 0.1...50
    /// The bandwidths (in octaves) a band may be given instead of a Q: about Q 48 … Q 0.1.
    public static let bandwidthRange: ClosedRange<Double> = 0.03...6.6
    /// The shelf slopes a shelf may be given instead of a Q (1 is the steepest without overshoot).
    public static let shelfSlopeRange: ClosedRange<Double> = 0.1...1

    /// The highest frequency a band may have at `sampleRate` Hz: 0.49 × the rate.
    public static func maximumFrequency(sampleRate: Double) -> Double { 0.49 * sampleRate }

    /// The Q of a bandwidth in octaves, by the analogue relation 1/Q = 2 sinh(ln 2 / 2 · bw).
    public static func q(bandwidthOctaves: Double) -> Double {
        1 / (2 * sinh(log(2) / 2 * bandwidthOctaves))
    }

    /// The bandwidth in octaves of `q` (inverse of ``q(bandwidthOctaves:)``).
    public static func bandwidthOctaves(q: Double) -> Double {
        2 / log(2) * asinh(1 / (2 * q))
    }

    /// The Q of a cookbook shelf with slope `slope` at `gainDB`:
    /// 1/Q = √((A + 1/A)(1/S − 1) + 2), A = 10^(gain/40). S = 1 gives the steepest monotonic shelf.
    public static func q(shelfSlope slope: Double, gainDB: Double) -> Double {
        let amplitude = pow(10, gainDB / 40)
        let inverse = ((amplitude + 1 / amplitude) * (1 / slope - 1) + 2).squareRoot()
        return 1 / inverse
    }

    /// The number of second-order sections the band runs: 2 for 24 dB/octave high/low-pass, else 1.
    public var sectionCount: Int { type.hasSlope && slopeDBPerOctave >= 24 ? 2 : 1 }
}
