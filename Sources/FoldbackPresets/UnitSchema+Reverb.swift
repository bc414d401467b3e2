// The preset keys of the `reverb` unit type. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine

extension UnitSchema {
    /// `"reverb"`: algorithmic stereo reverb (8-line feedback delay network); mono or stereo in, stereo out.
    public static let reverb = UnitSchema(
        type: "reverb",
        summary: "Stereo reverb (8-line feedback delay network) with predelay, damping and dry/wet mix; outputs stereo.",
        parameters: ReverbUnit.liveParameters.map(ParameterSchema.init(descriptor:)))
}
