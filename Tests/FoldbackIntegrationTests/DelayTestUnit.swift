// A test-only unit that delays every channel by a fixed number of frames and reports it as latency. Realtime render.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine

/// Delays by ``frames`` frames through a ring per channel, reporting the delay as its latency, so
/// tests can check that JACKHost reports layout latency and that the output lags by exactly that.
final class DelayTestUnit: EngineUnit, @unchecked Sendable {
    let typeName = "test-delay"
    let parameters: [ParameterDescriptor] = []
    let frames: Int
    private var state: UnsafeMutablePointer<State>?

    private struct State {
        var rings: UnsafeMutablePointer<Float>
        var channels: Int
        var length: Int
        var position: Int
    }

    init(frames: Int) { self.frames = frames }

    deinit {
        guard let state else { return }
        state.pointee.rings.deallocate()
        state.deallocate()
    }

    func prepare(channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitRenderSlot {
        let rings = UnsafeMutablePointer<Float>.allocate(capacity: channels * frames)
        rings.initialize(repeating: 0, count: channels * frames)
        let prepared = UnsafeMutablePointer<State>.allocate(capacity: 1)
        prepared.initialize(to: State(rings: rings, channels: channels, length: frames, position: 0))
        state = prepared
        return UnitRenderSlot(
            functions: Self.functions, state: UnsafeMutableRawPointer(prepared), inputChannels: channels,
            outputChannels: channels, latencyFrames: frames)
    }

    private static let functions = UnitRenderFunctions(
        process: { raw, inputs, outputs, frames in
            let state = raw.assumingMemoryBound(to: State.self)
            let length = state.pointee.length
            var position = state.pointee.position
            for frame in 0..<Int(frames) {
                for channel in 0..<state.pointee.channels {
                    let slot = state.pointee.rings + channel * length + position
                    let delayed = slot.pointee
                    slot.pointee = inputs[channel][frame]
                    outputs[channel][frame] = delayed
                }
                position = (position + 1) % length
            }
            state.pointee.position = position
        },
        setParameter: { _, _, _ in },
        reset: { raw in
            let state = raw.assumingMemoryBound(to: State.self)
            state.pointee.rings.update(repeating: 0, count: state.pointee.channels * state.pointee.length)
            state.pointee.position = 0
        })
}
