// A strip's sandbox (`isolation = "strip"`) plays on through a preset switch: the same process, the plate's tail, bit-identical to in-process.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackGraph
import FoldbackLV2
import FoldbackPresets
import FoldbackSandbox
import Foundation
import XCTest

final class SandboxGroupContinuationTests: XCTestCase {
    static let block = 256
    static let cycles = 200
    static let switchCycle = 40

    /// `presets/lv2-vocal.toml` at `isolation`, with the plate's `wet` at `wet`.
    private func preset(isolation: String, wet: Float) throws -> Preset {
        let base = try SandboxedPresetTests.vocalPreset(isolation: isolation)
        var preset = base
        let verb = try XCTUnwrap(preset.strips[0].units.firstIndex { $0.id == "verb" })
        preset.strips[0].units[verb].parameters["wet"] = wet
        return preset
    }

    /// A 50 ms noise burst into `vox`, then silence, rendered offline; at ``switchCycle`` the engine switches (30 ms
    /// equal-gain fade) to `next`, continuing the running graph. Returns the main bus's left channel and both graphs.
    private func render(_ first: Preset, switchingTo next: Preset) throws -> (output: [Float], old: EngineGraph, new: EngineGraph) {
        let hosting = PluginHosting.offline(block: Self.block)
        let old = try PresetGraphBuilder.graph(for: first, sampleRate: 48_000, maxFrames: Self.block, hosting: hosting)
        let engine = Engine(configuration: EngineConfiguration(maxFrames: Self.block))
        try engine.install(old, crossfade: .none)
        let input = UnsafeMutablePointer<Float>.allocate(capacity: Self.block)
        let outputs = (0..<2).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: Self.block) }
        defer { input.deallocate(); outputs.forEach { $0.deallocate() } }
        engine.io.pointee.inputCount = 1
        engine.io.pointee.outputCount = 2
        engine.io.pointee.inputs[0] = UnsafePointer(input)
        for channel in 0..<2 { engine.io.pointee.outputs[channel] = outputs[channel] }
        var seed: UInt64 = 5
        var result: [Float] = []
        var new: EngineGraph?
        for cycle in 0..<Self.cycles {
            if cycle == Self.switchCycle {
                let graph = try PresetGraphBuilder.graph(for: next, sampleRate: 48_000, maxFrames: Self.block, hosting: hosting, continuing: old)
                try engine.install(graph, crossfade: Crossfade(duration: 0.030, law: .equalGain))
                new = graph
            }
            for frame in 0..<Self.block {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                input[frame] = cycle * Self.block + frame < 2400 ? Float(Int32(truncatingIfNeeded: seed >> 33)) / Float(Int32.max) * 0.3 : 0
            }
            engine.renderCycle(frames: Self.block)
            result += UnsafeBufferPointer(start: outputs[0], count: Self.block)
            engine.collectGarbage()
        }
        return (result, old, try XCTUnwrap(new))
    }

    private func sandboxed(_ graph: EngineGraph) -> [SandboxedUnit] {
        graph.description.strips[0].units.compactMap { $0 as? SandboxedUnit }
    }

    /// The switch changes only the plate's `wet`: the new graph's three plugins continue the old graph's sandbox (the same
    /// process, never restarted), and the output through the switch (the plate's tail 0.15 s after the burst, then the
    /// new wet) equals, sample for sample, the same switch with the plugins in Foldback's process, whose instances carry
    /// on (PluginContinuationTests). A switch that reorders nothing but changes a plugin's LV2 state starts afresh.
    func testAStripSandboxPlaysOnThroughAPresetSwitch() throws {
        let inProcess = try render(try preset(isolation: "none", wet: 0.2), switchingTo: try preset(isolation: "none", wet: 0.5))
        let inSandbox = try render(try preset(isolation: "strip", wet: 0.2), switchingTo: try preset(isolation: "strip", wet: 0.5))
        let oldUnits = sandboxed(inSandbox.old), newUnits = sandboxed(inSandbox.new)
        XCTAssertEqual(oldUnits.count, 3)
        XCTAssertEqual(newUnits.count, 3)
        let process = try XCTUnwrap(oldUnits.first?.process)
        for unit in newUnits { XCTAssertTrue(unit.process === process, "\(unit.typeName): the old graph's sandbox plays on") }
        XCTAssertEqual(process.restarts, 0)
        let tail = inProcess.output[(Self.switchCycle * Self.block)...].reduce(0) { $0 + $1 * $1 }
        XCTAssertGreaterThan(tail, 1e-3, "the plate's tail goes on through the switch")
        if let frame = inProcess.output.indices.first(where: { inProcess.output[$0] != inSandbox.output[$0] }) {
            XCTFail("differs from the in-process switch at frame \(frame): \(inProcess.output[frame]) vs \(inSandbox.output[frame])")
        }

        var other = try preset(isolation: "strip", wet: 0.5)
        other.strips[0].units.swapAt(1, 2)   // darc and plate in the other order: another chain, another sandbox
        let reordered = try PresetGraphBuilder.graph(
            for: other, sampleRate: 48_000, maxFrames: Self.block, hosting: .offline(block: Self.block), continuing: inSandbox.new)
        XCTAssertFalse(sandboxed(reordered).contains { $0.process === process }, "a different chain starts its own sandbox")
    }
}
