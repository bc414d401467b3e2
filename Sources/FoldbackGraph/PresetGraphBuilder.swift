// Builds the engine's graph description, graph and connection plan from a validated preset. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackPresets
public import FoldbackEngine
public import FoldbackLV2
import FoldbackDSP

/// Turns a ``Preset`` into what the engine and a backend need.
public enum PresetGraphBuilder {
    /// A graph description with fresh unit objects (strips and buses in preset order). With `sampleRate`, binaural
    /// buses get their HRTF sets at that rate; without (a port layout), they are plain stereo buses.
    public static func description(for preset: Preset, hosting: PluginHosting = .live, sampleRate: Double? = nil) throws(PresetError) -> GraphDescription {
        let busIndex = Dictionary(uniqueKeysWithValues: preset.buses.enumerated().map { ($1.name, $0) })
        var strips: [StripDescription] = []
        for strip in preset.strips {
            let units = try UnitFactory.makeUnits(strip.units, hosting: hosting, owner: "strip '\(strip.name)'")
            var sends: [SendDescription] = []
            for send in strip.sends {
                guard let bus = busIndex[send.busName] else {
                    throw PresetError(diagnostics: [PresetDiagnostic(location: send.location, message: "send to unknown bus '\(send.busName)'")])
                }
                var description = SendDescription(bus: bus, gainDB: send.gainDB, isPreFader: send.isPreFader, pan: send.pan, width: send.width, isMuted: send.isMuted)
                description.position = send.position ?? BinauralPosition()
                sends.append(description)
            }
            var description = StripDescription(
                name: strip.name, channels: strip.channels, units: units,
                unitIDs: strip.units.map(\.id), bypassedUnits: strip.units.map(\.isBypassed),
                sends: sends, gainDB: strip.gainDB, pan: strip.pan,
                isMuted: strip.isMuted, isSoloed: strip.isSoloed, isEnabled: strip.isEnabled)
            description.isFileSource = strip.source != nil
            description.returnBus = strip.returnBus.flatMap { busIndex[$0] }
            description.trimDB = strip.trimDB
            if let talkback = strip.talkback {
                // A talkback's sends are its talk_to buses, post-fader at 0 dB: its fader is the talk level.
                description.isTalkback = true
                description.talkbackDimDB = talkback.dimDB
                description.sends = talkback.busNames.compactMap { busIndex[$0].map { SendDescription(bus: $0) } }
            }
            strips.append(description)
        }
        var buses: [BusDescription] = []
        for bus in preset.buses {
            let units = try UnitFactory.makeUnits(bus.units, hosting: hosting, owner: "bus '\(bus.name)'")
            buses.append(BusDescription(
                name: bus.name, channels: bus.channels, gainDB: bus.gainDB, isMuted: bus.isMuted, limiter: bus.limiter,
                units: units, unitIDs: bus.units.map(\.id), bypassedUnits: bus.units.map(\.isBypassed),
                hasOutput: bus.hasOutput, isCompensated: bus.isCompensated))
            if bus.isBinaural, let sampleRate {
                buses[buses.count - 1].hrtf = try HRTFSets.set(for: bus, presetPath: preset.path, sampleRate: sampleRate)
                buses[buses.count - 1].roomDB = bus.roomDB
            }
        }
        var graph = GraphDescription(strips: strips, buses: buses)
        graph.cue = preset.cue.map { CueDescription(gainDB: $0.gainDB, limiter: $0.limiter) }
        func members(_ group: StripGroupSpec) -> [Int] { group.strips.compactMap { name in preset.strips.firstIndex { $0.name == name } } }
        graph.dcas = preset.dcas.map { DCADescription(name: $0.name, strips: members($0), gainDB: $0.gainDB, isMuted: $0.isMuted) }
        graph.muteGroups = preset.muteGroups.map { MuteGroupDescription(name: $0.name, strips: members($0), isMuted: $0.isMuted) }
        graph.isGatingEnabled = preset.isGatingEnabled
        return graph
    }

    /// A prepared graph for `preset` at `sampleRate`, rendering at most `maxFrames` frames at once.
    /// LV2 plugins are hosted for `hosting` (`.offline` runs their background work synchronously).
    /// Engine errors come back as a ``PresetError`` located at the preset's file.
    /// With `predecessor` (the running graph, on a preset switch), LV2 plugins that sit in the same strip
    /// (index and name) under the same unit id with the same URI, setup and channel layout keep running
    /// their instances (see ``EngineGraph/init(_:sampleRate:maxFrames:continuing:)``).
    public static func graph(
        for preset: Preset, sampleRate: Double, maxFrames: Int, hosting: PluginHosting = .live, continuing predecessor: EngineGraph? = nil
    ) throws(PresetError) -> EngineGraph {
        let description = try description(for: preset, hosting: hosting, sampleRate: sampleRate)
        do {
            return try EngineGraph(description, sampleRate: sampleRate, maxFrames: maxFrames, continuing: predecessor)
        } catch {
            throw PresetError(diagnostics: [PresetDiagnostic(
                location: SourceLocation(file: preset.path, line: 0, column: 0), message: error.description)])
        }
    }

    /// The ports this preset needs (before any unit is prepared, so without latency).
    public static func layout(for preset: Preset) throws(PresetError) -> GraphLayout {
        GraphLayout(description: try description(for: preset))
    }

    /// Auto-connections: this client's short port name → the full names of the ports to connect it to.
    public static func connectionPlan(for preset: Preset) -> [String: [String]] {
        var plan: [String: [String]] = [:]
        for strip in preset.strips where strip.hasInputPorts {
            let ports = PortNaming.inputPortNames(strip: strip.name, channels: strip.channels)
            for (port, targets) in zip(ports, strip.connections) where !targets.isEmpty { plan[port] = targets }
        }
        for bus in preset.buses where bus.hasOutput {
            let ports = PortNaming.outputPortNames(bus: bus.name, channels: bus.channels)
            for (port, targets) in zip(ports, bus.connections) where !targets.isEmpty { plan[port] = targets }
        }
        if let cue = preset.cue {
            for (port, targets) in zip(PortNaming.cuePortNames, cue.connections) where !targets.isEmpty { plan[port] = targets }
        }
        return plan
    }
}
