// The `[web]` section: fixed web tokens and musicians_see_sources load, are written back, and bad values are refused at their line and column. Non-realtime.
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

    func testMusiciansSeeSourcesLoadsAndSurvivesAWriteAndReload() throws {
        let preset = try PresetLoader.parse(routing + "[web]\nmusicians_see_sources = true\n", path: "test.toml")
        XCTAssertTrue(preset.web.musiciansSeeSources)
        XCTAssertFalse(preset.web.isEmpty)
        let written = PresetWriter.text(for: preset)
        XCTAssertTrue(written.contains("musicians_see_sources = true"), written)
        XCTAssertEqual(try PresetLoader.parse(written, path: "again.toml").web, preset.web)
        XCTAssertFalse(try PresetLoader.parse(routing, path: "none.toml").web.musiciansSeeSources, "off unless the preset says so")
        assertSingleError(routing + "[web]\nmusicians_see_sources = \"yes\"\n", line: 10, column: 25, contains: ["true or false"])
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
