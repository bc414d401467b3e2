// Tests `foldback curves` (list, show, --svg) and `foldback check --eq-svg` by running the built executable. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest

final class CurvesCommandTests: XCTestCase {
    func testListingShowsEveryCurveWithBandsAndDescription() throws {
        let run = try FoldbackProcess.run(["curves"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardError, "")
        let rows = run.standardOutput.split(separator: "\n").filter { $0.contains(" bands ") || $0.contains(" band ") }
        XCTAssertGreaterThanOrEqual(rows.count, 24, run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("Vocal Booster   4 bands   Pulls a voice forward"), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("Telephone       3 bands"), run.standardOutput)
    }

    func testShowingACurvePrintsItsBandsAndThirdOctaveResponse() throws {
        let run = try FoldbackProcess.run(["curves", "vocal-booster"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let output = run.standardOutput
        XCTAssertTrue(output.hasPrefix("Vocal Booster\n"), output)
        XCTAssertTrue(output.contains("1.  high_pass      100 Hz   12 dB/oct  Q 0.71"), output)
        XCTAssertTrue(output.contains("3.  peak          3000 Hz     +4.0 dB  Q 1.00 (1.39 oct)"), output)
        XCTAssertTrue(output.contains("Response at 48 kHz"), output)
        let responseRows = output.split(separator: "\n").filter { $0.contains(" dB  ") && $0.contains("|") }
        XCTAssertEqual(responseRows.count, 30, "25 Hz … 20 kHz")
        XCTAssertTrue(responseRows.first?.contains("25 Hz") ?? false)
        XCTAssertTrue(responseRows.last?.contains("20 kHz") ?? false)
        XCTAssertTrue(output.contains("3.15 kHz    +4.0 dB"), output)
    }

    func testUnknownCurveExitsTwoWithSuggestions() throws {
        let run = try FoldbackProcess.run(["curves", "Vocal Boster"])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.standardOutput, "")
        XCTAssertTrue(run.standardError.contains("unknown curve 'Vocal Boster'; did you mean 'Vocal Booster'?"), run.standardError)
        let svgWithoutName = try FoldbackProcess.run(["curves", "--svg", "x.svg"])
        XCTAssertEqual(svgWithoutName.status, 2)
        XCTAssertTrue(svgWithoutName.standardError.contains("--svg plots one curve"), svgWithoutName.standardError)
    }

    func testSVGIsValidXMLWithAPlottedPath() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-\(UUID().uuidString).svg").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try FoldbackProcess.run(["curves", "R&B", "--svg", path])
        XCTAssertEqual(run.status, 0, run.standardError)
        let summary = try parseSVG(path)
        XCTAssertEqual(summary.root, "svg")
        XCTAssertTrue(summary.pathData.hasPrefix("M "), "the curve is a path")
        XCTAssertGreaterThan(summary.pathData.split(separator: "L").count, 500)
        XCTAssertTrue(summary.texts.contains("R&B"), "the title, escaped in the file: \(summary.texts)")
        XCTAssertTrue(summary.texts.contains("1k") && summary.texts.contains("Frequency (Hz)") && summary.texts.contains("Gain (dB)"))
    }

    func testCheckPlotsAStripsEQ() throws {
        let preset = try FoldbackProcess.temporaryPreset("""
            [[bus]]
            name = "main"
            [[strip]]
            name = "vox"
            send = [{ bus = "main" }]
              [[strip.unit]]
              type = "eq"
              curve = "Vocal Presence"
                [[strip.unit.band]]
                type = "notch"
                freq_hz = 2500
                q = 8
            """, name: "eq.toml")
        let svg = (preset as NSString).deletingLastPathComponent + "/vox.svg"
        let run = try FoldbackProcess.run(["check", preset, "--eq-svg", "vox", svg])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardOutput.contains("band 5.  notch        2500 Hz              Q 8.00 (0.18 oct)  (added)"), run.standardOutput)
        XCTAssertEqual(try parseSVG(svg).root, "svg")

        let unknown = try FoldbackProcess.run(["check", preset, "--eq-svg", "drums", svg])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.standardError.contains("no strip 'drums'"), unknown.standardError)
        let halfGiven = try FoldbackProcess.run(["check", preset, "--eq-svg", "vox"])
        XCTAssertEqual(halfGiven.status, 2)
        XCTAssertTrue(halfGiven.standardError.contains("--eq-svg takes two values"), halfGiven.standardError)
    }

    func testCheckPlotsAGraphicEQ() throws {
        let preset = try FoldbackProcess.temporaryPreset("""
            [[bus]]
            name = "wedge"
            [[strip]]
            name = "vox"
            send = [{ bus = "wedge" }]
              [[strip.unit]]
              type = "geq"
              id = "ring"
              g2k5 = -6
              g250 = 4
            """, name: "geq.toml")
        let svg = (preset as NSString).deletingLastPathComponent + "/ring.svg"
        let run = try FoldbackProcess.run(["check", preset, "--eq-svg", "vox", svg])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardOutput.contains("g250=4"), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("g2k5=-6"), run.standardOutput)
        let plot = try parseSVG(svg)
        XCTAssertEqual(plot.root, "svg")
        XCTAssertTrue(plot.texts.contains { $0.contains("31-band graphic EQ") }, "\(plot.texts)")
        XCTAssertTrue(plot.texts.contains("31"), "a marker for each of the 31 bands")
    }

    func testHelpTeachesWithExamples() throws {
        let run = try FoldbackProcess.run(["curves", "--help"])
        XCTAssertEqual(run.status, 0)
        for text in ["EXAMPLES", "foldback curves \"Vocal Booster\"", "--svg", "FOLDBACK_CURVES_DIR"] {
            XCTAssertTrue(run.standardOutput.contains(text), "curves help lacks '\(text)'")
        }
        XCTAssertTrue(try FoldbackProcess.run(["check", "--help"]).standardOutput.contains("--eq-svg"))
    }

    /// The root element, the curve path's `d` and every text of an SVG file (fails if it is not well-formed XML).
    private func parseSVG(_ path: String) throws -> (root: String, pathData: String, texts: [String]) {
        let parser = try XCTUnwrap(XMLParser(contentsOf: URL(fileURLWithPath: path)))
        let collector = SVGCollector()
        parser.delegate = collector
        XCTAssertTrue(parser.parse(), "well-formed XML: \(String(describing: parser.parserError))")
        return (collector.root ?? "", collector.pathData, collector.texts)
    }
}

/// Gathers what the SVG test checks while XMLParser reads the file.
private final class SVGCollector: NSObject, XMLParserDelegate {
    var root: String?
    var pathData = ""
    var texts: [String] = []
    private var text: String?

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if root == nil { root = name }
        if name == "path", let data = attributes["d"] { pathData = data }
        if name == "text" { text = "" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text? += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text", let text { texts.append(text) }
        text = nil
    }
}
