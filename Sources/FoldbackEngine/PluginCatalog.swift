// Where a preset's plugins are looked up while it is validated: the catalogue protocol and what it answers. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// The plugins a preset may name, by URI: the installed LV2 plugins (FoldbackLV2's `LV2PluginCatalog`) or,
/// in tests, a fixed list. Preset validation takes one, so it checks `lv2` units without linking lilv.
public protocol PluginCatalog: Sendable {
    /// The plugin with `uri`.
    /// - Throws: ``PluginLookupError`` saying, for the preset's author, why there is none.
    func plugin(uri: String) throws(PluginLookupError) -> PluginDescription
}

/// Why a catalogue has no plugin for a URI; its ``description`` is the message a preset's author reads.
public struct PluginLookupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message, e.g. `no installed LV2 plugin has URI '…'; closest installed: …`.
    public var description: String

    /// A lookup failure saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}

/// What a preset can say about a plugin: its control inputs, audio ports and presets.
public struct PluginDescription: Sendable, Hashable {
    /// The plugin URI.
    public var uri: String
    /// The plugin's name (as messages name it).
    public var name: String
    /// Its control inputs as the parameters a unit of it declares: key = port symbol, range, default, type, choices.
    /// A port without a declared range has the whole `Float` range.
    public var controls: [ParameterDescriptor]
    /// Its audio input port symbols, in port order.
    public var audioInputs: [String]
    /// Its audio output port symbols, in port order.
    public var audioOutputs: [String]
    /// Its presets.
    public var presets: [PluginPreset]
    /// Why this host cannot run the plugin although the catalogue has it (a feature it requires), or nil.
    public var unsupportedReason: String?

    /// A plugin description.
    public init(
        uri: String, name: String, controls: [ParameterDescriptor], audioInputs: [String], audioOutputs: [String],
        presets: [PluginPreset] = [], unsupportedReason: String? = nil
    ) {
        self.uri = uri
        self.name = name
        self.controls = controls
        self.audioInputs = audioInputs
        self.audioOutputs = audioOutputs
        self.presets = presets
        self.unsupportedReason = unsupportedReason
    }

    /// The preset whose URI, or else label (case-insensitive), is `name`.
    public func preset(named name: String) -> PluginPreset? {
        presets.first { $0.uri == name } ?? presets.first { $0.label.lowercased() == name.lowercased() }
    }

    /// The message for a preset name that plugin `uri` does not have, listing the `available` labels.
    public static func unknownPresetMessage(uri: String, preset: String, available: [String]) -> String {
        let list = available.isEmpty ? "it has no presets" : "its presets: " + available.joined(separator: ", ")
        return "LV2 plugin \(uri) has no preset '\(preset)'; \(list)"
    }
}

/// A preset a plugin ships (an LV2 `pset:Preset`).
public struct PluginPreset: Sendable, Hashable {
    /// The preset's URI.
    public var uri: String
    /// Its label.
    public var label: String

    /// A preset named `label` at `uri`.
    public init(uri: String, label: String) {
        self.uri = uri
        self.label = label
    }
}
