// The preset keys of the `compressor` unit type. Non-realtime.

extension UnitSchema {
    /// `"compressor"`: feed-forward compressor with downward expander, soft knee, lookahead and stereo link.
    public static let compressor = UnitSchema(
        type: "compressor",
        summary: "Compressor with soft knee, downward expander, optional lookahead and stereo link.",
        parameters: [
            ParameterSchema(key: "threshold_db", kind: .number(-80...0), defaultValue: -20,
                            summary: "Compression starts here, in dBFS (the middle of the knee)."),
            ParameterSchema(key: "ratio", kind: .number(1...20), defaultValue: 4,
                            summary: "Compression ratio above the threshold; 1 is none, 20 is close to limiting."),
            ParameterSchema(key: "knee_db", kind: .number(0...24), defaultValue: 6,
                            summary: "Soft-knee width in dB around both thresholds; 0 is a hard knee."),
            ParameterSchema(key: "attack_ms", kind: .number(0.1...500), defaultValue: 10,
                            summary: "Time constant of the gain's response to a louder signal (1 − 1/e of the change)."),
            ParameterSchema(key: "release_ms", kind: .number(1...5000), defaultValue: 100,
                            summary: "Time constant of the gain's response to a quieter signal (1 − 1/e of the change)."),
            ParameterSchema(key: "makeup_db", kind: .number(-24...24), defaultValue: 0,
                            summary: "Gain in dB added after compression."),
            ParameterSchema(key: "auto_makeup", kind: .bool, defaultValue: 0,
                            summary: "Adds the compression of a 0 dBFS level as makeup, so full scale stays full scale."),
            ParameterSchema(
                key: "detection",
                kind: .choice([.init(name: "peak", value: 0), .init(name: "rms", value: 1)]),
                defaultValue: 0,
                summary: "\"peak\" follows each sample; \"rms\" averages the power over a 10 ms window."),
            ParameterSchema(key: "lookahead_ms", kind: .number(0...10), defaultValue: 0,
                            summary: "Delays the audio so the gain moves ahead of transients; adds this much latency."),
            ParameterSchema(key: "stereo_link", kind: .number(0...1), defaultValue: 1,
                            summary: "1 drives both channels from the louder one; 0 compresses each on its own."),
            ParameterSchema(key: "expander_threshold_db", kind: .number(-96...0), defaultValue: -60,
                            summary: "Downward expansion starts below this level, in dBFS."),
            ParameterSchema(key: "expander_ratio", kind: .number(1...20), defaultValue: 1,
                            summary: "Downward expansion ratio; 1 is off, 20 acts as a gate (at most 80 dB down)."),
        ]
    )
}
