// Validates one `[[bus]]` table into a BusSpec. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import Foundation

/// Reads and checks a `[[bus]]` table.
enum BusDecoder {
    /// The keys a `[[bus]]` table accepts.
    static let keys = [
        "name", "channels", ParameterTree.Key.gain, ParameterTree.Key.mute, "connect", "in_ear", "limiter", "limiter_mode", ParameterTree.Key.limiterCeiling, ParameterTree.Key.limiterRelease,
        "unit", "output", "compensate", "recall_safe", "x32_main",
        "label", "binaural", "hrtf", "listener", ParameterTree.Key.room, ParameterTree.Key.roomLevel,
    ]
    /// `limiter_mode` values, as choices.
    static let limiterModes = LimiterMode.allCases.enumerated().map { ParameterSchema.Choice(name: $1.name, value: Float($0)) }
    /// The range of bus and strip levels, in dB.
    static let levelRange: ClosedRange<Float> = -144...24

    /// `limiter_ceiling_db`, `limiter_release_ms` and `limiter_mode` of a bus or the cue, with Foldback's defaults.
    static func limiterSettings(_ reader: TableReader, defaultMode: LimiterMode) -> LimiterSettings {
        let defaults = LimiterSettings()
        let modeIndex = reader.choice("limiter_mode", among: limiterModes, default: Float(LimiterMode.allCases.firstIndex(of: defaultMode) ?? 0))
        return LimiterSettings(
            ceilingDB: reader.number(ParameterTree.Key.limiterCeiling, in: ParameterTree.EngineParameters.limiterCeiling.range, default: defaults.ceilingDB),
            releaseMs: reader.number(ParameterTree.Key.limiterRelease, in: ParameterTree.EngineParameters.limiterRelease.range, default: defaults.releaseMs),
            mode: LimiterMode.allCases[Int(modeIndex)])
    }

    /// `binaural` and `hrtf`: a stereo bus only; `hrtf` only with `binaural = true`, naming a file that exists.
    private static func decodeBinaural(_ reader: TableReader, into bus: inout BusSpec, owner: String) {
        bus.isBinaural = reader.bool("binaural", default: false)
        if bus.isBinaural, bus.channels != 2 {
            reader.log.error("\(owner) has \(bus.channels) channel(s); a binaural bus is stereo (channels = 2)", at: reader.keyLocation("binaural"))
        }
        decodeRoom(reader, into: &bus, owner: owner)
        if let listener = reader.string("listener") {   // checked against [stage]'s players once it is read
            if !bus.isBinaural {
                reader.log.error("'listener' places a binaural bus's sources from the stage plot; add binaural = true to \(owner) or remove 'listener'",
                                 at: reader.keyLocation("listener"))
            }
            bus.listener = listener
            bus.listenerLocation = reader.valueLocation("listener")
        }
        guard let path = reader.string("hrtf") else { return }
        if !bus.isBinaural {
            reader.log.error("'hrtf' is the HRTF set of a binaural bus; add binaural = true to \(owner) or remove 'hrtf'", at: reader.keyLocation("hrtf"))
        }
        bus.hrtfPath = path
        bus.hrtfLocation = reader.valueLocation("hrtf")
        let file = bus.hrtfFile(presetPath: reader.location.file)
        if !FileManager.default.isReadableFile(atPath: file) {
            reader.log.error("\(owner): HRTF file '\(path)' cannot be read (\(file))", at: reader.valueLocation("hrtf"))
        }
    }

    /// `room` and `room_db`: a binaural bus only; `room_db` only with `room = true`.
    private static func decodeRoom(_ reader: TableReader, into bus: inout BusSpec, owner: String) {
        let hasRoom = reader.bool(ParameterTree.Key.room, default: false)
        if hasRoom, !bus.isBinaural {
            reader.log.error("'room' adds early reflections and a short tail to a binaural bus; add binaural = true to \(owner) or remove 'room'",
                             at: reader.keyLocation(ParameterTree.Key.room))
        }
        if !hasRoom, reader.table[ParameterTree.Key.roomLevel] != nil {
            reader.log.error("'room_db' is the level of a binaural bus's room; add room = true to \(owner) or remove 'room_db'",
                             at: reader.keyLocation(ParameterTree.Key.roomLevel))
        }
        let levelDB = reader.number(ParameterTree.Key.roomLevel, in: BinauralRoom.levelRange, default: 0)
        if hasRoom { bus.roomDB = levelDB }
    }

    /// The bus, or nil if its name is missing or invalid (already reported).
    static func decode(_ reader: TableReader, plugins: any PluginCatalog) -> BusSpec? {
        reader.checkKeys(allowed: keys)
        let name = reader.name("name", what: "bus name", required: true)
        let declaredChannels = reader.channels(default: 2)
        let channels = declaredChannels ?? 2
        let gainDB = reader.number(ParameterTree.Key.gain, in: levelRange, default: 0)
        let isMuted = reader.bool(ParameterTree.Key.mute, default: false)
        let owner = name.map { "bus '\($0)'" } ?? "this bus"
        let connections = reader.connections(channels: channels, isChannelCountKnown: declaredChannels != nil, owner: owner)
        let isInEar = reader.bool("in_ear", default: false)
        let isLimited = reader.bool("limiter", default: true)
        let limiter = limiterSettings(reader, defaultMode: isInEar ? .zeroLatency : .lookahead)
        let units = UnitDecoder.decodeChain(reader.tables("unit", label: "[[bus.unit]]") ?? [], owner: owner, plugins: plugins)
        let hasOutput = reader.bool("output", default: true)
        let isCompensated = reader.bool("compensate", default: true)
        if !hasOutput, reader.table["connect"] != nil {
            reader.log.error("\(owner) has output = false, so it has no ports to connect; remove 'connect'", at: reader.keyLocation("connect"))
        }
        let isRecallSafe = reader.bool("recall_safe", default: false)
        let label = reader.displayLabel()
        guard let name else { return nil }
        var bus = BusSpec(
            name: name, channels: channels, gainDB: gainDB, isMuted: isMuted,
            connections: connections, limiter: isLimited ? limiter : nil, isInEar: isInEar, location: reader.location
        )
        (bus.units, bus.hasOutput, bus.isCompensated) = (units, hasOutput, isCompensated)
        bus.isRecallSafe = isRecallSafe
        bus.isX32Main = reader.bool("x32_main", default: false)
        bus.label = label
        decodeBinaural(reader, into: &bus, owner: owner)
        return bus
    }
}
