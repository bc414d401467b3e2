// The built-in `echo` unit (feedback echo, free or tempo-synced) on the unit interface. Setup non-realtime; render functions realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackDSP

/// A feedback echo over ``EchoKernel``: takes the strip's 1 or 2 channels and always outputs 2 (a mono
/// strip becomes stereo, as with the reverb). No latency: the echo time is part of the sound.
///
/// Live parameters (indices of ``parameters``; keys as in presets): 0 `time_ms` (1…2000), 1 `sync`
/// (`off` or a note value against the show tempo), 2 `feedback` (0…95 %), 3 `low_cut_hz` (20 is off),
/// 4 `high_cut_hz` (20000 is off), 5 `mode`, 6 `mix`, 7 `ducking_db`, 8 `duck_threshold_db`, 9 `freeze`,
/// 10 `time_change`, 11 `tempo_bpm` (``tempoParameter``: the tempo `sync` counts against, which the show
/// tempo sets on every echo). One more index is the engine's, outside the tree: ``enabledParameter``, the
/// unit's own bypass, so a bypassed echo's tail rings out instead of being cut.
public final class EchoUnit: BuiltinEffectUnit, @unchecked Sendable {
    public let typeName = EchoUnit.presetType
    /// The unit type as written in presets.
    public static let presetType = "echo"
    public let parameters: [ParameterDescriptor] = EchoUnit.liveParameters
    /// The settings the unit starts with.
    public let settings: EchoParameters
    /// The settings a key absent from a preset takes.
    public static var defaultSettings: EchoParameters { .defaults }
    private var storage = UnitStateStorage<State>()

    private struct State: ~Copyable {
        var kernel: EchoKernel
        let isStereo: Bool
    }

    /// The index of `tempo_bpm`, the parameter the show tempo is set through (BPM).
    public static let tempoParameter: Int32 = 11
    /// The parameter index of the unit's own bypass (1 processing, 0 bypassed); not in ``parameters``.
    public static let enabledParameter: Int32 = 101

    /// The live-controllable parameters, in index order, with their ranges and defaults.
    public static let liveParameters: [ParameterDescriptor] = {
        let defaults = EchoParameters.defaults
        let notes = EchoNoteValue.allCases.map { ParameterChoice(name: $0.name, value: Float($0.rawValue)) }
        let modes = EchoMode.allCases.map { ParameterChoice(name: $0.name, value: Float($0.rawValue)) }
        let changes = EchoTimeChange.allCases.map { ParameterChoice(name: $0.name, value: Float($0.rawValue)) }
        return [
            ParameterDescriptor(key: "time_ms", range: EchoParameters.timeRange, defaultValue: defaults.time,
                                summary: "Echo time in milliseconds (whole samples) when sync is \"off\"."),
            ParameterDescriptor(key: "sync", range: 0...Float(notes.count - 1), defaultValue: Float(defaults.sync.rawValue), choices: notes,
                                summary: "A note value against the show tempo (\"1/4\", \"1/8.\" dotted, \"1/8t\" triplet…), or \"off\" for time_ms."),
            ParameterDescriptor(key: "feedback", range: EchoParameters.feedbackRange, defaultValue: defaults.feedback, unit: "%", curve: .linear,
                                summary: "Each repeat's level against the one before, in percent."),
            ParameterDescriptor(key: "low_cut_hz", range: EchoParameters.lowCutRange, defaultValue: defaults.lowCut,
                                summary: "Butterworth high-pass in the loop (each repeat thinner); 20 Hz is off."),
            ParameterDescriptor(key: "high_cut_hz", range: EchoParameters.highCutRange, defaultValue: defaults.highCut,
                                summary: "Butterworth low-pass in the loop (each repeat darker); 20000 Hz is off."),
            ParameterDescriptor(key: "mode", range: 0...Float(modes.count - 1), defaultValue: Float(defaults.mode.rawValue), choices: modes,
                                summary: "\"mono\" one line on both sides, \"stereo\" each side its own, \"ping_pong\" repeats alternate left, right."),
            ParameterDescriptor(key: "mix", range: EchoParameters.unitRange, defaultValue: defaults.mix,
                                summary: "Dry/wet balance, equal-power: dry × cos(mix·90°), wet × sin(mix·90°); 1 for an effect bus."),
            ParameterDescriptor(key: "ducking_db", range: EchoParameters.duckingRange, defaultValue: defaults.ducking, curve: .linear,
                                summary: "How far the echo ducks under the dry voice (it swells back in the gaps); 0 is off."),
            ParameterDescriptor(key: "duck_threshold_db", range: EchoParameters.duckThresholdRange, defaultValue: defaults.duckThreshold, curve: .linear,
                                summary: "The dry level in dBFS above which the echo ducks."),
            .toggle(key: "freeze", defaultValue: defaults.isFrozen ? 1 : 0,
                    summary: "Holds the repeats in the loop, unchanged and taking no input, until released."),
            ParameterDescriptor(key: "time_change", range: 0...Float(changes.count - 1), defaultValue: Float(defaults.timeChange.rawValue),
                                choices: changes,
                                summary: "How a new time sounds: \"crossfade\" (30 ms, no pitch change) or \"glide\" (tape-like bend, at most ±25 %)."),
            ParameterDescriptor(key: "tempo_bpm", range: EchoParameters.tempoRange, defaultValue: defaults.tempo, unit: "BPM", curve: .linear,
                                summary: "The tempo sync counts against, in beats per minute; the show tempo (tempo/bpm) sets it on every echo."),
        ]
    }()

    /// An echo with `settings`.
    public init(settings: EchoParameters = .defaults) {
        self.settings = settings.sanitized
    }


    public func prepare(channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitRenderSlot {
        let state = try BuiltinUnitSetup.prepare(storage, unit: typeName, channels: channels, sampleRate: sampleRate) {
            State(kernel: EchoKernel(parameters: settings, sampleRate: sampleRate, isStereoInput: channels == 2), isStereo: channels == 2)
        }
        return slot(state, channels: channels)
    }

    /// Carries on a running echo of the same format (a song switch whose next preset keeps the unit): its lines,
    /// and so its tail, go on, and this unit's settings are applied at the takeover like live changes (a new
    /// tempo or time glides or crossfades as `time_change` says, without a click).
    public func prepare(continuing predecessor: any EngineUnit, channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitContinuation? {
        guard storage.pointer == nil, let old = predecessor as? EchoUnit, let running = old.storage.pointer,
              running.pointee.isStereo == (channels == 2), running.pointee.kernel.sampleRate == sampleRate
        else { return nil }
        storage = old.storage
        let values = Self.liveParameters.indices.map { Self.value(index: $0, of: settings) }
        return UnitContinuation(slot: slot(UnsafeMutableRawPointer(running), channels: channels), parameterValues: values)
    }

    /// Whether this unit runs the same lines as `other` (one continues the other).
    public func shares(with other: EchoUnit) -> Bool { storage.pointer != nil && storage === other.storage }

    private func slot(_ state: UnsafeMutableRawPointer, channels: Int) -> UnitRenderSlot {
        UnitRenderSlot(functions: Self.functions, state: state, inputChannels: channels, outputChannels: 2,
                       selfBypassParameter: Int(Self.enabledParameter))
    }

    /// Live parameter `index`'s value in `settings` (the inverse of ``apply(index:value:to:)``).
    static func value(index: Int, of settings: EchoParameters) -> Float {
        switch index {
        case 0: settings.time
        case 1: Float(settings.sync.rawValue)
        case 2: settings.feedback
        case 3: settings.lowCut
        case 4: settings.highCut
        case 5: Float(settings.mode.rawValue)
        case 6: settings.mix
        case 7: settings.ducking
        case 8: settings.duckThreshold
        case 9: settings.isFrozen ? 1 : 0
        case 10: Float(settings.timeChange.rawValue)
        default: settings.tempo
        }
    }

    /// Sets live parameter `index` (as in ``liveParameters``) in `settings`; unknown indices and NaN change nothing.
    public static func apply(index: Int32, value: Float, to settings: inout EchoParameters) {
        guard !value.isNaN else { return }
        let choice = Int(value.rounded())
        switch index {
        case 0: settings.time = value
        case 1: settings.sync = EchoNoteValue(rawValue: choice) ?? settings.sync
        case 2: settings.feedback = value
        case 3: settings.lowCut = value
        case 4: settings.highCut = value
        case 5: settings.mode = EchoMode(rawValue: choice) ?? settings.mode
        case 6: settings.mix = value
        case 7: settings.ducking = value
        case 8: settings.duckThreshold = value
        case 9: settings.isFrozen = value >= 0.5
        case 10: settings.timeChange = EchoTimeChange(rawValue: choice) ?? settings.timeChange
        case 11: settings.tempo = value
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
            if index == enabledParameter {
                unit.pointee.kernel.setBypassed(value < 0.5)
                return
            }
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
