// The text reports of curves and plugins, and the response an eq or geq unit plots: levels, bars and bands measured.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackPresets
import XCTest

final class CurveReportTests: XCTestCase {
    /// One `#` per dB either side of a `|` at 0 dB, cut at ±24 dB with `<`/`>`; levels right-aligned to 9 characters.
    func testBarsAndLevels() {
        XCTAssertEqual(CurveReport.bar(0), String(repeating: " ", count: 24) + "|")
        XCTAssertEqual(CurveReport.bar(3.4), String(repeating: " ", count: 24) + "|###")
        XCTAssertEqual(CurveReport.bar(-2.6), String(repeating: " ", count: 21) + "###|")
        XCTAssertEqual(CurveReport.bar(30), String(repeating: " ", count: 24) + "|" + String(repeating: "#", count: 24) + ">")
        XCTAssertEqual(CurveReport.bar(-.infinity), "<" + String(repeating: "#", count: 23) + "|")
        XCTAssertEqual(CurveReport.decibels(4), "  +4.0 dB")
        XCTAssertEqual(CurveReport.decibels(-12.46), " -12.5 dB")
        XCTAssertEqual(CurveReport.decibels(0.01), "   0.0 dB")
        XCTAssertEqual(CurveReport.decibels(-.infinity), "  -inf dB")
        XCTAssertEqual(CurveReport.kilohertz(44100), "44.1")
        XCTAssertEqual(CurveReport.kilohertz(48000), "48")
    }

    /// A curve's 1 kHz line shows the level the filters have there at the rate asked for.
    func testDetailsShowTheResponseAtOneKilohertz() throws {
        let library = try CurveLibrary.load(directory: repositoryRoot + "/presets/curves")
        let curve = try XCTUnwrap(library.curve(named: "Vocal Booster"))
        for rate in [44100.0, 96000.0] {
            let text = CurveReport.details(curve, sampleRate: rate)
            let level = EQResponse.magnitudeDB(bands: curve.bands.map(\.band), sampleRate: rate, frequency: 1000)
            let line = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("      1 kHz") })
            XCTAssertTrue(line.contains(CurveReport.decibels(level) + "  " + CurveReport.bar(level)), "\(line) vs \(level) dB")
            XCTAssertTrue(text.contains("Response at \(CurveReport.kilohertz(rate)) kHz"))
        }
        XCTAssertTrue(CurveReport.listing(library).hasPrefix("\(library.curves.count) factory EQ curves in "))
    }

    /// A geq unit plots as its corrected bands: at a fader's centre the response is that fader's gain (within 1 dB),
    /// plus the output gain; an eq unit plots its own bands; other units do not plot.
    func testEqualizerResponse() throws {
        let text = minimalBusAndStrip + """

              [[strip.unit]]
              type = "geq"
              g1k = -6
              g4k = 4
              gain_db = -2
              [[strip.unit]]
              type = "eq"
              curve = "vocal booster"
              [[strip.unit]]
              type = "gain"
            """
        let units = try XCTUnwrap(PresetLoader.parse(text, path: "test.toml").strips.first?.units)
        let graphic = try XCTUnwrap(units[0].equalizerResponse(sampleRate: 48000))
        XCTAssertEqual(graphic.outputGainDB, -2)
        XCTAssertEqual(graphic.description, "31-band graphic EQ (corrected band gains)")
        XCTAssertEqual(EQResponse.magnitudeDB(bands: graphic.bands, sampleRate: 48000, frequency: 1000), -6, accuracy: 1)
        XCTAssertEqual(EQResponse.magnitudeDB(bands: graphic.bands, sampleRate: 48000, frequency: 4000), 4, accuracy: 1)
        let parametric = try XCTUnwrap(units[1].equalizerResponse(sampleRate: 48000))
        XCTAssertEqual(parametric.bands.count, units[1].bands.count)
        XCTAssertEqual(parametric.description, "curve Vocal Booster, \(units[1].bands.count) bands")
        XCTAssertFalse(units[2].isEqualizer)
        XCTAssertNil(units[2].equalizerResponse(sampleRate: 48000))
    }
}
