// The preset keys of the `deesser` unit type: the unit's own parameter declarations. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine

extension UnitSchema {
    /// `"deesser"`: split-band de-esser with a band or high-pass key, listen and wide modes.
    public static let deesser = UnitSchema(
        type: "deesser",
        summary: "Split-band de-esser: a 3 to 12 kHz band (or everything above it) pulled down to the threshold by up to range_db; wide and listen modes.",
        parameters: DeesserUnit.liveParameters.map(ParameterSchema.init(descriptor:)))
}
