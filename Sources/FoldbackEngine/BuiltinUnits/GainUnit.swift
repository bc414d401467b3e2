// The built-in `gain` unit (gain_db, polarity) on the unit interface. Setup non-realtime; render functions realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

/// A smoothed gain with polarity inversion: the simplest built-in unit.
///
/// Parameters: 0 `gain_db` (−96…+48 dB), 1 `polarity` (0 normal, 1 inverted). Changes ramp over
/// ``LinearSmoother/defaultTime``; a polarity flip ramps through zero. No latency.
public final class GainUnit: EngineUnit, @unchecked Sendable {
    public let typeName = "gain"
    public let parameters = GainUnit.declaredParameters

    /// The parameters every gain unit has.
    public static let declaredParameters = [
        ParameterDescriptor(key: "gain_db", range: -96...48, defaultValue: 0, summary: "Gain in dB."),
        ParameterDescriptor(
            key: "polarity", range: 0...1, defaultValue: 0,
            choices: [ParameterChoice(name: "normal", value: 0), ParameterChoice(name: "inverted", value: 1)],
            summary: "\"inverted\" flips the signal's polarity."),
    ]
    private let initialGainDB: Float
    private let initiallyInverted: Bool
    private let storage = UnitStateStorage<State>()

    private struct State {
        var kernel: GainKernel
        let channels: Int
    }

    /// A gain of `gainDB` dB, polarity inverted when `isInverted`.
    public init(gainDB: Float = 0, isInverted: Bool = false) {
        initialGainDB = gainDB
        initiallyInverted = isInverted
    }

    public func prepare(channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitRenderSlot {
        let state = try storage.prepare(unit: typeName) {
            State(kernel: GainKernel(gainDB: initialGainDB, isInverted: initiallyInverted, sampleRate: sampleRate), channels: channels)
        }
        return UnitRenderSlot(functions: Self.functions, state: state, inputChannels: channels, outputChannels: channels)
    }

    private static let functions = UnitRenderFunctions(
        process: { state, inputs, outputs, frames in
            let unit = state.assumingMemoryBound(to: State.self)
            unit.pointee.kernel.process(inputs: inputs, outputs: outputs, channels: unit.pointee.channels, frames: Int(frames))
        },
        setParameter: { state, index, value in
            let unit = state.assumingMemoryBound(to: State.self)
            let kernel = unit.pointee.kernel
            switch index {
            case 0: unit.pointee.kernel.update(gainDB: value, isInverted: kernel.isInverted)
            case 1: unit.pointee.kernel.update(gainDB: kernel.gainDB, isInverted: value >= 0.5)
            default: break
            }
        },
        reset: { state in
            state.assumingMemoryBound(to: State.self).pointee.kernel.settle()
        },
        rest: UnitRest({ state, _ in state.assumingMemoryBound(to: State.self).pointee.kernel.isAtRest }, advance: { _, _ in })
    )
}
