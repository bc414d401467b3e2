// A sandboxed plugin's state: saved through its sandbox, restored by a restarted sandbox, kept across a preset switch.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackGraph
import FoldbackLV2
import FoldbackPresets
import FoldbackSandbox
import FoldbackTestSupport
import Foundation
import Glibc
import XCTest

final class SandboxedStateTests: XCTestCase {
    static let fil4 = "http://gareus.org/oss/lv2/fil4#mono"

    private func requireFil4() throws {
        guard (try? LV2World.shared.plugin(uri: Self.fil4)) != nil else { throw XCTSkip("\(Self.fil4) is not installed (x42-plugins)") }
    }

    private func temporaryFolder() throws -> String {
        let folder = NSTemporaryDirectory() + "foldback-sandbox-state-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        return folder
    }

    private func sandboxed(controls: [String: Float], hosting: PluginHosting, preset: String? = nil) throws -> SandboxedUnit {
        SandboxedUnit(
            plugin: try LV2Unit(uri: Self.fil4, controls: controls, preset: preset, hosting: hosting), hosting: hosting,
            options: SandboxOptions(offlineTimeout: hosting.isSynchronous ? .seconds(2) : nil), owner: "strip 'vox'")
    }

    private func index(_ unit: SandboxedUnit, _ key: String) throws -> Int {
        try XCTUnwrap(unit.parameters.firstIndex { $0.key == key })
    }

    /// The state the sandbox saves holds the values Foldback set live (not the preset's), for both instances of a dual-mono
    /// pair: an in-process fil4 restored from it has them.
    func testASandboxedPluginSavesItsStateThroughItsSandbox() throws {
        try requireFil4()
        let unit = try sandboxed(controls: ["sec3": 1, "freq3": 3000, "gain3": 6], hosting: .offline(block: 256))
        let driver = SlotDriver(try unit.prepare(channels: 2, sampleRate: 48_000, maxFrames: 256), maxFrames: 256)
        XCTAssertEqual(driver.slot.inputChannels, 2, "a mono plugin on a stereo strip: a dual-mono pair in the sandbox")
        driver.slot.functions.setParameter(driver.slot.state, Int32(try index(unit, "gain3")), -3.5)
        for _ in 0..<4 { _ = driver.run([Float](repeating: 0.1, count: 256)) }
        let saved = try unit.saveState(to: try temporaryFolder() + "/vox-eq")
        XCTAssertTrue(FileManager.default.fileExists(atPath: saved.path), saved.path)
        let right = try XCTUnwrap(saved.rightPath, "the right instance's state")
        for path in [saved.path, right] {
            let restored = try LV2Unit(uri: Self.fil4, stateFile: path, hosting: .offline(block: 256))
            _ = try restored.prepare(channels: 1, sampleRate: 48_000, maxFrames: 256)
            let values = try XCTUnwrap(restored.restoredControlValues)
            XCTAssertEqual(values[try index(unit, "gain3")], -3.5, "the live value, saved by the sandbox (\(path))")
            XCTAssertEqual(values[try index(unit, "freq3")], 3000)
            XCTAssertEqual(values[try index(unit, "sec3")], 1)
        }
    }

    /// A sandbox restarted after a crash re-instantiates its plugin from the state last captured: the new sandbox's plugin
    /// has the captured value before any control is applied (without a capture it would have fil4's default, 0 dB).
    func testARestartedSandboxRestoresTheLastCapturedState() throws {
        try requireFil4()
        let unit = try sandboxed(controls: ["sec3": 1, "gain3": 6], hosting: .live(period: 256))
        let driver = SlotDriver(try unit.prepare(channels: 1, sampleRate: 48_000, maxFrames: 256), maxFrames: 256)
        let process = try XCTUnwrap(unit.process)
        let gain3 = try index(unit, "gain3")
        XCTAssertEqual(process.channel.restoredValue(at: gain3), 0, "fil4's default before its controls")
        driver.slot.functions.setParameter(driver.slot.state, Int32(gain3), -7)
        try waitFor("4 cycles delivered", timeout: 5) {
            _ = driver.run([Float](repeating: 0.1, count: 256))
            return process.channel.delivered >= 4
        }
        let saved = try unit.saveState(to: try temporaryFolder() + "/vox-eq")
        XCTAssertEqual(process.stateFile, saved.path, "a restart restores the captured state")
        kill(try XCTUnwrap(process.processIdentifier), SIGKILL)
        try waitFor("the sandbox restarted", timeout: 10) { process.restarts == 1 && process.phase == .running }
        XCTAssertEqual(process.lastFault.map { $0.hasPrefix("crashed: signal 9") }, true, process.lastFault ?? "no fault")
        XCTAssertEqual(process.channel.restoredValue(at: gain3), -7, "the restarted sandbox's plugin restored the captured state")
        try waitFor("a cycle delivered after the restart", timeout: 5) {
            let delivered = process.channel.delivered
            _ = driver.run([Float](repeating: 0.1, count: 256))
            return process.channel.delivered > delivered
        }
    }

    /// On a preset switch a sandboxed unit with the same plugin, preset and format continues its predecessor's sandbox (the
    /// same process: the plugin's tail and state go on), with the values an in-process fil4 continuing would take; the
    /// sandbox lives while either unit does. Another LV2 preset starts a sandbox of its own.
    func testASandboxedUnitContinuesItsSandboxAcrossAPresetSwitch() throws {
        try requireFil4()
        var old: SandboxedUnit? = try sandboxed(controls: ["sec3": 1, "freq3": 2500, "gain3": 6], hosting: .live(period: 256))
        _ = try old?.prepare(channels: 1, sampleRate: 48_000, maxFrames: 256).awaitLatency?()   // ready, as a running graph's
        let process = try XCTUnwrap(old?.process)
        let pid = try XCTUnwrap(process.processIdentifier)
        let successor = try sandboxed(controls: ["gain3": -2], hosting: .live(period: 256))
        let continuation = try XCTUnwrap(try successor.prepare(continuing: try XCTUnwrap(old), channels: 1, sampleRate: 48_000, maxFrames: 256))
        XCTAssertTrue(successor.process === process)
        XCTAssertEqual(successor.process?.processIdentifier, pid, "the same sandbox process plays on")

        let local = try LV2Unit(uri: Self.fil4, controls: ["sec3": 1, "freq3": 2500, "gain3": 6], hosting: .live(period: 256))
        _ = try local.prepare(channels: 1, sampleRate: 48_000, maxFrames: 256)
        let localSuccessor = try LV2Unit(uri: Self.fil4, controls: ["gain3": -2], hosting: .live(period: 256))
        let localContinuation = try XCTUnwrap(try localSuccessor.prepare(continuing: local, channels: 1, sampleRate: 48_000, maxFrames: 256))
        XCTAssertEqual(continuation.parameterValues, localContinuation.parameterValues, "the values an in-process fil4 continues with")
        XCTAssertEqual(continuation.parameterValues[try index(successor, "gain3")], -2)

        old = nil
        try waitFor("the sandbox running", timeout: 5) { process.phase == .running }   // the supervisor's next check
        XCTAssertEqual(process.phase, .running, "the successor keeps the sandbox")
        XCTAssertEqual(kill(pid, 0), 0, "its process is alive")
        let presets = try LV2World.shared.plugin(uri: Self.fil4).presets
        if let preset = presets.first {
            let other = try sandboxed(controls: [:], hosting: .live(period: 256), preset: preset.label)
            XCTAssertNil(try other.prepare(continuing: successor, channels: 1, sampleRate: 48_000, maxFrames: 256), "another LV2 preset starts afresh")
        }
    }

    /// Saving a running show's plugin states (a session save) saves a sandboxed plugin's too: its unit points at the state.
    func testPluginStateCaptureSavesSandboxedPlugins() throws {
        try requireFil4()
        var preset = try SandboxedPresetTests.vocalPreset(isolation: "unit")
        let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: 48_000, maxFrames: 256, hosting: .offline(block: 256))
        let folder = try temporaryFolder()
        let warnings = PluginStateCapture.saveStates(of: graph, into: &preset, directory: folder)
        XCTAssertEqual(warnings, [])
        let vox = try XCTUnwrap(preset.strips.first { $0.name == "vox" })
        let plugins = vox.units.compactMap(\.lv2)
        XCTAssertEqual(plugins.count, 3)
        for plugin in plugins {
            let path = try XCTUnwrap(plugin.stateFile, "\(plugin.uri) has its state saved")
            XCTAssertTrue(path.hasPrefix(folder) && FileManager.default.fileExists(atPath: path), path)
        }
    }
}
