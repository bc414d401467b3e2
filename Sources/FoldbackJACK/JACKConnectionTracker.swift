// Remembers every connection of a host's ports (its own and those a patchbay made) to restore them after a server restart. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CJack
import Foundation

/// One connection of a host port: the port's short name and the full name of the port at the other end.
public struct JACKConnection: Sendable, Hashable, CustomStringConvertible {
    /// This client's port, without the client prefix (`main_L`).
    public let port: String
    /// The other end, full name (`system:playback_1`).
    public let peer: String

    public var description: String { "\(port) ↔ \(peer)" }
}

/// The connections a host's ports had, refreshed from the server by polling (``snapshot(client:ports:now:)``),
/// and the ones still to be made again after the client was reopened on a restarted server.
///
/// Polling `jack_port_get_all_connections` off the audio thread sees connections made by anyone:
/// the preset, `jack_connect`, qjackctl, Carla. A connection that disappears because its other port
/// went away (its client quit, or the server is shutting down) stays remembered as pending, and is made
/// again once that port appears. One undone while both ports still exist may be a deliberate disconnect,
/// or the first step of a server tearing its clients down (jackd deactivates a client, which drops its
/// connections, before its ports go): it is held for ``forgetDelay`` seconds, restored if the server goes
/// away meanwhile, and forgotten once the server has stayed up that long without it.
final class JACKConnectionTracker: @unchecked Sendable {
    private let lock = NSLock()
    private var known: Set<JACKConnection> = []
    private var pending: Set<JACKConnection> = []
    /// Undone while both ports existed, with when that was first seen.
    private var undone: [JACKConnection: Date] = [:]
    /// Forgotten since the last ``takeForgotten()``.
    private var forgotten: [JACKConnection] = []
    /// How long a connection undone while both its ports exist is kept for a server restart.
    static let forgetDelay: TimeInterval = 1.5
    /// The count of port-connect notifications when the last snapshot was taken, and when that was.
    private var snapshotGeneration = -1
    private var snapshotTime = Date.distantPast
    /// How often a snapshot is taken while no connection was made or broken anywhere and none is held undone: a
    /// safety net for a change JACK did not announce.
    static let quietSnapshotInterval: TimeInterval = 1

    /// Every connection a restart would bring back: those seen at the last snapshot, those waiting to be
    /// restored, and those undone less than ``forgetDelay`` ago.
    var connections: Set<JACKConnection> { lock.withLock { known.union(pending).union(undone.keys) } }

    /// Connections waiting for their other end to appear.
    var pendingConnections: Set<JACKConnection> { lock.withLock { pending } }

    /// The connections forgotten (undone by someone while the server stayed up) since the last call.
    func takeForgotten() -> [JACKConnection] {
        lock.withLock {
            defer { forgotten = [] }
            return forgotten
        }
    }

    /// ``snapshot(client:ports:now:)``, when a connection was made or broken since the last one (`generation`, the
    /// count of JACK's port-connect notifications, moved), a connection is held undone (its forget delay runs), or
    /// ``quietSnapshotInterval`` has passed: an idle show does not walk the server's connections ten times a second.
    func snapshotIfChanged(client: JACKClient, ports: [JACKPort], generation: Int, now: Date = Date()) {
        let isDue = lock.withLock {
            generation != snapshotGeneration || !undone.isEmpty || now.timeIntervalSince(snapshotTime) >= Self.quietSnapshotInterval
        }
        guard isDue else { return }
        lock.withLock { (snapshotGeneration, snapshotTime) = (generation, now) }   // read before the snapshot: a change
        snapshot(client: client, ports: ports, now: now)                            // during it is seen next time
    }

    /// Replaces the known connections with what the server holds for `ports` now. Skipped while the
    /// server no longer lists our own ports (it is tearing this client down before the shutdown notice).
    func snapshot(client: JACKClient, ports: [JACKPort], now: Date = Date()) {
        // The first and last port stand for all (a client's ports go together): each look-up by name walks the
        // server's whole port table (twice per port every 100 ms was most of an idle show's main-thread CPU).
        guard [ports.first, ports.last].allSatisfy({ $0.map { Self.portExists($0.name, client: client) } ?? true }) else { return }
        var current: Set<JACKConnection> = []
        for port in ports {
            for peer in client.connections(of: port) {
                current.insert(JACKConnection(port: port.shortName, peer: peer))
            }
        }
        // A client quitting is deactivated (its connections drop) before its ports go: a connection first
        // seen undone whose other port has gone since joins the pending ones too.
        let (lost, held) = lock.withLock { (known.subtracting(current), Array(undone.keys)) }
        let vanished = lost.union(held).filter { !current.contains($0) && !Self.portExists($0.peer, client: client) }
        lock.withLock {
            known = current
            pending.formUnion(vanished)
            pending.subtract(current)
            for connection in lost.subtracting(vanished) where undone[connection] == nil { undone[connection] = now }
            for connection in Array(undone.keys) {
                if current.contains(connection) || vanished.contains(connection) {
                    undone[connection] = nil
                } else if now.timeIntervalSince(undone[connection] ?? now) >= Self.forgetDelay {
                    undone[connection] = nil
                    forgotten.append(connection)
                }
            }
        }
    }

    private static func portExists(_ fullName: String, client: JACKClient) -> Bool {
        !client.isClosed && jack_port_by_name(client.handle, fullName) != nil
    }

    /// A connection of one of this client's ports was just made (JACK's port-connect notification): known
    /// from now on, without waiting for the next snapshot.
    func noteConnected(_ connection: JACKConnection) {
        lock.withLock {
            known.insert(connection)
            pending.remove(connection)
            undone[connection] = nil
        }
    }

    /// After the client is reopened: everything known becomes pending, to be made again.
    func beginRestore() {
        lock.withLock {
            pending.formUnion(known)
            pending.formUnion(undone.keys)
            known = []
            undone = [:]
        }
    }

    /// Makes each pending connection whose ports both exist; the rest stay pending.
    /// - Returns: the connections made.
    @discardableResult
    func restore(client: JACKClient, ports: [String: JACKPort]) -> [JACKConnection] {
        var made: [JACKConnection] = []
        for connection in pendingConnections.sorted(by: { ($0.port, $0.peer) < ($1.port, $1.peer) }) {
            guard let port = ports[connection.port] else { continue }
            let (source, destination) = port.direction == .output ? (port.name, connection.peer) : (connection.peer, port.name)
            if client.connect(from: source, to: destination) == nil { made.append(connection) }
        }
        lock.withLock {
            pending.subtract(made)
            known.formUnion(made)
        }
        return made
    }
}
