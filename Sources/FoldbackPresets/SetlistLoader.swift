// Reads setlist files (TOML): `[setlist]` and `[[song]]` tables, every problem at file:line:column. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
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
    static let infoKeys = ["name"]
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
        return Setlist(name: name, entries: entries, path: path)
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
