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
    /// Frames processed per pass of the staged loop (see ``process(inputs:outputs:channels:frames:)``).
    static let chunkFrames = 64

    /// The current settings.
    public internal(set) var settings: CompressorSettings
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
    /// ``chunkFrames`` floats per channel (the detector levels of a chunk, then its gains in dB), then the
    /// chunk's loudest levels and its makeup in dB.
    let levels: UnsafeMutablePointer<Float>
    /// The lookahead: the audio waits `latencyFrames` frames while the gain looks ahead.
    var delay: LookaheadDelay
    /// The largest compression and the largest expansion of any channel during the last block, in dB (≥ 0).
    var blockCompressionDB: Float = 0
    var blockExpansionDB: Float = 0

    /// Processes `channels` channels (at most the kernel's) of `frames` frames; input and output may alias.
    ///
    /// Runs in chunks of ``chunkFrames`` frames, each in four passes (detector levels per channel; link and
    /// makeup per frame; envelopes per channel; gain and lookahead per frame), so that no pass chains the whole
    /// detector → curve → envelope → gain path within a frame: each frame computes exactly what it would in
    /// one pass, but the CPU can overlap frames.
    @_noLocks
    public mutating func process(
        inputs: UnsafePointer<UnsafePointer<Float>>,
        outputs: UnsafePointer<UnsafeMutablePointer<Float>>,
        channels requested: Int,
        frames: Int
    ) {
        let count = min(requested, channels)
        var mostCompression: Float = 0
        var mostExpansion: Float = 0
        var done = 0
        while done < frames {
            let length = min(frames - done, Self.chunkFrames)
            for channel in 0..<count { detect(inputs[channel] + done, into: levels + channel * Self.chunkFrames, length, channel: channel) }
            let loudest = levels + channels * Self.chunkFrames, makeup = loudest + Self.chunkFrames
            for frame in 0..<length {
                var level = -Float.infinity
                for channel in 0..<count where levels[channel * Self.chunkFrames + frame] > level {
                    level = levels[channel * Self.chunkFrames + frame]
                }
                loudest[frame] = level
            }
            if makeupDB == makeupTargetDB {   // settled: the glide below would leave it where it is
                for frame in 0..<length { makeup[frame] = makeupDB }
            } else {
                for frame in 0..<length {
                    makeupDB += (makeupTargetDB - makeupDB) * (1 - makeupCoefficient)
                    if abs(makeupTargetDB - makeupDB) < 1e-5 { makeupDB = makeupTargetDB }
                    makeup[frame] = makeupDB
                }
            }
            for channel in 0..<count {
                let row = levels + channel * Self.chunkFrames
                var state = channelStates[channel]
                for frame in 0..<length {
                    let own = row[frame]
                    let reduction = smoothReduction(level: own + link * (loudest[frame] - own), state: &state)
                    if reduction.compression > mostCompression { mostCompression = reduction.compression }
                    if reduction.expansion > mostExpansion { mostExpansion = reduction.expansion }
                    row[frame] = makeup[frame] - (reduction.compression + reduction.expansion)
                }
                channelStates[channel] = state
            }
            for frame in 0..<length {
                for channel in 0..<count {
                    let gainDB = levels[channel * Self.chunkFrames + frame]
                    let gain: Float = gainDB == 0 ? 1 : Self.exp2Approx(gainDB * Self.log2OfTenOver20)
                    let sample = delay.exchange(inputs[channel][done + frame], channel: channel)
                    outputs[channel][done + frame] = sample * gain
                }
                delay.advance()
            }
            done += length
        }
        blockCompressionDB = mostCompression
        blockExpansionDB = mostExpansion
    }

    /// The detector levels of `count` samples of one channel in dBFS (floored at −200 dB; NaN reads as the floor).
    @inline(__always) @_noLocks
    func detect(_ input: UnsafePointer<Float>, into levels: UnsafeMutablePointer<Float>, _ count: Int, channel: Int) {
        var meanSquare = channelStates[channel].meanSquare
        for frame in 0..<count {
            var power = input[frame] * input[frame]
            // The mean square runs in peak mode too, so switching to RMS starts from the current level.
            var average = power + (meanSquare - power) * rmsCoefficient
            if !(average >= Self.powerFloor) { average = Self.powerFloor }
            meanSquare = average
            if isRMS {
                power = average
            } else if !(power >= Self.powerFloor) {
                power = Self.powerFloor
            }
            levels[frame] = Self.log2Approx(power) * Self.tenLog10Of2
        }
        channelStates[channel].meanSquare = meanSquare
    }

    /// Advances a channel's two branching one-poles toward the static curve at `level` (the expander's at
    /// the held level) and returns both reductions in dB (≥ 0; the gain applied is their sum).
    @inline(__always) @_noLocks
    func smoothReduction(level: Float, state: inout ChannelState) -> (compression: Float, expansion: Float) {
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
        return (compressed, expanded)
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
