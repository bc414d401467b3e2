// Validates parameter addresses and values against a graph, and reads its meters. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

/// Levels of every strip and bus of a graph.
public struct MeterSnapshot: Sendable {
    /// Strip meters (pre-fader, post-units), in strip order, with their names.
    public var strips: [(name: String, reading: MeterReading)]
    /// Bus meters (post-gain output), in bus order, with their names.
    public var buses: [(name: String, reading: MeterReading)]
    /// What units publish (gain reduction…), by strip name (`bus/<name>` for a bus's units) and unit id.
    public var units: [(strip: String, unit: String, readings: [UnitMeterReading])] = []

    /// A snapshot of these readings (graphs make their own with ``EngineGraph/meters()``).
    public init(
        strips: [(name: String, reading: MeterReading)], buses: [(name: String, reading: MeterReading)],
        units: [(strip: String, unit: String, readings: [UnitMeterReading])] = []
    ) {
        self.strips = strips
        self.buses = buses
        self.units = units
    }
}

extension EngineGraph {
    /// Gains and send levels may be set from −∞ up to this many dB.
    public static let maxGainDB: Float = 24

    /// The index of the strip called `name`.
    public func stripIndex(named name: String) -> Int? { description.strips.firstIndex { $0.name == name } }

    /// The index of the bus called `name`.
    public func busIndex(named name: String) -> Int? { description.buses.firstIndex { $0.name == name } }

    /// The current meter readings.
    public func meters() -> MeterSnapshot {
        let bank = render.pointee.meters
        let strips = description.strips.indices.map { (description.strips[$0].name, bank.read($0)) }
        let buses = description.buses.indices.map { (description.buses[$0].name, bank.read(description.strips.count + $0)) }
        var units: [(strip: String, unit: String, readings: [UnitMeterReading])] = []
        let chains = description.strips.map { ($0.name, $0.units, $0.unitIDs) } + description.buses.map { ("bus/" + $0.name, $0.units, $0.unitIDs) }
        for (owner, chainUnits, ids) in chains {
            for (index, unit) in chainUnits.enumerated() {
                let readings = unit.meterReadings()
                if !readings.isEmpty { units.append((owner, index < ids.count ? ids[index] : unit.typeName, readings)) }
            }
        }
        return MeterSnapshot(strips: strips, buses: buses, units: units)
    }

    /// Checks `address` and `value` against this graph and returns the ring message.
    func change(for address: ParameterAddress, value: Float) throws(EngineError) -> ParameterChange {
        guard !value.isNaN else { throw .valueOutOfRange(parameter: "\(address)", value: value, range: 0...0) }
        let strips = description.strips
        func strip(_ index: Int) throws(EngineError) -> StripDescription {
            guard strips.indices.contains(index) else { throw .unknownParameter("\(address): no strip #\(index)") }
            return strips[index]
        }
        func bus(_ index: Int) throws(EngineError) -> BusDescription {
            guard description.buses.indices.contains(index) else { throw .unknownParameter("\(address): no bus #\(index)") }
            return description.buses[index]
        }
        func checkGain(_ name: String) throws(EngineError) {
            if value > Self.maxGainDB { throw .valueOutOfRange(parameter: name, value: value, range: -Float.infinity...Self.maxGainDB) }
        }
        func checkCue() throws(EngineError) {
            guard description.cue != nil else { throw .unknownParameter("\(address): this graph has no cue output ([cue])") }
        }
        switch address {
        case let .stripGain(index):
            try checkGain("\(try strip(index).name)/gain_db")
        case let .stripPan(index):
            let name = try strip(index).name
            if !(-1...1).contains(value) { throw .valueOutOfRange(parameter: "\(name)/pan", value: value, range: -1...1) }
        case let .stripMute(index), let .stripSolo(index), let .stripEnabled(index):
            _ = try strip(index)
        case let .sendGain(index, send):
            let owner = try strip(index)
            guard owner.sends.indices.contains(send) else { throw .unknownParameter("\(address): strip '\(owner.name)' has no send #\(send)") }
            try checkGain("\(owner.name)/send/\(send)/gain_db")
        case let .sendMute(index, send):
            let owner = try strip(index)
            guard owner.sends.indices.contains(send) else { throw .unknownParameter("\(address): strip '\(owner.name)' has no send #\(send)") }
        case let .sendPosition(index, send, axis):
            let owner = try strip(index)
            guard owner.sends.indices.contains(send) else { throw .unknownParameter("\(address): strip '\(owner.name)' has no send #\(send)") }
            if !axis.range.contains(value) { throw .valueOutOfRange(parameter: "\(owner.name)/send/\(send)/\(axis.key)", value: value, range: axis.range) }
        case let .sendPan(index, send), let .sendWidth(index, send):
            let owner = try strip(index)
            guard owner.sends.indices.contains(send) else { throw .unknownParameter("\(address): strip '\(owner.name)' has no send #\(send)") }
            let (key, range) = if case .sendPan = address { ("pan", Float(-1)...1) } else { ("width", SendTapLaw.widthRange) }
            if !range.contains(value) { throw .valueOutOfRange(parameter: "\(owner.name)/send/\(send)/\(key)", value: value, range: range) }
        case let .dcaGain(index):
            guard description.dcas.indices.contains(index) else { throw .unknownParameter("\(address): no DCA #\(index)") }
            try checkGain("dca/\(description.dcas[index].name)/gain_db")
        case let .dcaMute(index):
            guard description.dcas.indices.contains(index) else { throw .unknownParameter("\(address): no DCA #\(index)") }
        case let .muteGroup(index):
            guard description.muteGroups.indices.contains(index) else { throw .unknownParameter("\(address): no mute group #\(index)") }
        case let .busGain(index):
            try checkGain("\(try bus(index).name)/gain_db")
        case let .busMute(index):
            _ = try bus(index)
        case let .unitParameter(index, unit, parameter):
            let owner = try strip(index)
            try Self.checkUnit(address, owner: "strip '\(owner.name)'", path: owner.name, units: owner.units, ids: owner.unitIDs, unit: unit, parameter: parameter, value: value)
        case let .unitBypass(index, unit):
            let owner = try strip(index)
            try Self.checkUnit(address, owner: "strip '\(owner.name)'", path: owner.name, units: owner.units, ids: owner.unitIDs, unit: unit, parameter: nil, value: value)
        case let .busUnitParameter(index, unit, parameter):
            let owner = try bus(index)
            try Self.checkUnit(address, owner: "bus '\(owner.name)'", path: "bus/\(owner.name)", units: owner.units, ids: owner.unitIDs, unit: unit, parameter: parameter, value: value)
        case let .busUnitBypass(index, unit):
            let owner = try bus(index)
            try Self.checkUnit(address, owner: "bus '\(owner.name)'", path: "bus/\(owner.name)", units: owner.units, ids: owner.unitIDs, unit: unit, parameter: nil, value: value)
        case let .stripTrim(index), let .stripTrimCompensated(index):
            let name = try strip(index).name
            if !Self.trimRange.contains(value) { throw .valueOutOfRange(parameter: "\(name)/trim_db", value: value, range: Self.trimRange) }
        case let .stripTrimCompensation(index):
            let name = try strip(index).name
            let range = -2 * Self.trimRange.upperBound...2 * Self.trimRange.upperBound
            if !range.contains(value) { throw .valueOutOfRange(parameter: "\(name)/trim_compensation_db", value: value, range: range) }
        case let .talkback(index):
            let owner = try strip(index)
            guard owner.isTalkback else { throw .unknownParameter("\(address): strip '\(owner.name)' is not a talkback (talkback = true)") }
        case let .cueBus(index):
            try checkCue()
            _ = try bus(index)
        case let .cuePFL(index), let .cueAFL(index):
            try checkCue()
            _ = try strip(index)
        case .cueGain:
            try checkCue()
            try checkGain("cue/gain_db")
        case .cueClear:
            try checkCue()
        case .host:
            throw .unknownParameter("\(address): applied by the host, not the engine's queue")
        case let .busRoomLevel(index):
            let owner = try bus(index)
            guard owner.roomDB != nil else { throw .unknownParameter("\(address): bus '\(owner.name)' has no room (room = true on a binaural bus)") }
            if !BinauralRoom.levelRange.contains(value) {
                throw .valueOutOfRange(parameter: "\(owner.name)/\(ParameterTree.Key.roomLevel)", value: value, range: BinauralRoom.levelRange)
            }
        case let .busLimiterCeiling(index), let .busLimiterRelease(index):
            let owner = try bus(index)
            guard owner.limiter != nil else { throw .unknownParameter("\(address): bus '\(owner.name)' has no limiter") }
            let isCeiling = if case .busLimiterCeiling = address { true } else { false }
            let range = isCeiling ? Self.limiterCeilingRange : Self.limiterReleaseRange
            if !range.contains(value) {
                throw .valueOutOfRange(parameter: "\(owner.name)/\(isCeiling ? ParameterTree.Key.limiterCeiling : ParameterTree.Key.limiterRelease)", value: value, range: range)
            }
        }
        return address.change(value: value, graph: UnsafeMutableRawPointer(render))
    }

    /// A strip's input trim range, dB.
    public static let trimRange: ClosedRange<Float> = -24...24

    /// A bus limiter's live ceiling range, dBFS, and release range, ms (as presets accept them).
    public static let limiterCeilingRange: ClosedRange<Float> = -30...0
    public static let limiterReleaseRange: ClosedRange<Float> = 1...2000

    /// Checks that unit `unit` exists among `units` (of `owner`, named `path` in messages) and, for a parameter, that it exists and takes `value`.
    private static func checkUnit(
        _ address: ParameterAddress, owner: String, path: String, units: [any EngineUnit], ids: [String], unit: Int, parameter: Int?, value: Float
    ) throws(EngineError) {
        guard units.indices.contains(unit) else { throw .unknownParameter("\(address): \(owner) has no unit #\(unit)") }
        guard let parameter else { return }
        let descriptors = units[unit].parameters
        let id = unit < ids.count ? ids[unit] : units[unit].typeName
        guard descriptors.indices.contains(parameter) else { throw .unknownParameter("\(address): unit '\(id)' has no parameter #\(parameter)") }
        let descriptor = descriptors[parameter]
        if !descriptor.range.contains(value) {
            throw .valueOutOfRange(parameter: "\(path)/\(id)/\(descriptor.key)", value: value, range: descriptor.range)
        }
    }
}
