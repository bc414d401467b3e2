// Test harness: drives an Engine offline, cycle by cycle, through caller-owned input and output buffers.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldbackTeam
import FoldbackDSP
import FoldbackEngine
import XCTest

/// An ``Engine`` plus the buffers a backend would hand it, rendering whole signals in cycles of a chosen size.
///
/// Output buffers are filled with NaN before every cycle, so a frame the engine forgets to write shows up
/// as NaN in the result (see ``assertFullyWritten``).
final class OfflineEngine {
    let engine: Engine
    let inputChannels: Int
    let outputChannels: Int

    /// An engine rendering at most `maxFrames` at once, with `inputs` input and `outputs` output channels
    /// wired, on `renderThreads` threads (the caller's and workers on plain threads; FTZ/DAZ set on the
    /// caller's, as on an audio thread). `binauralWorker`: moved binaural sources' filters are built on a worker, as live.
    init(maxFrames: Int, inputs: Int, outputs: Int, renderThreads: Int = 1, binauralWorker: Bool = false) {
        var configuration = EngineConfiguration(maxFrames: maxFrames, renderThreads: renderThreads)
        configuration.buildsBinauralMovesOnWorker = binauralWorker
        engine = Engine(configuration: configuration)
        inputChannels = inputs
        outputChannels = outputs
        if renderThreads > 1 {
            fb_team_enable_ftz_daz()
            engine.startLocalWorkers()
        }
    }

    /// Builds `description` and installs it; returns the graph.
    @discardableResult
    func install(
        _ description: GraphDescription, sampleRate: Double, graphMaxFrames: Int = 1024, crossfade: Crossfade = .quick
    ) throws -> EngineGraph {
        let graph = try EngineGraph(description, sampleRate: sampleRate, maxFrames: graphMaxFrames)
        try engine.install(graph, crossfade: crossfade)
        return graph
    }

    /// Renders `input` (one array per input channel, equal lengths) in cycles of `blockSize` frames.
    ///
    /// `beforeCycle(cycleIndex, startFrame)` runs before each cycle: the place to set parameters or install graphs.
    func render(
        _ input: [[Float]], blockSize: Int, beforeCycle: (_ cycle: Int, _ startFrame: Int) throws -> Void
    ) rethrows -> [[Float]] {
        precondition(input.count == inputChannels, "one input array per wired input channel")
        let frames = input.first?.count ?? 0
        let inputBuffers = input.map { samples -> UnsafeMutablePointer<Float> in
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: max(frames, 1))
            buffer.initialize(from: samples, count: frames)
            return buffer
        }
        let outputBuffers = (0..<outputChannels).map { _ -> UnsafeMutablePointer<Float> in
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: max(frames, 1))
            buffer.initialize(repeating: .nan, count: max(frames, 1))
            return buffer
        }
        defer {
            inputBuffers.forEach { $0.deallocate() }
            outputBuffers.forEach { $0.deallocate() }
        }
        let io = engine.io
        var offset = 0
        var cycle = 0
        while offset < frames {
            let count = min(blockSize, frames - offset)
            try beforeCycle(cycle, offset)
            for channel in 0..<inputChannels { io.pointee.inputs[channel] = UnsafePointer(inputBuffers[channel] + offset) }
            for channel in 0..<outputChannels { io.pointee.outputs[channel] = outputBuffers[channel] + offset }
            io.pointee.inputCount = inputChannels
            io.pointee.outputCount = outputChannels
            engine.renderCycle(frames: count)
            offset += count
            cycle += 1
        }
        return outputBuffers.map { Array(UnsafeBufferPointer(start: $0, count: frames)) }
    }

    /// Renders `input` in cycles of `blockSize` frames with no changes between cycles.
    func render(_ input: [[Float]], blockSize: Int) -> [[Float]] {
        render(input, blockSize: blockSize) { _, _ in }
    }

    /// Renders `frames` frames of silence (to let ramps and fades finish).
    @discardableResult
    func renderSilence(frames: Int, blockSize: Int) -> [[Float]] {
        render(Array(repeating: [Float](repeating: 0, count: frames), count: inputChannels), blockSize: blockSize)
    }
}

/// Fails when any output frame is NaN (the engine left it unwritten).
func assertFullyWritten(_ output: [[Float]], _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
    for (channel, samples) in output.enumerated() {
        if let frame = samples.firstIndex(where: \.isNaN) {
            XCTFail("output \(channel) frame \(frame) was not written. \(message)", file: file, line: line)
        }
    }
}

/// Fails unless `actual` and `expected` agree sample by sample within `tolerance`; reports the worst frame.
func assertSignalsEqual(
    _ actual: [Float], _ expected: [Float], tolerance: Float, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    guard actual.count == expected.count else {
        XCTFail("length \(actual.count) ≠ \(expected.count). \(message)", file: file, line: line)
        return
    }
    var worst: Float = 0
    var worstFrame = 0
    for frame in actual.indices {
        let error = abs(actual[frame] - expected[frame])
        if !(error <= worst) { worst = error; worstFrame = frame }
        if error.isNaN { break }
    }
    if !(worst <= tolerance) {
        XCTFail("""
            worst error \(worst) at frame \(worstFrame) (got \(actual[worstFrame]), expected \(expected[worstFrame])) \
            exceeds \(tolerance). \(message)
            """, file: file, line: line)
    }
}
