// The compressor kernel at rest, for silence gating: its detector at the floor on digital silence, no gain reduction, the lookahead line silent. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

extension CompressorKernel {
    /// Whether processing zeros would write exact +0.0 and change nothing but the clocks (sub-block phase, the
    /// peak hold): the expander off, no compression now or at the floor's level, the makeup settled, the last
    /// block published no reduction, the lookahead line (if any) all +0.0, and the detector at the floor: with
    /// peak detection each channel's mean square at the floor; with RMS detection the sub-block state current,
    /// each channel's running power at the floor with nothing pending and its gain ramp flat at the makeup's gain.
    /// (`mutating` only so that a caller passes the kernel by address: as a plain method it was copied whole for each call.)
    public mutating func isAtRest() -> Bool {
        guard curve.expanderSlope == 0, makeupDB == makeupTargetDB, blockCompressionDB == 0, blockExpansionDB == 0,
              curve.compression(atLevel: Self.restLevel) == 0, isRMS == isSubBlockStateCurrent else { return false }
        let makeupGain = Self.exp2Approx(makeupDB * Self.log2OfTenOver20)
        for channel in 0..<channels {
            let state = channelStates[channel]
            guard state.compression == 0, state.expansion == 0 else { return false }
            if isRMS {
                guard state.meanSquareAtStart == Self.powerFloor, state.pendingPower == 0,
                      state.gainStart == makeupGain, state.gainEnd == makeupGain else { return false }
            } else if state.meanSquare != Self.powerFloor {
                return false
            }
        }
        return delay.frames == 0 || delay.holdsOnlyZeros()
    }

    /// Moves the clocks by `frames` as ``process(inputs:outputs:channels:frames:)`` does at rest: the lookahead
    /// line's position, the sub-block phase, and each channel's peak hold over levels all at ``restLevel``
    /// (per frame with peak detection, per sub-block boundary crossed with RMS detection).
    public mutating func advanceAtRest(frames: Int) {
        delay.advance(by: frames)
        if isRMS {
            let boundaries = (subBlockPhase + frames) / Self.subBlockFrames
            subBlockPhase = (subBlockPhase + frames) & (Self.subBlockFrames - 1)
            for channel in 0..<channels {
                for _ in 0..<boundaries { holdSubBlock(level: Self.restLevel, state: channelStates + channel) }
            }
            return
        }
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
