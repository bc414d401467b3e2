// The planar block buffers an offline render wires into the engine, and their interleaved copies for writing. Non-realtime.
import FoldbackEngine

/// One block buffer per input and output port channel of a graph.
final class RenderBuffers {
    let inputs: [UnsafeMutablePointer<Float>]
    let outputs: [UnsafeMutablePointer<Float>]
    private let block: Int
    private var interleaved: [Float]

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
        interleaved = [Float](repeating: 0, count: block * 2)
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

    /// Writes `frames` of output `channels` (one bus) to `writer`, interleaved.
    func write(channels: Range<Int>, frames: Range<Int>, to writer: AudioFileWriter) throws(RenderError) {
        guard !frames.isEmpty else { return }
        let count = channels.count
        if interleaved.count < block * count { interleaved = [Float](repeating: 0, count: block * count) }
        interleaved.withUnsafeMutableBufferPointer { destination in
            guard let base = destination.baseAddress else { return }
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
        do {
            try interleaved.withUnsafeBufferPointer { buffer throws(AudioFileError) in
                try writer.write(interleaved: UnsafeBufferPointer(rebasing: buffer[0..<(frames.count * count)]))
            }
        } catch {
            throw .writeFailed(error)
        }
    }
}
