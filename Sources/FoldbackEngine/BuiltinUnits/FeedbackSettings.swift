// The `feedback` unit's settings and its one declaration of parameters; the unit itself (FFTW analysis) lives in FoldbackFeedback. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackDSP

/// How a `feedback` unit (`FeedbackUnit` in FoldbackFeedback) behaves (preset keys `mode`, `max_depth_db`, `hold_s`).
public struct FeedbackSettings: Sendable, Hashable {
    /// Live (dynamic notches) or ring-out (fixed notches).
    public var mode: FeedbackMode = .live
    /// The deepest cut, dB (−3 … −40; −12 by default).
    public var maxDepthDB: Float = -12
    /// How long a live notch outlives its ring, seconds.
    public var holdSeconds: Float = 10
    /// The detector's thresholds.
    public var criteria = HowlCriteria()
    /// Notches in place from the start (a saved ring-out): frequency, cut (≤ 0 dB) and Q of peak bands.
    public var fixedNotches: [EQBand] = []

    /// The defaults above.
    public init() {}
}

extension FeedbackSettings {
    /// The live parameters of a `feedback` unit with these settings (the unit's one declaration; presets read it as its keys).
    public var parameters: [ParameterDescriptor] {
        let settings = self
        return [
            ParameterDescriptor(
                key: "mode", range: 0...1, defaultValue: Float(settings.mode.rawValue),
                choices: [ParameterChoice(name: "ringout", value: Float(FeedbackMode.ringOut.rawValue)),
                          ParameterChoice(name: "live", value: Float(FeedbackMode.live.rawValue))],
                summary: "\"live\": dynamic notches released after hold_s; \"ringout\": each ring gets a fixed notch, saved as a band."),
            ParameterDescriptor(key: "max_depth_db", range: -40 ... -3, defaultValue: settings.maxDepthDB, curve: .linear,
                                summary: "The deepest cut a notch may reach, dB (−12 … −24 is usual)."),
            ParameterDescriptor(key: "hold_s", range: 0.5...600, defaultValue: settings.holdSeconds,
                                summary: "Live mode: how long a notch stays after its ring was last seen, seconds."),
        ]
    }
}
