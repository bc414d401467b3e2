// Builds the parameter tree of a preset, from its running graph's units or, before a graph, from the units' declarations. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine
import FoldbackDSP
import Synchronization

extension ParameterTree {
    /// The tree of `preset` playing in `graph`: strips, sends, buses and cue from the preset, each unit's
    /// parameters from the unit in the graph (built-in or plugin alike).
    public init(preset: Preset, graph: EngineGraph) {
        let description = graph.description
        self.init(preset: preset) { isBus, owner, unit, spec in
            let units = isBus ? description.buses[safe: owner].map { ($0.units, $0.unitIDs) } : description.strips[safe: owner].map { ($0.units, $0.unitIDs) }
            guard let (engineUnits, ids) = units, ids[safe: unit] == spec.id, let engineUnit = engineUnits[safe: unit] else {
                return Self.declaredParameters(of: spec)
            }
            return engineUnit.parameters
        }
    }

    /// The tree of `preset` playing in `graph`, built once per graph (the last one built is kept, holding its graph weakly).
    public static func cached(preset: Preset, graph: EngineGraph) -> ParameterTree {
        if let entry = cache.withLock({ $0 }), entry.graph === graph, entry.presetPath == preset.path { return entry.tree }
        let tree = ParameterTree(preset: preset, graph: graph)
        cache.withLock { $0 = CachedTree(graph: graph, presetPath: preset.path, tree: tree) }
        return tree
    }

    /// The tree of `preset` before it runs: each unit's parameters from its declaration (a built-in unit's
    /// type, an LV2 plugin's control ports as the plugin catalogue declared them when the preset was read).
    public init(preset: Preset) {
        self.init(preset: preset) { _, _, _, spec in Self.declaredParameters(of: spec) }
    }

    /// The parameters a unit of `spec`'s type declares, without building it.
    static func declaredParameters(of spec: UnitSpec) -> [ParameterDescriptor] {
        if let lv2 = spec.lv2 { return lv2.declaredParameters }
        if spec.type == "eq" { return EQUnit.parameters(bands: spec.bands.map(\.band), gainDB: Double(spec.parameters[Key.gain] ?? 0)) }
        return UnitSchema.named(spec.type)?.parameters.map(\.descriptor) ?? []
    }

    private init(preset: Preset, unitParameters: (_ isBus: Bool, _ owner: Int, _ unit: Int, _ spec: UnitSpec) -> [ParameterDescriptor]) {
        typealias Declared = EngineParameters
        var nodes: [ParameterNode] = []
        func add(_ path: String, _ address: ParameterAddress, _ descriptor: ParameterDescriptor, _ value: Float, musician: String? = nil) {
            nodes.append(ParameterNode(path: path, address: address, descriptor: descriptor, presetValue: value, musicianBus: musician))
        }
        func flag(_ isOn: Bool) -> Float { isOn ? 1 : 0 }
        func addUnits(_ units: [UnitSpec], isBus: Bool, owner: Int, name: String) {
            let kind = isBus ? "bus" : "strip"
            for (unitIndex, unit) in units.enumerated() {
                for (parameter, descriptor) in unitParameters(isBus, owner, unitIndex, unit).enumerated() {
                    let address: ParameterAddress = isBus
                        ? .busUnitParameter(bus: owner, unit: unitIndex, parameter: parameter)
                        : .unitParameter(strip: owner, unit: unitIndex, parameter: parameter)
                    add(Path.unit(ownerKind: kind, name, unit.id, descriptor.key), address, descriptor, unit.parameters[descriptor.key] ?? descriptor.defaultValue)
                }
                let bypass: ParameterAddress = isBus ? .busUnitBypass(bus: owner, unit: unitIndex) : .unitBypass(strip: owner, unit: unitIndex)
                add(Path.unit(ownerKind: kind, name, unit.id, Key.bypass), bypass, Declared.bypass, flag(unit.isBypassed))
                // Host-side: a sandboxed plugin's fault state, which the live session reads from its sandbox and re-enables.
                if let plugin = unit.lv2, PluginIsolation.resolved(plugin.isolation, offline: false).isSandboxed {
                    add(Path.unit(ownerKind: kind, name, unit.id, Key.faulted), .host(.pluginFaulted(isBus: isBus, owner: owner, unit: unitIndex)),
                        HostParameter.faulted, 0)
                }
            }
        }
        for (index, strip) in preset.strips.enumerated() {
            let name = strip.name
            add(Path.strip(name, Key.trim), strip.trimCompensates ? .stripTrimCompensated(strip: index) : .stripTrim(strip: index), Declared.trim, strip.trimDB)
            add(Path.strip(name, Key.gain), .stripGain(strip: index), Declared.gain, strip.gainDB)
            add(Path.strip(name, Key.pan), .stripPan(strip: index), Declared.pan, strip.pan)
            add(Path.strip(name, Key.mute), .stripMute(strip: index), Declared.mute, flag(strip.isMuted))
            add(Path.strip(name, Key.solo), .stripSolo(strip: index), Declared.solo, flag(strip.isSoloed))
            add(Path.strip(name, Key.enabled), .stripEnabled(strip: index), Declared.enabled, flag(strip.isEnabled))
            add(Path.strip(name, Key.trimCompensation), .stripTrimCompensation(strip: index), Declared.trimCompensation, 0)
            if strip.talkback != nil { add(Path.strip(name, Key.talkback), .talkback(strip: index), Declared.talkback, 0) }
            for (sendIndex, send) in strip.sends.enumerated() {
                add(Path.send(name, send.busName), .sendGain(strip: index, send: sendIndex), Declared.gain, send.gainDB, musician: send.busName)
                add(Path.send(name, send.busName, Key.mute), .sendMute(strip: index, send: sendIndex), Declared.mute, flag(send.isMuted), musician: send.busName)
                if preset.bus(named: send.busName)?.isBinaural == true {
                    for axis in BinauralAxis.allCases {
                        add(Path.send(name, send.busName, axis.key), .sendPosition(strip: index, send: sendIndex, axis: axis), axis.descriptor,
                            axis.value(of: send.position ?? BinauralPosition()), musician: send.busName)
                    }
                    if strip.channels == 2 {
                        add(Path.send(name, send.busName, Key.width), .sendWidth(strip: index, send: sendIndex), Declared.width, send.width ?? 1, musician: send.busName)
                    }
                } else if preset.bus(named: send.busName)?.channels == 2 {
                    add(Path.send(name, send.busName, Key.pan), .sendPan(strip: index, send: sendIndex), Declared.pan, send.pan ?? strip.pan, musician: send.busName)
                    if strip.channels == 2 {
                        add(Path.send(name, send.busName, Key.width), .sendWidth(strip: index, send: sendIndex), Declared.width, send.width ?? 1, musician: send.busName)
                    }
                }
            }
            addUnits(strip.units, isBus: false, owner: index, name: name)
            // Host-side: the file source's disk thread, the sound-check take's switch (refused while no take plays).
            for parameter in SourceParameters.all {
                guard let source = strip.source else { break }
                add(Path.source(name, parameter.key), .host(parameter.hostParameter(strip: index)), parameter.descriptor,
                    SourceParameters.value(of: parameter, in: source))
            }
            if strip.hasInputPorts { add(Path.strip(name, Key.input), .host(.stripInput(strip: index)), HostParameter.input, 0) }
        }
        for (index, bus) in preset.buses.enumerated() {
            add(Path.bus(bus.name, Key.gain), .busGain(bus: index), Declared.gain, bus.gainDB, musician: bus.name)
            add(Path.bus(bus.name, Key.mute), .busMute(bus: index), Declared.mute, flag(bus.isMuted), musician: bus.name)
            if let limiter = bus.limiter {
                add(Path.bus(bus.name, Key.limiterCeiling), .busLimiterCeiling(bus: index), Declared.limiterCeiling, limiter.ceilingDB)
                add(Path.bus(bus.name, Key.limiterRelease), .busLimiterRelease(bus: index), Declared.limiterRelease, limiter.releaseMs)
            }
            if let roomDB = bus.roomDB {
                add(Path.bus(bus.name, Key.roomLevel), .busRoomLevel(bus: index), Declared.roomLevel, roomDB, musician: bus.name)
            }
            addUnits(bus.units, isBus: true, owner: index, name: bus.name)
        }
        for (index, dca) in preset.dcas.enumerated() {
            add(Path.dca(dca.name, Key.gain), .dcaGain(dca: index), Declared.gain, dca.gainDB)
            add(Path.dca(dca.name, Key.mute), .dcaMute(dca: index), Declared.mute, flag(dca.isMuted))
        }
        for (index, group) in preset.muteGroups.enumerated() {
            add(Path.muteGroup(group.name), .muteGroup(group: index), Declared.mute, flag(group.isMuted))
        }
        if let cue = preset.cue {
            add(Path.cue(Key.gain), .cueGain, Declared.gain, cue.gainDB)
            add(Path.cue(Key.clear), .cueClear, Declared.cueClear, 0)
            for (index, bus) in preset.buses.enumerated() { add(Path.cueBus(bus.name), .cueBus(bus: index), Declared.cueSelection(bus.name), 0) }
            for (index, strip) in preset.strips.enumerated() {
                add(Path.cueStrip(strip.name, Key.pfl), .cuePFL(strip: index), Declared.cueSelection(Key.pfl), 0)
                add(Path.cueStrip(strip.name, Key.afl), .cueAFL(strip: index), Declared.cueSelection(Key.afl), 0)
            }
        }
        if preset.strips.contains(where: \.hasInputPorts) { add(Path.allInputs, .host(.allInputs), HostParameter.input, 0) }
        if let bpm = preset.echoTempo {   // the show tempo, where an echo follows it
            add(Path.tempo(Key.bpm), .host(.showTempo), HostParameter.tempo, bpm)
            add(Path.tempo(Key.source), .host(.tempoSource), HostParameter.tempoSourceDescriptor, Float(TempoSource.setlist.rawValue))
        }
        self.init(nodes: nodes)
    }
}

extension ParameterSchema {
    /// This key as the engine declares a parameter (a number's range, a switch, a choice's values).
    public var descriptor: ParameterDescriptor {
        switch kind {
        case .number(let range): return ParameterDescriptor(key: key, range: range, defaultValue: defaultValue, summary: summary)
        case .bool: return .toggle(key: key, defaultValue: defaultValue, summary: summary)
        case .choice(let choices):
            let values = choices.map(\.value)
            return ParameterDescriptor(
                key: key, range: (values.min() ?? 0)...(values.max() ?? 0), defaultValue: defaultValue,
                choices: choices.map { ParameterChoice(name: $0.name, value: $0.value) }, summary: summary)
        }
    }
}

/// The last tree built, for the graph it describes (held weakly, so a retired graph is freed as before).
private final class CachedTree: @unchecked Sendable {
    weak var graph: EngineGraph?
    let presetPath: String
    let tree: ParameterTree

    init(graph: EngineGraph, presetPath: String, tree: ParameterTree) {
        self.graph = graph
        self.presetPath = presetPath
        self.tree = tree
    }
}

private let cache = Mutex<CachedTree?>(nil)
