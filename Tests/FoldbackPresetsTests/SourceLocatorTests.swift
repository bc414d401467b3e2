// Tests that SourceLocator finds keys and values in tricky TOML text. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import XCTest
@testable import FoldbackPresets

final class SourceLocatorTests: XCTestCase {
    /// Asserts where each path's key (`keys`) and value (`values`) is found, as `line:column`;
    /// `absent` paths must not be found at all.
    private func assertLocations(
        in text: String, keys: KeyValuePairs<String, String> = [:], values: KeyValuePairs<String, String> = [:],
        absent: [String] = [], file: StaticString = #filePath, line: UInt = #line
    ) {
        let locator = SourceLocator(text: text, file: "f.toml")
        let position = { (location: SourceLocation?) in location.map { "\($0.line):\($0.column)" } }
        for (path, expected) in keys {
            XCTAssertEqual(position(locator.keyLocation(path)), expected, "key of \(path)", file: file, line: line)
        }
        for (path, expected) in values {
            XCTAssertEqual(position(locator.valueLocation(path)), expected, "value of \(path)", file: file, line: line)
        }
        for path in absent {
            XCTAssertNil(locator.keyLocation(path), "\(path) should not be found", file: file, line: line)
        }
    }

    func testArraysOfTablesAreCountedPerParent() {
        assertLocations(
            in: """
                [[strip]]
                name = "a"
                  [[strip.unit]]
                  gain_db = 1
                [[strip]]
                name = "b"
                  [[strip.unit]]
                  type = "gain"
                  [[strip.unit]]
                    gain_db = 2
                """,
            keys: [
                "strip[0]": "1:1", "strip[0].unit[0].gain_db": "4:3", "strip[1]": "5:1", "strip[1].name": "6:1",
                "strip[1].unit[0]": "7:3", "strip[1].unit[1]": "9:3", "strip[1].unit[1].gain_db": "10:5",
            ],
            values: ["strip[1].name": "6:8", "strip[1].unit[1].gain_db": "10:15"],
            absent: ["strip[2]", "strip[0].unit[1]"]
        )
    }

    func testCommentsAndStringsDoNotConfuseIt() {
        assertLocations(
            in: """
                # [[bus]] in a comment = not a table
                [preset]   # name = "comment"
                description = "a = b [[strip]] # not a comment"
                name = 'literal [x] = y'
                notes = \"\"\"
                fake = "key"
                [[bus]]
                \"\"\"
                after = 1
                """,
            keys: ["preset": "2:2", "preset.description": "3:1", "preset.name": "4:1", "preset.after": "9:1"],
            values: ["preset.description": "3:15", "preset.notes": "5:9"],
            absent: ["bus", "strip", "preset.fake"]
        )
    }

    func testDottedAndQuotedKeys() {
        assertLocations(
            in: """
                [[bus]]
                meta.owner . "full name" = "x"
                "quoted key" = 1
                'lit.eral' = 2
                """,
            keys: [
                "bus[0].meta": "2:1", "bus[0].meta.owner": "2:6", "bus[0].meta.owner.\"full name\"": "2:14",
                "bus[0].\"quoted key\"": "3:1", "bus[0].\"lit.eral\"": "4:1",
            ],
            values: ["bus[0].meta.owner.\"full name\"": "2:28"]
        )
    }

    func testInlineTablesAndArraysRecordTheirElements() {
        assertLocations(
            in: """
                [[strip]]
                unit = [{ type = "gain", gain_db = 3 }, {type="gain",id="b"}]
                connect = [
                  "system:capture_1", # first
                  ["a:b", "c:d"],
                ]
                send = { bus = "main", "pre_fader" = true }
                """,
            keys: [
                "strip[0].unit": "2:1", "strip[0].unit[0]": "2:9", "strip[0].unit[0].type": "2:11",
                "strip[0].unit[0].gain_db": "2:26", "strip[0].unit[1].id": "2:54",
                "strip[0].send.bus": "7:10", "strip[0].send.pre_fader": "7:24",
            ],
            values: [
                "strip[0].unit[0].gain_db": "2:36", "strip[0].connect": "3:11", "strip[0].connect[0]": "4:3",
                "strip[0].connect[1]": "5:3", "strip[0].connect[1][1]": "5:11",
            ],
            absent: ["strip[0].connect[2]"]
        )
    }

    func testSubtablesOfArrayElementsAndEscapes() {
        assertLocations(
            in: """
                [[bus]]
                name = "a\\"b = [c]"
                [bus.extra]
                x = 1
                [[bus]]
                name = "\\u00e9t\\u00e9"
                """,
            keys: ["bus[0].extra": "3:6", "bus[0].extra.x": "4:1", "bus[1].name": "6:1"]
        )
    }

    func testColumnsCountUnicodeScalars() {
        assertLocations(
            in: "[[bus]]\nname = \"été\" ; x = 1\n[[strip]]\n  émoji = \"🎤\"\n",
            keys: ["strip[0]": "3:1"],
            values: ["bus[0].name": "2:8"]
        )
    }

    func testNearestAncestorIsTheFallback() {
        let locator = SourceLocator(text: "[[bus]]\nname = \"x\"\n", file: "f.toml")
        let missing = TOMLPath.root.appending("bus").appending(0).appending("gain_db")
        XCTAssertEqual(missing.description, "bus[0].gain_db")
        XCTAssertEqual(locator.location(of: missing), SourceLocation(file: "f.toml", line: 1, column: 1))
        XCTAssertEqual(locator.location(of: TOMLPath.root.appending("strip")), SourceLocation(file: "f.toml", line: 1, column: 1))
        XCTAssertEqual(locator.valueLocation(of: TOMLPath.root.appending("bus").appending(0).appending("name")).column, 8)
    }
}
