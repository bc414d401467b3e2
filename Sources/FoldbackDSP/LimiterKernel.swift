// The brickwall lookahead limiter kernel run on every bus. Realtime: process runs on the audio thread.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stereo-linked brickwall limiter whose output sample peak never exceeds the ceiling.
///
/// With lookahead D frames and window W = D + 1, per frame n:
/// 1. required gain r[n] = min(1, ceiling / max over channels |x[n]|) (exactly 1 when nothing is over);
/// 2. hold h[n] = min of r over the last W frames (a preallocated monotonic deque);
/// 3. attack a[n] = mean of h over the last W frames: each of those holds covers frame n − D, so
///    a[n] ≤ r[n − D], and the attack completes within the lookahead;
/// 4. release g[n] = a[n] when a falls, else an exponential approach to a[n] with time constant
///    `releaseMs` in the linear gain domain (1 − 1/e of the way in that time), landing once within 1e-6;
/// 5. output y[n] = x[n − D]·g[n], then clamped at ±ceiling as a float-rounding safety net (a non-finite
///    product becomes ±ceiling or, for NaN, 0).
/// Without overs every gain is exactly 1.0, so the signal passes bit-exact, delayed by ``latencyFrames``.
/// A block that starts at rest (gain 1, nothing held) and has no sample over the ceiling takes that path as
/// whole-block copies through the lookahead line (the same output, bit for bit, as the per-frame path); a
/// chunk of a release tail (nothing over, nothing held) runs only the release recurrence for its gains.
/// A ceiling change glides over the lookahead window; frames already in the lookahead line are clamped to it.
///
/// Memory is allocated by `init`; the kernel is a value holding pointers, so copies share it: call
/// ``deallocate()`` exactly once.
public struct LimiterKernel: @unchecked Sendable {
    /// The longest lookahead, in milliseconds.
    public static let maximumLookaheadMs: Float = 2
    /// Required gains never go below this (−400 dB), which keeps the state normal for absurd inputs.
    static let smallestGain: Float = 1e-20
    /// A release closer than this to its target lands on it, so the gain returns to exactly 1.
    static var releaseSnap: Float { @_noLocks get { 1e-6 } }

    /// Frames by which the audio is delayed (the lookahead D).
    public var latencyFrames: Int { delay.frames }
    /// Channels processed (all share one gain).
    public let channels: Int
    /// The ceiling in dBFS.
    public private(set) var ceilingDB: Float
    /// The release time constant in milliseconds.
    public private(set) var releaseMs: Float
    let sampleRate: Double
    let window: Int
    let inverseWindow: Double
    /// The ceiling in force (linear), gliding to `ceilingTarget` in `glideFrames` steps of `ceilingStep`.
    var ceiling: Float = 1
    var ceilingTarget: Float = 1
    var ceilingStep: Float = 0
    var glideFrames = 0
    var releaseStep: Float = 1   // 1 − exp(−1/(τ·fs))

    /// The lookahead: the audio waits `latencyFrames` frames while the gain looks ahead.
    var delay: LookaheadDelay
    /// Monotonic deque of (required gain, frame) over the window: a ring of `window` entries.
    let dequeGains: UnsafeMutablePointer<Float>
    let dequeFrames: UnsafeMutablePointer<Int>
    var dequeHead = 0
    var dequeCount = 0
    var frame = 0
    /// The last `window` held gains, for the moving average, with Σ(1 − h) and how many are not 1.
    let holds: UnsafeMutablePointer<Float>
    var holdIndex = 0
    var deficit: Double = 0
    var reducedHolds = 0
    /// 1 − the gain (kept as the depth so the release keeps full precision close to unity gain).
    var depth: Float = 0
    var blockMaximumDepth: Float = 0
    /// Frames the per-frame path handles at a time: the length of its two scratch rows.
    static let chunkFrames = 64
    /// Each frame's gain and ceiling in force, for the current chunk.
    let chunkGain: UnsafeMutablePointer<Float>
    let chunkLimit: UnsafeMutablePointer<Float>

    /// A limiter for `channels` channels at `sampleRate`; `lookaheadMs` is clamped to 0…2 ms.
    public init(sampleRate: Double, channels: Int, ceilingDB: Float = -1, lookaheadMs: Float = 1.5, releaseMs: Float = 50) {
        self.sampleRate = sampleRate
        self.channels = max(1, channels)
        self.ceilingDB = ceilingDB
        self.releaseMs = releaseMs
        let lookahead = lookaheadMs.isNaN ? 0 : min(max(lookaheadMs, 0), Self.maximumLookaheadMs)
        let lookaheadFrames = Int((Double(lookahead) * sampleRate / 1000).rounded())
        delay = LookaheadDelay(channels: self.channels, frames: lookaheadFrames)
        window = lookaheadFrames + 1
        inverseWindow = 1 / Double(window)
        dequeGains = .allocate(capacity: window)
        dequeFrames = .allocate(capacity: window)
        holds = .allocate(capacity: window)
        chunkGain = .allocate(capacity: Self.chunkFrames)
        chunkLimit = .allocate(capacity: Self.chunkFrames)
        update(ceilingDB: ceilingDB, releaseMs: releaseMs)
        reset()
    }

    /// Frees the state. Call once, after the last use of any copy.
    public func deallocate() {
        delay.deallocate()
        dequeGains.deallocate()
        dequeFrames.deallocate()
        holds.deallocate()
        chunkGain.deallocate()
        chunkLimit.deallocate()
    }

    /// Sets the ceiling (dBFS) and the release time constant (ms). Realtime-safe (libm only).
    ///
    /// The ceiling glides linearly (in amplitude) to the new value over the lookahead window (≤ 2 ms), so
    /// a sudden change clicks no more than the signal itself; the output never exceeds the gliding value.
    public mutating func update(ceilingDB: Float, releaseMs: Float) {
        self.ceilingDB = ceilingDB
        self.releaseMs = releaseMs
        let target = Decibels.linearGain(fromDecibels: ceilingDB.isNaN ? 0 : ceilingDB)
        if target != ceilingTarget {
            ceilingTarget = target
            glideFrames = window
            ceilingStep = (target - ceiling) / Float(window)
        }
        let frames = Double(releaseMs) / 1000 * sampleRate
        releaseStep = frames > 0 ? Float(1 - exp(-1 / frames)) : 1
    }

    /// Clears the lookahead line and the gain history: the gain is 1 again.
    public mutating func reset() {
        delay.reset()
        holds.update(repeating: 1, count: window)
        dequeHead = 0
        dequeCount = 0
        frame = 0
        holdIndex = 0
        deficit = 0
        reducedHolds = 0
        depth = 0
        blockMaximumDepth = 0
        ceiling = ceilingTarget
        glideFrames = 0
    }

    /// The largest gain reduction during the last processed block, in dB (≥ 0).
    public var gainReductionDB: Float {
        blockMaximumDepth > 0 ? -Decibels.decibels(fromLinearGain: max(1 - blockMaximumDepth, Self.smallestGain)) : 0
    }

    /// Limits `channels` channels (at most the kernel's) of `frames` frames. In place allowed (inputs[i] == outputs[i]).
    @_noLocks
    public mutating func process(
        inputs: UnsafePointer<UnsafePointer<Float>>,
        outputs: UnsafePointer<UnsafeMutablePointer<Float>>,
        channels requested: Int,
        frames: Int
    ) {
        let count = min(requested, channels)
        if reducedHolds == 0 && depth == 0 && glideFrames == 0
            && Self.isWithin(inputs, channels: count, offset: 0, frames: frames, limit: ceiling) {
            passThrough(inputs: inputs, outputs: outputs, channels: count, frames: frames)
            return
        }
        var deepest: Float = 0, done = 0
        while done < frames {   // in chunks: the gains for a chunk, then each channel through the line
            let chunk = min(frames - done, Self.chunkFrames)
            if isReleaseTail(inputs, channels: count, offset: done, frames: chunk) {
                if depth == 0 {
                    restHistory(frames: chunk)
                    throughLine(inputs, outputs, channels: count, offset: done, frames: chunk, gains: .unity)
                } else {
                    deepest = max(deepest, releaseTailGains(frames: chunk))
                    throughLine(inputs, outputs, channels: count, offset: done, frames: chunk, gains: .scaled)
                }
            } else {
                let gliding = glideFrames > 0   // (the ceiling is constant over the chunk otherwise)
                deepest = max(deepest, chunkGains(inputs, channels: count, offset: done, frames: chunk))
                if gliding {
                    throughLine(inputs, outputs, channels: count, offset: done, frames: chunk, gains: .scaledAndGliding)
                } else {
                    throughLine(inputs, outputs, channels: count, offset: done, frames: chunk, gains: .scaled)
                }
            }
            done += chunk
        }
        blockMaximumDepth = deepest
    }

    /// Steps 1–4 for `frames` (≤ ``chunkFrames``) frames from `offset`: each frame's gain and ceiling into
    /// ``chunkGain`` and ``chunkLimit``. Returns the deepest reduction (1 − gain).
    @inline(__always) @_noLocks
    mutating func chunkGains(_ inputs: UnsafePointer<UnsafePointer<Float>>, channels count: Int, offset: Int, frames: Int) -> Float {
        let peaks = chunkGain   // the frame peaks first, then the gains in their place
        peaks.update(repeating: 0, count: frames)
        for channel in 0..<count {
            let samples = inputs[channel] + offset
            for index in 0..<frames {
                let magnitude = abs(samples[index])
                if magnitude > peaks[index] { peaks[index] = magnitude }   // (NaN ignored)
            }
        }
        var deepest: Float = 0
        for index in 0..<frames {
            if glideFrames > 0 {
                glideFrames -= 1
                ceiling = ceilingTarget - ceilingStep * Float(glideFrames)
            }
            let limit = ceiling, peak = peaks[index]
            var required: Float = 1
            if peak > limit {
                required = limit / peak
                if !(required >= Self.smallestGain) { required = Self.smallestGain }
            }
            let attackDepth = movingDepth(of: slidingMinimum(adding: required))
            if depth - attackDepth <= Self.releaseSnap {
                depth = attackDepth
            } else {
                depth += (attackDepth - depth) * releaseStep
            }
            if depth > deepest { deepest = depth }
            chunkGain[index] = 1 - depth
            chunkLimit[index] = limit
        }
        return deepest
    }

    /// Pushes this frame's required gain and returns the minimum over the last `window` frames.
    @inline(__always) @_noLocks
    mutating func slidingMinimum(adding required: Float) -> Float {
        if dequeCount > 0 && dequeFrames[dequeHead] <= frame - window {   // at most one leaves per frame
            dequeHead += 1
            if dequeHead == window { dequeHead = 0 }
            dequeCount -= 1
        }
        while dequeCount > 0 {
            var back = dequeHead + dequeCount - 1
            if back >= window { back -= window }
            if dequeGains[back] < required { break }
            dequeCount -= 1
        }
        var slot = dequeHead + dequeCount
        if slot >= window { slot -= window }
        dequeGains[slot] = required
        dequeFrames[slot] = frame
        dequeCount += 1
        frame &+= 1
        return dequeGains[dequeHead]
    }

    /// Pushes a held gain and returns 1 − the mean of the last `window` held gains (exactly 0 when all are 1).
    @inline(__always) @_noLocks
    mutating func movingDepth(of held: Float) -> Float {
        let leaving = holds[holdIndex]
        holds[holdIndex] = held
        holdIndex += 1
        if holdIndex == window { holdIndex = 0 }
        if leaving != 1 { reducedHolds -= 1 }
        if held != 1 { reducedHolds += 1 }
        if reducedHolds == 0 {
            deficit = 0
            return 0
        }
        deficit += Double(1 - held) - Double(1 - leaving)
        return max(Float(deficit * inverseWindow), 0)
    }
}
