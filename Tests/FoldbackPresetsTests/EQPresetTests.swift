// `eq` units in presets: curves, band overrides and additions, Q conversions, located errors, report and graph build.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest
@testable import FoldbackPresets
import FoldbackGraph

final class EQPresetTests: XCTestCase {
    /// A valid preset whose strip has one eq unit; `unitLines` start at line 8.
    private func eqPreset(_ unitLines: String) -> String {
        presetText(stripLines: "[[strip.unit]]\ntype = \"eq\"\n" + unitLines)
    }

    private func eqUnit(_ unitLines: String) throws -> UnitSpec {
        let preset = try PresetLoader.parse(eqPreset(unitLines), path: "test.toml")
        return try XCTUnwrap(preset.strips.first?.units.first)
    }

    func testCurveBandsAreOverriddenByIndexAndExtendedInOrder() throws {
        let unit = try eqUnit("""
            curve = "vocal booster"
            gain_db = -1.5
              [[strip.unit.band]]
              index = 3
              gain_db = 2.5
              [[strip.unit.band]]
              type = "notch"
              freq_hz = 60
              q = 10
              [[strip.unit.band]]
              type = "peak"
              freq_hz = 5000
              gain_db = -3
              bw_oct = 1.0
              enabled = false
            """)
        XCTAssertEqual(unit.curve, "Vocal Booster", "the library's spelling")
        XCTAssertEqual(unit.parameters["gain_db"], -1.5)
        XCTAssertEqual(unit.bands.map(\.origin), [.curve, .curve, .overridden, .curve, .added, .added])
        XCTAssertEqual(unit.bands.map(\.band.type), [.highPass, .peak, .peak, .highShelf, .notch, .peak])
        let overridden = unit.bands[2].band
        XCTAssertEqual(overridden.frequency, 3000, "keys the override does not write keep the curve's values")
        XCTAssertEqual(overridden.gainDB, 2.5)
        XCTAssertEqual(overridden.q, 1)
        XCTAssertEqual(unit.bands[2].location.line, 10)
        XCTAssertEqual(unit.bands[5].band.q, 1.4142, accuracy: 1e-4, "bw_oct 1 is Q √2")
        XCTAssertFalse(unit.bands[5].band.isEnabled)
    }

    func testBandDefaultsAndWidthConversions() throws {
        let unit = try eqUnit("""
              [[strip.unit.band]]
              type = "high_pass"
              freq_hz = 80
              [[strip.unit.band]]
              type = "low_pass"
              freq_hz = 12000
              slope_db_oct = 24
              [[strip.unit.band]]
              type = "low_shelf"
              freq_hz = 120
              gain_db = 4
              slope = 0.5
              [[strip.unit.band]]
              type = "notch"
              freq_hz = 1000
            """)
        XCTAssertNil(unit.curve)
        let bands = unit.bands.map(\.band)
        XCTAssertEqual(bands[0].q, EQBand.butterworthQ, accuracy: 1e-12)
        XCTAssertEqual(bands[0].sectionCount, 1)
        XCTAssertEqual(bands[1].sectionCount, 2)
        XCTAssertEqual(bands[2].q, EQBand.q(shelfSlope: 0.5, gainDB: 4), accuracy: 1e-6)
        XCTAssertEqual(bands[3].q, EQBandType.notch.defaultQ)
        XCTAssertEqual(unit.parameters["gain_db"], 0)
    }

    /// One bad eq unit: the lines after `type = "eq"` (from line 8), where its one error is and what it says.
    private typealias Case = (lines: String, line: Int, column: Int, message: [String])

    func testBandKeyErrorsAreLocated() {
        let band = "  [[strip.unit.band]]\n"                                     // line 8; keys from line 9
        let cases: [Case] = [
            ("  type = \"peak\"\n  freq_hz = 300\n  gian_db = 3\n", 11, 3,
             ["unknown key 'gian_db' in [[strip.unit.band]]", "did you mean 'gain_db'?"]),
            ("  type = \"peek\"\n  freq_hz = 300\n", 9, 10, ["'type' = \"peek\" is not one of", "did you mean \"peak\"?"]),
            ("  type = \"peak\"\n  freq_hz = 300\n  gain_db = 30\n", 11, 13, ["'gain_db' = 30 is out of range; allowed: -24 to 24"]),
            ("  type = \"peak\"\n  freq_hz = 5\n", 10, 13, ["'freq_hz' = 5 is out of range; allowed: 10 to 23520"]),
            ("  type = \"peak\"\n  freq_hz = 300\n  q = 60\n", 11, 7, ["'q' = 60 is out of range; allowed: 0.1 to 50"]),
            ("  type = \"peak\"\n  freq_hz = 300\n  q = 2\n  bw_oct = 1\n", 12, 3,
             ["give one of 'q', 'bw_oct' or 'slope', not 'q' and 'bw_oct'"]),
            ("  type = \"high_pass\"\n  freq_hz = 80\n  slope_db_oct = 18\n", 11, 18, ["'slope_db_oct' must be 12 or 24, found 18"]),
            ("  type = \"high_pass\"\n  freq_hz = 80\n  slope_db_oct = 24\n  q = 1\n", 12, 3, ["'q' applies to 12 dB/oct filters"]),
            ("  type = \"peak\"\n  freq_hz = 80\n  slope = 1\n", 11, 3, ["'slope' is for low_shelf and high_shelf bands"]),
            ("  type = \"notch\"\n", 8, 3, ["[[strip.unit.band]] is missing required key 'freq_hz'"]),
        ]
        for (lines, line, column, message) in cases {
            assertSingleError(eqPreset(band + lines), line: line, column: column, contains: message)
        }
    }

    func testAGainOnAPassBandIsKeptWithAWarning() throws {
        let preset = try PresetLoader.parse(eqPreset("  [[strip.unit.band]]\n  type = \"high_pass\"\n  freq_hz = 80\n  gain_db = 3\n"), path: "test.toml")
        XCTAssertEqual(preset.strips.first?.units.first?.bands.first?.band.gainDB, 3, "kept for a live change of type")
        XCTAssertEqual(preset.warnings.count, 1)
        XCTAssertTrue(preset.warnings.first?.description.contains("test.toml:11:3") ?? false, "\(preset.warnings)")
        XCTAssertTrue(preset.warnings.first?.description.contains("'gain_db' does nothing on a 'high_pass' band") ?? false, "\(preset.warnings)")
    }

    func testCurveAndIndexErrorsAreLocated() {
        let tooMany = String(repeating: "  [[strip.unit.band]]\n  type = \"peak\"\n  freq_hz = 1000\n", count: 33)
        let cases: [Case] = [
            ("curve = \"Vocal Boster\"\n", 8, 9, ["unknown curve 'Vocal Boster'; did you mean 'Vocal Booster'?"]),
            ("curve = \"Zydeco\"\n", 8, 9, ["unknown curve 'Zydeco'; the closest are"]),
            ("  [[strip.unit.band]]\n  index = 2\n  gain_db = 1\n", 9, 3,
             ["'index' picks a band of the unit's curve to override, but this eq has no 'curve'"]),
            ("curve = \"Vocal Booster\"\n  [[strip.unit.band]]\n  index = 9\n", 10, 11,
             ["'index' = 9, but curve 'Vocal Booster' has 4 bands (1 to 4)"]),
            ("curve = \"Air\"\n  [[strip.unit.band]]\n  index = 1\n  [[strip.unit.band]]\n  index = 1\n", 12, 11,
             ["duplicate band index '1'", "first used at line 10"]),
            ("curve = \"Air\"\n  [[strip.unit.band]]\n  index = 1.5\n", 10, 11, ["'index' must be a whole number"]),
            ("curves = \"Air\"\n", 8, 1, ["unknown key 'curves'", "did you mean 'curve'?"]),
            (tooMany, 8 + 32 * 3, 3, ["an eq holds at most 32 bands; this one has 33 (band 33 is here)"]),
        ]
        for (lines, line, column, message) in cases {
            assertSingleError(eqPreset(lines), line: line, column: column, contains: message)
        }
    }

    func testReportListsEveryBand() throws {
        let preset = try PresetLoader.parse(eqPreset("curve = \"Telephone\"\n  [[strip.unit.band]]\n  type = \"notch\"\n  freq_hz = 50\n"),
                                            path: "test.toml")
        let report = PresetReport.render(preset)
        XCTAssertTrue(report.contains("""
              units     1. eq  eq  gain_db=0 curve="Telephone" bands=4
                             band 1.  high_pass     300 Hz   24 dB/oct  Butterworth  (from curve)
                             band 2.  peak         1500 Hz     +6.0 dB  Q 1.20 (1.17 oct)  (from curve)
                             band 3.  low_pass     3400 Hz   24 dB/oct  Butterworth  (from curve)
                             band 4.  notch          50 Hz              Q 4.00 (0.36 oct)  (added)
            """), report)
    }

    func testGraphBuildMakesTheUnitAndChecksTheRealRate() throws {
        let preset = try PresetLoader.parse(eqPreset("curve = \"Air\"\n  [[strip.unit.band]]\n  type = \"high_shelf\"\n  freq_hz = 23000\n"),
                                            path: "test.toml")
        let unit = try UnitFactory.makeUnit(try XCTUnwrap(preset.strips.first?.units.first))
        XCTAssertEqual(unit.typeName, "eq")
        XCTAssertEqual(unit.parameters.count, 1 + 5 * 3)
        XCTAssertNoThrow(try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 256))
        XCTAssertThrowsError(try PresetGraphBuilder.graph(for: preset, sampleRate: 44100, maxFrames: 256)) { error in
            XCTAssertTrue("\(error)".contains("band 3 is at 23000 Hz, above 0.49 × the sample rate"), "\(error)")
        }
    }
}
