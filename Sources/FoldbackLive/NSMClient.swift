// The NSM protocol's wire: announce, replies, errors and dirty/clean to the session manager, on Foldback's OSC codec and UDP socket. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
package import FoldbackControl
import Foundation

/// Speaks to the session manager at `NSM_URL` (nsmd, RaySession, Carla…) from one UDP socket, with the
/// same ``OSCMessage``/``OSCCodec``/``UDPSocket`` layer as the OSC control server. Use from one thread.
package final class NSMClient {
    /// The protocol version spoken (NSM API 1.2).
    package static let apiVersion: (major: Int32, minor: Int32) = (1, 2)
    /// What this client can do beyond the basics.
    package static let capabilities = ":switch:dirty:"

    /// NSM error codes used in `/error` replies.
    package enum ErrorCode: Int32 {
        case general = -1
        case noSessionOpen = -6
        case badProject = -9
        case createFailed = -10
    }

    /// The session manager's address.
    package let manager: OSCPeer
    private let socket: UDPSocket

    /// A socket to speak to the manager at `managerURL` (`osc.udp://host:port/`): on the loopback address
    /// for a manager on this machine, else on every interface.
    /// - Throws: ``ShowError/usage(_:)`` for a URL that names no reachable IPv4 peer, ``ShowError/failed(_:)``
    ///   when no socket can be opened.
    package init(managerURL: String) throws(ShowError) {
        guard let manager = OSCPeer(url: managerURL) else {
            throw .usage("NSM_URL '\(managerURL)' is not the osc.udp://host:port/ address of a session manager")
        }
        self.manager = manager
        do {
            socket = try UDPSocket(host: manager.isLoopback ? "127.0.0.1" : "0.0.0.0", port: 0)
        } catch {
            throw .failed("NSM: \(error)")
        }
    }

    /// Sends `path` with `arguments` to the manager; false if it could not be sent.
    @discardableResult
    package func send(_ path: String, _ arguments: [OSCArgument] = []) -> Bool {
        guard let packet = try? OSCCodec.encode(OSCMessage(path, arguments)) else { return false }
        return socket.send(packet, to: manager)
    }

    /// `/nsm/server/announce`: who this is, what it can do, its executable and process id.
    package func announce() {
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "foldback").lastPathComponent
        send("/nsm/server/announce", [
            .string("Foldback"), .string(Self.capabilities), .string(executable),
            .int(Self.apiVersion.major), .int(Self.apiVersion.minor), .int(getpid()),
        ])
    }

    /// `/reply` to the manager's request `path`.
    package func reply(to path: String, _ message: String) {
        send("/reply", [.string(path), .string(message)])
    }

    /// `/error` to the manager's request `path`, also printed.
    package func refuse(_ path: String, _ code: ErrorCode, _ message: String) {
        StandardError.writeLine("foldback: NSM: \(path) failed: \(message)")
        send("/error", [.string(path), .int(code.rawValue), .string(message)])
    }

    /// Every message received within `timeout` seconds (waiting only for the first; unreadable packets are dropped).
    package func receive(timeout: Double) -> [OSCMessage] {
        var messages: [OSCMessage] = []
        var wait = timeout
        while let (packet, _) = socket.receive(timeout: wait) {
            if let message = try? OSCCodec.decode(packet) { messages.append(message) }
            wait = 0
        }
        return messages
    }
}
