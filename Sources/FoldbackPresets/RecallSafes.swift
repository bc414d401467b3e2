// Recall scope: which parameters a song change recalls from the new preset, and which stay as set live (safes). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine

/// How much of a newly loaded preset a song change (setlist move, OSC load or reload) recalls.
public enum RecallMode: String, Sendable, Hashable, CaseIterable {
    /// Only what the new preset sets differently from the last preset loaded: a live move survives unless the
    /// next song's file changes that very parameter (the default).
    case changes
    /// Every value from the new preset, as written (a live move survives only where it is safe).
    case full
}

/// Tree paths a song change never recalls (`recall_safe = ["strip/gtr", "strip/keys/send/foh"]` in `[preset]` or
/// `[setlist]`): a path covers itself and every parameter under it.
public struct RecallSafes: Sendable, Hashable {
    /// The paths, as written (`strip/<name>`, `strip/<name>/send/<bus>`, `bus/<name>/gain_db` …).
    public var paths: [String]

    /// Safes covering `paths`.
    public init(paths: [String] = []) {
        self.paths = paths
    }

    /// Whether parameter `path` lies at or under one of ``paths``.
    public func covers(_ path: String) -> Bool {
        paths.contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    /// Whether `entry` names a parameter of `tree` or a folder of them (`strip/vox`, `strip/vox/unit/comp`).
    public static func names(_ entry: String, in tree: ParameterTree) -> Bool {
        tree.nodes.contains { $0.path == entry || $0.path.hasPrefix(entry + "/") }
    }

    /// The folders a safe can name in `tree` (each strip, bus, unit and send), for suggestions.
    static func folders(in tree: ParameterTree) -> [String] {
        var seen = Set<String>(), folders: [String] = []
        for node in tree.nodes {
            let parts = node.path.split(separator: "/").map(String.init)
            for length in [2, 4] where parts.count > length {
                let folder = parts.prefix(length).joined(separator: "/")
                if seen.insert(folder).inserted { folders.append(folder) }
            }
        }
        return folders
    }

    /// The strings of the array at `key` with where each is written (a non-array or non-string entry is reported).
    static func decodePaths(_ reader: TableReader, key: String = "recall_safe") -> [(path: String, location: SourceLocation)] {
        guard let value = reader.table[key] else { return [] }
        guard let list = value.array else {
            reader.reportType(key, expected: "an array of parameter paths (\"strip/gtr\", \"strip/keys/send/foh\")", found: value)
            return []
        }
        var entries: [(path: String, location: SourceLocation)] = []
        for index in 0..<list.count {
            let location = reader.locator.valueLocation(of: reader.path.appending(key).appending(index))
            guard let path = list[index].string, !path.isEmpty else {
                reader.log.error("'\(key)' entry: expected a parameter path such as \"strip/gtr\", found \(TableReader.describe(list[index]))", at: location)
                continue
            }
            entries.append((path.hasSuffix("/") ? String(path.dropLast()) : path, location))
        }
        return entries
    }

    /// Reports each entry of `entries` that names nothing in `preset` (with the closest folder it has).
    static func check(_ entries: [(path: String, location: SourceLocation)], in preset: Preset, log: DiagnosticLog) {
        guard !entries.isEmpty else { return }
        let tree = ParameterTree(preset: preset)
        for entry in entries where !names(entry.path, in: tree) {
            let hint = Suggestion.hint(for: entry.path, in: folders(in: tree), fallbackLabel: "parameters live under")
            log.error("recall_safe path '\(entry.path)' names no parameter of this preset\(hint)", at: entry.location)
        }
    }
}

extension Preset {
    /// Whether a song change keeps the live value of parameter `path` (a ``ParameterTree`` path) whatever the new
    /// song says: under a `recall_safe` strip or unit, a `recall_safe` bus's level, mute and the sends into it,
    /// or a path of `[preset] recall_safe`.
    public func isRecallSafe(_ path: String) -> Bool {
        if recallSafe.covers(path) { return true }
        for strip in strips {
            let folder = "strip/\(strip.name)/"
            guard path.hasPrefix(folder) else { continue }
            if strip.isRecallSafe { return true }
            if strip.units.contains(where: { $0.isRecallSafe && path.hasPrefix(folder + "unit/\($0.id)/") }) { return true }
            if let send = strip.sends.first(where: { path.hasPrefix(folder + "send/\($0.busName)/") }), bus(named: send.busName)?.isRecallSafe == true {
                return true
            }
        }
        for bus in buses where path.hasPrefix("bus/\(bus.name)/") {
            if bus.isRecallSafe, path == ParameterTree.Path.bus(bus.name, ParameterTree.Key.gain) || path == ParameterTree.Path.bus(bus.name, ParameterTree.Key.mute) {
                return true
            }
            if bus.units.contains(where: { $0.isRecallSafe && path.hasPrefix("bus/\(bus.name)/unit/\($0.id)/") }) { return true }
        }
        return false
    }
}
