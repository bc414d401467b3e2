// One processing unit in a strip's chain (`[[strip.unit]]`). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// A processing unit in a strip: its type, its id within the strip, and its parameters.
public struct UnitSpec: Sendable {
    /// The unit type, a key of ``UnitSchema/all`` (for example `"gain"`).
    public var type: String
    /// Unique within the strip; defaults to the type, then `type_2`, `type_3`… for repeats.
    public var id: String
    /// Whether the unit passes audio through untouched.
    public var isBypassed: Bool
    /// Whether a song change keeps this unit's parameters as set live (`recall_safe = true`).
    public var isRecallSafe = false
    /// Every parameter of the type's schema, keyed by preset key (`gain_db`), defaults included.
    /// Choices are stored as their numeric value (polarity: normal = 0, inverted = 1); booleans as 0 or 1.
    public var parameters: [String: Float]
    /// Where the unit's table starts.
    public var location: SourceLocation
    /// `eq` only: the factory curve the bands start from (its name as the library spells it), if any.
    public var curve: String?
    /// `eq` only: every band, resolved: the curve's (with any `index` overrides applied), then the
    /// preset's added bands. Band n here is `band<n>_…` among the unit's live parameters. Empty for other types.
    public var bands: [EQBandSpec]
    /// `lv2` only: the plugin, its preset, state and port mapping (control values are in ``parameters``).
    public var lv2: LV2UnitSpec?

    /// Creates a unit description.
    public init(
        type: String, id: String, isBypassed: Bool = false, parameters: [String: Float], location: SourceLocation,
        curve: String? = nil, bands: [EQBandSpec] = []
    ) {
        self.type = type
        self.id = id
        self.isBypassed = isBypassed
        self.parameters = parameters
        self.location = location
        self.curve = curve
        self.bands = bands
    }
}
