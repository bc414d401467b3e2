// Malformed and random X32 packets for the X32 surface's fuzz pass, from a seed. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackDSP

/// Packets an X32 port must refuse without changing anything: random bytes, bad and truncated type tags, wrong
/// types and out-of-range values on real addresses, huge and negative indexes, over-long addresses and strings,
/// truncated valid packets and bundles, batch and format subscriptions out of every range. Deterministic for a seed (``SeededGenerator``).
struct X32Fuzz {
    private var random: SeededGenerator
    private static let addresses = [
        "/ch/01/mix/fader", "/ch/01/mix/on", "/ch/01/mix/pan", "/ch/01/mix/02/level", "/ch/01/mix/01/level", "/dca/1/fader", "/dca/1/on",
        "/main/st/mix/fader", "/bus/01/mix/on", "/config/mute/1", "/ch/01/config/name", "/ch/01/eq/1/g", "/-prefs/name", "/meters",
        "/subscribe", "/renew", "/node", "/xremote", "/xremotenfb", "/ch/01/preamp/trim",
    ]

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    private mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }

    /// An address padded to 4 bytes, as OSC writes strings.
    private static func padded(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8) + [0]
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }

    /// One malformed packet.
    mutating func next() -> [UInt8] {
        let address = pick(Self.addresses)
        switch Int.random(in: 0..<10, using: &random) {
        case 0:   // random bytes, sometimes starting like an address
            let bytes = (0..<Int.random(in: 0...600, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            return Bool.random(using: &random) ? Array("/ch/".utf8) + bytes : bytes
        case 1:   // type tags naming arguments that are not there, or types nobody reads
            return Self.padded(address) + Self.padded(pick([",f", ",ffffffff", ",s", ",b", ",i", ",zq", ",N", ",[ff]", "f", ",\u{7f}"]))
        case 2:   // wrong types and out-of-range values on real addresses
            let argument = pick([OSCArgument.float(.nan), .float(-.infinity), .float(1.0001), .float(-0.5), .float(1e30), .int(2), .int(-7),
                                 .int(Int32.max), .string(String(repeating: "x", count: 300)), .blob([1, 2, 3]), .string("")])
            return (try? OSCCodec.encode(OSCMessage(address, [argument]))) ?? []
        case 3:   // huge, negative and malformed indexes
            let index = pick(["99", "00", "-1", "4294967296", "999999999999", "1e3", "", "01/../02", "%n%n"])
            return (try? OSCCodec.encode(OSCMessage("/ch/\(index)/mix/fader", [.float(0.5)]))) ?? []
        case 4:   // a valid set cut short anywhere
            let packet = (try? OSCCodec.encode(OSCMessage(address, [.float(0.25), .int(1)]))) ?? []
            return Array(packet.prefix(Int.random(in: 0..<max(1, packet.count), using: &random)))
        case 5:   // bundles, nested, with sets inside
            let inner = (try? OSCCodec.encode(OSCMessage("/ch/01/mix/fader", [.float(0.1)]))) ?? []
            let size = withUnsafeBytes(of: Int32(inner.count).bigEndian, Array.init)
            return Self.padded("#bundle") + [UInt8](repeating: 0, count: 8) + size + inner
        case 6:   // too many arguments
            return (try? OSCCodec.encode(OSCMessage(address, (0..<Int.random(in: 2...40, using: &random)).map { .float(Float($0)) }))) ?? []
        case 7:   // an over-long address
            return (try? OSCCodec.encode(OSCMessage("/" + String(repeating: "ch/01/", count: Int.random(in: 20...2000, using: &random)), [.int(1)]))) ?? []
        case 8:   // batch and format subscriptions and unsubscribes, malformed or absurd
            let strings = (0..<Int.random(in: 0...40, using: &random)).map { _ in
                OSCArgument.string(pick(["/a", "", "/ch/**/mix/fader", "/**/**", "/meters/0", "/meters/1", "meters/0", "/headamp/**/gain",
                                         "/-show/showfile/scene/**/name", String(repeating: "/**", count: 40)]))
            }
            let numbers = (0..<Int.random(in: 0...5, using: &random)).map { _ in OSCArgument.int(pick([Int32.min, -1, 0, 1, 99, 999, 1000, Int32.max])) }
            let path = pick(["/formatsubscribe", "/batchsubscribe", "/unsubscribe", "/renew"])
            return (try? OSCCodec.encode(OSCMessage(path, Bool.random(using: &random) ? strings + numbers : numbers + strings))) ?? []
        default:   // subscriptions with absurd arguments
            return (try? OSCCodec.encode(OSCMessage(pick(["/meters", "/subscribe", "/batchsubscribe", "/renew"]),
                                                    [.string(pick(["/meters/0", "/meters/99", "", "/ch/01/mix/fader"])), .int(pick([Int32.min, -1, 0, 1_000_000]))]))) ?? []
        }
    }
}
