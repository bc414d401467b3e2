// The preset keys of the `delay` and `geq` unit types: the units' own parameter declarations. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine

extension UnitSchema {
    /// `"delay"`: 0 … 500 ms on every channel; `distance_m` (read by ``DelayDecoder``) is another spelling.
    public static let delay = UnitSchema(
        type: "delay",
        summary: "Delay of 0 to 500 ms (or distance_m at 343 m/s, not both), for delay speakers and in-ear sync; changes crossfade.",
        parameters: DelayUnit.parameters().map(ParameterSchema.init(descriptor:)))

    /// `"geq"`: the 31-band ⅓-octave graphic EQ, one key per band named after its nominal frequency.
    public static let geq = UnitSchema(
        type: "geq",
        summary: "31-band ISO 1/3-octave graphic EQ (20 Hz to 20 kHz, ±15 dB, constant Q 4.32, corrected to meet the faders at each centre).",
        parameters: GraphicEQUnit.parameters(faders: GraphicEQDesign.keys.map { _ in 0 }).map(ParameterSchema.init(descriptor:)))
}
