// What Foldback knows about one installed LV2 plugin: ports, presets, latency, features. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// One port of an LV2 plugin.
public struct LV2PortInfo: Sendable, Hashable {
    /// What the port carries.
    public enum Kind: String, Sendable {
        case audio, control, atom, cv, other
    }

    /// The port's index in the plugin.
    public var index: Int
    /// Its symbol (the key used in presets: `controls = { gain = 6 }`).
    public var symbol: String
    /// Its human-readable name.
    public var name: String
    /// What it carries.
    public var kind: Kind
    /// Whether the host writes it (input) or the plugin does (output).
    public var isInput: Bool
    /// The allowed values of a control port, when the plugin declares them.
    public var range: ClosedRange<Float>?
    /// The default value of a control port, when declared.
    public var defaultValue: Float?
    /// The unit's symbol (`dB`, `Hz`, `ms`…), when declared.
    public var unit: String?
    /// Whether the control is an on/off toggle.
    public var isToggled: Bool
    /// Whether the control takes integer values only.
    public var isInteger: Bool
    /// Whether this is the `lv2:enabled` port (the plugin's own bypass).
    public var isEnabledDesignation: Bool
    /// The smallest buffer the plugin asks for (atom ports, `rsz:minimumSize`), in bytes.
    public var minimumSize: Int?
    /// Whether the control is best moved on a logarithmic scale (`pprops:logarithmic`).
    public var isLogarithmic = false
    /// Whether its values are only the scale points (`lv2:enumeration`).
    public var isEnumeration = false
    /// The named values the plugin declares (`lv2:scalePoint`), by value.
    public var scalePoints: [LV2ScalePoint] = []
}

/// A named value of a control port (`lv2:scalePoint`).
public struct LV2ScalePoint: Sendable, Hashable {
    /// Its label.
    public var label: String
    /// Its value.
    public var value: Float
}

/// An LV2 preset (`pset:Preset`) of a plugin.
public struct LV2PresetInfo: Sendable, Hashable {
    /// The preset's URI.
    public var uri: String
    /// Its label (`rdfs:label`), or the URI's last part if it has none.
    public var label: String
}

/// An installed plugin, summarised for listings.
public struct LV2PluginSummary: Sendable, Hashable {
    /// The plugin URI (what presets write as `uri = "…"`).
    public var uri: String
    /// The plugin's name.
    public var name: String
    /// Its class label (`Reverb Plugin`, `EQ Plugin`…).
    public var className: String
    /// Audio input ports.
    public var audioInputs: Int
    /// Audio output ports.
    public var audioOutputs: Int
}

/// An installed plugin in full.
public struct LV2PluginInfo: Sendable, Hashable {
    /// URI, name, class and audio port counts.
    public var summary: LV2PluginSummary
    /// Every port, by index.
    public var ports: [LV2PortInfo]
    /// The plugin's LV2 presets.
    public var presets: [LV2PresetInfo]
    /// Features the plugin cannot run without.
    public var requiredFeatures: [String]
    /// Features the plugin uses when the host offers them.
    public var optionalFeatures: [String]
    /// The control output port reporting the plugin's latency, if any.
    public var latencyPortIndex: Int?
    /// Whether the plugin declares it is safe for hard realtime use (`lv2:hardRTCapable`).
    public var isHardRTCapable: Bool
    /// The plugin's bundle directory.
    public var bundle: String

    /// The plugin URI.
    public var uri: String { summary.uri }
    /// The plugin's name.
    public var name: String { summary.name }

    /// Audio input ports, in index order.
    public var audioInputs: [LV2PortInfo] { ports.filter { $0.kind == .audio && $0.isInput } }
    /// Audio output ports, in index order.
    public var audioOutputs: [LV2PortInfo] { ports.filter { $0.kind == .audio && !$0.isInput } }
    /// Control inputs: the plugin's live parameters, keyed by symbol.
    public var controlInputs: [LV2PortInfo] { ports.filter { $0.kind == .control && $0.isInput } }
    /// Control outputs (meters such as gain reduction, the latency port).
    public var controlOutputs: [LV2PortInfo] { ports.filter { $0.kind == .control && !$0.isInput } }

    /// The port with `symbol`, if the plugin has it.
    public func port(symbol: String) -> LV2PortInfo? { ports.first { $0.symbol == symbol } }

    /// The preset whose label (case-insensitive) or URI is `name`.
    public func preset(named name: String) -> LV2PresetInfo? {
        presets.first { $0.uri == name } ?? presets.first { $0.label.lowercased() == name.lowercased() }
    }
}
