// LiveSession surviving a JACK server restart: "waiting for JACK", polling without spinning, reopening. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback
import Foundation
package import FoldbackJACK

extension LiveSession {
    /// How often a vanished server is tried again, in seconds.
    package static let reconnectInterval = 0.25

    /// After the server went away: reports it, then tries every ``reconnectInterval`` to reopen the
    /// same client, ports and connections on a server of the same name. The engine keeps running its
    /// graph meanwhile (nothing calls it); a server back at another sample rate rebuilds the graph.
    /// - Returns: false when a stop signal arrived while waiting.
    package func waitForServerAndReopen(after shutdown: JACKShutdown, status: LiveStatus, showStatus: Bool) -> Bool {
        status.finish()
        let server = serverName ?? "default"
        let connections = host.trackedConnections.count
        StandardError.writeLine("foldback: \(shutdown)")
        StandardError.writeLine(
            "foldback: waiting for JACK server '\(server)' to come back; \(connections) connection(s) to restore (Ctrl-C quits)")
        if showStatus { status.showWaiting(server: server) }
        var lastFailure = ""
        while fb_stop_signal() == 0 {
            engine.collectGarbage()
            do {
                let restored = try host.reopen()
                StandardError.writeLine(
                    "foldback: JACK server '\(server)' is back: reopened '\(host.actualName)' (\(Int(host.sampleRate)) Hz, "
                        + "\(host.bufferSize) frames), \(restored.count) of \(connections) connection(s) restored"
                        + (host.pendingConnections.isEmpty ? "" : ", the rest once their ports appear"))
                return true
            } catch {
                if case .serverNotRunning = error {} else if "\(error)" != lastFailure {
                    lastFailure = "\(error)"
                    StandardError.writeLine("foldback: cannot rejoin JACK yet: \(error)")
                }
            }
            Self.pause(seconds: Self.reconnectInterval)
        }
        return false
    }

    /// Logs connections restored late (their other end came back after Foldback rejoined) and those a
    /// patchbay undid, which a server restart will no longer bring back.
    package func reportConnectionChanges(restored: [JACKConnection], forgotten: [JACKConnection]) {
        for connection in restored { StandardError.writeLine("foldback: restored connection \(host.actualName):\(connection)") }
        for connection in forgotten {
            StandardError.writeLine("foldback: connection \(host.actualName):\(connection) was undone; it will not be restored")
        }
    }

    /// Sleeps in short steps, returning early on a stop signal.
    private static func pause(seconds: Double) {
        let steps = max(1, Int((seconds / 0.05).rounded()))
        for _ in 0..<steps where fb_stop_signal() == 0 { usleep(50_000) }
    }
}
