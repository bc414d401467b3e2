// Silence gating of a strip's or bus's units: a unit at rest whose input is exact zeros is skipped. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

extension GraphRender {
    /// Whether the unit at `slot` may be skipped for this chunk: gating is on, its input is exact +0.0
    /// (`isInputSilent`), no bypass crossfade or handover mirror involves it, and it is at rest (``UnitRest``).
    /// Then its clocks have been advanced by `frames` (by the same call) and the caller points its output channels at ``silence``:
    /// bit-identical to running it, by the rest contract, so the first non-zero sample runs it from its rest
    /// state in the same chunk. Counts the skip in ``UnitSlot/gatedChunks``.
    mutating func skipsAtRest(_ slot: UnsafeMutablePointer<UnitSlot>, isInputSilent: Bool, frames: Int) -> Bool {
        guard isInputSilent, slot.pointee.bypass.isSettled, slot.pointee.bypass.value == 0, slot.pointee.mirror == nil,
              let rest = slot.pointee.functions.rest, rest.check(slot.pointee.state, Int32(frames)) else { return false }
        slot.pointee.gatedChunks &+= 1
        return true
    }

    /// Whether the first `channels` channels of `samples` are exact +0.0 for `frames` frames, when gating is on
    /// (false when off, so nothing is skipped).
    func isExactSilence(_ samples: UnsafePointer<UnsafePointer<Float>>, channels: Int, frames: Int) -> Bool {
        guard isGatingEnabled else { return false }
        for channel in 0..<channels where !Self.isExactSilence(samples[channel], frames: frames) { return false }
        return true
    }

    /// Whether `frames` samples at `samples` are all +0.0 (bit pattern 0; −0.0 counts as sound).
    @_noLocks
    static func isExactSilence(_ samples: UnsafePointer<Float>, frames: Int) -> Bool {
        var any: UInt32 = 0
        var frame = 0
        while frame < frames {
            let end = min(frames, frame + 64)
            for index in frame..<end { any |= samples[index].bitPattern }
            if any != 0 { return false }
            frame = end
        }
        return true
    }
}
