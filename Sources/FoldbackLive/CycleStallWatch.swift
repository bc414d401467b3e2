// Notices a JACK server that stays up but runs no cycles (a netjack2 slave whose master went away) and says so. Non-realtime.
import Foundation

/// Watches a live session's process cycles from its main loop. After ``stallSeconds`` without one, it
/// prints that Foldback waits for JACK and shows "waiting for JACK" in the status line; when cycles run
/// again it says so (the slave's `system:` ports come back with them, and the session's connection
/// upkeep restores their connections).
final class CycleStallWatch {
    /// How long without a cycle counts as a stall, seconds.
    static let stallSeconds = 1.0
    private var lastCount = -1
    private var lastChange = Date()
    private var stalledSince: Date?

    /// Whether the server is stalled now: call once per main-loop tick.
    func check(_ session: LiveSession, status: LiveStatus, showStatus: Bool, now: Date = Date()) -> Bool {
        let count = session.host.cycleCount
        if count != lastCount {
            (lastCount, lastChange) = (count, now)
            if let since = stalledSince {
                stalledSince = nil
                StandardError.writeLine(
                    "foldback: JACK server '\(session.serverName ?? "default")' runs cycles again after \(String(format: "%.1f", now.timeIntervalSince(since))) s "
                        + "(\(Int(session.host.sampleRate)) Hz, \(session.host.bufferSize) frames)")
            }
            return false
        }
        guard stalledSince == nil else { return true }
        guard now.timeIntervalSince(lastChange) >= Self.stallSeconds else { return false }
        stalledSince = lastChange
        let server = session.serverName ?? "default"
        status.finish()
        StandardError.writeLine(
            "foldback: JACK server '\(server)' has run no cycle for \(String(format: "%.0f", Self.stallSeconds)) s "
                + "(a netjack2 slave whose master went away?); waiting for JACK server '\(server)' to run again; "
                + "\(session.host.trackedConnections.count) connection(s) to restore (Ctrl-C quits)")
        if showStatus { status.showWaiting(server: server) }
        return true
    }
}
