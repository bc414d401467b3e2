// Checks every song of a setlist before doors: each song's preset (with its sources, plugins and curves) and the setlist's safes. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
package import FoldbackPresets
import FoldbackGraph
import FoldbackRender
import Foundation

/// Every song of a setlist loaded as a switch to it would load it, so a typo in song 12 is found before the show
/// (`foldback check SETLIST`, and `foldback run --setlist` before it starts).
package struct SetlistCheck: Sendable {
    /// One song's result.
    package struct Song: Sendable {
        /// Its place in the setlist (0-based).
        package var index: Int
        /// The entry.
        package var entry: Setlist.Entry
        /// The preset, when it loaded.
        package var preset: Preset?
        /// Every error found in it (empty when it plays).
        package var errors: [PresetDiagnostic]
        /// Its warnings.
        package var warnings: [PresetDiagnostic]

        /// Whether the song cannot play.
        package var isBroken: Bool { !errors.isEmpty }
    }

    /// The setlist checked.
    package let setlist: Setlist
    /// Each song, in order.
    package let songs: [Song]
    /// Problems of the setlist itself (a `recall_safe` path no song has).
    package let setlistErrors: [PresetDiagnostic]

    /// Loads every song's preset (checking its plugins against the installed ones and its curves); with
    /// `isThorough`, also opens each source file and builds each graph at 48 kHz (plugins instantiated), as
    /// `foldback check` does for one preset.
    package init(_ setlist: Setlist, isThorough: Bool) {
        self.setlist = setlist
        var songs: [Song] = []
        for (index, entry) in setlist.entries.enumerated() {
            var song = Song(index: index, entry: entry, preset: nil, errors: [], warnings: [])
            do {
                let preset = try PresetLoader.load(path: entry.presetPath)
                song.warnings = preset.warnings
                song.errors = isThorough ? Self.deepProblems(of: preset) : []
                song.preset = preset
            } catch {
                song.errors = error.errors
                song.warnings = error.diagnostics.filter { $0.severity == .warning }
            }
            songs.append(song)
        }
        self.songs = songs
        let trees = songs.compactMap(\.preset).map { ParameterTree(preset: $0) }
        var setlistErrors: [PresetDiagnostic] = []
        for (path, location) in zip(setlist.recallSafe.paths, setlist.recallSafeLocations) where !trees.isEmpty {
            guard !trees.contains(where: { RecallSafes.names(path, in: $0) }) else { continue }
            setlistErrors.append(PresetDiagnostic(location: location, message: "recall_safe path '\(path)' names no parameter of any song"))
        }
        self.setlistErrors = setlistErrors
    }

    /// Whether any song or the setlist itself has an error.
    package var hasErrors: Bool { !setlistErrors.isEmpty || songs.contains(where: \.isBroken) }

    /// The songs that cannot play.
    package var brokenSongs: [Song] { songs.filter(\.isBroken) }

    /// How a song is named in reports: `song 3/12 'Ballad'`.
    package func label(_ song: Song) -> String { "song \(song.index + 1)/\(songs.count) '\(song.entry.name)'" }

    /// Every error and warning, each at file:line:column and naming its song, then one summary line per song.
    package var lines: [String] {
        var lines = setlistErrors.map(\.description)
        for song in songs {
            lines += (song.errors + song.warnings).map { "\($0) [\(label(song))]" }
        }
        for song in songs { lines.append(summary(song)) }
        let broken = brokenSongs.count
        lines.append(broken == 0 && setlistErrors.isEmpty
            ? "foldback: \(setlist.path): all \(songs.count) songs are ready"
            : "foldback: \(setlist.path): \(broken) of \(songs.count) songs have errors" + (setlistErrors.isEmpty ? "" : ", and the setlist has \(setlistErrors.count)"))
        return lines
    }

    /// `song 2/3 'Ballad': ok, ballad.toml (4 strips, 3 buses)` or `song 3/3 'Closer': 2 errors in closer.toml`.
    package func summary(_ song: Song) -> String {
        let file = song.entry.presetPath
        let warnings = song.warnings.isEmpty ? "" : ", \(song.warnings.count) \(song.warnings.count == 1 ? "warning" : "warnings")"
        guard song.isBroken else {
            let preset = song.preset
            return "\(label(song)): ok, \(file) (\(preset?.strips.count ?? 0) strips, \(preset?.buses.count ?? 0) buses\(warnings))"
        }
        return "\(label(song)): \(song.errors.count) \(song.errors.count == 1 ? "error" : "errors") in \(file)\(warnings)"
    }

    /// What a running show checks beyond loading: each source file opens, the graph builds (plugins instantiate).
    private static func deepProblems(of preset: Preset) -> [PresetDiagnostic] {
        var problems: [PresetDiagnostic] = []
        for strip in preset.strips {
            guard let source = strip.source else { continue }
            do {
                _ = try AudioFileReader(url: URL(fileURLWithPath: source.path))
            } catch {
                problems.append(PresetDiagnostic(location: source.location, message: "source file '\(source.path)' cannot be played: \(error)"))
            }
        }
        do {
            // Hosted as a render hosts them (a plugin the song does not place runs in this process): building every
            // song's sandboxes, one process start each, would only slow the check down.
            _ = try PresetGraphBuilder.graph(for: preset, sampleRate: 48_000, maxFrames: 256, hosting: .offline)
        } catch {
            problems += error.errors
        }
        return problems
    }
}
