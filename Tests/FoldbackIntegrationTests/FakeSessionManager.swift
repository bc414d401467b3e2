// A minimal NSM server for end-to-end tests: one UDP socket on 127.0.0.1, OSC through liblo (FoldbackControl's codec). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import Foundation

/// The session manager's side: its socket, the client's address once it announced, the messages not yet asked for.
final class FakeSessionManager {
    let socket: UDPSocket
    private(set) var client: OSCPeer?
    /// Messages received but not yet asked for, oldest first.
    private var pending: [OSCMessage] = []

    init() throws { socket = try UDPSocket(host: "127.0.0.1", port: 0) }

    /// What a client is given as `NSM_URL`.
    var url: String { socket.local.url }

    /// Waits for foldback's announce and accepts it; returns the announce's arguments.
    func acceptAnnounce() throws -> [OSCArgument] {
        let announce = try expect("/nsm/server/announce")
        send("/reply", [.string("/nsm/server/announce"), .string("welcome"), .string("test-nsm"), .string(":server-control:")])
        return announce.arguments
    }

    /// Sends `path` to the client; false if it could not be sent (or no client announced yet).
    @discardableResult
    func send(_ path: String, _ arguments: [OSCArgument] = []) -> Bool {
        guard let client, let packet = try? OSCCodec.encode(OSCMessage(path, arguments)) else { return false }
        return socket.send(packet, to: client)
    }

    /// Sends `path` and waits for the client's `/reply` or `/error` to it.
    func request(_ path: String, _ arguments: [OSCArgument] = [], timeout: Double = 30) throws -> OSCMessage {
        guard send(path, arguments) else { throw FoldbackRun.Failure("cannot send \(path) to the client") }
        return try next("the answer to \(path)", timeout: timeout) { $0.arguments.first?.text == path }
    }

    /// Waits for a message with `path` from the client.
    func expect(_ path: String, timeout: Double = 30) throws -> OSCMessage {
        try next(path, timeout: timeout) { $0.path == path }
    }

    /// Whether any message with `path` arrives within `seconds`.
    func receives(_ path: String, within seconds: Double) -> Bool {
        (try? next(path, timeout: seconds) { $0.path == path }) != nil
    }

    /// The first message, received before or within `timeout` s, that `matches`; the others stay pending.
    private func next(_ what: String, timeout: Double, _ matches: (OSCMessage) -> Bool) throws -> OSCMessage {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let index = pending.firstIndex(where: matches) { return pending.remove(at: index) }
            guard Date() < deadline else { throw FoldbackRun.Failure("no \(what) within \(timeout) s; got \(pending)") }
            guard let (packet, sender) = socket.receive(timeout: 0.05), let message = try? OSCCodec.decode(packet) else { continue }
            if message.path == "/nsm/server/announce" { client = sender }
            pending.append(message)
        }
    }
}
