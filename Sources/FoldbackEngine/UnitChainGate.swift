// Silence gating of a strip's or bus's units: a unit at rest whose input is exact zeros is skipped. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

extension GraphRender {
    /// Whether the unit at `slot` may be skipped for this chunk: gating is on, its input is exact +0.0
    /// (`isInputSilent`), no bypass crossfade or handover mirror involves it, and it is at rest (``UnitRest``).
    /// Then its clocks have been advanced by `frames` (by the same call; once known at rest, by ``UnitRest/advance``
    /// alone, until ``UnitSlot/isKnownAtRest`` is cleared) and the caller points its output channels at ``silence``:
    /// bit-identical to running it, by the rest contract, so the first non-zero sample runs it from its rest
    /// state in the same chunk. Counts the skip in ``UnitSlot/gatedChunks``.
    /// (Static, as everything the chain loop calls per unit: a method on the graph made the loop copy the whole graph.)
    static func skipsAtRest(_ slot: UnsafeMutablePointer<UnitSlot>, isInputSilent: Bool, frames: Int) -> Bool {
        guard isInputSilent, slot.pointee.bypass.isSettled, slot.pointee.bypass.value == 0, slot.pointee.mirror == nil,
              let rest = slot.pointee.functions.rest else { return false }
        if slot.pointee.isKnownAtRest, let advance = rest.advance {
            restAgain(slot, advance: advance, eachChunk: rest.advancesEachChunk, frames: frames)
        } else if rest.check(slot.pointee.state, Int32(frames)) {
            slot.pointee.isKnownAtRest = true
        } else {
            return false
        }
        slot.pointee.gatedChunks &+= 1
        return true
    }

    /// Another chunk of `frames` frames for a unit known at rest whose rest has an `advance`: owed to its clocks,
    /// paid before anything reaches the unit, or advanced now when the unit asks for each chunk.
    @inline(__always)
    static func restAgain(
        _ slot: UnsafeMutablePointer<UnitSlot>, advance: @convention(c) (UnsafeMutableRawPointer, Int32) -> Void, eachChunk: Bool, frames: Int
    ) {
        if eachChunk {
            advance(slot.pointee.state, Int32(frames))
        } else {
            slot.pointee.restFrames += frames
            if slot.pointee.restFrames >= 1 << 28 { Self.settleRest(slot) }
        }
    }

    /// Pays a unit known at rest the clock frames it is owed (``UnitSlot/restFrames``) through ``UnitRest/advance``,
    /// and forgets that it is at rest: called before it processes or a parameter or reset reaches it, so it meets
    /// them as if every skipped chunk had advanced it (advancing by a + b frames is advancing by a, then b).
    @inline(__always)
    static func wake(_ slot: UnsafeMutablePointer<UnitSlot>) {
        settleRest(slot)
        slot.pointee.isKnownAtRest = false
    }

    /// Pays the owed clock frames, if any.
    @inline(__always)
    static func settleRest(_ slot: UnsafeMutablePointer<UnitSlot>) {
        guard slot.pointee.restFrames > 0 else { return }
        if let advance = slot.pointee.functions.rest?.advance { advance(slot.pointee.state, Int32(slot.pointee.restFrames)) }
        slot.pointee.restFrames = 0
    }

    /// Pays every unit of this graph its owed clock frames: before a graph that continues its units takes over.
    mutating func settleRestClocks() {
        var count = 0
        for strip in 0..<stripCount { count += Int(strips[strip].unitCount) }
        for bus in 0..<busCount { count += Int(buses[bus].unitCount) }
        for index in 0..<count { Self.settleRest(units + index) }
    }

    /// Whether the first `channels` channels of `samples` are exact +0.0 for `frames` frames, when gating is on
    /// (false when off, so nothing is skipped).
    func isExactSilence(_ samples: UnsafePointer<UnsafePointer<Float>>, channels: Int, frames: Int) -> Bool {
        Self.isExactSilence(samples, channels: channels, frames: frames, silence: UnsafePointer(silence), isEnabled: isGatingEnabled)
    }

    /// Whether the first `channels` channels of `samples` are exact +0.0 for `frames` frames (a channel at
    /// `silence`, the graph's zeros, without reading it), when `isEnabled`.
    @inline(__always)
    static func isExactSilence(
        _ samples: UnsafePointer<UnsafePointer<Float>>, channels: Int, frames: Int, silence: UnsafePointer<Float>, isEnabled: Bool
    ) -> Bool {
        guard isEnabled else { return false }
        for channel in 0..<channels where samples[channel] != silence && !isExactSilence(samples[channel], frames: frames) { return false }
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
