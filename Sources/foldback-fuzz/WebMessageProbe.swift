// Mutated web page messages through the WebSocket's request parser: refused as malformed or taken within their limits, never a crash. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackWeb

/// What the web request parser made of the fuzzed messages, added up over a run.
struct WebMessageTally: Sendable {
    var taken = 0
    var refused = 0
    /// Messages taken outside the limits a page's request has (a bug: the server would act on them).
    var outOfBounds: [String] = []
}

/// Mutates the messages a page sends (a parameter move, a command, the analyser's source, a meter rate) and feeds
/// them to ``WebRequest/parse(_:)``, the first thing the server does with a WebSocket text message.
struct WebMessageProbe {
    /// Every kind of request a page sends.
    static let seeds = [
        #"{"path":"/foldback/strip/vox/send/iem_vox/gain_db","value":-3}"#, #"{"path":"/foldback/bus/iem_vox/mute","value":1}"#,
        #"{"path":"/foldback/strip/vox/send/iem_bass/azimuth_deg","value":-135}"#, #"{"path":"/foldback/strip/vox/send/iem_bass/distance_m","value":1.25}"#,
        #"{"command":"setlist/next"}"#, #"{"command":"bus/wedge/unit/fbx/notch/3/clear"}"#, #"{"command":"strip/click/source/play"}"#,
        #"{"analyser":"bus/iem_vox"}"#, #"{"analyser":"off"}"#, #"{"meters":25}"#, #"{"meters":0}"#, #"{"meters":12.5}"#,
    ].map { Array($0.utf8) }
    /// JSON syntax, numbers at the edges and the keys and words a request uses, inserted whole.
    static let tokens = [
        "{", "}", "[", "]", "\"", ":", ",", " ", "\\", "\\u0000", "\u{0}", "é", "😀", "\u{FEFF}", "-", ".", "e", "E", "0", "-0", "25", "26",
        "25.0001", "-1", "1e999", "-1e999", "1e-999", "NaN", "Infinity", "null", "true", "false", "[]", "{}", "\"\"",
        "\"path\"", "\"value\"", "\"command\"", "\"analyser\"", "\"meters\"", "\"/foldback/\"", "/foldback/strip/vox/gain_db", "azimuth_deg", "elevation_deg", "distance_m", "180", "-180.5", "90.01", "0.19",
        String(repeating: "a", count: 300), String(repeating: "9", count: 400),
    ].map { Array($0.utf8) }

    private var random: SeededGenerator

    init(seed: UInt64) { random = SeededGenerator(seed: seed ^ 0x5745_4221) }

    /// A new message: a seed with one to four mutations (token inserts, byte flips, cuts, splices).
    mutating func next() -> [UInt8] {
        var bytes = Self.seeds[Int.random(in: 0..<Self.seeds.count, using: &random)]
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let at = Int.random(in: 0...bytes.count, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: bytes.insert(contentsOf: Self.tokens[Int.random(in: 0..<Self.tokens.count, using: &random)], at: at)
            case 1 where at < bytes.count: bytes[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
            case 2 where at < bytes.count: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...8, using: &random)))
            default:
                let other = Self.seeds[Int.random(in: 0..<Self.seeds.count, using: &random)]
                bytes.insert(contentsOf: other.prefix(Int.random(in: 0...other.count, using: &random)), at: at)
            }
        }
        return bytes
    }

    /// Parses `bytes` as a page's text message and checks that whatever is taken is within a request's limits.
    static func run(_ bytes: [UInt8], name: String, into tally: inout WebMessageTally) {
        let text = String(decoding: bytes, as: UTF8.self)
        let request: WebRequest
        do {
            request = try WebRequest.parse(text)
        } catch {
            tally.refused += 1
            return
        }
        tally.taken += 1
        let inBounds: Bool
        switch request {
        case let .set(path, value): inBounds = path.utf8.count <= WebRequest.maximumPathBytes && value.isFinite
        case let .command(command): inBounds = command.utf8.count <= WebRequest.maximumPathBytes
        case let .analyser(source): inBounds = source.utf8.count <= WebRequest.maximumPathBytes
        case let .meters(rate): inBounds = rate.isFinite && rate >= 0 && rate <= WebRequest.maximumMeterRate
        }
        if !inBounds || text.utf8.count > WebRequest.maximumMessageBytes, tally.outOfBounds.count < 20 {
            tally.outOfBounds.append("\(name): \(String(text.prefix(120)))")
        }
    }
}
