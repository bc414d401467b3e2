// The preset keys of the `feedback` unit type: the unit's own parameter declarations. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine

extension UnitSchema {
    /// `"feedback"`: feedback suppressor, 16 narrow notches placed by analysis off the audio thread; no latency.
    public static let feedback = UnitSchema(
        type: "feedback",
        summary: "Feedback suppressor: finds rings (narrow, growing, unharmonic peaks) and places up to 16 narrow notches; no latency.",
        parameters: FeedbackSettings().parameters.map(ParameterSchema.init(descriptor:)))
}
