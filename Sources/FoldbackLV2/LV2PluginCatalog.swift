// The installed LV2 plugins as the catalogue preset validation looks plugins up in. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine

/// The plugins lilv finds, described for preset validation: control inputs as ``LV2Unit/parameters(of:)``
/// declares them, audio port symbols, presets, and a required feature Foldback lacks.
public struct LV2PluginCatalog: PluginCatalog {
    /// The lilv world looked in: the one given, else ``LV2World/shared``, loaded only when a plugin is first
    /// looked up (a preset without `lv2` units never loads lilv's plugin descriptions: 7 ms of every command's start).
    public var world: LV2World { given ?? .shared }
    private let given: LV2World?

    /// The plugins `world` holds (nil: the installed ones, ``LV2World/shared``).
    public init(world: LV2World? = nil) {
        given = world
    }

    /// The installed plugin with `uri`; an unknown URI's error names the closest installed ones.
    public func plugin(uri: String) throws(PluginLookupError) -> PluginDescription {
        let info: LV2PluginInfo
        do {
            info = try world.plugin(uri: uri)
        } catch {
            throw PluginLookupError(error.description)
        }
        let unsupported = info.requiredFeatures.first { !LV2Unit.isSupported(feature: $0) }
        return PluginDescription(
            uri: info.uri, name: info.name, controls: LV2Unit.parameters(of: info),
            audioInputs: info.audioInputs.map(\.symbol), audioOutputs: info.audioOutputs.map(\.symbol),
            presets: info.presets.map { PluginPreset(uri: $0.uri, label: $0.label) },
            unsupportedReason: unsupported.map { LV2Error.unsupportedFeature(plugin: uri, feature: $0).description })
    }
}

extension PluginCatalog where Self == LV2PluginCatalog {
    /// The LV2 plugins installed on this machine (``LV2World/shared``).
    public static var installed: LV2PluginCatalog { LV2PluginCatalog() }
}
