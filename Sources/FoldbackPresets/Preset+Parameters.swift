// Maps named targets to engine parameter addresses, and live parameter values back into the preset model. Non-realtime.
public import FoldbackEngine

extension MIDITarget {
    /// The engine address of this target in `graph`, built from `preset` (strips, sends, buses and units
    /// in preset order, as ``PresetGraphBuilder`` builds them); nil if it names nothing there.
    public func address(in preset: Preset, graph: EngineGraph) -> ParameterAddress? {
        switch self {
        case let .strip(name, key):
            guard let strip = preset.strips.firstIndex(where: { $0.name == name }) else { return nil }
            switch key {
            case "gain_db": return .stripGain(strip: strip)
            case "pan": return .stripPan(strip: strip)
            case "mute": return .stripMute(strip: strip)
            case "solo": return .stripSolo(strip: strip)
            case "trim_db": return preset.strips[strip].trimCompensates ? .stripTrimCompensated(strip: strip) : .stripTrim(strip: strip)
            case "talkback" where preset.strips[strip].talkback != nil: return .talkback(strip: strip)
            default: return nil
            }
        case let .send(name, bus):
            guard let strip = preset.strips.firstIndex(where: { $0.name == name }),
                  let send = preset.strips[strip].sends.firstIndex(where: { $0.busName == bus }) else { return nil }
            return .sendGain(strip: strip, send: send)
        case let .unit(name, unitID, key):
            guard let strip = preset.strips.firstIndex(where: { $0.name == name }),
                  let unit = preset.strips[strip].units.firstIndex(where: { $0.id == unitID }) else { return nil }
            if key == Self.bypassKey { return .unitBypass(strip: strip, unit: unit) }
            guard graph.description.strips.indices.contains(strip),
                  graph.description.strips[strip].units.indices.contains(unit),
                  let parameter = graph.description.strips[strip].units[unit].parameters.firstIndex(where: { $0.key == key })
            else { return nil }
            return .unitParameter(strip: strip, unit: unit, parameter: parameter)
        case let .bus(name, key):
            guard let bus = preset.buses.firstIndex(where: { $0.name == name }) else { return nil }
            switch key {
            case "gain_db": return .busGain(bus: bus)
            case "mute": return .busMute(bus: bus)
            case "limiter_ceiling_db" where preset.buses[bus].limiter != nil: return .busLimiterCeiling(bus: bus)
            case "limiter_release_ms" where preset.buses[bus].limiter != nil: return .busLimiterRelease(bus: bus)
            default: return nil
            }
        case let .busUnit(name, unitID, key):
            guard let bus = preset.buses.firstIndex(where: { $0.name == name }),
                  let unit = preset.buses[bus].units.firstIndex(where: { $0.id == unitID }) else { return nil }
            if key == Self.bypassKey { return .busUnitBypass(bus: bus, unit: unit) }
            guard let parameter = graph.description.buses[safe: bus]?.units[safe: unit]?.parameters.firstIndex(where: { $0.key == key })
            else { return nil }
            return .busUnitParameter(bus: bus, unit: unit, parameter: parameter)
        case let .cue(path):
            return preset.cueAddress(path.split(separator: ".").map(String.init))
        }
    }
}

extension Preset {
    /// The cue address `parts` names (`["bus", "iem"]`, `["strip", "vox", "pfl"]`, `["clear"]`, `["gain_db"]`), or nil.
    public func cueAddress(_ parts: [String]) -> ParameterAddress? {
        guard cue != nil else { return nil }
        switch (parts.first, parts.count) {
        case ("gain_db", 1): return .cueGain
        case ("clear", 1): return .cueClear
        case ("bus", 2): return buses.firstIndex { $0.name == parts[1] }.map { .cueBus(bus: $0) }
        case ("strip", 3):
            guard let strip = strips.firstIndex(where: { $0.name == parts[1] }) else { return nil }
            return parts[2] == "pfl" ? .cuePFL(strip: strip) : parts[2] == "afl" ? .cueAFL(strip: strip) : nil
        default: return nil
        }
    }

    /// The value `address` has in this preset (what the graph starts with), or nil if it names nothing here.
    /// Unit parameters are looked up by the key of `graph`'s parameter at that index.
    public func value(at address: ParameterAddress, graph: EngineGraph) -> Float? {
        func flag(_ isOn: Bool) -> Float { isOn ? 1 : 0 }
        switch address {
        case let .stripGain(strip): return strips[safe: strip]?.gainDB
        case let .stripPan(strip): return strips[safe: strip]?.pan
        case let .stripMute(strip): return strips[safe: strip].map { flag($0.isMuted) }
        case let .stripSolo(strip): return strips[safe: strip].map { flag($0.isSoloed) }
        case let .stripEnabled(strip): return strips[safe: strip].map { flag($0.isEnabled) }
        case let .sendGain(strip, send): return strips[safe: strip]?.sends[safe: send]?.gainDB
        case let .busGain(bus): return buses[safe: bus]?.gainDB
        case let .busMute(bus): return buses[safe: bus].map { flag($0.isMuted) }
        case let .unitBypass(strip, unit): return strips[safe: strip]?.units[safe: unit].map { flag($0.isBypassed) }
        case let .unitParameter(strip, unit, parameter):
            guard let key = Self.parameterKey(strip: strip, unit: unit, parameter: parameter, graph: graph) else { return nil }
            return strips[safe: strip]?.units[safe: unit]?.parameters[key]
        case let .busUnitBypass(bus, unit): return buses[safe: bus]?.units[safe: unit].map { flag($0.isBypassed) }
        case let .busUnitParameter(bus, unit, parameter):
            guard let key = graph.description.buses[safe: bus]?.units[safe: unit]?.parameters[safe: parameter]?.key else { return nil }
            return buses[safe: bus]?.units[safe: unit]?.parameters[key]
        case let .busLimiterCeiling(bus): return buses[safe: bus]?.limiter?.ceilingDB
        case let .busLimiterRelease(bus): return buses[safe: bus]?.limiter?.releaseMs
        case let .stripTrim(strip), let .stripTrimCompensated(strip): return strips[safe: strip]?.trimDB
        case let .stripTrimCompensation(strip), let .talkback(strip): return strips[safe: strip].map { _ in 0 }
        case .cueGain: return cue?.gainDB
        case .cueBus, .cuePFL, .cueAFL, .cueClear: return cue.map { _ in 0 }
        }
    }

    /// This preset with `values` (as ``Engine/changedValues`` gives them) written in, so saving it keeps
    /// what was changed live. Addresses the model cannot hold (EQ band parameters) are returned as skipped.
    public func applying(_ values: [ParameterAddress: Float], graph: EngineGraph) -> (preset: Preset, skipped: [ParameterAddress]) {
        var result = self
        var skipped: [ParameterAddress] = []
        // A trim's compensation folds into the strip's send levels, so it goes in after them.
        let ordered = values.sorted { !Self.isCompensation($0.key) && Self.isCompensation($1.key) }
        for (address, value) in ordered where !result.set(address, to: value, graph: graph) {
            skipped.append(address)
        }
        return (result, skipped)
    }

    /// Writes one value into the model; false if the model has no place for it.
    private mutating func set(_ address: ParameterAddress, to value: Float, graph: EngineGraph) -> Bool {
        let isOn = value >= 0.5
        switch address {
        case let .stripGain(strip) where strips.indices.contains(strip): strips[strip].gainDB = value
        case let .stripPan(strip) where strips.indices.contains(strip): strips[strip].pan = value
        case let .stripMute(strip) where strips.indices.contains(strip): strips[strip].isMuted = isOn
        case let .stripSolo(strip) where strips.indices.contains(strip): strips[strip].isSoloed = isOn
        case let .stripEnabled(strip) where strips.indices.contains(strip): strips[strip].isEnabled = isOn
        case let .sendGain(strip, send) where strips.indices.contains(strip) && strips[strip].sends.indices.contains(send):
            strips[strip].sends[send].gainDB = value
        case let .busGain(bus) where buses.indices.contains(bus): buses[bus].gainDB = value
        case let .busMute(bus) where buses.indices.contains(bus): buses[bus].isMuted = isOn
        case let .unitBypass(strip, unit) where strips.indices.contains(strip) && strips[strip].units.indices.contains(unit):
            strips[strip].units[unit].isBypassed = isOn
        case let .unitParameter(strip, unit, parameter):
            guard let key = Self.parameterKey(strip: strip, unit: unit, parameter: parameter, graph: graph),
                  strips.indices.contains(strip), strips[strip].units.indices.contains(unit),
                  strips[strip].units[unit].parameters[key] != nil else { return false }
            strips[strip].units[unit].parameters[key] = value
        case let .busUnitBypass(bus, unit) where buses.indices.contains(bus) && buses[bus].units.indices.contains(unit):
            buses[bus].units[unit].isBypassed = isOn
        case let .busUnitParameter(bus, unit, parameter):
            guard let key = graph.description.buses[safe: bus]?.units[safe: unit]?.parameters[safe: parameter]?.key,
                  buses.indices.contains(bus), buses[bus].units.indices.contains(unit),
                  buses[bus].units[unit].parameters[key] != nil else { return false }
            buses[bus].units[unit].parameters[key] = value
        case let .busLimiterCeiling(bus) where buses[safe: bus]?.limiter != nil: buses[bus].limiter?.ceilingDB = value
        case let .busLimiterRelease(bus) where buses[safe: bus]?.limiter != nil: buses[bus].limiter?.releaseMs = value
        case let .stripTrim(strip) where strips.indices.contains(strip): strips[strip].trimDB = value
        case let .stripTrimCompensation(strip) where strips.indices.contains(strip):
            // Compensation scales every send alike: saved as the send levels it leaves.
            for send in strips[strip].sends.indices {
                strips[strip].sends[send].gainDB = min(max(strips[strip].sends[send].gainDB + value, -144), 24)
            }
        case .talkback, .cueBus, .cuePFL, .cueAFL, .cueClear: break   // presses and cue selections are not part of the preset
        case .cueGain where cue != nil: cue?.gainDB = value
        default: return false
        }
        return true
    }

    private static func isCompensation(_ address: ParameterAddress) -> Bool {
        if case .stripTrimCompensation = address { true } else { false }
    }

    /// The key of parameter `parameter` of unit `unit` in strip `strip` of `graph`.
    private static func parameterKey(strip: Int, unit: Int, parameter: Int, graph: EngineGraph) -> String? {
        graph.description.strips[safe: strip]?.units[safe: unit]?.parameters[safe: parameter]?.key
    }
}

extension Array {
    /// The element at `index`, or nil when out of bounds.
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
