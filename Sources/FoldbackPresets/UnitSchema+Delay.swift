// The preset keys of the `delay` and `geq` unit types. Non-realtime.
import FoldbackDSP

extension UnitSchema {
    /// `"delay"`: 0 … 500 ms on every channel; `distance_m` (read by ``DelayDecoder``) is another spelling.
    public static let delay = UnitSchema(
        type: "delay",
        summary: "Delay of 0 to 500 ms (or distance_m at 343 m/s, not both), for delay speakers and in-ear sync; changes crossfade.",
        parameters: [
            ParameterSchema(key: "delay_ms", kind: .number(0...Float(DelayKernel.maximumTime * 1000)), defaultValue: 0,
                            summary: "Delay in milliseconds, rounded to whole samples; not latency, so never compensated."),
        ]
    )

    /// `"geq"`: the 31-band ⅓-octave graphic EQ, one key per band named after its nominal frequency.
    public static let geq = UnitSchema(
        type: "geq",
        summary: "31-band ISO 1/3-octave graphic EQ (20 Hz to 20 kHz, ±15 dB, constant Q 4.32, corrected to meet the faders at each centre).",
        parameters: [ParameterSchema(key: "gain_db", kind: .number(-24...24), defaultValue: 0, summary: "Output gain in dB.")]
            + zip(GraphicEQDesign.keys, GraphicEQDesign.nominalNames).map { key, name in
                ParameterSchema(key: key, kind: .number(-15...15), defaultValue: 0, summary: "The \(name) Hz band, in dB.")
            }
    )
}
