// This machine's IPv4 addresses, for printing links a phone can open when the web surface binds every interface. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// The IPv4 addresses of this machine's interfaces.
public enum NetworkAddresses {
    /// Every interface's IPv4 address, loopback last (so the first is the one to print for phones).
    public static func local() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return ["127.0.0.1"] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        var entry: UnsafeMutablePointer<ifaddrs>? = first
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            guard let address = current.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            let converted = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                var raw = inet.pointee.sin_addr
                return inet_ntop(AF_INET, &raw, &text, socklen_t(INET_ADDRSTRLEN)) != nil
            }
            if converted { addresses.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
        }
        let loopback = addresses.filter { $0.hasPrefix("127.") }
        let others = addresses.filter { !$0.hasPrefix("127.") }
        return others.isEmpty && loopback.isEmpty ? ["127.0.0.1"] : others + loopback
    }
}
