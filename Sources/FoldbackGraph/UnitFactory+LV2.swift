// Makes LV2 plugin units from validated `lv2` unit specs: in Foldback's process or in a sandbox process. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackPresets
import FoldbackEngine
import FoldbackLV2
import FoldbackSandbox

extension UnitFactory {
    /// How long an offline render waits for a sandboxed plugin's block (there is no period to keep).
    static let offlineSandboxTimeout: Duration = .seconds(2)

    /// The units of one strip or bus, in order: each run of two or more consecutive `lv2` units with `isolation =
    /// "strip"` shares one sandbox process (a ``SandboxGroup``: one round trip a cycle for the run); every other unit is
    /// made alone by ``makeUnit(_:hosting:owner:)``.
    static func makeUnits(_ specs: [UnitSpec], hosting: PluginHosting, owner: String?) throws(PresetError) -> [any EngineUnit] {
        var units: [any EngineUnit] = []
        var index = 0
        while index < specs.count {
            var end = index
            while end < specs.count, specs[end].type == "lv2", isolation(of: specs[end], hosting: hosting) == .strip { end += 1 }
            guard end - index >= 2 else {
                units.append(try makeUnit(specs[index], hosting: hosting, owner: owner))
                index += 1
                continue
            }
            var plugins: [LV2Unit] = []
            for spec in specs[index..<end] { plugins.append(try loadPlugin(spec, hosting: hosting)) }
            let group = SandboxGroup(
                plugins: plugins, hosting: hosting, options: sandboxOptions(specs[index], hosting: hosting),
                faultActions: specs[index..<end].map { sandboxOptions($0, hosting: hosting).onFault }, owner: owner)
            units += group.units() as [any EngineUnit]
            index = end
        }
        return units
    }

    /// An ``LV2Unit`` for an `lv2` spec, wrapped in a ``SandboxedUnit`` when its `isolation` asks for a sandbox; a plugin
    /// that cannot be loaded is an error at the unit's table.
    static func makePlugin(_ spec: UnitSpec, hosting: PluginHosting, owner: String?) throws(PresetError) -> any EngineUnit {
        let unit = try loadPlugin(spec, hosting: hosting)
        guard isolation(of: spec, hosting: hosting).isSandboxed else { return unit }
        return SandboxedUnit(plugin: unit, hosting: hosting, options: sandboxOptions(spec, hosting: hosting), owner: owner)
    }

    /// The plugin of an `lv2` spec, validated (not prepared); a plugin that cannot be loaded is an error at the unit's table.
    private static func loadPlugin(_ spec: UnitSpec, hosting: PluginHosting) throws(PresetError) -> LV2Unit {
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

    /// Where an `lv2` unit's plugin runs: its `isolation`, else live a `"strip"` sandbox and offline Foldback's process.
    private static func isolation(of spec: UnitSpec, hosting: PluginHosting) -> PluginIsolation {
        PluginIsolation.resolved(spec.lv2?.isolation, offline: hosting.isSynchronous)
    }

    private static func sandboxOptions(_ spec: UnitSpec, hosting: PluginHosting) -> SandboxOptions {
        SandboxOptions(onFault: spec.lv2?.onFault == .mute ? .mute : .bypass, offlineTimeout: hosting.isSynchronous ? offlineSandboxTimeout : nil)
    }
}
