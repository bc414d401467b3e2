// Tests that text the TOML parser would abort on is refused with a located error, and valid TOML still passes. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import TOMLKit
import XCTest
@testable import FoldbackPresets

final class TOMLInputGuardTests: XCTestCase {
    /// Each of these aborted the process inside toml++ (SIGABRT) before the guard existed.
    func testHeadersWithoutANameAreLocatedErrors() {
        let cases: [(text: String, line: Int, column: Int, found: String)] = [
            ("[[[strip]]\nname = \"vox\"\n", 1, 3, "'['"),
            ("[preset]\nname = \"x\"\n\n[[[band]]]\n", 4, 3, "'['"),
            ("[\nname = 1\n", 1, 2, "the end of the line"),
            ("[[ #\n", 1, 4, "'#'"),
            ("  [=a]\n", 1, 4, "'='"),
            ("\u{A0}[[\u{3000}[x]]\n", 1, 5, "'['"),
            ("\u{FEFF}[{}]\n", 1, 3, "'{'"),
            ("[\u{1}]", 1, 2, "'U+1'"),
            ("a = 1\r\n[\r\n", 2, 2, "the end of the line"),
        ]
        for (text, line, column, found) in cases {
            let error = TOMLInputGuard.firstUnsafePlace(in: text, path: "test.toml")
            XCTAssertEqual(error?.location, SourceLocation(file: "test.toml", line: line, column: column), text.debugDescription)
            XCTAssertTrue(error?.message.contains("found \(found)") == true, "\(text.debugDescription): \(String(describing: error))")
        }
    }

    /// A '}' where an array wants a value aborted toml++ too, also after line breaks and comments.
    func testABraceWhereAnArrayWantsAValueIsALocatedError() {
        let cases: [(text: String, line: Int, column: Int)] = [
            ("a = [ }\n", 1, 7),
            ("a = [1, }\n", 1, 9),
            ("a = [\n  # comment\n }\n", 3, 2),
            ("controls = { x = [ } }\n", 1, 20),
            ("a = [[1], [ }]]\n", 1, 13),
        ]
        for (text, line, column) in cases {
            let error = TOMLInputGuard.firstUnsafePlace(in: text, path: "test.toml")
            XCTAssertEqual(error?.location, SourceLocation(file: "test.toml", line: line, column: column), text.debugDescription)
            XCTAssertTrue(error?.message.contains("'}' where the array expects a value") == true, "\(text.debugDescription): \(String(describing: error))")
        }
        for valid in ["a = [ {}, { b = [1, 2] } ]\n", "a = { b = [] }\n", "a = [ \"}\", '}' ] # }\n"] {
            XCTAssertNil(TOMLInputGuard.firstUnsafePlace(in: valid, path: "t.toml"), valid)
            XCTAssertNoThrow(try TOMLTable(string: valid), valid)
        }
    }

    func testThePresetLoaderReportsTheGuardsError() {
        assertSingleError(
            "[[bus]]\nname = \"main\"\n\n[[[strip]]\nname = \"vox\"\n",
            line: 4, column: 3, contains: ["TOML syntax error", "table header needs a name", "found '['"]
        )
        do {
            _ = try EQCurve.parse("[curve]\nname = \"x\"\n[[[band]]]\n", path: "curve.toml")
            XCTFail("a curve with [[[band]]] loaded")
        } catch {
            XCTAssertEqual(error.diagnostics.map(\.location.description), ["curve.toml:3:3"])
        }
    }

    /// Brackets inside strings, comments and values that span lines are not headers: valid TOML still parses.
    func testValidTOMLWithBracketsOutsideHeadersPasses() throws {
        let valid = """
            # [[[ in a comment
            a = [
              [
                1
              ],
              [ [2] ], # [[[ here too
              "[[[",
              '[[[',
            ]
            s = \"\"\"
            [[[not a header]]
            \"\"\"
            t = '''
            [
            '''
            u = \"\"\"quotes at the end\"\"\"\"\"
            v = "escaped \\" [ quote"
            w = { x = [
            ] }
            [ table . "with ] spaces" ]
            [[ "quoted" ]]
            k = 1

            """
        XCTAssertNil(TOMLInputGuard.firstUnsafePlace(in: valid, path: "valid.toml"))
        XCTAssertNoThrow(try TOMLTable(string: valid))
    }

    /// "[ [x]]" is an error toml++ reports itself (the brackets of an array header must touch).
    func testSpacedArrayHeaderIsLeftToTheParser() {
        XCTAssertNil(TOMLInputGuard.firstUnsafePlace(in: "[ [x]]\n", path: "t.toml"))
        XCTAssertThrowsError(try TOMLDocument.parse("[ [x]]\n", path: "t.toml"))
    }
}
