// The OSC listener: a UDP socket on its own thread, each message handed to a handler whose replies go back to the sender. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackEngine

/// Listens for OSC on one address and port and answers each sender.
///
/// Messages are handled one at a time, in arrival order, on the server's own thread (never the audio
/// thread). A packet that is not a readable OSC message gets an error reply (``errorPath``) and is
/// otherwise ignored. Other threads may ``send(_:to:)`` at any time (meter feeds do).
public final class OSCServer: @unchecked Sendable {
    /// Where error replies go: `/foldback/error ss <offending address> <reason>`.
    public static let errorPath = "/foldback/error"
    /// What a message handler returns: the replies to send to the message's sender.
    public typealias Handler = @Sendable (_ message: OSCMessage, _ sender: OSCPeer) -> [OSCMessage]

    private let socket: UDPSocket
    private let handler: Handler
    private var worker: PeriodicWorker?
    private let stopping = NSLock()
    private var isStopping = false

    /// Binds `host:port` (port 0 picks a free one); call ``start()`` to begin answering.
    /// - Throws: ``ControlError/failed(_:)`` if the address cannot be bound.
    public init(host: String, port: UInt16, handler: @escaping Handler) throws(ControlError) {
        socket = try UDPSocket(host: host, port: port)
        self.handler = handler
    }

    deinit { stop() }

    /// The bound address and port.
    public var local: OSCPeer { socket.local }

    /// Starts the listening thread.
    public func start() {
        guard worker == nil else { return }
        stopping.withLock { isStopping = false }
        // Each run waits for a packet without a timeout (an idle server never wakes), then runs again at once;
        // ``stop()`` interrupts the wait.
        let worker = PeriodicWorker(name: "fb-osc") { [self] in
            guard !stopping.withLock({ isStopping }) else { return .whenWoken }
            if let (packet, sender) = socket.receive(timeout: nil) {
                for reply in Self.replies(to: packet, from: sender, handler: handler) { send(reply, to: sender) }
            }
            return .after(.zero)
        }
        self.worker = worker
        worker.start()
    }

    /// Stops the listening thread and waits for it; the socket closes once the server is released (the
    /// thread no longer holds it). Safe to call twice.
    public func stop() {
        stopping.withLock { isStopping = true }   // before the interrupt: a run that starts after it sees the flag
        socket.interrupt()
        worker?.stop()
        worker = nil   // the worker's body holds the server (and its socket): let both go
    }

    /// Sends `message` to `peer` from the server's own port (so replies come from where requests went).
    @discardableResult
    public func send(_ message: OSCMessage, to peer: OSCPeer) -> Bool {
        guard let packet = try? OSCCodec.encode(message) else { return false }
        return socket.send(packet, to: peer)
    }

    /// The replies to one packet: the handler's, or an error reply if it is not a readable message.
    static func replies(to packet: [UInt8], from sender: OSCPeer, handler: Handler) -> [OSCMessage] {
        do {
            return handler(try OSCCodec.decode(packet), sender)
        } catch {
            return [errorReply(path: "", error)]
        }
    }

    /// The error reply for a request to `path`.
    public static func errorReply(path: String, _ error: ControlError) -> OSCMessage {
        OSCMessage(errorPath, [.string(path), .string(error.description)])
    }
}
