// The planar block buffers an offline render wires into the engine, interleaved into the file writers. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine

/// One block buffer per input and output port channel of a graph.
final class RenderBuffers {
    let inputs: [UnsafeMutablePointer<Float>]
    let outputs: [UnsafeMutablePointer<Float>]
    private let block: Int

    init(layout: GraphLayout, block: Int) {
        self.block = block
        func buffers(_ count: Int) -> [UnsafeMutablePointer<Float>] {
            (0..<count).map { _ in
                let buffer = UnsafeMutablePointer<Float>.allocate(capacity: block)
                buffer.initialize(repeating: 0, count: block)
                return buffer
            }
        }
        inputs = buffers(layout.inputPorts.count)
        outputs = buffers(layout.outputPorts.count)
    }

    func deallocate() {
        inputs.forEach { $0.deallocate() }
        outputs.forEach { $0.deallocate() }
    }

    /// Points the engine's IO table at these buffers.
    func wire(_ io: UnsafeMutablePointer<RealtimeIO>) {
        io.pointee.inputCount = inputs.count
        for (channel, buffer) in inputs.enumerated() { io.pointee.inputs[channel] = UnsafePointer(buffer) }
        io.pointee.outputCount = outputs.count
        for (channel, buffer) in outputs.enumerated() { io.pointee.outputs[channel] = buffer }
    }

    /// Writes `frames` of output `channels` (one bus) to `writer`, interleaved straight into its buffer.
    func write(channels: Range<Int>, frames: Range<Int>, to writer: AudioFileWriter) throws(RenderError) {
        guard !frames.isEmpty else { return }
        let count = channels.count, outputs = outputs
        do {
            try writer.write(frames: frames.count) { base in
                if count == 2 {   // the common stereo bus, in one loop the compiler vectorises
                    let left = outputs[channels.lowerBound] + frames.lowerBound, right = outputs[channels.lowerBound + 1] + frames.lowerBound
                    for frame in 0..<frames.count {
                        base[2 &* frame] = left[frame]
                        base[2 &* frame &+ 1] = right[frame]
                    }
                    return
                }
                for (index, channel) in channels.enumerated() {
                    let source = outputs[channel] + frames.lowerBound
                    var target = base + index
                    for frame in 0..<frames.count {
                        target.pointee = source[frame]
                        target += count
                    }
                }
            }
        } catch {
            throw .writeFailed(error)
        }
    }
}
