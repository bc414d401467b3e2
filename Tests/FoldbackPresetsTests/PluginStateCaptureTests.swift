// Writing a running chain back to a preset keeps each LV2 plugin's live state (lilv state bundles), plugins in Foldback's own process (sandboxes: SandboxedStateTests). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
@testable import FoldbackLV2
import Foundation
import XCTest
@testable import FoldbackPresets
import FoldbackGraph

final class PluginStateCaptureTests: XCTestCase {
    func testAPluginsLiveStateIsSavedAndTheWrittenPresetRestoresIt() throws {
        let directory = NSTemporaryDirectory() + "foldback-capture-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = LV2PresetTests.preset(units: """
              [[strip.unit]]
              type = "lv2"
              id = "amp"
              uri = "http://plugin.org.uk/swh-plugins/amp"
              isolation = "none"
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

    /// A mono plugin run dual mono on a stereo strip: the two instances, set differently (swh amp at −6 dB
    /// left, −12 dB right), are saved into `s-amp/` and `s-amp-right/`; the written preset names them in
    /// `state` and `state_right`, and reloaded, the left channel comes out 6 dB down and the right
    /// 12 dB down (measured through the engine, within 0.01 dB).
    func testBothInstancesOfADualMonoPairAreSavedAndRestored() throws {
        let directory = NSTemporaryDirectory() + "foldback-capture-pair-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = """
            [[bus]]
            name = "main"
            limiter = false

            [[strip]]
            name = "s"
            channels = 2
              [[strip.unit]]
              type = "lv2"
              id = "amp"
              uri = "http://plugin.org.uk/swh-plugins/amp"
              isolation = "none"
              controls = { gain = -6 }
              [[strip.send]]
              bus = "main"
            """
        var preset = try PresetLoader.parse(text, path: directory + "/show.toml")
        let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 256)
        let amp = try XCTUnwrap(graph.description.strips[0].units[0] as? LV2Unit)
        XCTAssertEqual(amp.instances.count, 2, "dual mono")
        amp.instances[1].setControl("gain", to: -12)   // as a plugin's own state could differ between the two

        XCTAssertEqual(PluginStateCapture.saveStates(of: graph, into: &preset, directory: directory), [])
        let plugin = try XCTUnwrap(preset.strips[0].units[0].lv2)
        XCTAssertEqual(plugin.stateFile, directory + "/s-amp/state.ttl")
        XCTAssertEqual(plugin.rightStateFile, directory + "/s-amp-right/state.ttl")
        preset.strips[0].units[0].parameters = [:]
        let written = PresetWriter.text(for: preset)
        XCTAssertTrue(written.contains("state = \"\(directory)/s-amp/state.ttl\"\nstate_right = \"\(directory)/s-amp-right/state.ttl\""), written)

        let reloaded = try PresetLoader.parse(written, path: directory + "/show.toml")
        XCTAssertEqual(reloaded.strips[0].units[0].lv2, plugin, "state and state_right read back")
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 256))
        let rebuilt = try PresetGraphBuilder.graph(for: reloaded, sampleRate: 48000, maxFrames: 256)
        try engine.install(rebuilt, crossfade: .none)
        let input = UnsafeMutablePointer<Float>.allocate(capacity: 64), left = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        let right = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        defer { input.deallocate(); left.deallocate(); right.deallocate() }
        input.initialize(repeating: 0.5, count: 64)
        engine.io.pointee.inputs[0] = UnsafePointer(input)
        engine.io.pointee.inputs[1] = UnsafePointer(input)
        engine.io.pointee.outputs[0] = left
        engine.io.pointee.outputs[1] = right
        engine.io.pointee.inputCount = 2
        engine.io.pointee.outputCount = 2
        engine.renderCycle(frames: 64)
        XCTAssertEqual(20 * log10(left[63] / 0.5), -6, accuracy: 0.01, "left instance restored from state")
        XCTAssertEqual(20 * log10(right[63] / 0.5), -12, accuracy: 0.01, "right instance restored from state_right")
    }
}
