// Saves a running graph's LV2 plugin states beside a preset being written, and points the preset at them. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackPresets
public import FoldbackEngine
import FoldbackLV2
import FoldbackSandbox

/// Captures what parameters cannot: each LV2 plugin's full state, as lilv state bundles a preset's
/// `state = "…"` restores, whether the plugin runs in Foldback's process or in a sandbox (which saves it itself).
/// Used when Foldback writes the running chain back to a preset (a session save).
public enum PluginStateCapture {
    /// Saves the state of every LV2 unit of `graph` into `directory`/`<strip>-<unit id>/` and sets that
    /// unit's `state` in `preset` to it (units matched by strip name and unit id); the right instance of a
    /// dual-mono pair goes into `<strip>-<unit id>-right/`, named by the unit's `state_right`.
    /// - Returns: a warning per plugin whose state could not be saved (its unit is left as it was).
    public static func saveStates(of graph: EngineGraph, into preset: inout Preset, directory: String) -> [String] {
        var warnings: [String] = []
        for strip in graph.description.strips {
            guard let stripIndex = preset.strips.firstIndex(where: { $0.name == strip.name }) else { continue }
            save(strip.units, ids: strip.unitIDs, owner: strip.name, into: &preset.strips[stripIndex].units, directory: directory, warnings: &warnings)
        }
        for bus in graph.description.buses {
            guard let busIndex = preset.buses.firstIndex(where: { $0.name == bus.name }) else { continue }
            save(bus.units, ids: bus.unitIDs, owner: "bus-" + bus.name, into: &preset.buses[busIndex].units, directory: directory, warnings: &warnings)
        }
        return warnings
    }

    /// Saves the LV2 units among `units` (a strip's or bus's) and points their specs at the saved state.
    private static func save(
        _ units: [any EngineUnit], ids: [String], owner: String, into specs: inout [UnitSpec], directory: String, warnings: inout [String]
    ) {
        for (unit, id) in zip(units, ids) {
            guard unit is LV2Unit || unit is SandboxedUnit, let unitIndex = specs.firstIndex(where: { $0.id == id && $0.lv2 != nil }) else { continue }
            let folder = directory + "/" + fileSafe("\(owner)-\(id)")
            do {
                // A sandboxed plugin saves its state in its sandbox (which restores it if it is restarted later).
                let saved: LV2SavedState? = if let sandboxed = unit as? SandboxedUnit { try sandboxed.saveState(to: folder) } else { try (unit as? LV2Unit)?.saveState(to: folder) }
                guard let saved else { continue }
                specs[unitIndex].lv2?.stateFile = saved.path
                specs[unitIndex].lv2?.rightStateFile = saved.rightPath
            } catch {
                warnings.append("\(owner)/\(id): \(error)")
            }
        }
    }

    /// `name` with anything but letters, digits, `-` and `_` replaced by `_`.
    private static func fileSafe(_ name: String) -> String {
        String(name.unicodeScalars.map { TOMLPath.isBareKeyScalar($0) ? Character($0) : "_" })
    }
}
