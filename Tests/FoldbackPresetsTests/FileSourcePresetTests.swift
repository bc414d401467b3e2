// Tests of a strip's `source` table: paths resolved against the preset, defaults, no input ports, and located errors. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import Foundation
import XCTest
@testable import FoldbackPresets
import FoldbackGraph

final class FileSourcePresetTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-source-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("audio"), withIntermediateDirectories: true)
        try Data([0]).write(to: directory.appendingPathComponent("audio/backing.wav"))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func testASourceIsResolvedAgainstThePresetAndTheStripHasNoInputPorts() throws {
        let path = directory.appendingPathComponent("show.toml").path
        let text = presetText(stripName: "backing", stripLines: "channels = 2\nsource = { file = \"audio/backing.wav\", loop = true, gain_db = -6 }\n")
            + "\n[[strip]]\nname = \"vox\"\nsend = [{ bus = \"main\" }]\n"
        let preset = try PresetLoader.parse(text, path: path)
        let source = try XCTUnwrap(preset.strips[0].source)
        XCTAssertEqual(source.path, directory.appendingPathComponent("audio/backing.wav").standardizedFileURL.path)
        XCTAssertTrue(source.loops)
        XCTAssertEqual(source.gainDB, -6)
        XCTAssertNil(preset.strips[1].source)
        let layout = try PresetGraphBuilder.layout(for: preset)
        XCTAssertEqual(layout.inputPorts.map(\.name), ["vox_in"], "only the live strip has a port")
        XCTAssertEqual(layout.inputPorts.map(\.channel), [0])
        let minimal = try PresetLoader.parse(presetText(stripLines: "source = { file = \"audio/backing.wav\" }\n"), path: path)
        XCTAssertEqual(minimal.strips[0].source?.loops, false)
        XCTAssertEqual(minimal.strips[0].source?.gainDB, 0)
    }

    func testAMissingFileIsNamedAtItsValue() {
        assertSingleError(
            presetText(stripLines: "source = { file = \"nothere.wav\" }\n"),
            line: 6, column: 19, contains: ["source file 'nothere.wav' not found"])
    }

    func testBadSourceKeysAndValuesAreLocated() {
        let path = directory.appendingPathComponent("x.toml").path
        let broken = "source = { file = \"audio/backing.wav\", looop = true }\n"
        let errors = diagnosticsAt(path, presetText(stripLines: broken))
        XCTAssertEqual(errors.map(\.description), ["\(path):6:40: error: unknown key 'looop' in the strip's source; did you mean 'loop'?"])
        let range = diagnosticsAt(path, presetText(stripLines: "source = { file = \"audio/backing.wav\", gain_db = 30 }\n"))
        XCTAssertEqual(range.first?.location.column, 50)
        XCTAssertTrue(range.first?.message.contains("-144 to 24") ?? false)
        assertSingleError(presetText(stripLines: "source = { loop = true }\n"), line: 6, column: 1, contains: ["missing required key 'file'"])
        assertSingleError(presetText(stripLines: "source = \"a.wav\"\n"), line: 6, column: 10, contains: ["expected a table"])
        let connected = diagnosticsAt(path, presetText(stripLines: "connect = [\"system:capture_1\"]\nsource = { file = \"audio/backing.wav\" }\n"))
        XCTAssertEqual(connected.map(\.description), ["\(path):6:1: error: a strip with a file source has no input port: remove 'connect'"])
    }

    func testTempoAndKeyAreReadAndCheckedAgainstTheirRanges() throws {
        let path = directory.appendingPathComponent("show.toml").path
        let line = "source = { file = \"audio/backing.wav\", tempo = 0.85, pitch_semitones = -2, cents = 15, formant = true, engine = \"faster\" }\n"
        let source = try XCTUnwrap(try PresetLoader.parse(presetText(stripLines: line), path: path).strips[0].source)
        XCTAssertEqual(source.tempo, 0.85)
        XCTAssertEqual(source.pitchSemitones, -2)
        XCTAssertEqual(source.cents, 15)
        XCTAssertTrue(source.preservesFormant)
        XCTAssertEqual(source.engine, "faster")
        let written = PresetWriter.text(for: try PresetLoader.parse(presetText(stripLines: line), path: path))
        XCTAssertTrue(written.contains("tempo = 0.85, pitch_semitones = -2, cents = 15, formant = true, engine = \"faster\""), written)
        let reread = try XCTUnwrap(try PresetLoader.parse(written, path: path).strips[0].source)
        XCTAssertEqual([reread.tempo, reread.pitchSemitones, reread.cents], [0.85, -2, 15], "a saved preset keeps its source")
        let plain = try XCTUnwrap(try PresetLoader.parse(presetText(stripLines: "source = { file = \"audio/backing.wav\" }\n"), path: path).strips[0].source)
        XCTAssertEqual([plain.tempo, plain.pitchSemitones, plain.cents], [1, 0, 0])
        XCTAssertEqual(plain.engine, "finer")
        for (bad, message) in [("tempo = 3", "0.5 to 2"), ("pitch_semitones = -13", "-12 to 12"), ("cents = 101", "-100 to 100"), ("engine = \"r4\"", "'finer' or 'faster'")] {
            let errors = diagnosticsAt(path, presetText(stripLines: "source = { file = \"audio/backing.wav\", \(bad) }\n"))
            XCTAssertEqual(errors.count, 1, bad)
            XCTAssertTrue(errors.first?.message.contains(message) ?? false, "\(bad): \(errors)")
            XCTAssertEqual(errors.first?.location.line, 6, bad)
        }
    }

    private func diagnosticsAt(_ path: String, _ text: String) -> [PresetDiagnostic] {
        diagnostics(of: text, path: path).filter { $0.severity == .error }
    }
}
