// Validates a strip's `source` table into a FileSourceSpec: keys, types, ranges, and that the file exists. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import TOMLKit
import Foundation

/// Reads and checks `source = { file = "…", loop = …, gain_db = …, tempo = …, pitch_semitones = …, cents = …, formant = …, engine = … }`.
enum FileSourceDecoder {
    /// The keys a `source` table accepts.
    static let keys = ["file", "loop", ParameterTree.Key.gain, "formant", "engine", "autostart"] + SourceParameters.all.map(\.key)

    /// `autostart = true | false | "song"` (true when absent).
    private static func autostart(_ reader: TableReader) -> FileSourceAutostart {
        guard let value = reader.table["autostart"] else { return .atStart }
        if let bool = value.bool { return bool ? .atStart : .off }
        if value.string == "song" { return .withSong }
        reader.reportType("autostart", expected: "true, false or \"song\"", found: value)
        return .atStart
    }

    /// The strip's file source, or nil if it has none or it is invalid (reported).
    static func decode(_ strip: TableReader, hasConnections: Bool) -> FileSourceSpec? {
        guard let reader = strip.subtable("source", label: "the strip's source") else { return nil }
        reader.checkKeys(allowed: keys)
        let file = reader.requiredString("file")
        let loops = reader.bool("loop", default: false)
        let gainDB = reader.number(ParameterTree.Key.gain, in: BusDecoder.levelRange, default: 0)
        let values = SourceParameters.all.map { reader.number($0.key, in: $0.range, default: $0.defaultValue) }
        let engine = reader.string("engine") ?? "finer"
        if !SourceParameters.engines.contains(engine) {
            reader.log.error("engine must be \(SourceParameters.engines.map { "'\($0)'" }.joined(separator: " or ")), got '\(engine)'", at: reader.valueLocation("engine"))
        }
        if hasConnections {
            strip.log.error("a strip with a file source has no input port: remove 'connect'", at: strip.keyLocation("connect"))
        }
        guard let file else { return nil }
        var spec = FileSourceSpec(
            file: file, presetPath: reader.location.file, loops: loops, gainDB: gainDB, location: reader.valueLocation("file"))
        (spec.tempo, spec.pitchSemitones, spec.cents) = (values[0], values[1], values[2])
        spec.preservesFormant = reader.bool("formant", default: false)
        spec.engine = engine
        spec.autostart = autostart(reader)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: spec.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            reader.log.error("source file '\(file)' not found (looked for \(spec.path))", at: spec.location)
            return nil
        }
        guard FileManager.default.isReadableFile(atPath: spec.path) else {
            reader.log.error("source file '\(file)' is not readable", at: spec.location)
            return nil
        }
        return spec
    }
}
