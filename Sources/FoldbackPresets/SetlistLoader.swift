// Reads setlist files (TOML): `[setlist]` and `[[song]]` tables, every problem at file:line:column. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import TOMLKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads setlist files into ``Setlist`` values. See `docs/setlists.md`.
///
/// ```toml
/// [setlist]
/// name = "Friday at the Hall"
///
/// [[song]]
/// name = "Opener"
/// preset = "presets/vocal-monitor.toml"   # relative to this file
/// bpm = 72                                  # optional: the song's tempo, set on every echo
/// ```
public enum SetlistLoader {
    static let rootKeys = ["setlist", "song"]
    static let infoKeys = ["name", "recall", "recall_safe"]
    static let songKeys = ["name", "preset", "bpm"]

    /// Reads and validates the setlist at `path`; preset paths are resolved against its folder and must exist.
    /// - Throws: ``PresetError`` listing every problem, each at file:line:column.
    public static func load(path: String) throws(PresetError) -> Setlist {
        try parse(PresetLoader.readFile(path), path: path)
    }

    /// Validates setlist text; `path` names the file in diagnostics and anchors relative preset paths.
    public static func parse(_ text: String, path: String) throws(PresetError) -> Setlist {
        let root = try TOMLDocument.parse(text, path: path)
        let log = DiagnosticLog()
        let reader = TableReader(table: root, path: .root, locator: SourceLocator(text: text, file: path), log: log, label: "the top level")
        reader.checkKeys(allowed: rootKeys)
        let info = reader.subtable("setlist", label: "[setlist]")
        info?.checkKeys(allowed: infoKeys)
        let name = info?.string("name")
        let recall = info?.string("recall").flatMap { text -> RecallMode? in
            if let mode = RecallMode(rawValue: text) { return mode }
            let names = RecallMode.allCases.map(\.rawValue)
            log.error("'recall' = \"\(text)\" is not one of \(names.map { "\"\($0)\"" }.joined(separator: " or "))"
                      + (Suggestion.closest(to: text, in: names).map { "; did you mean \"\($0)\"?" } ?? ""), at: info?.valueLocation("recall") ?? reader.location)
            return nil
        }
        let safes = info.map { RecallSafes.decodePaths($0) } ?? []
        let songs = reader.tables("song", label: "[[song]]") ?? []
        if songs.isEmpty {
            log.error("the setlist has no songs; add a [[song]] table with a preset for each", at: reader.keyLocation("song"))
        }
        let folder = directory(of: path)
        var entries: [Setlist.Entry] = []
        for song in songs {
            song.checkKeys(allowed: songKeys)
            guard let preset = song.requiredString("preset") else { continue }
            let resolved = preset.hasPrefix("/") || folder.isEmpty ? preset : folder + "/" + preset
            if access(resolved, R_OK) != 0 {
                log.error("preset '\(preset)' cannot be read (looked for \(resolved))", at: song.valueLocation("preset"))
                continue
            }
            let fileName = String(preset.split(separator: "/").last ?? Substring(preset))
            let bpm = song.table["bpm"] == nil ? nil : song.number("bpm", in: Preset.tempoRange, default: Preset.tempoRange.lowerBound)
            entries.append(Setlist.Entry(name: song.string("name") ?? fileName, presetPath: resolved, location: song.location, bpm: bpm))
        }
        guard !log.hasErrors else { throw PresetError(diagnostics: log.sortedDiagnostics()) }
        var setlist = Setlist(name: name, entries: entries, path: path)
        setlist.recall = recall ?? .changes
        setlist.recallSafe = RecallSafes(paths: safes.map(\.path))
        setlist.recallSafeLocations = safes.map(\.location)
        return setlist
    }

    /// Whether the file at `path` reads as a setlist (`[setlist]` or `[[song]]` tables, no buses or strips), so
    /// `foldback check` can take either kind of file.
    public static func isSetlist(path: String) -> Bool {
        guard let text = try? PresetLoader.readFile(path), let root = try? TOMLDocument.parse(text, path: path) else { return false }
        return (root["song"] != nil || root["setlist"] != nil) && root["bus"] == nil && root["strip"] == nil
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
