// Writes a Preset model as TOML text that PresetLoader reads back to the same preset. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a ``Preset`` into preset-file text: `[preset]`, every `[[bus]]`, every `[[strip]]` with its units and
/// sends, then `[midi]` and `[web]`. Every value is written explicitly, so loading the text gives back an equal preset
/// (comments and the original layout are not kept).
///
/// Unit types write their own keys: ``unitWriters`` maps a type to the lines after `type`, `id` and `bypass`;
/// types without an entry write their schema's parameters. A new unit type with state beyond its
/// parameters (an EQ's bands, a plugin's state) adds an entry.
public enum PresetWriter {
    /// Writes the body of one `[[strip.unit]]` table (after `type`, `id` and `bypass`) into `text`.
    public typealias UnitWriter = @Sendable (_ unit: UnitSpec, _ text: inout TOMLText) -> Void

    /// Per unit type, how its table is written; see ``writeSchemaParameters(of:into:)`` for the default.
    public static let unitWriters: [String: UnitWriter] = [
        UnitSchema.eq.type: { unit, text in
            writeSchemaParameters(of: unit, into: &text)
            EQBandWriter.write(unit, into: &text)
        },
        UnitSchema.lv2.type: { unit, text in LV2UnitWriter.write(unit, into: &text) },
        UnitSchema.feedback.type: { unit, text in
            writeSchemaParameters(of: unit, into: &text)
            EQBandWriter.write(unit, into: &text)
        },
    ]

    /// The preset as TOML text.
    public static func text(for preset: Preset) -> String {
        var text = TOMLText()
        if preset.name != nil || preset.description != nil || !preset.recallSafe.paths.isEmpty || !preset.isGatingEnabled {
            text.table("[preset]")
            text.key("name", string: preset.name)
            text.key("description", string: preset.description)
            if !preset.isGatingEnabled { text.raw("gating", "false") }
            if !preset.recallSafe.paths.isEmpty { text.raw("recall_safe", "[" + preset.recallSafe.paths.map(TOMLText.quoted).joined(separator: ", ") + "]") }
        }
        if let cue = preset.cue {
            text.table("[cue]")
            text.key(ParameterTree.Key.gain, cue.gainDB)
            writeLimiterSettings(cue.limiter, into: &text)
            text.key("connect", connections: cue.connections)
        }
        for bus in preset.buses { write(bus, into: &text) }
        for strip in preset.strips { write(strip, into: &text) }
        for (table, groups) in [("[[dca]]", preset.dcas), ("[[mute_group]]", preset.muteGroups)] {
            for group in groups {
                text.table(table)
                text.key("name", string: group.name)
                text.raw("strips", "[" + group.strips.map(TOMLText.quoted).joined(separator: ", ") + "]")
                if table == "[[dca]]" { text.key(ParameterTree.Key.gain, group.gainDB) }
                text.key(ParameterTree.Key.mute, group.isMuted)
            }
        }
        for player in preset.stage?.players ?? [] {   // positions are written on the sends too, so the plot only documents them
            text.table("[[stage.player]]")
            text.key("name", string: player.name)
            text.key("x_m", player.xM)
            text.key("y_m", player.yM)
            text.key("facing_deg", player.facingDeg)
            text.raw("strips", "[" + player.strips.map(TOMLText.quoted).joined(separator: ", ") + "]")
        }
        MIDIMapWriter.write(preset.midi, into: &text)
        preset.web.write(into: &text)
        if let buses = preset.x32Buses {
            text.table("[x32]")
            text.raw("buses", "[" + buses.map(TOMLText.quoted).joined(separator: ", ") + "]")
        }
        return text.output
    }

    /// Writes `preset` to `path` (through a temporary file renamed over it, so a crash never leaves half a preset).
    /// - Throws: ``PresetError`` naming the path and the system's reason.
    public static func write(_ preset: Preset, to path: String) throws(PresetError) {
        let temporary = path + ".tmp-\(getpid())"
        let bytes = Array(text(for: preset).utf8)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw failure(path, errno) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(descriptor)
                unlink(temporary)
                throw failure(path, code)
            }
            offset += written
        }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard synced, rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure(path, code)
        }
    }

    private static func failure(_ path: String, _ code: Int32) -> PresetError {
        let reason = String(cString: strerror(code))
        return PresetError(diagnostics: [PresetDiagnostic(
            location: SourceLocation(file: path, line: 0, column: 0), message: "cannot write preset '\(path)': \(reason)")])
    }

    private static func write(_ bus: BusSpec, into text: inout TOMLText) {
        text.table("[[bus]]")
        text.key("name", string: bus.name)
        text.key("label", string: bus.label)
        text.key("channels", bus.channels)
        text.key(ParameterTree.Key.gain, bus.gainDB)
        text.key("mute", bus.isMuted)
        text.key("connect", connections: bus.connections)
        text.key("in_ear", bus.isInEar)
        if bus.isRecallSafe { text.key("recall_safe", true) }
        if bus.isX32Main { text.key("x32_main", true) }
        if let limiter = bus.limiter {
            text.key("limiter", true)
            writeLimiterSettings(limiter, into: &text)
        } else {
            text.key("limiter", false)
        }
        if !bus.hasOutput { text.key("output", false) }
        if !bus.isCompensated { text.key("compensate", false) }
        if bus.isBinaural { text.key("binaural", true) }
        if let path = bus.hrtfPath { text.key("hrtf", string: path) }
        text.key("listener", string: bus.listener)
        if let roomDB = bus.roomDB {
            text.key("room", true)
            if roomDB != 0 { text.key("room_db", roomDB) }
        }
        writeUnits(bus.units, path: "bus.unit", into: &text)
    }

    private static func write(_ strip: StripSpec, into text: inout TOMLText) {
        text.table("[[strip]]")
        text.key("name", string: strip.name)
        text.key("label", string: strip.label)
        text.key("channels", strip.channels)
        text.key(ParameterTree.Key.gain, strip.gainDB)
        text.key("pan", strip.pan)
        text.key("mute", strip.isMuted)
        text.key("solo", strip.isSoloed)
        text.key("enabled", strip.isEnabled)
        text.key("connect", connections: strip.connections)
        text.key("return", string: strip.returnBus)
        if let source = strip.source { text.raw("source", FileSourceSpec.inlineTable(source)) }
        if strip.trimDB != 0 { text.key(ParameterTree.Key.trim, strip.trimDB) }
        if strip.trimCompensates { text.key("trim_compensate", true) }
        if let channel = strip.x32Channel { text.key("x32_channel", channel) }
        if strip.isRecallSafe { text.key("recall_safe", true) }
        if let talkback = strip.talkback {
            text.key("talkback", true)
            text.raw("talk_to", "[" + talkback.busNames.map(TOMLText.quoted).joined(separator: ", ") + "]")
            text.key("dim_db", talkback.dimDB)
        }
        writeUnits(strip.units, path: "strip.unit", into: &text)
        for send in strip.sends {
            text.table("[[strip.send]]")
            text.key("bus", string: send.busName)
            text.key(ParameterTree.Key.gain, send.gainDB)
            text.key("pre_fader", send.isPreFader)
            if let pan = send.pan { text.key(ParameterTree.Key.pan, pan) }
            if let width = send.width { text.key(ParameterTree.Key.width, width) }
            if let position = send.position {
                for axis in BinauralAxis.allCases { text.key(axis.key, axis.value(of: position)) }
            }
            if send.isMuted { text.key(ParameterTree.Key.mute, true) }
        }
    }

    private static func writeLimiterSettings(_ limiter: LimiterSettings, into text: inout TOMLText) {
        text.key("limiter_mode", string: limiter.mode.name)
        text.key(ParameterTree.Key.limiterCeiling, limiter.ceilingDB)
        text.key(ParameterTree.Key.limiterRelease, limiter.releaseMs)
    }

    /// Writes a strip's or bus's units, each as a `[[path]]` table (`strip.unit` or `bus.unit`).
    private static func writeUnits(_ units: [UnitSpec], path: String, into text: inout TOMLText) {
        text.unitPath = path
        for unit in units {
            text.table("[[\(path)]]")
            text.key("type", string: unit.type)
            text.key("id", string: unit.id)
            text.key("bypass", unit.isBypassed)
            if unit.isRecallSafe { text.key("recall_safe", true) }
            if let writer = unitWriters[unit.type] {
                writer(unit, &text)
            } else {
                writeSchemaParameters(of: unit, into: &text)
            }
        }
    }

    /// Writes each parameter of the unit's schema in its preset spelling (numbers, `true`/`false`, choice names).
    public static func writeSchemaParameters(of unit: UnitSpec, into text: inout TOMLText) {
        guard let schema = UnitSchema.named(unit.type) else { return }
        for parameter in schema.parameters {
            guard let value = unit.parameters[parameter.key] else { continue }
            switch parameter.kind {
            case .number: text.key(parameter.key, value)
            case .bool: text.key(parameter.key, value != 0)
            case .choice: text.key(parameter.key, string: parameter.displayValue(value))
            }
        }
    }
}
