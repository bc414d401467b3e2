// The `geq` and `delay` unit types in presets: keys by band frequency, distance_m against delay_ms, range errors, saving and live addresses. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest
@testable import FoldbackPresets
import FoldbackGraph

final class GraphicEQAndDelayPresetTests: XCTestCase {
    /// ``minimalBusAndStrip`` with one unit in strip `s` (its keys from line 9).
    private func presetText(unit: String) -> String {
        minimalBusAndStrip + "\n  [[strip.unit]]\n" + unit
    }

    func testSchemasMatchTheUnitsParameters() throws {
        for (type, unit) in [("geq", GraphicEQUnit(values: [:]) as any EngineUnit), ("delay", DelayUnit())] {
            let schema = try XCTUnwrap(UnitSchema.named(type))
            XCTAssertEqual(schema.parameters.map(\.key), unit.parameters.map(\.key), type)
            for (parameter, descriptor) in zip(schema.parameters, unit.parameters) {
                guard case .number(let range) = parameter.kind else { return XCTFail("\(parameter.key) is a number") }
                XCTAssertEqual(range, descriptor.range, parameter.key)
                XCTAssertEqual(parameter.defaultValue, descriptor.defaultValue, parameter.key)
            }
        }
    }

    func testAGraphicEQLoadsItsBandsByFrequencyAndSavesThem() throws {
        let preset = try PresetLoader.parse(presetText(unit: """
              type = "geq"
              id = "wedge_eq"
              g2k5 = -6
              g31_5 = 3.5
              g20k = -15
              gain_db = -2
            """), path: "geq.toml")
        let spec = try XCTUnwrap(preset.strips.first?.units.first)
        XCTAssertEqual(spec.parameters["g2k5"], -6)
        XCTAssertEqual(spec.parameters["g31_5"], 3.5)
        XCTAssertEqual(spec.parameters["g20k"], -15)
        XCTAssertEqual(spec.parameters["g1k"], 0, "absent bands are flat")
        let unit = try XCTUnwrap(UnitFactory.makeUnit(spec) as? GraphicEQUnit)
        XCTAssertEqual(unit.faders[21], -6, "g2k5 is the 22nd band")
        let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 256)
        let address = try XCTUnwrap(MIDITarget.unit(strip: "s", unit: "wedge_eq", key: "g2k5").address(in: preset, graph: graph))
        XCTAssertEqual(address, .unitParameter(strip: 0, unit: 0, parameter: 22))
        XCTAssertEqual(preset.value(at: address, graph: graph), -6)

        let (changed, skipped) = preset.applying([address: 4], graph: graph)
        XCTAssertEqual(skipped, [])
        let reloaded = try PresetLoader.parse(PresetWriter.text(for: changed), path: "saved.toml")
        XCTAssertEqual(reloaded.strips[0].units[0].parameters, changed.strips[0].units[0].parameters, "a live move is saved and reloads")
        XCTAssertEqual(reloaded.strips[0].units[0].parameters["g2k5"], 4)
    }

    func testGraphicEQErrorsNameTheBandAndItsRange() {
        assertSingleError(presetText(unit: "  type = \"geq\"\n  g2k5 = -20\n"), line: 10, column: 10, contains: ["g2k5", "-20", "-15 to 15"])
        assertSingleError(presetText(unit: "  type = \"geq\"\n  g2k6 = 3\n"), line: 10, column: 3, contains: ["unknown key 'g2k6'", "did you mean"])
    }

    func testDistanceIsTheOtherSpellingOfTheDelay() throws {
        let preset = try PresetLoader.parse(presetText(unit: "  type = \"delay\"\n  distance_m = 6.86\n"), path: "delay.toml")
        let spec = try XCTUnwrap(preset.strips.first?.units.first)
        XCTAssertEqual(try XCTUnwrap(spec.parameters["delay_ms"]), 20, accuracy: 1e-4, "6.86 m at 343 m/s is 20 ms")
        XCTAssertNil(spec.parameters["distance_m"], "stored, saved and controlled as delay_ms")
        let unit = try XCTUnwrap(UnitFactory.makeUnit(spec) as? DelayUnit)
        XCTAssertEqual(try XCTUnwrap(unit.parameters.first?.defaultValue), 20, accuracy: 1e-4)
        let saved = PresetWriter.text(for: preset)
        XCTAssertTrue(saved.contains("delay_ms = 20"), saved)
        XCTAssertNoThrow(try PresetLoader.parse(saved, path: "saved.toml"))
        let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 256)
        let address = MIDITarget.unit(strip: "s", unit: "delay", key: "delay_ms").address(in: preset, graph: graph)
        XCTAssertEqual(address, .unitParameter(strip: 0, unit: 0, parameter: 0))
        XCTAssertEqual(graph.layout.latencyFrames, try PresetGraphBuilder.graph(
            for: PresetLoader.parse(minimalBusAndStrip, path: "dry.toml"), sampleRate: 48000, maxFrames: 256).layout.latencyFrames,
            "a delay reports no latency")
    }

    func testDelayAndDistanceTogetherOrOutOfRangeAreErrors() {
        assertSingleError(presetText(unit: "  type = \"delay\"\n  delay_ms = 5\n  distance_m = 2\n"), line: 11, column: 3,
                          contains: ["'delay_ms' or 'distance_m', not both"])
        assertSingleError(presetText(unit: "  type = \"delay\"\n  distance_m = 200\n"), line: 10, column: 16,
                          contains: ["distance_m", "200", "0 to 171.5"])
        assertSingleError(presetText(unit: "  type = \"delay\"\n  delay_ms = 501\n"), line: 10, column: 14, contains: ["delay_ms", "0 to 500"])
    }
}
