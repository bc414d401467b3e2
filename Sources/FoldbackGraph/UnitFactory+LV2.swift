// Makes LV2 plugin units from validated `lv2` unit specs. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackPresets
import FoldbackEngine
import FoldbackLV2

extension UnitFactory {
    /// An ``LV2Unit`` for an `lv2` spec; a plugin that cannot be loaded is an error at the unit's table.
    static func makePlugin(_ spec: UnitSpec, hosting: PluginHosting) throws(PresetError) -> any EngineUnit {
        guard let plugin = spec.lv2 else {
            throw PresetError(diagnostics: [PresetDiagnostic(location: spec.location, message: "an lv2 unit needs uri = \"…\"")])
        }
        do {
            return try LV2Unit(
                uri: plugin.uri, controls: spec.parameters, preset: plugin.preset, stateFile: plugin.stateFile,
                rightStateFile: plugin.rightStateFile,
                inputs: plugin.inputs, outputs: plugin.outputs, hosting: hosting)
        } catch {
            throw PresetError(diagnostics: [PresetDiagnostic(location: spec.location, message: error.description)])
        }
    }
}
