// The limiter's release-tail fast path: gains for chunks with nothing over and nothing held. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

extension LimiterKernel {
    /// Whether the chunk of `frames` frames from `offset` can take ``releaseTailGains(frames:)``: no ceiling
    /// glide, every hold 1 (then the deque holds only 1s: its minimum is the latest hold) and no sample over.
    @inline(__always) @_noLocks
    func isReleaseTail(_ inputs: UnsafePointer<UnsafePointer<Float>>, channels count: Int, offset: Int, frames: Int) -> Bool {
        reducedHolds == 0 && glideFrames == 0 && Self.isWithin(inputs, channels: count, offset: offset, frames: frames, limit: ceiling)
    }

    /// Steps 1–4 for `frames` (≤ ``chunkFrames``) frames that ``isReleaseTail(_:channels:offset:frames:)``:
    /// every required gain, hold and attack depth is exactly what the per-frame path computes there (1, 1
    /// and 0), so only the release runs, bit for bit as the per-frame path runs it; the gains go to
    /// ``chunkGain`` and the history moves on as the per-frame path leaves it. Returns the deepest reduction.
    ///
    /// With attack depth 0 the per-frame step is `depth ≤ snap ? 0 : depth + (0 − depth)·step`. Above the
    /// snap the depth is positive, so `(0 − depth)·step` is exactly `−(depth·step)` (rounding is symmetric)
    /// and the step is exactly `depth − depth·step`: one rounding fewer on the loop's critical path. Once the
    /// depth has snapped to 0 it stays there (the release never rises), so the rest of the chunk is gain 1.
    @inline(__always) @_noLocks
    mutating func releaseTailGains(frames: Int) -> Float {
        let step = releaseStep, snap = Self.releaseSnap, gains = chunkGain
        var depth = self.depth, deepest: Float = 0, index = 0
        while index < frames && depth > snap {
            depth -= depth * step
            if depth > deepest { deepest = depth }
            gains[index] = 1 - depth
            index &+= 1
        }
        if index < frames {
            depth = 0
            (gains + index).update(repeating: 1, count: frames - index)
        }
        self.depth = depth
        restHistory(frames: frames)
        return deepest
    }

    /// The gain history after `frames` frames that each required gain 1 with every hold already 1: the holds
    /// stay 1 (Σ(1 − h) 0) and move on, and the deque keeps only the last frame's 1 (what the per-frame
    /// path's pops leave: every older entry is ≥ 1).
    @inline(__always) @_noLocks
    mutating func restHistory(frames: Int) {
        holdIndex = (holdIndex + frames) % window
        deficit = 0
        if frames > 0 {
            dequeHead = 0
            dequeCount = 1
            dequeGains[0] = 1
            dequeFrames[0] = frame &+ (frames - 1)
            frame &+= frames
        }
    }
}
