// Helpers shared by the preset tests: loading text that must fail, and repository paths. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import XCTest
@testable import FoldbackPresets

/// The repository root, found from this file's path.
let repositoryRoot: String = {
    var path = #filePath
    for _ in 0..<3 {  // .../Tests/FoldbackPresetsTests/PresetTestSupport.swift
        guard let slash = path.lastIndex(of: "/") else { break }
        path = String(path[..<slash])
    }
    return path
}()

/// The diagnostics `text` fails with; records a failure if it loads.
func diagnostics(of text: String, path: String = "test.toml", file: StaticString = #filePath, line: UInt = #line) -> [PresetDiagnostic] {
    do {
        _ = try PresetLoader.parse(text, path: path)
        XCTFail("preset loaded but was expected to fail", file: file, line: line)
        return []
    } catch {
        return error.diagnostics
    }
}

/// Asserts that `text` fails with exactly one error, at `line`:`column`, whose message contains every
/// fragment. Returns the error for further checks.
@discardableResult
func assertSingleError(
    _ text: String, line expectedLine: Int, column expectedColumn: Int, contains fragments: [String],
    file: StaticString = #filePath, line: UInt = #line
) -> PresetDiagnostic? {
    let errors = diagnostics(of: text, file: file, line: line).filter { $0.severity == .error }
    guard errors.count == 1, let error = errors.first else {
        XCTFail("expected one error, got \(errors.count):\n\(errors.map(\.description).joined(separator: "\n"))", file: file, line: line)
        return nil
    }
    XCTAssertEqual(error.location.file, "test.toml", file: file, line: line)
    XCTAssertEqual(error.location.line, expectedLine, "line of: \(error)", file: file, line: line)
    XCTAssertEqual(error.location.column, expectedColumn, "column of: \(error)", file: file, line: line)
    for fragment in fragments {
        XCTAssertTrue(error.message.contains(fragment), "'\(error.message)' should contain '\(fragment)'", file: file, line: line)
    }
    XCTAssertEqual(
        error.description, "test.toml:\(expectedLine):\(expectedColumn): error: \(error.message)", file: file, line: line
    )
    return error
}

/// A minimal valid preset tail: one bus `main` and a strip `s` sending to it, to append to test text.
let minimalBusAndStrip = """
    [[bus]]
    name = "main"

    [[strip]]
    name = "s"
      [[strip.send]]
      bus = "main"
    """

/// A valid preset: bus `main` (its table ends with `busLines`, from line 3) and a strip named
/// `stripName` that, with `sendsToMain`, sends to it inline on the line after its name; its table
/// ends with `stripLines`.
func presetText(busLines: String = "", stripName: String = "s", sendsToMain: Bool = true, stripLines: String = "") -> String {
    "[[bus]]\nname = \"main\"\n" + busLines + "[[strip]]\nname = \"\(stripName)\"\n"
        + (sendsToMain ? "send = [{ bus = \"main\" }]\n" : "") + stripLines
}
