// A running graph's sandboxed plugins as the parameter tree's `faulted` nodes: their fault state and the engineer's re-enable. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine
import FoldbackSandbox

extension EngineGraph {
    /// The fault state of the sandboxed plugin `parameter` names (``HostParameter/pluginFaulted(isBus:owner:unit:)``):
    /// 1 while it plays its fallback after a fault, else 0; nil for another parameter or a unit that is not sandboxed.
    public func pluginFaultValue(_ parameter: HostParameter) -> Float? {
        sandboxedUnit(parameter).map { $0.isFaulted ? 1 : 0 }
    }

    /// Applies a write to a `faulted` node: 0 starts a plugin left bypassed after too many faults again (nothing to do
    /// when it plays or is already restarting); 1 is refused (only the sandbox sets it).
    /// - Throws: ``EngineError/hostParameterRefused(_:)`` for 1, ``EngineError/unknownParameter(_:)`` for a unit that is not sandboxed.
    public func setPluginFault(_ parameter: HostParameter, value: Float) throws(EngineError) {
        guard let unit = sandboxedUnit(parameter) else { throw .unknownParameter("\(parameter): no sandboxed plugin there in the running graph") }
        guard value < 0.5 else { throw .hostParameterRefused(HostParameter.faultedIsReadOnly) }
        unit.reenable()
    }

    /// The status line's part for plugins playing their fallback after a fault (`FAULT vox/comp main/verb`), nil for none.
    public var faultedPluginsStatus: String? {
        let strips = description.strips.flatMap { strip in zip(strip.units, strip.unitIDs).map { (strip.name, $0.0, $0.1) } }
        let buses = description.buses.flatMap { bus in zip(bus.units, bus.unitIDs).map { (bus.name, $0.0, $0.1) } }
        let faulted = (strips + buses).filter { ($0.1 as? SandboxedUnit)?.isFaulted == true }.map { "\($0.0)/\($0.2)" }
        return faulted.isEmpty ? nil : "FAULT " + faulted.joined(separator: " ")
    }

    private func sandboxedUnit(_ parameter: HostParameter) -> SandboxedUnit? {
        guard case let .pluginFaulted(isBus, owner, unit) = parameter else { return nil }
        let units: [any EngineUnit]
        if isBus {
            guard description.buses.indices.contains(owner) else { return nil }
            units = description.buses[owner].units
        } else {
            guard description.strips.indices.contains(owner) else { return nil }
            units = description.strips[owner].units
        }
        guard units.indices.contains(unit) else { return nil }
        return units[unit] as? SandboxedUnit
    }
}
