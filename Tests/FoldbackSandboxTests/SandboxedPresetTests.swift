// A preset whose LV2 units run in sandboxes renders bit-identical to the same preset with `isolation = "none"`.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackGraph
import FoldbackPresets
import FoldbackSandbox
import Foundation
import XCTest

final class SandboxedPresetTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `presets/lv2-vocal.toml` with `[preset] isolation = …`.
    static func vocalPreset(isolation: String) throws -> Preset {
        let path = repository.appendingPathComponent("presets/lv2-vocal.toml").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: "[preset]\n", with: "[preset]\nisolation = \"\(isolation)\"\n")
        do {
            return try PresetLoader.parse(text, path: path)
        } catch {
            throw XCTSkip("presets/lv2-vocal.toml does not load here (x42-plugins, swh-lv2): \(error)")
        }
    }

    /// The preset's main bus (2 channels) for `seconds` of noise into strip `vox`, rendered offline in blocks of `block`.
    private func render(_ preset: Preset, block: Int, cycles: Int) throws -> [[Float]] {
        let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: 48_000, maxFrames: block, hosting: .offline(block: block))
        let engine = Engine(configuration: EngineConfiguration(maxFrames: block))
        try engine.install(graph, crossfade: .none)
        let input = UnsafeMutablePointer<Float>.allocate(capacity: block)
        let outputs = (0..<2).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        defer { input.deallocate(); outputs.forEach { $0.deallocate() } }
        engine.io.pointee.inputCount = 1
        engine.io.pointee.outputCount = 2
        engine.io.pointee.inputs[0] = UnsafePointer(input)
        for channel in 0..<2 { engine.io.pointee.outputs[channel] = outputs[channel] }
        var seed: UInt64 = 11
        var result: [[Float]] = [[], []]
        for cycle in 0..<cycles {
            for frame in 0..<block {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                // Noise bursts with gaps, so the compressor and the plate's tail both work.
                input[frame] = (cycle / 20) % 2 == 0 ? Float(Int32(truncatingIfNeeded: seed >> 33)) / Float(Int32.max) * 0.3 : 0
            }
            engine.renderCycle(frames: block)
            for channel in 0..<2 { result[channel] += UnsafeBufferPointer(start: outputs[channel], count: block) }
        }
        return result
    }

    func testTheLV2VocalPresetRendersBitIdenticalInSandboxes() throws {
        let none = try Self.vocalPreset(isolation: "none")
        let sandboxed = try Self.vocalPreset(isolation: "strip")
        XCTAssertEqual(sandboxed.strips[0].units.compactMap { $0.lv2?.isolation }, [.strip, .strip, .strip])
        for block in [256, 64] {
            let expected = try render(none, block: block, cycles: 48_000 / block)   // 1 s
            let actual = try render(sandboxed, block: block, cycles: 48_000 / block)
            let energy = expected[0].reduce(0) { $0 + $1 * $1 }
            XCTAssertGreaterThan(energy, 1, "the chain makes sound (block \(block))")
            assertIdentical(expected, actual, "block \(block), isolation strip")
        }
    }

    /// `isolation = "strip"`: the vocal's three plugins share one sandbox process (one round trip a cycle), and render
    /// bit-identical to `none` and to `unit` at awkward blocks (1, 7, 253, 1024), also with the plate (no `lv2:enabled`
    /// port: the sandbox does its bypass) and the EQ bypassed by the preset.
    func testAStripsPluginsShareOneSandboxBitIdenticalAtAwkwardBlocks() throws {
        let strip = try Self.vocalPreset(isolation: "strip")
        let graph = try PresetGraphBuilder.graph(for: strip, sampleRate: 48_000, maxFrames: 256, hosting: .offline(block: 256))
        let plugins = graph.description.strips[0].units.compactMap { $0 as? SandboxedUnit }
        XCTAssertEqual(plugins.count, 3)
        XCTAssertEqual(Set(plugins.compactMap { $0.process.map(ObjectIdentifier.init) }).count, 1, "one sandbox for the strip's three plugins")
        XCTAssertEqual(Set(try Self.vocalPreset(isolation: "unit").strips[0].units.compactMap(\.lv2?.isolation)), [.unit])
        var bypassedNone = try Self.vocalPreset(isolation: "none"), bypassedStrip = strip
        for index in [1, 3] {
            bypassedNone.strips[0].units[index].isBypassed = true
            bypassedStrip.strips[0].units[index].isBypassed = true
        }
        for block in [1, 7, 253, 1024] {
            let cycles = (block == 1 ? 4_800 : 24_000) / block   // 0.1 s at block 1, else 0.5 s
            let expected = try render(try Self.vocalPreset(isolation: "none"), block: block, cycles: cycles)
            assertIdentical(expected, try render(strip, block: block, cycles: cycles), "block \(block), isolation strip")
            assertIdentical(expected, try render(try Self.vocalPreset(isolation: "unit"), block: block, cycles: cycles), "block \(block), isolation unit")
            let bypassed = try render(bypassedNone, block: block, cycles: cycles)
            XCTAssertFalse(bypassed == expected, "the bypass changes the sound (block \(block))")
            assertIdentical(bypassed, try render(bypassedStrip, block: block, cycles: cycles), "block \(block), eq and verb bypassed, isolation strip")
        }
    }

    /// `foldback run` looks at a graph of the preset before it joins JACK (`.layoutOnly`): its plugins are placed in their
    /// sandbox as live, laid out as the show's graph lays them out, and no process is started for it (the show's graph
    /// starts its own once JACK's rate and period are known).
    func testALayoutOnlyGraphPlacesPluginsInASandboxItNeverStarts() throws {
        let preset = try Self.vocalPreset(isolation: "strip")
        let layout = try PresetGraphBuilder.graph(for: preset, sampleRate: 48_000, maxFrames: 256, hosting: .layoutOnly)
        let plugins = layout.description.strips[0].units.compactMap { $0 as? SandboxedUnit }
        XCTAssertEqual(plugins.count, 3, "placed in a sandbox as live")
        let processes = Set(plugins.compactMap { $0.process.map(ObjectIdentifier.init) })
        XCTAssertEqual(processes.count, 1, "one strip sandbox laid out")
        let process = try XCTUnwrap(plugins[0].process)
        XCTAssertNil(process.processIdentifier, "no process started")
        XCTAssertFalse(SandboxSupervisor.shared.processes.contains { $0 === process }, "nothing to watch")
        let inProcess = try PresetGraphBuilder.graph(for: preset, sampleRate: 48_000, maxFrames: 256, hosting: .offline)
        XCTAssertEqual(layout.tapChannels(at: .strip("vox")), 2, "the plate makes the mono strip stereo")
        XCTAssertEqual(layout.tapChannels(at: .strip("vox")), inProcess.tapChannels(at: .strip("vox")))
        XCTAssertEqual(layout.layout.outputPorts.map(\.name), inProcess.layout.outputPorts.map(\.name))
    }

    private func assertIdentical(_ expected: [[Float]], _ actual: [[Float]], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(expected == actual, "\(what): output differs from isolation none; first difference at frame "
            + "\(zip(expected[0], actual[0]).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1)", file: file, line: line)
    }

    func testIsolationAndOnFaultAreCheckedWithTheirLocation() throws {
        let path = Self.repository.appendingPathComponent("presets/lv2-vocal.toml").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: "  id = \"comp\"\n", with: "  id = \"comp\"\n  isolation = \"process\"\n  on_fault = \"mute\"\n")
        do {
            _ = try PresetLoader.parse(text, path: path)
            XCTFail("isolation = \"process\" was accepted")
        } catch {
            let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("isolation = \"process\"") }! + 1
            let message = error.diagnostics.map(\.description).joined(separator: "\n")
            XCTAssertTrue(message.contains("lv2-vocal.toml:\(line):"), message)
            XCTAssertTrue(message.contains("isolation must be one of \"none\", \"strip\", \"unit\", not \"process\""), message)
        }
        let valid = text.replacingOccurrences(of: "isolation = \"process\"", with: "isolation = \"unit\"")
        do {
            let preset = try PresetLoader.parse(valid, path: path)
            let comp = try XCTUnwrap(preset.strips[0].units.first { $0.id == "comp" }?.lv2)
            XCTAssertEqual(comp.isolation, .unit)
            XCTAssertEqual(comp.onFault, .mute)
            XCTAssertNil(preset.strips[0].units.first { $0.id == "eq" }?.lv2?.isolation, "unset: a sandbox live, Foldback's process offline")
            XCTAssertEqual(PluginIsolation.resolved(nil, offline: false), .strip)
            XCTAssertEqual(PluginIsolation.resolved(nil, offline: true), .none)
        } catch {
            throw XCTSkip("presets/lv2-vocal.toml does not load here (x42-plugins, swh-lv2): \(error)")
        }
    }
}
