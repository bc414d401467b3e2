// The built-in `reverb` unit (algorithmic stereo reverb) on the unit interface. Setup non-realtime; render functions realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackDSP

/// An algorithmic stereo reverb over ``ReverbKernel``: takes the strip's 1 or 2 channels and always
/// outputs 2 (a mono strip becomes stereo). On 2 channels it is true stereo: left and right feed and are
/// heard from different halves of the tank, so a source panned left rings on the left; the dry path keeps
/// them as they are. No latency: the predelay is part of the sound.
///
/// Live parameters (indices of ``parameters``; keys as in presets): 0 `decay_s` (RT60, 0.1…20 s),
/// 1 `predelay_ms` (0…200 ms), 2 `size`, 3 `damping`, 4 `diffusion`, 5 `mix` (equal-power dry/wet),
/// 6 `width` (all 0…1). Every change is smoothed (see ``ReverbKernel``).
public final class ReverbUnit: BuiltinEffectUnit, @unchecked Sendable {
    public let typeName = "reverb"
    public let parameters: [ParameterDescriptor] = ReverbUnit.liveParameters
    /// The settings the unit starts with.
    public let settings: ReverbParameters
    /// The settings a key absent from a preset takes.
    public static var defaultSettings: ReverbParameters { .defaults }
    private let storage = UnitStateStorage<State>()

    private struct State: ~Copyable {
        var kernel: ReverbKernel
        let isStereo: Bool
    }

    /// The live-controllable parameters, in index order, with their ranges and defaults.
    public static let liveParameters: [ParameterDescriptor] = {
        let defaults = ReverbParameters.defaults
        let unit = ReverbParameters.unitRange
        return [
            ParameterDescriptor(key: "decay_s", range: ReverbParameters.decayRange, defaultValue: defaults.decay,
                                summary: "Reverberation time RT60 in seconds (at low frequencies when damping > 0)."),
            ParameterDescriptor(key: "predelay_ms", range: ReverbParameters.predelayRange, defaultValue: defaults.predelay, curve: .linear,
                                summary: "Extra time before the reverb starts, in milliseconds."),
            ParameterDescriptor(key: "size", range: unit, defaultValue: defaults.size,
                                summary: "Room size: 0 a booth (5…13 ms echo spacing), 1 a large hall (31…88 ms)."),
            ParameterDescriptor(key: "damping", range: unit, defaultValue: defaults.damping,
                                summary: "High-frequency damping: at 4 kHz the decay time is decay_s × (1 − 0.9 × damping)."),
            ParameterDescriptor(key: "diffusion", range: unit, defaultValue: defaults.diffusion,
                                summary: "Input diffusion: 0 keeps distinct early echoes, 1 smears them into a wash."),
            ParameterDescriptor(key: "mix", range: unit, defaultValue: defaults.mix,
                                summary: "Dry/wet balance, equal-power: dry × cos(mix·90°), wet × sin(mix·90°); 0 is dry only."),
            ParameterDescriptor(key: "width", range: unit, defaultValue: defaults.width,
                                summary: "Stereo width of the reverb: 0 mono, 1 fully decorrelated left and right."),
        ]
    }()

    /// A reverb with `settings`.
    public init(settings: ReverbParameters = .defaults) {
        self.settings = settings.sanitized
    }


    public func prepare(channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitRenderSlot {
        let state = try BuiltinUnitSetup.prepare(storage, unit: typeName, channels: channels, sampleRate: sampleRate) {
            State(kernel: ReverbKernel(parameters: settings, sampleRate: sampleRate, isStereo: channels == 2), isStereo: channels == 2)
        }
        return UnitRenderSlot(functions: Self.functions, state: state, inputChannels: channels, outputChannels: 2)
    }

    /// Sets live parameter `index` (as in ``liveParameters``) in `settings`; unknown indices change nothing.
    public static func apply(index: Int32, value: Float, to settings: inout ReverbParameters) {
        switch index {
        case 0: settings.decay = value
        case 1: settings.predelay = value
        case 2: settings.size = value
        case 3: settings.damping = value
        case 4: settings.diffusion = value
        case 5: settings.mix = value
        case 6: settings.width = value
        default: break
        }
    }

    private static let functions = UnitRenderFunctions(
        process: { state, inputs, outputs, frames in
            let unit = state.assumingMemoryBound(to: State.self)
            let right = unit.pointee.isStereo ? inputs[1] : inputs[0]
            unit.pointee.kernel.process(
                left: inputs[0], right: right, outputLeft: outputs[0], outputRight: outputs[1], frames: Int(frames))
        },
        setParameter: { state, index, value in
            let unit = state.assumingMemoryBound(to: State.self)
            var settings = unit.pointee.kernel.parameters
            apply(index: index, value: value, to: &settings)
            unit.pointee.kernel.update(settings)
        },
        reset: { state in
            state.assumingMemoryBound(to: State.self).pointee.kernel.reset()
        },
        rest: UnitRest(
            { state, frames in state.assumingMemoryBound(to: State.self).pointee.kernel.restsAtRest(frames: frames) },
            advance: { state, frames in state.assumingMemoryBound(to: State.self).pointee.kernel.advanceAtRest(frames: Int(frames)) })
    )
}
