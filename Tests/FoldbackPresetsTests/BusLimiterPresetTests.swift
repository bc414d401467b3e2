// The bus safety limiter keys: on by default, turned off or tuned per bus, validated with positions.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import XCTest
@testable import FoldbackPresets
import FoldbackGraph

final class BusLimiterPresetTests: XCTestCase {
    private func preset(busLines: String) -> String {
        "[[bus]]\nname = \"iem\"\n\(busLines)\n[[strip]]\nname = \"vox\"\n  [[strip.send]]\n  bus = \"iem\"\n"
    }

    func testEveryBusHasTheDefaultLimiterUnlessTurnedOff() throws {
        let on = try PresetLoader.parse(preset(busLines: ""), path: "on.toml")
        XCTAssertEqual(on.buses[0].limiter, LimiterSettings(ceilingDB: -1, releaseMs: 50))
        let off = try PresetLoader.parse(preset(busLines: "limiter = false"), path: "off.toml")
        XCTAssertNil(off.buses[0].limiter)
        let tuned = try PresetLoader.parse(preset(busLines: "limiter_ceiling_db = -6\nlimiter_release_ms = 200"), path: "tuned.toml")
        XCTAssertEqual(tuned.buses[0].limiter, LimiterSettings(ceilingDB: -6, releaseMs: 200))
    }

    func testTheLimiterReachesTheEngineAndItsLatencyTheLayout() throws {
        let on = try PresetLoader.parse(preset(busLines: "limiter_ceiling_db = -3"), path: "on.toml")
        XCTAssertEqual(try PresetGraphBuilder.description(for: on).buses[0].limiter?.ceilingDB, -3)
        XCTAssertEqual(try PresetGraphBuilder.graph(for: on, sampleRate: 48000, maxFrames: 64).layout.latencyFrames, 72)
        let off = try PresetLoader.parse(preset(busLines: "limiter = false"), path: "off.toml")
        XCTAssertEqual(try PresetGraphBuilder.graph(for: off, sampleRate: 48000, maxFrames: 64).layout.latencyFrames, 0)
    }

    func testACeilingAboveFullScaleIsRefusedWithItsPosition() {
        assertSingleError(preset(busLines: "limiter_ceiling_db = 3.0"), line: 3, column: 22,
                          contains: ["'limiter_ceiling_db'", "3"])
    }

    func testAMisspeltLimiterKeySuggestsTheRightOne() {
        assertSingleError(preset(busLines: "limitter = false"), line: 3, column: 1, contains: ["did you mean 'limiter'?"])
    }
}
