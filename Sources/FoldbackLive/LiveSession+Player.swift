// File-player strips in a live session: SIGUSR2 start/stop, underrun warnings. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback
import Foundation
import FoldbackEngine
import FoldbackPresets
import FoldbackRender

extension LiveSession {
    /// Toggles the file players on SIGUSR2 and warns when one runs dry.
    package func play(with players: FilePlayers) {
        var usr2 = SignalCounter(SIGUSR2)
        var underruns: [ObjectIdentifier: Int] = [:]   // a later song's players join as it is selected
        statusParts.append {
            let dry = players.players.filter { $0.stream.underrunCount > 0 }
            return dry.isEmpty ? nil : "underruns " + dry.map { "\($0.strip) \($0.stream.underrunCount)" }.joined(separator: ", ")
        }
        transport.setPlayers { on in players.set(playing: on) }
        transport.setSources(players)
        tickHandlers.append { [transport] in
            if usr2.hasArrived() { _ = transport.play(nil) }
            if underruns.count > players.players.count {   // forget retired players
                let playing = Set(players.players.map { ObjectIdentifier($0.stream) })
                underruns = underruns.filter { playing.contains($0.key) }
            }
            for player in players.players where player.stream.underrunCount > underruns[ObjectIdentifier(player.stream), default: 0] {
                underruns[ObjectIdentifier(player.stream)] = player.stream.underrunCount
                StandardError.writeLine("foldback: warning: \(player.strip): the file player could not keep up (\(player.stream.underrunCount) underruns; silence played)")
            }
        }
    }
}
