// Setting up, updating and resetting the compressor kernel (allocation in init only). Update and reset are realtime-safe (libm only).
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CompressorKernel {
    /// A kernel for `channels` channels at `sampleRate`, allocating its state and lookahead line.
    public init(settings: CompressorSettings, channels: Int, sampleRate: Double) {
        self.settings = settings
        self.channels = max(1, channels)
        self.sampleRate = sampleRate
        let lookahead = settings.lookaheadMs.isNaN ? 0 : min(max(settings.lookaheadMs, 0), Self.maximumLookaheadMs)
        let lookaheadFrames = Int((Double(lookahead) * sampleRate / 1000).rounded())
        delay = LookaheadDelay(channels: self.channels, frames: lookaheadFrames)
        rmsCoefficient = Self.onePole(seconds: Self.rmsWindowTime, sampleRate: sampleRate)
        makeupCoefficient = Self.onePole(seconds: Self.makeupSmoothingTime, sampleRate: sampleRate)
        rmsWeights = Self.rmsWeights(coefficient: rmsCoefficient)
        rmsDecay = Self.power(rmsCoefficient, Self.subBlockFrames)
        makeupPerSubBlock = Self.power(makeupCoefficient, Self.subBlockFrames)
        curve = Curve(settings)
        holdFrames = max(1, Int((Self.expanderHoldTime * sampleRate).rounded()))
        channelStates = .allocate(capacity: self.channels)
        channelStates.initialize(repeating: ChannelState(), count: self.channels)
        levels = .allocate(capacity: (self.channels + 2) * Self.chunkFrames)
        levels.initialize(repeating: 0, count: (self.channels + 2) * Self.chunkFrames)
        update(settings)
        reset()
    }

    /// Frees the state. Call once, after the last use of any copy.
    public func deallocate() {
        channelStates.deallocate()
        levels.deallocate()
        delay.deallocate()
    }

    /// Applies new settings (all but the lookahead). Realtime-safe (libm only, no allocation): the static
    /// curve changes at once and the gain follows it with the attack and release times; makeup changes are
    /// followed with ``makeupSmoothingTime``.
    public mutating func update(_ newSettings: CompressorSettings) {
        settings = newSettings
        curve = Curve(newSettings)
        attackCoefficient = Self.onePole(seconds: Double(newSettings.attackMs) / 1000, sampleRate: sampleRate)
        releaseCoefficient = Self.onePole(seconds: Double(newSettings.releaseMs) / 1000, sampleRate: sampleRate)
        attackPerSubBlock = Self.power(attackCoefficient, Self.subBlockFrames)
        releasePerSubBlock = Self.power(releaseCoefficient, Self.subBlockFrames)
        isRMS = newSettings.detection == .rms
        link = newSettings.stereoLink.isNaN ? 1 : min(max(newSettings.stereoLink, 0), 1)
        let makeup = newSettings.makeupDB.isFinite ? newSettings.makeupDB : 0
        makeupTargetDB = makeup + (newSettings.isAutoMakeupEnabled ? curve.compression(atLevel: 0) : 0)
    }

    /// Clears the envelopes and the lookahead line, and jumps the makeup to its target.
    public mutating func reset() {
        channelStates.update(repeating: ChannelState(holdRemaining: holdFrames), count: channels)
        delay.reset()
        subBlockPhase = 0
        isSubBlockStateCurrent = false
        makeupDB = makeupTargetDB
        blockCompressionDB = 0
        blockExpansionDB = 0
    }

    /// The automatic makeup in dB: the static compression of a 0 dBFS level, `−G(0)` (knee included;
    /// the expander does not count). A full-scale signal therefore leaves at full scale.
    public static func autoMakeupDB(for settings: CompressorSettings) -> Float {
        Curve(settings).compression(atLevel: 0)
    }

    /// The largest compression (the reduction above the threshold, makeup excluded) of any channel during
    /// the last processed block, in dB (≥ 0).
    public var compressionDB: Float { blockCompressionDB }

    /// The largest downward expansion (the reduction below the expander threshold) of any channel during
    /// the last processed block, in dB (0 … ``expansionRangeDB``; the full range is a closed gate).
    public var expansionDB: Float { blockExpansionDB }

    /// The one-pole coefficient `exp(−1/(τ·fs))` of time constant `seconds`; 0 (instant) for τ ≤ 0.
    static func onePole(seconds: Double, sampleRate: Double) -> Float {
        guard seconds > 0, sampleRate > 0 else { return 0 }
        return Float(exp(-1 / (seconds * sampleRate)))
    }
}
