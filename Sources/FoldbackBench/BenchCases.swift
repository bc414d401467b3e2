// The presets `foldback bench` measures: one per built-in unit, and the reference vocal chain. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation

/// One benchmark: a one-strip preset and what it exercises.
package struct BenchCase {
    package let name: String
    package let summary: String
    package let preset: String
}

/// Every benchmark case, as preset text (so the real preset → graph path is what gets measured).
package enum BenchCases {
    package static let all: [BenchCase] = [
        BenchCase(name: "mixer", summary: "mono strip → stereo bus, no units, no limiter", preset: preset(units: "", limiter: false)),
        BenchCase(name: "gain", summary: "gain unit", preset: preset(units: unit("gain", "gain_db = -3.0"), limiter: false)),
        BenchCase(name: "eq", summary: "10-band parametric EQ", preset: preset(units: tenBandEQ, limiter: false)),
        BenchCase(name: "compressor", summary: "compressor, RMS, soft knee", preset: preset(units: compressor, limiter: false)),
        BenchCase(name: "reverb", summary: "FDN reverb, mono in → stereo out", preset: preset(units: reverb, limiter: false)),
        BenchCase(name: "geq", summary: "31-band graphic EQ, 6 bands moved", preset: preset(units: graphicEQ, limiter: false)),
        BenchCase(name: "delay", summary: "delay, 120 ms", preset: preset(units: unit("delay", "delay_ms = 120.0"), limiter: false)),
        BenchCase(name: "limiter", summary: "bus brickwall limiter (stereo)", preset: preset(units: "", limiter: true)),
        BenchCase(name: "feedback", summary: "feedback suppressor, all 16 notches in place, analysis running", preset: preset(units: feedback, limiter: false)),
        BenchCase(name: "vocal_chain", summary: "10-band EQ → compressor → reverb → limiter", preset: preset(units: referenceChain, limiter: true)),
        BenchCase(
            name: "console", summary: "monitor console: 2 strips, 4 limited buses with units, reverb effect bus + return",
            preset: console),
        BenchCase(
            name: "strips_128", summary: "128 mono strips (gain unit, 2 sends each) into 4 stereo buses: the per-strip cost of meters, ramps and dispatch",
            preset: manyStrips(128)),
        BenchCase(
            name: "chains_128", summary: "128 strips of the reference vocal chain into one limited bus (what bench --live runs): per-frame cost of all, with 128 strips' state in the caches",
            preset: vocalChains(strips: 128)),
        BenchCase(
            name: "binaural", summary: "one mono strip into a binaural bus (Debian KEMAR set): the cost of one placed source",
            preset: binaural(strips: 1, buses: 1)),
        BenchCase(
            name: "binaural_64", summary: "16 mono strips into 4 binaural buses, each at its own position: 64 placed sources",
            preset: binaural(strips: 16, buses: 4)),
        BenchCase(
            name: "binaural_room", summary: "binaural_64 with a room on each of the 4 buses: less binaural_64, what 4 rooms cost",
            preset: binaural(strips: 16, buses: 4, room: true)),
    ]

    /// `strips` mono strips each sent to every one of `buses` binaural in-ear buses (the KEMAR set), each send at its
    /// own azimuth: what placing sources around the head costs; with `room`, each bus has its room at 0 dB.
    package static func binaural(strips: Int, buses: Int, room: Bool = false) -> String {
        let roomText = room ? "room = true\n" : ""
        let busText = (1...buses).map { "\n[[bus]]\nname = \"iem\($0)\"\nchannels = 2\nin_ear = true\nbinaural = true\nlimiter = false\n" + roomText }.joined()
        let stripText = (0..<strips).map { index in
            "\n[[strip]]\nname = \"in\(index + 1)\"\nchannels = 1\n" + (1...buses).map { bus in
                "\n  [[strip.send]]\n  bus = \"iem\(bus)\"\n  gain_db = -6.0\n  azimuth_deg = \(Double((index * 37 + bus * 53) % 360 - 180))\n"
            }.joined()
        }
        return busText + stripText.joined()
    }

    /// `count` mono strips with one gain unit, each sent to two of four stereo buses (one pre-fader), no limiters:
    /// what every strip costs besides its units.
    package static func manyStrips(_ count: Int) -> String {
        let buses = (1...4).map { "\n[[bus]]\nname = \"mix\($0)\"\nchannels = 2\nlimiter = false\n" }.joined()
        let strips = (0..<count).map { index in
            "\n[[strip]]\nname = \"in\(index + 1)\"\nchannels = 1\n" + unit("gain", "gain_db = -3.0")
                + "\n  [[strip.send]]\n  bus = \"mix\(index % 4 + 1)\"\n  gain_db = -6.0\n"
                + "\n  [[strip.send]]\n  bus = \"mix\((index + 1) % 4 + 1)\"\n  gain_db = -10.0\n  pre_fader = true\n"
        }
        return buses + strips.joined()
    }

    /// A small monitor console, as `presets/monitor-console.toml` builds it: a vocal (the reference chain, 2 ms
    /// lookahead so the other paths run through alignment delays) and a stereo guitar into front of house
    /// (compressor + EQ), two in-ear mixes (one with a compressor), a wedge (EQ) and a shared reverb effect
    /// bus returned (through an EQ) into three of them.
    package static let console: String = {
        func bus(_ name: String, channels: Int, units: String, extra: String = "") -> String {
            "\n[[bus]]\nname = \"\(name)\"\nchannels = \(channels)\n\(extra)\(units.replacingOccurrences(of: "strip.unit", with: "bus.unit"))\n"
        }
        func sends(_ levels: [(String, Double)]) -> String {
            levels.map { "\n  [[strip.send]]\n  bus = \"\($0.0)\"\n  gain_db = \($0.1)\n" }.joined()
        }
        let lookahead = unit("compressor", "threshold_db = -18.0\n  ratio = 3.0\n  lookahead_ms = 2.0")
        return bus("foh", channels: 2, units: compressor + tenBandEQ)
            + bus("iem_vox", channels: 2, units: compressor, extra: "in_ear = true\n")
            + bus("iem_gtr", channels: 2, units: "", extra: "in_ear = true\ncompensate = false\n")
            + bus("wedge", channels: 1, units: tenBandEQ)
            + bus("verb", channels: 2, units: unit("reverb", "decay_s = 1.6\n  mix = 1.0"), extra: "output = false\nlimiter = false\n")
            + "\n[[strip]]\nname = \"vox\"\nchannels = 1\n" + tenBandEQ + lookahead
            + sends([("foh", 0), ("iem_vox", 3), ("iem_gtr", -8), ("wedge", 0), ("verb", -6)])
            + "\n[[strip]]\nname = \"gtr\"\nchannels = 2\n" + sends([("foh", -2), ("iem_vox", -10), ("iem_gtr", 0), ("verb", -14)])
            + "\n[[strip]]\nname = \"verb_ret\"\nreturn = \"verb\"\n" + tenBandEQ + sends([("foh", -4), ("iem_vox", -9), ("wedge", -18)])
    }()

    /// One mono strip `vox` with `units` (TOML) sent to one bus `main` of `busChannels` channels.
    package static func preset(units: String, busChannels: Int = 2, limiter: Bool) -> String {
        """
        [[bus]]
        name = "main"
        channels = \(busChannels)
        limiter = \(limiter)

        [[strip]]
        name = "vox"
        channels = 1
        \(units)
          [[strip.send]]
          bus = "main"
        """
    }

    /// `strips` mono strips of the reference vocal chain (`vox1`…, or `chain`'s units), all sent to one limited stereo bus.
    package static func vocalChains(strips: Int, chain: String = referenceChain) -> String {
        let stripTables = (1...max(1, strips)).map { index in
            "\n[[strip]]\nname = \"vox\(index)\"\nchannels = 1\n\(chain)\n  [[strip.send]]\n  bus = \"main\"\n"
        }
        return "[[bus]]\nname = \"main\"\nchannels = 2\nlimiter = true\n" + stripTables.joined()
    }

    private static func unit(_ type: String, _ body: String) -> String {
        "\n  [[strip.unit]]\n  type = \"\(type)\"\n  \(body)\n"
    }

    private static let tenBandEQ: String = {
        let frequencies = [31.0, 63, 125, 250, 500, 1000, 2000, 4000, 8000, 16000]
        let bands = frequencies.enumerated().map { index, frequency in
            "\n    [[strip.unit.band]]\n    type = \"peak\"\n    freq_hz = \(frequency)\n    gain_db = \(index % 2 == 0 ? 3.0 : -2.0)\n    q = 1.4\n"
        }
        return unit("eq", "gain_db = 0.0") + bands.joined()
    }()

    /// The reference vocal chain's units (TOML): 10-band EQ → compressor → reverb (mono in, stereo out).
    package static let referenceChain = tenBandEQ + compressor + reverb

    /// The reference chain as LV2 plugins, as `presets/lv2-vocal.toml` has it: x42 fil4 EQ → x42 darc compressor → swh
    /// plate (mono in, stereo out); `isolation` (when given) on each unit.
    package static func lv2Chain(isolation: String? = nil) -> String {
        let place = isolation.map { "\n  isolation = \"\($0)\"" } ?? ""
        return unit("lv2", "id = \"eq\"\n  uri = \"http://gareus.org/oss/lv2/fil4#mono\"\(place)\n"
                    + "  controls = { HighPass = 1, HPfreq = 90, LSsec = 1, LSfreq = 200, LSgain = -2, sec3 = 1, freq3 = 3000, gain3 = 3 }")
            + unit("lv2", "id = \"comp\"\n  uri = \"http://gareus.org/oss/lv2/darc#mono\"\(place)\n"
                   + "  controls = { threshold = -24, Ratio = 0.5, attack = 0.005, release = 0.15 }")
            + unit("lv2", "id = \"verb\"\n  uri = \"http://plugin.org.uk/swh-plugins/plate\"\(place)\n  controls = { time = 2.2, damping = 0.4, wet = 0.2 }")
    }

    /// A feedback unit holding a saved ring-out of 16 notches (the most its bank runs), 250 Hz … 8.4 kHz.
    private static let feedback: String = {
        let bands = (0..<16).map { index in
            "\n    [[strip.unit.band]]\n    type = \"peak\"\n    freq_hz = \(Double(Int(250 * pow(2, Double(index) / 3).rounded())))\n    gain_db = -9.0\n    q = 16.0\n"
        }
        return unit("feedback", "mode = \"live\"") + bands.joined()
    }()

    private static let compressor = unit("compressor", "threshold_db = -24.0\n  ratio = 4.0\n  knee_db = 6.0\n  detection = \"rms\"")
    private static let reverb = unit("reverb", "decay_s = 1.8\n  mix = 0.25")
    private static let graphicEQ = unit("geq", "g63 = -3.0\n  g250 = -4.0\n  g2k5 = -6.0\n  g3k15 = -9.0\n  g8k = 2.0\n  g12k5 = -2.0")
}
