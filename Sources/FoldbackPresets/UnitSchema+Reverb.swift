// The preset keys of the `reverb` unit type. Non-realtime.
import FoldbackDSP

extension UnitSchema {
    /// `"reverb"`: algorithmic stereo reverb (8-line feedback delay network); mono or stereo in, stereo out.
    public static let reverb: UnitSchema = {
        let defaults = ReverbParameters.defaults
        let unit = ReverbParameters.unitRange
        return UnitSchema(
            type: "reverb",
            summary: "Stereo reverb (8-line feedback delay network) with predelay, damping and dry/wet mix; outputs stereo.",
            parameters: [
                ParameterSchema(key: "decay_s", kind: .number(ReverbParameters.decayRange), defaultValue: defaults.decay,
                                summary: "Reverberation time RT60 in seconds (at low frequencies when damping > 0)."),
                ParameterSchema(key: "predelay_ms", kind: .number(ReverbParameters.predelayRange), defaultValue: defaults.predelay,
                                summary: "Extra time before the reverb starts, in milliseconds."),
                ParameterSchema(key: "size", kind: .number(unit), defaultValue: defaults.size,
                                summary: "Room size: 0 a booth (5…13 ms echo spacing), 1 a large hall (31…88 ms)."),
                ParameterSchema(key: "damping", kind: .number(unit), defaultValue: defaults.damping,
                                summary: "High-frequency damping: at 4 kHz the decay time is decay_s × (1 − 0.9 × damping)."),
                ParameterSchema(key: "diffusion", kind: .number(unit), defaultValue: defaults.diffusion,
                                summary: "Input diffusion: 0 keeps distinct early echoes, 1 smears them into a wash."),
                ParameterSchema(key: "mix", kind: .number(unit), defaultValue: defaults.mix,
                                summary: "Dry/wet balance, equal-power: dry × cos(mix·90°), wet × sin(mix·90°); 0 is dry only."),
                ParameterSchema(key: "width", kind: .number(unit), defaultValue: defaults.width,
                                summary: "Stereo width of the reverb: 0 mono, 1 fully decorrelated left and right."),
            ]
        )
    }()
}
