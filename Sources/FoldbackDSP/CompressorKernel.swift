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
    public static var expansionRangeDB: Float { @_noLocks get { 80 } }
    /// The expander reads its level through a peak hold of this many seconds (it starts closing after
    /// one to two hold times), so it does not close between the crests of a steady tone.
    public static let expanderHoldTime: Double = 0.020
    /// Levels are floored at this mean square (−200 dBFS), which also keeps the detector free of denormals.
    static var powerFloor: Float { @_noLocks get { 1e-20 } }
    /// Frames processed per pass of the staged loop (see ``process(inputs:outputs:channels:frames:)``).
    static var chunkFrames: Int { @_noLocks get { 64 } }

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

    /// The RMS path's constants: the squares' weights, and the detector's, attack's, release's and makeup's
    /// poles over a sub-block (see ``processSubBlocks(inputs:outputs:count:frames:)``).
    let rmsWeights: SIMD16<Float>
    let rmsDecay: Float
    var attackPerSubBlock: Float = 0
    var releasePerSubBlock: Float = 0
    let makeupPerSubBlock: Float
    /// Frames into the current sub-block (the running frame count modulo ``subBlockFrames``), and whether
    /// the RMS path's state (rather than the per-frame detector's) is the current one.
    var subBlockPhase = 0
    var isSubBlockStateCurrent = false

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
    /// Runs in chunks of ``chunkFrames`` frames, in passes: detector levels (per channel), stereo link,
    /// gain reduction (per channel), then gains applied through the lookahead. The two recursions that
    /// cannot be vectorised (the detector's mean square and the gain envelope) are each a short
    /// multiply–add chain per frame; everything between them (log₂, the static curve) and after them
    /// (exp₂, the gain) is branch-free, so it overlaps with the chains or vectorises. A channel whose
    /// gain depends on itself alone (mono, or no stereo link) runs detector and envelope in one loop, so
    /// the two chains overlap. While the expander is off (and fully released) its envelope is skipped;
    /// its peak hold is still kept, a window at a time.
    @_noLocks
    public mutating func process(
        inputs: UnsafePointer<UnsafePointer<Float>>,
        outputs: UnsafePointer<UnsafeMutablePointer<Float>>,
        channels requested: Int,
        frames: Int
    ) {
        let count = min(requested, channels)
        if isRMS {
            processSubBlocks(inputs: inputs, outputs: outputs, count: count, frames: frames)
            return
        }
        if isSubBlockStateCurrent { leaveSubBlocks() }
        subBlockPhase = (subBlockPhase + frames) & (Self.subBlockFrames - 1)
        var most = Reductions()
        var done = 0
        while done < frames {
            let length = min(frames - done, Self.chunkFrames)
            let makeup = levels + (channels + 1) * Self.chunkFrames
            fillMakeup(makeup, length)
            if count == 1 || link == 0 {
                for channel in 0..<count {
                    let row = levels + channel * Self.chunkFrames
                    if isCompressionOnly(channel) {
                        var start = 0
                        while start < length {   // split where a hold window ends, so each part's peak updates the hold
                            let end = min(length, start + channelStates[channel].holdRemaining)
                            let (input, gains) = (inputs[channel] + done + start, row + start)
                            let peak = detectAndCompress(input, gains: gains, makeup: makeup + start, end - start, channel: channel, most: &most)
                            holdWindow(peak: peak, end - start, channel: channel)
                            start = end
                        }
                    } else {
                        detect(inputs[channel] + done, into: row, length, channel: channel)
                        reduceWithExpander(row, makeup: makeup, length, channel: channel, most: &most)
                    }
                }
            } else {
                for channel in 0..<count { detect(inputs[channel] + done, into: levels + channel * Self.chunkFrames, length, channel: channel) }
                linkLevels(count, length)
                for channel in 0..<count {
                    let row = levels + channel * Self.chunkFrames
                    if isCompressionOnly(channel) {
                        hold(row, length, channel: channel)
                        compress(row, makeup: makeup, length, channel: channel, most: &most)
                    } else {
                        reduceWithExpander(row, makeup: makeup, length, channel: channel, most: &most)
                    }
                }
            }
            applyGains(inputs, outputs, count, offset: done, length)
            done += length
        }
        blockCompressionDB = most.compression
        blockExpansionDB = most.expansion
    }

    /// The largest reductions seen, in dB.
    struct Reductions {
        var compression: Float = 0
        var expansion: Float = 0
        @_noLocks init() {}
    }

    /// Whether `channel` needs no expander envelope this chunk: the expander is off and fully released.
    @inline(__always) @_noLocks
    func isCompressionOnly(_ channel: Int) -> Bool { curve.expanderSlope == 0 && channelStates[channel].expansion == 0 }

    /// The makeup (dB) of each frame of the chunk, gliding toward its target.
    @inline(__always) @_noLocks
    mutating func fillMakeup(_ makeup: UnsafeMutablePointer<Float>, _ length: Int) {
        if makeupDB == makeupTargetDB {   // settled: the glide below would leave it where it is
            for frame in 0..<length { makeup[frame] = makeupDB }
            return
        }
        for frame in 0..<length {
            makeupDB += (makeupTargetDB - makeupDB) * (1 - makeupCoefficient)
            if abs(makeupTargetDB - makeupDB) < 1e-5 { makeupDB = makeupTargetDB }
            makeup[frame] = makeupDB
        }
    }

    /// Moves each channel's level toward the loudest channel's by ``link`` (in place).
    @inline(__always) @_noLocks
    func linkLevels(_ count: Int, _ length: Int) {
        let loudest = levels + channels * Self.chunkFrames
        for frame in 0..<length { loudest[frame] = levels[frame] }
        for channel in 1..<count {
            let row = levels + channel * Self.chunkFrames
            for frame in 0..<length { loudest[frame] = max(loudest[frame], row[frame]) }
        }
        for channel in 0..<count {
            let row = levels + channel * Self.chunkFrames
            for frame in 0..<length { row[frame] += link * (loudest[frame] - row[frame]) }
        }
    }

    /// One frame of the detector: advances the mean square by `power` and returns the power the level is
    /// read from (the mean square in RMS mode, else `power`), floored at ``powerFloor`` (NaN reads as the floor).
    @inline(__always) @_noLocks
    func detectorPower(_ sample: Float, _ meanSquare: inout Float, rms: Bool) -> Float {
        let power = sample * sample
        // The mean square runs in peak mode too, so switching to RMS starts from the current level.
        let average = meanSquare * rmsCoefficient + power * (1 - rmsCoefficient)
        meanSquare = average > Self.powerFloor ? average : Self.powerFloor
        return rms ? meanSquare : (power > Self.powerFloor ? power : Self.powerFloor)
    }

    /// The detector levels of `count` samples of one channel in dBFS (floored at −200 dB).
    @inline(__always) @_noLocks
    func detect(_ input: UnsafePointer<Float>, into levels: UnsafeMutablePointer<Float>, _ count: Int, channel: Int) {
        var meanSquare = channelStates[channel].meanSquare
        for frame in 0..<count { levels[frame] = detectorPower(input[frame], &meanSquare, rms: false) }
        channelStates[channel].meanSquare = meanSquare
        for frame in 0..<count { levels[frame] = Self.log2Approx(levels[frame]) * Self.tenLog10Of2 }
    }

    /// Detector and compression envelope of one unlinked channel in one loop, writing the gains in dB
    /// (makeup included) to `gains`; returns the loudest level (dBFS).
    @inline(__always) @_noLocks
    func detectAndCompress(_ input: UnsafePointer<Float>, gains: UnsafeMutablePointer<Float>, makeup: UnsafePointer<Float>,
                           _ count: Int, channel: Int, most: inout Reductions) -> Float {
        var meanSquare = channelStates[channel].meanSquare
        var compressed = channelStates[channel].compression
        var largest = most.compression
        var peak = -Float.infinity
        for frame in 0..<count {
            let level = Self.log2Approx(detectorPower(input[frame], &meanSquare, rms: false)) * Self.tenLog10Of2
            peak = level > peak ? level : peak
            compressed = Self.follow(compressed, toward: curve.compression(atLevel: level), rising: attackCoefficient, falling: releaseCoefficient)
            largest = compressed > largest ? compressed : largest
            gains[frame] = makeup[frame] - compressed
        }
        channelStates[channel].meanSquare = meanSquare
        channelStates[channel].compression = compressed < 1e-9 ? 0 : compressed
        most.compression = largest
        return peak
    }

    /// The compression envelope over linked `levels`, replaced by the gains in dB (makeup included).
    @inline(__always) @_noLocks
    func compress(_ levels: UnsafeMutablePointer<Float>, makeup: UnsafePointer<Float>, _ count: Int, channel: Int, most: inout Reductions) {
        var compressed = channelStates[channel].compression
        var largest = most.compression
        for frame in 0..<count {
            compressed = Self.follow(compressed, toward: curve.compression(atLevel: levels[frame]), rising: attackCoefficient, falling: releaseCoefficient)
            largest = compressed > largest ? compressed : largest
            levels[frame] = makeup[frame] - compressed
        }
        channelStates[channel].compression = compressed < 1e-9 ? 0 : compressed
        most.compression = largest
    }

    /// One step of a branching one-pole toward `target`: with pole `rising` when the target is above the
    /// value, `falling` otherwise.
    @inline(__always) @_noLocks
    static func follow(_ value: Float, toward target: Float, rising: Float, falling: Float) -> Float {
        target + (value - target) * (target > value ? rising : falling)
    }

    /// The expander's peak hold over `count` levels, a hold window at a time (what ``smoothReduction(level:state:)``
    /// does per frame, when the expander's envelope is not needed).
    @inline(__always) @_noLocks
    func hold(_ levels: UnsafePointer<Float>, _ count: Int, channel: Int) {
        var start = 0
        while start < count {
            let length = min(count - start, channelStates[channel].holdRemaining)
            var peak = -Float.infinity
            for frame in start..<(start + length) { peak = levels[frame] > peak ? levels[frame] : peak }
            holdWindow(peak: peak, length, channel: channel)
            start += length
        }
    }

    /// Advances the peak hold by `count` frames (at most to the end of the current window) whose loudest level is `peak`.
    @inline(__always) @_noLocks
    func holdWindow(peak: Float, _ count: Int, channel: Int) {
        channelStates[channel].windowMaximum = max(channelStates[channel].windowMaximum, peak)
        channelStates[channel].heldLevel = max(channelStates[channel].heldLevel, peak)
        channelStates[channel].holdRemaining -= count
        if channelStates[channel].holdRemaining <= 0 {
            channelStates[channel].heldLevel = channelStates[channel].windowMaximum
            channelStates[channel].windowMaximum = -Float.infinity
            channelStates[channel].holdRemaining = holdFrames
        }
    }

    /// Compression and expansion envelopes, frame by frame, over `levels`, replaced by the gains in dB.
    @inline(__always) @_noLocks
    func reduceWithExpander(_ levels: UnsafeMutablePointer<Float>, makeup: UnsafePointer<Float>, _ count: Int, channel: Int,
                            most: inout Reductions) {
        var state = channelStates[channel]
        for frame in 0..<count {
            let reduction = smoothReduction(level: levels[frame], state: &state)
            most.compression = max(most.compression, reduction.compression)
            most.expansion = max(most.expansion, reduction.expansion)
            levels[frame] = makeup[frame] - (reduction.compression + reduction.expansion)
        }
        channelStates[channel] = state
    }

    /// Turns the chunk's gains (dB) into linear gains and applies them.
    @inline(__always) @_noLocks
    mutating func applyGains(_ inputs: UnsafePointer<UnsafePointer<Float>>, _ outputs: UnsafePointer<UnsafeMutablePointer<Float>>,
                             _ count: Int, offset: Int, _ length: Int) {
        for channel in 0..<count {
            let row = levels + channel * Self.chunkFrames
            for frame in 0..<length { row[frame] = Self.exp2Approx(row[frame] * Self.log2OfTenOver20) }
        }
        applyLinearGains(inputs, outputs, count, offset: offset, length)
    }

    /// Applies the chunk's linear gains (each channel's scratch row) to the audio, through the lookahead.
    @inline(__always) @_noLocks
    mutating func applyLinearGains(_ inputs: UnsafePointer<UnsafePointer<Float>>, _ outputs: UnsafePointer<UnsafeMutablePointer<Float>>,
                                   _ count: Int, offset: Int, _ length: Int) {
        if delay.frames == 0 {
            for channel in 0..<count {
                let row = levels + channel * Self.chunkFrames, input = inputs[channel] + offset, output = outputs[channel] + offset
                for frame in 0..<length { output[frame] = input[frame] * row[frame] }
            }
            return
        }
        for frame in 0..<length {
            for channel in 0..<count {
                let sample = delay.exchange(inputs[channel][offset + frame], channel: channel)
                outputs[channel][offset + frame] = sample * levels[channel * Self.chunkFrames + frame]
            }
            delay.advance()
        }
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
        /// `(1 − 1/R)·(x − T)` above it. Branch-free: the knee term saturates at the top of the knee, where
        /// it equals `(1 − 1/R)·W/2`, and the linear term takes over from there.
        @inline(__always) @_noLocks
        func compression(atLevel level: Float) -> Float {
            let over = level - threshold
            let (lower, upper) = (over + halfKnee, over - halfKnee)
            let lifted = lower > 0 ? lower : 0                          // (written as selects: single min/max instructions)
            let into = lifted < 2 * halfKnee ? lifted : 2 * halfKnee
            return compressionKnee * into * into + slope * (upper > 0 ? upper : 0)
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

extension CompressorKernel {
    // MARK: Fast log₂ / exp₂ (no libm on the audio path; both far below 0.001 dB of error)

    static var tenLog10Of2: Float { @_noLocks get { 3.0102999566 } }   // dB per doubling of power
    static var log2OfTenOver20: Float { @_noLocks get { 0.1660964047 } }   // log₂(10)/20: dB → log₂ of amplitude

    /// log₂ of a positive, normal, finite `x`: the exponent plus u·P(u) for the mantissa 1 + u, P a
    /// degree-5 least-squares fit on Chebyshev nodes (error below 3e-6, 1e-5 dB). No division, no branch.
    @inline(__always) @_noLocks
    static func log2Approx(_ x: Float) -> Float {
        let bits = x.bitPattern
        let u = Float(bitPattern: (bits & 0x007f_ffff) | 0x3f80_0000) - 1
        let exponent = Float(Int32(bitPattern: bits >> 23) &- 127)
        let p = 1.4425347796 + u * (-0.7180335904 + u * (0.4571581211 + u * (-0.2773416460 + u * (0.1214729484 + u * -0.0257923450))))
        return exponent + u * p
    }

    /// 2^x for x clamped to −126…126 (NaN reads as −126): a power-of-two scale times a degree-6
    /// Taylor series of e^(f·ln 2), f in [−½, ½] (relative error below 1e-6). Exactly 1 at x = 0.
    /// Branch- and trap-free: the rounding to the nearest integer is done by adding 1.5·2²³.
    @inline(__always) @_noLocks
    static func exp2Approx(_ x: Float) -> Float {
        let clamped = min(x > -126 ? x : -126, 126)
        let rounded = clamped + 12_582_912   // 1.5·2²³: the sum's low mantissa bits are round(clamped)
        let whole = rounded - 12_582_912
        let u = (clamped - whole) * 0.6931471806
        let fraction = 1 + u * (1 + u * (0.5 + u * (0.1666666667 + u * (0.0416666667 + u * (0.0083333333 + u * 0.0013888889)))))
        let exponent = Int32(bitPattern: rounded.bitPattern & 0x007f_ffff) &- 0x0040_0000
        return fraction * Float(bitPattern: UInt32(bitPattern: (exponent &+ 127) &<< 23))
    }
}
