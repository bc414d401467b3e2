// The `feedback` unit type in presets: keys and defaults, saved ring-out bands as fixed notches, the writer and the capture round trip. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
@testable import FoldbackFeedback
import XCTest
@testable import FoldbackPresets
import FoldbackGraph

final class FeedbackPresetTests: XCTestCase {
    private func presetText(unit: String) -> String {
        minimalBusAndStrip + "\n  [[strip.unit]]\n" + unit
    }

    private let ringOut = """
          type = "feedback"
          id = "fbx"
          mode = "ringout"
          max_depth_db = -18
          [[strip.unit.band]]
          type = "peak"
          freq_hz = 2512.5
          gain_db = -9
          q = 16
          [[strip.unit.band]]
          type = "peak"
          freq_hz = 820
          gain_db = -12
          q = 10.7
        """

    func testSchemaMatchesTheUnitsLiveParameters() throws {
        let schema = try XCTUnwrap(UnitSchema.named("feedback"))
        let unit = FeedbackUnit()
        XCTAssertEqual(schema.parameters.map(\.key), unit.parameters.map(\.key))
        XCTAssertEqual(schema.parameters.map(\.defaultValue), unit.parameters.map(\.defaultValue))
    }

    func testDefaultsAreLiveMinus12DBHeld10Seconds() throws {
        let preset = try PresetLoader.parse(presetText(unit: "  type = \"feedback\"\n"), path: "fb.toml")
        let spec = try XCTUnwrap(preset.strips.first?.units.first)
        XCTAssertEqual(spec.parameters, ["mode": 1, "max_depth_db": -12, "hold_s": 10])
        let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 64)
        let bare = try PresetGraphBuilder.graph(for: PresetLoader.parse(minimalBusAndStrip, path: "bare.toml"), sampleRate: 48000, maxFrames: 64)
        XCTAssertEqual(graph.layout.latencyFrames, bare.layout.latencyFrames, "the unit adds no latency (the bus limiter's lookahead only)")
        let unit = try XCTUnwrap(graph.description.strips[0].units.first as? FeedbackUnit)
        XCTAssertEqual(unit.settings.mode, .live)
        XCTAssertEqual(unit.notches, [])
    }

    func testSavedRingOutBandsStartAsFixedNotchesAndSaveBack() throws {
        let preset = try PresetLoader.parse(presetText(unit: ringOut), path: "fb.toml")
        let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 64)
        let unit = try XCTUnwrap(graph.description.strips[0].units.first as? FeedbackUnit)
        XCTAssertEqual(unit.settings.mode, .ringOut)
        XCTAssertEqual(unit.settings.maxDepthDB, -18)
        XCTAssertEqual(unit.notches.map(\.frequency), [2512.5, 820])
        XCTAssertEqual(unit.notches.map(\.depthDB), [-9, -12])

        var saved = preset
        saved.strips[0].units[0].bands = []
        XCTAssertEqual(FeedbackNotchCapture.saveNotches(of: graph, into: &saved), 2)
        let text = PresetWriter.text(for: saved)
        XCTAssertTrue(text.contains("mode = \"ringout\""), text)
        let reloaded = try PresetLoader.parse(text, path: "saved.toml")
        XCTAssertEqual(reloaded.strips[0].units[0].bands.map(\.band), preset.strips[0].units[0].bands.map(\.band))
        XCTAssertEqual(reloaded.strips[0].units[0].parameters, preset.strips[0].units[0].parameters)
    }

    func testOutOfRangeDepthAndTooManyBandsAreRefused() throws {
        _ = assertSingleError(presetText(unit: "  type = \"feedback\"\n  max_depth_db = -2\n"), line: 10, column: 18, contains: ["max_depth_db"])
        let band = "  [[strip.unit.band]]\n  type = \"peak\"\n  freq_hz = 1000\n  gain_db = -6\n"
        let preset = try PresetLoader.parse(presetText(unit: "  type = \"feedback\"\n" + String(repeating: band, count: 17)), path: "many.toml")
        XCTAssertThrowsError(try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 64)) { error in
            XCTAssertTrue("\(error)".contains("at most 16 notches"), "\(error)")
        }
    }

    /// A preset switch that keeps the feedback unit (only its mode or limits change) keeps its running notches,
    /// analysis and worker: the new graph's unit continues the old one, which is freed after the fade.
    /// Other saved bands or a stereo strip start afresh.
    func testAPresetSwitchKeepsTheRunningNotches() throws {
        let first = try PresetLoader.parse(presetText(unit: ringOut), path: "a.toml")
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 64))
        try engine.install(PresetGraphBuilder.graph(for: first, sampleRate: 48000, maxFrames: 64), crossfade: .none)
        engine.renderCycle(frames: 64)
        weak let old = engine.runningGraph
        let oldUnit = try XCTUnwrap(old?.description.strips[0].units.first as? FeedbackUnit)

        let live = try PresetLoader.parse(presetText(unit: ringOut.replacingOccurrences(of: "mode = \"ringout\"", with: "mode = \"live\"")), path: "b.toml")
        let next = try PresetGraphBuilder.graph(for: live, sampleRate: 48000, maxFrames: 64, continuing: engine.runningGraph)
        XCTAssertEqual(next.continuedUnits.map { "\($0.strip)/\($0.unit)" }, ["s/fbx"])
        let newUnit = try XCTUnwrap(next.description.strips[0].units.first as? FeedbackUnit)
        XCTAssertTrue(newUnit.shares(with: oldUnit))
        try engine.install(next, crossfade: Crossfade(duration: 0.01, law: .equalPower))
        for _ in 0..<40 { engine.renderCycle(frames: 64) }
        engine.collectGarbage()
        XCTAssertNil(old, "the old graph is freed; the notches live on in the new one")
        XCTAssertEqual(newUnit.notches.map(\.frequency), [2512.5, 820])

        let otherBands = try PresetLoader.parse(presetText(unit: ringOut.replacingOccurrences(of: "freq_hz = 820", with: "freq_hz = 830")), path: "c.toml")
        XCTAssertEqual(try PresetGraphBuilder.graph(for: otherBands, sampleRate: 48000, maxFrames: 64, continuing: engine.runningGraph).continuedUnits.count, 0)
    }
}
