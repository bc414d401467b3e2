// The EQ kernel at rest, for silence gating: every filter state exactly zero, nothing gliding or fading. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

extension EQKernel {
    /// Whether processing `frames` of exact zeros would write exact +0.0 and change no state but
    /// ``chunkPhase``: the plan is valid (nothing gliding, fading or pending), the output gain is settled and
    /// not negative, and every planned section's state (in its pipeline where one holds it) is exactly zero.
    /// (`mutating` only so that a caller passes the kernel by address: as a plain method it was copied whole for each call.)
    public mutating func isAtRest() -> Bool {
        guard isPlanValid, glidingBands == 0, outputGain.isSettled, outputGain.value.sign == .plus else { return false }
        for index in 0..<bandCount where bands[index].fadeFrames > 0 || bands[index].isTypePending { return false }
        return plan.isAtRest(sections)
    }

    /// Moves the chunk clock by `frames`, as ``process(inputs:outputs:frames:)`` does at rest.
    public mutating func advanceAtRest(frames: Int) {
        chunkPhase = (chunkPhase + frames) % Self.chunkFrames
    }
}

extension EQCascadePlan {
    /// Whether every planned section's state is exactly zero, read where ``sanitize(_:)`` reads it (a mixed
    /// run's from its pipeline, with the pipeline's registers).
    mutating func isAtRest(_ sections: UnsafeMutablePointer<EQSection>) -> Bool {
        var next = 0
        for run in 0..<runs {
            let length = min(count - next, 10)
            if isMixed[run] {
                let pipe = pipes[run]
                guard pipe.d.s1 == .zero, pipe.d.s2 == .zero, pipe.yd == .zero,
                      pipe.f0.s1 == .zero, pipe.f0.s2 == .zero, pipe.f1.s1 == .zero, pipe.f1.s2 == .zero,
                      pipe.y0 == .zero, pipe.y1 == .zero else { return false }
            } else if !Self.isAtRest(sections + next, count: length) {
                return false
            }
            next += length
        }
        return Self.isAtRest(sections + next, count: count - next)
    }

    private static func isAtRest(_ sections: UnsafeMutablePointer<EQSection>, count: Int) -> Bool {
        for index in 0..<count where sections[index].s1 != .zero || sections[index].s2 != .zero { return false }
        return true
    }
}
