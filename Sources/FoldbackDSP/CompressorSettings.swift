// The settings of the compressor/expander kernel, in the units presets use. Realtime-safe plain value (copied on the audio thread by updates).
// SPDX-License-Identifier: GPL-3.0-or-later

/// What a ``CompressorKernel`` does: its static curve, ballistics, detector, makeup and stereo link.
///
/// Values outside the meaningful range are clamped by the kernel (ratios below 1 act as 1, negative
/// times as instant), so any value is safe; presets restrict them to the ranges in the `compressor` schema.
public struct CompressorSettings: Sendable, Hashable {
    /// How the detector measures each channel's level.
    public enum Detection: Int, Sendable, Hashable, CaseIterable {
        /// The instantaneous sample magnitude (the ballistics are applied to the gain reduction).
        case peak = 0
        /// Root mean square over an exponential window of ``CompressorKernel/rmsWindowTime``.
        case rms = 1
    }

    /// Compression starts at this level, in dBFS (the middle of the knee).
    public var thresholdDB: Float = -20
    /// Compression ratio above the threshold (1 = no compression).
    public var ratio: Float = 4
    /// Width of the soft knee in dB, centred on the threshold (0 = hard knee).
    public var kneeDB: Float = 6
    /// Attack time constant in milliseconds: the gain reduction covers 1 − 1/e of a rise in this time.
    public var attackMs: Float = 10
    /// Release time constant in milliseconds: the gain reduction covers 1 − 1/e of a fall in this time.
    public var releaseMs: Float = 100
    /// Makeup gain in dB, added after the gain reduction.
    public var makeupDB: Float = 0
    /// Adds the automatic makeup ``CompressorKernel/autoMakeupDB(for:)`` on top of ``makeupDB``.
    public var isAutoMakeupEnabled: Bool = false
    /// Peak or RMS level detection.
    public var detection: Detection = .peak
    /// Lookahead in milliseconds (0…``CompressorKernel/maximumLookaheadMs``); delays the audio by as much.
    /// Fixed when the kernel is made: ``CompressorKernel/update(_:)`` ignores changes to it.
    public var lookaheadMs: Float = 0
    /// Stereo link, 0…1: 0 gives each channel its own gain, 1 drives every channel from the loudest one.
    public var stereoLink: Float = 1
    /// Downward expansion starts below this level, in dBFS (the middle of the knee).
    public var expanderThresholdDB: Float = -60
    /// Downward expansion ratio below the expander threshold (1 = off; 20 acts as a gate).
    public var expanderRatio: Float = 1

    /// Settings with the defaults: −20 dB threshold, 4:1, 6 dB knee, 10 ms / 100 ms, peak detection,
    /// no makeup, no lookahead, fully linked, expander off.
    public init() {}
}
