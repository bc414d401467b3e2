// Validates one `[[strip]]` table and its `[[strip.send]]` tables into a StripSpec. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine

/// Reads and checks a `[[strip]]` table.
enum StripDecoder {
    /// The keys a `[[strip]]` table accepts.
    /// The JACK MIDI input `foldback run` registers; no strip's input port may take its name.
    static let reservedMIDIPort = "midi_in"

    static let keys = ["name", "channels", ParameterTree.Key.gain, ParameterTree.Key.pan, ParameterTree.Key.mute, ParameterTree.Key.solo, ParameterTree.Key.enabled, "connect", "unit", "send", "source", "return", ParameterTree.Key.trim, "trim_compensate", "talkback", "talk_to", "dim_db", "x32_channel", "recall_safe",
        "label"]
    /// The keys a `[[strip.send]]` table accepts.
    static let sendKeys = [
        "bus", ParameterTree.Key.gain, "pre_fader", ParameterTree.Key.pan, ParameterTree.Key.width, ParameterTree.Key.mute,
    ] + BinauralAxis.allCases.map(\.key)

    /// The buses sends may name. `isComplete` is false when some bus name was invalid,
    /// so an unknown-bus error would only repeat that problem.
    struct BusNames {
        var names: [String]
        var isComplete: Bool
        /// Channel counts by bus name, for a return strip that does not declare its own.
        var channels: [String: Int] = [:]
        /// The buses with `binaural = true` (a send's position means something only there).
        var binaural: Set<String> = []
    }

    /// The strip, or nil if its name is missing or invalid (already reported).
    static func decode(_ reader: TableReader, buses: BusNames, plugins: any PluginCatalog) -> StripSpec? {
        reader.checkKeys(allowed: keys)
        let name = reader.name("name", what: "strip name", required: true)
        let owner = name.map { "strip '\($0)'" } ?? "this strip"
        let returnBus = decodeReturn(reader, buses: buses)
        let declaredChannels = reader.channels(default: returnBus.flatMap { buses.channels[$0] } ?? 1)
        let channels = declaredChannels ?? 1
        let gainDB = reader.number(ParameterTree.Key.gain, in: BusDecoder.levelRange, default: 0)
        let pan = reader.number("pan", in: -1...1, default: 0)
        let isMuted = reader.bool("mute", default: false)
        let isSoloed = reader.bool("solo", default: false)
        let isEnabled = reader.bool("enabled", default: true)
        let connections = reader.connections(channels: channels, isChannelCountKnown: declaredChannels != nil, owner: owner)
        let units = UnitDecoder.decodeChain(reader.tables("unit", label: "[[strip.unit]]") ?? [], owner: owner, plugins: plugins)
        let sends = decodeSends(reader.tables("send", label: "[[strip.send]]") ?? [], buses: buses, owner: owner, channels: channels)
        let source = FileSourceDecoder.decode(reader, hasConnections: reader.table["connect"] != nil)
        let label = reader.displayLabel()
        guard let name else { return nil }
        if channels == 1, source == nil, PortNaming.inputPortNames(strip: name, channels: 1) == [reservedMIDIPort] {
            reader.log.error(
                "strip name '\(name)' would make the input port '\(reservedMIDIPort)', which is Foldback's MIDI input; pick another name",
                at: reader.valueLocation("name"))
            return nil
        }
        var strip = StripSpec(
            name: name, channels: channels, gainDB: gainDB, pan: pan, isMuted: isMuted, isSoloed: isSoloed,
            isEnabled: isEnabled, connections: connections, units: units, sends: sends, location: reader.location
        )
        strip.source = source
        strip.returnBus = returnBus
        strip.returnLocation = returnBus == nil ? nil : reader.valueLocation("return")
        strip.trimDB = reader.number(ParameterTree.Key.trim, in: EngineGraph.trimRange, default: 0)
        strip.trimCompensates = reader.bool("trim_compensate", default: false)
        strip.isRecallSafe = reader.bool("recall_safe", default: false)
        strip.talkback = TalkbackDecoder.decode(reader, buses: buses)
        if reader.table["x32_channel"] != nil {
            let channel = reader.number("x32_channel", in: 1...32, default: 0)
            if channel != channel.rounded() {
                reader.log.error("'x32_channel' is a whole channel number, 1 to 32", at: reader.valueLocation("x32_channel"))
            } else if channel >= 1 {
                strip.x32Channel = Int(channel)
            }
        }
        strip.label = label
        return strip
    }

    /// The bus named by `return`, if it is given and exists; a return has no ports to connect and plays no file.
    private static func decodeReturn(_ reader: TableReader, buses: BusNames) -> String? {
        guard reader.table["return"] != nil, let busName = reader.requiredString("return") else { return nil }
        if buses.isComplete, !buses.names.contains(busName) {
            let hint = Suggestion.hint(for: busName, in: buses.names, fallbackLabel: "the buses are")
            reader.log.error("return of unknown bus '\(busName)'\(hint)", at: reader.valueLocation("return"))
            return nil
        }
        for key in ["connect", "source"] where reader.table[key] != nil {
            reader.log.error("a return strip takes its input from bus '\(busName)', so it cannot have '\(key)'", at: reader.keyLocation(key))
        }
        return busName
    }

    /// The strip's sends, each to a known bus and at most one per bus.
    private static func decodeSends(_ readers: [TableReader], buses: BusNames, owner: String, channels: Int) -> [SendSpec] {
        var targets = NameRegistry(what: "send to bus")
        var sends: [SendSpec] = []
        for reader in readers {
            reader.checkKeys(allowed: sendKeys)
            let busName = reader.requiredString("bus")
            let gainDB = reader.number(ParameterTree.Key.gain, in: BusDecoder.levelRange, default: 0)
            let isPreFader = reader.bool("pre_fader", default: false)
            let isMuted = reader.bool(ParameterTree.Key.mute, default: false)
            let pan = reader.table[ParameterTree.Key.pan] != nil ? reader.number(ParameterTree.Key.pan, in: -1...1, default: 0) : nil
            let width = reader.table[ParameterTree.Key.width] != nil
                ? reader.number(ParameterTree.Key.width, in: ParameterTree.EngineParameters.width.range, default: 1) : nil
            var position: BinauralPosition?
            for axis in BinauralAxis.allCases where reader.table[axis.key] != nil {
                let value = reader.number(axis.key, in: axis.range, default: axis.descriptor.defaultValue)
                position = axis.setting(value, in: position ?? BinauralPosition())
            }
            guard let busName else { continue }
            if buses.isComplete, !buses.names.contains(busName) {
                let hint = Suggestion.hint(for: busName, in: buses.names, fallbackLabel: "the buses are")
                reader.log.error("send to unknown bus '\(busName)'\(hint)", at: reader.valueLocation("bus"))
                continue
            }
            if pan != nil, buses.channels[busName] == 1 {
                reader.log.warning("'pan' on a send into mono bus '\(busName)' has no effect", at: reader.keyLocation(ParameterTree.Key.pan))
            }
            if width != nil, buses.channels[busName] == 1 || channels == 1 {
                let reason = channels == 1 ? "from a mono strip" : "into mono bus '\(busName)'"
                reader.log.warning("'width' on a send \(reason) has no effect", at: reader.keyLocation(ParameterTree.Key.width))
            }
            if let axis = BinauralAxis.allCases.first(where: { reader.table[$0.key] != nil }), buses.isComplete, !buses.binaural.contains(busName) {
                reader.log.warning("'\(axis.key)' on a send into bus '\(busName)', which is not binaural, has no effect (binaural = true on the bus places its sends)",
                                   at: reader.keyLocation(axis.key))
            }
            let isNew = targets.register(busName, at: reader.valueLocation("bus"), context: " from \(owner)", log: reader.log)
            guard isNew else { continue }
            var spec = SendSpec(busName: busName, gainDB: gainDB, isPreFader: isPreFader, pan: pan, width: width, isMuted: isMuted, location: reader.location)
            spec.position = position
            sends.append(spec)
        }
        return sends
    }
}
