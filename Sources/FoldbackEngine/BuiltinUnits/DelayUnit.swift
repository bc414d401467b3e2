// The built-in `delay` unit (0 … 500 ms, crossfaded changes) on the unit interface. Setup non-realtime; render functions realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

/// A delay of 0 … 500 ms on every channel, for aligning a delay speaker or syncing in-ears.
///
/// Parameter 0 `delay_ms` (0 … 500 ms, rounded to whole frames: round(ms · fs / 1000)). A change
/// crossfades between the old and the new read head over ``DelayKernel/fadeTime`` (see ``DelayKernel``).
/// The ring is sized for 500 ms at the prepared rate, so no setting allocates. The unit reports no
/// latency: the delay is the sound asked for, not processing delay, so the engine does not compensate it.
public final class DelayUnit: EngineUnit, @unchecked Sendable {
    public let typeName = "delay"
    public let parameters: [ParameterDescriptor]
    private let initialMilliseconds: Float
    private let storage = UnitStateStorage<State>()

    private struct State: ~Copyable {
        var kernel: DelayKernel
    }

    /// The range of `delay_ms`.
    public static let range: ClosedRange<Float> = 0...Float(DelayKernel.maximumTime * 1000)

    /// A delay of `milliseconds` ms (clamped to ``range``).
    /// The one parameter of a delay of `milliseconds`.
    public static func parameters(milliseconds: Float = 0) -> [ParameterDescriptor] {
        [ParameterDescriptor(key: "delay_ms", range: range, defaultValue: milliseconds, curve: .linear,
                             summary: "Delay in milliseconds, rounded to whole samples; not latency, so never compensated.")]
    }

    public init(milliseconds: Float = 0) {
        initialMilliseconds = min(max(milliseconds.isNaN ? 0 : milliseconds, Self.range.lowerBound), Self.range.upperBound)
        parameters = Self.parameters(milliseconds: initialMilliseconds)
    }

    public func prepare(channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitRenderSlot {
        guard channels >= 1 else { throw .unsupportedChannelCount(name: typeName, channels: channels) }
        guard sampleRate.isFinite, (8000...768_000).contains(sampleRate) else {
            throw .unitSetupFailed(unit: typeName, reason: "runs at 8 kHz to 768 kHz, not \(sampleRate) Hz")
        }
        let state = try storage.prepare(unit: typeName) {
            let frames = Int((Double(initialMilliseconds) * sampleRate / 1000).rounded())
            return State(kernel: DelayKernel(channels: channels, sampleRate: sampleRate, delayFrames: frames))
        }
        return UnitRenderSlot(functions: Self.functions, state: state, inputChannels: channels, outputChannels: channels)
    }

    private static let functions = UnitRenderFunctions(
        process: { state, inputs, outputs, frames in
            state.assumingMemoryBound(to: State.self).pointee.kernel.process(inputs: inputs, outputs: outputs, frames: Int(frames))
        },
        setParameter: { state, index, value in
            guard index == 0, !value.isNaN else { return }
            let unit = state.assumingMemoryBound(to: State.self)
            unit.pointee.kernel.setDelay(frames: unit.pointee.kernel.frames(milliseconds: Double(value)))
        },
        reset: { state in
            state.assumingMemoryBound(to: State.self).pointee.kernel.reset()
        },
        rest: UnitRest(
            { state, frames in
                let unit = state.assumingMemoryBound(to: State.self)
                guard unit.pointee.kernel.isAtRest else { return false }
                unit.pointee.kernel.advanceAtRest(frames: Int(frames))
                return true
            },
            advance: { state, frames in state.assumingMemoryBound(to: State.self).pointee.kernel.advanceAtRest(frames: Int(frames)) })
    )
}
