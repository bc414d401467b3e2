// Validates a parsed TOML document into a Preset, collecting every problem. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import TOMLKit

/// Turns a parsed preset document into the model, or into the list of everything wrong with it.
enum PresetDecoder {
    /// The keys allowed at the top level.
    static let rootKeys = ["preset", "bus", "strip", "midi", "web", "cue", "dca", "mute_group", "x32", "stage"]
    /// The keys of the `[preset]` table.
    static let infoKeys = ["name", "description", "recall_safe", "isolation", "on_fault", "gating"]

    /// The validated preset, its `lv2` units checked against `plugins`; throws every error found (and any warnings) otherwise.
    static func decode(
        _ root: TOMLTable, locator: SourceLocator, plugins: any PluginCatalog, log: DiagnosticLog = DiagnosticLog()
    ) throws(PresetError) -> Preset {
        let reader = TableReader(table: root, path: .root, locator: locator, log: log, label: "the top level")
        reader.checkKeys(allowed: rootKeys)
        let info = reader.subtable("preset", label: "[preset]")
        info?.checkKeys(allowed: infoKeys)
        let name = info?.string("name")
        let description = info?.string("description")
        let recallSafe = info.map { RecallSafes.decodePaths($0) } ?? []
        let isolation = info?.keyword("isolation", as: PluginIsolation.self)
        let onFault = info?.keyword("on_fault", as: PluginFaultAction.self) ?? .bypass
        let isGatingEnabled = info?.bool("gating", default: true) ?? true

        let busReaders = reader.tables("bus", label: "[[bus]]") ?? []
        requireOneOrMore("bus", plural: "buses", in: reader)
        var buses: [BusSpec] = []
        var busNames = NameRegistry(what: "bus name")
        var mains = NameRegistry(what: "bus with"), x32Channels = NameRegistry(what: "x32_channel")
        for busReader in busReaders {
            guard let bus = BusDecoder.decode(busReader, plugins: plugins) else { continue }
            busNames.register(bus.name, at: busReader.valueLocation("name"), log: log)
            if bus.isX32Main { mains.register("x32_main = true", at: busReader.valueLocation("x32_main"), log: log) }
            buses.append(bus)
        }

        let stripReaders = reader.tables("strip", label: "[[strip]]") ?? []
        requireOneOrMore("strip", plural: "strips", in: reader)
        let knownBuses = StripDecoder.BusNames(
            names: buses.map(\.name), isComplete: buses.count == busReaders.count,
            channels: Dictionary(buses.map { ($0.name, $0.channels) }, uniquingKeysWith: { first, _ in first }),
            binaural: Set(buses.filter(\.isBinaural).map(\.name)))
        var strips: [StripSpec] = []
        var stripNames = NameRegistry(what: "strip name")
        for stripReader in stripReaders {
            guard let strip = StripDecoder.decode(stripReader, buses: knownBuses, plugins: plugins) else { continue }
            stripNames.register(strip.name, at: stripReader.valueLocation("name"), log: log)
            if let channel = strip.x32Channel {   // a stereo strip takes its channel's linked pair (7 or 8: 7-8)
                let pair = (channel - 1) / 2 * 2 + 1
                let taken = strip.channels > 1 ? [pair, pair + 1] : [channel]
                let context = strip.channels > 1 ? " (stereo strip '\(strip.name)' takes the pair \(pair)-\(pair + 1))" : ""
                for number in taken { x32Channels.register(String(number), at: stripReader.valueLocation("x32_channel"), context: context, log: log) }
            }
            strips.append(strip)
        }

        PluginIsolation.fillDefaults(isolation, onFault: onFault, strips: &strips, buses: &buses)
        let stage = StageDecoder.decode(reader.subtable("stage", label: "[stage]"), strips: strips.map(\.name))
        StageDecoder.checkListeners(buses, stage: stage, log: log)
        if !log.hasErrors, strips.count == stripReaders.count {   // a send's own azimuth_deg / distance_m wins over the plot
            StageDecoder.place(&strips, buses: buses, stage: stage) { strip, send, axis in
                guard let sends = stripReaders[strip].table["send"]?.array, send < sends.count else { return false }
                return sends[send].table?[axis.key] != nil
            }
        }
        SendLoopCheck.report(strips: strips, log: log)
        var routing = Preset(buses: buses, strips: strips, path: locator.file)
        routing.cue = CueDecoder.decode(reader.subtable("cue", label: "[cue]"), buses: buses)
        routing.dcas = StripGroupDecoder.decode(reader.tables("dca", label: "[[dca]]") ?? [], isDCA: true, strips: strips.map(\.name))
        routing.muteGroups = StripGroupDecoder.decode(reader.tables("mute_group", label: "[[mute_group]]") ?? [], isDCA: false, strips: strips.map(\.name))
        let midi = MIDIMapDecoder.decode(reader.subtable("midi", label: "[midi]"), preset: routing)
        let web = WebDecoder.decode(reader.subtable("web", label: "[web]"), buses: buses)
        let x32Buses = reader.subtable("x32", label: "[x32]").flatMap { section in
            section.checkKeys(allowed: ["buses"])
            return section.nameList(
                "buses", what: "bus", known: buses.map(\.name), expected: "an array of bus names", allowsEmpty: true,
                unknownLabel: "no bus named", knownLabel: "buses")
        }
        guard !log.hasErrors else { throw PresetError(diagnostics: log.sortedDiagnostics()) }
        // Only a valid preset is checked for odd routing: after an error (a send to a misspelt
        // bus, say) these warnings would only echo it.
        warnAboutUnusedRouting(strips: strips, buses: buses, log: log)
        var preset = Preset(
            name: name, description: description, buses: buses, strips: strips,
            path: locator.file, warnings: log.sortedWarnings(), midi: midi, web: web
        )
        preset.cue = routing.cue
        preset.x32Buses = x32Buses
        preset.dcas = routing.dcas
        preset.muteGroups = routing.muteGroups
        preset.isGatingEnabled = isGatingEnabled
        preset.stage = stage
        preset.recallSafe = RecallSafes(paths: recallSafe.map(\.path))
        RecallSafes.check(recallSafe, in: preset, log: log)
        guard !log.hasErrors else { throw PresetError(diagnostics: log.sortedDiagnostics()) }
        return preset
    }

    /// Reports a top-level array of tables that is absent or empty (other shapes are reported when read).
    private static func requireOneOrMore(_ key: String, plural: String, in reader: TableReader) {
        let value = reader.table[key]
        guard value == nil || value?.array?.isEmpty == true else { return }
        reader.log.error("the preset has no \(plural); add at least one [[\(key)]] table with a name", at: reader.keyLocation(key))
    }

    /// Warns about strips heard nowhere and buses fed by nothing; both load, but are rarely meant.
    private static func warnAboutUnusedRouting(strips: [StripSpec], buses: [BusSpec], log: DiagnosticLog) {
        let returned = Set(strips.compactMap(\.returnBus))
        for bus in buses where !bus.hasOutput && !returned.contains(bus.name) {
            log.warning("effect bus '\(bus.name)' has no outputs and no strip returns it, so it is heard nowhere", at: bus.location)
        }
        for strip in strips where strip.sends.isEmpty && strip.talkback == nil {
            log.warning("strip '\(strip.name)' has no sends, so it is not heard on any bus", at: strip.location)
        }
        let fedBuses = Set(strips.flatMap { $0.sends.map(\.busName) + ($0.talkback?.busNames ?? []) })
        for bus in buses where !fedBuses.contains(bus.name) {
            log.warning("bus '\(bus.name)' receives no sends, so it outputs silence", at: bus.location)
        }
    }
}
