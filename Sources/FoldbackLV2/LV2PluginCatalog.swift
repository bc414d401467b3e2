// The installed LV2 plugins as the catalogue preset validation looks plugins up in. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine

/// The plugins lilv finds, described for preset validation: control inputs as ``LV2Unit/parameters(of:)``
/// declares them, audio port symbols, presets, and a required feature Foldback lacks.
public struct LV2PluginCatalog: PluginCatalog {
    /// The lilv world looked in.
    public let world: LV2World

    /// The plugins `world` holds.
    public init(world: LV2World = .shared) {
        self.world = world
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
