// `label` on strips and buses: the display name pages show, checked (1…40 characters, no control characters) and saved. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import XCTest
@testable import FoldbackPresets

final class DisplayLabelPresetTests: XCTestCase {
    func testLabelsAreReadAndWrittenBack() throws {
        let preset = try PresetLoader.parse("""
            [[bus]]
            name = "iem_singer"
            label = "Singer's ears"
            [[bus]]
            name = "foh"
            [[strip]]
            name = "gtr"
            label = "Acoustic — Ana"
            send = [{ bus = "iem_singer" }, { bus = "foh" }]
            """, path: "labels.toml")
        XCTAssertEqual(preset.buses.map(\.label), ["Singer's ears", nil], "a bus without a label shows its name")
        XCTAssertEqual(preset.strips[0].label, "Acoustic — Ana")
        let text = PresetWriter.text(for: preset)
        XCTAssertTrue(text.contains(#"label = "Singer's ears""#) && text.contains(#"label = "Acoustic — Ana""#), text)
        let again = try PresetLoader.parse(text, path: "labels.toml")
        XCTAssertEqual(again.buses.map(\.label), preset.buses.map(\.label))
        XCTAssertEqual(again.strips.map(\.label), preset.strips.map(\.label))
    }

    /// A preset whose bus `main` has `label = <value>` (TOML text) on line 3.
    private func busLabelled(_ value: String) -> String {
        """
        [[bus]]
        name = "main"
        label = \(value)
        [[strip]]
        name = "s"
        send = [{ bus = "main" }]
        """
    }

    /// A label a page could not show is refused at its value, one error each, the preset not loaded.
    func testBadLabelsAreRefusedAtTheirValue() {
        let long = String(repeating: "x", count: 41)
        assertSingleError(busLabelled("\"\(long)\""), line: 3, column: 9, contains: ["label '\(long)' is 41 characters long; use at most 40"])
        assertSingleError(busLabelled(#""   ""#), line: 3, column: 9, contains: ["is empty"])
        assertSingleError(busLabelled(#""Front\tof house""#), line: 3, column: 9, contains: ["contains a control character"])
        assertSingleError(busLabelled("3"), line: 3, column: 9, contains: ["'label': expected a string"])
        assertSingleError("""
            [[bus]]
            name = "main"
            [[strip]]
            name = "s"
            label = ""
            send = [{ bus = "main" }]
            """, line: 5, column: 9, contains: ["label '' is empty"])
    }
}
