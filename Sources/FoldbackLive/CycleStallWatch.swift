// Notices a JACK server that stays up without its audio (a netjack2 slave whose master went away) and says so. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Watches a live session's server from its main loop. The server is away when it runs no cycle for
/// ``stallSeconds``, or, on a netjack2 slave, when its `system:` ports are gone (the slave drops them while it
/// waits for its master, running silent cycles meanwhile). Then it prints that Foldback waits for JACK and
/// shows "waiting for JACK" in the status line; when the server is back it says so and has every connection
/// made again. The session skips its connection upkeep while the server is away.
final class CycleStallWatch {
    /// How long without a cycle counts as a stall, seconds.
    static let stallSeconds = 1.0
    private var lastCount = -1
    private var lastChange = Date()
    private var awaySince: Date?
    private var lastClient: ObjectIdentifier?
    private var isNetSlave = false
    private var tick = 0

    /// Whether the server is away now: call once per main-loop tick.
    func check(_ session: LiveSession, status: LiveStatus, showStatus: Bool, now: Date = Date()) -> Bool {
        let host = session.host
        let client = ObjectIdentifier(host.client)
        if client != lastClient {   // reopened after a server restart: its cycles count from now
            (lastClient, lastChange, awaySince) = (client, now, nil)
        }
        let count = host.cycleCount
        if count != lastCount { (lastCount, lastChange) = (count, now) }
        if !isNetSlave && tick % 10 == 0 { isNetSlave = host.netLatency != nil }
        tick += 1
        let masterGone = isNetSlave && host.client.portNames(matching: "^system:", audioOnly: true).isEmpty
        let server = session.serverName ?? "default"
        guard masterGone || now.timeIntervalSince(lastChange) >= Self.stallSeconds else {
            if let since = awaySince {
                awaySince = nil
                host.restoreConnectionsAfterStall()
                StandardError.writeLine(
                    "foldback: JACK server '\(server)' is running again after \(String(format: "%.1f", now.timeIntervalSince(since))) s "
                        + "(\(Int(host.sampleRate)) Hz, \(host.bufferSize) frames)")
            }
            return false
        }
        guard awaySince == nil else { return true }
        awaySince = masterGone ? now : lastChange
        status.finish()
        let reason = masterGone
            ? "the netjack2 slave '\(server)' has lost its master (its system ports are gone)"
            : "JACK server '\(server)' has run no cycle for \(String(format: "%.0f", Self.stallSeconds)) s (a netjack2 slave whose master went away?)"
        StandardError.writeLine(
            "foldback: \(reason); waiting for JACK: \(host.trackedConnections.count) connection(s) to restore once it runs again (Ctrl-C quits)")
        if showStatus { status.showWaiting(server: server) }
        return true
    }
}
