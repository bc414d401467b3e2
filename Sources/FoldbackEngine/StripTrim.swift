// A strip's input trim before its units and the compensation its sends apply (gain-compensated trim). Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

extension GraphRender {
    /// Scales the strip's input (``stripChannels``) by its trim into its work buffers B (the first unit reads
    /// them and writes A; a mono return's fold in B1 is read before B0 is written) and works out the send
    /// compensation for this chunk: `sendTrim / trim`, a scalar when both are steady, else frame by frame in
    /// ``compensationFrames`` (the exact inverse of the trim ramp, so a compensated move leaves every send still).
    mutating func applyTrim(_ strip: UnsafeMutablePointer<StripRender>, channels: Int, frames: Int) {
        let isSteady = Self.isTrimSteady(strip)
        isCompensationRamping = !isSteady
        if isSteady {
            let trim = strip.pointee.trim.value
            compensation = strip.pointee.sendTrim.value / strip.pointee.trimAtSends.value
            guard trim != 1 else { return }
            for channel in 0..<channels {
                MixKernels.scale(stripChannels[channel], into: strip.pointee.work[2 + channel], gain: trim, frames: frames)
                stripChannels[channel] = UnsafePointer(strip.pointee.work[2 + channel])
            }
            return
        }
        strip.pointee.trim.fill(trimFrames, count: frames)
        for frame in 0..<frames {
            startPendingRamps(strip)
            compensationFrames[frame] = strip.pointee.sendTrim.next() / strip.pointee.trimAtSends.next()
        }
        for channel in 0..<channels {
            let source = stripChannels[channel], destination = strip.pointee.work[2 + channel]
            for frame in 0..<frames { destination[frame] = source[frame] * trimFrames[frame] }
            stripChannels[channel] = UnsafePointer(destination)
        }
    }

    /// Whether the strip's trim and its sends' compensation hold still for this chunk (no ramp, none pending).
    static func isTrimSteady(_ strip: UnsafeMutablePointer<StripRender>) -> Bool {
        strip.pointee.trim.isSettled && strip.pointee.trimAtSends.isSettled && strip.pointee.sendTrim.isSettled && strip.pointee.pendingFrames < 0
    }

    /// Counts one frame down toward the sends' ramps and starts them when the units' latency has passed.
    private func startPendingRamps(_ strip: UnsafeMutablePointer<StripRender>) {
        guard strip.pointee.pendingFrames >= 0 else { return }
        if strip.pointee.pendingFrames == 0 {
            strip.pointee.trimAtSends.setTarget(strip.pointee.pendingTrim)
            strip.pointee.sendTrim.setTarget(strip.pointee.pendingSendTrim)
        }
        strip.pointee.pendingFrames -= 1
    }

    /// Keeps a silent strip's trim ramps on schedule.
    func advanceTrim(of strip: UnsafeMutablePointer<StripRender>, frames: Int) {
        strip.pointee.trim.advance(by: frames)
        let waiting = min(frames, max(Int(strip.pointee.pendingFrames) + 1, 0))
        for _ in 0..<waiting {
            startPendingRamps(strip)
            strip.pointee.trimAtSends.advance(by: 1)
            strip.pointee.sendTrim.advance(by: 1)
        }
        strip.pointee.trimAtSends.advance(by: frames - waiting)
        strip.pointee.sendTrim.advance(by: frames - waiting)
    }

    /// Sets a strip's trim to `trimDB`; `compensated` holds what its sends hear (the inverse goes to every
    /// send), else the sends follow the trim. Both ramps start together and last the same time.
    mutating func setTrim(ofStrip index: Int, to trimDB: Float, compensated: Bool) {
        let strip = strips + index
        if compensated { strip.pointee.compensationDB -= trimDB - strip.pointee.trimDB }
        strip.pointee.trimDB = trimDB
        retargetTrim(strip)
    }

    /// Sets the compensation a strip's sends apply to `compensationDB` (as a compensated move leaves it).
    mutating func setTrimCompensation(ofStrip index: Int, to compensationDB: Float) {
        strips[index].compensationDB = compensationDB
        retargetTrim(strips + index)
    }

    /// Starts the input trim's ramp now and the sends' ramps once the units' latency has passed (a move still
    /// waiting from before starts its ramps at once).
    private func retargetTrim(_ strip: UnsafeMutablePointer<StripRender>) {
        strip.pointee.trim.setTarget(Decibels.linearGain(fromDecibels: strip.pointee.trimDB))
        if strip.pointee.pendingFrames >= 0 {
            strip.pointee.pendingFrames = 0
            startPendingRamps(strip)
        }
        strip.pointee.pendingTrim = Decibels.linearGain(fromDecibels: strip.pointee.trimDB)
        strip.pointee.pendingSendTrim = Decibels.linearGain(fromDecibels: strip.pointee.trimDB + strip.pointee.compensationDB)
        strip.pointee.pendingFrames = strip.pointee.unitLatency
    }

    /// The per-frame send gains of the strip being mixed with the ramping compensation applied: (pre, post).
    func compensatedFrames(pre: UnsafeMutablePointer<Float>, post: UnsafeMutablePointer<Float>, frames: Int)
        -> (pre: UnsafeMutablePointer<Float>, post: UnsafeMutablePointer<Float>)
    {
        for frame in 0..<frames {
            compensatedPre[frame] = pre[frame] * compensationFrames[frame]
            compensatedPost[frame] = post[frame] * compensationFrames[frame]
        }
        return (compensatedPre, compensatedPost)
    }
}
