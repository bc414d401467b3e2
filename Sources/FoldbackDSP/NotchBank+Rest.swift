// The notch bank at rest, for silence gating: every placed notch's filter state exactly zero. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

extension NotchBank {
    /// Whether filtering exact zeros would write exact +0.0 and leave every filter state zero: each placed notch's
    /// state is exactly zero (a notch that glides meanwhile only changes coefficients, which zeros do not reach).
    public func isAtRest() -> Bool {
        for index in 0..<Self.maximumNotches where depth(index) != 0 || !isSettled(index) {
            guard isStateZero(index) else { return false }
        }
        return true
    }

    /// Moves the glides by `frames` frames of zeros, chunk by chunk as ``process(inputs:outputs:frames:)`` does,
    /// without filtering: at rest the filters would only carry zeros through.
    public mutating func advanceAtRest(frames: Int) {
        guard isGliding else {   // each pass would only move the chunk phase
            chunkPhase = (chunkPhase + frames) % Self.chunkFrames
            return
        }
        var done = 0
        while done < frames { done += beginPass(upTo: frames - done) }
    }
}
