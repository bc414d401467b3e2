// Makes LV2 plugin units from validated `lv2` unit specs: in Foldback's process or in a sandbox process. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackPresets
import FoldbackEngine
import FoldbackLV2
import FoldbackSandbox

extension UnitFactory {
    /// How long an offline render waits for a sandboxed plugin's block (there is no period to keep).
    static let offlineSandboxTimeout: Duration = .seconds(2)

    /// An ``LV2Unit`` for an `lv2` spec, wrapped in a ``SandboxedUnit`` when its `isolation` asks for a sandbox; a plugin
    /// that cannot be loaded is an error at the unit's table.
    static func makePlugin(_ spec: UnitSpec, hosting: PluginHosting, owner: String?) throws(PresetError) -> any EngineUnit {
        guard let plugin = spec.lv2 else {
            throw PresetError(diagnostics: [PresetDiagnostic(location: spec.location, message: "an lv2 unit needs uri = \"…\"")])
        }
        let unit: LV2Unit
        do {
            unit = try LV2Unit(
                uri: plugin.uri, controls: spec.parameters, preset: plugin.preset, stateFile: plugin.stateFile,
                rightStateFile: plugin.rightStateFile,
                inputs: plugin.inputs, outputs: plugin.outputs, hosting: hosting)
        } catch {
            throw PresetError(diagnostics: [PresetDiagnostic(location: spec.location, message: error.description)])
        }
        guard let isolation = plugin.isolation, isolation.isSandboxed else { return unit }
        let options = SandboxOptions(
            onFault: plugin.onFault == .mute ? .mute : .bypass, offlineTimeout: hosting.isSynchronous ? offlineSandboxTimeout : nil)
        return SandboxedUnit(plugin: unit, hosting: hosting, options: options, owner: owner)
    }
}
