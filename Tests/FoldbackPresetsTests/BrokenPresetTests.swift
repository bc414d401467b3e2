// Tests that broken presets fail with the exact position and a message naming the problem: keys, types, ranges. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import XCTest
@testable import FoldbackPresets

final class BrokenPresetTests: XCTestCase {
    func testTypoInAKeySuggestsTheRightOne() {
        assertSingleError(
            presetText(stripName: "vox", stripLines: "gain_bd = 3\n"),
            line: 6, column: 1, contains: ["unknown key 'gain_bd'", "[[strip]]", "did you mean 'gain_db'?"]
        )
    }

    func testAMonoStripNamedMidiWouldTakeTheMIDIInputPortsName() throws {
        assertSingleError(
            presetText(stripName: "midi"),
            line: 4, column: 8, contains: ["strip name 'midi'", "input port 'midi_in'", "MIDI input"]
        )
        XCTAssertNoThrow(try PresetLoader.parse(presetText(stripName: "midi", stripLines: "channels = 2\n"), path: "stereo.toml"),
                         "a stereo strip named midi has ports midi_in_L/_R, which is fine")
    }

    func testUnknownKeyWithNothingCloseListsTheValidKeys() {
        assertSingleError(
            "[preset]\ncolour = \"red\"\n" + minimalBusAndStrip,
            line: 2, column: 1, contains: ["unknown key 'colour'", "valid keys here are: name, description"]
        )
    }

    func testMissingUnitSuffixSuggestsTheUnitKey() {
        assertSingleError(
            presetText(busLines: "gain = -3\n"),
            line: 3, column: 1, contains: ["unknown key 'gain'", "did you mean 'gain_db'?"]
        )
    }

    func testWrongTypeNamesExpectedAndFound() {
        assertSingleError(
            presetText(busLines: "gain_db = \"loud\"\n"),
            line: 3, column: 11, contains: ["'gain_db'", "expected a number, found a string \"loud\""]
        )
    }

    func testKeyInTheWrongTableAndBooleanAsString() {
        assertSingleError(
            minimalBusAndStrip + "\n  solo = \"yes\"\n",  // lands in the send table (where `mute` is a key of its own)
            line: 8, column: 3, contains: ["unknown key 'solo'", "[[strip.send]]"]
        )
        assertSingleError(
            presetText(busLines: "mute = \"yes\"\n"),
            line: 3, column: 8, contains: ["'mute'", "expected true or false", "\"yes\""]
        )
    }

    func testOutOfRangeNamesTheValueAndTheRange() {
        assertSingleError(
            presetText(stripLines: "pan = 1.5\n"),
            line: 6, column: 7, contains: ["'pan' = 1.5", "out of range", "-1 to 1"]
        )
        assertSingleError(
            presetText(busLines: "gain_db = 30\n"),
            line: 3, column: 11, contains: ["'gain_db' = 30", "-144 to 24"]
        )
    }

    func testMissingNamePointsAtTheTable() {
        assertSingleError(
            "[[bus]]\nname = \"main\"\n\n[[strip]]\nchannels = 1\nsend = [{ bus = \"main\" }]\n",
            line: 4, column: 1, contains: ["[[strip]] is missing required key 'name'"]
        )
    }

    func testChannelsMustBeOneOrTwo() {
        assertSingleError(
            presetText(busLines: "channels = 6\n"),
            line: 3, column: 12, contains: ["'channels' must be 1 (mono) or 2 (stereo), found 6"]
        )
    }

    func testBadNameCharacters() {
        assertSingleError(
            "[[bus]]\nname = \"front of house\"\n[[strip]]\nname = \"s\"\n",
            line: 2, column: 8, contains: ["bus name 'front of house' contains a space", "letters, digits, '_' or '-'"]
        )
        assertSingleError(
            presetText(stripName: "vox/1"),
            line: 4, column: 8, contains: ["strip name 'vox/1' contains '/'"]
        )
        assertSingleError(
            presetText(stripName: String(repeating: "x", count: 33)),
            line: 4, column: 8, contains: ["is 33 characters long", "1 to 32"]
        )
    }

    func testDuplicateStripNameNamesBothLines() {
        assertSingleError(
            presetText(stripName: "vox", stripLines: "[[strip]]\nname = \"vox\"\nsend = [{ bus = \"main\" }]\n"),
            line: 7, column: 8, contains: ["duplicate strip name 'vox'", "first used at line 4"]
        )
    }

    func testDuplicateBusName() {
        assertSingleError(
            presetText(busLines: "[[bus]]\n  name = \"main\"\n"),
            line: 4, column: 10, contains: ["duplicate bus name 'main'", "first used at line 2, column 8"]
        )
    }

    func testNoBusesAndNoStrips() {
        let errors = diagnostics(of: "[preset]\nname = \"empty\"\n")
        XCTAssertEqual(errors.map(\.description), [
            "test.toml:1:1: error: the preset has no buses; add at least one [[bus]] table with a name",
            "test.toml:1:1: error: the preset has no strips; add at least one [[strip]] table with a name",
        ])
        assertSingleError(
            "# buses come later\nbus = []\n[[strip]]\nname = \"s\"\n", line: 2, column: 1, contains: ["the preset has no buses"]
        )
    }

    func testTablesWrittenWithSingleBracketsAreExplained() {
        assertSingleError(
            "[bus]\nname = \"main\"\n[[strip]]\nname = \"s\"\n",
            line: 1, column: 2, contains: ["'bus': expected an array of tables (write [[bus]] for each one), found a table"]
        )
    }

    func testTOMLSyntaxErrorCarriesTheParserPosition() {
        let error = assertSingleError(
            "[[bus]]\nname = \"main\"\ngain_db = = 3\n", line: 3, column: 11, contains: ["TOML syntax error"]
        )
        XCTAssertNotNil(error)
    }

    func testEveryProblemIsReportedInFileOrder() {
        let errors = diagnostics(of: """
            [[bus]]
            name = "main"
            channels = 3
            [[strip]]
            name = "vox"
            pan = -2
            solo = 1
            """).filter { $0.severity == .error }
        XCTAssertEqual(errors.map { "\($0.location.line):\($0.location.column)" }, ["3:12", "6:7", "7:8"])
    }

    func testErrorsAreCappedWithANote() {
        let wrongKeys = (0..<25).map { "wrong\($0) = 1\n" }.joined()
        let errors = diagnostics(of: presetText(stripLines: wrongKeys))
        XCTAssertEqual(errors.count, 21)
        XCTAssertEqual(errors.last?.message, "too many errors; 5 more not shown (fix these and run 'foldback check' again)")
    }
}
