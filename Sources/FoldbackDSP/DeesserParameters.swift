// The de-esser's user parameters: values, ranges, key shape and sanitising. Realtime-safe (plain value type).
// SPDX-License-Identifier: GPL-3.0-or-later

/// What a ``DeesserKernel`` listens to and, in split-band, reduces.
public enum DeesserKey: Int, Sendable, CaseIterable {
    /// A band-pass (0 dB at its centre) at ``DeesserParameters/frequency`` of width ``DeesserParameters/q``.
    case band = 0
    /// A second-order Butterworth high-pass at ``DeesserParameters/frequency``: everything above it.
    case highPass = 1

    /// The spelling in presets: `band`, `high_pass`.
    public var name: String { self == .band ? "band" : "high_pass" }
}

/// The settings of a ``DeesserKernel``, each in its own unit (stated per property).
///
/// Values outside a range are clamped by ``sanitized``; NaN falls back to the default.
public struct DeesserParameters: Sendable, Hashable {
    /// The key's centre (band) or corner (high-pass), in Hz.
    public var frequency: Float
    /// The band's Q (ignored by the high-pass key).
    public var q: Float
    /// The key's shape.
    public var key: DeesserKey
    /// The key level above which the band is reduced, in dBFS (peak).
    public var threshold: Float
    /// The most the band (or, ``isWide``, the whole signal) is reduced, in dB.
    public var range: Float
    /// How fast the reduction follows a rising key, in milliseconds (one-pole time constant).
    public var attack: Float
    /// How fast it lets go, in milliseconds.
    public var release: Float
    /// Whether the whole signal is reduced rather than the band alone.
    public var isWide: Bool
    /// Whether the output is the key alone (to tune the band by ear).
    public var isListening: Bool

    /// Allowed ``frequency`` values, in Hz.
    public static let frequencyRange: ClosedRange<Float> = 3000...12000
    /// Allowed ``q`` values.
    public static let qRange: ClosedRange<Float> = 0.5...8
    /// Allowed ``threshold`` values, in dBFS.
    public static let thresholdRange: ClosedRange<Float> = -60...0
    /// Allowed ``range`` values, in dB.
    public static let rangeRange: ClosedRange<Float> = 0...24
    /// Allowed ``attack`` values, in ms.
    public static let attackRange: ClosedRange<Float> = 0.1...20
    /// Allowed ``release`` values, in ms.
    public static let releaseRange: ClosedRange<Float> = 5...500

    /// The defaults: a 6.5 kHz band of Q 1.5 reduced by up to 8 dB above −30 dBFS, 0.5 ms / 60 ms.
    public static let defaults = DeesserParameters()

    /// Parameters with the given values (defaults for any omitted).
    public init(
        frequency: Float = 6500, q: Float = 1.5, key: DeesserKey = .band, threshold: Float = -30, range: Float = 8,
        attack: Float = 0.5, release: Float = 60, isWide: Bool = false, isListening: Bool = false
    ) {
        self.frequency = frequency
        self.q = q
        self.key = key
        self.threshold = threshold
        self.range = range
        self.attack = attack
        self.release = release
        self.isWide = isWide
        self.isListening = isListening
    }

    /// A copy with every value clamped to its range; NaN becomes the default.
    public var sanitized: DeesserParameters {
        let fallback = DeesserParameters.defaults
        var copy = self
        copy.frequency = Self.frequencyRange.clamp(frequency, fallback: fallback.frequency)
        copy.q = Self.qRange.clamp(q, fallback: fallback.q)
        copy.threshold = Self.thresholdRange.clamp(threshold, fallback: fallback.threshold)
        copy.range = Self.rangeRange.clamp(range, fallback: fallback.range)
        copy.attack = Self.attackRange.clamp(attack, fallback: fallback.attack)
        copy.release = Self.releaseRange.clamp(release, fallback: fallback.release)
        return copy
    }
}
