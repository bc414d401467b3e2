// Maps named targets to engine parameter addresses, and live parameter values back into the preset model. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
public import FoldbackEngine

extension MIDITarget {
    /// The engine address of this target in `graph`, built from `preset`; nil if it names nothing there.
    public func address(in preset: Preset, graph: EngineGraph) -> ParameterAddress? {
        ParameterTree.cached(preset: preset, graph: graph).node(at: path)?.address
    }
}

extension Preset {
    /// The value `address` has in this preset (what the graph starts with), or nil if it names nothing here.
    /// Unit parameters are looked up by the key of `graph`'s parameter at that index.
    public func value(at address: ParameterAddress, graph: EngineGraph) -> Float? {
        ParameterTree.cached(preset: self, graph: graph).node(for: address)?.presetValue
    }

    /// This preset with `values` (as ``Engine/changedValues`` gives them) written in, so saving it keeps
    /// what was changed live (a plugin control the preset did not name is added to its `controls`). Addresses the
    /// model cannot hold are returned as skipped.
    public func applying(_ values: [ParameterAddress: Float], graph: EngineGraph) -> (preset: Preset, skipped: [ParameterAddress]) {
        applying(values) { address in
            switch address {
            case let .unitParameter(strip, unit, parameter): graph.description.strips[safe: strip]?.units[safe: unit]?.parameters[safe: parameter]?.key
            case let .busUnitParameter(bus, unit, parameter): graph.description.buses[safe: bus]?.units[safe: unit]?.parameters[safe: parameter]?.key
            default: nil
            }
        }
    }

    /// This preset with `values` written in, their addresses those of `tree` (this preset's tree, before a graph
    /// runs it): what a song change carries into the next preset.
    public func applying(_ values: [ParameterAddress: Float], tree: ParameterTree) -> (preset: Preset, skipped: [ParameterAddress]) {
        applying(values) { tree.node(for: $0)?.descriptor.key }
    }

    private func applying(_ values: [ParameterAddress: Float], unitKey: (ParameterAddress) -> String?) -> (preset: Preset, skipped: [ParameterAddress]) {
        var result = self
        var skipped: [ParameterAddress] = []
        // A trim's compensation folds into the strip's send levels, so it goes in after them.
        let ordered = values.sorted { !Self.isCompensation($0.key) && Self.isCompensation($1.key) }
        for (address, value) in ordered where !result.set(address, to: value, unitKey: unitKey) {
            skipped.append(address)
        }
        return (result, skipped)
    }

    /// Writes one value into the model; false if the model has no place for it.
    private mutating func set(_ address: ParameterAddress, to value: Float, unitKey: (ParameterAddress) -> String?) -> Bool {
        let isOn = value >= 0.5
        switch address {
        case let .stripGain(strip) where strips.indices.contains(strip): strips[strip].gainDB = value
        case let .stripPan(strip) where strips.indices.contains(strip): strips[strip].pan = value
        case let .stripMute(strip) where strips.indices.contains(strip): strips[strip].isMuted = isOn
        case let .stripSolo(strip) where strips.indices.contains(strip): strips[strip].isSoloed = isOn
        case let .stripEnabled(strip) where strips.indices.contains(strip): strips[strip].isEnabled = isOn
        case let .sendGain(strip, send) where strips.indices.contains(strip) && strips[strip].sends.indices.contains(send):
            strips[strip].sends[send].gainDB = value
        case let .sendPan(strip, send) where strips.indices.contains(strip) && strips[strip].sends.indices.contains(send):
            strips[strip].sends[send].pan = value
        case let .sendWidth(strip, send) where strips.indices.contains(strip) && strips[strip].sends.indices.contains(send):
            strips[strip].sends[send].width = value
        case let .sendMute(strip, send) where strips.indices.contains(strip) && strips[strip].sends.indices.contains(send):
            strips[strip].sends[send].isMuted = isOn
        case let .sendPosition(strip, send, axis) where strips.indices.contains(strip) && strips[strip].sends.indices.contains(send):
            strips[strip].sends[send].position = axis.setting(value, in: strips[strip].sends[send].position ?? BinauralPosition())
        case let .dcaGain(dca) where dcas.indices.contains(dca): dcas[dca].gainDB = value
        case let .dcaMute(dca) where dcas.indices.contains(dca): dcas[dca].isMuted = isOn
        case let .muteGroup(group) where muteGroups.indices.contains(group): muteGroups[group].isMuted = isOn
        case let .busGain(bus) where buses.indices.contains(bus): buses[bus].gainDB = value
        case let .busMute(bus) where buses.indices.contains(bus): buses[bus].isMuted = isOn
        case let .unitBypass(strip, unit) where strips.indices.contains(strip) && strips[strip].units.indices.contains(unit):
            strips[strip].units[unit].isBypassed = isOn
        case let .unitParameter(strip, unit, parameter):
            guard let key = unitKey(address),
                  strips.indices.contains(strip), strips[strip].units.indices.contains(unit) else { return false }
            guard strips[strip].units[unit].parameters[key] != nil || strips[strip].units[unit].lv2 != nil else { return strips[strip].units[unit].setBand(parameter: parameter, to: value) }
            strips[strip].units[unit].parameters[key] = value
        case let .busUnitBypass(bus, unit) where buses.indices.contains(bus) && buses[bus].units.indices.contains(unit):
            buses[bus].units[unit].isBypassed = isOn
        case let .busUnitParameter(bus, unit, parameter):
            guard let key = unitKey(address),
                  buses.indices.contains(bus), buses[bus].units.indices.contains(unit) else { return false }
            guard buses[bus].units[unit].parameters[key] != nil || buses[bus].units[unit].lv2 != nil else { return buses[bus].units[unit].setBand(parameter: parameter, to: value) }
            buses[bus].units[unit].parameters[key] = value
        case let .busLimiterCeiling(bus) where buses[safe: bus]?.limiter != nil: buses[bus].limiter?.ceilingDB = value
        case let .busLimiterRelease(bus) where buses[safe: bus]?.limiter != nil: buses[bus].limiter?.releaseMs = value
        case let .busRoomLevel(bus) where buses[safe: bus]?.roomDB != nil: buses[bus].roomDB = value
        case let .stripTrim(strip) where strips.indices.contains(strip): strips[strip].trimDB = value
        case let .stripTrimCompensation(strip) where strips.indices.contains(strip):
            // Compensation scales every send alike: saved as the send levels it leaves.
            for send in strips[strip].sends.indices {
                strips[strip].sends[send].gainDB = min(max(strips[strip].sends[send].gainDB + value, -144), 24)
            }
        case .talkback, .cueBus, .cuePFL, .cueAFL, .cueClear: break   // presses and cue selections are not part of the preset
        case .cueGain where cue != nil: cue?.gainDB = value
        case let .host(host): return setHost(host, to: value)
        default: return false
        }
        return true
    }

    /// Writes a host-side value: a file source's tempo or key into its `source`; an input switch is live only.
    private mutating func setHost(_ host: HostParameter, to value: Float) -> Bool {
        if host == .showTempo { self = settingTempo(value); return true }   // saved as every echo's tempo_bpm
        guard let (parameter, strip) = SourceParameters.parameter(of: host) else { return true }
        guard strips.indices.contains(strip), strips[strip].source != nil else { return false }
        switch parameter.key {
        case SourceParameters.tempo.key: strips[strip].source?.tempo = value
        case SourceParameters.pitchSemitones.key: strips[strip].source?.pitchSemitones = value
        default: strips[strip].source?.cents = value
        }
        return true
    }

    private static func isCompensation(_ address: ParameterAddress) -> Bool {
        if case .stripTrimCompensation = address { true } else { false }
    }
}

extension UnitSpec {
    /// Writes an `eq` unit's band parameter (index `parameter` of ``EQUnit``'s: the output gain, then per band
    /// frequency, gain, Q and on/off, then the bands' types) into its bands; a curve band becomes an override.
    /// False for any other unit.
    mutating func setBand(parameter: Int, to value: Float) -> Bool {
        if type == "eq", let band = EQUnit.typeBand(parameter: parameter, bandCount: bands.count) {
            guard let bandType = EQBandType(choiceValue: value) else { return false }
            bands[band].band.type = bandType
            if bands[band].origin == .curve { bands[band].origin = .overridden }
            return true
        }
        let band = (parameter - 1) / EQUnit.parametersPerBand, field = (parameter - 1) % EQUnit.parametersPerBand
        guard type == "eq", parameter >= 1, bands.indices.contains(band) else { return false }
        switch field {
        case 0: bands[band].band.frequency = Double(value)
        case 1: bands[band].band.gainDB = Double(value)
        case 2: bands[band].band.q = Double(value)
        default: bands[band].band.isEnabled = value >= 0.5
        }
        if bands[band].origin == .curve { bands[band].origin = .overridden }
        return true
    }
}

extension Array {
    /// The element at `index`, or nil when out of bounds.
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
