// OSC peers as liblo-style URLs (`osc.udp://host:port/`), as a session manager's NSM_URL names itself. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

extension OSCPeer {
    /// The peer an `osc.udp://host:port/` URL names (the host a dotted quad or a name resolved to IPv4),
    /// or nil for another scheme, a missing port or a host that does not resolve.
    public init?(url: String) {
        let scheme = "osc.udp://"
        guard url.hasPrefix(scheme) else { return nil }
        var rest = url.dropFirst(scheme.count)
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        guard let colon = rest.lastIndex(of: ":"), let port = UInt16(rest[rest.index(after: colon)...]) else { return nil }
        let host = String(rest[..<colon])
        if let peer = OSCPeer(host: host, port: port) {
            self = peer
            return
        }
        guard let address = Self.resolve(host) else { return nil }
        self.init(address: address, port: port)
    }

    init(address: UInt32, port: UInt16) {
        var socketAddress = sockaddr_in()
        socketAddress.sin_addr.s_addr = address
        socketAddress.sin_port = port.bigEndian
        self.init(socketAddress)
    }

    /// `osc.udp://a.b.c.d:port/`.
    public var url: String { "osc.udp://\(description)/" }

    /// Whether the address is on the loopback network (127.0.0.0/8).
    public var isLoopback: Bool { UInt32(bigEndian: address) >> 24 == 127 }

    /// The first IPv4 address of host name `host` (network byte order), or nil.
    private static func resolve(_ host: String) -> UInt32? {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let list else { return nil }
        defer { freeaddrinfo(list) }
        guard let address = list.pointee.ai_addr else { return nil }
        return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
    }
}
