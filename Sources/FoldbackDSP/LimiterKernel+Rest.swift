// The limiter at rest, for silence gating: nothing held, no reduction, no glide, the lookahead line all +0.0. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

extension LimiterKernel {
    /// Whether limiting `frames` frames of exact +0.0 would write +0.0 and change nothing but the clocks: every
    /// hold 1, no reduction, no ceiling glide and the lookahead line all +0.0. When it would, moves the clocks
    /// (the line's position, the gain history) by `frames` as ``process(inputs:outputs:channels:frames:)``'s
    /// at-rest path does and returns true, so the caller skips `process` and leaves its +0.0 output as it is.
    @_noLocks
    public mutating func skipsAtRest(frames: Int) -> Bool {
        guard reducedHolds == 0, depth == 0, glideFrames == 0, delay.holdsOnlyZeros() else { return false }
        restAgain(frames: frames)
        return true
    }

    /// Another `frames` frames of +0.0 for a limiter that ``skipsAtRest(frames:)`` found at rest and nothing has
    /// reached since: its clocks only (what that call does once its checks pass; they still would, so they are not
    /// read again).
    @_noLocks
    public mutating func restAgain(frames: Int) {
        delay.advance(by: frames)
        restHistory(frames: frames)
        blockMaximumDepth = 0
    }
}
