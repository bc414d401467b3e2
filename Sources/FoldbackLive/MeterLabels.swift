// The meter view's labels, read from the running show's parameter tree: strips, buses and units by their tree paths, a plugin output by its path and port name. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
package import FoldbackEngine

/// Names meter rows as the parameter tree spells their owners (`strip/vox`, `bus/foh`, `strip/vox/unit/comp`), so the
/// meter view shows the addresses OSC, MIDI and the web use, and a plugin's output with the port name lilv gives.
///
/// Meter snapshots name an owner by its strip's name or `bus/<bus>`, and a unit `<owner>/<id>`; a row whose owner
/// the tree does not hold keeps that name.
package struct MeterLabels {
    /// Meter owner (`vox`, `bus/foh`) → tree prefix (`strip/vox`, `bus/foh`).
    private var owners: [String: String] = [:]
    /// Meter unit (`vox/comp`, `bus/foh/tone`) → tree prefix (`strip/vox/unit/comp`).
    private var units: [String: String] = [:]
    /// Tree path of an output (`strip/vox/unit/darc/rms`) → its name (`Signal Level`).
    private var outputNames: [String: String] = [:]

    /// No tree: every row keeps its meter name.
    package init() {}

    /// The labels of `tree`, the tree of the show playing `graph`.
    package init(tree: ParameterTree, graph: EngineGraph) {
        let strips = graph.description.strips, buses = graph.description.buses
        func prefix(_ path: String) -> String { path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/") }
        func unitID(_ ids: [String], _ index: Int) -> String? { index < ids.count ? ids[index] : nil }
        for node in tree.nodes {
            switch node.address {
            case let .stripGain(strip) where strip < strips.count:
                owners[strips[strip].name] = prefix(node.path)
            case let .busGain(bus) where bus < buses.count:
                owners["bus/" + buses[bus].name] = prefix(node.path)
            case let .unitBypass(strip, unit) where strip < strips.count:
                if let id = unitID(strips[strip].unitIDs, unit) { units["\(strips[strip].name)/\(id)"] = prefix(node.path) }
            case let .busUnitBypass(bus, unit) where bus < buses.count:
                if let id = unitID(buses[bus].unitIDs, unit) { units["bus/\(buses[bus].name)/\(id)"] = prefix(node.path) }
            default:
                break
            }
        }
        let chains = strips.map { ($0.name, $0.units, $0.unitIDs) } + buses.map { ("bus/" + $0.name, $0.units, $0.unitIDs) }
        for (owner, chainUnits, ids) in chains {
            for (index, unit) in chainUnits.enumerated() {
                guard let id = unitID(ids, index), let path = units["\(owner)/\(id)"] else { continue }
                for descriptor in unit.meterDescriptors { outputNames[path + "/" + descriptor.key] = descriptor.summary }
            }
        }
    }

    /// A strip's or bus's row: `strip/vox`, `bus/foh`.
    package func owner(_ meterName: String) -> String { owners[meterName] ?? meterName }

    /// A unit's row (`vox/comp` as meters name it): `strip/vox/unit/comp`.
    package func unit(_ meterName: String) -> String { units[meterName] ?? meterName }

    /// A unit output's row: `strip/vox/unit/darc/rms (Signal Level)` (`vox/darc rms` without a tree).
    package func output(unit meterName: String, key: String) -> String {
        guard let prefix = units[meterName] else { return "\(meterName) \(key)" }
        let path = prefix + "/" + key
        return outputNames[path].map { "\(path) (\($0))" } ?? path
    }
}
