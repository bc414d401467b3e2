// The built-in `deesser` unit (split-band sibilance reduction) on the unit interface. Setup non-realtime; render functions realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
public import FoldbackDSP

/// A split-band de-esser over ``DeesserKernel``, on a mono or stereo strip (stereo linked).
///
/// Live parameters (indices of ``parameters``; keys as in presets): 0 `frequency_hz` (3…12 kHz), 1 `q`,
/// 2 `key` (`band` or `high_pass`), 3 `threshold_db`, 4 `range_db`, 5 `attack_ms`, 6 `release_ms`,
/// 7 `wide`, 8 `listen`. Publishes `gain_reduction_db` (the compressor's key, so the status line, OSC
/// meters and the web pages show it alike): the largest reduction of the last processed cycle, ≥ 0 dB.
///
/// A unit of its own rather than a compressor mode: its key filter, split-band output and `listen` have no
/// meaning for the compressor's curve, knee, ratio and lookahead, and each unit's parameters stay what its
/// editor shows.
public final class DeesserUnit: BuiltinEffectUnit, @unchecked Sendable {
    public let typeName = "deesser"
    public let parameters: [ParameterDescriptor] = DeesserUnit.liveParameters
    /// The settings the unit starts with.
    public let settings: DeesserParameters
    /// The settings a key absent from a preset takes.
    public static var defaultSettings: DeesserParameters { .defaults }
    private let storage = UnitStateStorage<State> { state in
        state.pointee.reduction.destroy()
    }

    private struct State: ~Copyable {
        var kernel: DeesserKernel
        let reduction: UnsafeAtomic<UInt32>   // Float bit pattern, dB of reduction
    }

    /// The live-controllable parameters, in index order, with their ranges and defaults.
    public static let liveParameters: [ParameterDescriptor] = {
        let defaults = DeesserParameters.defaults
        let keys = DeesserKey.allCases.map { ParameterChoice(name: $0.name, value: Float($0.rawValue)) }
        return [
            ParameterDescriptor(key: "frequency_hz", range: DeesserParameters.frequencyRange, defaultValue: defaults.frequency,
                                summary: "Centre of the sibilance band (or the high-pass key's corner), in Hz."),
            ParameterDescriptor(key: "q", range: DeesserParameters.qRange, defaultValue: defaults.q, curve: .logarithmic,
                                summary: "Width of the band key: higher is narrower (the high-pass key ignores it)."),
            ParameterDescriptor(key: "key", range: 0...Float(keys.count - 1), defaultValue: Float(defaults.key.rawValue), choices: keys,
                                summary: "\"band\": a band-pass around frequency_hz; \"high_pass\": everything above it."),
            ParameterDescriptor(key: "threshold_db", range: DeesserParameters.thresholdRange, defaultValue: defaults.threshold, curve: .linear,
                                summary: "Key peak level in dBFS above which the band is pulled down to it."),
            ParameterDescriptor(key: "range_db", range: DeesserParameters.rangeRange, defaultValue: defaults.range, curve: .linear,
                                summary: "The most the band (or, wide, the whole voice) is reduced, in dB."),
            ParameterDescriptor(key: "attack_ms", range: DeesserParameters.attackRange, defaultValue: defaults.attack,
                                summary: "Time constant of the reduction's response to a rising key."),
            ParameterDescriptor(key: "release_ms", range: DeesserParameters.releaseRange, defaultValue: defaults.release,
                                summary: "Time constant of the reduction's release."),
            .toggle(key: "wide", defaultValue: defaults.isWide ? 1 : 0,
                    summary: "Reduces the whole signal, not the band alone."),
            .toggle(key: "listen", defaultValue: defaults.isListening ? 1 : 0,
                    summary: "Outputs the key alone, to find the band by ear."),
        ]
    }()

    /// A de-esser with `settings`.
    public init(settings: DeesserParameters = .defaults) {
        self.settings = settings.sanitized
    }


    public func prepare(channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitRenderSlot {
        let state = try BuiltinUnitSetup.prepare(storage, unit: typeName, channels: channels, sampleRate: sampleRate) {
            State(kernel: DeesserKernel(parameters: settings, channels: channels, sampleRate: sampleRate), reduction: .create(0))
        }
        return UnitRenderSlot(functions: Self.functions, state: state, inputChannels: channels, outputChannels: channels)
    }

    public func meterReadings() -> [UnitMeterReading] {
        guard let state = storage.pointer else { return [] }
        return [UnitMeterReading(key: CompressorUnit.compressionKey, value: Float(bitPattern: state.pointee.reduction.load(ordering: .relaxed)))]
    }

    /// Sets live parameter `index` (as in ``liveParameters``) in `settings`; unknown indices and NaN change nothing.
    public static func apply(index: Int32, value: Float, to settings: inout DeesserParameters) {
        guard !value.isNaN else { return }
        switch index {
        case 0: settings.frequency = value
        case 1: settings.q = value
        case 2: settings.key = DeesserKey(rawValue: Int(value.rounded())) ?? settings.key
        case 3: settings.threshold = value
        case 4: settings.range = value
        case 5: settings.attack = value
        case 6: settings.release = value
        case 7: settings.isWide = value >= 0.5
        case 8: settings.isListening = value >= 0.5
        default: break
        }
    }

    private static let functions = UnitRenderFunctions(
        process: { state, inputs, outputs, frames in
            let unit = state.assumingMemoryBound(to: State.self)
            unit.pointee.kernel.process(inputs: inputs, outputs: outputs, frames: Int(frames))
            unit.pointee.reduction.store(unit.pointee.kernel.reductionDB.bitPattern, ordering: .relaxed)
        },
        setParameter: { state, index, value in
            let unit = state.assumingMemoryBound(to: State.self)
            var settings = unit.pointee.kernel.parameters
            apply(index: index, value: value, to: &settings)
            unit.pointee.kernel.update(settings)
        },
        reset: { state in
            let unit = state.assumingMemoryBound(to: State.self)
            unit.pointee.kernel.reset()
            unit.pointee.reduction.store(0, ordering: .relaxed)
        },
        rest: UnitRest({ state, _ in state.assumingMemoryBound(to: State.self).pointee.kernel.isAtRest() }, advance: { _, _ in })
    )
}
