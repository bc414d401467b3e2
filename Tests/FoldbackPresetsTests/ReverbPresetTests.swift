// The `reverb` unit type in presets: schema against the unit, loading, defaults, range errors, latency. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import XCTest
@testable import FoldbackPresets
import FoldbackGraph

final class ReverbPresetTests: XCTestCase {
    func testSchemaMatchesTheUnitsParameters() throws {
        let schema = try XCTUnwrap(UnitSchema.named("reverb"))
        XCTAssertTrue(UnitSchema.knownTypes.contains("reverb"))
        let descriptors = ReverbUnit.liveParameters
        XCTAssertEqual(schema.parameters.map(\.key), descriptors.map(\.key))
        for (parameter, descriptor) in zip(schema.parameters, descriptors) {
            XCTAssertEqual(parameter.defaultValue, descriptor.defaultValue, parameter.key)
            guard case .number(let range) = parameter.kind else { return XCTFail("\(parameter.key) is a number") }
            XCTAssertEqual(range, descriptor.range, parameter.key)
            XCTAssertFalse(parameter.summary.isEmpty)
        }
    }

    /// ``minimalBusAndStrip`` with one unit in strip `s`, written as `unit` (indented TOML lines).
    private func presetText(unit: String) -> String {
        minimalBusAndStrip + "\n  [[strip.unit]]\n" + unit
    }

    func testAReverbUnitLoadsWithDefaultsAndAddsNoLatency() throws {
        let preset = try PresetLoader.parse(presetText(unit: """
              type = "reverb"
              decay_s = 2.5
              predelay_ms = 30
              mix = 0.35
            """), path: "verb.toml")
        let spec = try XCTUnwrap(preset.strips.first?.units.first)
        XCTAssertEqual(spec.type, "reverb")
        XCTAssertEqual(spec.id, "reverb")
        XCTAssertEqual(spec.parameters["decay_s"], 2.5)
        XCTAssertEqual(spec.parameters["predelay_ms"], 30)
        XCTAssertEqual(spec.parameters["mix"], 0.35)
        XCTAssertEqual(spec.parameters["size"], ReverbUnit.liveParameters[2].defaultValue, "absent keys take their defaults")
        XCTAssertEqual(spec.parameters["width"], 1)

        let unit = try XCTUnwrap(UnitFactory.makeUnit(spec) as? ReverbUnit)
        XCTAssertEqual(unit.settings.decay, 2.5)
        XCTAssertEqual(unit.settings.predelay, 30)
        XCTAssertEqual(unit.settings.mix, 0.35)

        let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 256)
        let dry = try PresetLoader.parse(presetText(unit: "  type = \"gain\""), path: "dry.toml")
        let reference = try PresetGraphBuilder.graph(for: dry, sampleRate: 48000, maxFrames: 256)
        XCTAssertEqual(graph.layout.latencyFrames, reference.layout.latencyFrames, "the predelay is sound, not latency")
        XCTAssertEqual(graph.layout.inputPorts.map(\.name), ["s_in"])
    }

    func testOutOfRangeValuesAreErrorsNamingTheRange() {
        let text = presetText(unit: """
              type = "reverb"
              decay_s = 30
            """)
        assertSingleError(text, line: 10, column: 13, contains: ["decay_s", "30", "0.1", "20"])
    }
}
