// Hand-made extreme inputs for the fuzz runner: empty, binary, deep nesting, huge counts and names. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

/// Inputs no mutation is likely to reach: sizes and depths at and past every limit a loader has.
enum ExtremeInputs {
    /// Each input with a short name for the report.
    static func all() -> [(name: String, bytes: [UInt8])] {
        let manyStrips = "[[bus]]\nname = \"main\"\n" + (0..<2_000).map { "[[strip]]\nname = \"s\($0)\"\n  [[strip.send]]\n  bus = \"main\"\n" }.joined()
        let longName = String(repeating: "n", count: 10_000)
        var random = SeededGenerator(seed: 0xF0_1D_BA_C4)
        let binary = (0..<8_192).map { _ in UInt8.random(in: 0...255, using: &random) }
        let inputs: [(String, String)] = [
            ("empty", ""),
            ("only whitespace", String(repeating: " \t\n", count: 10_000)),
            ("10,000-deep array", "a = " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "\n"),
            ("10,000-deep inline table", "a = " + String(repeating: "{b=", count: 10_000) + "1" + String(repeating: "}", count: 10_000) + "\n"),
            ("10,000-deep dotted key", String(repeating: "k.", count: 10_000) + "k = 1\n"),
            ("10,000-deep header", "[" + String(repeating: "t.", count: 10_000) + "t]\n"),
            ("2,000 strips", manyStrips),
            ("10,000-character strip name", "[[bus]]\nname = \"main\"\n[[strip]]\nname = \"\(longName)\"\n"),
            ("10,000-character bus name", "[[bus]]\nname = \"\(longName)\"\n"),
            ("10,000-character key", "[preset]\n\(longName) = 1\n"),
            ("10,000-character unit id", "[[bus]]\nname = \"main\"\n[[strip]]\nname = \"s\"\n[[strip.unit]]\ntype = \"gain\"\nid = \"\(longName)\"\n"),
            ("one-megabyte string", "[preset]\nname = \"" + String(repeating: "x", count: 1 << 20) + "\"\n"),
            ("100,000 comment lines", String(repeating: "# comment\n", count: 100_000)),
            ("1,000 eq bands", "[[bus]]\nname = \"main\"\n[[strip]]\nname = \"s\"\n[[strip.unit]]\ntype = \"eq\"\n"
                + String(repeating: "[[strip.unit.band]]\ntype = \"peak\"\nfreq_hz = 1000\n", count: 1_000)),
            ("1,000 curve bands", "[curve]\nname = \"c\"\ndescription = \"d\"\n" + String(repeating: "[[band]]\ntype = \"peak\"\nfreq_hz = 1000\n", count: 1_000)),
            ("10,000 connections", "[[bus]]\nname = \"main\"\nconnect = [" + String(repeating: "\"system:playback_1\",", count: 10_000) + "]\n"),
            ("10,000 songs", "[setlist]\nname = \"s\"\n" + String(repeating: "[[song]]\npreset = \"x.toml\"\n", count: 10_000)),
            ("extreme numbers", "[[bus]]\nname = \"main\"\ngain_db = 1e308\nchannels = 9223372036854775807\n[[strip]]\nname = \"s\"\npan = nan\ngain_db = -inf\nchannels = -9223372036854775808\n"),
            ("NUL bytes", "[preset]\nname = \"a\u{0}b\"\n\u{0}\n"),
            ("CR line ends", "[preset]\rname = \"x\"\r[[bus]]\rname = \"main\"\r"),
        ]
        var all = inputs.map { (name: $0.0, bytes: Array($0.1.utf8)) }
        all.append((name: "8 KiB of random bytes", bytes: binary))
        all.append((name: "every byte value", bytes: (0...255).map { UInt8($0) }))
        all.append((name: "broken UTF-8", bytes: Array("[preset]\nname = \"".utf8) + [0xC3, 0x28, 0xED, 0xA0, 0x80, 0xF8, 0x88] + Array("\"\n".utf8)))
        return all
    }
}
