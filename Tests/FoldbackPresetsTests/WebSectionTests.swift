// The `[web]` section: fixed web tokens, musicians_see_sources and musicians_tap_tempo load, are written back, and bad values are refused at their line and column. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
@testable import FoldbackPresets
import XCTest

final class WebSectionTests: XCTestCase {
    private let routing = """
        [[bus]]
        name = "main"
        [[bus]]
        name = "iem_vox"
        [[strip]]
        name = "vox"
          [[strip.send]]
          bus = "iem_vox"

        """

    func testTokensLoadInBusOrderAndSurviveAWriteAndReload() throws {
        let preset = try PresetLoader.parse(routing + """
            [web]
            engineer_token = "sound-desk-2026"
            [web.bus_tokens]
            iem_vox = "vox_Anna_1234"
            main = "front-of-house"
            """, path: "test.toml")
        XCTAssertEqual(preset.web.engineerToken, "sound-desk-2026")
        XCTAssertEqual(preset.web.busTokens, [.init(bus: "main", token: "front-of-house"), .init(bus: "iem_vox", token: "vox_Anna_1234")])
        XCTAssertEqual(preset.web.token(forBus: "iem_vox"), "vox_Anna_1234")
        let written = PresetWriter.text(for: preset)
        XCTAssertTrue(written.contains("[web.bus_tokens]"), written)
        XCTAssertEqual(try PresetLoader.parse(written, path: "again.toml").web, preset.web)
        XCTAssertTrue(try PresetLoader.parse(routing, path: "none.toml").web.isEmpty)
        XCTAssertFalse(PresetWriter.text(for: try PresetLoader.parse(routing, path: "none.toml")).contains("[web]"))
    }

    /// `[web] KEY = true` loads (read by `read`), is written back and reloads the same; it is off without the line; a
    /// value that is not a boolean is refused at its line and column.
    private func assertWebSwitch(_ key: String, _ read: (WebSpec) -> Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        let preset = try PresetLoader.parse(routing + "[web]\n\(key) = true\n", path: "test.toml")
        XCTAssertTrue(read(preset.web), file: file, line: line)
        XCTAssertFalse(preset.web.isEmpty, file: file, line: line)
        let written = PresetWriter.text(for: preset)
        XCTAssertTrue(written.contains("\(key) = true"), written, file: file, line: line)
        XCTAssertEqual(try PresetLoader.parse(written, path: "again.toml").web, preset.web, file: file, line: line)
        XCTAssertFalse(read(try PresetLoader.parse(routing, path: "none.toml").web), "off unless the preset says so", file: file, line: line)
        assertSingleError(routing + "[web]\n\(key) = \"yes\"\n", line: 10, column: key.count + 4, contains: ["true or false"])
    }

    func testMusiciansSeeSourcesLoadsAndSurvivesAWriteAndReload() throws {
        try assertWebSwitch("musicians_see_sources") { $0.musiciansSeeSources }
    }

    func testMusiciansTapTempoLoadsAndSurvivesAWriteAndReload() throws {
        try assertWebSwitch("musicians_tap_tempo") { $0.musiciansTapTempo }
    }

    func testBadTokensAreRefusedWhereTheyAre() {
        assertSingleError(routing + "[web]\nengineer_token = \"short\"\n", line: 10, column: 18, contains: ["8 to 64 characters"])
        assertSingleError(routing + "[web]\nengineer_token = \"has a space\"\n", line: 10, column: 18, contains: ["'engineer_token'"])
        assertSingleError(routing + "[web]\nengineer_token = 12345678\n", line: 10, column: 18, contains: ["expected a string"])
        assertSingleError(routing + "[web]\nbus_tokens = { monitor = \"abcdefgh\" }\n", line: 10, column: 16, contains: ["unknown key 'monitor'"])
        assertSingleError(routing + "[web]\npin = \"12345678\"\n", line: 10, column: 1, contains: ["unknown key 'pin' in [web]"])
        assertSingleError(routing + "[web]\nengineer_token = \"same-token\"\n[web.bus_tokens]\nmain = \"same-token\"\n",
                          line: 12, column: 8, contains: ["duplicate web token 'same-token'", "line 10"])
    }
}
