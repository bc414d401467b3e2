// The preset schema of the built-in `eq` unit (its bands and curve are read by EQDecoder). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine

extension UnitSchema {
    /// `"eq"`: a parametric EQ of up to 32 bands, optionally starting from a factory curve.
    ///
    /// Its numeric keys are listed here; `curve = "Name"` and the `[[strip.unit.band]]` tables are read by
    /// ``EQDecoder`` and land in ``UnitSpec/curve`` and ``UnitSpec/bands``.
    public static let eq = UnitSchema(
        type: "eq",
        summary: "Parametric EQ: up to 32 bands (peak, shelves, high/low-pass, notch, band-pass, all-pass), optionally from a factory curve.",
        parameters: EQUnit.parameters(bands: [], gainDB: 0).map(ParameterSchema.init(descriptor:))
    )
}
