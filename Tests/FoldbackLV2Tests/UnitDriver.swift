// Test helper: drives one prepared unit's render slot over whole signals at a chosen block size. Non-realtime (test thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import Foundation

/// Feeds a unit's slot whole channel signals in blocks and collects its outputs.
struct UnitDriver {
    let slot: UnitRenderSlot

    /// Prepares `unit` for `channels` channels.
    init(_ unit: any EngineUnit, channels: Int, sampleRate: Double = 48000, maxFrames: Int = 1024) throws {
        slot = try unit.prepare(channels: channels, sampleRate: sampleRate, maxFrames: maxFrames)
    }

    /// Runs `input` (one array per slot input channel) through in blocks of `block` frames.
    func run(_ input: [[Float]], block: Int) -> [[Float]] {
        let frames = input[0].count
        var output = [[Float]](repeating: [Float](repeating: 0, count: frames), count: slot.outputChannels)
        let inBuffers = (0..<slot.inputChannels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        let outBuffers = (0..<slot.outputChannels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        defer { (inBuffers + outBuffers).forEach { $0.deallocate() } }
        let inPointers = inBuffers.map { UnsafePointer($0) }
        var start = 0
        while start < frames {
            let count = min(block, frames - start)
            for channel in 0..<slot.inputChannels {
                let source = input[min(channel, input.count - 1)]
                for frame in 0..<count { inBuffers[channel][frame] = source[start + frame] }
            }
            inPointers.withUnsafeBufferPointer { ins in
                outBuffers.withUnsafeBufferPointer { outs in
                    slot.functions.process(slot.state, ins.baseAddress!, outs.baseAddress!, Int32(count))
                }
            }
            for channel in 0..<slot.outputChannels {
                for frame in 0..<count { output[channel][start + frame] = outBuffers[channel][frame] }
            }
            start += count
        }
        return output
    }

    /// A sine of `frequency` Hz at `amplitude`, `frames` long.
    static func sine(_ frequency: Double, amplitude: Float = 0.5, frames: Int, sampleRate: Double = 48000) -> [Float] {
        (0..<frames).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / sampleRate)) }
    }

    /// RMS of `signal[range]`.
    static func rms(_ signal: [Float], _ range: Range<Int>) -> Float {
        let sum = signal[range].reduce(Float(0)) { $0 + $1 * $1 }
        return (sum / Float(range.count)).squareRoot()
    }
}
