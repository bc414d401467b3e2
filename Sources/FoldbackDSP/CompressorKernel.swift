// The feed-forward compressor/expander DSP kernel behind the built-in `compressor` unit. Realtime: process runs on the audio thread.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A feed-forward compressor with a downward expander, soft knee, lookahead and stereo link.
///
/// Signal flow per frame: each channel's level in dB (instantaneous peak, or RMS over an exponential
/// window of ``rmsWindowTime``) → stereo link (each channel's level moves toward the loudest channel's by
/// ``CompressorSettings/stereoLink``; the expander reads it through a peak hold of ``expanderHoldTime``)
/// → static gain computer in the log domain (Giannoulis, Massberg & Reiss 2012: quadratic soft knee of
/// width ``CompressorSettings/kneeDB`` centred on each threshold) → a smooth branching one-pole per
/// section on the gain reduction in dB (attack when the signal gets louder: more compression or less
/// expansion; release otherwise; τ reaches 1 − 1/e) → makeup → applied to the audio, delayed by the
/// lookahead. Auto makeup is ``autoMakeupDB(for:)``.
///
/// Memory for the per-channel state and the lookahead delay line is allocated by `init`; the kernel is a
/// value holding pointers, so copies share it: call ``deallocate()`` exactly once.
/// setup: `init`; update: ``update(_:)``; process: ``process(inputs:outputs:channels:frames:)``.
public struct CompressorKernel: @unchecked Sendable {
    /// The RMS detector's time constant (an exponential mean-square window), in seconds.
    public static let rmsWindowTime: Double = 0.010
    /// The time constant with which makeup changes are followed, in seconds.
    public static let makeupSmoothingTime: Double = 0.005
    /// The longest lookahead, in milliseconds.
    public static let maximumLookaheadMs: Float = 10
    /// The expander never attenuates by more than this many dB (so a closed gate reopens in a few attack times).
    public static let expansionRangeDB: Float = 80
    /// The expander reads its level through a peak hold of this many seconds (it starts closing after
    /// one to two hold times), so it does not close between the crests of a steady tone.
    public static let expanderHoldTime: Double = 0.020
    /// Levels are floored at this mean square (−200 dBFS), which also keeps the detector free of denormals.
    static let powerFloor: Float = 1e-20

    /// The current settings.
    public private(set) var settings: CompressorSettings
    /// Channels processed.
    public let channels: Int
    /// Frames by which the audio is delayed (the lookahead).
    public var latencyFrames: Int { delay.frames }
    let sampleRate: Double

    var curve: Curve
    var attackCoefficient: Float = 0
    var releaseCoefficient: Float = 0
    let rmsCoefficient: Float
    var isRMS = false
    var link: Float = 1
    var makeupTargetDB: Float = 0
    var makeupDB: Float = 0
    let makeupCoefficient: Float

    let holdFrames: Int
    /// One per channel.
    let channelStates: UnsafeMutablePointer<ChannelState>
    /// The lookahead: the audio waits `latencyFrames` frames while the gain looks ahead.
    var delay: LookaheadDelay
    var blockReductionDB: Float = 0

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
        curve = Curve(settings)
        holdFrames = max(1, Int((Self.expanderHoldTime * sampleRate).rounded()))
        channelStates = .allocate(capacity: self.channels)
        channelStates.initialize(repeating: ChannelState(), count: self.channels)
        update(settings)
        reset()
    }

    /// Frees the state. Call once, after the last use of any copy.
    public func deallocate() {
        channelStates.deallocate()
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
        isRMS = newSettings.detection == .rms
        link = newSettings.stereoLink.isNaN ? 1 : min(max(newSettings.stereoLink, 0), 1)
        let makeup = newSettings.makeupDB.isFinite ? newSettings.makeupDB : 0
        makeupTargetDB = makeup + (newSettings.isAutoMakeupEnabled ? curve.compression(atLevel: 0) : 0)
    }

    /// Clears the envelopes and the lookahead line, and jumps the makeup to its target.
    public mutating func reset() {
        channelStates.update(repeating: ChannelState(holdRemaining: holdFrames), count: channels)
        delay.reset()
        makeupDB = makeupTargetDB
        blockReductionDB = 0
    }

    /// The automatic makeup in dB: the static compression of a 0 dBFS level, `−G(0)` (knee included;
    /// the expander does not count). A full-scale signal therefore leaves at full scale.
    public static func autoMakeupDB(for settings: CompressorSettings) -> Float {
        Curve(settings).compression(atLevel: 0)
    }

    /// The largest gain reduction (compression plus expansion, makeup excluded) of any channel during
    /// the last processed block, in dB (≥ 0).
    public var gainReductionDB: Float { blockReductionDB }

    /// The one-pole coefficient `exp(−1/(τ·fs))` of time constant `seconds`; 0 (instant) for τ ≤ 0.
    static func onePole(seconds: Double, sampleRate: Double) -> Float {
        guard seconds > 0, sampleRate > 0 else { return 0 }
        return Float(exp(-1 / (seconds * sampleRate)))
    }

    /// Processes `channels` channels (at most the kernel's) of `frames` frames; input and output may alias.
    @_noLocks
    public mutating func process(
        inputs: UnsafePointer<UnsafePointer<Float>>,
        outputs: UnsafePointer<UnsafeMutablePointer<Float>>,
        channels requested: Int,
        frames: Int
    ) {
        let count = min(requested, channels)
        var reduction: Float = 0
        for frame in 0..<frames {
            var loudest = -Float.infinity
            for channel in 0..<count {
                let level = detect(inputs[channel][frame], channel: channel)
                channelStates[channel].level = level
                if level > loudest { loudest = level }
            }
            makeupDB += (makeupTargetDB - makeupDB) * (1 - makeupCoefficient)
            if abs(makeupTargetDB - makeupDB) < 1e-5 { makeupDB = makeupTargetDB }
            for channel in 0..<count {
                let own = channelStates[channel].level
                let reductionDB = smoothReduction(level: own + link * (loudest - own), state: &channelStates[channel])
                if reductionDB > reduction { reduction = reductionDB }
                let gainDB = makeupDB - reductionDB
                let gain: Float = gainDB == 0 ? 1 : Self.exp2Approx(gainDB * Self.log2OfTenOver20)
                let sample = delay.exchange(inputs[channel][frame], channel: channel)
                outputs[channel][frame] = sample * gain
            }
            delay.advance()
        }
        blockReductionDB = reduction
    }

    /// The detector level of one sample in dBFS (floored at −200 dB; NaN reads as the floor).
    @inline(__always) @_noLocks
    func detect(_ sample: Float, channel: Int) -> Float {
        var power = sample * sample
        // The mean square runs in peak mode too, so switching to RMS starts from the current level.
        var average = power + (channelStates[channel].meanSquare - power) * rmsCoefficient
        if !(average >= Self.powerFloor) { average = Self.powerFloor }
        channelStates[channel].meanSquare = average
        if isRMS {
            power = average
        } else if !(power >= Self.powerFloor) {
            power = Self.powerFloor
        }
        return Self.log2Approx(power) * Self.tenLog10Of2
    }

    /// Advances a channel's two branching one-poles toward the static curve at `level` (the expander's at
    /// the held level) and returns their sum in dB.
    @inline(__always) @_noLocks
    func smoothReduction(level: Float, state: inout ChannelState) -> Float {
        let compressionTarget = curve.compression(atLevel: level)
        var compressed = state.compression
        let compressionPole = compressionTarget > compressed ? attackCoefficient : releaseCoefficient
        compressed = compressionTarget + (compressed - compressionTarget) * compressionPole
        if compressed < 1e-9 { compressed = 0 }
        state.compression = compressed

        // Peak hold: `heldLevel` is the maximum over the last hold…2·hold frames, so the expander does not
        // close between the crests of a steady tone (down to 1/(2·hold) = 25 Hz).
        if level > state.windowMaximum { state.windowMaximum = level }
        if level > state.heldLevel { state.heldLevel = level }
        state.holdRemaining -= 1
        if state.holdRemaining <= 0 {
            state.heldLevel = state.windowMaximum
            state.windowMaximum = -Float.infinity
            state.holdRemaining = holdFrames
        }
        let expansionTarget = curve.expansion(atLevel: state.heldLevel)
        var expanded = state.expansion
        let expansionPole = expansionTarget < expanded ? attackCoefficient : releaseCoefficient
        expanded = expansionTarget + (expanded - expansionTarget) * expansionPole
        if expanded < 1e-9 { expanded = 0 }
        state.expansion = expanded
        return compressed + expanded
    }

    // MARK: Fast log₂ / exp₂ (no libm on the audio path; both far below 0.001 dB of error)

    static let tenLog10Of2: Float = 3.0102999566   // dB per doubling of power
    static let log2OfTenOver20: Float = 0.1660964047   // log₂(10)/20: dB → log₂ of amplitude

    /// log₂ of a positive, normal, finite `x`: exponent plus an atanh series of the mantissa in [√½, √2)
    /// (error below 1e-7).
    @inline(__always) @_noLocks
    static func log2Approx(_ x: Float) -> Float {
        let bits = x.bitPattern
        var exponent = Int32(bitPattern: (bits >> 23) & 0xff) - 127
        var mantissa = Float(bitPattern: (bits & 0x007f_ffff) | 0x3f80_0000)
        if mantissa > 1.41421356 {
            mantissa *= 0.5
            exponent += 1
        }
        let t = (mantissa - 1) / (mantissa + 1)
        let t2 = t * t
        // 2/ln 2 · (t + t³/3 + t⁵/5 + t⁷/7)
        let series = t * (2.8853900818 + t2 * (0.9617966939 + t2 * (0.5770780164 + t2 * 0.4121985831)))
        return Float(exponent) + series
    }

    /// 2^x for x clamped to −126…126 (NaN reads as −126): a power-of-two scale times a degree-6
    /// Taylor series of e^(f·ln 2), f in [−½, ½] (relative error below 1e-6). Exactly 1 at x = 0.
    @inline(__always) @_noLocks
    static func exp2Approx(_ x: Float) -> Float {
        var clamped = x
        if !(clamped > -126) { clamped = -126 }
        if clamped > 126 { clamped = 126 }
        let whole = Int32(clamped + 126.5) - 126   // round half up: truncation of a positive value
        let u = (clamped - Float(whole)) * 0.6931471806
        let fraction = 1 + u * (1 + u * (0.5 + u * (0.1666666667 + u * (0.0416666667 + u * (0.0083333333 + u * 0.0013888889)))))
        return fraction * Float(bitPattern: UInt32(whole + 127) << 23)
    }
}

extension CompressorKernel {
    /// One channel's detector and envelope state.
    struct ChannelState {
        /// Smoothed compression and expansion in dB (≥ 0).
        var compression: Float = 0
        var expansion: Float = 0
        /// The detector's mean square (RMS mode), floored at ``CompressorKernel/powerFloor``.
        var meanSquare: Float = CompressorKernel.powerFloor
        /// This frame's level before linking (scratch).
        var level: Float = 0
        /// The expander's held level, the maximum of the current hold window, and frames left in it.
        var heldLevel: Float = -Float.infinity
        var windowMaximum: Float = -Float.infinity
        var holdRemaining = 1
    }

    /// The static gain computer: reductions in dB (≥ 0) as functions of the detector level in dBFS.
    struct Curve: Sendable {
        let threshold: Float
        let slope: Float            // 1 − 1/ratio
        let expanderThreshold: Float
        let expanderSlope: Float    // expander ratio − 1
        let halfKnee: Float
        let compressionKnee: Float  // slope / (2·knee)
        let expansionKnee: Float    // expanderSlope / (2·knee)

        init(_ settings: CompressorSettings) {
            func finite(_ value: Float, or fallback: Float) -> Float { value.isFinite ? value : fallback }
            threshold = finite(settings.thresholdDB, or: 0)
            slope = 1 - 1 / max(finite(settings.ratio, or: 1), 1)
            expanderThreshold = finite(settings.expanderThresholdDB, or: -Float.infinity)
            expanderSlope = max(finite(settings.expanderRatio, or: 1), 1) - 1
            let knee = max(finite(settings.kneeDB, or: 0), 0)
            halfKnee = knee / 2
            compressionKnee = knee > 0 ? slope / (2 * knee) : 0
            expansionKnee = knee > 0 ? expanderSlope / (2 * knee) : 0
        }

        /// Compression above the threshold: 0 below the knee, `(1 − 1/R)·(x − T + W/2)²/(2W)` in it,
        /// `(1 − 1/R)·(x − T)` above it.
        @inline(__always) @_noLocks
        func compression(atLevel level: Float) -> Float {
            let over = level - threshold
            if over <= -halfKnee { return 0 }
            if over >= halfKnee { return slope * over }
            let into = over + halfKnee
            return compressionKnee * into * into
        }

        /// Downward expansion below the expander threshold: 0 above the knee,
        /// `(R − 1)·(T − x + W/2)²/(2W)` in it, `(R − 1)·(T − x)` below it; at most ``expansionRangeDB``.
        @inline(__always) @_noLocks
        func expansion(atLevel level: Float) -> Float {
            let under = expanderThreshold - level
            if !(under > -halfKnee) || expanderSlope == 0 { return 0 }
            let reduction: Float
            if under >= halfKnee {
                reduction = expanderSlope * under
            } else {
                let into = under + halfKnee
                reduction = expansionKnee * into * into
            }
            return min(reduction, CompressorKernel.expansionRangeDB)
        }
    }
}
