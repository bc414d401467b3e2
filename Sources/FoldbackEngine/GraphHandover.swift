// Hands continued units (plugin instances that keep running across a graph swap) from the old graph to the new one at takeover, and replays their output in the fading-out graph. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// One unit a graph continues from its predecessor, and what its takeover does.
///
/// The unit's state is run by exactly one graph at a time: the predecessor until the audio thread takes
/// the new graph, then the new graph only. While the predecessor fades out it still renders its strips,
/// so its slot for the unit is switched to a mirror that replays what the new graph's slot produced in
/// the same chunk (the new graph renders first): both graphs hear the one running instance.
struct UnitHandover {
    /// The continued slot, in this graph's `units`.
    var slot: Int32
    /// The predecessor's slot that ran the same state.
    var predecessorSlot: UnsafeMutablePointer<UnitSlot>
    /// The replay buffer between the two slots, and the render functions that replay it.
    var mirror: UnsafeMutablePointer<UnitMirror>
    var mirrorFunctions: UnitRenderFunctions
    /// Parameter values written at takeover, by parameter index.
    var values: UnsafeMutablePointer<Float>
    var valueCount: Int32
    /// For a unit that bypasses itself: the parameter and the value written after `values` (−1: none).
    var bypassParameter: Int32
    var bypassValue: Float
}

/// A continued unit's output of the current chunk, replayed by the predecessor's slot while it fades out.
struct UnitMirror {
    /// One buffer per output channel (at most 2), the new graph's `maxFrames` each.
    var buffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var channels: Int32
    /// Frames written in this chunk; 0 when the new graph did not run the unit in it.
    var frames: Int32

    /// Render functions replaying a mirror (its state); silence when nothing was written for the chunk.
    static let functions = UnitRenderFunctions(
        process: { state, _, outputs, frames in
            let mirror = state.assumingMemoryBound(to: UnitMirror.self)
            let isWritten = mirror.pointee.frames == frames
            for channel in 0..<Int(mirror.pointee.channels) {
                if isWritten {
                    MixKernels.scale(UnsafePointer(mirror.pointee.buffers[channel]), into: outputs[channel], gain: 1, frames: Int(frames))
                } else {
                    MixKernels.clear(outputs[channel], frames: Int(frames))
                }
            }
        },
        setParameter: { _, _, _ in },
        reset: { _ in }
    )
}

extension GraphRender {
    /// Called by the audio thread as this graph replaces `previous`: writes the continued units' new
    /// parameter values and, when `previous` (their predecessor) fades out, turns its slots into mirrors.
    mutating func takeOver(from previous: UnsafeMutablePointer<GraphRender>?, isFading: Bool) {
        let mirrors = isFading && previous != nil && UnsafeMutableRawPointer(previous) == predecessor
        previous?.pointee.settleRestClocks()   // the units it shares with this graph meet it with their clocks paid
        for index in 0..<handoverCount {
            let handover = handovers + index
            let slot = units + Int(handover.pointee.slot)
            Self.wake(slot)
            for parameter in 0..<Int(handover.pointee.valueCount) {
                slot.pointee.functions.setParameter(slot.pointee.state, Int32(parameter), handover.pointee.values[parameter])
            }
            if handover.pointee.bypassParameter >= 0 {
                slot.pointee.functions.setParameter(slot.pointee.state, handover.pointee.bypassParameter, handover.pointee.bypassValue)
            }
            guard mirrors else { continue }
            handover.pointee.predecessorSlot.pointee.functions = handover.pointee.mirrorFunctions
            handover.pointee.predecessorSlot.pointee.state = UnsafeMutableRawPointer(handover.pointee.mirror)
            handover.pointee.mirror.pointee.frames = 0
            slot.pointee.mirror = handover.pointee.mirror
        }
    }

    /// Copies a continued unit's output for this chunk into its mirror (before any bypass blend).
    @inline(__always)
    func mirrorOutput(of slot: UnsafeMutablePointer<UnitSlot>, frames: Int) {
        guard let mirror = slot.pointee.mirror else { return }
        for channel in 0..<Int(mirror.pointee.channels) {
            MixKernels.scale(UnsafePointer(unitOutputs[channel]), into: mirror.pointee.buffers[channel], gain: 1, frames: frames)
        }
        mirror.pointee.frames = Int32(frames)
    }

    /// After the fading-out graph has rendered a chunk: mirrors are spent (the next chunk writes anew).
    mutating func clearMirrors() {
        for index in 0..<handoverCount { handovers[index].mirror.pointee.frames = 0 }
    }

    /// Once the predecessor has faded out: continued units stop copying their output.
    mutating func stopMirroring() {
        for index in 0..<handoverCount { units[Int(handovers[index].slot)].mirror = nil }
    }
}
