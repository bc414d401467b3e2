// The sandboxed LV2 units in the realtime scenario (x42 fil4 alone, isolation "unit"; swh amp and x42 darc sharing one, "strip", first in the chain) and their changes. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackLV2
import FoldbackSandbox

extension RealtimeScenario {
    /// The units before strip 0's own (the `"strip"` pair, first in its chain).
    static let sandboxLead = 2
    /// The strip holding the sandboxed unit, and the unit's index there (after the pair, trim, EQ, compressor and reverb).
    static let sandboxedStrip = 0, sandboxedIndex = sandboxLead + 4
    /// Sandboxed units in the scenario, continued with their sandbox process on the odd graph swaps as the plugins are:
    /// fil4 alone, and the amp and darc of the `"strip"` pair, whose new group takes the old one's sandbox over.
    static let sandboxedCount = 3

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

    /// The `isolation = "strip"` pair first in the same strip's chain: swh amp and x42 darc on the mono input, run in
    /// order by one sandbox process (a ``SandboxGroup``: one round trip a cycle for both), posted at the start of each
    /// chunk (its input is the strip's, known then) and collected at its place. The amp has no `lv2:enabled` port, so its
    /// bypass is the sandbox's crossfade.
    static let groupedIndex = 0

    static func sandboxedGroup(strip: Int) throws(EngineError) -> [any EngineUnit] {
        guard strip == sandboxedStrip else { return [] }
        let hosting = PluginHosting(isSynchronous: false, nominalBlockLength: nil, realtimePriority: 10)
        do {
            let plugins = [
                try LV2Unit(uri: "http://plugin.org.uk/swh-plugins/amp", controls: ["gain": -3], hosting: hosting),
                try LV2Unit(uri: "http://gareus.org/oss/lv2/darc#mono", controls: ["threshold": -20], hosting: hosting),
            ]
            return SandboxGroup(plugins: plugins, hosting: hosting, options: SandboxOptions(onFault: .bypass), owner: "strip 'strip0'").units()
        } catch {
            throw .unitSetupFailed(unit: "amp + darc", reason: error.description)
        }
    }

    /// Live changes to the sandboxed plugins: fil4's `gain`, a band's gain, a bypass and back; darc's threshold, and the
    /// amp bypassed and back.
    static let sandboxChanges: [(ParameterAddress, Float)] = [
        (.unitParameter(strip: sandboxedStrip, unit: sandboxedIndex, parameter: 1), 3),
        (.unitBypass(strip: sandboxedStrip, unit: sandboxedIndex), 1), (.unitBypass(strip: sandboxedStrip, unit: sandboxedIndex), 0),
        (.unitParameter(strip: sandboxedStrip, unit: groupedIndex + 1, parameter: 3), -16),
        (.unitBypass(strip: sandboxedStrip, unit: groupedIndex), 1), (.unitBypass(strip: sandboxedStrip, unit: groupedIndex), 0),
    ]
}
