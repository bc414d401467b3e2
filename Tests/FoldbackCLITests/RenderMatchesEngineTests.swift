// Tests that `foldback render`'s file path adds nothing to the audio: its output equals the engine run block by block. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback
import FoldbackEngine
import FoldbackGraph
import FoldbackPresets
import FoldbackRender
import Foundation
import XCTest

final class RenderMatchesEngineTests: XCTestCase {
    private var files: RenderFixtures!

    override func setUpWithError() throws { files = try RenderFixtures() }
    override func tearDownWithError() throws { files.remove() }

    /// The reference vocal chain over speech-like bursts with gaps of exact zeros, rendered to a 32-bit float file,
    /// equals (bit for bit, every sample of both channels) the same preset's graph run by an engine one block at a
    /// time with the input in its buffer and the output shifted by the latency, at 48 kHz in the default
    /// 2048-frame blocks and at 44.1 kHz in 253- and 1-frame blocks; input plus 0.3 s of tail.
    func testRenderedFileEqualsTheEngineBlockByBlock() throws {
        for (rate, block) in [(48_000, 2048), (44_100, 253), (48_000, 1)] {
            let input = Self.bursts(frames: rate * 2 + 777, rate: rate)
            let take = try files.write("take\(rate).wav", [input], rate: rate)
            let preset = try PresetLoader.parse(
                RenderFixtures.chain(units: RenderFixtures.vocalUnits, busChannels: 2, limiter: true), path: "vocal.toml")
            let output = URL(fileURLWithPath: files.path("out\(rate)-\(block).wav"))
            let tailFrames = Int((0.3 * Double(rate)).rounded())
            let outcome = Outcome()
            // On a thread of its own: the render and the reference both set flush-to-zero there, not on the test's thread.
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                defer { done.signal() }
                do {
                    let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: Double(rate), maxFrames: block, hosting: .offline(block: block))
                    let request = RenderRequest(inputs: [("vox", URL(fileURLWithPath: take))], outputs: [("main", output)], format: .float, tail: .seconds(0.3))
                    outcome.outputFrames = try OfflineRenderer(graph: graph, request: request).run().outputFrames
                    outcome.rendered = try AudioFileReader(url: output).readAll()
                    outcome.expected = try Self.engineBlockByBlock(
                        graph: PresetGraphBuilder.graph(for: preset, sampleRate: Double(rate), maxFrames: block, hosting: .offline(block: block)),
                        input: input, block: block, frames: input.count + tailFrames)
                } catch {
                    outcome.failure = error
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
            done.wait()
            if let failure = outcome.failure { throw failure }
            let (rendered, expected) = (outcome.rendered, outcome.expected)
            XCTAssertEqual(outcome.outputFrames, input.count + tailFrames)
            XCTAssertEqual(rendered.count, 2)
            XCTAssertEqual(rendered.map(\.count), expected.map(\.count), "\(rate) Hz, block \(block)")
            for channel in 0..<min(rendered.count, expected.count) {
                let differing = zip(rendered[channel], expected[channel]).filter { $0.bitPattern != $1.bitPattern }.count
                XCTAssertEqual(differing, 0, "\(rate) Hz, block \(block), channel \(channel): samples differing from the engine's")
            }
            // The comparison is not of silence: the chain's output is loud, and the reverb rings into the tail.
            let peak = expected[0].map(abs).max() ?? 0
            let tailPeak = expected[1].suffix(tailFrames).map(abs).max() ?? 0
            XCTAssertGreaterThan(peak, 0.05, "\(rate) Hz")
            XCTAssertGreaterThan(tailPeak, 1e-4, "\(rate) Hz: reverb in the tail")
        }
    }

    /// What the rendering thread hands back (read after it signalled).
    private final class Outcome: @unchecked Sendable {
        var rendered: [[Float]] = []
        var expected: [[Float]] = []
        var outputFrames = 0
        var failure: (any Error)?
    }

    /// `graph` run by an engine in `block`-frame cycles on `input` (zeros after its end), its two outputs from
    /// rendered frame `latency` on, `frames` long.
    private static func engineBlockByBlock(graph: EngineGraph, input: [Float], block: Int, frames: Int) throws -> [[Float]] {
        fb_realtime_enable_ftz_daz()
        let engine = Engine(configuration: EngineConfiguration(maxFrames: block, inputCapacity: 1, outputCapacity: 2))
        try engine.install(graph, crossfade: .none)
        let latency = graph.layout.latencyFrames
        let inputBuffer = UnsafeMutablePointer<Float>.allocate(capacity: block)
        let outputs = (0..<2).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        defer {
            inputBuffer.deallocate()
            outputs.forEach { $0.deallocate() }
        }
        engine.io.pointee.inputCount = 1
        engine.io.pointee.inputs[0] = UnsafePointer(inputBuffer)
        engine.io.pointee.outputCount = 2
        for channel in 0..<2 { engine.io.pointee.outputs[channel] = outputs[channel] }
        var result: [[Float]] = [[], []]
        var position = 0
        while result[0].count < latency + frames {
            for frame in 0..<block { inputBuffer[frame] = position + frame < input.count ? input[position + frame] : 0 }
            engine.renderCycle(frames: block)
            for channel in 0..<2 { result[channel].append(contentsOf: UnsafeBufferPointer(start: outputs[channel], count: block)) }
            position += block
        }
        return result.map { Array($0[latency..<(latency + frames)]) }
    }

    /// Noise syllables of 80 … 300 ms with a rising and falling envelope, 40 … 400 ms of exact zeros between them.
    private static func bursts(frames: Int, rate: Int) -> [Float] {
        let noise = RenderFixtures.noise(frames, seed: 0xBEEF)
        var signal = [Float](repeating: 0, count: frames)
        var state: UInt32 = 7
        func next(_ range: ClosedRange<Double>) -> Int {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Int((range.lowerBound + (range.upperBound - range.lowerBound) * Double(state >> 8) / Double(1 << 24)) * Double(rate))
        }
        var start = next(0.01...0.05)
        while start < frames {
            let length = next(0.08...0.3)
            for frame in start..<min(frames, start + length) {
                signal[frame] = 1.6 * noise[frame] * Float(sin(Double.pi * Double(frame - start) / Double(length)))
            }
            start += length + next(0.04...0.4)
        }
        return signal
    }
}
