// The `compressor` unit in presets: schema agrees with the unit's parameters, keys load and build a unit, bad values are located.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import XCTest
@testable import FoldbackPresets
import FoldbackGraph

final class CompressorPresetTests: XCTestCase {
    /// Every live parameter of the unit, and the lookahead, appears in the schema with the same range and default.
    func testSchemaAgreesWithTheUnitsParameters() throws {
        let schema = try XCTUnwrap(UnitSchema.named("compressor"))
        let descriptors = CompressorUnit.liveParameters + [CompressorUnit.lookaheadParameter]
        XCTAssertEqual(Set(schema.parameters.map(\.key)), Set(descriptors.map(\.key)))
        for descriptor in descriptors {
            let parameter = try XCTUnwrap(schema.parameter(descriptor.key))
            XCTAssertEqual(parameter.defaultValue, descriptor.defaultValue, descriptor.key)
            switch parameter.kind {
            case .number(let range): XCTAssertEqual(range, descriptor.range, descriptor.key)
            case .bool: XCTAssertEqual(descriptor.range, 0...1, descriptor.key)
            case .choice(let choices):
                XCTAssertEqual(choices.map(\.value).min(), descriptor.range.lowerBound, descriptor.key)
                XCTAssertEqual(choices.map(\.value).max(), descriptor.range.upperBound, descriptor.key)
            }
        }
    }

    func testPresetKeysBuildACompressor() throws {
        let text = """
            [[bus]]
            name = "main"

            [[strip]]
            name = "vox"
            channels = 2
              [[strip.unit]]
              type = "compressor"
              threshold_db = -18
              ratio = 3
              knee_db = 0
              attack_ms = 5
              release_ms = 80
              makeup_db = 2
              auto_makeup = true
              detection = "rms"
              lookahead_ms = 2
              stereo_link = 0.5
              expander_threshold_db = -50
              expander_ratio = 2
              [[strip.send]]
              bus = "main"
            """
        let preset = try PresetLoader.parse(text, path: "test.toml")
        let spec = try XCTUnwrap(preset.strips.first?.units.first)
        XCTAssertEqual(spec.id, "compressor")
        let unit = try XCTUnwrap(try UnitFactory.makeUnit(spec) as? CompressorUnit)
        let settings = unit.settings
        XCTAssertEqual(settings.thresholdDB, -18)
        XCTAssertEqual(settings.ratio, 3)
        XCTAssertEqual(settings.kneeDB, 0)
        XCTAssertEqual(settings.attackMs, 5)
        XCTAssertEqual(settings.releaseMs, 80)
        XCTAssertEqual(settings.makeupDB, 2)
        XCTAssertTrue(settings.isAutoMakeupEnabled)
        XCTAssertEqual(settings.detection, .rms)
        XCTAssertEqual(settings.lookaheadMs, 2)
        XCTAssertEqual(settings.stereoLink, 0.5)
        XCTAssertEqual(settings.expanderThresholdDB, -50)
        XCTAssertEqual(settings.expanderRatio, 2)
        let withoutLookahead = try PresetLoader.parse(text.replacingOccurrences(of: "lookahead_ms = 2", with: ""), path: "test.toml")
        let latency = try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 256).layout.latencyFrames
        let baseline = try PresetGraphBuilder.graph(for: withoutLookahead, sampleRate: 48000, maxFrames: 256).layout.latencyFrames
        XCTAssertEqual(latency - baseline, 96, "2 ms lookahead at 48 kHz adds 96 frames to the graph's latency")
    }

    func testOutOfRangeAndUnknownChoicesAreLocated() {
        let unitTable = """
            [[strip]]
            name = "s"
              [[strip.unit]]
              type = "compressor"
              lookahead_ms = 12
              [[strip.send]]
              bus = "main"

            [[bus]]
            name = "main"
            """
        assertSingleError(unitTable, line: 5, column: 18, contains: ["'lookahead_ms' = 12", "0 to 10"])
        assertSingleError(unitTable.replacingOccurrences(of: "lookahead_ms = 12", with: "detection = \"rsm\""),
                          line: 5, column: 15, contains: ["\"rsm\"", "did you mean \"rms\"?"])
    }
}
