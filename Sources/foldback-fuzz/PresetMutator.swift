// Seeded mutations of preset, curve and setlist files for the fuzz runner: bytes, TOML tokens, lines, splices. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

/// Turns seed files into new inputs: one to eight mutations each, chosen to reach the parser's and the
/// decoders' edges (table headers, quoting, numbers at their limits, keys Foldback knows, broken UTF-8).
struct PresetMutator {
    /// TOML syntax and Foldback vocabulary, inserted whole.
    static let tokens: [String] = [
        "[", "]", "[[", "]]", "[[[", "]]]", "{", "}", "[ }", ", }", "[\n}", "=", ",", ".", "\"", "'", "\"\"\"", "'''", "#", "\\", "\n", "\r\n",
        "\t", " ", "\u{0}", "\u{FEFF}", "\u{A0}", "\u{3000}", "é", "😀", "\u{D7FF}",
        "0", "-0", "+1", "1e309", "-1e309", "nan", "-inf", "+inf", "9223372036854775807", "9223372036854775808",
        "-9223372036854775809", "0x7fffffffffffffff", "0o777", "0b1", "1_000", "3.", ".5", "1979-05-27T07:32:00Z",
        "true", "false", "[]", "{}", "[[]]", "\"\"", "''",
        "[preset]", "[[strip]]", "[[bus]]", "[[strip.unit]]", "[[strip.send]]", "[[bus.unit]]", "[[bus.unit.band]]", "[midi]", "[[midi.cc]]", "[[midi.note]]",
        "[web]", "[web.bus_tokens]", "engineer_token", "bus_tokens", "[[dca]]", "[[mute_group]]", "strips", "dca", "mute_group",
        "[curve]", "[[band]]", "[setlist]", "[[song]]", "[[strip.unit.band]]",
        "name", "channels", "gain_db", "pan", "mute", "solo", "enabled", "connect", "send", "bus", "pre_fader", "width", "type",
        "id", "freq_hz", "q", "slope_db", "threshold_db", "ratio", "attack_ms", "release_ms", "decay_s", "uri",
        "controls", "source", "file", "loop", "curve", "limiter", "ceiling_db", "binaural", "room", "room_db", "preset", "state", "inputs", "outputs",
        "\"eq\"", "\"compressor\"", "\"reverb\"", "\"gain\"", "\"lv2\"", "\"peak\"", "\"low_shelf\"", "\"high_pass\"",
        "\"main\"", "\"vox\"", "\"../../etc/passwd\"", "\"/dev/zero\"",
    ]

    private let seeds: [[UInt8]]
    private var random: SeededGenerator

    init(seeds: [[UInt8]], seed: UInt64) {
        self.seeds = seeds.isEmpty ? [[]] : seeds
        random = SeededGenerator(seed: seed)
    }

    /// A new input: a seed file with one to eight mutations, at most `maximumSize` bytes.
    mutating func next(maximumSize: Int = 65_536) -> [UInt8] {
        var bytes = seeds[Int.random(in: 0..<seeds.count, using: &random)]
        for _ in 0..<Int.random(in: 1...8, using: &random) { mutate(&bytes) }
        if bytes.count > maximumSize { bytes.removeLast(bytes.count - maximumSize) }
        return bytes
    }

    private mutating func mutate(_ bytes: inout [UInt8]) {
        let position = bytes.isEmpty ? 0 : Int.random(in: 0...bytes.count, using: &random)
        switch Int.random(in: 0..<10, using: &random) {
        case 0 where !bytes.isEmpty:  // flip one bit
            let index = min(position, bytes.count - 1)
            bytes[index] ^= 1 << UInt8.random(in: 0..<8, using: &random)
        case 1 where !bytes.isEmpty:  // any byte value
            bytes[min(position, bytes.count - 1)] = UInt8.random(in: 0...255, using: &random)
        case 2:  // delete a run
            let end = min(bytes.count, position + Int.random(in: 1...64, using: &random))
            bytes.removeSubrange(position..<end)
        case 3:  // duplicate a run elsewhere
            let run = self.run(in: bytes, length: Int.random(in: 1...256, using: &random))
            bytes.insert(contentsOf: run, at: Int.random(in: 0...bytes.count, using: &random))
        case 4, 5:  // a token, anywhere
            bytes.insert(contentsOf: Array(token().utf8), at: position)
        case 6:  // a token at the start of a line, where headers and keys begin
            bytes.insert(contentsOf: Array(token().utf8), at: lineStart(in: bytes, near: position))
        case 7:  // a run of another seed
            let other = seeds[Int.random(in: 0..<seeds.count, using: &random)]
            bytes.insert(contentsOf: run(in: other, length: Int.random(in: 1...512, using: &random)), at: position)
        case 8:  // swap two lines
            swapLines(&bytes)
        default:  // cut the rest
            bytes.removeSubrange(position..<bytes.count)
        }
    }

    private mutating func token() -> String {
        Self.tokens[Int.random(in: 0..<Self.tokens.count, using: &random)]
    }

    private mutating func run(in bytes: [UInt8], length: Int) -> ArraySlice<UInt8> {
        guard !bytes.isEmpty else { return [] }
        let start = Int.random(in: 0..<bytes.count, using: &random)
        return bytes[start..<min(bytes.count, start + length)]
    }

    private func lineStart(in bytes: [UInt8], near position: Int) -> Int {
        var index = min(position, bytes.count)
        while index > 0 && bytes[index - 1] != UInt8(ascii: "\n") { index -= 1 }
        return index
    }

    private mutating func swapLines(_ bytes: inout [UInt8]) {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard lines.count > 1 else { return }
        lines.swapAt(Int.random(in: 0..<lines.count, using: &random), Int.random(in: 0..<lines.count, using: &random))
        bytes = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
    }
}
