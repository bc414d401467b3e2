// Test helper: runs a built-in unit through its render slot's C function pointers, in blocks, as the engine does.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine

/// A prepared unit driven directly through ``UnitRenderSlot/functions``.
struct UnitSlotDriver {
    let unit: any EngineUnit
    let slot: UnitRenderSlot

    /// Prepares `unit` for `channels` channels at `sampleRate`.
    init(_ unit: any EngineUnit, channels: Int, sampleRate: Double, maxFrames: Int = 1024) throws {
        self.unit = unit
        slot = try unit.prepare(channels: channels, sampleRate: sampleRate, maxFrames: maxFrames)
    }

    /// Sets parameter `index` to `value`, as the engine's parameter path does.
    func set(_ index: Int, _ value: Float) { slot.functions.setParameter(slot.state, Int32(index), value) }

    /// Runs `channels` (equal lengths, as many as the slot reads) in blocks of `blockSize`;
    /// `beforeBlock(startFrame)` may change parameters first.
    func render(_ channels: [[Float]], blockSize: Int, beforeBlock: (Int) -> Void = { _ in }) -> [[Float]] {
        let frames = channels[0].count
        let inputs = channels.map { samples -> UnsafeMutablePointer<Float> in
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: max(frames, 1))
            buffer.initialize(from: samples, count: frames)
            return buffer
        }
        let outputs = (0..<slot.outputChannels).map { _ in
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: max(frames, 1))
            buffer.initialize(repeating: .nan, count: max(frames, 1))
            return buffer
        }
        defer {
            inputs.forEach { $0.deallocate() }
            outputs.forEach { $0.deallocate() }
        }
        var offset = 0
        while offset < frames {
            let count = min(blockSize, frames - offset)
            beforeBlock(offset)
            let ins = inputs.map { UnsafePointer($0 + offset) }
            let outs = outputs.map { $0 + offset }
            ins.withUnsafeBufferPointer { inputPointers in
                outs.withUnsafeBufferPointer { outputPointers in
                    slot.functions.process(slot.state, inputPointers.baseAddress!, outputPointers.baseAddress!, Int32(count))
                }
            }
            offset += count
        }
        return outputs.map { Array(UnsafeBufferPointer(start: $0, count: frames)) }
    }
}
