// Renders a graph offline on the calling thread and measures its CPU time. Non-realtime driver of the realtime cycle.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback
import Foundation
package import FoldbackEngine
import FoldbackRender

/// Times `frames` frames of noise through `graph`, in blocks of `block` frames.
package struct BenchRunner {
    package let graph: EngineGraph
    package let block: Int
    package let frames: Int

    /// A run of `frames` frames through `graph` in blocks of `block`.
    package init(graph: EngineGraph, block: Int, frames: Int) {
        (self.graph, self.block, self.frames) = (graph, block, frames)
    }

    /// What one case measured.
    package struct Measurement {
        /// Thread CPU time per input sample, nanoseconds.
        package var nanosecondsPerSample: Double
        /// Audio-path mallocs + frees per cycle; nil unless the allocation counter is preloaded.
        package var allocationsPerCycle: Double?
    }

    /// Measures after one second of warm-up. Cycles run through `fb_realtime_cycle` with FTZ/DAZ on,
    /// as on the JACK thread, so the preloaded allocation counter sees them as the audio path.
    /// Throws when the engine refuses the graph (nothing is measured then).
    package func measure() throws(EngineError) -> Measurement {
        fb_realtime_enable_ftz_daz()
        let engine = Engine(configuration: EngineConfiguration(
            maxFrames: block, inputCapacity: graph.layout.inputPorts.count, outputCapacity: graph.layout.outputPorts.count))
        try engine.install(graph, crossfade: .none)
        let input = UnsafeMutablePointer<Float>.allocate(capacity: block)
        var seed: UInt32 = 0x9E37_79B9
        for frame in 0..<block {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            input[frame] = (Float(seed >> 8) / Float(1 << 24) - 0.5) * 0.5
        }
        let outputCount = graph.layout.outputPorts.count
        let outputs = (0..<outputCount).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        defer {
            input.deallocate()
            outputs.forEach { $0.deallocate() }
        }
        let io = engine.io
        io.pointee.inputCount = graph.layout.inputPorts.count
        for channel in 0..<io.pointee.inputCount { io.pointee.inputs[channel] = UnsafePointer(input) }
        io.pointee.outputCount = outputCount
        for channel in 0..<outputCount { io.pointee.outputs[channel] = outputs[channel] }
        let warmUp = max(1, Int(graph.sampleRate) / block)
        let context = engine.cycleContext
        for _ in 0..<warmUp { fb_realtime_cycle(Engine.cycleFunction, context, UInt32(block)) }
        let blocks = max(1, frames / block)
        let before = Self.audioAllocationCalls()
        let start = RenderClock.threadCPUNanoseconds()
        for _ in 0..<blocks { fb_realtime_cycle(Engine.cycleFunction, context, UInt32(block)) }
        let elapsed = RenderClock.threadCPUNanoseconds() - start
        let after = Self.audioAllocationCalls()
        return Measurement(
            nanosecondsPerSample: Double(elapsed) / Double(blocks * block),
            allocationsPerCycle: before.flatMap { before in after.map { Double($0 - before) / Double(blocks) } })
    }

    /// Audio-path mallocs + frees counted so far, or nil when the allocation counter is not preloaded.
    package static func audioAllocationCalls() -> Int64? {
        var allocations: Int64 = 0, frees: Int64 = 0
        guard fb_audio_allocation_counts(&allocations, &frees) != 0 else { return nil }
        return allocations + frees
    }
}
