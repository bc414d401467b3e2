// The preset keys of the `compressor` unit type: the unit's own parameter declarations. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine

extension UnitSchema {
    /// `"compressor"`: feed-forward compressor with downward expander, soft knee, lookahead and stereo link.
    /// Its keys are ``CompressorUnit/liveParameters`` with the fixed ``CompressorUnit/lookaheadParameter`` after `detection`.
    public static let compressor: UnitSchema = {
        let live = CompressorUnit.liveParameters
        let keys = live.prefix(8) + [CompressorUnit.lookaheadParameter] + live.dropFirst(8)
        return UnitSchema(
            type: "compressor",
            summary: "Compressor with soft knee, downward expander, optional lookahead and stereo link.",
            parameters: keys.map(ParameterSchema.init(descriptor:)))
    }()
}
