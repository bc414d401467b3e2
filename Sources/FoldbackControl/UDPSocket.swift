// A bound IPv4 UDP socket: receive with a timeout (or none, until interrupted), reply to any sender. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// Where a datagram came from (and where replies go): an IPv4 address and port.
public struct OSCPeer: Sendable, Hashable, CustomStringConvertible {
    /// The address in network byte order.
    var address: UInt32
    /// The port in host byte order.
    public var port: UInt16

    /// The IPv4 peer `host` (dotted quad) at `port`, or nil if `host` is not an IPv4 address.
    public init?(host: String, port: UInt16) {
        var parsed = in_addr()
        guard inet_pton(AF_INET, host, &parsed) == 1 else { return nil }
        address = parsed.s_addr
        self.port = port
    }

    init(_ socketAddress: sockaddr_in) {
        address = socketAddress.sin_addr.s_addr
        port = UInt16(bigEndian: socketAddress.sin_port)
    }

    var socketAddress: sockaddr_in {
        var result = sockaddr_in()
        result.sin_family = sa_family_t(AF_INET)
        result.sin_port = port.bigEndian
        result.sin_addr.s_addr = address
        return result
    }

    /// The address as a dotted quad, without the port.
    public var host: String { withUnsafeBytes(of: address) { Array($0) }.map(String.init).joined(separator: ".") }

    public var description: String { host + ":\(port)" }

    /// The address of this machine that the route to this peer leaves from (what a server bound to 0.0.0.0 tells
    /// a client to reach it on), or nil when there is no route. A routing look-up only: nothing is sent.
    public func localHost() -> String? {
        let probe = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard probe >= 0 else { return nil }
        defer { Glibc.close(probe) }
        var remote = socketAddress
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(probe, $0, &length) }
        }
        guard connected == 0, named == 0, local.sin_addr.s_addr != 0 else { return nil }
        return OSCPeer(local).host
    }
}

/// A UDP socket bound to one IPv4 address and port. liblo 0.31 always binds every interface, so Foldback
/// owns the socket and uses liblo only to encode and decode (``OSCCodec``).
public final class UDPSocket: @unchecked Sendable {
    private let descriptor: Int32
    /// A pipe whose read end ``receive(timeout:)`` polls beside the socket: ``interrupt()`` writes to it.
    private var wakePipe: (read: Int32, write: Int32) = (-1, -1)
    /// The address and port bound (the port the kernel picked when 0 was asked).
    public let local: OSCPeer

    /// Binds `host:port` (`port` 0 picks a free one).
    /// - Throws: ``ControlError/failed(_:)`` naming the address and the system's reason.
    public init(host: String, port: UInt16) throws(ControlError) {
        guard let wanted = OSCPeer(host: host, port: port) else {
            throw .failed("'\(host)' is not an IPv4 address (e.g. 127.0.0.1 or 0.0.0.0)")
        }
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw .failed("cannot open a UDP socket: \(String(cString: strerror(errno)))") }
        var address = wanted.socketAddress
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw .failed("cannot listen for OSC on \(wanted): \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        local = OSCPeer(actual)
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            wakePipe = (ends[0], ends[1])
        }
    }

    deinit {
        Glibc.close(descriptor)
        if wakePipe.read >= 0 {
            Glibc.close(wakePipe.read)
            Glibc.close(wakePipe.write)
        }
    }

    /// Makes a ``receive(timeout:)`` waiting now (or the next one) return nil at once: how a thread blocked
    /// without a timeout is told to stop.
    public func interrupt() {
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)
    }

    /// The next datagram and its sender, or nil if none arrives within `timeout` seconds (nil: wait until
    /// one comes; a thread waiting so costs nothing while nothing arrives) or ``interrupt()`` is called.
    public func receive(timeout: Double?) -> (packet: [UInt8], sender: OSCPeer)? {
        var pollers = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
        let milliseconds = timeout.map { Int32(max(0, $0 * 1000)) } ?? -1
        guard poll(&pollers, nfds_t(wakePipe.read >= 0 ? 2 : 1), milliseconds) > 0 else { return nil }
        if pollers[1].revents != 0 {   // interrupted: take the byte (so a later receive waits again)
            var byte: UInt8 = 0
            _ = read(wakePipe.read, &byte, 1)
            return nil
        }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var sender = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = buffer.withUnsafeMutableBytes { bytes in
            withUnsafeMutablePointer(to: &sender) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(descriptor, bytes.baseAddress, bytes.count, 0, $0, &length) }
            }
        }
        guard count >= 0 else { return nil }
        return (Array(buffer[0..<count]), OSCPeer(sender))
    }

    /// Sends `packet` to `peer`; returns false if the system refused.
    @discardableResult
    public func send(_ packet: [UInt8], to peer: OSCPeer) -> Bool {
        var address = peer.socketAddress
        let sent = packet.withUnsafeBytes { bytes in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        return sent == packet.count
    }
}
