// Resolves OSC parameter addresses (strip/bus/send/unit names and keys) to engine parameter addresses. Non-realtime.
public import FoldbackEngine
public import FoldbackPresets

/// A live parameter found from its OSC address: where it lives in the engine, its range, and the value
/// the running preset gave it.
public struct ResolvedParameter: Sendable, Equatable {
    /// The engine's address for it.
    public var address: ParameterAddress
    /// How messages name it: `vox/gain_db`, `vox/unit/comp/threshold_db`.
    public var name: String
    /// The values it accepts.
    public var range: ClosedRange<Float>
    /// A 0/1 switch (sent and read back as `i`).
    public var isSwitch: Bool
    /// The value in the running preset (what it has until someone sets it).
    public var presetValue: Float
}

/// Parses the parameter part of an OSC address (after `/foldback/`) against the running graph and preset.
///
/// Forms: `strip/<name>/{gain_db,pan,mute,solo,enabled,trim_db,trim_compensation_db,talkback}`, `strip/<name>/send/<bus>/gain_db`,
/// `strip/<name>/unit/<id>/<key>` (any key the unit's ``EngineUnit/parameters`` lists, built-in or
/// plugin alike, plus `bypass`), `bus/<name>/{gain_db,mute}`, `bus/<name>/limiter/{ceiling_db,release_ms}`,
/// `bus/<name>/unit/<id>/<key>`.
public enum ParameterPath {
    /// Gains and send levels accept −∞ up to the engine's maximum.
    static let gainRange: ClosedRange<Float> = -Float.infinity...EngineGraph.maxGainDB

    /// The parameter at `components` (e.g. `["strip", "vox", "gain_db"]`).
    /// - Throws: ``ControlError/unknownAddress(_:)`` naming the first part that does not exist.
    public static func resolve(_ components: [Substring], graph: EngineGraph, preset: Preset) throws(ControlError) -> ResolvedParameter {
        let parts = components.map(String.init)
        let description = graph.description
        switch parts.first {
        case "strip":
            guard parts.count >= 3 else { throw .unknownAddress("a strip address needs a parameter: strip/<name>/gain_db…") }
            guard let index = graph.stripIndex(named: parts[1]), let spec = preset.strip(named: parts[1]) else {
                throw .unknownAddress("no strip named '\(parts[1])'; strips: \(description.strips.map(\.name).joined(separator: ", "))")
            }
            return try stripParameter(Array(parts.dropFirst(2)), strip: index, description: description.strips[index], spec: spec, buses: description.buses)
        case "bus":
            guard parts.count >= 3 else { throw .unknownAddress("a bus address is bus/<name>/gain_db, mute, limiter/<key> or unit/<id>/<key>") }
            guard let index = graph.busIndex(named: parts[1]), let spec = preset.bus(named: parts[1]) else {
                throw .unknownAddress("no bus named '\(parts[1])'; buses: \(description.buses.map(\.name).joined(separator: ", "))")
            }
            return try busParameter(Array(parts.dropFirst(2)), bus: index, description: description.buses[index], spec: spec)
        default:
            throw .unknownAddress("unknown address; parameters live under /foldback/strip/<name>/… and /foldback/bus/<name>/…")
        }
    }

    private static func stripParameter(
        _ rest: [String], strip index: Int, description: StripDescription, spec: StripSpec, buses: [BusDescription]
    ) throws(ControlError) -> ResolvedParameter {
        let strip = description.name
        switch rest.first {
        case "send":
            guard rest.count == 3, rest[2] == "gain_db" else { throw .unknownAddress("a send address is strip/\(strip)/send/<bus>/gain_db") }
            guard let send = description.sends.firstIndex(where: { buses.indices.contains($0.bus) && buses[$0.bus].name == rest[1] }),
                  let sendSpec = spec.sends.first(where: { $0.busName == rest[1] }) else {
                let names = description.sends.compactMap { buses.indices.contains($0.bus) ? buses[$0.bus].name : nil }
                throw .unknownAddress("strip '\(strip)' has no send to '\(rest[1])'; it sends to: \(names.joined(separator: ", "))")
            }
            return ResolvedParameter(
                address: .sendGain(strip: index, send: send), name: "\(strip)/send/\(rest[1])/gain_db", range: gainRange,
                isSwitch: false, presetValue: sendSpec.gainDB)
        case "unit":
            guard rest.count == 3 else { throw .unknownAddress("a unit address is strip/\(strip)/unit/<id>/<parameter>") }
            let chain = UnitChain(
                owner: "strip '\(strip)'", prefix: strip, units: description.units, ids: description.unitIDs, specs: spec.units,
                parameter: { .unitParameter(strip: index, unit: $0, parameter: $1) }, bypass: { .unitBypass(strip: index, unit: $0) })
            return try unitParameter(id: rest[1], key: rest[2], chain: chain)
        default:
            guard rest.count == 1 else { throw .unknownAddress("strip '\(strip)' has no parameter '\(rest.joined(separator: "/"))'") }
            let name = "\(strip)/\(rest[0])"
            switch rest[0] {
            case "gain_db": return ResolvedParameter(address: .stripGain(strip: index), name: name, range: gainRange, isSwitch: false, presetValue: spec.gainDB)
            case "pan": return ResolvedParameter(address: .stripPan(strip: index), name: name, range: -1...1, isSwitch: false, presetValue: spec.pan)
            case "mute": return toggle(.stripMute(strip: index), name, spec.isMuted)
            case "solo": return toggle(.stripSolo(strip: index), name, spec.isSoloed)
            case "enabled": return toggle(.stripEnabled(strip: index), name, spec.isEnabled)
            case "trim_db":
                let address: ParameterAddress = spec.trimCompensates ? .stripTrimCompensated(strip: index) : .stripTrim(strip: index)
                return ResolvedParameter(address: address, name: name, range: EngineGraph.trimRange, isSwitch: false, presetValue: spec.trimDB)
            case "trim_compensation_db":
                let range = -2 * EngineGraph.trimRange.upperBound...2 * EngineGraph.trimRange.upperBound
                return ResolvedParameter(address: .stripTrimCompensation(strip: index), name: name, range: range, isSwitch: false, presetValue: 0)
            case "talkback" where description.isTalkback: return toggle(.talkback(strip: index), name, false)
            default:
                throw .unknownAddress(
                    "strip '\(strip)' has no parameter '\(rest[0])'; it has gain_db, pan, mute, solo, enabled, trim_db, trim_compensation_db\(description.isTalkback ? ", talkback" : ""), send/<bus>/gain_db, unit/<id>/<parameter>")
            }
        }
    }

    private static func busParameter(_ rest: [String], bus index: Int, description: BusDescription, spec: BusSpec) throws(ControlError) -> ResolvedParameter {
        let bus = description.name
        switch (rest.first, rest.count) {
        case ("unit", 3):
            let chain = UnitChain(
                owner: "bus '\(bus)'", prefix: bus, units: description.units, ids: description.unitIDs, specs: spec.units,
                parameter: { .busUnitParameter(bus: index, unit: $0, parameter: $1) }, bypass: { .busUnitBypass(bus: index, unit: $0) })
            return try unitParameter(id: rest[1], key: rest[2], chain: chain)
        case ("limiter", 2):
            guard let limiter = spec.limiter else { throw .unknownAddress("bus '\(bus)' has no limiter (limiter = false)") }
            let name = "\(bus)/limiter/\(rest[1])"
            switch rest[1] {
            case "ceiling_db":
                return ResolvedParameter(
                    address: .busLimiterCeiling(bus: index), name: name, range: EngineGraph.limiterCeilingRange, isSwitch: false, presetValue: limiter.ceilingDB)
            case "release_ms":
                return ResolvedParameter(
                    address: .busLimiterRelease(bus: index), name: name, range: EngineGraph.limiterReleaseRange, isSwitch: false, presetValue: limiter.releaseMs)
            default: throw .unknownAddress("the limiter of bus '\(bus)' has no parameter '\(rest[1])'; it has ceiling_db, release_ms")
            }
        case (let key?, 1):
            let name = "\(bus)/\(key)"
            switch key {
            case "gain_db": return ResolvedParameter(address: .busGain(bus: index), name: name, range: gainRange, isSwitch: false, presetValue: spec.gainDB)
            case "mute": return toggle(.busMute(bus: index), name, spec.isMuted)
            default: break
            }
        default: break
        }
        throw .unknownAddress(
            "bus '\(bus)' has no parameter '\(rest.joined(separator: "/"))'; it has gain_db, mute, limiter/ceiling_db, limiter/release_ms, unit/<id>/<parameter>")
    }

    /// A strip's or bus's units as the address space sees them, and how to address one of their parameters.
    private struct UnitChain {
        var owner: String
        var prefix: String
        var units: [any EngineUnit]
        var ids: [String]
        var specs: [UnitSpec]
        var parameter: (_ unit: Int, _ parameter: Int) -> ParameterAddress
        var bypass: (_ unit: Int) -> ParameterAddress
    }

    private static func unitParameter(id: String, key: String, chain: UnitChain) throws(ControlError) -> ResolvedParameter {
        guard let unit = chain.ids.firstIndex(of: id), unit < chain.units.count else {
            throw .unknownAddress("\(chain.owner) has no unit '\(id)'; its units: \(chain.ids.joined(separator: ", "))")
        }
        let unitSpec = chain.specs.first { $0.id == id }
        let name = "\(chain.prefix)/unit/\(id)/\(key)"
        let descriptors = chain.units[unit].parameters
        if let parameter = descriptors.firstIndex(where: { $0.key == key }) {
            let descriptor = descriptors[parameter]
            return ResolvedParameter(
                address: chain.parameter(unit, parameter), name: name, range: descriptor.range,
                isSwitch: false, presetValue: unitSpec?.parameters[key] ?? descriptor.defaultValue)
        }
        if key == "bypass" {
            return toggle(chain.bypass(unit), name, unitSpec?.isBypassed ?? false)
        }
        let keys = descriptors.map(\.key) + ["bypass"]
        throw .unknownAddress("unit '\(id)' of \(chain.owner) has no parameter '\(key)'; it has: \(keys.joined(separator: ", "))")
    }

    private static func toggle(_ address: ParameterAddress, _ name: String, _ isOn: Bool) -> ResolvedParameter {
        ResolvedParameter(address: address, name: name, range: 0...1, isSwitch: true, presetValue: isOn ? 1 : 0)
    }
}
