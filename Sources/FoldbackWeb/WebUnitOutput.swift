// The read-only outputs units publish (an LV2 plugin's control outputs: gain reduction, levels) as the web sees them: described once in the state, valued on every meter tick. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine

/// One read-only output of a unit: a page draws it as a meter in the unit's editor.
public struct WebUnitOutput: Encodable, Equatable, Sendable {
    /// `strip/<strip>/unit/<id>/<key>` (`bus/<bus>/unit/…` on a bus): the unit's editor prefix and the reading's key.
    public var path: String
    /// The port's name (`Gain Reduction`).
    public var label: String
    /// Its range (nil: unbounded) and unit symbol.
    public var min: Float?
    public var max: Float?
    public var unit: String

    /// Every output the units of `graph` describe (``EngineUnit/meterDescriptors``), in chain order.
    static func all(in graph: EngineGraph) -> [WebUnitOutput] {
        described(in: graph).map { path, descriptor in
            func bound(_ value: Float) -> Float? { abs(value) < 1e30 ? value : nil }
            return WebUnitOutput(path: path, label: descriptor.summary, min: bound(descriptor.range.lowerBound),
                                 max: bound(descriptor.range.upperBound), unit: descriptor.unit)
        }
    }

    /// The values of those outputs in `snapshot`, by path (a meter tick's `outputs`), rounded to 0.01.
    static func values(_ snapshot: MeterSnapshot, graph: EngineGraph) -> [String: Float] {
        let paths = Set(described(in: graph).map(\.path))
        var values: [String: Float] = [:]
        for unit in snapshot.units {
            // The snapshot names a bus's units `bus/<bus>`, a strip's by the strip alone.
            let prefix = unit.strip.hasPrefix("bus/") ? "\(unit.strip)/unit/\(unit.unit)/" : "strip/\(unit.strip)/unit/\(unit.unit)/"
            for reading in unit.readings where reading.value.isFinite && paths.contains(prefix + reading.key) {
                values[prefix + reading.key] = (reading.value * 100).rounded() / 100
            }
        }
        return values
    }

    private static func described(in graph: EngineGraph) -> [(path: String, descriptor: ParameterDescriptor)] {
        let chains = graph.description.strips.map { ("strip", $0.name, $0.units, $0.unitIDs) }
            + graph.description.buses.map { ("bus", $0.name, $0.units, $0.unitIDs) }
        return chains.flatMap { kind, owner, units, ids in
            units.enumerated().flatMap { index, unit in
                unit.meterDescriptors.map { (ParameterTree.Path.unit(ownerKind: kind, owner, index < ids.count ? ids[index] : unit.typeName, $0.key), $0) }
            }
        }
    }
}
