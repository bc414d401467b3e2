// The file players of a show's `source` strips: opened per song as songs are selected, attached to each graph, retired when no song plays them. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
package import FoldbackEngine
package import FoldbackPresets
package import FoldbackRender

/// The file players of a show: those of the song playing (``players``) and, during a switch, those the next song opens.
///
/// A song's source files are opened on the control thread before its graph is built (never on the audio
/// thread); each graph built gets the rings of the selected song's players attached (``attach(to:)``), so the
/// audio thread receives them with the graph swap, without allocating. A player the next song plays the same
/// way (same strip, file, channels, loop, gain and engine) carries on playing; one no song in play uses is
/// closed by ``retireUnused()`` once its graph has been retired.
package final class FilePlayers: @unchecked Sendable {
    /// One open file player and what it was opened for.
    fileprivate final class Player {
        let strip: String
        let channels: Int
        /// The source as last selected (its tempo and key as the song's file gives them).
        var source: FileSourceSpec
        let stream: FilePlayerStream

        init(strip: String, channels: Int, source: FileSourceSpec, stream: FilePlayerStream) {
            (self.strip, self.channels, self.source, self.stream) = (strip, channels, source, stream)
        }

        /// Whether this player plays `source` on strip `strip` of `channels` channels as it was opened.
        func plays(_ source: FileSourceSpec, strip: String, channels: Int) -> Bool {
            self.strip == strip && self.channels == channels && self.source.path == source.path && self.source.loops == source.loops
                && self.source.gainDB == source.gainDB && self.source.engine == source.engine
                && self.source.preservesFormant == source.preservesFormant
        }
    }

    /// A source file a song needs that cannot be read: its preset location and libsndfile's reason.
    package struct OpenFailure: Error, CustomStringConvertible {
        package let description: String
    }

    /// The players of the song selected before a ``select(_:)``, to go back to should its switch fail.
    package struct Selection {
        fileprivate let players: [Player]
    }

    private let lock = NSLock()
    private var open: [Player] = []
    private var selected: [Player] = []

    /// Opens every strip's source file of `preset` (the first song); a file libsndfile cannot read is
    /// reported naming the preset line and throws ``LiveStartFailure`` (status 2).
    package init(preset: Preset) throws {
        do {
            _ = try select(preset)
        } catch {
            StandardError.writeLine(error.description)
            close()
            throw LiveStartFailure(status: 2)
        }
    }

    /// The selected song's players, in preset order.
    package var players: [(strip: String, stream: FilePlayerStream)] { lock.withLock { selected.map { ($0.strip, $0.stream) } } }

    /// Makes `preset`'s sources the selected ones, opening the files not open yet (each plays at once unless its
    /// `autostart` is `false`); a player it shares with the song before carries on, taking the new tempo and key.
    /// Returns the selection before, for ``restore(_:)``.
    /// - Throws: ``OpenFailure`` for a file that cannot be read (nothing selected changes).
    package func select(_ preset: Preset) throws(OpenFailure) -> Selection {
        lock.lock()
        defer { lock.unlock() }
        var chosen: [Player] = []
        var opened: [Player] = []
        var continuing: [(Player, FileSourceSpec)] = []
        for strip in preset.strips {
            guard let source = strip.source else { continue }
            if let player = open.first(where: { $0.plays(source, strip: strip.name, channels: strip.channels) }) {
                continuing.append((player, source))
                chosen.append(player)
                continue
            }
            do {
                let player = Player(strip: strip.name, channels: strip.channels, source: source, stream: try Self.stream(for: source, strip: strip))
                opened.append(player)
                chosen.append(player)
            } catch {
                opened.forEach { $0.stream.close() }
                throw OpenFailure(description: "\(source.location): error: \(error)")
            }
        }
        for (player, source) in continuing {
            if Self.timePitch(of: source) != Self.timePitch(of: player.source) {   // a tempo or key moved live stays unless the song changes it
                player.stream.setTimePitch(Self.timePitch(of: source))
            }
            player.source = source
        }
        let before = Selection(players: selected)
        open += opened
        selected = chosen
        return before
    }

    /// Goes back to `selection` (the switch that selected another song failed); call ``retireUnused()`` next.
    package func restore(_ selection: Selection) { lock.withLock { selected = selection.players } }

    /// Closes every player the selected song does not play (its graph retired: its ring is no longer read).
    package func retireUnused() {
        let retired: [Player] = lock.withLock {
            let kept = Set(selected.map { ObjectIdentifier($0.stream) })
            let (keep, retire) = (open.filter { kept.contains(ObjectIdentifier($0.stream)) }, open.filter { !kept.contains(ObjectIdentifier($0.stream)) })
            open = keep
            return retire
        }
        retired.forEach { $0.stream.close() }
    }

    /// Makes every source strip of `graph` (built for the selected song) play its file.
    package func attach(to graph: EngineGraph) throws {
        for player in players { try player.stream.attach(to: graph, strip: player.strip) }
    }

    /// Starts every player of the song from the top (`true`) or stops them all; `nil` stops them if any is
    /// playing, else starts them. Returns what was done.
    @discardableResult
    package func set(playing: Bool?) -> String {
        let players = players
        let start = playing ?? !players.contains { $0.stream.isPlaying }
        for player in players {
            if start { player.stream.start() } else { player.stream.stop() }
            StandardError.writeLine("foldback: \(player.strip): file player \(start ? "started from the top" : "stopped")")
        }
        return start ? "file players started from the top" : "file players stopped"
    }

    /// Closes every open player (the show ends).
    package func close() {
        let all = lock.withLock {
            defer { (open, selected) = ([], []) }
            return open
        }
        all.forEach { $0.stream.close() }
    }

    /// A stream of `source`'s file for `strip`, playing unless `autostart = false`.
    private static func stream(for source: FileSourceSpec, strip: StripSpec) throws(AudioFileError) -> FilePlayerStream {
        try FilePlayerStream(
            url: URL(fileURLWithPath: source.path), channels: strip.channels, loops: source.loops, gainDB: source.gainDB,
            isPlaying: source.autostart != .off, timePitch: timePitch(of: source),
            engine: StretchEngine(rawValue: source.engine) ?? .finer,
            onMessage: { StandardError.writeLine("foldback: \(strip.name): \($0)") })
    }

    private static func timePitch(of source: FileSourceSpec) -> TimePitch {
        TimePitch(
            tempo: Double(source.tempo), semitones: Double(source.pitchSemitones), cents: Double(source.cents),
            preservesFormant: source.preservesFormant)
    }
}
