// Test-only: the limiter's algorithm as its documentation states it, one frame at a time with plain arrays.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import Foundation

/// The brickwall limiter of ``LimiterKernel``'s documentation, written frame by frame as plainly as possible:
/// the hold is the minimum over an array of the last W required gains, the audio waits in an array FIFO, and no
/// path is skipped. Its arithmetic is the kernel's (the same Float/Double expressions in the same order: the
/// running Σ(1 − h) restarts at 0 whenever every hold is 1), so the kernel must match it bit for bit.
struct LimiterReferenceModel: BlockKernel {
    let channels: Int
    let sampleRate: Double
    let window: Int
    private var fifo: [[Float]]   // a ring per channel: the oldest sample at `fifoCursor`
    private var fifoCursor = 0
    private var frame: [Float]
    private var required: [Float]
    private var holds: [Float]
    private var held: Float = 1   // the minimum of `required`
    private var cursor = 0
    private var deficit: Double = 0
    private var reducedHolds = 0
    private var depth: Float = 0
    private var ceiling: Float
    private var ceilingTarget: Float
    private var ceilingStep: Float = 0
    private var glideFrames = 0
    private var releaseStep: Float = 1
    /// The deepest 1 − gain of the last block, and every frame's 1 − gain so far.
    private(set) var blockDepth: Float = 0
    private(set) var depths: [Float] = []

    init(sampleRate: Double, channels: Int, ceilingDB: Float, lookaheadMs: Float, releaseMs: Float) {
        self.channels = channels
        self.sampleRate = sampleRate
        let lookahead = Int((Double(min(max(lookaheadMs, 0), LimiterKernel.maximumLookaheadMs)) * sampleRate / 1000).rounded())
        window = lookahead + 1
        fifo = Array(repeating: Array(repeating: 0, count: lookahead), count: channels)
        frame = Array(repeating: 0, count: channels)
        required = Array(repeating: 1, count: window)
        holds = Array(repeating: 1, count: window)
        ceiling = Decibels.linearGain(fromDecibels: ceilingDB)
        ceilingTarget = ceiling
        update(ceilingDB: ceilingDB, releaseMs: releaseMs)
    }

    /// A new ceiling glides over the window; the release step is 1 − e^(−1/(τ·fs)).
    mutating func update(ceilingDB: Float, releaseMs: Float) {
        let target = Decibels.linearGain(fromDecibels: ceilingDB)
        if target != ceilingTarget { (ceilingTarget, glideFrames, ceilingStep) = (target, window, (target - ceiling) / Float(window)) }
        let tau = Double(releaseMs) / 1000 * sampleRate   // in frames
        releaseStep = tau > 0 ? Float(1 - exp(-1 / tau)) : 1
    }

    /// The reduction reading: the deepest 1 − gain of the last block, in dB.
    var gainReductionDB: Float { Self.reading(depth: blockDepth) }

    /// The reduction reading of a block whose deepest 1 − gain is `depth`.
    static func reading(depth: Float) -> Float {
        depth > 0 ? -Decibels.decibels(fromLinearGain: max(1 - depth, 1e-20)) : 0
    }

    mutating func process(
        inputs: UnsafePointer<UnsafePointer<Float>>, outputs: UnsafePointer<UnsafeMutablePointer<Float>>, channels: Int, frames: Int
    ) {
        blockDepth = 0
        for index in 0..<frames {
            for channel in 0..<channels { frame[channel] = inputs[channel][index] }
            step()
            for channel in 0..<channels { outputs[channel][index] = frame[channel] }
        }
    }

    func deallocate() {}

    /// One frame (`frame` in, then out): the required gain, the hold, its moving average, the release, the delayed audio.
    private mutating func step() {
        if glideFrames > 0 {
            glideFrames -= 1
            ceiling = ceilingTarget - ceilingStep * Float(glideFrames)
        }
        let peak = frame.reduce(Float(0)) { abs($1) > $0 ? abs($1) : $0 }   // NaN never wins
        var gain: Float = 1
        if peak > ceiling { gain = max(ceiling / peak, 1e-20) }
        let leavingGain = required[cursor]
        required[cursor] = gain
        if gain <= held {
            held = gain
        } else if leavingGain == held {
            held = required.min()!   // the minimum left the window: look again
        }
        let leaving = holds[cursor]
        holds[cursor] = held
        cursor = (cursor + 1) % window
        reducedHolds += (held != 1 ? 1 : 0) - (leaving != 1 ? 1 : 0)
        var attack: Float = 0
        if reducedHolds == 0 {
            deficit = 0
        } else {
            deficit += Double(1 - held) - Double(1 - leaving)
            attack = max(Float(deficit * (1 / Double(window))), 0)   // (times 1/W, as the kernel)
        }
        if depth - attack <= 1e-6 {
            depth = attack
        } else {
            depth += (attack - depth) * releaseStep
        }
        blockDepth = max(blockDepth, depth)
        depths.append(depth)
        for channel in 0..<channels {
            var delayed = frame[channel]
            if window > 1 { swap(&delayed, &fifo[channel][fifoCursor]) }
            let sample = delayed * (1 - depth)
            frame[channel] = abs(sample) <= ceiling ? sample : (sample > 0 ? ceiling : (sample < 0 ? -ceiling : 0))
        }
        if window > 1 { fifoCursor = (fifoCursor + 1) % (window - 1) }
    }
}
