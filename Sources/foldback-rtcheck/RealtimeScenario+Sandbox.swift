// The sandboxed LV2 unit in the realtime scenario (x42 fil4 in a foldback-sandbox process, isolation "unit") and its changes. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackLV2
import FoldbackSandbox

extension RealtimeScenario {
    /// The strip holding the sandboxed unit, and the unit's index there (after trim, EQ, compressor and reverb).
    static let sandboxedStrip = 0, sandboxedIndex = 4
    /// Sandboxed units in the scenario (continued with their sandbox process on the odd graph swaps, as the plugins are).
    static let sandboxedCount = 1

    /// x42 fil4 on strip 0 after its reverb (stereo, so a dual-mono pair inside the sandbox), in a sandbox process of
    /// its own, found the way Foldback finds it (beside this executable). The sandbox's serving thread asks for
    /// SCHED_FIFO 10, as it would take the JACK client's priority: where the system refuses, it says so and runs anyway.
    static func sandboxedUnit(strip: Int) throws(EngineError) -> (any EngineUnit)? {
        guard strip == sandboxedStrip else { return nil }
        let uri = "http://gareus.org/oss/lv2/fil4#mono"
        let hosting = PluginHosting(isSynchronous: false, nominalBlockLength: nil, realtimePriority: 10)
        do {
            let plugin = try LV2Unit(uri: uri, controls: ["sec3": 1, "freq3": 2500, "gain3": -4], hosting: hosting)
            return SandboxedUnit(plugin: plugin, hosting: hosting, options: SandboxOptions(onFault: .bypass), owner: "strip 'strip0'")
        } catch {
            throw .unitSetupFailed(unit: uri, reason: error.description)
        }
    }

    /// Live changes to the sandboxed plugin: its `gain`, a band's gain, a bypass and back.
    static let sandboxChanges: [(ParameterAddress, Float)] = [
        (.unitParameter(strip: sandboxedStrip, unit: sandboxedIndex, parameter: 1), 3),
        (.unitBypass(strip: sandboxedStrip, unit: sandboxedIndex), 1), (.unitBypass(strip: sandboxedStrip, unit: sandboxedIndex), 0),
    ]
}
