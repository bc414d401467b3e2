// What a preset says about an `lv2` unit: plugin URI, preset, state files, port mapping. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine

/// The `lv2`-only part of a ``UnitSpec``. Its control values are in ``UnitSpec/parameters`` (by symbol).
public struct LV2UnitSpec: Sendable, Equatable {
    /// The plugin URI.
    public var uri: String
    /// An LV2 preset of the plugin, by label or URI.
    public var preset: String?
    /// A saved state to restore (absolute, or resolved against the preset file's directory).
    public var stateFile: String?
    /// For the right instance of a dual-mono pair, its own saved state (`state_right`); else it takes ``stateFile``.
    public var rightStateFile: String?
    /// Audio input port symbols the strip feeds, when the plugin's layout needs choosing.
    public var inputs: [String]?
    /// Audio output port symbols the strip continues with.
    public var outputs: [String]?
    /// The plugin's control inputs as the catalogue declared them when the preset was read (the unit's parameters
    /// before a graph runs it).
    public var declaredParameters: [ParameterDescriptor]
    /// Where the plugin runs (`isolation`; the `[preset]` default when the unit sets none, filled in when the preset is read).
    public var isolation: PluginIsolation?
    /// What the unit plays when its sandbox misses a cycle (`on_fault`).
    public var onFault: PluginFaultAction?

    /// An `lv2` unit description.
    public init(
        uri: String, preset: String? = nil, stateFile: String? = nil, rightStateFile: String? = nil,
        inputs: [String]? = nil, outputs: [String]? = nil, declaredParameters: [ParameterDescriptor] = []
    ) {
        self.uri = uri
        self.preset = preset
        self.stateFile = stateFile
        self.rightStateFile = rightStateFile
        self.inputs = inputs
        self.outputs = outputs
        self.declaredParameters = declaredParameters
    }
}
