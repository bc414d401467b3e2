// The preset keys of the `feedback` unit type. Non-realtime.
import FoldbackDSP

extension UnitSchema {
    /// `"feedback"`: feedback suppressor, 16 narrow notches placed by analysis off the audio thread; no latency.
    public static let feedback = UnitSchema(
        type: "feedback",
        summary: "Feedback suppressor: finds rings (narrow, growing, unharmonic peaks) and places up to 16 narrow notches; no latency.",
        parameters: [
            ParameterSchema(
                key: "mode",
                kind: .choice([.init(name: "ringout", value: Float(FeedbackMode.ringOut.rawValue)),
                               .init(name: "live", value: Float(FeedbackMode.live.rawValue))]),
                defaultValue: Float(FeedbackMode.live.rawValue),
                summary: "\"live\": dynamic notches released after hold_s; \"ringout\": each ring gets a fixed notch, saved as a band."
            ),
            ParameterSchema(key: "max_depth_db", kind: .number(-40 ... -3), defaultValue: -12,
                            summary: "The deepest cut a notch may reach, dB (−12 … −24 is usual)."),
            ParameterSchema(key: "hold_s", kind: .number(0.5...600), defaultValue: 10,
                            summary: "Live mode: how long a notch stays after its ring was last seen, seconds."),
        ]
    )
}
