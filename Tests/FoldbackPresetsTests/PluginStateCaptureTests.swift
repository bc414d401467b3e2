// Writing a running chain back to a preset keeps each LV2 plugin's live state (lilv state bundles). Non-realtime.
import FoldbackEngine
import FoldbackLV2
import Foundation
import XCTest
@testable import FoldbackPresets

final class PluginStateCaptureTests: XCTestCase {
    func testAPluginsLiveStateIsSavedAndTheWrittenPresetRestoresIt() throws {
        let directory = NSTemporaryDirectory() + "foldback-capture-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = LV2PresetTests.preset(units: """
              [[strip.unit]]
              type = "lv2"
              id = "amp"
              uri = "http://plugin.org.uk/swh-plugins/amp"
              controls = { gain = -12 }
            """)
        var preset = try PresetLoader.parse(text, path: directory + "/show.toml")
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 256))
        let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 256)
        try engine.install(graph, crossfade: .none)
        let gainIndex = try XCTUnwrap(graph.description.strips[0].units[0].parameters.firstIndex { $0.key == "gain" })
        try engine.set(.unitParameter(strip: 0, unit: 0, parameter: gainIndex), to: -6)
        engine.renderCycle(frames: 64)   // the plugin's control port takes the live value

        XCTAssertEqual(PluginStateCapture.saveStates(of: graph, into: &preset, directory: directory), [])
        let stateFile = try XCTUnwrap(preset.strips[0].units[0].lv2?.stateFile)
        XCTAssertTrue(stateFile.hasPrefix(directory + "/s-amp/"), stateFile)
        XCTAssertTrue(FileManager.default.fileExists(atPath: stateFile))

        // Written without its `controls`, the preset gets the live −6 dB back from the state alone.
        preset.strips[0].units[0].parameters = [:]
        let written = PresetWriter.text(for: preset)
        XCTAssertTrue(written.contains("state = \"\(stateFile)\""), written)
        let reloaded = try PresetLoader.parse(written, path: directory + "/show.toml")
        let rebuilt = try PresetGraphBuilder.graph(for: reloaded, sampleRate: 48000, maxFrames: 256)
        let amp = try XCTUnwrap(rebuilt.description.strips[0].units[0] as? LV2Unit)
        XCTAssertEqual(try XCTUnwrap(amp.controlValue("gain")), -6, accuracy: 1e-6)
    }
}
