// The fuzz runner's seed files: the shipped presets and curves, plus a setlist and a MIDI map written here. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// Seed inputs for mutation.
enum SeedCorpus {
    /// Kinds of file the shipped folders lack: a setlist, a preset with a `[midi]` map and a file source, and
    /// one with a graphic EQ and delays (both spellings), a binaural bus with its room.
    static let builtIn: [(name: String, bytes: [UInt8])] = [
        ("setlist", Array("""
            [setlist]
            name = "Friday"

            [[song]]
            name = "Opener"
            preset = "vocal-monitor.toml"

            [[song]]
            preset = "passthrough.toml"

            """.utf8)),
        ("midi map", Array("""
            [preset]
            name = "MIDI"

            [[bus]]
            name = "main"
            channels = 2

            [[strip]]
            name = "vox"
            source = { file = "take.wav", loop = true, gain_db = -6.0 }
              [[strip.unit]]
              type = "compressor"
              threshold_db = -20.0
              [[strip.send]]
              bus = "main"

            [midi]
            channel = 1
            program_change = true

            [[midi.cc]]
            cc = 7
            target = "strip.vox.gain_db"
            curve = "db"

            [[midi.cc]]
            cc = 64
            target = "strip.vox.mute"
            mode = "toggle"

            [[midi.note]]
            channel = 10
            note = 36
            target = "strip.vox.solo"
            mode = "toggle"

            [web]
            engineer_token = "sound-desk-2026"
            musicians_tap_tempo = true
            [web.bus_tokens]
            main = "front-of-house"

            """.utf8)),
        ("geq and delay", Array("""
            [[bus]]
            name = "wedge"
            channels = 1

            [[strip]]
            name = "vox"
              [[strip.unit]]
              type = "geq"
              g31_5 = -3.5
              g2k5 = -6
              g20k = 15
              gain_db = -2
              [[strip.unit]]
              type = "delay"
              distance_m = 12.5
              [[strip.unit]]
              type = "delay"
              delay_ms = 500
              [[strip.send]]
              bus = "wedge"

            """.utf8)),
        ("binaural room", Array("""
            [[bus]]
            name = "iem"
            binaural = true
            room = true
            room_db = -6.5

            [[bus]]
            name = "wedge"
            channels = 1

            [[strip]]
            name = "keys"
            channels = 2
            send = [{ bus = "iem", azimuth_deg = -60.0, width = 0.5 }, { bus = "wedge" }]

            """.utf8)),
        ("stage plot", Array("""
            [[bus]]
            name = "iem_bass"
            binaural = true
            listener = "bass"

            [[strip]]
            name = "drums"
            channels = 2
              [[strip.send]]
              bus = "iem_bass"
              elevation_deg = 10
            [[strip]]
            name = "bass"
              [[strip.send]]
              bus = "iem_bass"
              distance_m = 0.3

            [[stage.player]]
            name = "bass"
            x_m = 2.0
            y_m = -0.5
            facing_deg = 30
            strips = ["bass"]
            [[stage.player]]
            name = "drums"
            x_m = 0
            y_m = 3
            strips = ["drums"]

            """.utf8)),
    ]

    /// Every `.toml` file directly in `folder`.
    static func files(in folder: String) throws -> [(name: String, bytes: [UInt8])] {
        guard let directory = opendir(folder) else {
            throw ValidationError("cannot open the corpus folder '\(folder)' (run from the repository root, or pass --corpus)")
        }
        defer { closedir(directory) }
        var files: [(name: String, bytes: [UInt8])] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasSuffix(".toml") else { continue }
            files.append((name: name, bytes: try read(folder + "/" + name)))
        }
        return files.sorted { $0.name < $1.name }
    }

    private static func read(_ path: String) throws -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw ValidationError("cannot read the seed '\(path)'") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }
}
