// Remembers every connection of a host's ports (its own and those a patchbay made) to restore them after a server restart. Non-realtime.
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

/// The connections a host's ports had, refreshed from the server by polling (``snapshot(client:ports:)``),
/// and the ones still to be made again after the client was reopened on a restarted server.
///
/// Polling `jack_port_get_all_connections` off the audio thread sees connections made by anyone:
/// the preset, `jack_connect`, qjackctl, Carla. A connection that disappears because its other port
/// went away (its client quit, or the server is shutting down) stays remembered as pending, and is made
/// again once that port appears; one undone while both ports still exist was a deliberate disconnect
/// and is forgotten.
final class JACKConnectionTracker: @unchecked Sendable {
    private let lock = NSLock()
    private var known: Set<JACKConnection> = []
    private var pending: Set<JACKConnection> = []

    /// Every connection known: those seen at the last snapshot and those waiting to be restored.
    var connections: Set<JACKConnection> { lock.withLock { known.union(pending) } }

    /// Connections waiting for their other end to appear.
    var pendingConnections: Set<JACKConnection> { lock.withLock { pending } }

    /// Replaces the known connections with what the server holds for `ports` now. Skipped while the
    /// server no longer lists our own ports (it is tearing this client down before the shutdown notice).
    func snapshot(client: JACKClient, ports: [JACKPort]) {
        guard ports.allSatisfy({ Self.portExists($0.name, client: client) }) else { return }
        var current: Set<JACKConnection> = []
        for port in ports {
            for peer in client.connections(ofPort: port.name) {
                current.insert(JACKConnection(port: port.shortName, peer: peer))
            }
        }
        let lost = lock.withLock { known.subtracting(current) }
        let vanished = lost.filter { !Self.portExists($0.peer, client: client) }
        lock.withLock {
            known = current
            pending.formUnion(vanished)
            pending.subtract(current)
        }
    }

    private static func portExists(_ fullName: String, client: JACKClient) -> Bool {
        !client.isClosed && jack_port_by_name(client.handle, fullName) != nil
    }

    /// After the client is reopened: everything known becomes pending, to be made again.
    func beginRestore() {
        lock.withLock {
            pending.formUnion(known)
            known = []
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
