// `lv2` units in presets: plugins load beside built-ins, bad URIs/controls/presets are located, latency reaches the graph. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackLV2
import XCTest
@testable import FoldbackPresets
import FoldbackGraph

final class LV2PresetTests: XCTestCase {
    static func preset(units: String, channels: Int = 1) -> String {
        """
        [[bus]]
        name = "main"

        [[strip]]
        name = "s"
        channels = \(channels)
        \(units)
          [[strip.send]]
          bus = "main"
        """
    }

    /// Built-in units and LV2 plugins in one chain load, keep their controls as parameters, and build a graph.
    func testMixedChainBuilds() throws {
        let text = Self.preset(units: """
              [[strip.unit]]
              type = "gain"
              gain_db = -3
              [[strip.unit]]
              type = "lv2"
              uri = "http://plugin.org.uk/swh-plugins/amp"
              controls = { gain = 6 }
              [[strip.unit]]
              type = "lv2"
              id = "eq"
              uri = "http://gareus.org/oss/lv2/fil4#stereo"
              controls = { LSgain = 3.5, enable = 1 }
            """)
        let preset = try PresetLoader.parse(text, path: "test.toml")
        let units = preset.strips[0].units
        XCTAssertEqual(units.map(\.id), ["gain", "lv2", "eq"])
        XCTAssertEqual(units[1].parameters, ["gain": 6])
        XCTAssertEqual(units[2].lv2?.uri, "http://gareus.org/oss/lv2/fil4#stereo")
        XCTAssertNoThrow(try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 256, hosting: .offline))
    }

    func testUnknownURIListsClosestInstalled() {
        assertSingleError(Self.preset(units: """
              [[strip.unit]]
              type = "lv2"
              uri = "http://plugin.org.uk/swh-plugins/ampp"
            """), line: 9, column: 9, contains: ["no installed LV2 plugin", "closest installed: http://plugin.org.uk/swh-plugins/amp"])
    }

    func testUnknownControlListsSymbols() {
        assertSingleError(Self.preset(units: """
              [[strip.unit]]
              type = "lv2"
              uri = "http://plugin.org.uk/swh-plugins/amp"
              controls = { gian = 6 }
            """), line: 10, column: 16, contains: ["no control input 'gian'", "did you mean 'gain'?", "its controls: gain"])
    }

    func testOutOfRangeControlNamesRange() {
        assertSingleError(Self.preset(units: """
              [[strip.unit]]
              type = "lv2"
              uri = "http://plugin.org.uk/swh-plugins/amp"
              controls = { gain = 90 }
            """), line: 10, column: 23, contains: ["'gain' = 90 is out of range", "allowed: -70 to 70"])
    }

    func testUnknownPresetListsPresets() {
        assertSingleError(Self.preset(units: """
              [[strip.unit]]
              type = "lv2"
              uri = "http://drobilla.net/plugins/mda/Ambience"
              preset = "No Such Room"
            """), line: 10, column: 12, contains: ["has no preset 'No Such Room'"])
    }

    func testUnreadableRightStateNamesTheFile() {
        assertSingleError(Self.preset(units: """
              [[strip.unit]]
              type = "lv2"
              uri = "http://plugin.org.uk/swh-plugins/amp"
              state_right = "/nonexistent/amp-right/state.ttl"
            """, channels: 2), line: 10, column: 17, contains: ["state file '/nonexistent/amp-right/state.ttl' cannot be read"])
    }

    func testPortMappingNamesUnknownPort() {
        assertSingleError(Self.preset(units: """
              [[strip.unit]]
              type = "lv2"
              uri = "http://plugin.org.uk/swh-plugins/amp"
              inputs = ["left"]
            """), line: 10, column: 12, contains: ["'left' is not an audio input", "its audio inputs: input"])
    }

    /// A lookahead limiter's latency port sets the strip's latency, and with it the graph's.
    func testLatencyPortReachesGraphLatency() throws {
        let uri = "http://gareus.org/oss/lv2/dpl#mono"
        let with = try PresetLoader.parse(Self.preset(units: """
              [[strip.unit]]
              type = "lv2"
              uri = "\(uri)"
            """), path: "test.toml")
        let without = try PresetLoader.parse(Self.preset(units: ""), path: "test.toml")
        let pluginLatency = try LV2Unit(uri: uri, hosting: .offline).prepare(channels: 1, sampleRate: 48000, maxFrames: 256).latencyFrames
        XCTAssertGreaterThan(pluginLatency, 0)
        let graphLatency = try PresetGraphBuilder.graph(for: with, sampleRate: 48000, maxFrames: 256).layout.latencyFrames
        let baseline = try PresetGraphBuilder.graph(for: without, sampleRate: 48000, maxFrames: 256).layout.latencyFrames
        XCTAssertEqual(graphLatency - baseline, pluginLatency)
    }
}
