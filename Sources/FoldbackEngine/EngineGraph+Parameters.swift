// Validates parameter addresses and values against a graph, and reads its meters. Non-realtime.

/// Levels of every strip and bus of a graph.
public struct MeterSnapshot: Sendable {
    /// Strip meters (pre-fader, post-units), in strip order, with their names.
    public var strips: [(name: String, reading: MeterReading)]
    /// Bus meters (post-gain output), in bus order, with their names.
    public var buses: [(name: String, reading: MeterReading)]
    /// What units publish (gain reduction…), by strip name and unit id.
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
        for strip in description.strips {
            for (index, unit) in strip.units.enumerated() {
                let readings = unit.meterReadings()
                if !readings.isEmpty { units.append((strip.name, strip.unitIDs[index], readings)) }
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
        func checkGain(_ name: String) throws(EngineError) {
            if value > Self.maxGainDB { throw .valueOutOfRange(parameter: name, value: value, range: -Float.infinity...Self.maxGainDB) }
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
        case let .busGain(bus):
            guard description.buses.indices.contains(bus) else { throw .unknownParameter("\(address): no bus #\(bus)") }
            try checkGain("\(description.buses[bus].name)/gain_db")
        case let .busMute(bus):
            guard description.buses.indices.contains(bus) else { throw .unknownParameter("\(address): no bus #\(bus)") }
        case let .unitParameter(index, unit, parameter):
            let owner = try strip(index)
            guard owner.units.indices.contains(unit) else { throw .unknownParameter("\(address): strip '\(owner.name)' has no unit #\(unit)") }
            let descriptors = owner.units[unit].parameters
            guard descriptors.indices.contains(parameter) else { throw .unknownParameter("\(address): unit '\(owner.unitIDs[unit])' has no parameter #\(parameter)") }
            let descriptor = descriptors[parameter]
            if !descriptor.range.contains(value) {
                throw .valueOutOfRange(parameter: "\(owner.name)/\(owner.unitIDs[unit])/\(descriptor.key)", value: value, range: descriptor.range)
            }
        case let .unitBypass(index, unit):
            let owner = try strip(index)
            guard owner.units.indices.contains(unit) else { throw .unknownParameter("\(address): strip '\(owner.name)' has no unit #\(unit)") }
        }
        return address.change(value: value, graph: UnsafeMutableRawPointer(render))
    }
}
