// A small OSC client on 127.0.0.1 that sends requests and reads replies: for tests and scripts. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Sends OSC messages from its own UDP port and receives what comes back to it.
public final class OSCClient: @unchecked Sendable {
    private let socket: UDPSocket
    private let server: OSCPeer

    /// A client bound to a free port on `host`, talking to `host:serverPort`.
    /// - Throws: ``ControlError/failed(_:)`` if no socket can be bound.
    public init(serverPort: UInt16, host: String = "127.0.0.1") throws(ControlError) {
        socket = try UDPSocket(host: host, port: 0)
        guard let server = OSCPeer(host: host, port: serverPort) else { throw .failed("'\(host)' is not an IPv4 address") }
        self.server = server
    }

    /// This client's own port (where replies arrive).
    public var port: UInt16 { socket.local.port }

    /// Sends `message` to the server.
    /// - Throws: ``ControlError`` if it cannot be encoded or sent.
    public func send(_ message: OSCMessage) throws(ControlError) {
        try sendPacket(OSCCodec.encode(message))
    }

    /// Sends raw bytes (to test how the server treats garbage).
    public func sendPacket(_ packet: [UInt8]) throws(ControlError) {
        guard socket.send(packet, to: server) else { throw .failed("cannot send to \(server)") }
    }

    /// The next message received within `timeout` seconds, or nil (undecodable packets are skipped).
    public func receive(timeout: Double) -> OSCMessage? {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while case let left = deadline - ContinuousClock.now, left > .zero {
            let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) * 1e-18
            guard let (packet, _) = socket.receive(timeout: seconds) else { return nil }
            if let message = try? OSCCodec.decode(packet) { return message }
        }
        return nil
    }

    /// Sends `message` and returns the first reply whose address satisfies `matching`, within `timeout` seconds.
    public func request(_ message: OSCMessage, timeout: Double = 2, matching: (OSCMessage) -> Bool = { _ in true }) throws(ControlError) -> OSCMessage? {
        try send(message)
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while ContinuousClock.now < deadline {
            guard let reply = receive(timeout: 0.05) else { continue }
            if matching(reply) { return reply }
        }
        return nil
    }
}
