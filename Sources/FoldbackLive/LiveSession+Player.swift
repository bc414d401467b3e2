// File-player strips in a live session: opening the preset's source files, SIGUSR2 start/stop, underrun warnings. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback
import Foundation
package import FoldbackEngine
package import FoldbackPresets
package import FoldbackRender

/// The file players of a preset's `source` strips.
package struct FilePlayers: Sendable {
    package let players: [(strip: String, stream: FilePlayerStream)]

    /// Opens every strip's source file; a file libsndfile cannot read exits 2 naming the preset line.
    package init(preset: Preset) throws {
        var players: [(strip: String, stream: FilePlayerStream)] = []
        for strip in preset.strips {
            guard let source = strip.source else { continue }
            do {
                let stream = try FilePlayerStream(
                    url: URL(fileURLWithPath: source.path), channels: strip.channels, loops: source.loops, gainDB: source.gainDB,
                    isPlaying: source.autostart != .off,
                    timePitch: TimePitch(
                        tempo: Double(source.tempo), semitones: Double(source.pitchSemitones), cents: Double(source.cents),
                        preservesFormant: source.preservesFormant),
                    engine: StretchEngine(rawValue: source.engine) ?? .finer,
                    onMessage: { StandardError.writeLine("foldback: \(strip.name): \($0)") })
                players.append((strip.name, stream))
            } catch {
                StandardError.writeLine("\(source.location): error: \(error)")
                throw LiveStartFailure(status: 2)
            }
        }
        self.players = players
    }

    /// Makes every source strip of `graph` play its file.
    package func attach(to graph: EngineGraph) throws {
        for player in players { try player.stream.attach(to: graph, strip: player.strip) }
    }

    /// Starts every player from the top (`true`) or stops them all; `nil` stops them if any is playing,
    /// else starts them. Returns what was done.
    @discardableResult
    package func set(playing: Bool?) -> String {
        let start = playing ?? !players.contains { $0.stream.isPlaying }
        for player in players {
            if start { player.stream.start() } else { player.stream.stop() }
            StandardError.writeLine("foldback: \(player.strip): file player \(start ? "started from the top" : "stopped")")
        }
        return start ? "file players started from the top" : "file players stopped"
    }

    package func close() { players.forEach { $0.stream.close() } }
}

extension LiveSession {
    /// Toggles the file players on SIGUSR2 and warns when one runs dry.
    package func play(with players: FilePlayers) {
        guard !players.players.isEmpty else { return }
        var usr2 = SignalCounter(SIGUSR2)
        var underruns = players.players.map { _ in 0 }
        statusParts.append {
            let dry = players.players.filter { $0.stream.underrunCount > 0 }
            return dry.isEmpty ? nil : "underruns " + dry.map { "\($0.strip) \($0.stream.underrunCount)" }.joined(separator: ", ")
        }
        transport.setPlayers { on in players.set(playing: on) }
        transport.setSources(players)
        tickHandlers.append { [transport] in
            if usr2.hasArrived() { _ = transport.play(nil) }
            for (index, player) in players.players.enumerated() where player.stream.underrunCount > underruns[index] {
                underruns[index] = player.stream.underrunCount
                StandardError.writeLine("foldback: warning: \(player.strip): the file player could not keep up (\(underruns[index]) underruns; silence played)")
            }
        }
    }
}
