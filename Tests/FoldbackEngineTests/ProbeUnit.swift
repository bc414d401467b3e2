// A test unit on the EngineUnit interface that records how the engine calls it (frames, aliasing, parameters).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine

/// Multiplies its input by `scale` (parameter 0, applied at once, no smoothing). When it has more outputs than
/// inputs, extra channels carry the last input channel negated, so widening is visible. Records its calls.
final class ProbeUnit: EngineUnit, @unchecked Sendable {
    let typeName = "probe"
    let parameters = [ParameterDescriptor(key: "scale", range: -4...4, defaultValue: 1)]
    private let scale: Float
    private let fixedOutputChannels: Int?
    private let latency: Int
    private(set) var state: UnsafeMutablePointer<State>?

    struct State {
        var scale: Float
        var inputChannels: Int
        var outputChannels: Int
        var calls = 0
        var framesProcessed = 0
        var largestCall: Int32 = 0
        var sawAliasing = false
        var lastParameterIndex: Int32 = -1
    }

    /// Whether the probe bypasses itself through its `scale` parameter (scale 0 = "bypassed", as a plugin's
    /// `lv2:enabled` port), so a test can tell its own bypass from the engine's dry crossfade.
    private let bypassesItself: Bool

    /// A probe scaling by `scale`, writing `outputChannels` channels (default: as many as it reads), reporting `latency` frames.
    init(scale: Float = 1, outputChannels: Int? = nil, latency: Int = 0, bypassesItself: Bool = false) {
        self.scale = scale
        self.bypassesItself = bypassesItself
        fixedOutputChannels = outputChannels
        self.latency = latency
    }

    deinit {
        state?.deinitialize(count: 1)
        state?.deallocate()
    }

    /// What the probe has seen so far.
    var record: State { state!.pointee }

    func prepare(channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitRenderSlot {
        let outputs = fixedOutputChannels ?? channels
        let prepared = UnsafeMutablePointer<State>.allocate(capacity: 1)
        prepared.initialize(to: State(scale: scale, inputChannels: channels, outputChannels: outputs))
        state = prepared
        return UnitRenderSlot(functions: Self.functions, state: UnsafeMutableRawPointer(prepared),
                              inputChannels: channels, outputChannels: outputs, latencyFrames: latency,
                              selfBypassParameter: bypassesItself ? 0 : nil)
    }

    private static let functions = UnitRenderFunctions(
        process: { state, inputs, outputs, frames in
            let probe = state.assumingMemoryBound(to: State.self)
            let count = Int(frames)
            probe.pointee.calls += 1
            probe.pointee.framesProcessed += count
            probe.pointee.largestCall = max(probe.pointee.largestCall, frames)
            let inputCount = probe.pointee.inputChannels
            for output in 0..<probe.pointee.outputChannels {
                for input in 0..<inputCount where UnsafeRawPointer(inputs[input]) == UnsafeRawPointer(outputs[output]) {
                    probe.pointee.sawAliasing = true
                }
            }
            let scale = probe.pointee.scale
            for channel in 0..<probe.pointee.outputChannels {
                let source = inputs[min(channel, inputCount - 1)]
                let sign: Float = channel >= inputCount ? -1 : 1
                for frame in 0..<count { outputs[channel][frame] = source[frame] * scale * sign }
            }
        },
        setParameter: { state, index, value in
            let probe = state.assumingMemoryBound(to: State.self)
            probe.pointee.lastParameterIndex = index
            if index == 0 { probe.pointee.scale = value }
        },
        reset: { _ in }
    )
}
