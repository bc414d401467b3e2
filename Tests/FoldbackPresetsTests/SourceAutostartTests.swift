// `source = { …, autostart = true | false | "song" }`: decoded, written back, and a wrong value refused at its place. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import XCTest
@testable import FoldbackPresets

extension FileSourcePresetTests {
    func testAutostartIsReadWrittenAndCheckedWhereWritten() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-autostart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: path) }
        try Data([0]).write(to: path.appendingPathComponent("click.wav"))
        let preset = path.appendingPathComponent("show.toml").path
        func load(_ autostart: String?) throws -> FileSourceAutostart? {
            let extra = autostart.map { ", autostart = \($0)" } ?? ""
            return try PresetLoader.parse(presetText(stripName: "click", stripLines: "source = { file = \"click.wav\"\(extra) }\n"), path: preset)
                .strips[0].source?.autostart
        }
        XCTAssertEqual(try load(nil), .atStart, "plays at start by default, as before")
        XCTAssertEqual(try load("true"), .atStart)
        XCTAssertEqual(try load("false"), .off)
        XCTAssertEqual(try load("\"song\""), .withSong)
        for autostart in ["false", "\"song\""] {
            let loaded = try PresetLoader.parse(presetText(stripName: "click", stripLines: "source = { file = \"click.wav\", autostart = \(autostart) }\n"), path: preset)
            let again = try PresetLoader.parse(PresetWriter.text(for: loaded), path: preset)
            XCTAssertEqual(again.strips[0].source?.autostart, loaded.strips[0].source?.autostart, "written back: \(autostart)")
        }
        XCTAssertThrowsError(try load("\"later\"")) { error in
            XCTAssertTrue("\(error)".contains("'autostart': expected true, false or \"song\", found a string \"later\""), "\(error)")
        }
    }
}
