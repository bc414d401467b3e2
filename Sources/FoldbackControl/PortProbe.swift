// Tries, before a show starts, the TCP or UDP port a surface will listen on, and names what holds a used one. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc

/// A port a surface (web, OSC) will listen on, bound and released again before anything starts, so that a
/// used or unbindable port is refused at once with one line naming it (and the process holding it, when
/// `/proc` tells), instead of after JACK and the other surfaces have started.
public struct PortProbe: Sendable {
    /// How the surface listens.
    public enum Transport: Sendable {
        /// A listening TCP socket with `SO_REUSEADDR`, as the web server binds it.
        case tcp
        /// A UDP socket, as OSC binds it.
        case udp
    }

    /// The surface's name in messages: "web", "OSC".
    public let surface: String
    /// The option that sets the port: "--web-port".
    public let option: String
    /// TCP or UDP.
    public let transport: Transport
    /// The IPv4 address to bind.
    public let host: String
    /// The port (0 picks a free one, which never fails to bind).
    public let port: UInt16

    /// A probe of `host:port` for `surface`, set by `option`.
    public init(surface: String, option: String, transport: Transport, host: String, port: UInt16) {
        (self.surface, self.option, self.transport, self.host, self.port) = (surface, option, transport, host, port)
    }

    /// Nil when the port can be bound now; otherwise the one line to print (without the `foldback:` prefix),
    /// e.g. `web port 8080 is already in use by python3 (pid 812) (try --web-port 8081)`.
    public func problem() -> String? {
        guard let error = Self.bindError(transport, host: host, port: port) else { return nil }
        switch error {
        case EADDRINUSE:
            let holder = PortHolder.find(transport, port: port).map { " by \($0)" } ?? ""
            let free = (UInt16(1)...32).lazy.map { self.port &+ $0 }.first { $0 > self.port && Self.bindError(transport, host: host, port: $0) == nil }
            return "\(surface) port \(port) is already in use\(holder)" + (free.map { " (try \(option) \($0))" } ?? "")
        case EACCES:
            return "\(surface) port \(port) needs root or CAP_NET_BIND_SERVICE (ports below 1024; try \(option) \(Int(port) + 8000))"
        case EADDRNOTAVAIL:
            return "\(surface) address \(host) is not an address of this machine (0.0.0.0 listens on every interface)"
        default:
            return "cannot listen for \(surface) on \(host):\(port): \(String(cString: strerror(error)))"
        }
    }

    /// The errno of binding (and, for TCP, listening on) `host:port`, or nil when it works; the socket is closed again.
    static func bindError(_ transport: Transport, host: String, port: UInt16) -> Int32? {
        guard let peer = OSCPeer(host: host, port: port) else { return EINVAL }
        let kind = transport == .tcp ? SOCK_STREAM : SOCK_DGRAM
        let descriptor = socket(AF_INET, Int32(kind.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        if transport == .tcp {
            var yes: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = peer.socketAddress
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if bound != 0 { return errno }
        if transport == .tcp, listen(descriptor, 1) != 0 { return errno }
        return nil
    }
}

/// The process holding a port, found through `/proc/net` (the socket's inode) and `/proc/PID/fd`: as much as
/// this user may read (another user's processes stay unnamed unless Foldback runs as root).
enum PortHolder {
    /// "NAME (pid N)" of the first process found with a socket bound to `port`, or nil.
    static func find(_ transport: PortProbe.Transport, port: UInt16) -> String? {
        let tables = transport == .tcp ? ["/proc/net/tcp", "/proc/net/tcp6"] : ["/proc/net/udp", "/proc/net/udp6"]
        let inodes = Set(tables.flatMap { socketInodes(in: $0, port: port, listeningOnly: transport == .tcp) })
        guard !inodes.isEmpty, let pids = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        for pid in pids where Int(pid) != nil {
            let folder = "/proc/\(pid)/fd"
            guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for descriptor in descriptors {
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(descriptor)"),
                      target.hasPrefix("socket:["), inodes.contains(String(target.dropFirst(8).dropLast()))
                else { continue }
                let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
                return "\(name) (pid \(pid))"
            }
        }
        return nil
    }

    /// The inodes of the sockets in a `/proc/net` table bound to `port` (TCP: listening ones only, state 0A).
    static func socketInodes(in table: String, port: UInt16, listeningOnly: Bool) -> [String] {
        guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { return [] }
        let wanted = String(format: ":%04X", port)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count > 9, fields[1].hasSuffix(wanted), !listeningOnly || fields[3] == "0A", fields[9] != "0" else { return nil }
            return String(fields[9])
        }
    }
}
