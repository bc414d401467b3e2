// `lv2` units validated against an in-memory plugin catalogue: no lilv, the same located messages as the installed one. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackLV2
import XCTest
@testable import FoldbackPresets

/// A fixed list of plugins; an unknown URI fails with `message`.
private struct FakePluginCatalog: PluginCatalog {
    var plugins: [PluginDescription]

    func plugin(uri: String) throws(PluginLookupError) -> PluginDescription {
        guard let plugin = plugins.first(where: { $0.uri == uri }) else { throw PluginLookupError("no plugin '\(uri)' in the test list") }
        return plugin
    }
}

final class PluginCatalogPresetTests: XCTestCase {
    /// swh's amp as `foldback plugin http://plugin.org.uk/swh-plugins/amp` describes it, written out by hand.
    private static let amp = PluginDescription(
        uri: "http://plugin.org.uk/swh-plugins/amp", name: "Simple amplifier",
        controls: [ParameterDescriptor(key: "gain", range: -70...70, defaultValue: 0, unit: "", curve: .linear, isSmoothed: false, summary: "Amps gain (dB)")],
        audioInputs: ["input"], audioOutputs: ["output"])
    /// A made-up plugin with presets and a feature the host lacks.
    private static let room = PluginDescription(
        uri: "urn:foldback:test:room", name: "Test Room", controls: [.toggle(key: "enable", defaultValue: 1)],
        audioInputs: ["in"], audioOutputs: ["out_l", "out_r"],
        presets: [PluginPreset(uri: "urn:foldback:test:room#hall", label: "Hall"), PluginPreset(uri: "urn:foldback:test:room#plate", label: "Plate")],
        unsupportedReason: "LV2 plugin urn:foldback:test:room requires feature urn:test:teleport, which Foldback does not provide")
    private static let catalog = FakePluginCatalog(plugins: [amp, room])

    private func diagnostics(_ units: String, plugins: any PluginCatalog = catalog) -> [String] {
        do {
            _ = try PresetLoader.parse(LV2PresetTests.preset(units: units), path: "test.toml", plugins: plugins)
            XCTFail("preset loaded but was expected to fail")
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    /// Unknown URI, control, out-of-range value, preset and port, each at its file:line:column, from the fake alone.
    func testFakeCatalogueLocatesEveryProblem() {
        XCTAssertEqual(diagnostics("""
              [[strip.unit]]
              type = "lv2"
              uri = "urn:nowhere"
            """), ["test.toml:9:9: error: no plugin 'urn:nowhere' in the test list"])
        XCTAssertEqual(diagnostics("""
              [[strip.unit]]
              type = "lv2"
              uri = "http://plugin.org.uk/swh-plugins/amp"
              controls = { gian = 6, gain = 90 }
              inputs = ["left"]
            """), [
                "test.toml:10:16: error: Simple amplifier has no control input 'gian'; did you mean 'gain'? its controls: gain",
                "test.toml:10:33: error: 'gain' = 90 is out of range; allowed: -70 to 70",
                "test.toml:11:12: error: 'inputs': 'left' is not an audio input of the plugin; its audio inputs: input",
            ])
        XCTAssertEqual(diagnostics("""
              [[strip.unit]]
              type = "lv2"
              uri = "urn:foldback:test:room"
              preset = "Cathedral"
            """), [
                "test.toml:9:9: error: \(Self.room.unsupportedReason ?? "")",
                "test.toml:10:12: error: " + LV2Error.unknownPreset(plugin: Self.room.uri, preset: "Cathedral", available: ["Hall", "Plate"]).description,
            ])
    }

    /// A valid unit keeps its controls and preset, and the tree of the preset takes the plugin's controls from the catalogue.
    func testFakeCataloguePluginLoadsIntoTheTree() throws {
        let text = LV2PresetTests.preset(units: """
              [[strip.unit]]
              type = "lv2"
              id = "amp"
              uri = "http://plugin.org.uk/swh-plugins/amp"
              controls = { gain = -6 }
            """)
        let preset = try PresetLoader.parse(text, path: "test.toml", plugins: Self.catalog)
        XCTAssertEqual(preset.strips[0].units[0].parameters, ["gain": -6])
        let node = try XCTUnwrap(ParameterTree(preset: preset).node(at: "strip/s/unit/amp/gain"))
        XCTAssertEqual(node.descriptor, Self.amp.controls[0])
        XCTAssertEqual(node.presetValue, -6)
    }

    /// The hand-written description is what lilv reads, so a faulty unit gets the same diagnostics from either catalogue.
    func testFakeAndInstalledCataloguesGiveTheSameErrors() throws {
        let installed = LV2PluginCatalog()
        guard (try? installed.plugin(uri: Self.amp.uri)) != nil else { throw XCTSkip("swh-lv2 is not installed") }
        XCTAssertEqual(try installed.plugin(uri: Self.amp.uri), Self.amp)
        let units = """
              [[strip.unit]]
              type = "lv2"
              uri = "http://plugin.org.uk/swh-plugins/amp"
              controls = { gian = 6, gain = 90 }
              outputs = ["out"]
              preset = "Loud"
            """
        let fromFake = diagnostics(units)
        XCTAssertEqual(fromFake.count, 4)
        XCTAssertEqual(fromFake, diagnostics(units, plugins: installed))
    }
}
