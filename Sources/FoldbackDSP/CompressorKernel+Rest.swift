// The compressor kernel at rest, for silence gating: peak detection on digital silence, no gain reduction, no lookahead. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

extension CompressorKernel {
    /// Whether processing zeros would write exact +0.0 and change nothing but the clocks (sub-block phase, the
    /// expander's peak hold): peak detection with its mean square at the floor, no lookahead, the expander off,
    /// no compression now or at the floor's level, the makeup settled, and the last block published no reduction.
    /// (RMS detection and a lookahead are never at rest in this first stage.)
    public func isAtRest() -> Bool {
        guard !isRMS, !isSubBlockStateCurrent, delay.frames == 0, curve.expanderSlope == 0, makeupDB == makeupTargetDB,
              blockCompressionDB == 0, blockExpansionDB == 0, curve.compression(atLevel: Self.restLevel) == 0 else { return false }
        for channel in 0..<channels {
            let state = channelStates[channel]
            guard state.meanSquare == Self.powerFloor, state.compression == 0, state.expansion == 0 else { return false }
        }
        return true
    }

    /// Moves the clocks by `frames` as ``process(inputs:outputs:channels:frames:)`` does at rest: the sub-block
    /// phase, and each channel's peak hold over levels all at ``restLevel``.
    public mutating func advanceAtRest(frames: Int) {
        subBlockPhase = (subBlockPhase + frames) & (Self.subBlockFrames - 1)
        for channel in 0..<channels {
            var left = frames
            while left > 0 {
                let length = min(left, channelStates[channel].holdRemaining)
                holdWindow(peak: Self.restLevel, length, channel: channel)
                left -= length
            }
        }
    }

    /// The detector's level of a zero sample, dB (its power floor).
    static var restLevel: Float { log2Approx(powerFloor) * tenLog10Of2 }
}
