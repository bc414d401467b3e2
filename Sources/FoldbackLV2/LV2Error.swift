// Typed errors of the LV2 host: discovery, instantiation, state. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

import FoldbackEngine

/// What can go wrong finding, checking or instantiating an LV2 plugin.
public enum LV2Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// No installed plugin has this URI; `closest` are the nearest installed URIs.
    case unknownPlugin(uri: String, closest: [String])
    /// The plugin needs a feature Foldback does not provide.
    case unsupportedFeature(plugin: String, feature: String)
    /// lilv could not instantiate the plugin (missing or broken binary, failed instantiate).
    case instantiationFailed(plugin: String, reason: String)
    /// The plugin's description is incomplete or invalid (bad TTL, missing ports).
    case invalidPlugin(plugin: String, reason: String)
    /// The plugin's audio ports cannot be mapped onto a strip's channels without being told how.
    case ambiguousChannels(plugin: String, reason: String)
    /// No such LV2 preset for the plugin; `available` lists its presets' labels.
    case unknownPreset(plugin: String, preset: String, available: [String])
    /// A `controls` key that is not one of the plugin's control inputs.
    case unknownControl(plugin: String, symbol: String, available: [String])
    /// A control value outside the port's range.
    case controlOutOfRange(plugin: String, symbol: String, value: Float, range: ClosedRange<Float>)
    /// A state file could not be read or written.
    case stateFailed(plugin: String, path: String, reason: String)

    public var description: String {
        switch self {
        case let .unknownPlugin(uri, closest):
            let hint = closest.isEmpty ? "" : "; closest installed: " + closest.joined(separator: ", ")
            return "no installed LV2 plugin has URI '\(uri)'\(hint) (list them with: foldback plugins)"
        case let .unsupportedFeature(plugin, feature):
            return "LV2 plugin \(plugin) requires feature \(feature), which Foldback does not provide"
        case let .instantiationFailed(plugin, reason):
            return "LV2 plugin \(plugin) could not be instantiated: \(reason)"
        case let .invalidPlugin(plugin, reason):
            return "LV2 plugin \(plugin) is invalid: \(reason)"
        case let .ambiguousChannels(plugin, reason):
            return "LV2 plugin \(plugin): \(reason)"
        case let .unknownPreset(plugin, preset, available):
            return PluginDescription.unknownPresetMessage(uri: plugin, preset: preset, available: available)
        case let .unknownControl(plugin, symbol, available):
            return "LV2 plugin \(plugin) has no control input '\(symbol)'; its controls: " + available.joined(separator: ", ")
        case let .controlOutOfRange(plugin, symbol, value, range):
            return "LV2 plugin \(plugin): \(symbol) = \(value) is out of range; allowed: \(range.lowerBound) to \(range.upperBound)"
        case let .stateFailed(plugin, path, reason):
            return "LV2 plugin \(plugin): state file \(path): \(reason)"
        }
    }
}
