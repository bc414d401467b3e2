// The built-in `compressor` unit (compressor/expander) on the unit interface. Setup non-realtime; render functions realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
public import FoldbackDSP

/// A feed-forward compressor with downward expander, soft knee, optional lookahead and stereo link,
/// over ``CompressorKernel``. Mono or stereo (any channel count); every channel's level is detected.
///
/// Live parameters (indices of ``parameters``; keys as in presets): 0 `threshold_db`, 1 `ratio`,
/// 2 `knee_db`, 3 `attack_ms`, 4 `release_ms`, 5 `makeup_db`, 6 `auto_makeup` (0/1), 7 `detection`
/// (0 peak, 1 RMS), 8 `stereo_link` (0…1), 9 `expander_threshold_db`, 10 `expander_ratio`.
/// `lookahead_ms` sets the latency (reported in the render slot) and is fixed when the unit is made.
/// Publishes `gain_reduction_db`, the largest compression of the last processed cycle, and `expansion_db`,
/// the largest downward expansion (gate) of that cycle, apart: both ≥ 0 dB, expansion at most
/// ``CompressorKernel/expansionRangeDB`` (a closed gate), so a gated silence does not read as compression.
public final class CompressorUnit: EngineUnit, @unchecked Sendable {
    public let typeName = "compressor"
    public let parameters: [ParameterDescriptor] = CompressorUnit.liveParameters
    /// The settings the unit starts with.
    public let settings: CompressorSettings
    private let storage = UnitStateStorage<State> { state in
        state.pointee.kernel.deallocate()
        state.pointee.gainReduction.destroy()
        state.pointee.expansion.destroy()
    }

    private struct State {
        var kernel: CompressorKernel
        let gainReduction: UnsafeAtomic<UInt32>   // Float bit pattern, dB of compression
        let expansion: UnsafeAtomic<UInt32>       // Float bit pattern, dB of expansion
    }

    /// The meter key of the compression (dB ≥ 0).
    public static let compressionKey = "gain_reduction_db"
    /// The meter key of the downward expansion (dB, 0 … ``CompressorKernel/expansionRangeDB``).
    public static let expansionKey = "expansion_db"

    /// The live-controllable parameters, in index order, with their ranges and defaults.
    public static let liveParameters: [ParameterDescriptor] = {
        let defaults = CompressorSettings()
        return [
            ParameterDescriptor(key: "threshold_db", range: -80...0, defaultValue: defaults.thresholdDB, curve: .linear,
                                summary: "Compression starts here, in dBFS (the middle of the knee)."),
            ParameterDescriptor(key: "ratio", range: 1...20, defaultValue: defaults.ratio, curve: .logarithmic,
                                summary: "Compression ratio above the threshold; 1 is none, 20 is close to limiting."),
            ParameterDescriptor(key: "knee_db", range: 0...24, defaultValue: defaults.kneeDB, curve: .linear,
                                summary: "Soft-knee width in dB around both thresholds; 0 is a hard knee."),
            ParameterDescriptor(key: "attack_ms", range: 0.1...500, defaultValue: defaults.attackMs,
                                summary: "Time constant of the gain's response to a louder signal (1 − 1/e of the change)."),
            ParameterDescriptor(key: "release_ms", range: 1...5000, defaultValue: defaults.releaseMs,
                                summary: "Time constant of the gain's response to a quieter signal (1 − 1/e of the change)."),
            ParameterDescriptor(key: "makeup_db", range: -24...24, defaultValue: defaults.makeupDB, curve: .linear,
                                summary: "Gain in dB added after compression."),
            .toggle(key: "auto_makeup", defaultValue: defaults.isAutoMakeupEnabled ? 1 : 0,
                    summary: "Adds the compression of a 0 dBFS level as makeup, so full scale stays full scale."),
            ParameterDescriptor(key: "detection", range: 0...1, defaultValue: Float(defaults.detection.rawValue),
                                choices: [ParameterChoice(name: "peak", value: 0), ParameterChoice(name: "rms", value: 1)],
                                summary: "\"peak\" follows each sample; \"rms\" averages the power over a 10 ms window."),
            ParameterDescriptor(key: "stereo_link", range: 0...1, defaultValue: defaults.stereoLink,
                                summary: "1 drives both channels from the louder one; 0 compresses each on its own."),
            ParameterDescriptor(key: "expander_threshold_db", range: -96...0, defaultValue: defaults.expanderThresholdDB, curve: .linear,
                                summary: "Downward expansion starts below this level, in dBFS."),
            ParameterDescriptor(key: "expander_ratio", range: 1...20, defaultValue: defaults.expanderRatio, curve: .logarithmic,
                                summary: "Downward expansion ratio; 1 is off, 20 acts as a gate (at most 80 dB down)."),
        ]
    }()

    /// The lookahead parameter: fixed per unit, so not among ``liveParameters``.
    public static let lookaheadParameter = ParameterDescriptor(
        key: "lookahead_ms", range: 0...CompressorKernel.maximumLookaheadMs, defaultValue: CompressorSettings().lookaheadMs, curve: .linear,
        isSmoothed: false, summary: "Delays the audio so the gain moves ahead of transients; adds this much latency.")

    /// A compressor with `settings`.
    public init(settings: CompressorSettings = CompressorSettings()) {
        self.settings = settings
    }

    /// A compressor from values keyed by preset key (`threshold_db`, `lookahead_ms`…); absent keys take their defaults.
    public convenience init(values: [String: Float]) {
        var settings = CompressorSettings()
        settings.lookaheadMs = values[Self.lookaheadParameter.key] ?? settings.lookaheadMs
        for (index, descriptor) in Self.liveParameters.enumerated() {
            if let value = values[descriptor.key] { Self.apply(index: Int32(index), value: value, to: &settings) }
        }
        self.init(settings: settings)
    }

    public func prepare(channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitRenderSlot {
        let settings = settings
        let state = try storage.prepare(unit: typeName) {
            State(kernel: CompressorKernel(settings: settings, channels: channels, sampleRate: sampleRate), gainReduction: .create(0), expansion: .create(0))
        }
        let latency = state.assumingMemoryBound(to: State.self).pointee.kernel.latencyFrames
        return UnitRenderSlot(functions: Self.functions, state: state,
                              inputChannels: channels, outputChannels: channels, latencyFrames: latency)
    }

    public func meterReadings() -> [UnitMeterReading] {
        guard let state = storage.pointer else { return [] }
        let compression = Float(bitPattern: state.pointee.gainReduction.load(ordering: .relaxed))
        let expansion = Float(bitPattern: state.pointee.expansion.load(ordering: .relaxed))
        return [UnitMeterReading(key: Self.compressionKey, value: compression), UnitMeterReading(key: Self.expansionKey, value: expansion)]
    }

    /// Sets live parameter `index` (as in ``liveParameters``) in `settings`; unknown indices change nothing.
    static func apply(index: Int32, value: Float, to settings: inout CompressorSettings) {
        switch index {
        case 0: settings.thresholdDB = value
        case 1: settings.ratio = value
        case 2: settings.kneeDB = value
        case 3: settings.attackMs = value
        case 4: settings.releaseMs = value
        case 5: settings.makeupDB = value
        case 6: settings.isAutoMakeupEnabled = value >= 0.5
        case 7: settings.detection = value >= 0.5 ? .rms : .peak
        case 8: settings.stereoLink = value
        case 9: settings.expanderThresholdDB = value
        case 10: settings.expanderRatio = value
        default: break
        }
    }

    private static let functions = UnitRenderFunctions(
        process: { state, inputs, outputs, frames in
            let unit = state.assumingMemoryBound(to: State.self)
            unit.pointee.kernel.process(inputs: inputs, outputs: outputs, channels: unit.pointee.kernel.channels, frames: Int(frames))
            unit.pointee.gainReduction.store(unit.pointee.kernel.compressionDB.bitPattern, ordering: .relaxed)
            unit.pointee.expansion.store(unit.pointee.kernel.expansionDB.bitPattern, ordering: .relaxed)
        },
        setParameter: { state, index, value in
            let unit = state.assumingMemoryBound(to: State.self)
            var settings = unit.pointee.kernel.settings
            apply(index: index, value: value, to: &settings)
            unit.pointee.kernel.update(settings)
        },
        reset: { state in
            let unit = state.assumingMemoryBound(to: State.self)
            unit.pointee.kernel.reset()
            unit.pointee.gainReduction.store(0, ordering: .relaxed)
            unit.pointee.expansion.store(0, ordering: .relaxed)
        },
        rest: UnitRest(
            { state, frames in state.assumingMemoryBound(to: State.self).pointee.kernel.restsAtRest(frames: frames) },
            advance: { state, frames in state.assumingMemoryBound(to: State.self).pointee.kernel.advanceAtRest(frames: Int(frames)) })
    )
}
