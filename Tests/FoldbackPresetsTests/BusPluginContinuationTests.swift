// An LV2 plugin on a bus keeps running across a preset switch, as one on a strip does. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackLV2
import XCTest
@testable import FoldbackPresets
import FoldbackGraph

final class BusPluginContinuationTests: XCTestCase {
    /// The swh plate (mono in, stereo out) as a `[[bus.unit]]` on the mono bus `main` (fed by `vox`), folded back
    /// to mono; `keys` into `aux`. The plate runs in this process (`isolation = "none"`): a live sandbox that misses a
    /// deadline on a loaded machine would fall back for that cycle, and this test compares sample for sample.
    private func preset(keysGainDB: Float) throws -> Preset {
        try PresetLoader.parse("""
            [[bus]]
            name = "main"
            channels = 1
            limiter = false
              [[bus.unit]]
              type = "lv2"
              id = "fx"
              uri = "\(PluginContinuationTests.plate)"
              isolation = "none"
              controls = { time = 3, damping = 0.3, wet = 0.3 }
            [[bus]]
            name = "aux"
            limiter = false

            [[strip]]
            name = "vox"
              [[strip.send]]
              bus = "main"

            [[strip]]
            name = "keys"
            gain_db = \(keysGainDB)
              [[strip.send]]
              bus = "aux"
            """, path: "test.toml")
    }

    /// Only `keys`' fader changes: the bus plate keeps its instance and `main` (its tail) matches the run
    /// without a switch to 1e-5 at every frame.
    func testABusPluginsTailCarriesOnAcrossASwitch() throws {
        guard (try? PresetGraphBuilder.graph(for: preset(keysGainDB: 0), sampleRate: 48000, maxFrames: 256)) != nil else {
            throw XCTSkip("the swh plate LV2 plugin is not installed")
        }
        let reference = try PluginContinuationTests.render(try preset(keysGainDB: 0)) { _ in }
        var continued: [String] = []
        let switched = try PluginContinuationTests.render(try preset(keysGainDB: 0)) { engine in
            let old = try XCTUnwrap(engine.runningGraph)
            let new = try PresetGraphBuilder.graph(
                for: try self.preset(keysGainDB: -10), sampleRate: PluginContinuationTests.sampleRate,
                maxFrames: PluginContinuationTests.block, continuing: old)
            try engine.install(new, crossfade: PluginContinuationTests.fade)
            continued = new.continuedUnits.map { "\($0.strip)/\($0.unit)" }
        }
        XCTAssertEqual(continued, ["main/fx"])
        XCTAssertGreaterThan(PluginContinuationTests.rms(reference[0], PluginContinuationTests.tail), 1e-3, "the plate's tail rings after the switch")
        XCTAssertLessThan(PluginContinuationTests.maxDifference(switched[0], reference[0], 0..<PluginContinuationTests.frames), 1e-5, "main")
    }
}
