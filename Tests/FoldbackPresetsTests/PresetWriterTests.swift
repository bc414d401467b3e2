// PresetWriter: every shipped and fixture preset written and read back is the same preset. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import XCTest
@testable import FoldbackPresets

final class PresetWriterTests: XCTestCase {
    /// Every preset file of the repository: presets/ and the test fixtures.
    private var presetFiles: [String] {
        let folders = ["presets", "Tests/FoldbackIntegrationTests/Fixtures", "Tests/FoldbackPresetsTests/Fixtures"]
        return folders.flatMap { folder -> [String] in
            let path = "\(repositoryRoot)/\(folder)"
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.filter { $0.hasSuffix(".toml") }.sorted().map { "\(path)/\($0)" }
        }
    }

    func testEveryPresetReadsBackEqualFromWhatTheWriterWrites() throws {
        let files = presetFiles
        XCTAssertGreaterThanOrEqual(files.count, 3)
        for file in files {
            let original = try PresetLoader.load(path: file)
            let text = PresetWriter.text(for: original)
            let reread = try PresetLoader.parse(text, path: "written.toml")
            assertEqual(reread, original, file)
            XCTAssertEqual(PresetWriter.text(for: reread), text, "\(file): writing is a fixed point")
        }
    }

    func testMIDIEQBandsLimitersAndQuotingSurviveTheRoundTrip() throws {
        let original = try PresetLoader.parse(#"""
            [preset]
            name = "Quote \" and \\ and é"
            [[bus]]
            name = "main"
            limiter = false
            connect = [["system:playback_1", "rec:in_1"], "system:playback_2"]
            [[bus]]
            name = "iem"
            channels = 1
            gain_db = -3.5
            limiter_ceiling_db = -2
            [[strip]]
            name = "vox"
            gain_db = -0.1
            pan = 0.3
            solo = true
              [[strip.unit]]
              type = "eq"
              curve = "Vocal Booster"
              [[strip.unit.band]]
              index = 2
              gain_db = 1.25
              [[strip.unit.band]]
              type = "high_pass"
              freq_hz = 90
              slope_db_oct = 24
              [[strip.unit]]
              type = "gain"
              polarity = "inverted"
              bypass = true
              [[strip.send]]
              bus = "iem"
              pre_fader = true
              gain_db = 3
            [midi]
            program_channel = 16
              [[midi.cc]]
              cc = 1
              target = "strip.vox.unit.eq.gain_db"
              [[midi.cc]]
              channel = 10
              cc = 2
              target = "strip.vox.unit.gain.bypass"
              mode = "toggle"
            """#, path: "test.toml")
        let text = PresetWriter.text(for: original)
        let reread = try PresetLoader.parse(text, path: "written.toml")
        assertEqual(reread, original, "inline preset")
        XCTAssertEqual(reread.name, "Quote \" and \\ and é")
        XCTAssertEqual(reread.midi.programChannel, 16)
        XCTAssertEqual(reread.strips[0].units[0].bands.map(\.origin), original.strips[0].units[0].bands.map(\.origin))
    }

    func testWritingToAFileReplacesItWholeAndReportsAnUnwritablePath() throws {
        let preset = try PresetLoader.load(path: "\(repositoryRoot)/presets/passthrough.toml")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fb-writer-\(getpid()).toml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "junk that is much longer than nothing".write(toFile: path, atomically: false, encoding: .utf8)
        try PresetWriter.write(preset, to: path)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), PresetWriter.text(for: preset))
        XCTAssertThrowsError(try PresetWriter.write(preset, to: "/nonexistent-dir/x.toml")) { error in
            XCTAssertTrue("\(error)".contains("cannot write preset '/nonexistent-dir/x.toml': No such file or directory"), "\(error)")
        }
    }

    /// Field by field, leaving out source locations and warnings (they belong to the text, not the preset).
    private func assertEqual(_ actual: Preset, _ expected: Preset, _ label: String, line: UInt = #line) {
        XCTAssertEqual(actual.name, expected.name, label, line: line)
        XCTAssertEqual(actual.description, expected.description, label, line: line)
        XCTAssertEqual(actual.midi, expected.midi, label, line: line)
        XCTAssertEqual(actual.buses.count, expected.buses.count, label, line: line)
        for (a, e) in zip(actual.buses, expected.buses) {
            XCTAssertEqual([a.name, "\(a.channels)", "\(a.gainDB)", "\(a.isMuted)", "\(a.connections)", "\(String(describing: a.limiter))"],
                           [e.name, "\(e.channels)", "\(e.gainDB)", "\(e.isMuted)", "\(e.connections)", "\(String(describing: e.limiter))"],
                           label, line: line)
        }
        XCTAssertEqual(actual.strips.count, expected.strips.count, label, line: line)
        for (a, e) in zip(actual.strips, expected.strips) {
            XCTAssertEqual([a.name, "\(a.channels)", "\(a.gainDB)", "\(a.pan)", "\(a.isMuted)", "\(a.isSoloed)", "\(a.isEnabled)", "\(a.connections)"],
                           [e.name, "\(e.channels)", "\(e.gainDB)", "\(e.pan)", "\(e.isMuted)", "\(e.isSoloed)", "\(e.isEnabled)", "\(e.connections)"],
                           label, line: line)
            XCTAssertEqual(a.sends.map { "\($0.busName) \($0.gainDB) \($0.isPreFader)" }, e.sends.map { "\($0.busName) \($0.gainDB) \($0.isPreFader)" },
                           label, line: line)
            XCTAssertEqual(a.units.count, e.units.count, label, line: line)
            for (au, eu) in zip(a.units, e.units) {
                XCTAssertEqual([au.type, au.id, "\(au.isBypassed)", "\(String(describing: au.curve))"],
                               [eu.type, eu.id, "\(eu.isBypassed)", "\(String(describing: eu.curve))"], label, line: line)
                XCTAssertEqual(au.parameters, eu.parameters, "\(label) \(au.id)", line: line)
                XCTAssertEqual(au.bands.map(\.band), eu.bands.map(\.band), "\(label) \(au.id) bands", line: line)
            }
        }
    }
}
