// The reverb's user parameters: values, ranges, defaults and sanitising. Realtime-safe (plain value type).
// SPDX-License-Identifier: GPL-3.0-or-later

/// The settings of a ``ReverbKernel``, each in its own unit (stated per property).
///
/// Values outside a range are clamped by ``sanitized``; NaN falls back to the default.
public struct ReverbParameters: Sendable, Hashable {
    /// Broadband reverberation time RT60 in seconds (the low-frequency RT60 when ``damping`` > 0).
    public var decay: Float
    /// Time before the reverb's onset, in milliseconds.
    public var predelay: Float
    /// Room size 0…1: scales the feedback delay lengths (and so echo spacing and modal density).
    public var size: Float
    /// High-frequency damping 0…1: at 4 kHz the decay time is `decay × (1 − 0.9 × damping)`.
    public var damping: Float
    /// Input diffusion 0…1: the feedback coefficient of the input all-pass chain, 0 (off) to 0.75.
    public var diffusion: Float
    /// Dry/wet balance 0…1, equal-power: dry gain cos(mix·π/2), wet gain sin(mix·π/2).
    public var mix: Float
    /// Stereo width of the wet signal 0…1: 0 mono, 1 fully decorrelated left and right.
    public var width: Float

    /// Allowed ``decay`` values, in seconds.
    public static let decayRange: ClosedRange<Float> = 0.1...20
    /// Allowed ``predelay`` values, in milliseconds.
    public static let predelayRange: ClosedRange<Float> = 0...200
    /// Allowed values of the 0…1 parameters (``size``, ``damping``, ``diffusion``, ``mix``, ``width``).
    public static let unitRange: ClosedRange<Float> = 0...1

    /// The defaults: a medium hall mixed in at a quarter (1.8 s, 20 ms, size 0.6, damping 0.4,
    /// diffusion 0.8, mix 0.25, width 1).
    public static let defaults = ReverbParameters()

    /// Parameters with the given values (defaults for any omitted).
    public init(
        decay: Float = 1.8, predelay: Float = 20, size: Float = 0.6, damping: Float = 0.4,
        diffusion: Float = 0.8, mix: Float = 0.25, width: Float = 1
    ) {
        self.decay = decay
        self.predelay = predelay
        self.size = size
        self.damping = damping
        self.diffusion = diffusion
        self.mix = mix
        self.width = width
    }

    /// A copy with every value clamped to its range; NaN becomes the default.
    public var sanitized: ReverbParameters {
        let fallback = ReverbParameters.defaults
        return ReverbParameters(
            decay: Self.clamp(decay, to: Self.decayRange, fallback: fallback.decay),
            predelay: Self.clamp(predelay, to: Self.predelayRange, fallback: fallback.predelay),
            size: Self.clamp(size, to: Self.unitRange, fallback: fallback.size),
            damping: Self.clamp(damping, to: Self.unitRange, fallback: fallback.damping),
            diffusion: Self.clamp(diffusion, to: Self.unitRange, fallback: fallback.diffusion),
            mix: Self.clamp(mix, to: Self.unitRange, fallback: fallback.mix),
            width: Self.clamp(width, to: Self.unitRange, fallback: fallback.width))
    }

    private static func clamp(_ value: Float, to range: ClosedRange<Float>, fallback: Float) -> Float {
        value.isNaN ? fallback : min(max(value, range.lowerBound), range.upperBound)
    }
}
