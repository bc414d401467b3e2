// The feed-forward compressor/expander DSP kernel behind the built-in `compressor` unit. Realtime: process runs on the audio thread.
// SPDX-License-Identifier: GPL-3.0-or-later
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
/// lookahead. Auto makeup is ``autoMakeupDB(for:)``. With RMS detection everything after the mean square
/// runs once per sub-block of ``subBlockFrames`` frames and the linear gain is interpolated across it
/// (see ``processSubBlocks(inputs:outputs:count:frames:)``).
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
    /// RMS detection runs ``processSubBlocks(inputs:outputs:count:frames:)``: the gain computer once per
    /// sub-block of ``subBlockFrames`` frames. Peak detection runs frame by frame, as follows.
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

    /// One frame of the peak detector: advances the mean square by `power` (so switching to RMS starts from
    /// the current level) and returns `power`, floored at ``powerFloor`` (NaN reads as the floor).
    @inline(__always) @_noLocks
    func detectorPower(_ sample: Float, _ meanSquare: inout Float) -> Float {
        let power = sample * sample
        let average = meanSquare * rmsCoefficient + power * (1 - rmsCoefficient)
        meanSquare = average > Self.powerFloor ? average : Self.powerFloor
        return power > Self.powerFloor ? power : Self.powerFloor
    }

    /// The detector levels of `count` samples of one channel in dBFS (floored at −200 dB).
    @inline(__always) @_noLocks
    func detect(_ input: UnsafePointer<Float>, into levels: UnsafeMutablePointer<Float>, _ count: Int, channel: Int) {
        var meanSquare = channelStates[channel].meanSquare
        for frame in 0..<count { levels[frame] = detectorPower(input[frame], &meanSquare) }
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
            let level = Self.log2Approx(detectorPower(input[frame], &meanSquare)) * Self.tenLog10Of2
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
